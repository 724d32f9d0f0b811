/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-gauges-overview.h"

G_BEGIN_DECLS

#define WS_TYPE_GAUGES_VIEW (ws_gauges_view_get_type ())

G_DECLARE_FINAL_TYPE (WsGaugesView, ws_gauges_view, WS, GAUGES_VIEW, GtkDrawingArea)

GtkWidget *ws_gauges_view_new (gboolean panel);
void ws_gauges_view_set_results (WsGaugesView *self, WsNcuResults *results);
void ws_gauges_view_set_sort (WsGaugesView *self, int sort);
int ws_gauges_view_get_sort (WsGaugesView *self);
guint ws_gauges_view_get_n_rows (WsGaugesView *self);
const WsGaugesOverview *ws_gauges_view_get_overview (WsGaugesView *self);
void ws_gauges_view_select_launch (WsGaugesView *self, int launch);
int ws_gauges_view_get_launch (WsGaugesView *self);
gboolean ws_gauges_view_get_row_rect (WsGaugesView *self, guint row, GdkRectangle *rect);
void ws_gauges_view_set_min_height (WsGaugesView *self, int height);

G_END_DECLS
