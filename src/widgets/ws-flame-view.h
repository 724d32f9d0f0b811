/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-flame-chart.h"
#include "ws-flame.h"

G_BEGIN_DECLS

#define WS_TYPE_FLAME_VIEW (ws_flame_view_get_type ())
G_DECLARE_FINAL_TYPE (WsFlameView, ws_flame_view, WS, FLAME_VIEW, GtkDrawingArea)

GtkWidget *ws_flame_view_new (void);
void ws_flame_view_set_graph (WsFlameView *self, WsFlameGraph *graph);
WsFlameGraph *ws_flame_view_get_graph (WsFlameView *self);
void ws_flame_view_set_layout (WsFlameView *self, WsFlameLayout layout);
double ws_flame_view_set_search (WsFlameView *self, const char *query);
void ws_flame_view_zoom (WsFlameView *self, guint32 node);
guint32 ws_flame_view_get_zoom (WsFlameView *self);
char *ws_flame_view_describe (WsFlameView *self, guint32 node);

G_END_DECLS
