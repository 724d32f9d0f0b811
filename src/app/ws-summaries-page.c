/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-summaries-page"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
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
  COL_ROW, /* index into the summary, for copying */
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

  /* Template widgets */
  GtkStack *stack;
  GtkLabel *title_label;
};

G_DEFINE_FINAL_TYPE (WsSummariesPage, ws_summaries_page, GTK_TYPE_BOX)

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

static void
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
  add_column (view, name, COL_NAME, 0, FALSE, TRUE);
}

static void
fill_table (Table *table, WsSummary *summary)
{
  g_clear_pointer (&table->summary, ws_summary_unref);
  table->summary = summary != NULL ? ws_summary_ref (summary) : NULL;
  gtk_list_store_clear (table->store);
  if (summary == NULL)
    return;
  for (guint i = 0; i < summary->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);

      gtk_list_store_insert_with_values (
        table->store, NULL, -1, COL_PERCENT, row->percent, COL_TOTAL, row->total, COL_COUNT,
        row->count, COL_AVG, row->avg, COL_MED, row->med, COL_MIN, row->min, COL_MAX, row->max,
        COL_STDDEV, row->stddev, COL_STYLE, row->style, COL_NAME, row->name, COL_ROW, i, -1);
    }
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
ws_summaries_page_dispose (GObject *object)
{
  WsSummariesPage *self = WS_SUMMARIES_PAGE (object);

  for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
    g_clear_pointer (&self->tables[k].summary, ws_summary_unref);
  g_clear_pointer (&self->run, ws_run_unref);

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
  gtk_widget_class_bind_template_callback (widget_class, copy_clicked_cb);
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

      table->store = gtk_list_store_new (N_COLUMNS, G_TYPE_DOUBLE, G_TYPE_INT64, G_TYPE_INT64,
                                         G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_INT64, G_TYPE_INT64,
                                         G_TYPE_DOUBLE, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_UINT);
      table->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (table->store)));
      g_object_unref (table->store);
      gtk_tree_selection_set_mode (gtk_tree_view_get_selection (table->view),
                                   GTK_SELECTION_MULTIPLE);
      gtk_tree_view_set_search_column (table->view, COL_NAME);
      gtk_tree_view_set_grid_lines (table->view, GTK_TREE_VIEW_GRID_LINES_VERTICAL);
      build_columns (table->view, k);
      g_signal_connect_object (table->view, "key-press-event", G_CALLBACK (key_press_cb), self, 0);

      gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (table->view));
      gtk_widget_show_all (scrolled);
      gtk_stack_add_titled (self->stack, scrolled, page_names[k], page_title (k));
    }
}

void
ws_summaries_page_set_run (WsSummariesPage *self, WsRun *run)
{
  g_return_if_fail (WS_IS_SUMMARIES_PAGE (self));

  if (run != NULL)
    ws_run_ref (run);
  g_clear_pointer (&self->run, ws_run_unref);
  self->run = run;

  for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
    {
      g_autoptr (WsSummary) summary =
        run != NULL ? ws_stats_summary (run, k, WS_NAME_DEMANGLED) : NULL;

      fill_table (&self->tables[k], summary);
    }
  visible_table_changed_cb (self, NULL, self->stack);
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
