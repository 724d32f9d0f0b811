/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-finding"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-finding.h"
#include "ws-format.h"

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

/* What the NVTX evidence of a finding counts: the kernels of the short
 * launches, the idle gaps, the calls of a loop, a straggler's steps. */
typedef enum
{
  EVENTS,
  KERNELS,
  GAPS,
  CALLS,
  STEPS,
} EventKind;

static EventKind
event_kind (const WsFinding *self)
{
  static const struct
  {
    const char *id;
    EventKind kind;
  } kinds[] = {
    { "launch-overhead", KERNELS },    { "load-imbalance", KERNELS },
    { "memory-access", KERNELS },      { "gpu-idle", GAPS },
    { "alloc-in-loop", CALLS },        { "small-transfers", CALLS },
    { "over-synchronization", CALLS }, { "graph-recapture", CALLS },
    { "rank-imbalance", STEPS },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_strcmp0 (self->id, kinds[i].id) == 0)
      return kinds[i].kind;
  return EVENTS;
}

static char *
grouped (guint n)
{
  GString *out = g_string_new (NULL);

  ws_format_fixed (out, n, 0, TRUE);
  return g_string_free (out, FALSE);
}

/**
 * ws_finding_nvtx_counts:
 * @self: a finding
 * @index: an entry of @self's NVTX ranges
 *
 * What the finding found in the range, in the unit it counts, and how many
 * instances of the range hold it, per instance of the range around it:
 * "265 kernels in 80 ranges, 2.0 per “ProfilerStep#N”".  Every view of
 * the NVTX evidence (the Findings page, `diagnose`, reports) writes it so.
 *
 * Returns: (transfer full): the text
 */
char *
ws_finding_nvtx_counts (const WsFinding *self, guint index)
{
  const WsFindingNvtx *nvtx = g_ptr_array_index (self->nvtx, index);
  const WsFindingNvtx *parent = NULL;
  g_autofree char *n = grouped (nvtx->events);
  g_autofree char *ranges = grouped (nvtx->instances);
  g_autofree char *events = NULL;
  g_autofree char *in = NULL;

  switch (event_kind (self))
    {
      case KERNELS:
        events = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "%s kernel", "%s kernels", nvtx->events), n);
        break;
      case GAPS:
        events = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "%s idle gap", "%s idle gaps", nvtx->events), n);
        break;
      case CALLS:
        events =
          g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s call", "%s calls", nvtx->events), n);
        break;
      case STEPS:
        events =
          g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s step", "%s steps", nvtx->events), n);
        break;
      case EVENTS:
      default:
        events =
          g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event", "%s events", nvtx->events), n);
        break;
    }
  if (nvtx->instances == 0)
    return g_steal_pointer (&events);
  /* The range around it: the nearest entry before it, one level out. */
  for (guint i = index; nvtx->depth > 0 && i-- > 0;)
    {
      const WsFindingNvtx *before = g_ptr_array_index (self->nvtx, i);

      if (before->depth + 1 == nvtx->depth)
        {
          parent = before;
          break;
        }
      if (before->depth < nvtx->depth)
        break;
    }
  /* TRANSLATORS: "265 kernels in 80 ranges" */
  in = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%s in %s range", "%s in %s ranges", nvtx->instances), events,
    ranges);
  if (parent != NULL && parent->instances > 0)
    {
      GString *per = g_string_new (NULL);
      g_autofree char *per_text = NULL;

      ws_format_fixed (per, (double) nvtx->instances / parent->instances, 1, TRUE);
      per_text = g_string_free (per, FALSE);
      /* TRANSLATORS: "265 kernels in 80 ranges, 2.0 per “ProfilerStep#N”" */
      return g_strdup_printf (_ ("%s, %s per “%s”"), in, per_text, parent->name);
    }
  return g_steal_pointer (&in);
}
