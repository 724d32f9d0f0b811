/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ranks-page"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-rank-set.h"
#include "ws-ranks-page.h"
#include "ws-ranks-view.h"

/* The Ranks page: a job's ranks as a heatmap by step, the per-rank table
 * and their communication.  It fills in as the ranks are read (the
 * loader's per-rank figures), then shows the merged run's. */

/* Rebuilding the heatmap as ranks arrive: at most this often (ms). */
#define REBUILD_DELAY 60

enum
{
  COL_RANK,
  COL_FILE,
  COL_PROCESS,
  COL_GPU,
  COL_KERNEL,
  COL_COMM,
  COL_HIDDEN, /* % of the communication under compute, or -1 */
  COL_WAIT,
  COL_IDLE,
  COL_STEPS,
  COL_MEDIAN,
  COL_WEIGHT, /* the straggler's row is bold */
  COL_INDEX,  /* the rank's index in the set */
  N_COLS
};

enum
{
  COMM_RANK,
  COMM_KIND,
  COMM_COUNT,
  COMM_TOTAL,
  COMM_HIDDEN,
  N_COMM_COLS
};

struct _WsRanksPage
{
  GtkBox parent_instance;

  WsRanks *ranks;     /* the job's ranks, numbered; NULL without a job */
  GPtrArray *figures; /* WsRankFigures * or NULL, one per rank */
  WsRankSet *set;
  guint rebuild_id;
  GtkListStore *store;
  GtkListStore *comm_store;

  /* Template widgets */
  GtkLabel *title_label;
  GtkProgressBar *progress_bar;
  GtkButton *cancel_button;
  GtkComboBoxText *metric_combo;
  GtkButton *peers_button;
  GtkLabel *summary_label;
  WsRanksView *ranks_view;
  GtkTreeView *ranks_tree;
  GtkTreeView *comm_tree;
  GtkNotebook *tables;
};

G_DEFINE_FINAL_TYPE (WsRanksPage, ws_ranks_page, GTK_TYPE_BOX)

enum
{
  STEP_ACTIVATED,
  COMPARE_PEERS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

#define WAIT_NOT_MEASURED (-2)

static void
duration_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model,
               GtkTreeIter *iter, gpointer data)
{
  int col = GPOINTER_TO_INT (data);
  gint64 value;
  g_autofree char *text = NULL;

  gtk_tree_model_get (model, iter, col, &value, -1);
  /* WAIT_NOT_MEASURED: the rank is measured, but nothing measures its
   * waiting; below zero otherwise: not measured yet. */
  if (value == WAIT_NOT_MEASURED)
    text = g_strdup (_ ("not measured"));
  else
    text = value >= 0 ? ws_format_duration ((double) value) : g_strdup ("–");
  g_object_set (cell, "text", text, NULL);
}

static void
percent_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model,
              GtkTreeIter *iter, gpointer data)
{
  int col = GPOINTER_TO_INT (data);
  double value;
  g_autofree char *text = NULL;

  gtk_tree_model_get (model, iter, col, &value, -1);
  text = value >= 0 ? g_strdup_printf ("%.1f%%", value) : g_strdup ("–");
  g_object_set (cell, "text", text, NULL);
}

/* A count (G_TYPE_UINT or G_TYPE_UINT64) with thousands separators. */
static void
count_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model,
            GtkTreeIter *iter, gpointer data)
{
  g_auto (GValue) value = G_VALUE_INIT;
  g_auto (GValue) wide = G_VALUE_INIT;
  g_autoptr (GString) text = g_string_new (NULL);

  gtk_tree_model_get_value (model, iter, GPOINTER_TO_INT (data), &value);
  g_value_init (&wide, G_TYPE_UINT64);
  g_value_transform (&value, &wide);
  ws_format_int (text, (gint64) g_value_get_uint64 (&wide), TRUE);
  g_object_set (cell, "text", text->str, NULL);
}

/* Figures (a cell data function draws them) are right-aligned, and so is
 * their title, so that each sits under its header. */
static GtkTreeViewColumn *
add_column (GtkTreeView *tree, const char *title, int col, GtkTreeCellDataFunc func, int weight_col)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *column = gtk_tree_view_column_new ();

  gtk_tree_view_column_set_title (column, title);
  gtk_tree_view_column_pack_start (column, cell, TRUE);
  if (func != NULL)
    {
      gtk_tree_view_column_set_cell_data_func (column, cell, func, GINT_TO_POINTER (col), NULL);
      g_object_set (cell, "xalign", 1.0, NULL);
      gtk_tree_view_column_set_alignment (column, 1.0);
    }
  else
    gtk_tree_view_column_add_attribute (column, cell, "text", col);
  if (weight_col >= 0)
    gtk_tree_view_column_add_attribute (column, cell, "weight", weight_col);
  gtk_tree_view_column_set_sort_column_id (column, col);
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_append_column (tree, column);
  return column;
}

/* A tree view gives the room its columns leave to the last one: a
 * right-aligned figure there ended far right of its title.  An empty
 * column after the figures takes that room instead. */
static void
add_filler_column (GtkTreeView *tree)
{
  GtkTreeViewColumn *column = gtk_tree_view_column_new ();

  gtk_tree_view_column_set_expand (column, TRUE);
  gtk_tree_view_append_column (tree, column);
}

static void
setup_tables (WsRanksPage *self)
{
  self->store = gtk_list_store_new (
    N_COLS, G_TYPE_UINT, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_INT64,
    G_TYPE_DOUBLE, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_UINT, G_TYPE_INT64, G_TYPE_INT, G_TYPE_UINT);
  gtk_tree_view_set_model (self->ranks_tree, GTK_TREE_MODEL (self->store));
  add_column (self->ranks_tree, _ ("Rank"), COL_RANK, NULL, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("File"), COL_FILE, NULL, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("Process"), COL_PROCESS, NULL, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("GPU time"), COL_GPU, duration_cell, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("Kernel time"), COL_KERNEL, duration_cell, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("Communication"), COL_COMM, duration_cell, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("Hidden under compute"), COL_HIDDEN, percent_cell, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("Waiting"), COL_WAIT, duration_cell, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("Idle"), COL_IDLE, duration_cell, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("Steps"), COL_STEPS, count_cell, COL_WEIGHT);
  add_column (self->ranks_tree, _ ("Median step"), COL_MEDIAN, duration_cell, COL_WEIGHT);
  add_filler_column (self->ranks_tree);

  self->comm_store = gtk_list_store_new (N_COMM_COLS, G_TYPE_UINT, G_TYPE_STRING, G_TYPE_UINT64,
                                         G_TYPE_INT64, G_TYPE_DOUBLE);
  gtk_tree_view_set_model (self->comm_tree, GTK_TREE_MODEL (self->comm_store));
  add_column (self->comm_tree, _ ("Rank"), COMM_RANK, NULL, -1);
  add_column (self->comm_tree, _ ("Collective"), COMM_KIND, NULL, -1);
  add_column (self->comm_tree, _ ("Kernels"), COMM_COUNT, count_cell, -1);
  add_column (self->comm_tree, _ ("Time"), COMM_TOTAL, duration_cell, -1);
  add_column (self->comm_tree, _ ("Hidden under compute"), COMM_HIDDEN, percent_cell, -1);
  add_filler_column (self->comm_tree);
}

static void
fill_tables (WsRanksPage *self)
{
  gint straggler =
    self->set != NULL && self->set->straggler.index >= 0 ? (gint) self->set->straggler.rank : -1;

  gtk_list_store_clear (self->store);
  gtk_list_store_clear (self->comm_store);
  for (guint i = 0; self->ranks != NULL && i < ws_ranks_get_n (self->ranks); i++)
    {
      const WsRank *rank = ws_ranks_get (self->ranks, i);
      const WsRankFigures *f = i < self->figures->len ? g_ptr_array_index (self->figures, i) : NULL;
      g_autofree char *file = g_path_get_basename (rank->file);
      int weight = (gint) rank->rank == straggler ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL;
      gint index = self->set != NULL ? ws_rank_set_index_of (self->set, rank->rank) : -1;
      gint64 wait = -1;

      /* The set's waiting, by its method: one source for page and CLI. */
      if (f != NULL && index >= 0)
        wait = self->set->wait[index] >= 0 ? self->set->wait[index] : WAIT_NOT_MEASURED;

      gtk_list_store_insert_with_values (
        self->store, NULL, -1, COL_RANK, rank->rank, COL_FILE, file, COL_PROCESS,
        f != NULL && f->process != NULL ? f->process
                                        : (rank->process != NULL ? rank->process : "…"),
        COL_GPU, f != NULL ? f->gpu_time : -1, COL_KERNEL, f != NULL ? f->kernel_time : -1,
        COL_COMM, f != NULL ? f->comm_time : -1, COL_HIDDEN,
        f != NULL && f->comm_time > 0 && f->collectives->len > 0
          ? 100.0 * (double) f->overlap_time / (double) f->comm_time
          : -1.0,
        COL_WAIT, wait, COL_IDLE, f != NULL ? f->idle_time : -1, COL_STEPS,
        f != NULL ? f->steps->len : 0, COL_MEDIAN,
        f != NULL ? (gint64) llround (f->step_median) : -1, COL_WEIGHT, weight, COL_INDEX, i, -1);
      for (guint c = 0; f != NULL && c < f->collectives->len; c++)
        {
          const WsRankCollective *k = &g_array_index (f->collectives, WsRankCollective, c);

          gtk_list_store_insert_with_values (
            self->comm_store, NULL, -1, COMM_RANK, rank->rank, COMM_KIND, k->kind, COMM_COUNT,
            k->count, COMM_TOTAL, k->total, COMM_HIDDEN,
            k->total > 0 ? 100.0 * (double) k->overlap / (double) k->total : 0.0, -1);
        }
    }
}

static void
update_summary (WsRanksPage *self)
{
  g_autoptr (GString) text = g_string_new (NULL);
  guint measured = 0;

  if (self->ranks == NULL)
    {
      gtk_label_set_text (self->summary_label, "");
      return;
    }
  for (guint i = 0; i < self->figures->len; i++)
    measured += g_ptr_array_index (self->figures, i) != NULL;
  {
    /* The clocks the comparison aligned on: the set's method, as the
     * CLI's table says it. */
    g_autofree char *how = self->set != NULL ? ws_rank_set_describe (self->set, self->ranks)
                                             : ws_ranks_describe (self->ranks);

    g_string_append (text, how);
  }
  if (self->set != NULL && (self->set->straggler.index >= 0 ||
                            (measured == ws_ranks_get_n (self->ranks) && measured > 1)))
    {
      g_autofree char *straggler = ws_rank_set_straggler_text (self->set);

      g_string_append_printf (text, "\n%s", straggler);
    }
  for (guint i = 0; i < self->ranks->notes->len; i++)
    g_string_append_printf (text, "\n%s", (const char *) g_ptr_array_index (self->ranks->notes, i));
  gtk_label_set_text (self->summary_label, text->str);
}

static void
rebuild (WsRanksPage *self)
{
  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  g_clear_pointer (&self->set, ws_rank_set_unref);
  if (self->ranks == NULL)
    {
      ws_ranks_view_set_model (self->ranks_view, NULL);
      gtk_list_store_clear (self->store);
      gtk_list_store_clear (self->comm_store);
      update_summary (self);
      return;
    }
  self->set = ws_rank_set_new (self->figures);
  ws_ranks_view_set_model (self->ranks_view, ws_ranks_chart_model_new (self->ranks, self->figures));
  fill_tables (self);
  update_summary (self);
}

static gboolean
rebuild_cb (gpointer data)
{
  WsRanksPage *self = data;

  self->rebuild_id = 0;
  rebuild (self);
  return G_SOURCE_REMOVE;
}

static void
metric_changed_cb (WsRanksPage *self, GtkComboBoxText *combo)
{
  WsRanksMetric metric;

  if (ws_ranks_chart_metric_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (combo)),
                                         &metric))
    ws_ranks_view_set_metric (self->ranks_view, metric);
}

static void
emit_step (WsRanksPage *self, guint index, guint step)
{
  g_signal_emit (self, signals[STEP_ACTIVATED], 0, index, step);
}

static void
cell_activated_cb (WsRanksPage *self, guint row, guint col, WsRanksView *view)
{
  const WsRanksChartModel *model = ws_ranks_view_get_model (view);

  if (model != NULL && row < model->n_rows && col < model->n_cols)
    emit_step (self, row, model->steps[col]);
}

/* A rank's row: its timeline at its first steady step. */
static void
rank_row_activated_cb (WsRanksPage *self, GtkTreePath *path, GtkTreeViewColumn *column,
                       GtkTreeView *tree)
{
  GtkTreeIter iter;
  guint index;
  const WsRankFigures *f;

  if (!gtk_tree_model_get_iter (GTK_TREE_MODEL (self->store), &iter, path))
    return;
  gtk_tree_model_get (GTK_TREE_MODEL (self->store), &iter, COL_INDEX, &index, -1);
  f = index < self->figures->len ? g_ptr_array_index (self->figures, index) : NULL;
  if (f == NULL)
    return;
  for (guint s = 0; s < f->steps->len; s++)
    if (!g_array_index (f->steps, WsRankStep, s).warmup)
      {
        emit_step (self, index, g_array_index (f->steps, WsRankStep, s).number);
        return;
      }
  if (f->steps->len > 0)
    emit_step (self, index, g_array_index (f->steps, WsRankStep, 0).number);
}

/* Two rows of the table, two ranks to compare. */
static gboolean
selected_pair (WsRanksPage *self, guint *a, guint *b)
{
  GtkTreeSelection *selection = gtk_tree_view_get_selection (self->ranks_tree);
  GList *rows = gtk_tree_selection_get_selected_rows (selection, NULL);
  guint found = 0, index[2] = { 0, 0 };

  for (GList *l = rows; l != NULL && found < 3; l = l->next, found++)
    {
      GtkTreeIter iter;

      if (found < 2 && gtk_tree_model_get_iter (GTK_TREE_MODEL (self->store), &iter, l->data))
        gtk_tree_model_get (GTK_TREE_MODEL (self->store), &iter, COL_INDEX, &index[found], -1);
    }
  g_list_free_full (rows, (GDestroyNotify) gtk_tree_path_free);
  *a = MIN (index[0], index[1]);
  *b = MAX (index[0], index[1]);
  return found == 2;
}

static void
selection_changed_cb (WsRanksPage *self, GtkTreeSelection *selection)
{
  guint a, b;

  gtk_widget_set_sensitive (GTK_WIDGET (self->peers_button),
                            selected_pair (self, &a, &b) &&
                              !gtk_widget_get_visible (GTK_WIDGET (self->progress_bar)));
}

static void
peers_clicked_cb (WsRanksPage *self, GtkButton *button)
{
  guint a, b;

  if (selected_pair (self, &a, &b))
    g_signal_emit (self, signals[COMPARE_PEERS], 0, a, b);
}

static void
free_figures (gpointer data)
{
  if (data != NULL)
    ws_rank_figures_unref (data);
}

static void
ws_ranks_page_dispose (GObject *object)
{
  WsRanksPage *self = WS_RANKS_PAGE (object);

  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  g_clear_pointer (&self->ranks, ws_ranks_unref);
  g_clear_pointer (&self->figures, g_ptr_array_unref);
  g_clear_pointer (&self->set, ws_rank_set_unref);
  g_clear_object (&self->store);
  g_clear_object (&self->comm_store);
  G_OBJECT_CLASS (ws_ranks_page_parent_class)->dispose (object);
}

static void
ws_ranks_page_class_init (WsRanksPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_ranks_page_dispose;

  /**
   * WsRanksPage::step-activated:
   * @index: the rank's index in the job's ranks
   * @step: the step's number
   *
   * Asks for that rank's timeline at that step.
   */
  signals[STEP_ACTIVATED] =
    g_signal_new ("step-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);

  /**
   * WsRanksPage::compare-peers:
   * @a: a rank's index
   * @b: another's
   *
   * Asks for the two ranks side by side, as peers.
   */
  signals[COMPARE_PEERS] =
    g_signal_new ("compare-peers", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);

  g_type_ensure (WS_TYPE_RANKS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-ranks-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, metric_combo);
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, peers_button);
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, ranks_view);
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, ranks_tree);
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, comm_tree);
  gtk_widget_class_bind_template_child (widget_class, WsRanksPage, tables);
  gtk_widget_class_bind_template_callback (widget_class, metric_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, cell_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, rank_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, peers_clicked_cb);
}

static void
ws_ranks_page_init (WsRanksPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->figures = g_ptr_array_new_with_free_func (free_figures);
  for (guint m = 0; m < WS_RANKS_N_METRICS; m++)
    gtk_combo_box_text_append (self->metric_combo, ws_ranks_chart_metric_to_string (m),
                               ws_ranks_chart_metric_label (m));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->metric_combo),
                               ws_ranks_chart_metric_to_string (WS_RANKS_METRIC_STEP_TIME));
  setup_tables (self);
  gtk_tree_selection_set_mode (gtk_tree_view_get_selection (self->ranks_tree),
                               GTK_SELECTION_MULTIPLE);
  g_signal_connect_object (gtk_tree_view_get_selection (self->ranks_tree), "changed",
                           G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
}

static void
clear_figures (WsRanksPage *self)
{
  g_ptr_array_set_size (self->figures, 0);
}

static void
set_ranks (WsRanksPage *self, WsRanks *ranks)
{
  g_autofree char *title = NULL;

  if (ranks != NULL)
    ws_ranks_ref (ranks);
  g_clear_pointer (&self->ranks, ws_ranks_unref);
  self->ranks = ranks;
  clear_figures (self);
  if (ranks != NULL)
    g_ptr_array_set_size (self->figures, ws_ranks_get_n (ranks));
  title = ranks != NULL ? ws_ranks_title (ranks) : g_strdup ("");
  gtk_label_set_text (self->title_label, title);
}

/**
 * ws_ranks_page_begin:
 * @ranks: a job's ranks, numbered, none read yet
 *
 * Shows every rank's row at once, empty, with the load's progress and a
 * Cancel button; ws_ranks_page_add_figures() fills them in.
 */
void
ws_ranks_page_begin (WsRanksPage *self, WsRanks *ranks)
{
  g_return_if_fail (WS_IS_RANKS_PAGE (self));
  g_return_if_fail (ranks != NULL);

  set_ranks (self, ranks);
  gtk_widget_show (GTK_WIDGET (self->progress_bar));
  gtk_widget_show (GTK_WIDGET (self->cancel_button));
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  rebuild (self);
}

/**
 * ws_ranks_page_add_figures:
 * @index: the rank's index in the ranks given to ws_ranks_page_begin()
 *
 * A rank has been read and measured: its row fills in (the heatmap is
 * redrawn shortly, once for the ranks that arrive together).
 */
void
ws_ranks_page_add_figures (WsRanksPage *self, guint index, WsRankFigures *figures)
{
  g_return_if_fail (WS_IS_RANKS_PAGE (self));
  g_return_if_fail (figures != NULL);

  if (index >= self->figures->len)
    return;
  g_clear_pointer (&g_ptr_array_index (self->figures, index), ws_rank_figures_unref);
  g_ptr_array_index (self->figures, index) = ws_rank_figures_ref (figures);
  if (self->rebuild_id == 0)
    self->rebuild_id = g_timeout_add (REBUILD_DELAY, rebuild_cb, self);
}

/* The load's progress, shown above the heatmap while ranks are read. */
void
ws_ranks_page_set_progress (WsRanksPage *self, double fraction, const char *text)
{
  g_return_if_fail (WS_IS_RANKS_PAGE (self));

  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
  gtk_progress_bar_set_text (self->progress_bar, text);
}

/**
 * ws_ranks_page_set_run:
 * @run: (nullable): a run; its ranks are shown when it has some
 *
 * The load is over: the page shows the run's ranks and their figures.
 */
void
ws_ranks_page_set_run (WsRanksPage *self, WsRun *run)
{
  g_return_if_fail (WS_IS_RANKS_PAGE (self));

  gtk_widget_hide (GTK_WIDGET (self->progress_bar));
  gtk_widget_hide (GTK_WIDGET (self->cancel_button));
  set_ranks (self, run != NULL ? run->ranks : NULL);
  for (guint i = 0; self->ranks != NULL && i < self->figures->len; i++)
    {
      WsRankFigures *f =
        i < self->ranks->figures->len ? g_ptr_array_index (self->ranks->figures, i) : NULL;

      g_ptr_array_index (self->figures, i) = f != NULL ? ws_rank_figures_ref (f) : NULL;
    }
  rebuild (self);
}

/**
 * ws_ranks_page_get_ranks:
 *
 * Returns: (transfer none) (nullable): the ranks shown
 */
WsRanks *
ws_ranks_page_get_ranks (WsRanksPage *self)
{
  return self->ranks;
}

/**
 * ws_ranks_page_get_figures:
 *
 * Returns: (transfer none) (nullable): the figures of rank @index, when it
 * has been read
 */
WsRankFigures *
ws_ranks_page_get_figures (WsRanksPage *self, guint index)
{
  return index < self->figures->len ? g_ptr_array_index (self->figures, index) : NULL;
}

WsRanksView *
ws_ranks_page_get_view (WsRanksPage *self)
{
  return self->ranks_view;
}

GtkTreeModel *
ws_ranks_page_get_table (WsRanksPage *self)
{
  return GTK_TREE_MODEL (self->store);
}

GtkTreeView *
ws_ranks_page_get_tree (WsRanksPage *self)
{
  return self->ranks_tree;
}

GtkButton *
ws_ranks_page_get_peers_button (WsRanksPage *self)
{
  return self->peers_button;
}

const char *
ws_ranks_page_get_summary (WsRanksPage *self)
{
  return gtk_label_get_text (self->summary_label);
}
