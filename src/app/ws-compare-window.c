/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-window"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-compare-findings-page.h"
#include "ws-compare-gauges-page.h"
#include "ws-compare-gauges.h"
#include "ws-compare-timelines.h"
#include "ws-compare-view.h"
#include "ws-compare-window.h"
#include "ws-format.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-surface.h"
#include "ws-table-writer.h"

struct _WsCompareWindow
{
  GtkApplicationWindow parent_instance;

  WsRun *runs[2]; /* before, after */
  char **paths[2];
  WsComparison *cmp;
  GCancellable *cancellable;
  guint pending;
  WsMatchBy by;

  /* Template widgets */
  GtkHeaderBar *header_bar;
  GtkComboBox *match_combo;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkStack *main_stack;
  GtkProgressBar *progress_bar;
  GtkLabel *headline_label;
  GtkGrid *figures_grid;
  GtkStack *view_stack;
  WsCompareView *kernels_view;
  WsCompareView *ranges_view;
  GtkTreeView *table;
  WsCompareGaugesPage *gauges_page;
  WsCompareFindingsPage *findings_page;
  WsCompareTimelines *timelines;

  GtkTreeViewColumn *verdict_column;
};

G_DEFINE_FINAL_TYPE (WsCompareWindow, ws_compare_window, GTK_TYPE_APPLICATION_WINDOW)

enum
{
  READY,
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

static void
show_error (WsCompareWindow *self, const char *message)
{
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
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
  figure_cell (self, _ ("Before"), 1, 0, TRUE);
  figure_cell (self, _ ("After"), 2, 0, TRUE);
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
      gtk_list_store_insert_with_values (
        store, NULL, -1, COL_KERNEL, d->key, COL_STATUS, ws_presence_to_string (d->presence),
        COL_BEFORE, d->before_total, COL_AFTER, d->after_total, COL_DELTA, d->delta, COL_RATIO,
        d->ratio, COL_BEFORE_N, d->before_count, COL_AFTER_N, d->after_count, COL_BEFORE_AVG,
        d->before_avg, COL_AFTER_AVG, d->after_avg, COL_SHARE, 100.0 * d->share_of_change,
        COL_VERDICT, verdict, -1);
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
              g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
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
      gtk_tree_view_append_column (self->table, column);
      if (columns[i].column == COL_VERDICT)
        self->verdict_column = column;
    }
}

static void
rebuild (WsCompareWindow *self)
{
  g_autofree char *headline = NULL;
  g_autofree char *subtitle = NULL;

  if (self->runs[0] == NULL || self->runs[1] == NULL)
    return;
  g_clear_pointer (&self->cmp, ws_comparison_unref);
  self->cmp = ws_comparison_new (self->runs[0], self->runs[1], self->by);

  headline = ws_comparison_headline (self->cmp);
  gtk_label_set_text (self->headline_label, headline);
  subtitle = g_strdup_printf (_ ("%s → %s"), ws_run_display_name (self->runs[0]),
                              ws_run_display_name (self->runs[1]));
  gtk_window_set_title (GTK_WINDOW (self), subtitle);
  gtk_header_bar_set_title (self->header_bar, _ ("Compare"));
  gtk_header_bar_set_subtitle (self->header_bar, subtitle);
  fill_figures (self);
  fill_table (self);
  ws_compare_view_set_comparison (self->kernels_view, self->cmp);
  ws_compare_view_set_comparison (self->ranges_view, self->cmp);
  ws_compare_gauges_page_set_comparison (self->gauges_page, self->cmp);
  ws_compare_findings_page_set_runs (self->findings_page, self->runs[0], self->runs[1]);
  ws_compare_timelines_set_comparison (self->timelines, self->cmp);
  gtk_stack_set_visible_child_name (self->main_stack, "content");
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
        show_error (self, error->message);
      else if (run != NULL)
        {
          g_clear_pointer (&self->runs[load->side], ws_run_unref);
          self->runs[load->side] = g_steal_pointer (&run);
        }
      if (--self->pending == 0)
        {
          g_clear_object (&self->cancellable);
          rebuild (self);
          g_signal_emit (self, signals[READY], 0, self->cmp != NULL);
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

/* Two runs already loaded (a window's run and one dropped on it). */
void
ws_compare_window_set_runs (WsCompareWindow *self, WsRun *before, WsRun *after)
{
  g_return_if_fail (WS_IS_COMPARE_WINDOW (self));

  g_clear_pointer (&self->runs[0], ws_run_unref);
  g_clear_pointer (&self->runs[1], ws_run_unref);
  self->runs[0] = ws_run_ref (before);
  self->runs[1] = ws_run_ref (after);
  rebuild (self);
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
  rebuild (self);
}

typedef struct
{
  WsComparison *cmp;
  WsCompareState state;
  WsPalette palette;
  gboolean gauges; /* the gauges of every kernel profiled on both sides */
} ChartExport;

static void
draw_export (cairo_t *cr, double width, double height, gpointer data)
{
  ChartExport *chart = data;

  if (chart->gauges)
    ws_compare_gauges_draw_all (cr, width, height, chart->cmp, chart->state.title, &chart->palette);
  else
    ws_compare_chart_draw (cr, width, height, chart->cmp, &chart->state, &chart->palette);
}

/* The chart of the page on show as an image: kernels, NVTX ranges, or the
 * gauges of every kernel profiled on both sides. */
gboolean
ws_compare_window_export_chart (WsCompareWindow *self, const char *path, GError **error)
{
  g_autofree char *title = g_strdup_printf (_ ("%s → %s"), ws_run_display_name (self->runs[0]),
                                            ws_run_display_name (self->runs[1]));
  ChartExport chart = { self->cmp };
  cairo_t *cr;
  double height;

  g_return_val_if_fail (self->cmp != NULL, FALSE);

  chart.state.hover = chart.state.selected = -1;
  chart.state.top_n = 30;
  chart.state.title = title;
  chart.state.ranges = g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "nvtx") == 0;
  chart.gauges = g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "gauges") == 0;
  ws_palette_init_light (&chart.palette);
  cr = ws_measure_context ();
  if (chart.gauges)
    height = ceil (ws_compare_gauges_all_natural_height (cr, 1200, self->cmp, chart.state.title,
                                                         &chart.palette));
  else
    height = ceil (ws_compare_chart_natural_height (cr, self->cmp, &chart.state, &chart.palette));
  cairo_destroy (cr);
  return ws_render_to_file (path, 1200, height, draw_export, &chart, error);
}

/* The comparison in `warpscope-cli compare --format csv` columns. */
gboolean
ws_compare_window_export_csv (WsCompareWindow *self, const char *path, GError **error)
{
  static const char *const headers[] = { "kernel",          "before_total_ns", "after_total_ns",
                                         "delta_ns",        "ratio",           "before_instances",
                                         "after_instances", "status" };
  static const gboolean numeric[] = { FALSE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, FALSE };
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; i < self->cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (self->cmp->kernels, WsDelta, i);

      g_ptr_array_add (cells, g_strdup (d->key));
      g_ptr_array_add (cells, g_strdup_printf ("%" G_GINT64_FORMAT, d->before_total));
      g_ptr_array_add (cells, g_strdup_printf ("%" G_GINT64_FORMAT, d->after_total));
      g_ptr_array_add (cells, g_strdup_printf ("%" G_GINT64_FORMAT, d->delta));
      g_ptr_array_add (cells,
                       isnan (d->ratio) ? g_strdup ("") : ws_format_fixed_string (d->ratio, 3));
      g_ptr_array_add (cells, g_strdup_printf ("%" G_GINT64_FORMAT, d->before_count));
      g_ptr_array_add (cells, g_strdup_printf ("%" G_GINT64_FORMAT, d->after_count));
      g_ptr_array_add (cells, g_strdup (ws_presence_to_string (d->presence)));
    }
  ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, WS_FORMAT_CSV, out);
  return g_file_set_contents (path, out->str, out->len, error);
}

static void
export_response_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  WsCompareWindow *self = data;
  gboolean csv = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "csv"));
  g_autoptr (GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && self->cmp != NULL)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));

      if (!(csv ? ws_compare_window_export_csv (self, path, &error)
                : ws_compare_window_export_chart (self, path, &error)))
        show_error (self, error->message);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
export_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsCompareWindow *self = data;
  gboolean csv = g_str_equal (g_action_get_name (G_ACTION (action)), "export-csv");
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
    csv ? _ ("Export the Comparison as CSV") : _ ("Export the Chart"), GTK_WINDOW (self),
    GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));

  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog),
                                     csv ? "compare.csv" : "compare.png");
  g_object_set_data (G_OBJECT (dialog), "csv", GINT_TO_POINTER (csv));
  g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* clang-format off */
static const GActionEntry compare_actions[] = {
  { "swap", swap_action },
  { "export-chart", export_action },
  { "export-csv", export_action },
};
/* clang-format on */

static void
ws_compare_window_dispose (GObject *object)
{
  WsCompareWindow *self = WS_COMPARE_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->cmp, ws_comparison_unref);
  g_clear_pointer (&self->runs[0], ws_run_unref);
  g_clear_pointer (&self->runs[1], ws_run_unref);
  G_OBJECT_CLASS (ws_compare_window_parent_class)->dispose (object);
}

static void
ws_compare_window_finalize (GObject *object)
{
  WsCompareWindow *self = WS_COMPARE_WINDOW (object);

  g_strfreev (self->paths[0]);
  g_strfreev (self->paths[1]);
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

  g_type_ensure (WS_TYPE_COMPARE_VIEW);
  g_type_ensure (WS_TYPE_COMPARE_GAUGES_PAGE);
  g_type_ensure (WS_TYPE_COMPARE_FINDINGS_PAGE);
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
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, figures_grid);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, kernels_view);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, ranges_view);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, table);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, gauges_page);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, findings_page);
  gtk_widget_class_bind_template_child (widget_class, WsCompareWindow, timelines);
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, match_changed_cb);
}

static void
ws_compare_window_init (WsCompareWindow *self)
{
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
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
  return self->pending > 0 && self->cancellable != NULL;
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
