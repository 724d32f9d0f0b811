/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-chrome-trace.h"
#include "ws-cli.h"
#include "ws-markdown-document.h"
#include "ws-summary-table.h"

/* Each export format: the option that names its output, and how to write
 * it.  A format is one option entry and one row in exporters[]. */
typedef gboolean (*ExportFunc) (const WsRun *run, const char *path, GError **error);

typedef struct
{
  char **path; /* set by the option; NULL when the format was not asked for */
  ExportFunc write;
} Exporter;

static gboolean
export_chrome_trace (const WsRun *run, const char *path, GError **error)
{
  return ws_chrome_trace_write_file (run, path, NULL, error);
}

static gboolean
export_markdown (const WsRun *run, const char *path, GError **error)
{
  return ws_markdown_document_write (run, path, NULL, error);
}

static gboolean
export_csv_dir (const WsRun *run, const char *path, GError **error)
{
  g_autoptr (GPtrArray) written = ws_summary_table_write_csv_dir (run, path, NULL, error);

  return written != NULL;
}

int
ws_cli_export (int argc, char **argv)
{
  g_autofree char *chrome_trace = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *csv_dir = NULL;
  gboolean steady = FALSE;
  GOptionEntry entries[] = {
    { "chrome-trace", 0, 0, G_OPTION_ARG_FILENAME, &chrome_trace,
      N_ ("Write a Chrome trace (Perfetto, chrome://tracing); gzip-compressed when OUT ends in "
          ".gz"),
      "OUT.json" },
    { "markdown", 0, 0, G_OPTION_ARG_FILENAME, &markdown,
      N_ ("Write a Markdown report, its charts as PNGs in figs/ beside it: top kernels, gauges "
          "and verdicts, findings, NVTX, API and memory summaries"),
      "OUT.md" },
    { "csv-dir", 0, 0, G_OPTION_ARG_FILENAME, &csv_dir,
      N_ ("Write each summary as an nsys stats CSV (NAME_cuda_gpu_kern_sum.csv, …) into DIR"),
      "DIR" },
    { "steady", 0, 0, G_OPTION_ARG_NONE, &steady,
      N_ ("Only the steady state: the steps past the warm-up (see warpscope-cli steps)"), NULL },
    { NULL },
  };
  const Exporter exporters[] = {
    { &chrome_trace, export_chrome_trace },
    { &markdown, export_markdown },
    { &csv_dir, export_csv_dir },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE… — write a run in other formats"));
  g_auto (WsCliFrame) frame = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  gboolean asked = FALSE;
  int status = WS_EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Writes the run in each format asked for. Every file is written beside its "
                "final name and renamed when complete, so that a failed export leaves nothing "
                "half-written."));
  ws_cli_frame_init (&frame, context, argv[0], 0, NULL);
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, &chrome_trace, &markdown, NULL))
    return WS_EXIT_BAD_INPUT;
  for (gsize i = 0; i < G_N_ELEMENTS (exporters); i++)
    asked |= *exporters[i].path != NULL;
  if (!asked)
    {
      ws_cli_error (argv[0], _ ("nothing to export: give --chrome-trace OUT.json, --markdown "
                                "OUT.md or --csv-dir DIR"));
      g_printerr (_ ("Try “%s --help”.\n"), argv[0]);
      return WS_EXIT_BAD_INPUT;
    }

  run = ws_cli_load (argv + 1, WS_LOAD_ALL, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  if (steady && !ws_cli_use_steady (&run, argv[1]))
    return WS_EXIT_BAD_INPUT;

  /* The CSVs' names come from the run: none may be one of the inputs
   * (`export --csv-dir . q.sqlite q_nvtx_sum.csv` replaced the second). */
  if (csv_dir != NULL)
    {
      g_autofree char *prefix = ws_summary_table_base_name (run);

      for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
        {
          g_autofree char *name =
            g_strdup_printf ("%s_%s.csv", prefix, ws_summary_kind_to_string (kind));
          g_autofree char *path = g_build_filename (csv_dir, name, NULL);

          if (!ws_cli_check_output (path, (const char *const *) argv + 1, &error))
            return ws_cli_fail (error);
        }
    }

  for (gsize i = 0; i < G_N_ELEMENTS (exporters); i++)
    {
      g_autoptr (GError) write_error = NULL;

      if (*exporters[i].path == NULL)
        continue;
      if (!exporters[i].write (run, *exporters[i].path, &write_error))
        {
          g_printerr ("warpscope-cli: %s\n", write_error->message);
          status = WS_EXIT_FAILED;
        }
    }
  return status;
}
