/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-cli.h"
#include "ws-range-bottleneck-project.h"
#include "ws-range-bottleneck-table.h"
#include "ws-reader-error.h"
#include "ws-why-json.h"

int
ws_cli_rollup (int argc, char **argv)
{
  GOptionEntry entries[] = {
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("RUN — each NVTX range's GPU time by bottleneck"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsNvtxKernels) projection = NULL;
  g_autoptr (GArray) rows = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (WsCliFrame) frame = { 0 };
  WsOutputFormat format;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context,
    _ ("Splits the GPU time of each NVTX range (the kernels launched inside it) by the "
       "bottleneck of its kernels: a profiled launch's verdict carries to every launch of the "
       "same kernel with the same grid and block, the rest is not profiled. RUN is a capture "
       "folder, or an nsys export with its ncu CSVs (joined by commas or given apart). CSV "
       "columns: range,gpu_ns,compute_ns,memory_ns,latency_ns,mixed_ns,unprofiled_ns."));
  ws_cli_frame_init (&frame, context, argv[0], WS_CLI_TABLE | WS_CLI_CSV | WS_CLI_JSON,
                     N_ ("Output format: table (default), csv or json"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, NULL))
    return WS_EXIT_BAD_INPUT;
  format = frame.format;

  run = ws_cli_load (argv + 1, WS_LOAD_ALL & ~WS_LOAD_GPU_METRICS, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  if (!run->has_nvtx_table || run->nvtx.n == 0)
    {
      g_set_error (&error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   _ ("%s: the run has no NVTX ranges to split"), argv[1]);
      return ws_cli_fail (error);
    }
  projection = ws_nvtx_kernels_new (run);
  rows = ws_range_bottleneck_project (run, projection);
  switch (format)
    {
      case WS_FORMAT_JSON:
        {
          g_autoptr (JsonNode) root = ws_range_bottleneck_to_json (rows);
          g_autofree char *text = ws_cli_json_text (root);

          g_string_append (out, text);
        }
        break;
      case WS_FORMAT_CSV:
      case WS_FORMAT_TABLE:
      case WS_FORMAT_MARKDOWN:
      default:
        ws_range_bottleneck_table_write (rows, format, 0, ws_cli_terminal_width (), out);
        break;
    }
  if (!ws_cli_write_report (out, format == WS_FORMAT_CSV || format == WS_FORMAT_JSON, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
