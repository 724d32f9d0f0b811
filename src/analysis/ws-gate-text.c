/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gate"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-gate.h"

/* A gate's verdicts in words, for every view that shows them. */

/* "+10.2%" or "+2.10 ms", as the budget's limit is written. */
char *
ws_gate_change_text (const WsBudget *budget, double change)
{
  g_autofree char *magnitude = NULL;

  if (isnan (change))
    return g_strdup ("—");
  if (budget->percent)
    return g_strdup_printf ("%+.1f%%", change);
  magnitude = ws_format_duration (fabs (change));
  return g_strdup_printf ("%s%s", change < 0 ? "−" : "+", magnitude);
}

/* The verdict as a person reads it: OVER, cannot judge, pass. */
const char *
ws_gate_verdict_label (WsGateVerdict verdict)
{
  switch (verdict)
    {
      case WS_GATE_REGRESSION:
        return _ ("OVER");
      case WS_GATE_CANNOT_JUDGE:
        return _ ("cannot judge");
      case WS_GATE_PASS:
      default:
        return _ ("pass");
    }
}

/* "over 5 and 5 steady steps" or "over 120 and 118 instances", with the
 * runs where a side has several. */
static char *
basis_text (const WsGateResult *r)
{
  g_autofree char *basis =
    r->per_step
      ? g_strdup_printf (_ ("over %u and %u steady steps"), r->n_before, r->n_after)
      : g_strdup_printf (_ ("over %u and %u instances (too few steps: judged by instance)"),
                         r->n_before, r->n_after);

  if (r->n_runs_before == 1 && r->n_runs_after == 1)
    return g_steal_pointer (&basis);
  /* TRANSLATORS: the figures' basis, then how many runs each side has */
  return g_strdup_printf (_ ("%s of %u and %u runs"), basis, r->n_runs_before, r->n_runs_after);
}

/* What a budget's line says after its verdict: "+10.2% [+9.8%, +10.6%],
 * 1.23 ms → 1.36 ms, over 5 and 5 steady steps", or why it cannot be
 * judged.  The one text of the command line, its reports and the Compare
 * window's Budgets tab. */
char *
ws_gate_result_text (const WsGateResult *r)
{
  g_autofree char *change = ws_gate_change_text (r->budget, r->change);
  g_autofree char *low = ws_gate_change_text (r->budget, r->low);
  g_autofree char *high = ws_gate_change_text (r->budget, r->high);
  g_autofree char *before = ws_format_duration (r->before);
  g_autofree char *after = ws_format_duration (r->after);
  g_autofree char *basis = basis_text (r);

  if (r->verdict == WS_GATE_CANNOT_JUDGE)
    return g_strdup (r->reason);
  /* TRANSLATORS: a budget's change, its 95% interval, the figure before and after */
  return g_strdup_printf (_ ("%s [%s, %s], %s → %s, %s"), change, low, high, before, after, basis);
}
