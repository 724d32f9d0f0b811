/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauge-change"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-format.h"
#include "ws-gauge-change.h"

/* How a gauge and a verdict changed between the two sides of a
 * comparison, in words: the compare command's tables and the Compare
 * window's gauges say it the same way. */

/**
 * ws_gauge_format_delta:
 *
 * The change in the gauge's unit: "+41.3 pts", "−67.2 µs, 0.50×", "−15.72".
 *
 * Returns: (transfer full) (nullable): the text, or %NULL unless both
 * sides collected the gauge
 */
char *
ws_gauge_format_delta (const WsGauge *before, const WsGauge *after)
{
  double delta = after->value - before->value;
  const char *unit = after->unit;
  g_autofree char *amount = NULL;
  const char *sign;

  if (!before->collected || !after->collected)
    return NULL;
  if (g_str_equal (unit, "ns"))
    amount = ws_format_duration (fabs (delta));
  else
    amount = ws_format_fixed_string (fabs (delta), g_str_equal (unit, "%") ? 1 : 2);
  /* A change that rounds to nothing has no direction. */
  if (strspn (amount, "0.") == strlen (amount) || delta == 0)
    sign = "±";
  else
    sign = delta < 0 ? "−" : "+";
  if (g_str_equal (unit, "%"))
    /* TRANSLATORS: a change in percentage points: "+41.3 pts" */
    return g_strdup_printf (_ ("%s%s pts"), sign, amount);
  if (g_str_equal (unit, "ns") && before->value > 0)
    {
      g_autofree char *ratio = ws_format_fixed_string (after->value / before->value, 2);

      /* TRANSLATORS: a change of time and the ratio after/before: "−67.2 µs, 0.50×" */
      return g_strdup_printf (_ ("%s%s, %s×"), sign, amount, ratio);
    }
  return g_strdup_printf ("%s%s", sign, amount);
}

/**
 * ws_gauge_format_change:
 *
 * The gauge before and after for people: "31.5% → 72.8% (+41.3 pts)",
 * "134 µs → 66.6 µs (−67.2 µs, 0.50×)", "— → 7.12" where only one side
 * has it.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL when neither
 * side collected the gauge
 */
char *
ws_gauge_format_change (const WsGauge *before, const WsGauge *after)
{
  g_autofree char *b = ws_gauge_format_value (before);
  g_autofree char *a = ws_gauge_format_value (after);
  g_autofree char *delta = NULL;

  if (b == NULL && a == NULL)
    return NULL;
  if (b == NULL || a == NULL)
    return g_strdup_printf ("%s → %s", b != NULL ? b : "—", a != NULL ? a : "—");
  delta = ws_gauge_format_delta (before, after);
  return g_strdup_printf ("%s → %s (%s)", b, a, delta);
}

/* A side's verdict; "Not profiled" where the kernel ran but ncu did not
 * profile it, "—" where the kernel is not in that run at all. */
static const char *
verdict_or_absent (const WsGauges *gauges, gboolean present)
{
  if (gauges != NULL)
    return ws_verdict_label (gauges->verdict);
  return present ? ws_verdict_label (WS_VERDICT_NONE) : "—";
}

/**
 * ws_verdict_change_text:
 *
 * Returns: (transfer full): "Memory → Compute", "Memory (unchanged)", or
 * "— → Compute" for a kernel new after
 */
char *
ws_verdict_change_text (const WsComparison *cmp, const WsDelta *delta)
{
  const WsGauges *b = ws_comparison_gauges (cmp, delta, FALSE);
  const WsGauges *a = ws_comparison_gauges (cmp, delta, TRUE);

  if (b != NULL && a != NULL && b->verdict == a->verdict)
    /* TRANSLATORS: a verdict that did not change: "Memory (unchanged)" */
    return g_strdup_printf (_ ("%s (unchanged)"), ws_verdict_label (a->verdict));
  return g_strdup_printf ("%s → %s",
                          verdict_or_absent (b, delta->presence != WS_PRESENT_ONLY_AFTER),
                          verdict_or_absent (a, delta->presence != WS_PRESENT_ONLY_BEFORE));
}

/**
 * ws_compare_gauges_empty_text:
 *
 * Why no kernel's gauges compare, and how to get ncu data on both sides.
 *
 * Returns: (transfer full): the text
 */
char *
ws_compare_gauges_empty_text (const WsComparison *cmp)
{
  gboolean before = cmp->before->ncu != NULL, after = cmp->after->ncu != NULL;

  if (!before && !after)
    return g_strdup (_ ("Neither run has Nsight Compute data. Open each side with its ncu CSV "
                        "export: a capture folder, or the export and the CSV as one side, "
                        "“run.sqlite,run_ncu_raw.csv”."));
  if (!before)
    return g_strdup (_ ("The run before has no Nsight Compute data. Open it with its ncu CSV "
                        "export: a capture folder, or the export and the CSV as one side, "
                        "“before.sqlite,before_ncu_raw.csv”."));
  if (!after)
    return g_strdup (_ ("The run after has no Nsight Compute data. Open it with its ncu CSV "
                        "export: a capture folder, or the export and the CSV as one side, "
                        "“after.sqlite,after_ncu_raw.csv”."));
  return g_strdup (_ ("No kernel was profiled by Nsight Compute on both sides under one name. "
                      "Profile the same kernels before and after, or match kernels by normalized "
                      "or short name."));
}
