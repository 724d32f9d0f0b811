/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gate"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-gate.h"
#include "ws-launch-index.h"

/* Judging a budget (docs/ci.md, "How a budget is judged").  The figure is
 * taken once per steady step of each run: the step's wall time, or the
 * summed time of the kernels (or ranges) that start inside the step.
 * The change is that of the medians, after against before.  Its noise is
 * a bootstrap: the steps of each run drawn again with replacement, 1,000
 * times, with a fixed seed (the same files give the same verdict), the
 * change of each draw's medians; the 2.5th and 97.5th percentiles bound
 * it.  A regression is a change over the budget whose whole interval is
 * above zero.  A run with fewer than MIN_SAMPLES steady steps has its
 * kernels and ranges judged by their instances instead. */

#define MIN_SAMPLES 3
#define DRAWS 1000
#define SEED 41

void
ws_gate_result_clear (WsGateResult *result)
{
  g_clear_pointer (&result->reason, g_free);
}

const char *
ws_gate_verdict_to_string (WsGateVerdict verdict)
{
  switch (verdict)
    {
      case WS_GATE_REGRESSION:
        return "regression";
      case WS_GATE_CANNOT_JUDGE:
        return "cannot-judge";
      case WS_GATE_PASS:
      default:
        return "pass";
    }
}

/* 0 when every budget passed, 1 when one went over, else 3 when one
 * could not be judged (docs/ci.md, "Exit status"). */
int
ws_gate_exit_status (const WsGateResult *results, guint n)
{
  gboolean unjudged = FALSE;

  for (guint i = 0; i < n; i++)
    {
      if (results[i].verdict == WS_GATE_REGRESSION)
        return 1;
      unjudged |= results[i].verdict == WS_GATE_CANNOT_JUDGE;
    }
  return unjudged ? 3 : 0;
}

/* Which names match the budget's glob, by string id: 0 not looked at, 1
 * no, 2 yes. */
typedef struct
{
  const WsRun *run;
  GPatternSpec *spec;
  guint8 *seen;
  guint n_ids;
} Matcher;

static void
matcher_init (Matcher *m, const WsRun *run, const char *pattern)
{
  m->run = run;
  m->spec = pattern != NULL ? g_pattern_spec_new (pattern) : NULL;
  m->n_ids = ws_string_table_size (run->strings);
  m->seen = g_new0 (guint8, m->n_ids + 1);
}

static void
matcher_clear (Matcher *m)
{
  g_clear_pointer (&m->spec, g_pattern_spec_free);
  g_clear_pointer (&m->seen, g_free);
}

static gboolean
matches_id (Matcher *m, guint32 id)
{
  guint8 *slot = id < m->n_ids ? &m->seen[id] : &m->seen[m->n_ids];

  if (m->spec == NULL)
    return TRUE;
  if (id >= m->n_ids)
    return FALSE;
  if (*slot == 0)
    {
      const char *name = ws_run_string (m->run, id);

      *slot = name != NULL && g_pattern_spec_match_string (m->spec, name) ? 2 : 1;
    }
  return *slot == 2;
}

/* A kernel matches by its demangled name or by its short name. */
static gboolean
kernel_matches (Matcher *m, gsize i)
{
  return matches_id (m, ws_run_kernel_name_id (m->run, i, WS_NAME_DEMANGLED)) ||
         matches_id (m, ws_run_kernel_name_id (m->run, i, WS_NAME_SHORT));
}

/* The events a budget sums: kernels or NVTX ranges. */
typedef struct
{
  gsize n;
  const gint64 *start, *end;
  gboolean kernels;
} Events;

static void
events_of (const WsBudget *budget, const WsRun *run, Events *e)
{
  e->kernels = budget->kind != WS_BUDGET_NVTX;
  e->n = e->kernels ? run->kernels.n : run->nvtx.n;
  e->start = e->kernels ? run->kernels.start : run->nvtx.start;
  e->end = e->kernels ? run->kernels.end : run->nvtx.end;
}

static gboolean
event_matches (Matcher *m, const Events *e, gsize i)
{
  return e->kernels ? kernel_matches (m, i) : matches_id (m, m->run->nvtx.name[i]);
}

/* When each event counts for a step: a kernel where its launch call
 * started (the GPU may run behind the host), else where it started; a
 * range where it started.  As the steps' own "launched" figure does. */
static gint64 *
event_times (const WsRun *run, const Events *e)
{
  g_autoptr (WsLaunchIndex) index = NULL;
  gint64 *when = g_new (gint64, MAX (e->n, 1));

  if (e->kernels && run->api.n > 0 && run->api.correlation != NULL &&
      run->kernels.correlation != NULL && run->kernels.stream != NULL)
    index = ws_launch_index_new (run);
  for (gsize i = 0; i < e->n; i++)
    {
      gssize a = index != NULL ? ws_launch_index_kernel (index, i) : -1;

      when[i] = a >= 0 ? run->api.start[a] : e->start[i];
    }
  return when;
}

typedef struct
{
  gint64 start, end;
  guint slot;
} StepSpan;

static int
compare_spans (gconstpointer a, gconstpointer b)
{
  gint64 x = ((const StepSpan *) a)->start, y = ((const StepSpan *) b)->start;

  return (x > y) - (x < y);
}

/* The slot of the last steady step starting at or before @t that holds
 * it, or -1. */
static gssize
step_at (const StepSpan *spans, guint n, gint64 t)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (spans[mid].start <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 && t < spans[lo - 1].end ? (gssize) spans[lo - 1].slot : -1;
}

/* The budget's figure in each steady step of @steps, into @out; whether
 * any event matched in the whole run into @matched. */
static void
per_step (const WsBudget *budget, const WsRun *run, const WsSteps *steps, GArray *out,
          gsize *matched)
{
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (StepSpan));
  g_autofree gint64 *when = NULL;
  Matcher m;
  Events e;

  for (guint s = 0; s < steps->steps->len; s++)
    {
      const WsStep *step = &g_array_index (steps->steps, WsStep, s);
      StepSpan span = { step->start, step->end, out->len };
      double figure = budget->kind == WS_BUDGET_STEP ? (double) step->wall : 0;

      if (step->warmup)
        continue;
      g_array_append_val (spans, span);
      g_array_append_val (out, figure);
    }
  *matched = 1;
  if (budget->kind == WS_BUDGET_STEP)
    return;
  g_array_sort (spans, compare_spans);
  events_of (budget, run, &e);
  when = event_times (run, &e);
  matcher_init (&m, run, budget->pattern);
  *matched = 0;
  for (gsize i = 0; i < e.n; i++)
    {
      gssize slot;

      if (!event_matches (&m, &e, i))
        continue;
      (*matched)++;
      slot = step_at ((const StepSpan *) spans->data, spans->len, when[i]);
      if (slot >= 0)
        g_array_index (out, double, slot) += (double) (e.end[i] - e.start[i]);
    }
  matcher_clear (&m);
}

/* The budget's events one by one, their durations, into @out. */
static void
per_instance (const WsBudget *budget, const WsRun *run, GArray *out)
{
  Matcher m;
  Events e;

  events_of (budget, run, &e);
  matcher_init (&m, run, budget->pattern);
  for (gsize i = 0; i < e.n; i++)
    if (event_matches (&m, &e, i))
      {
        double d = (double) (e.end[i] - e.start[i]);

        g_array_append_val (out, d);
      }
  matcher_clear (&m);
}

/* The @k-th smallest of @v[0..n) (reordered so that what lies after it
 * is no smaller): partitions in three around a middle pivot. */
static double
select_kth (double *v, gsize n, gsize k)
{
  gsize lo = 0, hi = n;

  while (hi - lo > 1)
    {
      double pivot = v[lo + (hi - lo) / 2];
      gsize lt = lo, i = lo, gt = hi;

      while (i < gt)
        {
          double x = v[i];

          if (x < pivot)
            {
              v[i++] = v[lt];
              v[lt++] = x;
            }
          else if (x > pivot)
            {
              v[i] = v[--gt];
              v[gt] = x;
            }
          else
            i++;
        }
      if (k < lt)
        hi = lt;
      else if (k >= gt)
        lo = gt;
      else
        return pivot;
    }
  return v[lo];
}

/* The median of @v (reordered), or the sum when @sum. */
static double
statistic (double *v, gsize n, gboolean sum)
{
  double lower;

  if (sum)
    {
      double total = 0;

      for (gsize i = 0; i < n; i++)
        total += v[i];
      return total;
    }
  if (n % 2 == 1)
    return select_kth (v, n, n / 2);
  lower = select_kth (v, n, n / 2 - 1);
  /* The upper middle: the least of what lies after the lower one. */
  {
    double upper = v[n / 2];

    for (gsize i = n / 2; i < n; i++)
      upper = MIN (upper, v[i]);
    return (lower + upper) / 2;
  }
}

static double
change_of (const WsBudget *budget, double before, double after)
{
  return budget->percent ? (after / before - 1) * 100 : after - before;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The bootstrap interval of the change (see the top of the file). */
static void
bootstrap (const WsBudget *budget, const GArray *before, const GArray *after, gboolean sum,
           double *low, double *high)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (SEED);
  g_autofree double *a = g_new (double, MAX (before->len, 1));
  g_autofree double *b = g_new (double, MAX (after->len, 1));
  g_autofree double *changes = g_new (double, DRAWS);

  for (guint d = 0; d < DRAWS; d++)
    {
      for (guint i = 0; i < before->len; i++)
        a[i] = g_array_index (before, double, g_rand_int_range (rand, 0, (gint32) before->len));
      for (guint i = 0; i < after->len; i++)
        b[i] = g_array_index (after, double, g_rand_int_range (rand, 0, (gint32) after->len));
      changes[d] =
        change_of (budget, statistic (a, before->len, sum), statistic (b, after->len, sum));
    }
  qsort (changes, DRAWS, sizeof (double), compare_doubles);
  *low = changes[DRAWS / 40];
  *high = changes[DRAWS - 1 - DRAWS / 40];
}

static void
cannot_judge (WsGateResult *out, char *reason)
{
  out->verdict = WS_GATE_CANNOT_JUDGE;
  out->reason = reason;
  out->change = out->low = out->high = NAN;
}

/**
 * ws_gate_judge:
 * @before_steps: (nullable): the steps of @before, or %NULL where it has none
 * @after_steps: (nullable): the same for @after
 *
 * Judges @budget between @before and @after into @out (cleared with
 * ws_gate_result_clear()).
 */
void
ws_gate_judge (const WsBudget *budget, const WsRun *before, const WsSteps *before_steps,
               const WsRun *after, const WsSteps *after_steps, WsGateResult *out)
{
  g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (double));
  gsize matched_before = 1, matched_after = 1;
  gboolean sum = FALSE;

  memset (out, 0, sizeof *out);
  out->budget = budget;
  out->per_step = before_steps != NULL && after_steps != NULL &&
                  before_steps->n_steady >= MIN_SAMPLES && after_steps->n_steady >= MIN_SAMPLES;
  if (out->per_step)
    {
      per_step (budget, before, before_steps, b, &matched_before);
      per_step (budget, after, after_steps, a, &matched_after);
    }
  else if (budget->kind == WS_BUDGET_STEP)
    {
      cannot_judge (out,
                    g_strdup_printf (_ ("too few steady steps to tell: %u before, %u after "
                                        "(%d needed)"),
                                     before_steps != NULL ? before_steps->n_steady : 0,
                                     after_steps != NULL ? after_steps->n_steady : 0, MIN_SAMPLES));
      return;
    }
  else
    {
      per_instance (budget, before, b);
      per_instance (budget, after, a);
      matched_before = b->len;
      matched_after = a->len;
      sum = budget->kind == WS_BUDGET_TOTAL_GPU;
    }
  out->n_before = b->len;
  out->n_after = a->len;
  if (budget->kind != WS_BUDGET_STEP && (matched_before == 0 || matched_after == 0))
    {
      cannot_judge (out, g_strdup_printf (matched_before == 0 ? _ ("nothing matches %s before")
                                                              : _ ("nothing matches %s after"),
                                          budget->pattern != NULL ? budget->pattern : "*"));
      return;
    }
  if (b->len < MIN_SAMPLES || a->len < MIN_SAMPLES)
    {
      cannot_judge (out, g_strdup_printf (_ ("too few figures to tell: %u before, %u after "
                                             "(%d needed)"),
                                          b->len, a->len, MIN_SAMPLES));
      return;
    }
  {
    g_autofree double *scratch = g_memdup2 (b->data, b->len * sizeof (double));
    g_autofree double *scratch_a = g_memdup2 (a->data, a->len * sizeof (double));

    out->before = statistic (scratch, b->len, sum);
    out->after = statistic (scratch_a, a->len, sum);
  }
  if (budget->percent && out->before <= 0)
    {
      cannot_judge (out, g_strdup (_ ("the figure before is zero: no percent of it")));
      return;
    }
  out->change = change_of (budget, out->before, out->after);
  bootstrap (budget, b, a, sum, &out->low, &out->high);
  out->verdict = out->change > budget->limit && out->low > 0 ? WS_GATE_REGRESSION : WS_GATE_PASS;
}
