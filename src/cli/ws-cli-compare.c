/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-cli.h"
#include "ws-comparison.h"
#include "ws-findings-diff.h"
#include "ws-gauge-change.h"
#include "ws-findings-output.h"
#include "ws-findings.h"
#include "ws-format.h"
#include "ws-input.h"
#include "ws-run-loader.h"
#include "ws-table-writer.h"

static char *
ratio_text (double ratio)
{
  return isnan (ratio) ? g_strdup ("") : ws_format_fixed_string (ratio, 3);
}

/* For people (table, Markdown): a removed kernel has no ratio, and the
 * status says what became of the kernel; CSV keeps the machine's values. */
static char *
ratio_for_people (const WsDelta *d)
{
  return d->presence != WS_PRESENT_BOTH ? g_strdup ("—") : ratio_text (d->ratio);
}

static char *
integer (gint64 value, gboolean grouping)
{
  g_autoptr (GString) out = g_string_new (NULL);

  ws_format_int (out, value, grouping);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
write_figures (const WsComparison *cmp, GString *out, gboolean markdown)
{
  static const struct
  {
    const char *label;
    gsize offset;
    gboolean time;
  } figures[] = {
    { N_ ("GPU time in kernels"), G_STRUCT_OFFSET (WsComparison, gpu_time), TRUE },
    { N_ ("Kernel launches"), G_STRUCT_OFFSET (WsComparison, launches), FALSE },
    { N_ ("Distinct kernels"), G_STRUCT_OFFSET (WsComparison, n_kernels), FALSE },
    { N_ ("GPU busy (percent of the run)"), G_STRUCT_OFFSET (WsComparison, busy_share), FALSE },
    { N_ ("Memory operations"), G_STRUCT_OFFSET (WsComparison, memop_time), TRUE },
    { N_ ("CUDA API calls"), G_STRUCT_OFFSET (WsComparison, api_time), TRUE },
  };

  if (markdown)
    g_string_append_printf (out, "| | %s | %s |\n|:---|---:|---:|\n", _ ("Before"), _ ("After"));
  for (gsize i = 0; i < G_N_ELEMENTS (figures); i++)
    {
      const WsPair *pair = (const WsPair *) ((const char *) cmp + figures[i].offset);
      g_autofree char *b = NULL, *a = NULL;

      if (figures[i].time)
        {
          b = isnan (pair->before) ? g_strdup ("—") : ws_format_duration (pair->before);
          a = isnan (pair->after) ? g_strdup ("—") : ws_format_duration (pair->after);
        }
      else
        {
          gboolean pct = figures[i].offset == G_STRUCT_OFFSET (WsComparison, busy_share);

          b = isnan (pair->before) ? g_strdup ("—")
                                   : ws_format_fixed_string (pair->before, pct ? 1 : 0);
          a = isnan (pair->after) ? g_strdup ("—")
                                  : ws_format_fixed_string (pair->after, pct ? 1 : 0);
        }
      if (markdown)
        g_string_append_printf (out, "| %s | %s | %s |\n", _ (figures[i].label), b, a);
      else
        g_string_append_printf (out, "  %-26s %14s %14s\n", _ (figures[i].label), b, a);
    }
}

/* Each kernel profiled on both sides: its verdict change with both
 * reasons, then every gauge before → after (Δ). */
static void
write_gauges (const WsComparison *cmp, GString *out, gboolean markdown, guint width)
{
  if (cmp->n_profiled == 0)
    return;
  if (markdown)
    g_string_append_printf (out, "\n## %s\n", _ ("Gauges before and after"));
  else
    g_string_append_printf (out, "\n%s\n", _ ("Gauges before and after"));
  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);
      const WsGauges *b = ws_comparison_gauges (cmp, d, FALSE);
      const WsGauges *a = ws_comparison_gauges (cmp, d, TRUE);
      g_autofree char *verdict = NULL;
      g_autofree char *visible = NULL;

      if (!ws_delta_profiled_both (d))
        continue;
      verdict = ws_verdict_change_text (cmp, d);
      /* Printed as text: a name's control characters shown, not obeyed. */
      visible = ws_format_escape_control (d->key);
      if (markdown)
        {
          g_string_append_printf (out, "\n### `%s`\n\n**%s** %s\n\n", visible, _ ("Verdict:"),
                                  verdict);
          g_string_append_printf (out, "- %s %s\n- %s %s\n\n", _ ("Before:"), b->verdict_reason,
                                  _ ("After:"), a->verdict_reason);
          g_string_append_printf (out, "| %s | %s | %s | %s |\n|:---|---:|---:|---:|\n",
                                  _ ("Gauge"), _ ("Before"), _ ("After"), _ ("Δ"));
        }
      else
        {
          g_autofree char *key = ws_format_ellipsize_middle (visible, width);
          g_autofree char *before = g_strdup_printf ("    %s ", _ ("before:"));
          g_autofree char *after = g_strdup_printf ("    %s ", _ ("after:"));

          g_string_append_printf (out, "\n%s\n", key);
          g_string_append_printf (out, "  %-18s %s\n", _ ("Verdict"), verdict);
          ws_format_append_wrapped (out, before, "      ", b->verdict_reason, width);
          ws_format_append_wrapped (out, after, "      ", a->verdict_reason, width);
        }
      for (int g = 0; g < WS_N_GAUGES; g++)
        {
          WsGaugeKind kind = (WsGaugeKind) g;
          const char *label = ws_gauge_label (kind);
          int pad = 18 - (int) g_utf8_strlen (label, -1);

          if (markdown)
            {
              g_autofree char *bv = ws_gauge_format_value (&b->gauge[kind]);
              g_autofree char *av = ws_gauge_format_value (&a->gauge[kind]);
              g_autofree char *dv = ws_gauge_format_delta (&b->gauge[kind], &a->gauge[kind]);

              g_string_append_printf (out, "| %s | %s | %s | %s |\n", label, bv != NULL ? bv : "—",
                                      av != NULL ? av : "—", dv != NULL ? dv : "");
            }
          else
            {
              g_autofree char *change = ws_gauge_format_change (&b->gauge[kind], &a->gauge[kind]);
              g_autofree char *missing = ws_gauge_not_collected_text (&a->gauge[kind]);

              g_string_append_printf (out, "  %s%*s %s\n", label, MAX (pad, 0), "",
                                      change != NULL ? change : missing);
            }
        }
    }
}

/* The findings diff: what was fixed, what appeared, what changed severity. */
static void
write_findings (const WsComparison *cmp, GString *out, gboolean markdown)
{
  g_autoptr (GPtrArray) before = ws_findings_compute (cmp->before);
  g_autoptr (GPtrArray) after = ws_findings_compute (cmp->after);
  g_autoptr (GArray) diff = ws_findings_diff (before, after);

  if (diff->len == 0)
    return;
  if (markdown)
    {
      g_string_append_printf (out, "\n## %s\n\n", _ ("Findings"));
      ws_findings_diff_write_markdown (diff, out);
    }
  else
    {
      g_string_append_printf (out, "\n%s\n", _ ("Findings"));
      ws_findings_diff_write_text (diff, ws_cli_terminal_width (), out);
    }
}

/* Set-up (cuDNN autotuning, cudnn.benchmark trials) is no part of what a
 * change did to the loop: with steps on both sides, their steady states
 * replace *@before and *@after.  Returns what was compared, or NULL when
 * the runs stay whole. */
static char *
steady_states (WsRun **before, WsRun **after, WsSteps **before_steps, WsSteps **after_steps)
{
  *before_steps = ws_steps_compute (*before, NULL);
  *after_steps = ws_steps_compute (*after, NULL);
  if (!ws_steps_has_steady_state (*before_steps) || !ws_steps_has_steady_state (*after_steps))
    return NULL;
  {
    g_autofree char *b = ws_steps_describe_steady (*before_steps);
    g_autofree char *a = ws_steps_describe_steady (*after_steps);
    WsRun *steady_before = ws_steps_steady_run (*before, *before_steps);
    WsRun *steady_after = ws_steps_steady_run (*after, *after_steps);

    ws_run_unref (*before);
    ws_run_unref (*after);
    *before = steady_before;
    *after = steady_after;
    /* TRANSLATORS: which steps each side's steady state holds */
    return g_strdup_printf (_ ("Compared over the steady states: before %s, after %s "
                               "(--whole-run compares everything)."),
                            b, a);
  }
}

/* The comparison as a table of kernels, then (table and Markdown) the
 * headline, the ranks, the gauges and the findings. */
static void
write_comparison (WsComparison *cmp, WsOutputFormat format, WsMatchBy by, const char *scope,
                  GString *out)
{
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  static const char *const csv_headers[] = { "kernel",          "before_total_ns",
                                             "after_total_ns",  "delta_ns",
                                             "ratio",           "before_instances",
                                             "after_instances", "status" };
  static const gboolean numeric[] = { FALSE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, FALSE };

  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);
      gboolean grouping = format != WS_FORMAT_CSV;

      /* A terminal shows display names; CSV and Markdown keep the key whole
       * (a Markdown report is read later, where names must be exact). */
      if (format == WS_FORMAT_TABLE && by == WS_MATCH_DEMANGLED)
        g_ptr_array_add (cells, g_strdup (ws_run_kernel_display (
                                  d->after_count > 0 ? cmp->after : cmp->before, d->key)));
      else
        g_ptr_array_add (cells, g_strdup (d->key));
      g_ptr_array_add (cells, integer (d->before_total, grouping));
      g_ptr_array_add (cells, integer (d->after_total, grouping));
      g_ptr_array_add (cells, integer (d->delta, grouping));
      g_ptr_array_add (cells, grouping ? ratio_for_people (d) : ratio_text (d->ratio));
      g_ptr_array_add (cells, integer (d->before_count, grouping));
      g_ptr_array_add (cells, integer (d->after_count, grouping));
      g_ptr_array_add (cells, grouping ? g_strdup (ws_presence_label (d->presence))
                                       : g_strdup (ws_presence_to_string (d->presence)));
    }

  if (format == WS_FORMAT_CSV)
    {
      /* The CSV stays the table alone: the scope goes to standard error. */
      if (scope != NULL)
        g_printerr ("%s\n", scope);
      ws_table_write (G_N_ELEMENTS (csv_headers), csv_headers, numeric, cells, WS_FORMAT_CSV, out);
    }
  else
    {
      g_autofree char *raw_headline = ws_comparison_headline (cmp);
      /* It names a kernel: a line break in the name must not break it. */
      g_autofree char *headline = ws_format_escape_control (raw_headline);
      const char *headers[] = { _ ("Kernel"),  _ ("Before (ns)"),  _ ("After (ns)"),
                                _ ("Δ (ns)"),  _ ("After/Before"), _ ("Before #"),
                                _ ("After #"), _ ("Status") };

      if (format == WS_FORMAT_MARKDOWN)
        {
          g_string_append_printf (out, "# %s\n\n**%s**\n\n", _ ("Before and after"), headline);
          if (scope != NULL)
            g_string_append_printf (out, "%s\n\n", scope);
          write_figures (cmp, out, TRUE);
          g_string_append_c (out, '\n');
        }
      else
        {
          ws_format_append_wrapped (out, "", "", headline, ws_cli_terminal_width ());
          g_string_append_c (out, '\n');
          if (scope != NULL)
            {
              ws_format_append_wrapped (out, "", "", scope, ws_cli_terminal_width ());
              g_string_append_c (out, '\n');
            }
          write_figures (cmp, out, FALSE);
          g_string_append_c (out, '\n');
        }
      /* A terminal's width: the kernel names give way (Markdown keeps them). */
      if (format == WS_FORMAT_TABLE)
        ws_table_fit_width (G_N_ELEMENTS (headers), headers, cells, 0, ws_cli_terminal_width ());
      ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, format, out);
      ws_cli_compare_write_ranks (cmp->before, cmp->after, format == WS_FORMAT_MARKDOWN, out);
      write_gauges (cmp, out, format == WS_FORMAT_MARKDOWN, ws_cli_terminal_width ());
      write_findings (cmp, out, format == WS_FORMAT_MARKDOWN);
    }
}

int
ws_cli_compare (int argc, char **argv)
{
  g_autofree char *by_str = NULL;
  gboolean whole_run = FALSE;
  g_autofree char *peers = NULL;
  GOptionEntry entries[] = {
    { "by", 'b', 0, G_OPTION_ARG_STRING, &by_str,
      N_ (
        "Match kernels by: demangled (default), short or normalized (no templates or parameters)"),
      "FORM" },
    { "whole-run", 'w', 0, G_OPTION_ARG_NONE, &whole_run,
      N_ ("Compare the whole runs, set-up included (by default two runs with steps are "
          "compared over their steady states)"),
      NULL },
    { "peers", 0, 0, G_OPTION_ARG_STRING, &peers,
      N_ ("Two ranks of one job side by side, as peers: --peers 0,3 RUN"), "A,B" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("BEFORE AFTER — compare two runs kernel by kernel"));
  g_autoptr (WsSteps) before_steps = NULL;
  g_autoptr (WsSteps) after_steps = NULL;
  g_autofree char *scope = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) before = NULL;
  g_autoptr (WsRun) after = NULL;
  g_autoptr (WsComparison) cmp = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (WsCliFrame) frame = { 0 };
  WsOutputFormat format;
  WsMatchBy by = WS_MATCH_DEMANGLED;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("BEFORE and AFTER are anything the viewer opens: an nsys export, "
                "stats CSVs in a folder, or a capture folder; several files of one run are "
                "joined by commas (run.sqlite,run_ncu_raw.csv). The table and Markdown formats "
                "add the gauges of kernels profiled on both sides and the findings diff."));
  ws_cli_frame_init (&frame, context, argv[0], WS_CLI_TABLE | WS_CLI_CSV | WS_CLI_MD,
                     N_ ("Output format: table (default), csv or md"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, 2, NULL))
    return WS_EXIT_BAD_INPUT;
  if (argc != (peers != NULL ? 2 : 3))
    {
      ws_cli_error (argv[0], "%s",
                    peers != NULL ? _ ("--peers takes one run, the job")
                                  : _ ("compare takes two runs, BEFORE and AFTER"));
      return WS_EXIT_BAD_INPUT;
    }
  if (by_str != NULL && !ws_match_by_from_string (by_str, &by))
    {
      ws_cli_error (argv[0], _ ("--by must be demangled, short or normalized"));
      return WS_EXIT_BAD_INPUT;
    }
  format = frame.format;

  if (peers != NULL)
    return ws_cli_compare_peers (peers, argv[1], by, format);
  {
    g_auto (GStrv) b = ws_input_split_side (argv[1]);
    g_auto (GStrv) a = ws_input_split_side (argv[2]);

    before = ws_cli_load (b, WS_LOAD_ALL, &error);
    if (before == NULL)
      return ws_cli_fail (error);
    after = ws_cli_load (a, WS_LOAD_ALL, &error);
    if (after == NULL)
      return ws_cli_fail (error);
  }
  if (!whole_run)
    scope = steady_states (&before, &after, &before_steps, &after_steps);
  cmp = ws_comparison_new (before, after, by);
  if (scope != NULL)
    ws_comparison_set_steps (cmp, before_steps, after_steps);

  write_comparison (cmp, format, by, scope, out);
  if (!ws_cli_write_report (out, format == WS_FORMAT_CSV || format == WS_FORMAT_JSON, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
