/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-bars-chart.h"
#include "ws-run.h"

G_BEGIN_DECLS

#define WS_TYPE_BARS_VIEW (ws_bars_view_get_type ())

G_DECLARE_FINAL_TYPE (WsBarsView, ws_bars_view, WS, BARS_VIEW, GtkDrawingArea)

GtkWidget *ws_bars_view_new (void);
void ws_bars_view_set_summary (WsBarsView *self, WsSummary *summary);
void ws_bars_view_set_top_n (WsBarsView *self, guint top_n);
guint ws_bars_view_get_top_n (WsBarsView *self);
void ws_bars_view_set_sort (WsBarsView *self, WsBarsSort sort);
void ws_bars_view_set_filter (WsBarsView *self, const char *filter);
void ws_bars_view_set_verdict_func (WsBarsView *self, WsVerdictFunc func, gpointer data,
                                    GDestroyNotify notify);
const WsBarsModel *ws_bars_view_get_model (WsBarsView *self);
int ws_bars_view_get_selected (WsBarsView *self);
void ws_bars_view_select (WsBarsView *self, int index);
gboolean ws_bars_view_select_name (WsBarsView *self, const char *name);

G_END_DECLS
