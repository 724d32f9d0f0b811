/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-ranks-chart.h"

G_BEGIN_DECLS

/* The ranks heatmap as a widget: hover for a cell's numbers, click to
 * open that rank's timeline at that step (WsRanksView::cell-activated). */
#define WS_TYPE_RANKS_VIEW (ws_ranks_view_get_type ())
G_DECLARE_FINAL_TYPE (WsRanksView, ws_ranks_view, WS, RANKS_VIEW, GtkDrawingArea)

GtkWidget *ws_ranks_view_new (void);
void ws_ranks_view_set_model (WsRanksView *self, WsRanksChartModel *model);
const WsRanksChartModel *ws_ranks_view_get_model (WsRanksView *self);
void ws_ranks_view_set_metric (WsRanksView *self, WsRanksMetric metric);
WsRanksMetric ws_ranks_view_get_metric (WsRanksView *self);
gboolean ws_ranks_view_cell_center (WsRanksView *self, guint row, guint col, double *x, double *y);
char *ws_ranks_view_cell_text (WsRanksView *self, guint row, guint col);

G_END_DECLS
