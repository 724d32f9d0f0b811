/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-critical-path-page.h"
#include "ws-findings-page.h"
#include "ws-flame-page.h"
#include "ws-gauges-page.h"
#include "ws-kernels-page.h"
#include "ws-overview.h"
#include "ws-ranks-page.h"
#include "ws-steps-page.h"
#include "ws-summaries-page.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

G_BEGIN_DECLS

/* Shared by ws-window.c, ws-window-job.c (opening a job's ranks) and
 * ws-window-digest.c (opening a job digest). */

struct _WsWindow
{
  GtkApplicationWindow parent_instance;

  WsRun *run;
  WsSteps *steps;       /* the run's steps once found, or NULL */
  WsRun *steady;        /* its steady state, or NULL */
  char *setup_line;     /* what the steady state leaves out, or NULL */
  gboolean show_steady; /* the header's choice: pages show the steady state */
  GCancellable *steps_cancellable;
  GCancellable *cancellable;
  GCancellable *export_cancellable; /* the exports', cancelled when the window closes */
  char **paths;
  char *error_text;
  char *export_text; /* the info bar's line of an export done, or NULL */

  GtkWidget *view_switcher; /* the header bar's title while views show */
  char *digest_folder;      /* where a digest's exports are now, as the user said, or NULL */
  gboolean digest_pending;  /* a rank whose export was not found, opened once a folder is given: */
  guint digest_pending_rank;
  guint digest_pending_step;
  GSettings *settings;  /* NULL without an installed schema */
  char *compare_before; /* the runs the runs bar offers to compare, or NULL */
  char *compare_after;
  WsOverview *overview;      /* the first frame shown while a big export loads, or NULL */
  guint64 overview_min_size; /* bytes: smaller exports open without one */

  /* Template widgets */
  GtkHeaderBar *header_bar;
  GtkMenuButton *recent_button;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkInfoBar *digest_bar;
  GtkLabel *digest_label;
  GtkWidget *digest_folder_button;
  GtkInfoBar *runs_bar;
  GtkLabel *runs_label;
  GtkWidget *runs_compare_button;
  GtkStack *main_stack;
  GtkStack *view_stack;
  GtkLabel *loading_label;
  GtkWidget *overview_area;
  GtkWidget *overview_note;
  GtkWidget *loading_box;
  GtkProgressBar *progress_bar;
  WsKernelsPage *kernels_page;
  WsSummariesPage *summaries_page;
  WsFindingsPage *findings_page;
  WsFlamePage *flame_page;
  WsGaugesPage *gauges_page;
  WsTimelinePage *timeline_page;
  WsStepsPage *steps_page;
  WsCriticalPathPage *critical_page;
  GCancellable *critical_cancellable;
  WsRanksPage *ranks_page;
  GtkComboBox *scope_combo;
};

void ws_window_set_title_for (WsWindow *self);
void ws_window_show_message (WsWindow *self, GtkMessageType type, const char *message);
void ws_window_show_loaded (WsWindow *self, GCancellable *cancellable, WsRun *run, GError *error);
void ws_window_load_job (WsWindow *self, const char *const *paths);
void ws_window_start_load (WsWindow *self);

gboolean ws_window_load_overview_first (WsWindow *self);
void ws_window_clear_overview (WsWindow *self);
gboolean ws_window_overview_draw_cb (WsWindow *self, cairo_t *cr, GtkWidget *area);
void ws_window_step_activated_cb (WsWindow *self, guint index, guint step, WsRanksPage *page);
void ws_window_compare_peers_cb (WsWindow *self, guint a, guint b, WsRanksPage *page);

void ws_window_show_digest (WsWindow *self);
void ws_window_open_digest_rank (WsWindow *self, guint index, guint step);
void ws_window_digest_bar_response_cb (WsWindow *self, int response, GtkInfoBar *bar);

/* ws-window-export.c */
void ws_window_export_action (GSimpleAction *action, GVariant *param, gpointer data);

/* ws-window-runs.c */
void ws_window_runs_bar_response_cb (WsWindow *self, int response, GtkInfoBar *bar);

/* ws-window-steps.c */
WsRun *ws_window_shown_run (WsWindow *self);
void ws_window_find_steps (WsWindow *self);
void ws_window_find_critical_path (WsWindow *self);
void ws_window_cancel_critical_path (WsWindow *self);
void ws_window_show_critical_path (WsWindow *self);
void ws_window_what_if_cb (WsWindow *self, const char *change, WsTimelinePage *page);
void ws_window_critical_item_cb (WsWindow *self, int group, const char *name,
                                 WsCriticalPathPage *page);
void ws_window_scope_changed_cb (WsWindow *self, GtkComboBox *combo);

G_END_DECLS
