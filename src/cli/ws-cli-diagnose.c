/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ws-cli.h"
#include "ws-digest.h"
#include "ws-findings-output.h"
#include "ws-findings-setup.h"
#include "ws-format.h"
#include "ws-findings.h"
#include "ws-table-writer.h"

/* The findings, and what part of the run they cover: "scope" says whether
 * the steady state or the whole run, and what the steady state left out. */
static char *
findings_json (GPtrArray *findings, const WsRun *run, WsSteps *steps, const char *setup)
{
  g_autoptr (JsonNode) root = ws_findings_to_json (findings, run->origin);
  JsonObject *scope = json_object_new ();

  json_object_set_string_member (scope, "kind", steps != NULL ? "steady-state" : "whole-run");
  if (steps != NULL)
    {
      g_autoptr (GArray) spans = ws_steps_spans (steps, FALSE);

      json_object_set_string_member (scope, "steps", steps->pattern);
      json_object_set_int_member (scope, "steady_steps", steps->n_steady);
      json_object_set_int_member (scope, "warmup_steps", steps->n_warmup);
      json_object_set_int_member (scope, "start_ns", g_array_index (spans, WsSpan, 0).start);
      json_object_set_int_member (scope, "end_ns",
                                  g_array_index (spans, WsSpan, spans->len - 1).end);
      json_object_set_string_member (scope, "setup", setup);
    }
  json_object_set_object_member (json_node_get_object (root), "scope", scope);
  return ws_cli_json_text (root);
}

/* A digest's findings were computed when it was made, each rank's as
 * `diagnose` gives them for its export: over the steady state. */
static char *
digest_scope (const WsRun *run, gboolean whole_run)
{
  guint n = ws_ranks_get_n (run->ranks);

  if (whole_run)
    g_printerr (_ ("warpscope-cli: diagnose: --whole-run: a digest holds the findings of each "
                   "rank's steady state, as computed when it was made\n"));
  if (n == 1)
    {
      const WsDigestRank *rank =
        ws_digest_find_rank (run->digest, ws_ranks_get (run->ranks, 0)->rank);

      return rank != NULL ? g_strdup (rank->scope) : NULL;
    }
  /* TRANSLATORS: a number of ranks */
  return g_strdup_printf (_ ("Findings of %u ranks, each over its steady state, from the digest: "
                             "each check once, as the rank where it is worst raises it."),
                          n);
}

int
ws_cli_diagnose (int argc, char **argv)
{
  gboolean whole_run = FALSE;
  GOptionEntry entries[] = {
    { "whole-run", 'w', 0, G_OPTION_ARG_NONE, &whole_run,
      N_ ("Check the whole run, set-up included (by default a run with steps is checked over "
          "its steady state)"),
      NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE.sqlite — the field's checklist, computed"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (WsRun) checked = NULL;
  g_autoptr (WsSteps) steps = NULL;
  g_autofree char *setup = NULL;
  g_auto (WsCliFrame) frame = { 0 };
  WsOutputFormat format;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Checks a run for allocation in loops, small transfers, over-synchronisation, "
                "launch overhead, load imbalance and GPU idle time, and prints each finding "
                "with its severity, the numbers behind it, where it happens and the usual fix. "
                "A run without findings is not an error."));
  ws_cli_frame_init (&frame, context, argv[0], WS_CLI_TABLE | WS_CLI_MD | WS_CLI_JSON,
                     N_ ("Output format: table (default), json or md"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, NULL))
    return WS_EXIT_BAD_INPUT;
  format = frame.format;

  /* The memory-access check reads the GPU metric samples. */
  run = ws_cli_load (argv + 1, WS_LOAD_ALL, &error);
  if (run == NULL)
    return ws_cli_fail (error);

  /* Set-up is not what a loop does: with steps, the checks look at the
   * steady state, and one line says what they left out. */
  checked = whole_run ? ws_run_ref (run) : ws_cli_steady (run, &steps);
  if (steps != NULL)
    setup = ws_findings_setup_line (run, steps);
  else if (run->digest != NULL)
    setup = digest_scope (run, whole_run);
  findings = ws_findings_compute (checked);
  switch (format)
    {
      case WS_FORMAT_JSON:
        {
          g_autofree char *text = findings_json (findings, checked, steps, setup);

          g_string_append (out, text);
        }
        break;
      case WS_FORMAT_MARKDOWN:
        g_string_append_printf (out, "## %s\n\n", _ ("Findings"));
        if (setup != NULL)
          g_string_append_printf (out, "%s\n\n", setup);
        ws_findings_write_markdown (findings, out);
        break;
      case WS_FORMAT_TABLE:
      case WS_FORMAT_CSV:
      default:
        if (setup != NULL)
          {
            ws_format_append_wrapped (out, "", "", setup, ws_cli_terminal_width ());
            g_string_append_c (out, '\n');
          }
        ws_findings_write_text (findings, ws_cli_terminal_width (), out);
        break;
    }

  if (!ws_cli_write_report (out, format == WS_FORMAT_JSON, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
