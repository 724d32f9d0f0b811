/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-summaries-page"
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <math.h>

#include "ws-format.h"
#include "ws-kernel-display.h"
#include "ws-run-derive.h"
#include "ws-stats.h"
#include "ws-ranks.h"
#include "ws-run-slice.h"
#include "ws-stats.h"
#include "ws-summary-table.h"
#include "ws-graphs.h"
#include "ws-summaries-page.h"
#include "ws-summary-table.h"

/* The model of every table: numbers stay numbers (so that columns sort by
 * value), and cell functions format them as `nsys stats` prints them. */
enum
{
  COL_PERCENT,
  COL_TOTAL,
  COL_COUNT,
  COL_AVG,
  COL_MED,
  COL_MIN,
  COL_MAX,
  COL_STDDEV,
  COL_STYLE,
  COL_NAME,
  COL_ROW,  /* index into the summary, for copying */
  COL_FULL, /* the full name as markup, for the tooltip (the table shows display names) */
  N_COLUMNS
};

typedef struct
{
  WsSummary *summary;
  GtkTreeView *view;
  GtkListStore *store;
} Table;

struct _WsSummariesPage
{
  GtkBox parent_instance;

  WsRun *run;
  Table tables[WS_N_SUMMARY_KINDS];

  GCancellable *cancellable; /* the summaries of one rank being computed */
  gboolean busy;

  /* Template widgets */
  GtkStack *stack;
  GtkLabel *title_label;
  GtkCheckButton *group_ops_check;

  gboolean has_op_ranges; /* of the run: whether the group check shows */
  GtkComboBoxText *rank_combo;
};

G_DEFINE_FINAL_TYPE (WsSummariesPage, ws_summaries_page, GTK_TYPE_BOX)

static void rank_changed_cb (WsSummariesPage *self, GtkComboBox *combo);

static const char *const page_names[WS_N_SUMMARY_KINDS] = {
  "kernels", "nvtx", "api", "mem-time", "mem-size", "osrt",
};

static const char *
page_title (WsSummaryKind kind)
{
  switch (kind)
    {
      case WS_SUMMARY_KERN_SUM:
        return _ ("GPU kernels");
      case WS_SUMMARY_NVTX_SUM:
        return _ ("NVTX ranges");
      case WS_SUMMARY_API_SUM:
        return _ ("CUDA API calls");
      case WS_SUMMARY_MEM_TIME_SUM:
        return _ ("Memory operations (time)");
      case WS_SUMMARY_MEM_SIZE_SUM:
        return _ ("Memory operations (size)");
      case WS_SUMMARY_OSRT_SUM:
        return _ ("OS runtime calls");
      case WS_N_SUMMARY_KINDS:
      default:
        return "";
    }
}

typedef struct
{
  int column;
  int decimals;
  gboolean megabytes; /* bytes shown as MB, as cuda_gpu_mem_size_sum does */
} CellFormat;

static void
format_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model,
             GtkTreeIter *iter, gpointer data)
{
  const CellFormat *format = data;
  g_autoptr (GString) text = g_string_new (NULL);
  GValue value = G_VALUE_INIT;
  double v;

  gtk_tree_model_get_value (model, iter, format->column, &value);
  v = G_VALUE_HOLDS_INT64 (&value) ? (double) g_value_get_int64 (&value)
                                   : g_value_get_double (&value);
  g_value_unset (&value);

  if (isnan (v))
    g_string_append (text, "-"); /* not given by the source (nvprof's median) */
  else if (format->megabytes)
    ws_format_fixed (text, v / 1e6, 3, TRUE);
  else if (format->decimals > 0)
    ws_format_fixed (text, v, format->decimals, TRUE);
  else
    ws_format_int (text, (gint64) v, TRUE);
  g_object_set (cell, "text", text->str, NULL);
}

/* Returns: (transfer none): the column's cell */
static GtkCellRenderer *
add_column (GtkTreeView *view, const char *title, int model_column, int decimals,
            gboolean megabytes, gboolean text)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *column;

  if (text)
    {
      column = gtk_tree_view_column_new_with_attributes (title, cell, "text", model_column, NULL);
      gtk_tree_view_column_set_expand (column, model_column == COL_NAME);
      gtk_tree_view_column_set_resizable (column, TRUE);
      g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
      gtk_tree_view_column_set_min_width (column, model_column == COL_NAME ? 240 : 80);
    }
  else
    {
      CellFormat *format = g_new0 (CellFormat, 1);

      format->column = model_column;
      format->decimals = decimals;
      format->megabytes = megabytes;
      column = gtk_tree_view_column_new ();
      gtk_tree_view_column_set_title (column, title);
      gtk_tree_view_column_pack_start (column, cell, TRUE);
      gtk_tree_view_column_set_cell_data_func (column, cell, format_cell, format, g_free);
      g_object_set (cell, "xalign", 1.0, "family", "Monospace", NULL);
      gtk_tree_view_column_set_alignment (column, 1.0);
    }
  gtk_tree_view_column_set_sort_column_id (column, model_column);
  gtk_tree_view_append_column (view, column);
  return cell;
}

/* The columns of a report, titled as `nsys stats` titles them. */
static void
build_columns (GtkTreeView *view, WsSummaryKind kind)
{
  gboolean size = kind == WS_SUMMARY_MEM_SIZE_SUM;
  const char *count = kind == WS_SUMMARY_API_SUM || kind == WS_SUMMARY_OSRT_SUM ? _ ("Num Calls")
                      : kind == WS_SUMMARY_MEM_TIME_SUM || kind == WS_SUMMARY_MEM_SIZE_SUM
                        ? _ ("Count")
                        : _ ("Instances");
  const char *name = kind == WS_SUMMARY_NVTX_SUM ? _ ("Range")
                     : kind == WS_SUMMARY_MEM_TIME_SUM || kind == WS_SUMMARY_MEM_SIZE_SUM
                       ? _ ("Operation")
                       : _ ("Name");
  GtkCellRenderer *cell;

  if (!size)
    add_column (view, _ ("Time (%)"), COL_PERCENT, 1, FALSE, FALSE);
  add_column (view, size ? _ ("Total (MB)") : _ ("Total Time (ns)"), COL_TOTAL, 0, size, FALSE);
  add_column (view, count, COL_COUNT, 0, FALSE, FALSE);
  add_column (view, size ? _ ("Avg (MB)") : _ ("Avg (ns)"), COL_AVG, 1, size, FALSE);
  add_column (view, size ? _ ("Med (MB)") : _ ("Med (ns)"), COL_MED, 1, size, FALSE);
  add_column (view, size ? _ ("Min (MB)") : _ ("Min (ns)"), COL_MIN, 0, size, FALSE);
  add_column (view, size ? _ ("Max (MB)") : _ ("Max (ns)"), COL_MAX, 0, size, FALSE);
  add_column (view, size ? _ ("StdDev (MB)") : _ ("StdDev (ns)"), COL_STDDEV, 1, size, FALSE);
  if (kind == WS_SUMMARY_NVTX_SUM)
    add_column (view, _ ("Style"), COL_STYLE, 0, FALSE, TRUE);
  cell = add_column (view, name, COL_NAME, 0, FALSE, TRUE);
  /* Display names are cut at their end: their start tells kernels apart. */
  if (kind == WS_SUMMARY_KERN_SUM)
    g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
}

/* The names a table shows: kernels by their display names (the run's,
 * or made for the rows of a stats CSV), the rest as nsys names them. */
static char **
shown_names (const WsRun *run, const WsSummary *summary)
{
  guint n = summary->rows->len;
  g_autofree const char **full = g_new0 (const char *, n + 1);
  char **names;

  for (guint i = 0; i < n; i++)
    full[i] = g_array_index (summary->rows, WsSummaryRow, i).name;
  if (summary->kind != WS_SUMMARY_KERN_SUM)
    return g_strdupv ((char **) full);
  if (run != NULL && run->kernels.n > 0)
    {
      names = g_new0 (char *, n + 1);
      for (guint i = 0; i < n; i++)
        names[i] = g_strdup (ws_run_kernel_display (run, full[i]));
      return names;
    }
  return ws_kernel_display_names (full, n);
}

static void
fill_table (Table *table, const WsRun *run, WsSummary *summary)
{
  g_auto (GStrv) names = NULL;

  g_clear_pointer (&table->summary, ws_summary_unref);
  table->summary = summary != NULL ? ws_summary_ref (summary) : NULL;
  gtk_list_store_clear (table->store);
  if (summary == NULL)
    return;
  names = shown_names (run, summary);
  for (guint i = 0; i < summary->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);
      g_autofree char *full = g_markup_escape_text (row->name, -1);

      gtk_list_store_insert_with_values (table->store, NULL, -1, COL_PERCENT, row->percent,
                                         COL_TOTAL, row->total, COL_COUNT, row->count, COL_AVG,
                                         row->avg, COL_MED, row->med, COL_MIN, row->min, COL_MAX,
                                         row->max, COL_STDDEV, row->stddev, COL_STYLE, row->style,
                                         COL_NAME, names[i], COL_ROW, i, COL_FULL, full, -1);
    }
}

static void
fill_nvtx (WsSummariesPage *self)
{
  gboolean group = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->group_ops_check));
  g_autoptr (WsSummary) summary = NULL;

  if (self->run != NULL)
    summary = group && ws_run_has_summary_events (self->run, WS_SUMMARY_NVTX_SUM)
                ? ws_stats_compute_nvtx_ops (self->run)
                : ws_stats_summary (self->run, WS_SUMMARY_NVTX_SUM, WS_NAME_DEMANGLED);
  fill_table (&self->tables[WS_SUMMARY_NVTX_SUM], self->run, summary);
}

static Table *
visible_table (WsSummariesPage *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);

  for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
    if (g_strcmp0 (name, page_names[k]) == 0)
      return &self->tables[k];
  return NULL;
}

static void
visible_table_changed_cb (WsSummariesPage *self, GParamSpec *pspec, GtkStack *stack)
{
  Table *table = visible_table (self);
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->group_ops_check),
                          table == &self->tables[WS_SUMMARY_NVTX_SUM] && self->has_op_ranges);
  if (table == NULL || table->summary == NULL)
    {
      gtk_label_set_text (self->title_label,
                          self->run != NULL ? _ ("This run has no such data.") : "");
      return;
    }
  text = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%u row — the numbers of nsys stats %s",
                 "%u rows — the numbers of nsys stats %s", table->summary->rows->len),
    table->summary->rows->len, ws_summary_kind_to_string (table->summary->kind));
  /* nsys stats leaves replays traced whole out of its kernel reports, and
   * so does this table: the page says so. */
  if (table == &self->tables[WS_SUMMARY_KERN_SUM] && self->run != NULL)
    {
      WsGraphSummary graphs;
      g_autofree char *note = NULL;

      ws_graph_summary_compute (self->run, &graphs);
      note = ws_graph_summary_stats_note (&graphs);
      if (note != NULL)
        {
          g_autofree char *joined = g_strjoin ("\n", text, note, NULL);

          g_free (text);
          text = g_steal_pointer (&joined);
        }
    }
  gtk_label_set_text (self->title_label, text);
}

/**
 * ws_summaries_page_copy_csv:
 *
 * The selected rows of the table on show, or all of it, as the CSV that
 * `nsys stats --format csv` writes.
 *
 * Returns: (transfer full) (nullable): the CSV text
 */
char *
ws_summaries_page_copy_csv (WsSummariesPage *self)
{
  Table *table = visible_table (self);
  GtkTreeSelection *selection;
  g_autoptr (WsSummary) copy = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  GList *rows;

  g_return_val_if_fail (WS_IS_SUMMARIES_PAGE (self), NULL);

  if (table == NULL || table->summary == NULL)
    return NULL;
  selection = gtk_tree_view_get_selection (table->view);
  rows = gtk_tree_selection_get_selected_rows (selection, NULL);
  if (rows == NULL)
    {
      ws_summary_table_write (table->summary, WS_FORMAT_CSV, out);
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  copy = ws_summary_new (table->summary->kind);
  for (GList *l = rows; l != NULL; l = l->next)
    {
      GtkTreeIter iter;
      guint index;

      gtk_tree_model_get_iter (GTK_TREE_MODEL (table->store), &iter, l->data);
      gtk_tree_model_get (GTK_TREE_MODEL (table->store), &iter, COL_ROW, &index, -1);
      {
        WsSummaryRow row = g_array_index (table->summary->rows, WsSummaryRow, index);

        row.name = g_strdup (row.name);
        row.style = g_strdup (row.style);
        g_array_append_val (copy->rows, row);
      }
    }
  g_list_free_full (rows, (GDestroyNotify) gtk_tree_path_free);
  ws_summary_table_write (copy, WS_FORMAT_CSV, out);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
copy_clicked_cb (WsSummariesPage *self, GtkButton *button)
{
  g_autofree char *csv = ws_summaries_page_copy_csv (self);

  if (csv != NULL)
    gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD),
                            csv, -1);
}

static gboolean
key_press_cb (GtkWidget *widget, GdkEventKey *event, WsSummariesPage *self)
{
  if ((event->state & GDK_CONTROL_MASK) &&
      (event->keyval == GDK_KEY_c || event->keyval == GDK_KEY_C))
    {
      copy_clicked_cb (self, NULL);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

static void
group_ops_toggled_cb (WsSummariesPage *self, GtkToggleButton *button)
{
  fill_nvtx (self);
  visible_table_changed_cb (self, NULL, self->stack);
}

static void
ws_summaries_page_dispose (GObject *object)
{
  WsSummariesPage *self = WS_SUMMARIES_PAGE (object);

  for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
    g_clear_pointer (&self->tables[k].summary, ws_summary_unref);
  g_clear_pointer (&self->run, ws_run_unref);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (ws_summaries_page_parent_class)->dispose (object);
}

static void
ws_summaries_page_class_init (WsSummariesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_summaries_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-summaries-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsSummariesPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WsSummariesPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, WsSummariesPage, group_ops_check);
  gtk_widget_class_bind_template_callback (widget_class, group_ops_toggled_cb);
  gtk_widget_class_bind_template_child (widget_class, WsSummariesPage, rank_combo);
  gtk_widget_class_bind_template_callback (widget_class, copy_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, rank_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, visible_table_changed_cb);
}

static void
ws_summaries_page_init (WsSummariesPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
    {
      Table *table = &self->tables[k];
      GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);

      table->store =
        gtk_list_store_new (N_COLUMNS, G_TYPE_DOUBLE, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_DOUBLE,
                            G_TYPE_DOUBLE, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_DOUBLE, G_TYPE_STRING,
                            G_TYPE_STRING, G_TYPE_UINT, G_TYPE_STRING);
      table->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (table->store)));
      g_object_unref (table->store);
      gtk_tree_selection_set_mode (gtk_tree_view_get_selection (table->view),
                                   GTK_SELECTION_MULTIPLE);
      gtk_tree_view_set_search_column (table->view, COL_NAME);
      gtk_tree_view_set_tooltip_column (table->view, COL_FULL);
      gtk_tree_view_set_grid_lines (table->view, GTK_TREE_VIEW_GRID_LINES_VERTICAL);
      build_columns (table->view, k);
      g_signal_connect_object (table->view, "key-press-event", G_CALLBACK (key_press_cb), self, 0);

      gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (table->view));
      gtk_widget_show_all (scrolled);
      gtk_stack_add_titled (self->stack, scrolled, page_names[k], page_title (k));
    }
}

static void
fill_all (WsSummariesPage *self, WsRun *run)
{
  for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
    {
      g_autoptr (WsSummary) summary =
        run != NULL ? ws_stats_summary (run, k, WS_NAME_DEMANGLED) : NULL;

      fill_table (&self->tables[k], run, summary);
    }
  self->has_op_ranges = ws_nvtx_has_op_ranges (run);
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->group_ops_check)))
    fill_nvtx (self);
  visible_table_changed_cb (self, NULL, self->stack);
}

/* One rank's summaries, computed from its events on a worker thread. */
static void
rank_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  WsRun *run = task_data;
  guint32 pid = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (task), "pid"));
  g_autoptr (WsRun) rank = ws_run_derive_pids (run, &pid, 1);

  g_task_return_pointer (task, g_steal_pointer (&rank), (GDestroyNotify) ws_run_unref);
}

static void
rank_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  WsSummariesPage *self = WS_SUMMARIES_PAGE (source);
  g_autoptr (WsRun) rank = g_task_propagate_pointer (G_TASK (result), NULL);

  if (rank == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  self->busy = FALSE;
  fill_all (self, rank);
}

static void
rank_changed_cb (WsSummariesPage *self, GtkComboBox *combo)
{
  const char *id = gtk_combo_box_get_active_id (combo);
  gint index;
  GTask *task;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->busy = FALSE;
  if (self->run == NULL || id == NULL)
    return;
  index = g_str_equal (id, "all") ? -1 : ws_ranks_index_of (self->run->ranks, atoi (id));
  if (index < 0)
    {
      fill_all (self, self->run);
      return;
    }
  self->cancellable = g_cancellable_new ();
  self->busy = TRUE;
  task = g_task_new (self, self->cancellable, rank_ready, NULL);
  g_task_set_source_tag (task, rank_changed_cb);
  g_task_set_task_data (task, ws_run_ref (self->run), (GDestroyNotify) ws_run_unref);
  g_object_set_data (G_OBJECT (task), "pid",
                     GUINT_TO_POINTER (ws_ranks_get (self->run->ranks, index)->pid));
  g_task_run_in_thread (task, rank_thread);
  g_object_unref (task);
}

/* The rank choices: a job's ranks, merged or one at a time. */
static void
fill_ranks (WsSummariesPage *self)
{
  const WsRanks *ranks = self->run != NULL ? self->run->ranks : NULL;

  g_signal_handlers_block_by_func (self->rank_combo, rank_changed_cb, self);
  gtk_combo_box_text_remove_all (self->rank_combo);
  if (ranks != NULL && ws_ranks_get_n (ranks) > 1)
    {
      gtk_combo_box_text_append (self->rank_combo, "all", _ ("All ranks, merged"));
      for (guint i = 0; i < ws_ranks_get_n (ranks); i++)
        {
          guint rank = ws_ranks_get (ranks, i)->rank;
          g_autofree char *id = g_strdup_printf ("%u", rank);
          /* TRANSLATORS: %u is a rank of a distributed job */
          g_autofree char *label = g_strdup_printf (_ ("Rank %u"), rank);

          gtk_combo_box_text_append (self->rank_combo, id, label);
        }
      gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->rank_combo), "all");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->rank_combo),
                          ranks != NULL && ws_ranks_get_n (ranks) > 1);
  g_signal_handlers_unblock_by_func (self->rank_combo, rank_changed_cb, self);
}

void
ws_summaries_page_set_run (WsSummariesPage *self, WsRun *run)
{
  g_return_if_fail (WS_IS_SUMMARIES_PAGE (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (run != NULL)
    ws_run_ref (run);
  g_clear_pointer (&self->run, ws_run_unref);
  self->run = run;
  fill_ranks (self);
  fill_all (self, run);
}

/**
 * ws_summaries_page_set_rank:
 * @rank: a rank of the job, or -1 for all of them merged
 *
 * Shows the summaries of one rank (computed on a worker thread) or of the
 * whole job.
 */
void
ws_summaries_page_set_rank (WsSummariesPage *self, gint rank)
{
  g_autofree char *id = rank < 0 ? g_strdup ("all") : g_strdup_printf ("%d", rank);

  g_return_if_fail (WS_IS_SUMMARIES_PAGE (self));

  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->rank_combo), id);
}

/* Whether the summaries of a rank are still being computed. */
gboolean
ws_summaries_page_is_busy (WsSummariesPage *self)
{
  return self->busy;
}

/**
 * ws_summaries_page_get_view:
 *
 * Returns: (transfer none): the table of @kind
 */
GtkTreeView *
ws_summaries_page_get_view (WsSummariesPage *self, WsSummaryKind kind)
{
  g_return_val_if_fail (kind < WS_N_SUMMARY_KINDS, NULL);

  return self->tables[kind].view;
}

void
ws_summaries_page_show (WsSummariesPage *self, WsSummaryKind kind)
{
  g_return_if_fail (kind < WS_N_SUMMARY_KINDS);

  gtk_stack_set_visible_child_name (self->stack, page_names[kind]);
}

/* Whether the NVTX table has one row per operator (the check's state). */
void
ws_summaries_page_set_group_ops (WsSummariesPage *self, gboolean group)
{
  g_return_if_fail (WS_IS_SUMMARIES_PAGE (self));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->group_ops_check), group);
}

gboolean
ws_summaries_page_can_group_ops (WsSummariesPage *self)
{
  g_return_val_if_fail (WS_IS_SUMMARIES_PAGE (self), FALSE);
  return self->has_op_ranges;
}
