/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings-output"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-findings-output.h"
#include "ws-format.h"
#include "ws-table-writer.h"

/* Findings, and what became of them between two runs, as text for
 * terminals, Markdown for reports and JSON for scripts. */

static void
add_evidence_json (JsonBuilder *builder, const WsFinding *finding)
{
  json_builder_begin_object (builder);
  for (guint i = 0; i < finding->evidence->len; i++)
    {
      const WsEvidence *evidence = g_ptr_array_index (finding->evidence, i);

      json_builder_set_member_name (builder, evidence->key);
      if (evidence->unit == WS_UNIT_TEXT)
        json_builder_add_string_value (builder, evidence->text);
      else if (evidence->unit == WS_UNIT_COUNT || evidence->unit == WS_UNIT_NS ||
               evidence->unit == WS_UNIT_BYTES)
        json_builder_add_int_value (builder, (gint64) llround (evidence->value));
      else
        json_builder_add_double_value (builder, evidence->value);
    }
  json_builder_end_object (builder);
}

static void
add_nvtx_json (JsonBuilder *builder, const WsFinding *finding)
{
  json_builder_begin_array (builder);
  for (guint i = 0; i < finding->nvtx->len; i++)
    {
      const WsFindingNvtx *nvtx = g_ptr_array_index (finding->nvtx, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, nvtx->name);
      json_builder_set_member_name (builder, "domain");
      json_builder_add_string_value (builder, nvtx->domain);
      json_builder_set_member_name (builder, "depth");
      json_builder_add_int_value (builder, nvtx->depth);
      json_builder_set_member_name (builder, "start_ns");
      json_builder_add_int_value (builder, nvtx->start);
      json_builder_set_member_name (builder, "end_ns");
      json_builder_add_int_value (builder, nvtx->end);
      json_builder_set_member_name (builder, "instances");
      json_builder_add_int_value (builder, nvtx->instances);
      json_builder_set_member_name (builder, "events");
      json_builder_add_int_value (builder, nvtx->events);
      json_builder_set_member_name (builder, "event_time_ns");
      json_builder_add_int_value (builder, nvtx->event_time);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/**
 * ws_findings_to_json:
 * @findings: (element-type WsFinding)
 * @origin: the run's origin, so that readers can place the ranges
 *
 * Returns: (transfer full): `{"findings":[…]}` as `diagnose --format json`
 * prints it.  Times are ns on the session clock of the export.
 */
JsonNode *
ws_findings_to_json (GPtrArray *findings, gint64 origin)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (findings != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "findings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < findings->len; i++)
    {
      const WsFinding *finding = g_ptr_array_index (findings, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, finding->id);
      json_builder_set_member_name (builder, "severity");
      json_builder_add_string_value (builder, ws_severity_to_string (finding->severity));
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, finding->title);
      json_builder_set_member_name (builder, "summary");
      json_builder_add_string_value (builder, finding->summary);
      json_builder_set_member_name (builder, "evidence");
      add_evidence_json (builder, finding);
      json_builder_set_member_name (builder, "ranges");
      json_builder_begin_array (builder);
      for (guint r = 0; r < finding->ranges->len; r++)
        {
          const WsTimeRange *range = &g_array_index (finding->ranges, WsTimeRange, r);

          json_builder_begin_array (builder);
          json_builder_add_int_value (builder, range->start);
          json_builder_add_int_value (builder, range->end);
          json_builder_end_array (builder);
        }
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "rule");
      json_builder_add_string_value (builder, finding->rule);
      json_builder_set_member_name (builder, "fix");
      json_builder_add_string_value (builder, finding->fix);
      json_builder_set_member_name (builder, "notes");
      json_builder_begin_array (builder);
      for (guint n = 0; n < finding->notes->len; n++)
        json_builder_add_string_value (builder, g_ptr_array_index (finding->notes, n));
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "nvtx");
      add_nvtx_json (builder, finding);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "origin_ns");
  json_builder_add_int_value (builder, origin);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static const char *
nvtx_display_name (const WsFindingNvtx *nvtx)
{
  return nvtx->name[0] != '\0' ? nvtx->name : _ ("(unnamed)");
}

/* "265 kernels in 80 ranges, 2.0 per “ProfilerStep#N”, 1.20 ms": what the
 * finding found inside an NVTX range. */
static char *
nvtx_events_text (const WsFinding *finding, guint index)
{
  const WsFindingNvtx *nvtx = g_ptr_array_index (finding->nvtx, index);
  g_autofree char *time = ws_format_duration ((double) nvtx->event_time);
  g_autofree char *counts = ws_finding_nvtx_counts (finding, index);

  return g_strdup_printf ("%s, %s", counts, time);
}

static void
append_no_findings (GString *out)
{
  g_string_append_printf (out, "%s\n", _ ("No findings: none of the checks applies to this run."));
}

/* One section per finding: what the window's Findings page shows, for
 * reports and `diagnose --format md`. */
void
ws_findings_write_markdown (GPtrArray *findings, GString *out)
{
  g_return_if_fail (findings != NULL && out != NULL);

  if (findings->len == 0)
    {
      append_no_findings (out);
      return;
    }
  for (guint i = 0; i < findings->len; i++)
    {
      const WsFinding *finding = g_ptr_array_index (findings, i);

      g_string_append_printf (out, "### %s: %s\n\n", ws_severity_label (finding->severity),
                              finding->title);
      g_string_append_printf (out, "%s\n\n", finding->summary);
      g_string_append_printf (out, "| %s | %s |\n|---|---:|\n", _ ("Evidence"), _ ("Value"));
      for (guint e = 0; e < finding->evidence->len; e++)
        {
          const WsEvidence *evidence = g_ptr_array_index (finding->evidence, e);
          g_autofree char *value = ws_evidence_format_value (evidence);

          g_string_append (out, "| ");
          ws_markdown_append_cell (out, evidence->label);
          g_string_append (out, " | ");
          ws_markdown_append_cell (out, value);
          g_string_append (out, " |\n");
        }
      g_string_append_c (out, '\n');
      if (finding->nvtx->len > 0)
        {
          g_string_append_printf (out, "%s\n\n", _ ("Where (NVTX ranges):"));
          for (guint n = 0; n < finding->nvtx->len; n++)
            {
              const WsFindingNvtx *nvtx = g_ptr_array_index (finding->nvtx, n);
              g_autofree char *events = nvtx_events_text (finding, n);

              g_string_append_printf (out, "%*s- “%s”: %s\n", (int) MIN (nvtx->depth, 8) * 2, "",
                                      nvtx_display_name (nvtx), events);
            }
          g_string_append_c (out, '\n');
        }
      for (guint n = 0; n < finding->notes->len; n++)
        g_string_append_printf (out, "%s %s\n\n", _ ("Note:"),
                                (const char *) g_ptr_array_index (finding->notes, n));
      g_string_append_printf (out, "%s %s\n\n", _ ("Severity rule:"), finding->rule);
      g_string_append_printf (out, "%s %s\n\n", _ ("Usual fix:"), finding->fix);
    }
}

/* "  Usual fix: Batch small copies…", wrapped under its text. */
static void
append_labelled (GString *out, const char *label, const char *text, guint width)
{
  g_autofree char *first = g_strdup_printf ("  %s ", label);

  ws_format_append_wrapped (out, first, "    ", text, width);
}

/* For terminals: one block per finding, evidence aligned, prose wrapped
 * at @width columns (0: not wrapped). */
void
ws_findings_write_text (GPtrArray *findings, guint width_columns, GString *out)
{
  g_return_if_fail (findings != NULL && out != NULL);

  if (findings->len == 0)
    {
      append_no_findings (out);
      return;
    }
  for (guint i = 0; i < findings->len; i++)
    {
      const WsFinding *finding = g_ptr_array_index (findings, i);
      guint width = 0;

      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, "[%s] %s (%s)\n", ws_severity_label (finding->severity),
                              finding->title, finding->id);
      ws_format_append_wrapped (out, "  ", "  ", finding->summary, width_columns);
      for (guint e = 0; e < finding->evidence->len; e++)
        {
          const WsEvidence *evidence = g_ptr_array_index (finding->evidence, e);

          width = MAX (width, (guint) g_utf8_strlen (evidence->label, -1));
        }
      for (guint e = 0; e < finding->evidence->len; e++)
        {
          const WsEvidence *evidence = g_ptr_array_index (finding->evidence, e);
          g_autofree char *value = ws_evidence_format_value (evidence);
          guint pad = width - (guint) g_utf8_strlen (evidence->label, -1);

          g_autofree char *first = g_strdup_printf ("    %s%*s  ", evidence->label, (int) pad, "");
          g_autofree char *indent = g_strnfill (4 + width + 2, ' ');

          ws_format_append_wrapped (out, first, indent, value, width_columns);
        }
      for (guint n = 0; n < finding->nvtx->len; n++)
        {
          const WsFindingNvtx *nvtx = g_ptr_array_index (finding->nvtx, n);
          g_autofree char *events = nvtx_events_text (finding, n);

          guint indent = (guint) MIN (nvtx->depth, 8) * 2;
          g_autofree char *first =
            g_strdup_printf ("  %s %*s", n == 0 ? _ ("NVTX:") : "     ", (int) indent, "");
          g_autofree char *rest = g_strnfill (8 + indent, ' ');
          g_autofree char *line = g_strdup_printf ("“%s”: %s", nvtx_display_name (nvtx), events);

          ws_format_append_wrapped (out, first, rest, line, width_columns);
        }
      for (guint n = 0; n < finding->notes->len; n++)
        append_labelled (out, _ ("Note:"), g_ptr_array_index (finding->notes, n), width_columns);
      append_labelled (out, _ ("Severity rule:"), finding->rule, width_columns);
      append_labelled (out, _ ("Usual fix:"), finding->fix, width_columns);
    }
}

static const char *
title_of (const WsFindingChange *change)
{
  return change->after != NULL ? change->after->title : change->before->title;
}

static const char *
severity_of (const WsFinding *finding)
{
  return finding != NULL ? ws_severity_label (finding->severity) : "—";
}

/* "[Worse] GPU idle time (gpu-idle): Minor → Severe", then each side's
 * summary. */
void
ws_findings_diff_write_text (GArray *diff, guint width, GString *out)
{
  g_return_if_fail (diff != NULL && out != NULL);

  for (guint i = 0; i < diff->len; i++)
    {
      const WsFindingChange *change = &g_array_index (diff, WsFindingChange, i);

      g_string_append_printf (
        out, "  [%s] %s (%s): %s → %s\n", ws_finding_change_label (change->change),
        title_of (change), change->id, severity_of (change->before), severity_of (change->after));
      if (change->before != NULL)
        {
          /* TRANSLATORS: a finding's summary in the run before */
          g_autofree char *first = g_strdup_printf ("    %s ", _ ("before:"));

          ws_format_append_wrapped (out, first, "      ", change->before->summary, width);
        }
      if (change->after != NULL)
        {
          g_autofree char *first = g_strdup_printf ("    %s ", _ ("after:"));

          ws_format_append_wrapped (out, first, "      ", change->after->summary, width);
        }
    }
}

void
ws_findings_diff_write_markdown (GArray *diff, GString *out)
{
  g_return_if_fail (diff != NULL && out != NULL);

  g_string_append_printf (out, "| %s | %s | %s | %s |\n|:---|:---|:---|:---|\n", _ ("Check"),
                          _ ("Change"), _ ("Before"), _ ("After"));
  for (guint i = 0; i < diff->len; i++)
    {
      const WsFindingChange *change = &g_array_index (diff, WsFindingChange, i);

      g_string_append (out, "| ");
      ws_markdown_append_cell (out, title_of (change));
      g_string_append_printf (out, " (`%s`) | %s | %s | %s |\n", change->id,
                              ws_finding_change_label (change->change),
                              severity_of (change->before), severity_of (change->after));
    }
  g_string_append_c (out, '\n');
  for (guint i = 0; i < diff->len; i++)
    {
      const WsFindingChange *change = &g_array_index (diff, WsFindingChange, i);

      g_string_append_printf (out, "- **%s** (%s)", title_of (change),
                              ws_finding_change_label (change->change));
      if (change->before != NULL)
        g_string_append_printf (out, "\n  - %s %s", _ ("Before:"), change->before->summary);
      if (change->after != NULL)
        g_string_append_printf (out, "\n  - %s %s", _ ("After:"), change->after->summary);
      g_string_append_c (out, '\n');
    }
}
