/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-window"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-atomic-file.h"
#include "ws-compare-gauges.h"
#include "ws-compare-window-private.h"
#include "ws-format.h"
#include "ws-surface.h"
#include "ws-table-writer.h"

/* The comparison window's exports: the chart on show as an image, the
 * table as CSV, and the dialog that asks where. */

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
  return ws_atomic_file_save (path, out->str, out->len, WS_ATOMIC_FILE_DEFAULT, error);
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
        ws_compare_window_show_error (self, error->message);
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
