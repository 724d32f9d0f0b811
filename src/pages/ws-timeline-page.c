/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-label-wrap.h"
#include "ws-gpu-busy.h"
#include "ws-nvtx-gpu.h"
#include "ws-rollup-renderer.h"
#include "ws-stats.h"
#include "ws-steps.h"
#include "ws-timeline-page-private.h"
#include "ws-timeline-rollup.h"
#include "ws-timeline-text.h"

G_DEFINE_FINAL_TYPE (WsTimelinePage, ws_timeline_page, GTK_TYPE_BOX)

enum
{
  FLAME_RANGE,
  WHAT_IF,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* "Flame Graph of This Range": the window shows the Flame graph page of
 * the selected stretch. */
static void
flame_button_clicked_cb (WsTimelinePage *self)
{
  gint64 start, end;

  if (self->run != NULL && ws_timeline_view_get_range (self->timeline_view, &start, &end) &&
      end > start)
    g_signal_emit (self, signals[FLAME_RANGE], 0, start, end);
}

/* ---- the toolbar ------------------------------------------------------ */

static void
update_range_label (WsTimelinePage *self)
{
  WsTimeWindow *window = ws_timeline_view_get_window (self->timeline_view);
  g_autofree char *text = NULL;
  gint64 start, end;

  if (self->run == NULL || self->lanes == NULL)
    {
      gtk_label_set_text (self->range_label, "");
      return;
    }
  ws_time_window_get_range (window, &start, &end);
  text = ws_timeline_format_range (self->run, start, end);
  gtk_label_set_text (self->range_label, text);
}

static void
window_changed_cb (WsTimelinePage *self, WsTimeWindow *window)
{
  update_range_label (self);
}

static void
search_changed_cb (WsTimelinePage *self, GtkSearchEntry *entry)
{
  /* Spaces around the name do not count ("k_scale " is "k_scale"). */
  g_autofree char *text = g_strstrip (g_strdup (gtk_entry_get_text (GTK_ENTRY (entry))));
  guint n = ws_timeline_view_set_search (self->timeline_view, text);
  g_autofree char *count = ws_timeline_page_count_text (n);
  g_autofree char *label = NULL;
  WsEventRef selected = ws_timeline_view_get_selected (self->timeline_view);

  if (text[0] == '\0')
    label = g_strdup ("");
  else if (n == 0)
    label = g_strdup (_ ("No match"));
  else
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s match", "%s matches", n), count);
  gtk_label_set_text (self->match_label, label);

  /* Bring a hit into view as the name is typed, as a browser's find bar
   * does: the selected event if it still matches, else the next match
   * after it (or after the middle of the view), which gets selected. */
  if (n == 0)
    return;
  if (ws_timeline_view_search_matches (self->timeline_view, selected))
    ws_timeline_view_reveal (self->timeline_view, selected);
  else
    ws_timeline_view_find (self->timeline_view, FALSE);
}

static void
search_activate_cb (WsTimelinePage *self, GtkSearchEntry *entry)
{
  ws_timeline_view_find (self->timeline_view, FALSE);
}

enum
{
  LANE_COL_SHOWN,
  LANE_COL_TEXT,
  LANE_COL_INDENT,
};

/* A row of the "Lanes shown" list (a tree, which draws only the rows in
 * view: a run may have thousands of lanes) was toggled. */
static void
lane_toggled_cb (WsTimelinePage *self, const char *path, GtkCellRendererToggle *toggle)
{
  g_autoptr (GtkTreePath) tree_path = gtk_tree_path_new_from_string (path);
  guint32 lane;
  guint8 flags;

  if (tree_path == NULL || gtk_tree_path_get_depth (tree_path) != 1)
    return;
  lane = (guint32) gtk_tree_path_get_indices (tree_path)[0];
  flags = ws_timeline_view_get_lane_flags (self->timeline_view, lane);
  ws_timeline_view_set_lane_flags (self->timeline_view, lane, flags ^ WS_LANE_FLAG_HIDDEN);
}

static void
lanes_changed_cb (WsTimelinePage *self, WsTimelineView *view)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self->lanes_store);
  GtkTreeIter iter;
  guint32 l = 0;

  for (gboolean more = gtk_tree_model_get_iter_first (model, &iter); more;
       more = gtk_tree_model_iter_next (model, &iter), l++)
    gtk_list_store_set (self->lanes_store, &iter, LANE_COL_SHOWN,
                        !(ws_timeline_view_get_lane_flags (view, l) & WS_LANE_FLAG_HIDDEN), -1);
}

static void
build_lane_list (WsTimelinePage *self)
{
  gtk_list_store_clear (self->lanes_store);
  if (self->lanes == NULL)
    return;
  for (guint l = 0; l < ws_lanes_get_n_lanes (self->lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);
      g_autofree char *subtitle = NULL;
      g_autofree char *title = ws_timeline_lane_title (self->lanes, l, &subtitle);
      g_autofree char *text =
        subtitle != NULL ? g_strdup_printf ("%s — %s", title, subtitle) : g_strdup (title);

      gtk_list_store_insert_with_values (
        self->lanes_store, NULL, -1, LANE_COL_SHOWN,
        !(ws_timeline_view_get_lane_flags (self->timeline_view, l) & WS_LANE_FLAG_HIDDEN),
        LANE_COL_TEXT, text, LANE_COL_INDENT, lane->kind != WS_LANE_GROUP ? 18u : 0u, -1);
    }
}

/* ---- actions ---------------------------------------------------------- */

static void
zoom_in_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_zoom (WS_TIMELINE_PAGE (data)->timeline_view, 1.5);
}

static void
zoom_out_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_zoom (WS_TIMELINE_PAGE (data)->timeline_view, 1 / 1.5);
}

static void
zoom_fit_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_zoom_fit (WS_TIMELINE_PAGE (data)->timeline_view);
}

static void
zoom_selection_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_zoom_selection (WS_TIMELINE_PAGE (data)->timeline_view);
}

static void
pan_left_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_pan (WS_TIMELINE_PAGE (data)->timeline_view, -0.15);
}

static void
pan_right_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_pan (WS_TIMELINE_PAGE (data)->timeline_view, 0.15);
}

static void
go_start_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_go_home (WS_TIMELINE_PAGE (data)->timeline_view);
}

static void
go_end_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_go_end (WS_TIMELINE_PAGE (data)->timeline_view);
}

static void
find_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  gtk_widget_grab_focus (GTK_WIDGET (WS_TIMELINE_PAGE (data)->search_entry));
}

static void
find_next_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_find (WS_TIMELINE_PAGE (data)->timeline_view, FALSE);
}

static void
find_previous_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_find (WS_TIMELINE_PAGE (data)->timeline_view, TRUE);
}

static void
show_all_lanes_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  ws_timeline_view_show_all_lanes (WS_TIMELINE_PAGE (data)->timeline_view);
}

static const GActionEntry page_actions[] = {
  { "zoom-in", zoom_in_action },
  { "zoom-out", zoom_out_action },
  { "zoom-fit", zoom_fit_action },
  { "zoom-selection", zoom_selection_action },
  { "pan-left", pan_left_action },
  { "pan-right", pan_right_action },
  { "go-start", go_start_action },
  { "go-end", go_end_action },
  { "find", find_action },
  { "find-next", find_next_action },
  { "find-previous", find_previous_action },
  { "show-all-lanes", show_all_lanes_action },
};

/* The accelerators of the timeline's actions; they act while the focus
 * is inside the page.  The view itself takes the plain keys (W, A, S, D,
 * +, -, Home, End) so that they never reach the search entry. */
static void
set_accels (GtkApplication *app)
{
  static const struct
  {
    const char *action;
    const char *accels[4];
  } accels[] = {
    { "timeline.zoom-in", { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL } },
    { "timeline.zoom-out", { "<Control>minus", "<Control>KP_Subtract", NULL } },
    { "timeline.zoom-fit", { "<Control>0", NULL } },
    { "timeline.zoom-selection", { "<Control>Return", NULL } },
    { "timeline.find", { "<Control>f", NULL } },
    { "timeline.find-next", { "<Control>g", "F3", NULL } },
    { "timeline.find-previous", { "<Shift><Control>g", "<Shift>F3", NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (app, accels[i].action, accels[i].accels);
}

/* The window gets its application after its template (this page) is built:
 * the accelerators are set once the page is realized. */
static void
realize_cb (WsTimelinePage *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  GtkApplication *app =
    GTK_IS_WINDOW (toplevel) ? gtk_window_get_application (GTK_WINDOW (toplevel)) : NULL;

  if (app != NULL)
    set_accels (app);
}

/* ---- loading ---------------------------------------------------------- */

/* The lanes and where the view opens. */
typedef struct
{
  WsLanes *lanes;
  gint64 start; /* ns: the first view; start == end for the whole session */
  gint64 end;
} LanesResult;

static void
lanes_result_free (LanesResult *p)
{
  g_clear_pointer (&p->lanes, ws_lanes_unref);
  g_free (p);
}

/* First to last kernel, memory operation or graph replay, or FALSE for a
 * run with no GPU work. */
static gboolean
gpu_work_span (const WsRun *run, gint64 *start, gint64 *end)
{
  const struct
  {
    gsize n;
    const gint64 *start, *end;
  } kinds[] = {
    { run->kernels.n, run->kernels.start, run->kernels.end },
    { run->memops.n, run->memops.start, run->memops.end },
    { run->replays.n, run->replays.start, run->replays.end },
  };

  *start = G_MAXINT64;
  *end = G_MININT64;
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      if (kinds[k].n == 0)
        continue;
      /* Sorted by start. */
      *start = MIN (*start, kinds[k].start[0]);
      for (gsize i = 0; i < kinds[k].n; i++)
        *end = MAX (*end, kinds[k].end[i]);
    }
  return *end > *start;
}

/* Where the timeline opens (docs/NOTES.md, "The timeline"): the first
 * WS_TIMELINE_FIRST_STEPS steady steps, else the stretch with GPU work,
 * else the whole session; a 40th of the stretch beside each end. */
static void
first_view (WsRun *run, gint64 *start, gint64 *end)
{
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
  WsSpan span;
  gint64 margin;

  if (ws_steps_first_view (steps, WS_TIMELINE_FIRST_STEPS, &span))
    {
      *start = span.start;
      *end = span.end;
    }
  else if (!gpu_work_span (run, start, end))
    {
      *start = *end = 0;
      return;
    }
  margin = MAX ((*end - *start) / 40, 1000);
  *start -= margin;
  *end += margin;
}

static void
build_lanes_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  LanesResult *p = g_new0 (LanesResult, 1);

  p->lanes = ws_lanes_new (data);
  if (!g_cancellable_is_cancelled (cancellable))
    first_view (data, &p->start, &p->end);
  g_task_return_pointer (task, p, (GDestroyNotify) lanes_result_free);
}

typedef struct
{
  WsNvtxKernels *nvtx_kernels;
  WsNvtxGpu *nvtx_gpu;
} NvtxFigures;

static void
nvtx_figures_free (NvtxFigures *p)
{
  g_clear_pointer (&p->nvtx_kernels, ws_nvtx_kernels_unref);
  g_clear_pointer (&p->nvtx_gpu, ws_nvtx_gpu_unref);
  g_free (p);
}

static void
build_nvtx_figures_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  NvtxFigures *p = g_new0 (NvtxFigures, 1);
  g_autoptr (WsLaunchIndex) launches = ws_launch_index_new (ws_lanes_get_run (data));
  g_autoptr (WsNvtxJoin) join = ws_nvtx_join_new (launches);

  /* One launch index and one join for both. */
  p->nvtx_kernels = ws_nvtx_kernels_new_for_join (join);
  p->nvtx_gpu = ws_nvtx_gpu_new_for_join (join);
  g_task_return_pointer (task, p, (GDestroyNotify) nvtx_figures_free);
}

static void
rollup_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  WsTimelinePage *self = data;
  WsTimelineRollup *rollup = ws_timeline_rollup_finish (result);
  gint64 start, end;

  if (rollup == NULL)
    return;
  g_clear_pointer (&self->rollup, ws_timeline_rollup_free);
  self->rollup = rollup;
  /* Only the table of ranges shows it: leave an event's or a stretch's
   * list as it is. */
  if (ws_timeline_view_get_selected (self->timeline_view) == WS_EVENT_NONE &&
      !ws_timeline_view_get_range (self->timeline_view, &start, &end))
    ws_timeline_page_show_nvtx_summary (self);
}

static void
nvtx_figures_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  WsTimelinePage *self = WS_TIMELINE_PAGE (source);
  NvtxFigures *p = g_task_propagate_pointer (G_TASK (result), NULL);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  WsEventRef selected;

  if (p == NULL || g_cancellable_is_cancelled (cancellable))
    {
      if (p != NULL)
        nvtx_figures_free (p);
      return;
    }
  self->nvtx_kernels = g_steal_pointer (&p->nvtx_kernels);
  self->nvtx_gpu = g_steal_pointer (&p->nvtx_gpu);
  nvtx_figures_free (p);
  ws_timeline_view_set_nvtx_kernels (self->timeline_view, self->nvtx_kernels);
  selected = ws_timeline_view_get_selected (self->timeline_view);
  ws_timeline_page_event_selected_cb (self, selected, self->timeline_view);
  /* Each range's bottleneck, where kernels were profiled; the page's
   * cancellable stops it before the page goes. */
  if (self->run->ncu != NULL)
    ws_timeline_rollup_async (self->run, self->nvtx_kernels, cancellable, rollup_ready, self);
}

/* Past 2^29 events of one kind the lanes stop (WS_EVENT_INDEX_MAX): said,
 * never silent. */
static void
show_left_out (WsTimelinePage *self)
{
  g_autofree char *text = ws_timeline_left_out_text (self->run);

  gtk_label_set_text (self->left_out_label, text != NULL ? text : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->left_out_label), text);
  gtk_widget_set_visible (GTK_WIDGET (self->left_out_label), text != NULL);
}

static void
lanes_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  WsTimelinePage *self = WS_TIMELINE_PAGE (source);
  LanesResult *p = g_task_propagate_pointer (G_TASK (result), NULL);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr (WsLanes) lanes = NULL;
  gint64 view_start, view_end;
  GTask *task;

  if (p == NULL)
    return;
  lanes = g_steal_pointer (&p->lanes);
  view_start = p->start;
  view_end = p->end;
  lanes_result_free (p);
  if (lanes == NULL || g_cancellable_is_cancelled (cancellable))
    return;
  self->lanes = ws_lanes_ref (lanes);
  gtk_spinner_stop (self->spinner);
  if (ws_lanes_get_n_lanes (lanes) == 0)
    {
      gtk_label_set_text (self->status_label, _ ("This run has no events to show on a timeline."));
      return;
    }
  ws_timeline_view_set_lanes (self->timeline_view, lanes);
  /* The steady steps, not the set-up: Ctrl+0 (or 0) still fits the
   * whole session. */
  if (view_end > view_start)
    ws_time_window_zoom_to (ws_timeline_view_get_window (self->timeline_view), view_start,
                            view_end);
  build_lane_list (self);
  show_left_out (self);
  gtk_stack_set_visible_child_name (self->view_stack, "timeline");
  update_range_label (self);
  ws_timeline_page_show_nvtx_summary (self);
  ws_timeline_page_setup_ranks (self);
  if (self->pending_finding != NULL)
    {
      g_autoptr (WsFinding) finding = g_steal_pointer (&self->pending_finding);

      ws_timeline_page_show_finding (self, finding);
    }
  if (self->pending_step)
    {
      self->pending_step = FALSE;
      ws_timeline_page_show_rank_step (self, self->pending_pid, self->pending_start,
                                       self->pending_end);
      self->pending_start = self->pending_end = 0;
    }
  else if (self->pending_end > self->pending_start)
    {
      ws_timeline_page_show_time (self, self->pending_start, self->pending_end);
      self->pending_start = self->pending_end = 0;
    }

  task = g_task_new (self, cancellable, nvtx_figures_ready, NULL);
  g_task_set_source_tag (task, lanes_ready);
  g_task_set_task_data (task, ws_lanes_ref (lanes), (GDestroyNotify) ws_lanes_unref);
  g_task_run_in_thread (task, build_nvtx_figures_thread);
  g_object_unref (task);
}

/**
 * ws_timeline_page_set_run:
 * @run: (nullable): the run to show
 *
 * Sorts the run's events into lanes on a worker thread, then shows them;
 * the NVTX figures follow on another.
 */
void
ws_timeline_page_set_run (WsTimelinePage *self, WsRun *run)
{
  GTask *task;

  g_return_if_fail (WS_IS_TIMELINE_PAGE (self));

  g_clear_handle_id (&self->refocus_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* A path names the events of the run it was found in. */
  ws_timeline_view_set_path (self->timeline_view, NULL);
  g_clear_pointer (&self->nvtx_kernels, ws_nvtx_kernels_unref);
  g_clear_pointer (&self->nvtx_gpu, ws_nvtx_gpu_unref);
  g_clear_pointer (&self->rollup, ws_timeline_rollup_free);
  g_clear_pointer (&self->lanes, ws_lanes_unref);
  g_clear_pointer (&self->pending_finding, ws_finding_unref);
  self->pending_step = FALSE;
  self->rank_range = FALSE;
  ws_timeline_view_set_highlight (self->timeline_view, NULL);
  if (run != NULL)
    ws_run_ref (run);
  g_clear_pointer (&self->run, ws_run_unref);
  self->run = run;

  ws_timeline_view_set_lanes (self->timeline_view, NULL);
  gtk_widget_hide (GTK_WIDGET (self->align_combo));
  build_lane_list (self);
  gtk_entry_set_text (GTK_ENTRY (self->search_entry), "");
  gtk_list_store_clear (self->side_store);
  gtk_label_set_text (self->side_title, "");
  gtk_label_set_text (self->details_label, "");
  gtk_widget_hide (GTK_WIDGET (self->side_tree));
  update_range_label (self);
  gtk_stack_set_visible_child_name (self->view_stack, "status");
  if (run == NULL)
    {
      gtk_spinner_stop (self->spinner);
      gtk_label_set_text (self->status_label, "");
      return;
    }
  gtk_label_set_text (self->status_label, _ ("Preparing the timeline…"));
  gtk_spinner_start (self->spinner);

  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, lanes_ready, NULL);
  g_task_set_source_tag (task, ws_timeline_page_set_run);
  g_task_set_task_data (task, ws_run_ref (run), (GDestroyNotify) ws_run_unref);
  g_task_run_in_thread (task, build_lanes_thread);
  g_object_unref (task);
}

static void
add_events (GHashTable *set, WsEventKind kind, const GArray *indices)
{
  for (guint i = 0; indices != NULL && i < indices->len; i++)
    g_hash_table_add (
      set, GUINT_TO_POINTER (ws_event_ref (kind, g_array_index (indices, guint32, i)) + 1));
}

/**
 * ws_timeline_page_show_finding:
 *
 * Zooms to the finding's most important stretch of time, marks it on the
 * ruler, and highlights its events (the others are dimmed until Escape).
 * Before the lanes are ready, does so once they are.
 */
void
ws_timeline_page_show_finding (WsTimelinePage *self, WsFinding *finding)
{
  g_autoptr (GHashTable) events = NULL;

  g_return_if_fail (WS_IS_TIMELINE_PAGE (self));
  g_return_if_fail (finding != NULL);

  if (self->lanes == NULL)
    {
      g_clear_pointer (&self->pending_finding, ws_finding_unref);
      self->pending_finding = ws_finding_ref (finding);
      return;
    }
  events = g_hash_table_new (NULL, NULL);
  add_events (events, WS_EVENT_KERNEL, finding->kernels);
  add_events (events, WS_EVENT_MEMOP, finding->memops);
  add_events (events, WS_EVENT_API, finding->api);
  ws_timeline_view_set_highlight (self->timeline_view,
                                  g_hash_table_size (events) > 0 ? events : NULL);
  if (finding->ranges != NULL && finding->ranges->len > 0)
    {
      const WsTimeRange *range = &g_array_index (finding->ranges, WsTimeRange, 0);
      gint64 margin = MAX ((range->end - range->start) / 20, 1000);

      ws_time_window_zoom_to (ws_timeline_view_get_window (self->timeline_view),
                              range->start - margin, range->end + margin);
      ws_timeline_view_set_range (self->timeline_view, range->start, range->end);
    }
}

/**
 * ws_timeline_page_show_time:
 * @start: ns, on the run's session clock
 * @end: ns
 *
 * Zooms to [@start, @end] (a step) with a margin and selects it on the
 * ruler, which sums up its kernels.
 */
/**
 * ws_timeline_page_set_path:
 * @path: (transfer full) (nullable): a step's critical path to draw over the
 *   lanes (ws-timeline-path.h), or %NULL for none
 */
void
ws_timeline_page_set_path (WsTimelinePage *self, WsTimelinePath *path)
{
  g_return_if_fail (WS_IS_TIMELINE_PAGE (self));

  ws_timeline_view_set_path (self->timeline_view, path);
}

void
ws_timeline_page_show_time (WsTimelinePage *self, gint64 start, gint64 end)
{
  gint64 margin = MAX ((end - start) / 20, 1000);

  g_return_if_fail (WS_IS_TIMELINE_PAGE (self));

  if (self->lanes == NULL)
    {
      self->pending_start = start;
      self->pending_end = end;
      return;
    }
  ws_time_window_zoom_to (ws_timeline_view_get_window (self->timeline_view), start - margin,
                          end + margin);
  ws_timeline_view_set_range (self->timeline_view, start, end);
}

/* ---- life ------------------------------------------------------------- */

/* The focus entering the page (the window's first focus, or the stack
 * showing this page while the focus was in the one it hides) goes to the
 * lanes, not to the search entry that comes first in the tab order and
 * would take W/A/S/D as text.  Within the page, Tab and Shift+Tab move as
 * usual; Ctrl+F and a click still reach the entry. */
static gboolean
ws_timeline_page_focus (GtkWidget *widget, GtkDirectionType direction)
{
  WsTimelinePage *self = WS_TIMELINE_PAGE (widget);
  GtkWidget *view = GTK_WIDGET (self->timeline_view);

  if (direction == GTK_DIR_TAB_FORWARD &&
      gtk_container_get_focus_child (GTK_CONTAINER (widget)) == NULL &&
      gtk_widget_is_drawable (view) && gtk_widget_is_sensitive (view) &&
      gtk_widget_get_can_focus (view))
    {
      gtk_widget_grab_focus (view);
      return TRUE;
    }
  return GTK_WIDGET_CLASS (ws_timeline_page_parent_class)->focus (widget, direction);
}

/* Back on the page, GtkStack gives the focus back to the widget that had
 * it when the page was left: the search entry, once one has searched.  The
 * lanes take it instead, once the stack is done. */
static gboolean
refocus_lanes (gpointer data)
{
  WsTimelinePage *self = data;
  GtkWidget *top = gtk_widget_get_toplevel (GTK_WIDGET (self));
  GtkWidget *view = GTK_WIDGET (self->timeline_view);

  self->refocus_id = 0;
  if (GTK_IS_WINDOW (top) &&
      gtk_window_get_focus (GTK_WINDOW (top)) == GTK_WIDGET (self->search_entry) &&
      gtk_widget_is_drawable (view) && gtk_widget_is_sensitive (view))
    gtk_widget_grab_focus (view);
  return G_SOURCE_REMOVE;
}

static void
map_cb (WsTimelinePage *self)
{
  if (self->refocus_id == 0)
    self->refocus_id = g_idle_add_full (G_PRIORITY_HIGH, refocus_lanes, self, NULL);
}

static void
ws_timeline_page_dispose (GObject *object)
{
  WsTimelinePage *self = WS_TIMELINE_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->nvtx_kernels, ws_nvtx_kernels_unref);
  g_clear_pointer (&self->nvtx_gpu, ws_nvtx_gpu_unref);
  g_clear_pointer (&self->rollup, ws_timeline_rollup_free);
  g_clear_pointer (&self->lanes, ws_lanes_unref);
  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_pointer (&self->pending_finding, ws_finding_unref);
  g_clear_object (&self->actions);

  G_OBJECT_CLASS (ws_timeline_page_parent_class)->dispose (object);
}

static void
ws_timeline_page_class_init (WsTimelinePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_timeline_page_dispose;
  widget_class->focus = ws_timeline_page_focus;

  g_type_ensure (WS_TYPE_TIMELINE_VIEW);
  g_type_ensure (WS_TYPE_ROLLUP_RENDERER);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-timeline-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, match_label);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, range_label);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, lanes_store);
  /* Not a field: for tests, through gtk_widget_get_template_child(). */
  gtk_widget_class_bind_template_child_full (widget_class, "lanes_popover", FALSE, 0);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, spinner);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, status_label);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, left_out_label);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, vscrollbar);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, side_title);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, details_label);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, flame_button);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, side_tree);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, group_ops_check);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, side_store);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, name_column);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, time_column);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, count_column);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, extra_column);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, align_combo);
  gtk_widget_class_bind_template_callback (widget_class, ws_timeline_page_align_changed_cb);
  gtk_widget_class_bind_template_child (widget_class, WsTimelinePage, bottleneck_column);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "event_selected_cb",
                                                G_CALLBACK (ws_timeline_page_event_selected_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "range_selected_cb",
                                                G_CALLBACK (ws_timeline_page_range_selected_cb));
  gtk_widget_class_bind_template_callback (widget_class, lanes_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, lane_toggled_cb);
  gtk_widget_class_bind_template_callback_full (
    widget_class, "side_row_activated_cb", G_CALLBACK (ws_timeline_page_side_row_activated_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "group_ops_toggled_cb",
                                                G_CALLBACK (ws_timeline_page_group_ops_toggled_cb));
  gtk_widget_class_bind_template_callback (widget_class, flame_button_clicked_cb);

  /**
   * WsTimelinePage::flame-range:
   * @start: the selected stretch's start, on the run's clock (ns)
   * @end: its end
   *
   * "Flame Graph of This Range" was clicked.
   */
  signals[FLAME_RANGE] =
    g_signal_new ("flame-range", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
  /**
   * WsTimelinePage::what-if:
   * @change: what a kernel's or range's context menu asks (ws-what-if.h)
   */
  signals[WHAT_IF] = g_signal_new ("what-if", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
what_if_cb (WsTimelinePage *self, const char *change)
{
  g_signal_emit (self, signals[WHAT_IF], 0, change);
}

static void
ws_timeline_page_init (WsTimelinePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  ws_label_wrap_names (self->side_title);
  ws_label_wrap_names (self->details_label);

  gtk_range_set_adjustment (GTK_RANGE (self->vscrollbar),
                            ws_timeline_view_get_vadjustment (self->timeline_view));
  g_signal_connect_object (ws_timeline_view_get_window (self->timeline_view), "changed",
                           G_CALLBACK (window_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline_view, "what-if", G_CALLBACK (what_if_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (self, "realize", G_CALLBACK (realize_cb), NULL);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), NULL);

  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), page_actions,
                                   G_N_ELEMENTS (page_actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "timeline", G_ACTION_GROUP (self->actions));
  gtk_stack_set_visible_child_name (self->view_stack, "status");
}

/**
 * ws_timeline_page_get_view:
 *
 * Returns: (transfer none): the timeline
 */
WsTimelineView *
ws_timeline_page_get_view (WsTimelinePage *self)
{
  return self->timeline_view;
}

/* Whether the lanes are built and shown. */
gboolean
ws_timeline_page_is_ready (WsTimelinePage *self)
{
  return self->lanes != NULL;
}

gboolean
ws_timeline_page_has_projection (WsTimelinePage *self)
{
  return self->nvtx_kernels != NULL && self->nvtx_gpu != NULL;
}

const char *
ws_timeline_page_get_side_title (WsTimelinePage *self)
{
  return gtk_label_get_text (self->side_title);
}

/**
 * ws_timeline_page_get_flame_button:
 *
 * Returns: (transfer none): the "Flame Graph of This Range" button, for tests
 */
GtkWidget *
ws_timeline_page_get_flame_button (WsTimelinePage *self)
{
  return self->flame_button;
}

const char *
ws_timeline_page_get_details_text (WsTimelinePage *self)
{
  return gtk_label_get_text (self->details_label);
}

/**
 * ws_timeline_page_get_side_model:
 *
 * Returns: (transfer none): the side panel's list (name, time, count, …)
 */
/* The range table's "Group PyTorch ops by operator". */
void
ws_timeline_page_set_group_ops (WsTimelinePage *self, gboolean group)
{
  g_return_if_fail (WS_IS_TIMELINE_PAGE (self));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->group_ops_check), group);
}

GtkTreeModel *
ws_timeline_page_get_side_model (WsTimelinePage *self)
{
  return GTK_TREE_MODEL (self->side_store);
}

/**
 * ws_timeline_page_get_rollup:
 *
 * Returns: (transfer none) (nullable) (element-type WsRangeBottleneck):
 * each NVTX range's GPU time by bottleneck, once worked out
 */
GArray *
ws_timeline_page_get_rollup (WsTimelinePage *self)
{
  return self->rollup != NULL ? ws_timeline_rollup_rows (self->rollup) : NULL;
}
