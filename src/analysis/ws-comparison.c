/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-comparison"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-limits.h"
#include "ws-comparison.h"
#include "ws-gpu-busy.h"
#include "ws-graphs.h"
#include "ws-format.h"
#include "ws-kernel-name.h"
#include "ws-ncu-results.h"
#include "ws-stats.h"

const char *
ws_match_by_to_string (WsMatchBy by)
{
  switch (by)
    {
      case WS_MATCH_SHORT:
        return "short";
      case WS_MATCH_NORMALIZED:
        return "normalized";
      case WS_MATCH_DEMANGLED:
      default:
        return "demangled";
    }
}

gboolean
ws_match_by_from_string (const char *str, WsMatchBy *by)
{
  if (g_strcmp0 (str, "demangled") == 0)
    *by = WS_MATCH_DEMANGLED;
  else if (g_strcmp0 (str, "short") == 0)
    *by = WS_MATCH_SHORT;
  else if (g_strcmp0 (str, "normalized") == 0 || g_strcmp0 (str, "normalised") == 0)
    *by = WS_MATCH_NORMALIZED;
  else
    return FALSE;
  return TRUE;
}

const char *
ws_presence_to_string (WsPresence presence)
{
  switch (presence)
    {
      case WS_PRESENT_ONLY_BEFORE:
        return "only_before";
      case WS_PRESENT_ONLY_AFTER:
        return "only_after";
      case WS_PRESENT_BOTH:
      default:
        return "both";
    }
}

/* The last `::` component outside brackets: the function's own name. */
static char *
last_component (const char *normalized)
{
  int depth = 0;
  const char *start = normalized;

  for (const char *p = normalized; *p != '\0'; p++)
    {
      if (*p == '<' || *p == '(' || *p == '[')
        depth++;
      else if ((*p == '>' || *p == ')' || *p == ']') && depth > 0)
        depth--;
      else if (depth == 0 && p[0] == ':' && p[1] == ':')
        start = p + 2;
    }
  return g_strdup (start);
}

/**
 * ws_comparison_key:
 *
 * The name @name (demangled) is matched under: itself; its short form
 * ("void at::native::foo<float>(int)" → "foo"); or its normalised form
 * ("at::native::foo").  Short names are derived from the demangled name so
 * that runs read from stats CSVs (which have no short names) match too.
 *
 * Returns: (transfer full): the key
 */
char *
ws_comparison_key (const char *name, WsMatchBy by)
{
  g_autofree char *normalized = NULL;

  switch (by)
    {
      case WS_MATCH_SHORT:
        normalized = ws_kernel_name_normalize (name);
        return last_component (normalized);
      case WS_MATCH_NORMALIZED:
        return ws_kernel_name_normalize (name);
      case WS_MATCH_DEMANGLED:
      default:
        return g_strdup (name);
    }
}

typedef struct
{
  char *name;
  char *style;
  gint64 total;
  gint64 count;
  guint n_names;
} Side;

static void
side_free (gpointer data)
{
  Side *side = data;

  g_free (side->name);
  g_free (side->style);
  g_free (side);
}

/* Sums the rows of a summary by key: names that fold into one key add up. */
static GHashTable *
sides_by_key (const WsSummary *summary, WsMatchBy by, gboolean nvtx)
{
  GHashTable *sides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, side_free);

  for (guint i = 0; summary != NULL && i < summary->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);
      char *key = nvtx
                    ? g_strdup_printf ("%s\x1f%s", row->name, row->style != NULL ? row->style : "")
                    : ws_comparison_key (row->name, by);
      Side *side = g_hash_table_lookup (sides, key);

      if (side == NULL)
        {
          side = g_new0 (Side, 1);
          side->name = g_strdup (row->name);
          side->style = g_strdup (row->style);
          g_hash_table_insert (sides, key, side);
        }
      else
        g_free (key);
      side->total = ws_time_add (side->total, row->total);
      side->count += row->count;
      side->n_names++;
    }
  return sides;
}

static void
delta_clear (gpointer data)
{
  WsDelta *delta = data;

  g_free (delta->key);
  g_free (delta->name);
  g_free (delta->style);
}

static int
compare_deltas (gconstpointer a, gconstpointer b)
{
  const WsDelta *x = a, *y = b;
  gint64 ax = ABS (x->delta), ay = ABS (y->delta);

  if (ax != ay)
    return ax > ay ? -1 : 1;
  return g_strcmp0 (x->key, y->key);
}

static GArray *
pair_up (const WsSummary *before, const WsSummary *after, WsMatchBy by, gboolean nvtx)
{
  g_autoptr (GHashTable) a = sides_by_key (before, by, nvtx);
  g_autoptr (GHashTable) b = sides_by_key (after, by, nvtx);
  GArray *deltas = g_array_new (FALSE, TRUE, sizeof (WsDelta));
  GHashTableIter iter;
  gpointer key, value;
  gint64 change = 0;

  g_array_set_clear_func (deltas, delta_clear);

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Side *x = value, *y = g_hash_table_lookup (b, key);
      WsDelta d = { 0 };
      const char *sep = nvtx ? strchr (key, '\x1f') : NULL;

      d.before_launch = d.after_launch = -1;
      d.key = sep != NULL ? g_strndup (key, sep - (const char *) key) : g_strdup (key);
      d.name = g_strdup (x->name);
      d.style = g_strdup (x->style);
      d.before_total = x->total;
      d.before_count = x->count;
      d.n_before_names = x->n_names;
      if (y != NULL)
        {
          d.after_total = y->total;
          d.after_count = y->count;
          d.n_after_names = y->n_names;
          d.presence = WS_PRESENT_BOTH;
        }
      else
        d.presence = WS_PRESENT_ONLY_BEFORE;
      g_array_append_val (deltas, d);
    }
  g_hash_table_iter_init (&iter, b);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Side *y = value;
      WsDelta d = { 0 };
      const char *sep = nvtx ? strchr (key, '\x1f') : NULL;

      if (g_hash_table_contains (a, key))
        continue;
      d.before_launch = d.after_launch = -1;
      d.key = sep != NULL ? g_strndup (key, sep - (const char *) key) : g_strdup (key);
      d.name = g_strdup (y->name);
      d.style = g_strdup (y->style);
      d.after_total = y->total;
      d.after_count = y->count;
      d.n_after_names = y->n_names;
      d.presence = WS_PRESENT_ONLY_AFTER;
      g_array_append_val (deltas, d);
    }

  for (guint i = 0; i < deltas->len; i++)
    {
      WsDelta *d = &g_array_index (deltas, WsDelta, i);

      d->delta = ws_time_sub (d->after_total, d->before_total);
      d->ratio = d->before_total != 0 ? (double) d->after_total / (double) d->before_total : NAN;
      d->before_avg = d->before_count > 0 ? (double) d->before_total / (double) d->before_count : 0;
      d->after_avg = d->after_count > 0 ? (double) d->after_total / (double) d->after_count : 0;
      change = ws_time_add (change, d->delta);
    }
  for (guint i = 0; i < deltas->len; i++)
    {
      WsDelta *d = &g_array_index (deltas, WsDelta, i);

      d->share_of_change = change != 0 ? (double) d->delta / (double) change : 0;
    }
  g_array_sort (deltas, compare_deltas);
  return deltas;
}

/* The longest profiled launch of each key: the launch whose gauges stand
 * for the kernel, as the kernel bars of one run take it.  A launch goes
 * by the nsys kernel it was matched to; without an nsys match (ncu CSVs
 * alone) by ncu's own name; an unmatched launch has no key. */
static GHashTable *
longest_launches (const WsRun *run, WsMatchBy by)
{
  GHashTable *longest = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const WsNcuResults *ncu = run->ncu;
  g_autofree double *best = NULL;

  if (ncu == NULL)
    return longest;
  best = g_new (double, ws_ncu_results_n_launches (ncu));
  for (guint i = 0; i < ws_ncu_results_n_launches (ncu); i++)
    {
      const WsNcuMatch *match = ws_ncu_results_match (ncu, i);
      const char *name = match != NULL ? match->nsys_name : ws_ncu_results_launch (ncu, i)->kernel;
      const WsGauge *duration = &ws_ncu_results_gauges (ncu, i)->gauge[WS_GAUGE_DURATION];
      double d = duration->collected ? duration->value : 0;
      g_autofree char *key = NULL;
      gpointer found;

      if (name == NULL)
        continue;
      key = ws_comparison_key (name, by);
      best[i] = d;
      /* Ties keep the first launch, so the choice does not depend on hashing. */
      if (g_hash_table_lookup_extended (longest, key, NULL, &found) &&
          best[GPOINTER_TO_UINT (found)] >= d)
        continue;
      g_hash_table_insert (longest, g_steal_pointer (&key), GUINT_TO_POINTER (i));
    }
  return longest;
}

static void
attach_launches (WsComparison *self)
{
  g_autoptr (GHashTable) before = longest_launches (self->before, self->by);
  g_autoptr (GHashTable) after = longest_launches (self->after, self->by);

  for (guint i = 0; i < self->kernels->len; i++)
    {
      WsDelta *d = &g_array_index (self->kernels, WsDelta, i);
      gpointer launch;

      if (g_hash_table_lookup_extended (before, d->key, NULL, &launch))
        d->before_launch = (int) GPOINTER_TO_UINT (launch);
      if (g_hash_table_lookup_extended (after, d->key, NULL, &launch))
        d->after_launch = (int) GPOINTER_TO_UINT (launch);
      self->n_profiled += ws_delta_profiled_both (d);
    }
}

/**
 * ws_comparison_gpu_busy_share:
 *
 * The share (%) of the run's span during which any GPU was busy (the one
 * definition, ws_busy_spans(): kernels, memory operations and graph
 * replays) over end − origin.
 *
 * Returns: the share, or NAN when the run has no events.
 */
double
ws_comparison_gpu_busy_share (const WsRun *run)
{
  g_autoptr (WsBusyIndex) busy = NULL;

  if (run->end_time <= run->origin ||
      (run->kernels.n == 0 && run->memops.n == 0 && run->replays.n == 0))
    return NAN;
  busy = ws_busy_index_new (run, WS_PID_ANY, WS_BUSY_ALL);
  return 100.0 * (double) ws_busy_index_total (busy) / (double) (run->end_time - run->origin);
}

static double
summary_total (const WsRun *run, WsSummaryKind kind)
{
  g_autoptr (WsSummary) summary = ws_stats_summary (run, kind, WS_NAME_DEMANGLED);

  return summary != NULL ? (double) summary->grand_total : NAN;
}

static double
summary_count (const WsRun *run, WsSummaryKind kind)
{
  g_autoptr (WsSummary) summary = ws_stats_summary (run, kind, WS_NAME_DEMANGLED);
  gint64 count = 0;

  if (summary == NULL)
    return NAN;
  for (guint i = 0; i < summary->rows->len; i++)
    count += g_array_index (summary->rows, WsSummaryRow, i).count;
  return (double) count;
}

/**
 * ws_comparison_new:
 *
 * Pairs the kernels of two runs (either may come from any input: an
 * export, stats CSVs, a capture folder) by @by, and their NVTX ranges by
 * name and style.
 *
 * Returns: (transfer full): the comparison
 */
WsComparison *
ws_comparison_new (WsRun *before, WsRun *after, WsMatchBy by)
{
  WsComparison *self = g_new0 (WsComparison, 1);
  g_autoptr (WsSummary) kb = ws_stats_summary (before, WS_SUMMARY_KERN_SUM, WS_NAME_DEMANGLED);
  g_autoptr (WsSummary) ka = ws_stats_summary (after, WS_SUMMARY_KERN_SUM, WS_NAME_DEMANGLED);
  g_autoptr (WsSummary) nb = ws_stats_summary (before, WS_SUMMARY_NVTX_SUM, WS_NAME_DEMANGLED);
  g_autoptr (WsSummary) na = ws_stats_summary (after, WS_SUMMARY_NVTX_SUM, WS_NAME_DEMANGLED);

  g_return_val_if_fail (before != NULL && after != NULL, NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->before = ws_run_ref (before);
  self->after = ws_run_ref (after);
  self->by = by;
  self->kernels = pair_up (kb, ka, by, FALSE);
  self->ranges = pair_up (nb, na, WS_MATCH_DEMANGLED, TRUE);
  attach_launches (self);

  /* A replay traced whole stands for its kernels: GPU time and one launch. */
  {
    WsGraphSummary gb, ga;

    ws_graph_summary_compute (before, &gb);
    ws_graph_summary_compute (after, &ga);
    self->gpu_time = (WsPair){ summary_total (before, WS_SUMMARY_KERN_SUM) + gb.traced_whole_ns,
                               summary_total (after, WS_SUMMARY_KERN_SUM) + ga.traced_whole_ns };
    self->launches = (WsPair){ summary_count (before, WS_SUMMARY_KERN_SUM) + gb.traced_whole,
                               summary_count (after, WS_SUMMARY_KERN_SUM) + ga.traced_whole };
  }
  self->memop_time = (WsPair){ summary_total (before, WS_SUMMARY_MEM_TIME_SUM),
                               summary_total (after, WS_SUMMARY_MEM_TIME_SUM) };
  self->api_time = (WsPair){ summary_total (before, WS_SUMMARY_API_SUM),
                             summary_total (after, WS_SUMMARY_API_SUM) };
  self->busy_share =
    (WsPair){ ws_comparison_gpu_busy_share (before), ws_comparison_gpu_busy_share (after) };
  self->span =
    (WsPair){ before->end_time > before->origin ? (double) (before->end_time - before->origin)
                                                : NAN,
              after->end_time > after->origin ? (double) (after->end_time - after->origin) : NAN };
  {
    guint nb_names = 0, na_names = 0;

    for (guint i = 0; i < self->kernels->len; i++)
      {
        const WsDelta *d = &g_array_index (self->kernels, WsDelta, i);

        nb_names += d->presence != WS_PRESENT_ONLY_AFTER;
        na_names += d->presence != WS_PRESENT_ONLY_BEFORE;
      }
    self->n_kernels = (WsPair){ kb != NULL ? nb_names : NAN, ka != NULL ? na_names : NAN };
  }
  return self;
}

WsComparison *
ws_comparison_ref (WsComparison *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_comparison_unref (WsComparison *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_pointer (&self->kernels, g_array_unref);
  g_clear_pointer (&self->ranges, g_array_unref);
  g_clear_pointer (&self->before, ws_run_unref);
  g_clear_pointer (&self->after, ws_run_unref);
  g_free (self);
}

/**
 * ws_comparison_find:
 *
 * Returns: (transfer none) (nullable): the kernel matched under @key
 */
const WsDelta *
ws_comparison_find (const WsComparison *self, const char *key)
{
  for (guint i = 0; i < self->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (self->kernels, WsDelta, i);

      if (g_strcmp0 (d->key, key) == 0)
        return d;
    }
  return NULL;
}

/**
 * ws_comparison_gauges:
 * @after: the run after; otherwise the run before
 *
 * Returns: (transfer none) (nullable): the gauges of @delta's longest
 * profiled launch on that side, or %NULL when none was profiled
 */
const WsGauges *
ws_comparison_gauges (const WsComparison *self, const WsDelta *delta, gboolean after)
{
  const WsRun *run;
  int launch;

  g_return_val_if_fail (self != NULL && delta != NULL, NULL);

  run = after ? self->after : self->before;
  launch = after ? delta->after_launch : delta->before_launch;
  if (launch < 0 || run->ncu == NULL)
    return NULL;
  return ws_ncu_results_gauges (run->ncu, (guint) launch);
}

/* Whether both sides profiled the kernel: its gauges compare. */
gboolean
ws_delta_profiled_both (const WsDelta *delta)
{
  return delta->before_launch >= 0 && delta->after_launch >= 0;
}

/**
 * ws_presence_label:
 *
 * Returns: (transfer none): what became of a kernel, for people:
 *   "gone", "new" (the words of the comparison's chart), or "" when both
 *   runs have it (ws_presence_to_string() gives the CSV's words)
 */
const char *
ws_presence_label (WsPresence presence)
{
  switch (presence)
    {
      case WS_PRESENT_ONLY_BEFORE:
        return _ ("gone");
      case WS_PRESENT_ONLY_AFTER:
        return _ ("new");
      case WS_PRESENT_BOTH:
      default:
        return "";
    }
}

/**
 * ws_comparison_headline:
 *
 * The result in words: "after is 2.7× faster on the GPU: −41.2 ms, 63% of
 * it in sm80_xmma_…".
 *
 * Returns: (transfer full): the sentence
 */
/**
 * ws_comparison_set_steps:
 *
 * Both runs' steps, found on the whole runs (their steady states are what
 * is compared): the headline leads with the medians per step.
 */
void
ws_comparison_set_steps (WsComparison *self, const WsSteps *before, const WsSteps *after)
{
  g_return_if_fail (self != NULL);

  self->per_step = ws_steps_has_steady_state (before) && ws_steps_has_steady_state (after);
  if (!self->per_step)
    return;
  self->step_before = before->median;
  self->step_after = after->median;
}

/* "GPU 2.5× faster (12.3 → 4.9 ms)": how a time per step changed. */
static char *
per_step_change (const char *what, double before, double after)
{
  g_autofree char *b = ws_format_duration (before);
  g_autofree char *a = ws_format_duration (after);
  g_autofree char *factor = NULL;

  if (before <= 0 || after <= 0 || fabs (after - before) < 0.01 * before)
    /* TRANSLATORS: "wall 6.0 ms → 6.0 ms (about the same)" */
    return g_strdup_printf (_ ("%s %s → %s (about the same)"), what, b, a);
  if (after < before)
    {
      factor = ws_format_fixed_string (before / after, before / after >= 10 ? 0 : 1);
      /* TRANSLATORS: "GPU 2.5× faster (12.3 ms → 4.9 ms)" */
      return g_strdup_printf (_ ("%s %s× faster (%s → %s)"), what, factor, b, a);
    }
  factor = ws_format_fixed_string (after / before, after / before >= 10 ? 0 : 1);
  /* TRANSLATORS: "wall 1.1× slower (6.0 ms → 6.4 ms)" */
  return g_strdup_printf (_ ("%s %s× slower (%s → %s)"), what, factor, b, a);
}

static char *kernel_headline (const WsComparison *self);

/**
 * ws_comparison_headline:
 *
 * The result in words: "after is 2.7× faster on the GPU: −41.2 ms, 63% of
 * it in sm80_xmma_…", led by the medians per step where both runs have
 * steps ("per step: GPU 2.5× faster (12.3 → 4.9 ms), wall 1.1× slower
 * (6.0 → 6.4 ms); …").
 *
 * Returns: (transfer full): the sentence
 */
char *
ws_comparison_headline (const WsComparison *self)
{
  g_autofree char *kernels = kernel_headline (self);
  g_autofree char *gpu = NULL;
  g_autofree char *wall = NULL;

  if (!self->per_step)
    return g_steal_pointer (&kernels);
  /* TRANSLATORS: the time the GPU was busy in a step */
  /* The GPU work a step launches: the GPU may run it after the step ends. */
  gpu = per_step_change (_ ("GPU"), self->step_before.gpu_launched, self->step_after.gpu_launched);
  /* TRANSLATORS: the wall-clock time of a step */
  wall = per_step_change (_ ("wall"), self->step_before.wall, self->step_after.wall);
  /* TRANSLATORS: "per step: GPU 2.5× faster (…), wall 1.1× slower (…); after is 2.7× faster on
   * the GPU: …" */
  return g_strdup_printf (_ ("per step: %s, %s; %s"), gpu, wall, kernels);
}

static char *
kernel_headline (const WsComparison *self)
{
  double before = self->gpu_time.before, after = self->gpu_time.after;
  const WsDelta *top = NULL;
  g_autofree char *change = NULL, *factor = NULL, *share = NULL, *who = NULL;
  double delta;

  if (isnan (before) || isnan (after) || before <= 0 || after <= 0)
    return g_strdup (_ ("One of the runs has no kernel data: only the other figures compare."));

  delta = after - before;
  /* The kernel that moved the most in the direction of the total. */
  for (guint i = 0; i < self->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (self->kernels, WsDelta, i);

      if ((delta < 0 && d->delta < 0) || (delta > 0 && d->delta > 0))
        {
          top = d;
          break;
        }
    }
  if (fabs (delta) < before * 0.01 || top == NULL)
    {
      g_autofree char *pct = ws_format_fixed_string (100.0 * delta / before, 1);

      return g_strdup_printf (_ ("GPU time in kernels is about the same (%s%%)."), pct);
    }

  change = ws_format_duration (fabs (delta));
  who = g_strdup (self->by == WS_MATCH_DEMANGLED
                    ? ws_run_kernel_display (delta < 0 ? self->before : self->after, top->name)
                    : top->key);
  share = ws_format_fixed_string (100.0 * (double) top->delta / delta, 0);
  if (delta < 0)
    {
      factor = ws_format_fixed_string (before / after, before / after >= 10 ? 0 : 1);
      /* TRANSLATORS: "after is 2.7× faster on the GPU: −41.2 ms, 63% of it in sm80_xmma_…" */
      return g_strdup_printf (_ ("after is %s× faster on the GPU: −%s, %s%% of it in %s"), factor,
                              change, share, who);
    }
  factor = ws_format_fixed_string (after / before, after / before >= 10 ? 0 : 1);
  /* TRANSLATORS: "after is 1.3× slower on the GPU: +12.3 ms, 80% of it in gemm" */
  return g_strdup_printf (_ ("after is %s× slower on the GPU: +%s, %s%% of it in %s"), factor,
                          change, share, who);
}
