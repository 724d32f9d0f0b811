/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-why-chart.h"

G_BEGIN_DECLS

/* A chart of why a kernel is slow: its stalls, its roofline, its memory
 * hierarchy, or the roofline of every profiled kernel of the run. */

#define WS_TYPE_WHY_VIEW (ws_why_view_get_type ())
G_DECLARE_FINAL_TYPE (WsWhyView, ws_why_view, WS, WHY_VIEW, GtkDrawingArea)

GtkWidget *ws_why_view_new (WsWhyChart chart);
void ws_why_view_set_chart (WsWhyView *self, WsWhyChart chart);
WsWhyChart ws_why_view_get_chart (WsWhyView *self);
void ws_why_view_set_why (WsWhyView *self, WsNcuResults *results, const WsWhy *why);
void ws_why_view_set_run_roofline (WsWhyView *self, WsRooflineModel *model);
const WsRooflineModel *ws_why_view_get_roofline (WsWhyView *self);
const WsWhy *ws_why_view_get_why (WsWhyView *self);

G_END_DECLS
