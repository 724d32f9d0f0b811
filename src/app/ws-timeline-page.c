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
#include "ws-timeline-page-private.h"
#include "ws-timeline-rollup.h"
#include "ws-timeline-text.h"

enum
{
  COL_NAME,
  COL_TIME,
  COL_COUNT,
  COL_EXTRA,
  COL_NAME_ID,
  COL_SORT,
  COL_BOTTLENECK,       /* "61% memory-bound, 30% compute-bound, 9% not profiled" */
  COL_BOTTLENECK_SHARE, /* then one share per WsRollupClass */
};

G_DEFINE_FINAL_TYPE (WsTimelinePage, ws_timeline_page, GTK_TYPE_BOX)

enum
{
  FLAME_RANGE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
count_text (gint64 n)
{
  GString *out = g_string_new (NULL);

  ws_format_int (out, n, TRUE);
  return g_string_free (out, FALSE);
}

/* ---- the side panel --------------------------------------------------- */

static void
set_columns (WsTimelinePage *self, const char *name, const char *time, const char *count,
             const char *extra)
{
  gtk_tree_view_column_set_title (self->name_column, name);
  gtk_tree_view_column_set_title (self->time_column, time);
  gtk_tree_view_column_set_title (self->count_column, count);
  gtk_tree_view_column_set_title (self->extra_column, extra);
  gtk_widget_set_tooltip_text (gtk_tree_view_column_get_button (self->time_column), NULL);
  gtk_widget_set_tooltip_text (gtk_tree_view_column_get_button (self->count_column), NULL);
  gtk_tree_view_column_set_visible (self->bottleneck_column, FALSE);
}

static void
add_row (WsTimelinePage *self, const char *name, gint64 time, gint64 count, const char *extra,
         guint32 name_id)
{
  g_autofree char *t = ws_format_duration ((double) time);
  g_autofree char *c = count_text (count);
  GtkTreeIter iter;

  gtk_list_store_insert_with_values (self->side_store, &iter, -1, COL_NAME, name, COL_TIME, t,
                                     COL_COUNT, c, COL_EXTRA, extra, COL_NAME_ID, name_id, COL_SORT,
                                     time, -1);
}

typedef struct
{
  char *name;
  guint32 name_id; /* the first range's, for selecting */
  gint64 launched; /* ns: nsys's projection, summed over the instances */
  gint64 busy;     /* ns: the process's GPU busy during them, summed */
  gint64 ranges;
  guint16 domain;
} RangeRow;

static int
compare_range_rows (gconstpointer a, gconstpointer b)
{
  const RangeRow *x = a, *y = b;

  if (x->busy != y->busy)
    return x->busy > y->busy ? -1 : 1;
  if (x->launched != y->launched)
    return x->launched > y->launched ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

static void
range_row_clear (gpointer data)
{
  g_free (((RangeRow *) data)->name);
}

/* Per range name (or PyTorch operator): the GPU work launched from its
 * instances and the GPU's busy time during them. */
static GArray *
range_rows (WsTimelinePage *self, gboolean group_ops)
{
  const WsRun *run = self->run;
  const WsNvtxRanges *nv = &run->nvtx;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (RangeRow));
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) names = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  g_array_set_clear_func (rows, range_row_clear);
  for (gsize r = 0; r < nv->n; r++)
    {
      const char *label = g_hash_table_lookup (names, GUINT_TO_POINTER (nv->name[r] + 1));
      g_autofree char *key = NULL;
      gpointer found;
      RangeRow *row;

      if (label == NULL)
        {
          const char *name = ws_run_string (run, nv->name[r]);
          char *op = group_ops ? ws_nvtx_op_name (name) : NULL;

          label = op != NULL ? op : g_strdup (name);
          g_hash_table_insert (names, GUINT_TO_POINTER (nv->name[r] + 1), (gpointer) label);
        }
      key = g_strdup_printf ("%u\x1f%s", nv->domain[r], label);
      found = g_hash_table_lookup (index, key);
      if (found == NULL)
        {
          RangeRow fresh = { g_strdup (label), nv->name[r], 0, 0, 0, nv->domain[r] };

          g_array_append_val (rows, fresh);
          found = GUINT_TO_POINTER (rows->len);
          g_hash_table_insert (index, g_steal_pointer (&key), found);
        }
      row = &g_array_index (rows, RangeRow, GPOINTER_TO_UINT (found) - 1);
      row->launched += ws_nvtx_gpu_projection (self->nvtx_gpu, r);
      row->busy += ws_nvtx_gpu_busy (self->nvtx_gpu, r);
      row->ranges++;
    }
  g_array_sort (rows, compare_range_rows);
  return rows;
}

/* The last row added gets the bottleneck of the range named @name. */
static void
set_bottleneck (WsTimelinePage *self, const char *name)
{
  int n = gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->side_store), NULL);
  GtkTreeIter iter;

  if (self->rollup != NULL && n > 0 &&
      gtk_tree_model_iter_nth_child (GTK_TREE_MODEL (self->side_store), &iter, NULL, n - 1))
    ws_timeline_rollup_fill (self->rollup, name, self->side_store, &iter, COL_BOTTLENECK,
                             COL_BOTTLENECK_SHARE);
}

/* Nothing selected: per NVTX range name, the GPU work launched from it and
 * the GPU's busy time during it. */
static void
show_nvtx_summary (WsTimelinePage *self)
{
  g_autoptr (GArray) rows = NULL;
  gboolean group_ops;

  gtk_list_store_clear (self->side_store);
  gtk_label_set_text (self->side_title, _ ("GPU time by NVTX range"));
  set_columns (self, _ ("Range"), _ ("Launched from it"), _ ("GPU busy in it"), _ ("Ranges"));
  gtk_widget_hide (GTK_WIDGET (self->group_ops_check));
  if (self->run == NULL || self->run->nvtx.n == 0)
    {
      gtk_label_set_text (self->details_label,
                          _ ("Select an event for its details, or drag on the ruler to sum up the "
                             "kernels of a stretch of time."));
      gtk_widget_hide (GTK_WIDGET (self->side_tree));
      return;
    }
  if (self->projection == NULL || self->nvtx_gpu == NULL)
    {
      gtk_label_set_text (self->details_label, _ ("Matching kernels to their NVTX ranges…"));
      gtk_widget_hide (GTK_WIDGET (self->side_tree));
      return;
    }
  gtk_label_set_text (self->details_label,
                      _ ("Launched from it: nsys's projection, from the range's own thread. GPU "
                         "busy in it: its process's GPU during it, any thread. Activate a row to "
                         "select its first range."));
  gtk_widget_set_tooltip_text (
    gtk_tree_view_column_get_button (self->time_column),
    _ ("The span of the GPU work whose launch calls ran on the range's thread, inside it: nsys's "
       "projection (nvtx_gpu_proj_sum)"));
  gtk_widget_set_tooltip_text (
    gtk_tree_view_column_get_button (self->count_column),
    _ ("How long any kernel or copy of the range's process ran during it, whichever thread "
       "launched them: PyTorch launches backward from its autograd thread"));
  group_ops = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->group_ops_check));
  rows = range_rows (self, group_ops);
  for (guint i = 0; i < rows->len; i++)
    {
      const RangeRow *row = &g_array_index (rows, RangeRow, i);
      g_autofree char *launched = ws_format_duration ((double) row->launched);
      g_autofree char *busy = ws_format_duration ((double) row->busy);
      g_autofree char *ranges = count_text (row->ranges);
      g_autofree char *key = NULL;
      GtkTreeIter iter;

      gtk_list_store_insert_with_values (self->side_store, &iter, -1, COL_NAME, row->name, COL_TIME,
                                         launched, COL_COUNT, busy, COL_EXTRA, ranges, COL_NAME_ID,
                                         row->name_id, COL_SORT, row->busy, -1);
      /* The roll-up knows ranges as "domain:name" (no operator groups). */
      key = g_strdup_printf ("%s:%s", ws_run_nvtx_domain_name (self->run, row->domain), row->name);
      set_bottleneck (self, key);
    }
  /* Only where PyTorch's emit_nvtx() named ranges after ops. */
  gtk_widget_set_visible (GTK_WIDGET (self->group_ops_check),
                          group_ops || (rows->len > 0 && ws_nvtx_has_op_ranges (self->run)));
  /* The bottleneck split means something only where kernels were profiled. */
  gtk_tree_view_column_set_visible (self->bottleneck_column,
                                    self->rollup != NULL && self->run->ncu != NULL);
  gtk_widget_show (GTK_WIDGET (self->side_tree));
}

static void
group_ops_toggled_cb (WsTimelinePage *self, GtkToggleButton *button)
{
  if (ws_timeline_view_get_selected (self->timeline_view) == WS_EVENT_NONE &&
      !ws_timeline_view_get_range (self->timeline_view, NULL, NULL))
    show_nvtx_summary (self);
}

typedef struct
{
  guint32 name;
  gint64 time;
  gint64 count;
} KernelGroup;

static int
compare_groups (gconstpointer a, gconstpointer b)
{
  const KernelGroup *x = a, *y = b;

  return x->time != y->time ? (x->time > y->time ? -1 : 1) : 0;
}

/* The kernels launched inside NVTX range @r, by name. */
static void
list_range_kernels (WsTimelinePage *self, gsize r)
{
  g_autoptr (GArray) kernels = ws_nvtx_projection_kernels (self->projection, r);
  g_autoptr (GArray) groups = g_array_new (FALSE, FALSE, sizeof (KernelGroup));
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < kernels->len; i++)
    {
      guint32 k = g_array_index (kernels, guint32, i);
      guint32 name = ws_run_kernel_name_id (self->run, k, WS_NAME_DISPLAY);
      gpointer found = g_hash_table_lookup (index, GUINT_TO_POINTER (name + 1));
      KernelGroup *group;

      if (found == NULL)
        {
          KernelGroup fresh = { name, 0, 0 };

          g_array_append_val (groups, fresh);
          found = GUINT_TO_POINTER (groups->len);
          g_hash_table_insert (index, GUINT_TO_POINTER (name + 1), found);
        }
      group = &g_array_index (groups, KernelGroup, GPOINTER_TO_UINT (found) - 1);
      group->time += self->run->kernels.end[k] - self->run->kernels.start[k];
      group->count++;
    }
  g_array_sort (groups, compare_groups);
  set_columns (self, _ ("Kernel launched inside"), _ ("GPU time"), _ ("Instances"), "");
  for (guint i = 0; i < groups->len; i++)
    {
      const KernelGroup *g = &g_array_index (groups, KernelGroup, i);

      add_row (self, ws_run_string (self->run, g->name), g->time, g->count, "", g->name);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->side_tree), groups->len > 0);
}

/* The two answers for a selected range: what it launched (nsys's
 * projection) and how long its process's GPU work ran during it. */
static char *
nvtx_gpu_markup (WsTimelinePage *self, gsize r)
{
  const WsRun *run = self->run;
  gint64 wall = run->nvtx.end[r] - run->nvtx.start[r];
  gint64 busy = ws_nvtx_gpu_busy (self->nvtx_gpu, r);
  g_autofree char *span = ws_format_duration ((double) ws_nvtx_gpu_projection (self->nvtx_gpu, r));
  g_autofree char *busy_text = ws_format_duration ((double) busy);
  g_autofree char *launched =
    g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %u launch call", "%s, %u launch calls",
                                  ws_nvtx_gpu_ops (self->nvtx_gpu, r)),
                     span, ws_nvtx_gpu_ops (self->nvtx_gpu, r));
  g_autofree char *during = g_strdup_printf ("%s (%.0f%%)", busy_text,
                                             wall > 0 ? 100.0 * (double) busy / (double) wall : 0);
  g_autofree char *a = g_markup_escape_text (launched, -1);
  g_autofree char *b = g_markup_escape_text (during, -1);

  return g_strdup_printf (
    "\n<span alpha=\"70%%\">%s</span>  %s\n<span alpha=\"70%%\">%s</span>  %s",
    _ ("Launched from the range (nsys projection)"), a, _ ("GPU busy during the range"), b);
}

static void
show_event (WsTimelinePage *self, WsEventRef event)
{
  char *markup = ws_timeline_event_markup (self->lanes, self->projection, event);

  gtk_list_store_clear (self->side_store);
  gtk_widget_hide (GTK_WIDGET (self->group_ops_check));
  gtk_label_set_text (self->side_title, _ ("Selected"));
  if (ws_event_ref_kind (event) == WS_EVENT_NVTX && self->nvtx_gpu != NULL)
    {
      g_autofree char *rows = nvtx_gpu_markup (self, ws_event_ref_index (event));
      char *both = g_strconcat (markup, rows, NULL);

      g_free (markup);
      markup = both;
    }
  gtk_label_set_markup (self->details_label, markup);
  g_free (markup);
  if (ws_event_ref_kind (event) == WS_EVENT_NVTX && self->projection != NULL)
    list_range_kernels (self, ws_event_ref_index (event));
  else
    gtk_widget_hide (GTK_WIDGET (self->side_tree));
}

/* A stretch of time from the ruler: the kernel summary of what starts in it. */
static void
show_range (WsTimelinePage *self, gint64 start, gint64 end)
{
  g_autoptr (WsSummary) summary =
    ws_stats_compute_kernels_in (self->run, WS_NAME_DISPLAY, start, end);
  gint64 busy = ws_gpu_busy_during (self->run, WS_PID_ANY, start, end);
  g_autofree char *busy_text = ws_format_duration ((double) busy);
  g_autofree char *from = ws_timeline_format_time (self->run, start);
  g_autofree char *to = ws_timeline_format_time (self->run, end);
  g_autofree char *span = ws_format_duration ((double) (end - start));
  g_autofree char *title = NULL;
  g_autofree char *total = ws_format_duration ((double) summary->grand_total);
  gint64 launches = 0;
  g_autofree char *count = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; i < summary->rows->len; i++)
    launches += g_array_index (summary->rows, WsSummaryRow, i).count;
  count = count_text (launches);
  /* TRANSLATORS: a stretch of time: its start, end and length */
  title = g_strdup_printf (_ ("From %s to %s (%s)"), from, to, span);
  /* TRANSLATORS: "%s kernels" then an amount of time */
  text = g_strdup_printf (_ ("%s kernels start in this range, %s of GPU time; the GPU was busy "
                             "%s (%.0f%%) of it."),
                          count, total, busy_text,
                          end > start ? 100.0 * (double) busy / (double) (end - start) : 0);
  gtk_label_set_text (self->side_title, title);
  gtk_label_set_text (self->details_label, text);

  gtk_list_store_clear (self->side_store);
  gtk_widget_hide (GTK_WIDGET (self->group_ops_check));
  set_columns (self, _ ("Kernel"), _ ("Total"), _ ("Instances"), _ ("Average"));
  for (guint i = 0; i < summary->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);
      g_autofree char *avg = ws_format_duration (row->avg);

      add_row (self, row->name, row->total, row->count, avg, row->name_id);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->side_tree), summary->rows->len > 0);
  /* The CPU samples taken in it, where the run has them on its clock. */
  gtk_widget_set_visible (self->flame_button, self->run->cpu_samples.n > 0);
}

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

static void
event_selected_cb (WsTimelinePage *self, guint event, WsTimelineView *view)
{
  gint64 start, end;

  if (self->lanes == NULL)
    return;
  gtk_widget_hide (self->flame_button);
  if (event != WS_EVENT_NONE)
    show_event (self, event);
  else if (ws_timeline_view_get_range (view, &start, &end))
    show_range (self, start, end);
  else
    show_nvtx_summary (self);
}

static void
range_selected_cb (WsTimelinePage *self, gint64 start, gint64 end, WsTimelineView *view)
{
  WsEventRef selected = ws_timeline_view_get_selected (view);

  if (self->run == NULL)
    return;
  gtk_widget_hide (self->flame_button);
  if (end > start)
    show_range (self, start, end);
  else if (selected != WS_EVENT_NONE)
    show_event (self, selected);
  else
    show_nvtx_summary (self);
}

static void
side_row_activated_cb (WsTimelinePage *self, GtkTreePath *path, GtkTreeViewColumn *column,
                       GtkTreeView *tree)
{
  GtkTreeIter iter;
  guint name_id;
  const WsNvtxRanges *nv;

  if (self->run == NULL ||
      !gtk_tree_model_get_iter (GTK_TREE_MODEL (self->side_store), &iter, path))
    return;
  gtk_tree_model_get (GTK_TREE_MODEL (self->side_store), &iter, COL_NAME_ID, &name_id, -1);
  /* In the NVTX list: select the first range of that name. */
  nv = &self->run->nvtx;
  if (ws_timeline_view_get_selected (self->timeline_view) != WS_EVENT_NONE ||
      ws_timeline_view_get_range (self->timeline_view, NULL, NULL))
    return;
  for (gsize r = 0; r < nv->n; r++)
    if (nv->name[r] == name_id)
      {
        WsEventRef event = ws_event_ref (WS_EVENT_NVTX, r);

        ws_timeline_view_select (self->timeline_view, event);
        ws_timeline_view_reveal (self->timeline_view, event);
        return;
      }
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
  const char *text = gtk_entry_get_text (GTK_ENTRY (entry));
  guint n = ws_timeline_view_set_search (self->timeline_view, text);
  g_autofree char *count = count_text (n);
  g_autofree char *label = NULL;

  if (text[0] == '\0')
    label = g_strdup ("");
  else if (n == 0)
    label = g_strdup (_ ("No match"));
  else
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s match", "%s matches", n), count);
  gtk_label_set_text (self->match_label, label);
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

static void
build_lanes_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_task_return_pointer (task, ws_lanes_new (data), (GDestroyNotify) ws_lanes_unref);
}

typedef struct
{
  WsNvtxProjection *projection;
  WsNvtxGpu *nvtx_gpu;
} Projections;

static void
projections_free (Projections *p)
{
  g_clear_pointer (&p->projection, ws_nvtx_projection_unref);
  g_clear_pointer (&p->nvtx_gpu, ws_nvtx_gpu_unref);
  g_free (p);
}

static void
build_projection_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Projections *p = g_new0 (Projections, 1);

  p->projection = ws_nvtx_projection_new (data);
  p->nvtx_gpu = ws_nvtx_gpu_new (ws_lanes_get_run (data));
  g_task_return_pointer (task, p, (GDestroyNotify) projections_free);
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
    show_nvtx_summary (self);
}

static void
projection_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  WsTimelinePage *self = WS_TIMELINE_PAGE (source);
  Projections *p = g_task_propagate_pointer (G_TASK (result), NULL);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  WsEventRef selected;

  if (p == NULL || g_cancellable_is_cancelled (cancellable))
    {
      if (p != NULL)
        projections_free (p);
      return;
    }
  self->projection = g_steal_pointer (&p->projection);
  self->nvtx_gpu = g_steal_pointer (&p->nvtx_gpu);
  projections_free (p);
  ws_timeline_view_set_projection (self->timeline_view, self->projection);
  selected = ws_timeline_view_get_selected (self->timeline_view);
  event_selected_cb (self, selected, self->timeline_view);
  /* Each range's bottleneck, where kernels were profiled; the page's
   * cancellable stops it before the page goes. */
  if (self->run->ncu != NULL)
    ws_timeline_rollup_async (self->run, self->projection, cancellable, rollup_ready, self);
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
  g_autoptr (WsLanes) lanes = g_task_propagate_pointer (G_TASK (result), NULL);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  GTask *task;

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
  build_lane_list (self);
  show_left_out (self);
  gtk_stack_set_visible_child_name (self->view_stack, "timeline");
  update_range_label (self);
  show_nvtx_summary (self);
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

  task = g_task_new (self, cancellable, projection_ready, NULL);
  g_task_set_source_tag (task, lanes_ready);
  g_task_set_task_data (task, ws_lanes_ref (lanes), (GDestroyNotify) ws_lanes_unref);
  g_task_run_in_thread (task, build_projection_thread);
  g_object_unref (task);
}

/**
 * ws_timeline_page_set_run:
 * @run: (nullable): the run to show
 *
 * Sorts the run's events into lanes on a worker thread, then shows them;
 * the NVTX projection follows on another.
 */
void
ws_timeline_page_set_run (WsTimelinePage *self, WsRun *run)
{
  GTask *task;

  g_return_if_fail (WS_IS_TIMELINE_PAGE (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->projection, ws_nvtx_projection_unref);
  g_clear_pointer (&self->nvtx_gpu, ws_nvtx_gpu_unref);
  g_clear_pointer (&self->rollup, ws_timeline_rollup_free);
  g_clear_pointer (&self->lanes, ws_lanes_unref);
  g_clear_pointer (&self->pending_finding, ws_finding_unref);
  self->pending_step = FALSE;
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

static void
ws_timeline_page_dispose (GObject *object)
{
  WsTimelinePage *self = WS_TIMELINE_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->projection, ws_nvtx_projection_unref);
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
  gtk_widget_class_bind_template_callback (widget_class, event_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, range_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, lanes_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, lane_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, side_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, group_ops_toggled_cb);
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
  g_signal_connect (self, "realize", G_CALLBACK (realize_cb), NULL);

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
  return self->projection != NULL && self->nvtx_gpu != NULL;
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
