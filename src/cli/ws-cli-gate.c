/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>

#include "ws-cli-gate.h"
#include "ws-cli.h"
#include "ws-comparison.h"
#include "ws-input.h"

/* warpscope-cli gate BEFORE AFTER --budget …: a regression gate for CI
 * (docs/ci.md).  Exit 0 when no budget went over, 1 when one did, 2 on
 * bad input, 3 when a budget cannot be judged. */

#define EXIT_CANNOT_JUDGE 3
#define MOVED_ROWS 5

static void
moved_clear (gpointer data)
{
  g_free (((WsGateMoved *) data)->name);
}

static gint64
abs_delta (const WsDelta *d)
{
  return d->delta < 0 ? -d->delta : d->delta;
}

/* The kernels and ranges that moved most between the steady states (the
 * comparison's rows are by |delta| already): MOVED_ROWS of the two. */
static GArray *
moved_most (WsRun *before, WsRun *after, const WsSteps *bs, const WsSteps *as)
{
  g_autoptr (WsRun) b = bs != NULL ? ws_steps_steady_run (before, bs) : ws_run_ref (before);
  g_autoptr (WsRun) a = as != NULL ? ws_steps_steady_run (after, as) : ws_run_ref (after);
  g_autoptr (WsComparison) cmp = ws_comparison_new (b, a, WS_MATCH_DEMANGLED);
  GArray *moved = g_array_new (FALSE, FALSE, sizeof (WsGateMoved));
  guint k = 0, r = 0;

  g_array_set_clear_func (moved, moved_clear);
  while (moved->len < MOVED_ROWS && (k < cmp->kernels->len || r < cmp->ranges->len))
    {
      const WsDelta *dk = k < cmp->kernels->len ? &g_array_index (cmp->kernels, WsDelta, k) : NULL;
      const WsDelta *dr = r < cmp->ranges->len ? &g_array_index (cmp->ranges, WsDelta, r) : NULL;
      const WsDelta *d = dr == NULL || (dk != NULL && abs_delta (dk) >= abs_delta (dr)) ? dk : dr;
      WsGateMoved m = { g_strdup (d->key), d->before_total, d->after_total };

      if (d == dk)
        k++;
      else
        r++;
      if (d->delta != 0)
        g_array_append_val (moved, m);
      else
        g_free (m.name);
    }
  return moved;
}

/* The budgets of --budgets FILE, then of each --budget. */
static GArray *
gather_budgets (const char *file, char **texts, GError **error)
{
  g_autoptr (GArray) budgets = file != NULL ? ws_budgets_read (file, error) : ws_budgets_new ();

  if (budgets == NULL)
    return NULL;
  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    {
      WsBudget budget;

      if (!ws_budget_parse (texts[i], NULL, &budget, error))
        return NULL;
      g_array_append_val (budgets, budget);
    }
  return g_steal_pointer (&budgets);
}

static WsSteps *
steady_steps (const WsRun *run)
{
  WsSteps *steps = ws_steps_compute (run, NULL);

  if (steps != NULL && !ws_steps_has_steady_state (steps))
    g_clear_pointer (&steps, ws_steps_unref);
  return steps;
}

static void
gate_run_clear (gpointer data)
{
  WsGateRun *r = data;

  g_clear_pointer ((WsRun **) &r->run, ws_run_unref);
  g_clear_pointer ((WsSteps **) &r->steps, ws_steps_unref);
}

/* The runs of one side: @first, then each of @more. */
static GArray *
load_side (const char *first, char **more, GError **error)
{
  g_autoptr (GArray) runs = g_array_new (FALSE, TRUE, sizeof (WsGateRun));
  guint n_more = more != NULL ? g_strv_length (more) : 0;

  g_array_set_clear_func (runs, gate_run_clear);
  for (guint i = 0; i <= n_more; i++)
    {
      g_auto (GStrv) sides = ws_input_split_side (i == 0 ? first : more[i - 1]);
      WsGateRun r = { ws_cli_load (sides, WS_LOAD_ALL, error), NULL };

      if (r.run == NULL)
        return NULL;
      r.steps = steady_steps (r.run);
      g_array_append_val (runs, r);
    }
  return g_steal_pointer (&runs);
}

static gboolean
write_file (const char *path, GString *text, GError **error)
{
  return path == NULL || ws_cli_write (path, text->str, text->len, error);
}

/* warpscope-cli-full render --view VIEW -o PNG BEFORE AFTER: the charts
 * are drawn by the executable that links the drawing libraries. */
static gboolean
render_chart (const char *view, const char *png, const char *before, const char *after,
              GError **error)
{
  g_autofree char *full = ws_cli_full_path ();
  const char *argv[] = { full, "render", "--view", view, "-o", png, before, after, NULL };
  int wait_status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                     &wait_status, error))
    return FALSE;
  return g_spawn_check_wait_status (wait_status, error);
}

/* --report DIR: the three reports and the compare charts of the first
 * run of each side. */
static gboolean
write_report (const char *dir, const char *before_path, const char *after_path,
              const WsGateResult *results, guint n, int status, GArray *before, GArray *after,
              GError **error)
{
  static const char *const views[][2] = {
    { "compare", "compare-kernels.png" },
    { "compare-nvtx", "compare-nvtx.png" },
  };
  const WsGateRun *b = &g_array_index (before, WsGateRun, 0);
  const WsGateRun *a = &g_array_index (after, WsGateRun, 0);
  g_autoptr (GArray) moved = moved_most ((WsRun *) b->run, (WsRun *) a->run, b->steps, a->steps);
  g_autoptr (GString) junit = g_string_new (NULL);
  g_autoptr (GString) markdown = g_string_new (NULL);
  g_autoptr (GString) json = g_string_new (NULL);
  g_autofree char *junit_path = g_build_filename (dir, "gate.xml", NULL);
  g_autofree char *md_path = g_build_filename (dir, "gate.md", NULL);
  g_autofree char *json_path = g_build_filename (dir, "gate.json", NULL);

  if (g_mkdir_with_parents (dir, 0755) != 0 || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR, _ ("%s: not a folder to write into"),
                   dir);
      return FALSE;
    }
  ws_gate_write_junit (results, n, junit);
  ws_gate_write_markdown (results, n, moved, markdown);
  ws_gate_write_json (results, n, status, json);
  for (gsize i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autofree char *png = g_build_filename (dir, views[i][1], NULL);

      if (!render_chart (views[i][0], png, before_path, after_path, error))
        return FALSE;
      g_string_append_printf (markdown, "\n![%s](%s)\n", views[i][0], views[i][1]);
    }
  return write_file (junit_path, junit, error) && write_file (md_path, markdown, error) &&
         write_file (json_path, json, error);
}

int
ws_cli_gate (int argc, char **argv)
{
  g_auto (GStrv) budget_texts = NULL;
  g_auto (GStrv) more_before = NULL;
  g_auto (GStrv) more_after = NULL;
  g_autofree char *budget_file = NULL;
  g_autofree char *junit = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *report_dir = NULL;
  GOptionEntry entries[] = {
    { "budget", 0, 0, G_OPTION_ARG_STRING_ARRAY, &budget_texts,
      N_ ("A budget: step=+3%, kernel:*gemm*=+5%, nvtx:forward=+2 ms, total-gpu=+3% (repeatable)"),
      "BUDGET" },
    { "budgets", 0, 0, G_OPTION_ARG_FILENAME, &budget_file,
      N_ ("A file of budgets, one a line (# starts a comment)"), "FILE" },
    { "before", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &more_before,
      N_ ("Another run before, of the same code: their spread counts in the noise (repeatable)"),
      "RUN" },
    { "after", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &more_after,
      N_ ("Another run after, of the same code (repeatable)"), "RUN" },
    { "junit", 0, 0, G_OPTION_ARG_FILENAME, &junit,
      N_ ("Also write a JUnit XML file: one test case per budget"), "FILE" },
    { "markdown", 0, 0, G_OPTION_ARG_FILENAME, &markdown,
      N_ ("Also write a Markdown summary, for a CI job's summary page"), "FILE" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &report_dir,
      N_ ("Write gate.xml, gate.md, gate.json and the compare charts as PNG into DIR"), "DIR" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("BEFORE AFTER — fail when a change goes over its budget"));
  g_auto (WsCliFrame) frame = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) budgets = NULL;
  g_autoptr (GArray) before = NULL;
  g_autoptr (GArray) after = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree WsGateResult *results = NULL;
  int status;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Judges each budget over the steady steps of both runs: a change counts when it "
                "is over its budget and outside the noise (a bootstrap interval). Exit status: "
                "0 none over, 1 one over, 2 bad input, 3 a budget that cannot be judged."));
  ws_cli_frame_init (&frame, context, argv[0], WS_CLI_TABLE | WS_CLI_JSON,
                     N_ ("Output format: table (default) or json"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 2, 2, NULL))
    return WS_EXIT_BAD_INPUT;
  {
    const char *inputs[] = { argv[1], argv[2], budget_file, NULL };

    const char *in_report[] = { "gate.xml", "gate.md", "gate.json", "compare-kernels.png",
                                "compare-nvtx.png" };

    if (!ws_cli_check_output (junit, inputs, &error) ||
        !ws_cli_check_output (markdown, inputs, &error))
      return ws_cli_fail (error);
    for (gsize i = 0; report_dir != NULL && i < G_N_ELEMENTS (in_report); i++)
      {
        g_autofree char *path = g_build_filename (report_dir, in_report[i], NULL);

        if (!ws_cli_check_output (path, inputs, &error))
          return ws_cli_fail (error);
      }
  }
  budgets = gather_budgets (budget_file, budget_texts, &error);
  if (budgets == NULL)
    return ws_cli_fail (error);
  if (budgets->len == 0)
    {
      ws_cli_error (argv[0], "%s", _ ("gate needs budgets: --budget BUDGET or --budgets FILE"));
      return WS_EXIT_BAD_INPUT;
    }
  before = load_side (argv[1], more_before, &error);
  if (before == NULL)
    return ws_cli_fail (error);
  after = load_side (argv[2], more_after, &error);
  if (after == NULL)
    return ws_cli_fail (error);
  results = g_new0 (WsGateResult, budgets->len);
  for (guint i = 0; i < budgets->len; i++)
    ws_gate_judge (&g_array_index (budgets, WsBudget, i), (const WsGateRun *) before->data,
                   before->len, (const WsGateRun *) after->data, after->len, &results[i]);
  status = ws_gate_exit_status (results, budgets->len);

  {
    g_autoptr (GString) report = g_string_new (NULL);

    ws_gate_write_junit (results, budgets->len, report);
    if (!write_file (junit, report, &error))
      return ws_cli_fail (error);
  }
  if (markdown != NULL)
    {
      g_autoptr (GString) report = g_string_new (NULL);
      const WsGateRun *b = &g_array_index (before, WsGateRun, 0);
      const WsGateRun *a = &g_array_index (after, WsGateRun, 0);
      g_autoptr (GArray) moved =
        moved_most ((WsRun *) b->run, (WsRun *) a->run, b->steps, a->steps);

      ws_gate_write_markdown (results, budgets->len, moved, report);
      if (!write_file (markdown, report, &error))
        return ws_cli_fail (error);
    }
  if (report_dir != NULL && !write_report (report_dir, argv[1], argv[2], results, budgets->len,
                                           status, before, after, &error))
    return ws_cli_fail (error);
  if (frame.format == WS_FORMAT_JSON)
    ws_gate_write_json (results, budgets->len, status, out);
  else
    ws_gate_write_table (results, budgets->len, out);
  for (guint i = 0; i < budgets->len; i++)
    ws_gate_result_clear (&results[i]);
  if (!ws_cli_write_report (out, frame.format == WS_FORMAT_JSON, &error))
    return ws_cli_fail (error);
  return status;
}
