/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-bars-chart.h"
#include "ws-cli.h"
#include "ws-compare-gauges.h"
#include "ws-comparison.h"
#include "ws-findings-diff.h"
#include "ws-findings-output.h"
#include "ws-findings.h"
#include "ws-format.h"
#include "ws-input.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-table-writer.h"

static char *
ratio_text (double ratio)
{
  return isnan (ratio) ? g_strdup ("") : ws_format_fixed_string (ratio, 3);
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
write_gauges (const WsComparison *cmp, GString *out, gboolean markdown)
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

      if (!ws_delta_profiled_both (d))
        continue;
      verdict = ws_verdict_change_text (cmp, d);
      if (markdown)
        {
          g_string_append_printf (out, "\n### `%s`\n\n**%s** %s\n\n", d->key, _ ("Verdict:"),
                                  verdict);
          g_string_append_printf (out, "- %s %s\n- %s %s\n\n", _ ("Before:"), b->verdict_reason,
                                  _ ("After:"), a->verdict_reason);
          g_string_append_printf (out, "| %s | %s | %s | %s |\n|:---|---:|---:|---:|\n",
                                  _ ("Gauge"), _ ("Before"), _ ("After"), _ ("Δ"));
        }
      else
        {
          g_string_append_printf (out, "\n%s\n", d->key);
          g_string_append_printf (out, "  %-18s %s\n", _ ("Verdict"), verdict);
          g_string_append_printf (out, "    %s %s\n    %s %s\n", _ ("before:"), b->verdict_reason,
                                  _ ("after:"), a->verdict_reason);
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
      ws_findings_diff_write_text (diff, out);
    }
}

int
ws_cli_compare (int argc, char **argv)
{
  g_autofree char *by_str = NULL;
  g_autofree char *format_str = NULL;
  GOptionEntry entries[] = {
    { "by", 'b', 0, G_OPTION_ARG_STRING, &by_str,
      N_ (
        "Match kernels by: demangled (default), short or normalized (no templates or parameters)"),
      "FORM" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_str,
      N_ ("Output format: table (default), csv or md"), "FORMAT" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("BEFORE AFTER — compare two runs kernel by kernel"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) before = NULL;
  g_autoptr (WsRun) after = NULL;
  g_autoptr (WsComparison) cmp = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  WsOutputFormat format = WS_FORMAT_TABLE;
  WsMatchBy by = WS_MATCH_DEMANGLED;
  static const char *const csv_headers[] = { "kernel",          "before_total_ns",
                                             "after_total_ns",  "delta_ns",
                                             "ratio",           "before_instances",
                                             "after_instances", "status" };
  static const gboolean numeric[] = { FALSE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, FALSE };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("BEFORE and AFTER are anything the viewer opens: an nsys export, "
                "stats CSVs in a folder, or a capture folder; several files of one run are "
                "joined by commas (run.sqlite,run_ncu_raw.csv). The table and Markdown formats "
                "add the gauges of kernels profiled on both sides and the findings diff."));
  if (!ws_cli_parse (context, &argc, &argv, 2, 2))
    return WS_EXIT_BAD_INPUT;
  if (by_str != NULL && !ws_match_by_from_string (by_str, &by))
    {
      g_printerr (_ ("%s: --by must be demangled, short or normalized\n"), argv[0]);
      return WS_EXIT_BAD_INPUT;
    }
  if (format_str != NULL &&
      (!ws_output_format_from_string (format_str, &format) || format == WS_FORMAT_JSON))
    {
      g_printerr (_ ("%s: --format must be table, csv or md\n"), argv[0]);
      return WS_EXIT_BAD_INPUT;
    }

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
  ws_stats_compute_summaries (before);
  ws_stats_compute_summaries (after);
  cmp = ws_comparison_new (before, after, by);

  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);
      gboolean grouping = format != WS_FORMAT_CSV;

      g_ptr_array_add (cells, g_strdup (d->key));
      g_ptr_array_add (cells, integer (d->before_total, grouping));
      g_ptr_array_add (cells, integer (d->after_total, grouping));
      g_ptr_array_add (cells, integer (d->delta, grouping));
      g_ptr_array_add (cells, ratio_text (d->ratio));
      g_ptr_array_add (cells, integer (d->before_count, grouping));
      g_ptr_array_add (cells, integer (d->after_count, grouping));
      g_ptr_array_add (cells, g_strdup (ws_presence_to_string (d->presence)));
    }

  if (format == WS_FORMAT_CSV)
    ws_table_write (G_N_ELEMENTS (csv_headers), csv_headers, numeric, cells, WS_FORMAT_CSV, out);
  else
    {
      g_autofree char *headline = ws_comparison_headline (cmp);
      const char *headers[] = { _ ("Kernel"),  _ ("Before (ns)"),  _ ("After (ns)"),
                                _ ("Δ (ns)"),  _ ("After/Before"), _ ("Before #"),
                                _ ("After #"), _ ("Status") };

      if (format == WS_FORMAT_MARKDOWN)
        {
          g_string_append_printf (out, "# %s\n\n**%s**\n\n", _ ("Before and after"), headline);
          write_figures (cmp, out, TRUE);
          g_string_append_c (out, '\n');
        }
      else
        {
          g_string_append_printf (out, "%s\n\n", headline);
          write_figures (cmp, out, FALSE);
          g_string_append_c (out, '\n');
        }
      ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, format, out);
      write_gauges (cmp, out, format == WS_FORMAT_MARKDOWN);
      write_findings (cmp, out, format == WS_FORMAT_MARKDOWN);
    }

  if (!ws_cli_write (NULL, out->str, out->len, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
