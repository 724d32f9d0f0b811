/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-compare-chart.h"

G_BEGIN_DECLS

#define WS_TYPE_COMPARE_VIEW (ws_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (WsCompareView, ws_compare_view, WS, COMPARE_VIEW, GtkDrawingArea)

GtkWidget *ws_compare_view_new (void);
void ws_compare_view_set_comparison (WsCompareView *self, WsComparison *cmp);
void ws_compare_view_set_ranges (WsCompareView *self, gboolean ranges);
const WsCompareState *ws_compare_view_get_state (WsCompareView *self);
WsComparison *ws_compare_view_get_comparison (WsCompareView *self);

G_END_DECLS
