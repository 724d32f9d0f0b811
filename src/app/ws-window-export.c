/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-window"
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-bars-chart.h"
#include "ws-bars-view.h"
#include "ws-chrome-trace.h"
#include "ws-export-outcome.h"
#include "ws-markdown-document.h"
#include "ws-summary-table.h"
#include "ws-window-private.h"

/* The window's exports: the kernel chart as an image, the summaries as
 * CSVs, a Markdown report and a Chrome trace. What an export needs is
 * taken on the main loop when it starts (a reference to the immutable run
 * on show, a copy of the bars as drawn); drawing, computing the findings
 * and writing happen on a GTask worker that touches no widget; the result
 * comes back to the info bar on the main loop.
 *
 * Exports run alongside each other, a second of the same kind too: each
 * has its own data and writes through the atomic-file writer, so two
 * exports to the same path leave one of the two complete files, never a
 * mix. Closing the window cancels the exports not yet started; one that
 * has started finishes its file, and its result is dropped. */

typedef struct
{
  WsWindowExport kind;
  char *path;
  WsRun *run;        /* the run on show */
  WsBarsModel *bars; /* the bars as on show, for the chart */
  char *title;       /* the chart's */
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  g_free (job->path);
  g_clear_pointer (&job->run, ws_run_unref);
  g_clear_pointer (&job->bars, ws_bars_model_free);
  g_free (job->title);
  g_free (job);
}

static void
export_worker (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ExportJob *job = data;
  g_autoptr (GError) error = NULL;
  gboolean ok = FALSE;

  if (g_task_return_error_if_cancelled (task))
    return;
  switch (job->kind)
    {
      case WS_WINDOW_EXPORT_CHART:
        {
          WsPalette palette;

          /* The light palette that documents use, whatever the theme. */
          ws_palette_init_light (&palette);
          ok = ws_bars_chart_render_to_file (job->path, 1200, 0, job->bars, job->title, &palette,
                                             &error);
        }
        break;
      case WS_WINDOW_EXPORT_CSV:
        {
          g_autoptr (GPtrArray) written =
            ws_summary_table_write_csv_dir (job->run, job->path, NULL, &error);

          ok = written != NULL;
        }
        break;
      case WS_WINDOW_EXPORT_MARKDOWN:
        ok = ws_markdown_document_write (job->run, job->path, NULL, &error);
        break;
      case WS_WINDOW_EXPORT_CHROME_TRACE:
      default:
        ok = ws_chrome_trace_write_file (job->run, job->path, cancellable, &error);
        break;
    }
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

static void
export_done (GObject *source, GAsyncResult *result, gpointer data)
{
  WsWindow *self = WS_WINDOW (source);
  ExportJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);
  GtkMessageType type = GTK_MESSAGE_INFO;
  g_autofree char *text = ws_export_outcome (job->path, ok ? NULL : error, &type);

  /* NULL: the window was closed, nobody to tell. */
  if (text == NULL)
    return;
  ws_window_show_message (self, type, text);
  g_signal_emit_by_name (self, "export-finished", job->kind, job->path, ok);
}

/**
 * ws_window_export:
 * @path: the file to write (PNG, SVG or PDF by its extension for the
 *   chart; a folder for the CSVs)
 *
 * Starts exporting what the window shows: the kernel bars as on show
 * (filter, sort, top N), the summaries as nsys stats CSVs, a Markdown
 * report, or a Chrome trace (gzip-compressed for ".gz"). It returns at
 * once; the work runs on a worker thread, and when it ends the info bar
 * says so (or what went wrong) and #WsWindow::export-finished is emitted.
 */
void
ws_window_export (WsWindow *self, WsWindowExport kind, const char *path)
{
  g_autoptr (GTask) task = NULL;
  ExportJob *job;

  g_return_if_fail (WS_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (self->run == NULL)
    return;
  job = g_new0 (ExportJob, 1);
  job->kind = kind;
  job->path = g_strdup (path);
  job->run = ws_run_ref (ws_window_shown_run (self));
  if (kind == WS_WINDOW_EXPORT_CHART)
    {
      WsBarsView *bars = ws_kernels_page_get_bars_view (self->kernels_page);

      job->bars = ws_bars_model_copy (ws_bars_view_get_model (bars));
      job->title = g_strdup_printf (_ ("GPU time by kernel — %s"), ws_run_display_name (job->run));
    }
  if (self->export_cancellable == NULL)
    self->export_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->export_cancellable, export_done, NULL);
  g_task_set_source_tag (task, ws_window_export);
  g_task_set_task_data (task, job, (GDestroyNotify) export_job_free);
  g_task_run_in_thread (task, export_worker);
}

typedef struct
{
  WsWindow *window;
  WsWindowExport kind;
} ExportRequest;

static void
export_response_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  ExportRequest *request = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));

      if (path != NULL)
        ws_window_export (request->window, request->kind, path);
    }
  g_object_unref (dialog);
  g_object_unref (request->window);
  g_free (request);
}

static GtkFileChooserNative *
chrome_trace_chooser (WsWindow *self)
{
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_ ("Export Chrome Trace"), GTK_WINDOW (self),
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), NULL);
  GtkFileFilter *filter = gtk_file_filter_new ();
  g_autofree char *base = NULL, *name = NULL;
  char *dot;

  gtk_file_filter_set_name (filter, _ ("Chrome trace (.json, .json.gz)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_filter_add_pattern (filter, "*.json.gz");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  base = g_strdup (ws_run_display_name (self->run));
  dot = strrchr (base, '.');
  if (dot != NULL && dot != base)
    *dot = '\0';
  name = g_strconcat (base, ".json", NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  return chooser;
}

/* win.export-chart, win.export-csv, win.export-markdown and
 * win.export-chrome-trace: where to, then ws_window_export(). */
void
ws_window_export_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsWindow *self = data;
  const char *name = g_action_get_name (G_ACTION (action));
  g_autofree char *base = NULL;
  g_autofree char *suggested = NULL;
  GtkFileChooserNative *dialog;
  ExportRequest *request;

  if (self->run == NULL)
    return;
  base = ws_summary_table_base_name (self->run);
  request = g_new0 (ExportRequest, 1);
  request->window = g_object_ref (self);
  if (g_str_equal (name, "export-chart"))
    {
      request->kind = WS_WINDOW_EXPORT_CHART;
      suggested = g_strdup_printf ("%s_kernels.png", base);
      dialog =
        gtk_file_chooser_native_new (_ ("Export the Chart"), GTK_WINDOW (self),
                                     GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
    }
  else if (g_str_equal (name, "export-csv"))
    {
      request->kind = WS_WINDOW_EXPORT_CSV;
      dialog = gtk_file_chooser_native_new (
        _ ("Export the Summaries as CSV into a Folder"), GTK_WINDOW (self),
        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _ ("_Export"), _ ("_Cancel"));
    }
  else if (g_str_equal (name, "export-chrome-trace"))
    {
      request->kind = WS_WINDOW_EXPORT_CHROME_TRACE;
      dialog = chrome_trace_chooser (self);
    }
  else
    {
      request->kind = WS_WINDOW_EXPORT_MARKDOWN;
      suggested = g_strdup_printf ("summary_%s.md", base);
      dialog =
        gtk_file_chooser_native_new (_ ("Export a Markdown Report"), GTK_WINDOW (self),
                                     GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
    }
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (dialog), TRUE);
  if (suggested != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), suggested);
  g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}
