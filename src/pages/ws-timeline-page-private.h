/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-nvtx-gpu.h"
#include "ws-timeline-page.h"
#include "ws-timeline-rollup.h"

G_BEGIN_DECLS

/* Shared by ws-timeline-page.c and ws-timeline-page-ranks.c (a job's
 * ranks on the timeline). */

struct _WsTimelinePage
{
  GtkBox parent_instance;

  WsRun *run;
  WsLanes *lanes;
  WsNvtxKernels *nvtx_kernels;
  WsNvtxGpu *nvtx_gpu;      /* both figures per NVTX range, once computed */
  WsTimelineRollup *rollup; /* each range's bottleneck, or NULL */
  GCancellable *cancellable;
  GSimpleActionGroup *actions;
  WsFinding *pending_finding; /* to show once the lanes are ready */
  gboolean pending_step;      /* a rank's step to show once the lanes are ready: */
  guint32 pending_pid;
  gint64 pending_start; /* ns */
  gint64 pending_end;   /* ns */
  gboolean rank_range;  /* the ruler's range is a rank's step (the Ranks page): */
  guint32 rank_pid;     /* the rank's process */
  gint64 rank_start;    /* ns: the step on the run's clock */
  gint64 rank_end;
  gint64 rank_shift; /* ns: where the rank's lanes are drawn, less the run's clock */

  /* Template widgets */
  GtkSearchEntry *search_entry;
  guint refocus_id; /* the idle that gives the lanes the focus back */
  GtkLabel *match_label;
  GtkLabel *range_label;
  GtkLabel *left_out_label;
  GtkListStore *lanes_store; /* one row per lane: LANE_COL_* */
  GtkStack *view_stack;
  GtkSpinner *spinner;
  GtkLabel *status_label;
  WsTimelineView *timeline_view;
  GtkScrollbar *vscrollbar;
  GtkLabel *side_title;
  GtkLabel *details_label;
  GtkWidget *flame_button; /* "Flame Graph of This Range" */
  GtkTreeView *side_tree;
  GtkListStore *side_store;
  GtkTreeViewColumn *name_column;
  GtkTreeViewColumn *time_column;
  GtkTreeViewColumn *count_column;
  GtkTreeViewColumn *extra_column;
  GtkCheckButton *group_ops_check;
  GtkTreeViewColumn *bottleneck_column;
  GtkComboBoxText *align_combo;
};

/* ws-timeline-page-side.c */
char *ws_timeline_page_count_text (gint64 n);
void ws_timeline_page_show_nvtx_summary (WsTimelinePage *self);
void ws_timeline_page_event_selected_cb (WsTimelinePage *self, guint event, WsTimelineView *view);
void ws_timeline_page_range_selected_cb (WsTimelinePage *self, gint64 start, gint64 end,
                                         WsTimelineView *view);
void ws_timeline_page_side_row_activated_cb (WsTimelinePage *self, GtkTreePath *path,
                                             GtkTreeViewColumn *column, GtkTreeView *tree);
void ws_timeline_page_group_ops_toggled_cb (WsTimelinePage *self, GtkToggleButton *button);

/* ws-timeline-page-ranks.c */
void ws_timeline_page_setup_ranks (WsTimelinePage *self);
void ws_timeline_page_align_changed_cb (WsTimelinePage *self, GtkComboBox *combo);

G_END_DECLS
