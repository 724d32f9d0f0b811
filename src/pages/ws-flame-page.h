/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-run.h"

G_BEGIN_DECLS

#define WS_TYPE_FLAME_PAGE (ws_flame_page_get_type ())
G_DECLARE_FINAL_TYPE (WsFlamePage, ws_flame_page, WS, FLAME_PAGE, GtkBox)

GtkWidget *ws_flame_page_new (void);
void ws_flame_page_set_run (WsFlamePage *self, WsRun *run);
GtkWidget *ws_flame_page_get_view (WsFlamePage *self);
void ws_flame_page_set_search (WsFlamePage *self, const char *query);
void ws_flame_page_set_range (WsFlamePage *self, gint64 from, gint64 to);
const char *ws_flame_page_get_range_text (WsFlamePage *self);

G_END_DECLS
