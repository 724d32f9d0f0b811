/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ws-cli.h"
#include "ws-findings-output.h"
#include "ws-findings.h"
#include "ws-table-writer.h"

static char *
findings_json (GPtrArray *findings, const WsRun *run)
{
  g_autoptr (JsonNode) root = ws_findings_to_json (findings, run->origin);

  return ws_cli_json_text (root);
}

int
ws_cli_diagnose (int argc, char **argv)
{
  g_autofree char *format_str = NULL;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_str,
      N_ ("Output format: table (default), json or md"), "FORMAT" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE.sqlite — the field's checklist, computed"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  WsOutputFormat format = WS_FORMAT_TABLE;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Checks a run for allocation in loops, small transfers, over-synchronisation, "
                "launch overhead, load imbalance and GPU idle time, and prints each finding "
                "with its severity, the numbers behind it, where it happens and the usual fix. "
                "A run without findings is not an error."));
  if (!ws_cli_parse (context, &argc, &argv, 1, 1))
    return WS_EXIT_BAD_INPUT;
  if (format_str != NULL &&
      (!ws_output_format_from_string (format_str, &format) || format == WS_FORMAT_CSV))
    {
      g_printerr (_ ("warpscope-cli: diagnose: unknown format “%s” (table, json or md)\n"),
                  format_str);
      return WS_EXIT_BAD_INPUT;
    }

  /* The memory-access check reads the GPU metric samples. */
  run = ws_cli_load (argv + 1, WS_LOAD_ALL, &error);
  if (run == NULL)
    return ws_cli_fail (error);

  findings = ws_findings_compute (run);
  switch (format)
    {
      case WS_FORMAT_JSON:
        {
          g_autofree char *text = findings_json (findings, run);

          g_string_append (out, text);
        }
        break;
      case WS_FORMAT_MARKDOWN:
        g_string_append_printf (out, "## %s\n\n", _ ("Findings"));
        ws_findings_write_markdown (findings, out);
        break;
      case WS_FORMAT_TABLE:
      case WS_FORMAT_CSV:
      default:
        ws_findings_write_text (findings, out);
        break;
    }

  if (!ws_cli_write (NULL, out->str, out->len, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
