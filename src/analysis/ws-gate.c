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
#define TRIM 0.1
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

/* Which names match the budget's glob, ASCII case ignored (*gelu* finds
 * GeluCUDAKernelImpl), by string id: 0 not looked at, 1 no, 2 yes. */
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
  g_autofree char *lower = pattern != NULL ? g_ascii_strdown (pattern, -1) : NULL;

  m->run = run;
  m->spec = lower != NULL ? g_pattern_spec_new (lower) : NULL;
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
      g_autofree char *lower = name != NULL ? g_ascii_strdown (name, -1) : NULL;

      *slot = lower != NULL && g_pattern_spec_match_string (m->spec, lower) ? 2 : 1;
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

/* The median of @v (reordered). */
static double
median (double *v, gsize n)
{
  double lower, upper;

  if (n % 2 == 1)
    return select_kth (v, n, n / 2);
  lower = select_kth (v, n, n / 2 - 1);
  /* The upper middle: the least of what lies after the lower one. */
  upper = v[n / 2];
  for (gsize i = n / 2; i < n; i++)
    upper = MIN (upper, v[i]);
  return (lower + upper) / 2;
}

/* A run's statistic of @v (reordered): the sum when @sum, else the mean
 * of the middle 80% (TRIM of the figures left out at each end). */
static double
statistic (double *v, gsize n, gboolean sum)
{
  gsize trim = sum ? 0 : (gsize) (n * TRIM);
  double total = 0;

  if (trim > 0)
    {
      /* The trim smallest before position trim, the trim largest after
       * n - trim - 1. */
      select_kth (v, n, trim - 1);
      select_kth (v + trim, n - trim, n - 2 * trim);
    }
  for (gsize i = trim; i < n - trim; i++)
    total += v[i];
  return sum ? total : total / (double) (n - 2 * trim);
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

/* The figures of one side: one array of doubles per run. */
typedef struct
{
  GPtrArray *runs; /* GArray of double */
  guint n;         /* figures in all */
  gsize matched;   /* events the budget matched in all */
} Side;

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->runs, g_ptr_array_unref);
}

/* A side's figure: the median over its runs of each run's statistic
 * (@v scratch of side->n doubles).  With @draw, each run is drawn again
 * from the side's runs and its figures from its own, with replacement. */
static double
side_statistic (const Side *side, gboolean sum, GRand *draw, double *v, double *per_run)
{
  guint n_runs = side->runs->len;

  for (guint r = 0; r < n_runs; r++)
    {
      const GArray *run = g_ptr_array_index (
        side->runs, draw != NULL ? (guint) g_rand_int_range (draw, 0, (gint32) n_runs) : r);

      for (guint i = 0; i < run->len; i++)
        v[i] = g_array_index (
          run, double, draw != NULL ? (guint) g_rand_int_range (draw, 0, (gint32) run->len) : i);
      per_run[r] = statistic (v, run->len, sum);
    }
  return median (per_run, n_runs);
}

/* The bootstrap interval of the change (see the top of the file). */
static void
bootstrap (const WsBudget *budget, const Side *before, const Side *after, gboolean sum, double *low,
           double *high)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (SEED);
  g_autofree double *v = g_new (double, MAX (MAX (before->n, after->n), 1));
  g_autofree double *per_run = g_new (double, MAX (MAX (before->runs->len, after->runs->len), 1));
  g_autofree double *changes = g_new (double, DRAWS);

  for (guint d = 0; d < DRAWS; d++)
    {
      double b = side_statistic (before, sum, rand, v, per_run);
      double a = side_statistic (after, sum, rand, v, per_run);

      changes[d] = change_of (budget, b, a);
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

/* Whether every run of @runs has enough steady steps to be judged by step. */
static gboolean
all_have_steps (const WsGateRun *runs, guint n, guint *fewest)
{
  gboolean all = TRUE;

  for (guint i = 0; i < n; i++)
    {
      guint steady = runs[i].steps != NULL ? runs[i].steps->n_steady : 0;

      *fewest = MIN (*fewest, steady);
      all &= steady >= MIN_SAMPLES;
    }
  return all;
}

static void
gather_side (const WsBudget *budget, const WsGateRun *runs, guint n, gboolean by_step, Side *side)
{
  side->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < n; i++)
    {
      GArray *figures = g_array_new (FALSE, FALSE, sizeof (double));
      gsize matched = 0;

      if (by_step)
        per_step (budget, runs[i].run, runs[i].steps, figures, &matched);
      else
        {
          per_instance (budget, runs[i].run, figures);
          matched = figures->len;
        }
      side->matched += matched;
      side->n += figures->len;
      g_ptr_array_add (side->runs, figures);
    }
}

/* The fewest figures of a run of @side. */
static guint
fewest_figures (const Side *side)
{
  guint fewest = G_MAXUINT;

  for (guint i = 0; i < side->runs->len; i++)
    fewest = MIN (fewest, ((GArray *) g_ptr_array_index (side->runs, i))->len);
  return fewest;
}

/**
 * ws_gate_judge:
 * @before: (array length=n_before): the runs before, each with its steps
 *   (%NULL where it has none); one run, or several of the same code, whose
 *   spread then counts in the noise
 * @after: (array length=n_after): the runs after
 *
 * Judges @budget between the runs before and after into @out (cleared
 * with ws_gate_result_clear()).
 */
void
ws_gate_judge (const WsBudget *budget, const WsGateRun *before, guint n_before,
               const WsGateRun *after, guint n_after, WsGateResult *out)
{
  Side b = { 0 }, a = { 0 };
  guint fewest = G_MAXUINT;
  gboolean sum = FALSE;

  g_return_if_fail (n_before > 0 && n_after > 0);

  memset (out, 0, sizeof *out);
  out->budget = budget;
  out->n_runs_before = n_before;
  out->n_runs_after = n_after;
  out->per_step =
    all_have_steps (before, n_before, &fewest) & all_have_steps (after, n_after, &fewest);
  if (!out->per_step && budget->kind == WS_BUDGET_STEP)
    {
      cannot_judge (out, g_strdup_printf (_ ("too few steady steps to tell: a run has %u "
                                             "(%d needed)"),
                                          fewest, MIN_SAMPLES));
      return;
    }
  sum = !out->per_step && budget->kind == WS_BUDGET_TOTAL_GPU;
  gather_side (budget, before, n_before, out->per_step, &b);
  gather_side (budget, after, n_after, out->per_step, &a);
  out->n_before = b.n;
  out->n_after = a.n;
  if (budget->kind != WS_BUDGET_STEP && (b.matched == 0 || a.matched == 0))
    cannot_judge (out, g_strdup_printf (b.matched == 0 ? _ ("nothing matches %s before")
                                                       : _ ("nothing matches %s after"),
                                        budget->pattern != NULL ? budget->pattern : "*"));
  else if (MIN (fewest_figures (&b), fewest_figures (&a)) < MIN_SAMPLES)
    cannot_judge (out, g_strdup_printf (_ ("too few figures to tell: %u before, %u after "
                                           "(%d a run needed)"),
                                        fewest_figures (&b), fewest_figures (&a), MIN_SAMPLES));
  else
    {
      g_autofree double *v = g_new (double, MAX (MAX (b.n, a.n), 1));
      g_autofree double *per_run = g_new (double, MAX (n_before, n_after));

      out->before = side_statistic (&b, sum, NULL, v, per_run);
      out->after = side_statistic (&a, sum, NULL, v, per_run);
      if (budget->percent && out->before <= 0)
        cannot_judge (out, g_strdup (_ ("the figure before is zero: no percent of it")));
      else
        {
          out->change = change_of (budget, out->before, out->after);
          bootstrap (budget, &b, &a, sum, &out->low, &out->high);
          out->verdict =
            out->change > budget->limit && out->low > 0 ? WS_GATE_REGRESSION : WS_GATE_PASS;
        }
    }
  side_clear (&b);
  side_clear (&a);
}
