/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-finding"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-finding.h"
#include "ws-format.h"
#include "ws-report.h"

G_DEFINE_BOXED_TYPE (WsFinding, ws_finding, ws_finding_ref, ws_finding_unref)

static void
evidence_free (gpointer data)
{
  WsEvidence *evidence = data;

  g_free (evidence->key);
  g_free (evidence->label);
  g_free (evidence->text);
  g_free (evidence);
}

static void
nvtx_free (gpointer data)
{
  WsFindingNvtx *nvtx = data;

  g_free (nvtx->name);
  g_free (nvtx->domain);
  g_free (nvtx);
}

/**
 * ws_finding_new:
 *
 * Returns: (transfer full): an empty finding of @id, for the checks to fill.
 */
WsFinding *
ws_finding_new (const char *id)
{
  WsFinding *self = g_new0 (WsFinding, 1);

  g_return_val_if_fail (id != NULL, NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->id = g_strdup (id);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  self->evidence = g_ptr_array_new_with_free_func (evidence_free);
  self->nvtx = g_ptr_array_new_with_free_func (nvtx_free);
  self->ranges = g_array_new (FALSE, FALSE, sizeof (WsTimeRange));
  self->kernels = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->memops = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->api = g_array_new (FALSE, FALSE, sizeof (guint32));
  return self;
}

/**
 * ws_finding_ref:
 *
 * Returns: (transfer full): @self
 */
WsFinding *
ws_finding_ref (WsFinding *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_finding_unref (WsFinding *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->id);
  g_free (self->title);
  g_free (self->summary);
  g_free (self->rule);
  g_free (self->fix);
  g_ptr_array_unref (self->notes);
  g_ptr_array_unref (self->evidence);
  g_ptr_array_unref (self->nvtx);
  g_array_unref (self->ranges);
  g_array_unref (self->kernels);
  g_array_unref (self->memops);
  g_array_unref (self->api);
  g_free (self);
}

void
ws_finding_add_evidence (WsFinding *self, const char *key, const char *label, WsUnit unit,
                         double value)
{
  WsEvidence *evidence = g_new0 (WsEvidence, 1);

  g_return_if_fail (unit != WS_UNIT_TEXT);

  evidence->key = g_strdup (key);
  evidence->label = g_strdup (label);
  evidence->unit = unit;
  evidence->value = value;
  g_ptr_array_add (self->evidence, evidence);
}

void
ws_finding_add_evidence_text (WsFinding *self, const char *key, const char *label, const char *text)
{
  WsEvidence *evidence = g_new0 (WsEvidence, 1);

  evidence->key = g_strdup (key);
  evidence->label = g_strdup (label);
  evidence->unit = WS_UNIT_TEXT;
  evidence->text = g_strdup (text);
  g_ptr_array_add (self->evidence, evidence);
}

void
ws_finding_add_note (WsFinding *self, const char *note)
{
  g_ptr_array_add (self->notes, g_strdup (note));
}

void
ws_finding_add_range (WsFinding *self, gint64 start, gint64 end)
{
  WsTimeRange range = { start, MAX (start, end) };

  g_array_append_val (self->ranges, range);
}

/**
 * ws_finding_get_evidence:
 *
 * Returns: (transfer none) (nullable): the evidence of @key
 */
const WsEvidence *
ws_finding_get_evidence (const WsFinding *self, const char *key)
{
  for (guint i = 0; i < self->evidence->len; i++)
    {
      const WsEvidence *evidence = g_ptr_array_index (self->evidence, i);

      if (g_str_equal (evidence->key, key))
        return evidence;
    }
  return NULL;
}

/**
 * ws_finding_find_nvtx:
 *
 * Returns: (transfer none) (nullable): the NVTX range named @name
 */
const WsFindingNvtx *
ws_finding_find_nvtx (const WsFinding *self, const char *name)
{
  for (guint i = 0; i < self->nvtx->len; i++)
    {
      const WsFindingNvtx *nvtx = g_ptr_array_index (self->nvtx, i);

      if (g_str_equal (nvtx->name, name))
        return nvtx;
    }
  return NULL;
}

/* The stable name, for JSON and scripts. */
const char *
ws_severity_to_string (WsSeverity severity)
{
  switch (severity)
    {
      case WS_SEVERITY_SEVERE:
        return "severe";
      case WS_SEVERITY_MEDIUM:
        return "medium";
      case WS_SEVERITY_MINOR:
      default:
        return "minor";
    }
}

/* The translated name, for people. */
const char *
ws_severity_label (WsSeverity severity)
{
  switch (severity)
    {
      case WS_SEVERITY_SEVERE:
        return C_ ("severity", "Severe");
      case WS_SEVERITY_MEDIUM:
        return C_ ("severity", "Medium");
      case WS_SEVERITY_MINOR:
      default:
        return C_ ("severity", "Minor");
    }
}

static char *
format_grouped (double value, int decimals)
{
  GString *out = g_string_new (NULL);

  ws_format_fixed (out, value, decimals, TRUE);
  return g_string_free (out, FALSE);
}

/**
 * ws_evidence_format_value:
 *
 * Returns: (transfer full): the value for people: "1.59 ms", "74.2 %",
 * "18,677 /s", "4,096 B", "4.57 GB/s".
 */
char *
ws_evidence_format_value (const WsEvidence *evidence)
{
  g_autofree char *num = NULL;

  switch (evidence->unit)
    {
      case WS_UNIT_TEXT:
        return g_strdup (evidence->text != NULL ? evidence->text : "");
      case WS_UNIT_NS:
        return ws_format_duration (evidence->value);
      case WS_UNIT_BYTES:
        if (fabs (evidence->value) < 1e6)
          {
            num = format_grouped (evidence->value, 0);
            return g_strdup_printf ("%s B", num);
          }
        return ws_format_bytes (evidence->value);
      case WS_UNIT_BYTES_PER_SECOND:
        num = ws_format_bytes (evidence->value);
        return g_strdup_printf ("%s/s", num);
      case WS_UNIT_PERCENT:
        num = ws_format_fixed_string (evidence->value, 1);
        return g_strdup_printf ("%s %%", num);
      case WS_UNIT_PER_SECOND:
        num = format_grouped (evidence->value, evidence->value < 10 ? 1 : 0);
        return g_strdup_printf ("%s /s", num);
      case WS_UNIT_RATIO:
        return ws_format_fixed_string (evidence->value, 2);
      case WS_UNIT_COUNT:
      default:
        return format_grouped (evidence->value, 0);
    }
}

static int
compare_findings (gconstpointer a, gconstpointer b)
{
  const WsFinding *x = *(WsFinding *const *) a;
  const WsFinding *y = *(WsFinding *const *) b;

  if (x->severity != y->severity)
    return x->severity > y->severity ? -1 : 1;
  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  return g_strcmp0 (x->id, y->id);
}

/* Most severe first; among equals, the one with more time at stake. */
void
ws_findings_sort (GPtrArray *findings)
{
  g_ptr_array_sort (findings, compare_findings);
}

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

/* "3 events, 1.20 ms": what the finding found inside an NVTX range. */
static char *
nvtx_events_text (const WsFindingNvtx *nvtx)
{
  g_autofree char *time = ws_format_duration ((double) nvtx->event_time);

  return g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%u event, %s", "%u events, %s", nvtx->events), nvtx->events,
    time);
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
              g_autofree char *events = nvtx_events_text (nvtx);

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

/* For terminals: one block per finding, evidence aligned. */
void
ws_findings_write_text (GPtrArray *findings, GString *out)
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
      g_string_append_printf (out, "  %s\n", finding->summary);
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

          g_string_append_printf (out, "    %s%*s  %s\n", evidence->label, (int) pad, "", value);
        }
      for (guint n = 0; n < finding->nvtx->len; n++)
        {
          const WsFindingNvtx *nvtx = g_ptr_array_index (finding->nvtx, n);
          g_autofree char *events = nvtx_events_text (nvtx);

          g_string_append_printf (out, "  %s %*s“%s”: %s\n", n == 0 ? _ ("NVTX:") : "     ",
                                  (int) MIN (nvtx->depth, 8) * 2, "", nvtx_display_name (nvtx),
                                  events);
        }
      for (guint n = 0; n < finding->notes->len; n++)
        g_string_append_printf (out, "  %s %s\n", _ ("Note:"),
                                (const char *) g_ptr_array_index (finding->notes, n));
      g_string_append_printf (out, "  %s %s\n", _ ("Severity rule:"), finding->rule);
      g_string_append_printf (out, "  %s %s\n", _ ("Usual fix:"), finding->fix);
    }
}
