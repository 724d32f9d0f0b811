/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-cli-gate.h"
#include "ws-format.h"
#include "ws-json-text.h"

/* What `gate` writes: a line per budget for people, JSON, JUnit XML (a
 * test case per budget) and Markdown for a CI job's summary page. */

void
ws_gate_write_table (const WsGateResult *results, guint n, GString *out)
{
  for (guint i = 0; i < n; i++)
    {
      const WsGateResult *r = &results[i];
      g_autofree char *text = ws_gate_result_text (r);

      g_string_append_printf (out, "%-12s  %s  %s", ws_gate_verdict_label (r->verdict),
                              r->budget->text, text);
      if (r->budget->where != NULL)
        g_string_append_printf (out, "  (%s)", r->budget->where);
      g_string_append_c (out, '\n');
    }
}

static void
json_number_or_null (GString *out, double v)
{
  if (isnan (v))
    g_string_append (out, "null");
  else
    ws_json_append_double (out, v);
}

void
ws_gate_write_json (const WsGateResult *results, guint n, int status, GString *out)
{
  g_string_append (out, "{\"budgets\": [");
  for (guint i = 0; i < n; i++)
    {
      const WsGateResult *r = &results[i];

      g_string_append (out, i > 0 ? ",\n  {" : "\n  {");
      g_string_append (out, "\"budget\": ");
      ws_json_append_string (out, r->budget->text);
      g_string_append (out, ", \"where\": ");
      if (r->budget->where != NULL)
        ws_json_append_string (out, r->budget->where);
      else
        g_string_append (out, "null");
      g_string_append_printf (out, ", \"verdict\": \"%s\", \"per_step\": %s",
                              ws_gate_verdict_to_string (r->verdict),
                              r->per_step ? "true" : "false");
      g_string_append_printf (out, ", \"runs_before\": %u, \"runs_after\": %u", r->n_runs_before,
                              r->n_runs_after);
      g_string_append_printf (out, ", \"n_before\": %u, \"n_after\": %u", r->n_before, r->n_after);
      g_string_append_printf (
        out, ", \"unit\": \"%s\", \"limit\": ", r->budget->percent ? "percent" : "ns");
      ws_json_append_double (out, r->budget->limit);
      g_string_append (out, ", \"before_ns\": ");
      json_number_or_null (out, r->verdict == WS_GATE_CANNOT_JUDGE ? NAN : r->before);
      g_string_append (out, ", \"after_ns\": ");
      json_number_or_null (out, r->verdict == WS_GATE_CANNOT_JUDGE ? NAN : r->after);
      g_string_append (out, ", \"change\": ");
      json_number_or_null (out, r->change);
      g_string_append (out, ", \"low\": ");
      json_number_or_null (out, r->low);
      g_string_append (out, ", \"high\": ");
      json_number_or_null (out, r->high);
      g_string_append (out, ", \"reason\": ");
      if (r->reason != NULL)
        ws_json_append_string (out, r->reason);
      else
        g_string_append (out, "null");
      g_string_append (out, "}");
    }
  g_string_append_printf (out, "\n], \"exit_status\": %d}\n", status);
}

void
ws_gate_write_junit (const WsGateResult *results, guint n, GString *out)
{
  guint failures = 0, errors = 0;

  for (guint i = 0; i < n; i++)
    {
      failures += results[i].verdict == WS_GATE_REGRESSION;
      errors += results[i].verdict == WS_GATE_CANNOT_JUDGE;
    }
  g_string_append (out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  g_string_append_printf (out,
                          "<testsuites name=\"warpscope gate\" tests=\"%u\" failures=\"%u\" "
                          "errors=\"%u\">\n  <testsuite name=\"warpscope gate\" tests=\"%u\" "
                          "failures=\"%u\" errors=\"%u\" skipped=\"0\">\n",
                          n, failures, errors, n, failures, errors);
  for (guint i = 0; i < n; i++)
    {
      const WsGateResult *r = &results[i];
      g_autofree char *name = g_markup_escape_text (r->budget->text, -1);
      g_autofree char *text = ws_gate_result_text (r);
      g_autofree char *message = g_markup_escape_text (text, -1);

      g_string_append_printf (out, "    <testcase classname=\"warpscope.gate\" name=\"%s\">", name);
      if (r->verdict == WS_GATE_REGRESSION)
        g_string_append_printf (out, "\n      <failure message=\"%s\" type=\"regression\"/>\n    ",
                                message);
      else if (r->verdict == WS_GATE_CANNOT_JUDGE)
        g_string_append_printf (out, "\n      <error message=\"%s\" type=\"cannot-judge\"/>\n    ",
                                message);
      else
        g_string_append_printf (out, "\n      <system-out>%s</system-out>\n    ", message);
      g_string_append (out, "</testcase>\n");
    }
  g_string_append (out, "  </testsuite>\n</testsuites>\n");
}

/* A Markdown table cell: no pipe or newline breaks the row. */
static char *
md_cell (const char *text)
{
  g_autofree char *escaped = NULL;
  g_auto (GStrv) parts = g_strsplit (text, "|", -1);

  escaped = g_strjoinv ("\\|", parts);
  g_strdelimit (escaped, "\n", ' ');
  return g_steal_pointer (&escaped);
}

void
ws_gate_write_markdown (const WsGateResult *results, guint n, const GArray *moved, GString *out)
{
  guint over = 0, unjudged = 0;
  /* xgettext:no-c-format */
  const char *interval_header = _ ("95% interval");

  for (guint i = 0; i < n; i++)
    {
      over += results[i].verdict == WS_GATE_REGRESSION;
      unjudged += results[i].verdict == WS_GATE_CANNOT_JUDGE;
    }
  g_string_append_printf (out, "## %s\n\n", _ ("Warpscope gate"));
  /* TRANSLATORS: budgets in all, over budget, not judged */
  g_string_append_printf (out, _ ("%u budgets: %u over, %u not judged.\n\n"), n, over, unjudged);
  g_string_append_printf (out, "| | %s | %s | %s | %s | %s |\n|:---|:---|---:|:---|---:|---:|\n",
                          _ ("Budget"), _ ("Change"), interval_header, _ ("Before"), _ ("After"));
  for (guint i = 0; i < n; i++)
    {
      const WsGateResult *r = &results[i];
      g_autofree char *budget = md_cell (r->budget->text);
      g_autofree char *change = ws_gate_change_text (r->budget, r->change);
      g_autofree char *low = ws_gate_change_text (r->budget, r->low);
      g_autofree char *high = ws_gate_change_text (r->budget, r->high);
      gboolean judged = r->verdict != WS_GATE_CANNOT_JUDGE;
      g_autofree char *before = judged ? ws_format_duration (r->before) : g_strdup ("—");
      g_autofree char *after = judged ? ws_format_duration (r->after) : g_strdup ("—");
      g_autofree char *interval =
        judged ? g_strdup_printf ("%s … %s", low, high) : md_cell (r->reason);

      g_string_append_printf (out, "| %s | `%s` | %s | %s | %s | %s |\n",
                              ws_gate_verdict_label (r->verdict), budget, change, interval, before,
                              after);
    }
  if (moved != NULL && moved->len > 0)
    {
      g_string_append_printf (out, "\n### %s\n\n| %s | %s | %s |\n|:---|---:|---:|\n",
                              _ ("What moved most"), _ ("Kernel or range"), _ ("Before"),
                              _ ("After"));
      for (guint i = 0; i < moved->len; i++)
        {
          const WsGateMoved *m = &g_array_index (moved, WsGateMoved, i);
          g_autofree char *name = md_cell (m->name);
          g_autofree char *before = ws_format_duration ((double) m->before);
          g_autofree char *after = ws_format_duration ((double) m->after);

          g_string_append_printf (out, "| `%s` | %s | %s |\n", name, before, after);
        }
    }
}
