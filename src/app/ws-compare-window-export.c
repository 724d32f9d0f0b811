/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-window"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-atomic-file.h"
#include "ws-compare-gauges.h"
#include "ws-compare-window-private.h"
#include "ws-export-outcome.h"
#include "ws-format.h"
#include "ws-surface.h"
#include "ws-table-writer.h"

/* The comparison window's exports: the chart on show as an image, the
 * table as CSV, and the dialog that asks where. What an export needs is
 * taken on the main loop when it starts (a reference to the immutable
 * comparison, the page on show, the title); drawing and writing happen on
 * a GTask worker that touches no widget; the result comes back to the
 * info bar on the main loop.
 *
 * Exports run alongside each other, a second of the same kind too: each
 * has its own data and writes through the atomic-file writer, so two
 * exports to the same path leave one of the two complete files, never a
 * mix. Closing the window cancels the exports not yet started; one that
 * has started finishes its file, and its result is dropped. */

typedef struct
{
  WsCompareWindowExport kind;
  char *path;
  WsComparison *cmp;
  char *title;
  gboolean ranges; /* the NVTX ranges page is on show */
  gboolean gauges; /* the gauges page: every kernel profiled on both sides */
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  g_free (job->path);
  g_clear_pointer (&job->cmp, ws_comparison_unref);
  g_free (job->title);
  g_free (job);
}

typedef struct
{
  const WsComparison *cmp;
  WsCompareState state;
  WsPalette palette;
  gboolean gauges;
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
static gboolean
write_chart (const ExportJob *job, GError **error)
{
  ChartExport chart = { job->cmp };
  cairo_t *cr;
  double height;

  chart.state.hover = chart.state.selected = -1;
  chart.state.top_n = 30;
  chart.state.title = job->title;
  chart.state.ranges = job->ranges;
  chart.gauges = job->gauges;
  ws_palette_init_light (&chart.palette);
  cr = ws_measure_context ();
  if (chart.gauges)
    height = ceil (
      ws_compare_gauges_all_natural_height (cr, 1200, job->cmp, chart.state.title, &chart.palette));
  else
    height = ceil (ws_compare_chart_natural_height (cr, job->cmp, &chart.state, &chart.palette));
  cairo_destroy (cr);
  return ws_render_to_file (job->path, 1200, height, draw_export, &chart, error);
}

/* The comparison in `warpscope-cli compare --format csv` columns. */
static gboolean
write_csv (const ExportJob *job, GError **error)
{
  static const char *const headers[] = { "kernel",          "before_total_ns", "after_total_ns",
                                         "delta_ns",        "ratio",           "before_instances",
                                         "after_instances", "status" };
  static const gboolean numeric[] = { FALSE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, FALSE };
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; i < job->cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (job->cmp->kernels, WsDelta, i);

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
  return ws_atomic_file_save (job->path, out->str, out->len, WS_ATOMIC_FILE_DEFAULT, error);
}

static void
export_worker (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ExportJob *job = data;
  g_autoptr (GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;
  if (job->kind == WS_COMPARE_WINDOW_EXPORT_CSV ? write_csv (job, &error)
                                                : write_chart (job, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

static void
export_done (GObject *source, GAsyncResult *result, gpointer data)
{
  WsCompareWindow *self = WS_COMPARE_WINDOW (source);
  ExportJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);
  GtkMessageType type = GTK_MESSAGE_INFO;
  g_autofree char *text = ws_export_outcome (job->path, ok ? NULL : error, &type);

  /* NULL: the window was closed, nobody to tell. */
  if (text == NULL)
    return;
  ws_compare_window_show_message (self, type, text);
  g_signal_emit_by_name (self, "export-finished", job->kind, job->path, ok);
}

/**
 * ws_compare_window_export:
 * @path: the file to write: PNG, SVG or PDF by its extension for the chart
 *
 * Starts exporting the chart of the page on show (kernels, NVTX ranges, or
 * the gauges of every kernel profiled on both sides), or the comparison as
 * the CSV that `warpscope-cli compare --format csv` prints. It returns at
 * once; the work runs on a worker thread, and when it ends the info bar
 * says so (or what went wrong) and #WsCompareWindow::export-finished is
 * emitted.
 */
void
ws_compare_window_export (WsCompareWindow *self, WsCompareWindowExport kind, const char *path)
{
  const char *page;
  g_autoptr (GTask) task = NULL;
  ExportJob *job;

  g_return_if_fail (WS_IS_COMPARE_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (self->cmp == NULL)
    return;
  page = gtk_stack_get_visible_child_name (self->view_stack);
  job = g_new0 (ExportJob, 1);
  job->kind = kind;
  job->path = g_strdup (path);
  job->cmp = ws_comparison_ref (self->cmp);
  job->title = g_strdup_printf (_ ("%s → %s"), ws_run_display_name (self->runs[0]),
                                ws_run_display_name (self->runs[1]));
  job->ranges = g_strcmp0 (page, "nvtx") == 0;
  job->gauges = g_strcmp0 (page, "gauges") == 0;
  if (self->export_cancellable == NULL)
    self->export_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->export_cancellable, export_done, NULL);
  g_task_set_source_tag (task, ws_compare_window_export);
  g_task_set_task_data (task, job, (GDestroyNotify) export_job_free);
  g_task_run_in_thread (task, export_worker);
}

static void
export_response_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  WsCompareWindow *self = data;
  gboolean csv = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "csv"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));

      if (path != NULL)
        ws_compare_window_export (
          self, csv ? WS_COMPARE_WINDOW_EXPORT_CSV : WS_COMPARE_WINDOW_EXPORT_CHART, path);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

void
ws_compare_window_export_action (GSimpleAction *action, GVariant *param, gpointer data)
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
