/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-compare-budgets-page.h"
#include "ws-compare-findings-page.h"
#include "ws-compare-gauges-page.h"
#include "ws-compare-timelines.h"
#include "ws-compare-view.h"
#include "ws-compare-window.h"
#include "ws-steps.h"

G_BEGIN_DECLS

/* Shared by ws-compare-window.c (loading, comparing, the table) and
 * ws-compare-window-export.c (the chart and CSV exports). */

struct _WsCompareWindow
{
  GtkApplicationWindow parent_instance;

  WsRun *runs[2];  /* before, after */
  WsRun *shown[2]; /* what is compared: their steady states when both have steps, or NULL */
  WsSteps *steps[2];
  char *scope;             /* which steps the steady states hold, or NULL */
  gboolean scoping;        /* the steps of both runs are being found */
  GCancellable *comparing; /* a comparison being built on a worker, or NULL */
  gboolean ready_pending;  /* "ready" goes once the first comparison is shown */
  gboolean whole_run;      /* compare the whole runs even where both have steps */
  char **paths[2];
  char *peers[2]; /* two ranks of one job: their names, where others say before and after */
  WsComparison *cmp;
  GCancellable *cancellable;
  GCancellable *export_cancellable; /* the exports', cancelled when the window closes */
  char *export_text;                /* the info bar's line of an export done, or NULL */
  guint pending;
  WsMatchBy by;

  /* Template widgets */
  GtkHeaderBar *header_bar;
  GtkComboBox *match_combo;
  GtkComboBox *scope_combo;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkStack *main_stack;
  GtkProgressBar *progress_bar;
  GtkLabel *headline_label;
  GtkLabel *scope_label;
  GtkGrid *figures_grid;
  GtkStack *view_stack;
  WsCompareView *kernels_view;
  WsCompareView *ranges_view;
  GtkTreeView *table;
  WsCompareGaugesPage *gauges_page;
  WsCompareFindingsPage *findings_page;
  WsCompareBudgetsPage *budgets_page;
  WsCompareTimelines *timelines;

  GtkTreeViewColumn *verdict_column;
};

void ws_compare_window_show_error (WsCompareWindow *self, const char *message);
void ws_compare_window_show_message (WsCompareWindow *self, GtkMessageType type,
                                     const char *message);

/* ws-compare-window-export.c */
void ws_compare_window_export_action (GSimpleAction *action, GVariant *param, gpointer data);

G_END_DECLS
