/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-window"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-compare-gauges.h"
#include "ws-compare-window-private.h"
#include "ws-rank-compare.h"
#include "ws-format.h"
#include "ws-label-wrap.h"
#include "ws-run-loader.h"
#include "ws-stats.h"

G_DEFINE_FINAL_TYPE (WsCompareWindow, ws_compare_window, GTK_TYPE_APPLICATION_WINDOW)

enum
{
  READY,
  EXPORT_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum
{
  COL_KERNEL,
  COL_STATUS,
  COL_BEFORE,
  COL_AFTER,
  COL_DELTA,
  COL_RATIO,
  COL_BEFORE_N,
  COL_AFTER_N,
  COL_BEFORE_AVG,
  COL_AFTER_AVG,
  COL_SHARE,
  COL_VERDICT,
  N_COLUMNS
};

/* The info bar: a failure (@type GTK_MESSAGE_ERROR), or an export done. */
void
ws_compare_window_show_message (WsCompareWindow *self, GtkMessageType type, const char *message)
{
  g_free (self->export_text);
  self->export_text = type == GTK_MESSAGE_ERROR ? NULL : g_strdup (message);
  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

void
ws_compare_window_show_error (WsCompareWindow *self, const char *message)
{
  ws_compare_window_show_message (self, GTK_MESSAGE_ERROR, message);
}

static void
info_bar_response_cb (WsCompareWindow *self, int response, GtkInfoBar *info_bar)
{
  gtk_info_bar_set_revealed (info_bar, FALSE);
}

static void
figure_cell (WsCompareWindow *self, const char *text, int column, int row, gboolean dim)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0 : 1);
  if (dim)
    gtk_style_context_add_class (gtk_widget_get_style_context (label), "ws-dim");
  gtk_grid_attach (self->figures_grid, label, column, row, 1, 1);
  gtk_widget_show (label);
}

static char *
format_figure (double value, gboolean time, int decimals)
{
  if (isnan (value))
    return g_strdup ("—");
  return time ? ws_format_duration (value) : ws_format_fixed_string (value, decimals);
}

/* Two jobs: each rank's GPU time on both sides, under the merged figures. */
static void
fill_rank_figures (WsCompareWindow *self, int row)
{
  g_autoptr (GArray) pairs = ws_rank_compare_pairs (self->runs[0], self->runs[1]);

  for (guint i = 0; i < pairs->len && i < 64; i++)
    {
      const WsRankPair *p = &g_array_index (pairs, WsRankPair, i);
      /* TRANSLATORS: %u is a rank of a distributed job */
      g_autofree char *label = g_strdup_printf (_ ("Rank %u: GPU time"), p->rank);
      g_autofree char *before =
        p->before != NULL ? ws_format_duration ((double) p->before->gpu_time) : g_strdup ("—");
      g_autofree char *after =
        p->after != NULL ? ws_format_duration ((double) p->after->gpu_time) : g_strdup ("—");

      figure_cell (self, label, 0, row + (int) i, TRUE);
      figure_cell (self, before, 1, row + (int) i, FALSE);
      figure_cell (self, after, 2, row + (int) i, FALSE);
    }
}

static void
fill_figures (WsCompareWindow *self)
{
  const struct
  {
    const char *label;
    const WsPair *pair;
    gboolean time;
    int decimals;
  } figures[] = {
    { _ ("GPU time in kernels"), &self->cmp->gpu_time, TRUE, 0 },
    { _ ("Kernel launches"), &self->cmp->launches, FALSE, 0 },
    { _ ("Distinct kernels"), &self->cmp->n_kernels, FALSE, 0 },
    { _ ("GPU busy (percent of the run)"), &self->cmp->busy_share, FALSE, 1 },
    { _ ("Memory operations"), &self->cmp->memop_time, TRUE, 0 },
    { _ ("CUDA API calls"), &self->cmp->api_time, TRUE, 0 },
  };
  GList *children = gtk_container_get_children (GTK_CONTAINER (self->figures_grid));

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);

  figure_cell (self, "", 0, 0, TRUE);
  figure_cell (self, self->peers[0] != NULL ? self->peers[0] : _ ("Before"), 1, 0, TRUE);
  figure_cell (self, self->peers[1] != NULL ? self->peers[1] : _ ("After"), 2, 0, TRUE);
  for (gsize i = 0; i < G_N_ELEMENTS (figures); i++)
    {
      g_autofree char *before =
        format_figure (figures[i].pair->before, figures[i].time, figures[i].decimals);
      g_autofree char *after =
        format_figure (figures[i].pair->after, figures[i].time, figures[i].decimals);

      figure_cell (self, figures[i].label, 0, (int) i + 1, TRUE);
      figure_cell (self, before, 1, (int) i + 1, FALSE);
      figure_cell (self, after, 2, (int) i + 1, FALSE);
    }
  fill_rank_figures (self, (int) G_N_ELEMENTS (figures) + 1);
}

static void
fill_table (WsCompareWindow *self)
{
  GtkListStore *store =
    gtk_list_store_new (N_COLUMNS, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_INT64,
                        G_TYPE_INT64, G_TYPE_DOUBLE, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_DOUBLE,
                        G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_STRING);
  /* The verdict change, where both runs have ncu data to give one. */
  gboolean verdicts = self->cmp->before->ncu != NULL && self->cmp->after->ncu != NULL;

  for (guint i = 0; i < self->cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (self->cmp->kernels, WsDelta, i);
      g_autofree char *verdict = NULL;

      if (verdicts && (d->before_launch >= 0 || d->after_launch >= 0))
        verdict = ws_verdict_change_text (self->cmp, d);
      /* A removed kernel has no ratio (0 would read as "infinitely faster"). */
      gtk_list_store_insert_with_values (
        store, NULL, -1, COL_KERNEL, d->key, COL_STATUS, ws_presence_label (d->presence),
        COL_BEFORE, d->before_total, COL_AFTER, d->after_total, COL_DELTA, d->delta, COL_RATIO,
        d->presence == WS_PRESENT_BOTH ? d->ratio : NAN, COL_BEFORE_N, d->before_count, COL_AFTER_N,
        d->after_count, COL_BEFORE_AVG, d->before_count > 0 ? d->before_avg : NAN, COL_AFTER_AVG,
        d->after_count > 0 ? d->after_avg : NAN, COL_SHARE, 100.0 * d->share_of_change, COL_VERDICT,
        verdict, -1);
    }
  gtk_tree_view_column_set_visible (self->verdict_column, verdicts);
  gtk_tree_view_set_model (self->table, GTK_TREE_MODEL (store));
  g_object_unref (store);
}

static void
format_number (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model,
               GtkTreeIter *iter, gpointer data)
{
  int index = GPOINTER_TO_INT (data);
  g_autoptr (GString) text = g_string_new (NULL);
  GValue value = G_VALUE_INIT;

  gtk_tree_model_get_value (model, iter, index, &value);
  if (G_VALUE_HOLDS_INT64 (&value))
    ws_format_int (text, g_value_get_int64 (&value), TRUE);
  else if (isnan (g_value_get_double (&value)))
    g_string_append (text, "—");
  else
    ws_format_fixed (text, g_value_get_double (&value), index == COL_RATIO ? 3 : 1, TRUE);
  g_value_unset (&value);
  g_object_set (cell, "text", text->str, NULL);
}

static void
build_table_columns (WsCompareWindow *self)
{
  const struct
  {
    const char *title;
    int column;
  } columns[] = {
    { _ ("Kernel"), COL_KERNEL },
    { _ ("Status"), COL_STATUS },
    { _ ("Verdict"), COL_VERDICT },
    { _ ("Before (ns)"), COL_BEFORE },
    { _ ("After (ns)"), COL_AFTER },
    { _ ("Δ (ns)"), COL_DELTA },
    { _ ("After/Before"), COL_RATIO },
    { _ ("Before #"), COL_BEFORE_N },
    { _ ("After #"), COL_AFTER_N },
    { _ ("Before avg (ns)"), COL_BEFORE_AVG },
    { _ ("After avg (ns)"), COL_AFTER_AVG },
    { _ ("Share of Δ (%)"), COL_SHARE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *column;

      if (columns[i].column == COL_KERNEL || columns[i].column == COL_STATUS ||
          columns[i].column == COL_VERDICT)
        {
          column = gtk_tree_view_column_new_with_attributes (columns[i].title, cell, "text",
                                                             columns[i].column, NULL);
          gtk_tree_view_column_set_resizable (column, TRUE);
          if (columns[i].column == COL_KERNEL)
            {
              /* Display names: cut at the end, their start tells kernels apart. */
              g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
              gtk_tree_view_column_set_expand (column, TRUE);
              gtk_tree_view_column_set_min_width (column, 260);
            }
        }
      else
        {
          column = gtk_tree_view_column_new ();
          gtk_tree_view_column_set_title (column, columns[i].title);
          gtk_tree_view_column_pack_start (column, cell, TRUE);
          gtk_tree_view_column_set_cell_data_func (column, cell, format_number,
                                                   GINT_TO_POINTER (columns[i].column), NULL);
          g_object_set (cell, "xalign", 1.0, "family", "Monospace", NULL);
          gtk_tree_view_column_set_alignment (column, 1.0);
        }
      gtk_tree_view_column_set_sort_column_id (column, columns[i].column);
      g_object_set_data (G_OBJECT (column), "ws-column", GINT_TO_POINTER (columns[i].column));
      gtk_tree_view_append_column (self->table, column);
      if (columns[i].column == COL_VERDICT)
        self->verdict_column = column;
    }
}

/* Shows @cmp, built on a worker. */
static void
show_comparison (WsCompareWindow *self, WsComparison *cmp)
{
  g_autofree char *headline = NULL;
  g_autofree char *subtitle = NULL;
  gboolean steady = self->shown[0] != NULL && !self->whole_run;
  WsRun *before = steady ? self->shown[0] : self->runs[0];
  WsRun *after = steady ? self->shown[1] : self->runs[1];

  g_clear_pointer (&self->cmp, ws_comparison_unref);
  self->cmp = ws_comparison_ref (cmp);

  if (self->peers[0] != NULL)
    {
      headline = ws_rank_compare_peer_headline (self->cmp, self->peers[0], self->peers[1]);
      /* TRANSLATORS: two ranks side by side, "rank 0 vs rank 3" */
      subtitle = g_strdup_printf (_ ("%s vs %s"), self->peers[0], self->peers[1]);
    }
  else
    {
      headline = ws_comparison_headline (self->cmp);
      subtitle = g_strdup_printf (_ ("%s → %s"), ws_run_display_name (self->runs[0]),
                                  ws_run_display_name (self->runs[1]));
    }
  gtk_label_set_text (self->headline_label, headline);
  gtk_label_set_text (self->scope_label, steady ? self->scope : "");
  gtk_widget_set_visible (GTK_WIDGET (self->scope_label), steady);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scope_combo), self->shown[0] != NULL);
  gtk_window_set_title (GTK_WINDOW (self), subtitle);
  gtk_header_bar_set_title (self->header_bar, _ ("Compare"));
  gtk_header_bar_set_subtitle (self->header_bar, subtitle);
  fill_figures (self);
  fill_table (self);
  ws_compare_view_set_comparison (self->kernels_view, self->cmp);
  ws_compare_view_set_comparison (self->ranges_view, self->cmp);
  ws_compare_gauges_page_set_comparison (self->gauges_page, self->cmp);
  ws_compare_findings_page_set_runs (self->findings_page, before, after);
  ws_compare_budgets_page_set_runs (self->budgets_page, self->runs[0], self->steps[0],
                                    self->runs[1], self->steps[1]);
  ws_compare_timelines_set_comparison (self->timelines, self->cmp);
  gtk_stack_set_visible_child_name (self->main_stack, "content");
}

typedef struct
{
  WsRun *before;
  WsRun *after;
  WsSteps *steps[2]; /* the steady states' steps, or NULL for whole runs */
  WsMatchBy by;
} CompareData;

static void
compare_data_free (CompareData *data)
{
  ws_run_unref (data->before);
  ws_run_unref (data->after);
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&data->steps[i], ws_steps_unref);
  g_free (data);
}

static void
compare_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  CompareData *data = task_data;
  WsComparison *cmp = ws_comparison_new (data->before, data->after, data->by);

  if (data->steps[0] != NULL)
    ws_comparison_set_steps (cmp, data->steps[0], data->steps[1]);
  g_task_return_pointer (task, cmp, (GDestroyNotify) ws_comparison_unref);
}

static void
compared_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsCompareWindow) self = data;
  g_autoptr (WsComparison) cmp = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Replaced by a newer one (another match, a scope, a swap) or closed. */
  if (cmp == NULL || g_task_get_cancellable (G_TASK (result)) != self->comparing)
    return;
  g_clear_object (&self->comparing);
  show_comparison (self, cmp);
  if (self->ready_pending)
    {
      self->ready_pending = FALSE;
      g_signal_emit (self, signals[READY], 0, TRUE);
    }
}

/* Matching thousands of kernels by name sorts and hashes them all: on a
 * worker, never on the main loop.  The comparison on show stays until the
 * new one is ready. */
static void
rebuild (WsCompareWindow *self)
{
  gboolean steady = self->shown[0] != NULL && !self->whole_run;
  g_autoptr (GTask) task = NULL;
  CompareData *data;

  if (self->comparing != NULL)
    g_cancellable_cancel (self->comparing);
  g_clear_object (&self->comparing);
  if (self->runs[0] == NULL || self->runs[1] == NULL)
    return;
  self->comparing = g_cancellable_new ();
  data = g_new0 (CompareData, 1);
  data->before = ws_run_ref (steady ? self->shown[0] : self->runs[0]);
  data->after = ws_run_ref (steady ? self->shown[1] : self->runs[1]);
  if (steady)
    for (guint i = 0; i < 2; i++)
      data->steps[i] = ws_steps_ref (self->steps[i]);
  data->by = self->by;
  task = g_task_new (NULL, self->comparing, compared_cb, g_object_ref (self));
  g_task_set_source_tag (task, rebuild);
  g_task_set_task_data (task, data, (GDestroyNotify) compare_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, compare_thread);
}

static void
scope_changed_cb (WsCompareWindow *self, GtkComboBox *combo)
{
  gboolean whole = g_strcmp0 (gtk_combo_box_get_active_id (combo), "whole") == 0;

  if (whole == self->whole_run)
    return;
  self->whole_run = whole;
  rebuild (self);
}

static void
match_changed_cb (WsCompareWindow *self, GtkComboBox *combo)
{
  WsMatchBy by;

  if (!ws_match_by_from_string (gtk_combo_box_get_active_id (combo), &by) || by == self->by)
    return;
  self->by = by;
  rebuild (self);
}

/* What the runs' steps are and their steady states, made on a worker. */
typedef struct
{
  WsRun *runs[2];
  WsSteps *steps[2];
  WsRun *steady[2];
} Scope;

static void
scope_free (Scope *scope)
{
  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&scope->runs[i], ws_run_unref);
      g_clear_pointer (&scope->steps[i], ws_steps_unref);
      g_clear_pointer (&scope->steady[i], ws_run_unref);
    }
  g_free (scope);
}

static void
scope_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Scope *scope = data;

  for (guint i = 0; i < 2; i++)
    scope->steps[i] = ws_steps_compute (scope->runs[i], NULL);
  /* Set-up is no part of what a change did to a loop: with steps on both
   * sides, their steady states are compared (as `compare` does). */
  if (ws_steps_has_steady_state (scope->steps[0]) && ws_steps_has_steady_state (scope->steps[1]))
    for (guint i = 0; i < 2; i++)
      scope->steady[i] = ws_steps_steady_run (scope->runs[i], scope->steps[i]);
  g_task_return_boolean (task, TRUE);
}

static void
forget_scope (WsCompareWindow *self)
{
  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&self->shown[i], ws_run_unref);
      g_clear_pointer (&self->steps[i], ws_steps_unref);
    }
  g_clear_pointer (&self->scope, g_free);
}

static void
scope_done (GObject *source, GAsyncResult *result, gpointer data)
{
  WsCompareWindow *self = WS_COMPARE_WINDOW (source);
  Scope *scope = g_task_get_task_data (G_TASK (result));

  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))) ||
      scope->runs[0] != self->runs[0] || scope->runs[1] != self->runs[1])
    return;
  self->scoping = FALSE;
  if (g_task_get_cancellable (G_TASK (result)) == self->cancellable)
    g_clear_object (&self->cancellable);
  forget_scope (self);
  if (scope->steady[0] != NULL)
    {
      g_autofree char *b = ws_steps_describe_steady (scope->steps[0]);
      g_autofree char *a = ws_steps_describe_steady (scope->steps[1]);

      for (guint i = 0; i < 2; i++)
        {
          self->shown[i] = g_steal_pointer (&scope->steady[i]);
          self->steps[i] = g_steal_pointer (&scope->steps[i]);
        }
      /* TRANSLATORS: which steps each side's steady state holds */
      self->scope =
        g_strdup_printf (_ ("Compared over the steady states: before %s, after %s."), b, a);
    }
  rebuild (self);
  /* "ready" once the comparison is shown. */
  if (self->comparing != NULL)
    self->ready_pending = TRUE;
  else
    g_signal_emit (self, signals[READY], 0, FALSE);
}

/* Both runs are there: their steps decide what is compared. */
static void
compare_runs (WsCompareWindow *self)
{
  Scope *scope = g_new0 (Scope, 1);
  g_autoptr (GTask) task = NULL;

  if (self->cancellable == NULL)
    self->cancellable = g_cancellable_new ();
  self->scoping = TRUE;
  task = g_task_new (self, self->cancellable, scope_done, NULL);
  for (guint i = 0; i < 2; i++)
    scope->runs[i] = ws_run_ref (self->runs[i]);
  g_task_set_source_tag (task, compare_runs);
  g_task_set_task_data (task, scope, (GDestroyNotify) scope_free);
  g_task_run_in_thread (task, scope_thread);
}

typedef struct
{
  WsCompareWindow *window;
  GCancellable *cancellable;
  guint side;
} LoadData;

static void
load_done (GObject *source, GAsyncResult *result, gpointer data)
{
  LoadData *load = data;
  WsCompareWindow *self = load->window;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load_finish (result, &error);

  if (load->cancellable == self->cancellable)
    {
      if (run == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        ws_compare_window_show_error (self, error->message);
      else if (run != NULL)
        {
          g_clear_pointer (&self->runs[load->side], ws_run_unref);
          self->runs[load->side] = g_steal_pointer (&run);
        }
      if (--self->pending == 0)
        {
          if (self->runs[0] != NULL && self->runs[1] != NULL)
            compare_runs (self);
          else
            {
              g_clear_object (&self->cancellable);
              g_signal_emit (self, signals[READY], 0, FALSE);
            }
        }
      else
        gtk_progress_bar_set_fraction (self->progress_bar, 0.5);
    }
  g_object_unref (load->cancellable);
  g_object_unref (load->window);
  g_free (load);
}

/**
 * ws_compare_window_load:
 * @before: (array zero-terminated=1): the files of the run before
 * @after: (array zero-terminated=1): the files of the run after
 *
 * Loads both runs on worker threads and compares them.
 */
void
ws_compare_window_load (WsCompareWindow *self, const char *const *before, const char *const *after)
{
  const char *const *sides[2] = { before, after };

  g_return_if_fail (WS_IS_COMPARE_WINDOW (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->pending = 2;
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_stack_set_visible_child_name (self->main_stack, "loading");

  for (guint side = 0; side < 2; side++)
    {
      LoadData *load = g_new0 (LoadData, 1);

      g_strfreev (self->paths[side]);
      self->paths[side] = g_strdupv ((char **) sides[side]);
      load->window = g_object_ref (self);
      load->cancellable = g_object_ref (self->cancellable);
      load->side = side;
      ws_run_load_async (sides[side], WS_LOAD_ALL, self->cancellable, NULL, NULL, NULL, load_done,
                         load);
    }
}

/* The table's columns name the sides: before and after, or two ranks. */
static void
retitle_columns (WsCompareWindow *self)
{
  const char *a = self->peers[0], *b = self->peers[1];

  for (guint c = 0; c < gtk_tree_view_get_n_columns (self->table); c++)
    {
      GtkTreeViewColumn *column = gtk_tree_view_get_column (self->table, c);
      int id = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "ws-column"));
      g_autofree char *title = NULL;

      if (a == NULL)
        continue;
      switch (id)
        {
          case COL_BEFORE:
            title = g_strdup_printf (_ ("%s (ns)"), a);
            break;
          case COL_AFTER:
            title = g_strdup_printf (_ ("%s (ns)"), b);
            break;
          case COL_RATIO:
            title = g_strdup_printf ("%s/%s", b, a);
            break;
          case COL_BEFORE_N:
            title = g_strdup_printf ("%s #", a);
            break;
          case COL_AFTER_N:
            title = g_strdup_printf ("%s #", b);
            break;
          default:
            break;
        }
      if (title != NULL)
        gtk_tree_view_column_set_title (column, title);
    }
}

/**
 * ws_compare_window_set_peers:
 * @a: what to call the first run ("rank 0")
 * @b: what to call the second ("rank 3")
 *
 * Shows two ranks of one job side by side as peers: the columns and the
 * sentence name them, and neither is "before".
 */
void
ws_compare_window_set_peers (WsCompareWindow *self, const char *a, const char *b)
{
  g_return_if_fail (WS_IS_COMPARE_WINDOW (self));
  g_return_if_fail (a != NULL && b != NULL);

  g_free (self->peers[0]);
  g_free (self->peers[1]);
  self->peers[0] = g_strdup (a);
  self->peers[1] = g_strdup (b);
  retitle_columns (self);
  rebuild (self);
}

/* Two runs already loaded (a window's run and one dropped on it). */
void
ws_compare_window_set_runs (WsCompareWindow *self, WsRun *before, WsRun *after)
{
  g_return_if_fail (WS_IS_COMPARE_WINDOW (self));

  g_clear_pointer (&self->runs[0], ws_run_unref);
  g_clear_pointer (&self->runs[1], ws_run_unref);
  self->runs[0] = ws_run_ref (before);
  self->runs[1] = ws_run_ref (after);
  forget_scope (self);
  compare_runs (self);
}

static void
swap_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsCompareWindow *self = data;
  WsRun *run = self->runs[0];
  char **paths = self->paths[0];

  self->runs[0] = self->runs[1];
  self->runs[1] = run;
  self->paths[0] = self->paths[1];
  self->paths[1] = paths;
  if (self->scope != NULL)
    {
      WsRun *shown = self->shown[0];
      WsSteps *steps = self->steps[0];
      g_autofree char *b = ws_steps_describe_steady (self->steps[1]);
      g_autofree char *a = ws_steps_describe_steady (steps);

      self->shown[0] = self->shown[1];
      self->shown[1] = shown;
      self->steps[0] = self->steps[1];
      self->steps[1] = steps;
      g_free (self->scope);
      self->scope =
        g_strdup_printf (_ ("Compared over the steady states: before %s, after %s."), b, a);
    }
  {
    char *peer = self->peers[0];

    self->peers[0] = self->peers[1];
    self->peers[1] = peer;
  }
  retitle_columns (self);
  rebuild (self);
}

/* clang-format off */
static const GActionEntry compare_actions[] = {
  { "swap", swap_action },
  { "export-chart", ws_compare_window_export_action },
  { "export-csv", ws_compare_window_export_action },
};
/* clang-format on */

static void
ws_compare_window_dispose (GObject *object)
{
  WsCompareWindow *self = WS_COMPARE_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->comparing != NULL)
    g_cancellable_cancel (self->comparing);
  g_clear_object (&self->comparing);
  /* And the exports not yet started (ws-compare-window-export.c). */
  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
  g_clear_object (&self->export_cancellable);
  g_clear_pointer (&self->cmp, ws_comparison_unref);
  g_clear_pointer (&self->runs[0], ws_run_unref);
  g_clear_pointer (&self->runs[1], ws_run_unref);
  forget_scope (self);
  G_OBJECT_CLASS (ws_compare_window_parent_class)->dispose (object);
}

static void
ws_compare_window_finalize (GObject *object)
{
  WsCompareWindow *self = WS_COMPARE_WINDOW (object);

  g_strfreev (self->paths[0]);
  g_strfreev (self->paths[1]);
  g_free (self->peers[0]);
  g_free (self->peers[1]);
  g_free (self->export_text);
  G_OBJECT_CLASS (ws_compare_window_parent_class)->finalize (object);
}

static void
ws_compare_window_class_init (WsCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_compare_window_dispose;
  object_class->finalize = ws_compare_window_finalize;

  /**
   * WsCompareWindow::ready:
   * @success: whether both runs loaded and were compared
   */
  signals[READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                 NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  /**
   * WsCompareWindow::export-finished:
   * @kind: the #WsCompareWindowExport
   * @path: the file written
   * @success: whether it was written
   *
   * An export ws_compare_window_export() started has ended; the info bar
   * says how.
   */
  signals[EXPORT_FINISHED] =
    g_signal_new ("export-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_STRING, G_TYPE_BOOLEAN);

  g_type_ensure (WS_TYPE_COMPARE_VIEW);
  g_type_ensure (WS_TYPE_COMPARE_GAUGES_PAGE);
  g_type_ensure (WS_TYPE_COMPARE_FINDINGS_PAGE);
  g_type_ensure (WS_TYPE_COMPARE_BUDGETS_PAGE);
  g_type_ensure (WS_TYPE_COMPARE_TIMELINES);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-compare-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, match_combo);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, headline_label);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, scope_label);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, scope_combo);
  gtk_widget_class_bind_template_callback (widget_class, scope_changed_cb);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, figures_grid);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, kernels_view);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, ranges_view);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, table);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, gauges_page);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, findings_page);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, budgets_page);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, timelines);
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, match_changed_cb);
}

static void
ws_compare_window_init (WsCompareWindow *self)
{
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  ws_label_wrap_names (self->headline_label);
  ws_label_wrap_names (self->scope_label);
  g_action_map_add_action_entries (G_ACTION_MAP (group), compare_actions,
                                   G_N_ELEMENTS (compare_actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "compare", G_ACTION_GROUP (group));
  ws_compare_view_set_ranges (self->ranges_view, TRUE);
  build_table_columns (self);
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
}

WsCompareWindow *
ws_compare_window_new (GtkApplication *application)
{
  return g_object_new (WS_TYPE_COMPARE_WINDOW, "application", application, NULL);
}

/**
 * ws_compare_window_get_comparison:
 *
 * Returns: (transfer none) (nullable): the comparison on show
 */
WsComparison *
ws_compare_window_get_comparison (WsCompareWindow *self)
{
  return self->cmp;
}

gboolean
ws_compare_window_is_loading (WsCompareWindow *self)
{
  return (self->pending > 0 && self->cancellable != NULL) || self->scoping ||
         self->comparing != NULL;
}

/**
 * ws_compare_window_get_export_message:
 *
 * Returns: (transfer none) (nullable): what the info bar says of the last
 * export written, while it shows
 */
const char *
ws_compare_window_get_export_message (WsCompareWindow *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_WINDOW (self), NULL);
  return gtk_info_bar_get_revealed (self->info_bar) ? self->export_text : NULL;
}

const char *
ws_compare_window_get_headline (WsCompareWindow *self)
{
  return gtk_label_get_text (self->headline_label);
}

/* Chooses how kernels are matched, as the header bar's combo does. */
void
ws_compare_window_set_match (WsCompareWindow *self, WsMatchBy by)
{
  gtk_combo_box_set_active_id (self->match_combo, ws_match_by_to_string (by));
}

/* Whole runs (set-up included) or, where both have steps, steady states. */
void
ws_compare_window_set_whole_run (WsCompareWindow *self, gboolean whole_run)
{
  g_return_if_fail (WS_IS_COMPARE_WINDOW (self));
  gtk_combo_box_set_active_id (self->scope_combo, whole_run ? "whole" : "steady");
}

void
ws_compare_window_swap (WsCompareWindow *self)
{
  swap_action (NULL, NULL, self);
}

GtkTreeView *
ws_compare_window_get_table (WsCompareWindow *self)
{
  return self->table;
}

/**
 * ws_compare_window_get_gauges_page:
 *
 * Returns: (transfer none): the Gauges tab
 */
WsCompareGaugesPage *
ws_compare_window_get_gauges_page (WsCompareWindow *self)
{
  return self->gauges_page;
}

/**
 * ws_compare_window_get_budgets_page:
 *
 * Returns: (transfer none): the Budgets tab
 */
WsCompareBudgetsPage *
ws_compare_window_get_budgets_page (WsCompareWindow *self)
{
  return self->budgets_page;
}

/**
 * ws_compare_window_get_findings_page:
 *
 * Returns: (transfer none): the Findings tab
 */
WsCompareFindingsPage *
ws_compare_window_get_findings_page (WsCompareWindow *self)
{
  return self->findings_page;
}

/* Shows tab @name: "kernels", "table", "nvtx", "gauges" or "findings". */
void
ws_compare_window_show_view (WsCompareWindow *self, const char *name)
{
  gtk_stack_set_visible_child_name (self->view_stack, name);
}

/**
 * ws_compare_window_get_timelines:
 *
 * Returns: (transfer none): the Timelines tab
 */
WsCompareTimelines *
ws_compare_window_get_timelines (WsCompareWindow *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_WINDOW (self), NULL);

  return self->timelines;
}
