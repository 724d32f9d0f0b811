/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-gpu-busy.h"
#include "ws-nvtx-gpu.h"
#include "ws-ranks.h"
#include "ws-stats.h"
#include "ws-timeline-page-private.h"
#include "ws-timeline-rollup.h"
#include "ws-timeline-text.h"

/* The timeline page's side panel: what is selected (an event, a stretch
 * of time), else the GPU time by NVTX range, with each range's kernels
 * and bottleneck. */

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

char *
ws_timeline_page_count_text (gint64 n)
{
  GString *out = g_string_new (NULL);

  ws_format_int (out, n, TRUE);
  return g_string_free (out, FALSE);
}

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
  g_autofree char *c = ws_timeline_page_count_text (count);
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
void
ws_timeline_page_show_nvtx_summary (WsTimelinePage *self)
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
  if (self->nvtx_kernels == NULL || self->nvtx_gpu == NULL)
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
      g_autofree char *ranges = ws_timeline_page_count_text (row->ranges);
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

void
ws_timeline_page_group_ops_toggled_cb (WsTimelinePage *self, GtkToggleButton *button)
{
  if (ws_timeline_view_get_selected (self->timeline_view) == WS_EVENT_NONE &&
      !ws_timeline_view_get_range (self->timeline_view, NULL, NULL))
    ws_timeline_page_show_nvtx_summary (self);
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
  g_autoptr (GArray) kernels = ws_nvtx_kernels_in_range (self->nvtx_kernels, r);
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
  char *markup = ws_timeline_event_markup (self->lanes, self->nvtx_kernels, event);

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
  if (ws_event_ref_kind (event) == WS_EVENT_NVTX && self->nvtx_kernels != NULL)
    list_range_kernels (self, ws_event_ref_index (event));
  else
    gtk_widget_hide (GTK_WIDGET (self->side_tree));
}

/* The rank whose step the ruler's range [@start, @end) is (drawn on the
 * view's clock), or -1; @from and @to get the step on the run's clock. */
static gint
range_rank (WsTimelinePage *self, gint64 start, gint64 end, gint64 *from, gint64 *to)
{
  gint index;

  *from = start;
  *to = end;
  if (!self->rank_range || self->run->ranks == NULL ||
      start != self->rank_start + self->rank_shift || end != self->rank_end + self->rank_shift)
    return -1;
  index = ws_ranks_index_of_pid (self->run->ranks, self->rank_pid);
  if (index < 0)
    return -1;
  *from = self->rank_start;
  *to = self->rank_end;
  return (gint) ws_ranks_get (self->run->ranks, (guint) index)->rank;
}

/**
 * ws_timeline_page_range_text:
 * @run: the run
 * @rank: a rank of @run's job whose step [@start, @end) is, or -1
 * @pid: that rank's process in @run
 * @summary: (out) (transfer full): the kernel summary it speaks of
 *
 * The sentence the side panel shows of a stretch of time: how many kernels
 * start in it, their GPU time, and how long the GPU was busy (the one
 * definition, ws_busy_spans()).  Of a rank's step, the rank's kernels and
 * the time its work kept its GPUs busy, not the job's.
 *
 * Returns: (transfer full): the sentence
 */
char *
ws_timeline_page_range_text (const WsRun *run, gint rank, guint32 pid, gint64 start, gint64 end,
                             WsSummary **summary)
{
  guint32 whose = rank >= 0 ? pid : WS_PID_ANY;
  g_autoptr (WsSummary) kernels =
    ws_stats_compute_kernels_in_pid (run, WS_NAME_DISPLAY, whose, start, end);
  gint64 busy = ws_gpu_busy_during (run, whose, start, end);
  g_autofree char *busy_text = ws_format_duration ((double) busy);
  g_autofree char *total = ws_format_duration ((double) kernels->grand_total);
  double share = end > start ? 100.0 * (double) busy / (double) (end - start) : 0;
  gint64 launches = 0;
  g_autofree char *count = NULL;
  char *text;

  for (guint i = 0; i < kernels->rows->len; i++)
    launches += g_array_index (kernels->rows, WsSummaryRow, i).count;
  count = ws_timeline_page_count_text (launches);
  if (rank >= 0)
    {
      g_autofree char *number = g_strdup_printf ("%d", rank);

      /* TRANSLATORS: a rank's number, "%s kernels", an amount of time, then
       * the time the rank's work kept its GPU busy and its share */
      text = g_strdup_printf (_ ("Rank %s: %s kernels start in this range, %s of GPU time; the "
                                 "rank's work kept its GPU busy %s (%.0f%%) of it."),
                              number, count, total, busy_text, share);
    }
  else
    /* TRANSLATORS: "%s kernels" then an amount of time */
    text = g_strdup_printf (_ ("%s kernels start in this range, %s of GPU time; the GPU was busy "
                               "%s (%.0f%%) of it."),
                            count, total, busy_text, share);
  *summary = g_steal_pointer (&kernels);
  return text;
}

/* A stretch of time from the ruler: the kernel summary of what starts in
 * it; of a rank's step (from the Ranks page), the rank's. */
static void
show_range (WsTimelinePage *self, gint64 start, gint64 end)
{
  gint64 from, to;
  gint rank = range_rank (self, start, end, &from, &to);
  g_autoptr (WsSummary) summary = NULL;
  g_autofree char *text =
    ws_timeline_page_range_text (self->run, rank, self->rank_pid, from, to, &summary);
  g_autofree char *first = ws_timeline_format_time (self->run, start);
  g_autofree char *last = ws_timeline_format_time (self->run, end);
  g_autofree char *span = ws_format_duration ((double) (end - start));
  g_autofree char *title = NULL;

  if (rank < 0)
    self->rank_range = FALSE;
  /* TRANSLATORS: a stretch of time: its start, end and length */
  title = g_strdup_printf (_ ("From %s to %s (%s)"), first, last, span);
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

void
ws_timeline_page_event_selected_cb (WsTimelinePage *self, guint event, WsTimelineView *view)
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
    ws_timeline_page_show_nvtx_summary (self);
}

void
ws_timeline_page_range_selected_cb (WsTimelinePage *self, gint64 start, gint64 end,
                                    WsTimelineView *view)
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
    ws_timeline_page_show_nvtx_summary (self);
}

void
ws_timeline_page_side_row_activated_cb (WsTimelinePage *self, GtkTreePath *path,
                                        GtkTreeViewColumn *column, GtkTreeView *tree)
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
