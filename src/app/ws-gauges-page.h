/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-gauges-view.h"
#include "ws-run.h"

G_BEGIN_DECLS

#define WS_TYPE_GAUGES_PAGE (ws_gauges_page_get_type ())

G_DECLARE_FINAL_TYPE (WsGaugesPage, ws_gauges_page, WS, GAUGES_PAGE, GtkBox)

void ws_gauges_page_set_run (WsGaugesPage *self, WsRun *run);
gboolean ws_gauges_page_is_empty (WsGaugesPage *self);
WsGaugesView *ws_gauges_page_get_overview (WsGaugesPage *self);
WsGaugesView *ws_gauges_page_get_panel (WsGaugesPage *self);
const char *ws_gauges_page_get_details_text (WsGaugesPage *self);
const char *ws_gauges_page_get_unmatched_text (WsGaugesPage *self);

G_END_DECLS
