/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-compare-budgets-page.h"
#include "ws-compare-findings-page.h"
#include "ws-compare-gauges-page.h"
#include "ws-compare-timelines.h"
#include "ws-comparison.h"

G_BEGIN_DECLS

#define WS_TYPE_COMPARE_WINDOW (ws_compare_window_get_type ())

G_DECLARE_FINAL_TYPE (WsCompareWindow, ws_compare_window, WS, COMPARE_WINDOW, GtkApplicationWindow)

/* What ws_compare_window_export() writes. */
typedef enum
{
  WS_COMPARE_WINDOW_EXPORT_CHART, /* the chart of the page on show: PNG, SVG or PDF */
  WS_COMPARE_WINDOW_EXPORT_CSV,   /* the comparison as `compare --format csv` prints it */
} WsCompareWindowExport;

WsCompareWindow *ws_compare_window_new (GtkApplication *application);
void ws_compare_window_load (WsCompareWindow *self, const char *const *before,
                             const char *const *after);
void ws_compare_window_set_runs (WsCompareWindow *self, WsRun *before, WsRun *after);
void ws_compare_window_set_peers (WsCompareWindow *self, const char *a, const char *b);
WsComparison *ws_compare_window_get_comparison (WsCompareWindow *self);
gboolean ws_compare_window_is_loading (WsCompareWindow *self);
const char *ws_compare_window_get_headline (WsCompareWindow *self);
void ws_compare_window_set_match (WsCompareWindow *self, WsMatchBy by);
void ws_compare_window_swap (WsCompareWindow *self);
void ws_compare_window_set_whole_run (WsCompareWindow *self, gboolean whole_run);
GtkTreeView *ws_compare_window_get_table (WsCompareWindow *self);
void ws_compare_window_export (WsCompareWindow *self, WsCompareWindowExport kind, const char *path);
const char *ws_compare_window_get_export_message (WsCompareWindow *self);
WsCompareGaugesPage *ws_compare_window_get_gauges_page (WsCompareWindow *self);
WsCompareFindingsPage *ws_compare_window_get_findings_page (WsCompareWindow *self);
WsCompareBudgetsPage *ws_compare_window_get_budgets_page (WsCompareWindow *self);
void ws_compare_window_show_view (WsCompareWindow *self, const char *name);

WsCompareTimelines *ws_compare_window_get_timelines (WsCompareWindow *self);

G_END_DECLS
