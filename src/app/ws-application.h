/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-compare-window.h"

G_BEGIN_DECLS

#define WS_TYPE_APPLICATION (ws_application_get_type ())

G_DECLARE_FINAL_TYPE (WsApplication, ws_application, WS, APPLICATION, GtkApplication)

WsApplication *ws_application_new (GApplicationFlags flags);
char *ws_application_demo_path (void);
GMenuModel *ws_application_get_recent_menu (WsApplication *self);
void ws_application_note_recent (WsApplication *self, const char *const *paths);
GSettings *ws_application_get_settings (WsApplication *self);
WsCompareWindow *ws_application_compare (WsApplication *self, const char *before,
                                         const char *after);

G_END_DECLS
