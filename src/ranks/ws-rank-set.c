/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-rank-set"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-limits.h"
#include "ws-rank-measure.h"
#include "ws-rank-set.h"
#include "ws-stats.h"

/* A rank is the straggler when it comes last in this share of the steady
 * steps, and in at least MIN_STEPS of them. */
#define CONSISTENT_SHARE (2.0 / 3.0)
#define MIN_STEPS 3

static void
step_clear (gpointer data)
{
  WsRankSetStep *step = data;

  g_free (step->lost);
  g_free (step->caused);
  g_free (step->lead);
}

/* The median of @n values (reordered). */
static gint64
median_of_n (gint64 *values, guint n)
{
  WsGroupStats stats;

  if (n == 0)
    return 0;
  ws_group_stats (values, n, &stats);
  return (gint64) llround (stats.med);
}

static gint64
median_i64 (GArray *values)
{
  g_autoptr (GArray) copy = NULL;
  WsGroupStats stats;

  if (values->len == 0)
    return 0;
  copy = g_array_copy (values);
  ws_group_stats ((gint64 *) (gpointer) copy->data, copy->len, &stats);
  return (gint64) llround (stats.med);
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* Each rank's step @number, or NULL. */
static const WsRankStep *
step_of (const WsRankSet *self, guint r, guint number)
{
  return ws_rank_figures_find_step (g_ptr_array_index (self->figures, r), number);
}

/* The others' median work in step @number, leaving out rank @skip. */
static gint64
others_median (const WsRankSet *self, guint number, guint skip)
{
  g_autoptr (GArray) works = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint r = 0; r < self->figures->len; r++)
    {
      const WsRankStep *step = r != skip ? step_of (self, r, number) : NULL;

      if (step != NULL)
        g_array_append_val (works, step->work);
    }
  return median_i64 (works);
}

static void
compare_steps (WsRankSet *self)
{
  g_autoptr (GHashTable) numbers = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) sorted = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n = self->figures->len;

  for (guint r = 0; r < n; r++)
    {
      const WsRankFigures *figures = g_ptr_array_index (self->figures, r);

      for (guint s = 0; s < figures->steps->len; s++)
        {
          guint number = g_array_index (figures->steps, WsRankStep, s).number;

          if (g_hash_table_add (numbers, GUINT_TO_POINTER (number + 1)))
            g_array_append_val (sorted, number);
        }
    }
  g_array_sort (sorted, compare_u32);

  for (guint i = 0; i < sorted->len; i++)
    {
      WsRankSetStep out = { 0 };
      guint ran = 0;
      gboolean warmup = FALSE;
      gint64 most = G_MININT64;

      out.number = g_array_index (sorted, guint, i);
      out.last = -1;
      out.lost = g_new (gint64, MAX (n, 1));
      for (guint r = 0; r < n; r++)
        {
          const WsRankStep *step = step_of (self, r, out.number);

          out.lost[r] = -1;
          if (step == NULL)
            continue;
          ran++;
          warmup = warmup || step->warmup;
          if (step->work > most)
            {
              most = step->work;
              out.last = (gint) r;
            }
        }
      out.steady = ran >= 2 && !warmup;
      if (ran >= 2)
        out.late = most - others_median (self, out.number, (guint) out.last);
      else
        out.last = -1;
      g_array_append_val (self->steps, out);
    }
}

static WsRankSetStep *
set_step (WsRankSet *self, gint number)
{
  guint lo = 0, hi = self->steps->len;

  if (number < 0)
    return NULL;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      WsRankSetStep *step = &g_array_index (self->steps, WsRankSetStep, mid);

      if (step->number == (guint) number)
        return step;
      if (step->number < (guint) number)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/* Where each communicator's calls begin in a rank's calls (sorted by
 * communicator, then start): @first[c] to @first[c + 1]. */
static guint *
comm_bounds (const WsRankFigures *f, guint n_comms)
{
  guint *first = g_new0 (guint, n_comms + 1);
  guint c = 0;

  for (guint i = 0; i <= f->calls->len; i++)
    {
      guint comm = i < f->calls->len ? g_array_index (f->calls, WsRankCall, i).comm : n_comms;

      while (c <= MIN (comm, n_comms))
        first[c++] = i;
    }
  return first;
}

/* The communicators every rank has: each rank numbers its own from 0. */
static guint
shared_comms (WsRankSet *self)
{
  guint n_comms = G_MAXUINT;

  for (guint r = 0; r < self->figures->len; r++)
    {
      const WsRankFigures *f = g_ptr_array_index (self->figures, r);
      guint comms = 0;

      for (guint i = 0; i < f->calls->len; i++)
        comms = MAX (comms, g_array_index (f->calls, WsRankCall, i).comm + 1);
      n_comms = MIN (n_comms, comms);
    }
  return n_comms;
}

/* The call of @rank that is collective @pair[1] of communicator @pair[0]. */
static const WsRankCall *
matched_call (WsRankSet *self, guint **bounds, guint rank, const guint *pair)
{
  const WsRankFigures *f = g_ptr_array_index (self->figures, rank);

  return &g_array_index (f->calls, WsRankCall, bounds[rank][pair[0]] + pair[1]);
}

/* The matched collectives, as (communicator, n): the n-th call of a
 * communicator, while it is of the same kind on every rank. */
static GArray *
match_collectives (WsRankSet *self, guint **bounds, guint n_comms)
{
  guint n = self->figures->len;
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (guint) * 2);

  for (guint c = 0; c < n_comms; c++)
    {
      guint most = G_MAXUINT;

      for (guint r = 0; r < n; r++)
        most = MIN (most, bounds[r][c + 1] - bounds[r][c]);
      for (guint k = 0; k < most; k++)
        {
          guint pair[2] = { c, k };
          const char *kind = matched_call (self, bounds, 0, pair)->kind;
          gboolean same = TRUE;

          for (guint r = 1; r < n && same; r++)
            same = matched_call (self, bounds, r, pair)->kind == kind;
          if (!same)
            break;
          g_array_append_val (pairs, pair);
        }
    }
  return pairs;
}

/* Each rank's clock on the first rank's: the median offset of the
 * collectives' ends. */
static void
align_clocks (WsRankSet *self, guint **bounds, GArray *pairs)
{
  for (guint r = 1; r < self->figures->len; r++)
    {
      g_autoptr (GArray) offsets = g_array_sized_new (FALSE, FALSE, sizeof (gint64), pairs->len);

      for (guint p = 0; p < pairs->len; p++)
        {
          const guint *pair = &g_array_index (pairs, guint, 2 * p);
          gint64 offset =
            matched_call (self, bounds, 0, pair)->end - matched_call (self, bounds, r, pair)->end;

          g_array_append_val (offsets, offset);
        }
      self->align[r] = median_i64 (offsets);
    }
}

static void
reset_waits (WsRankSet *self)
{
  guint n = self->figures->len;

  for (guint i = 0; i < self->steps->len; i++)
    {
      WsRankSetStep *step = &g_array_index (self->steps, WsRankSetStep, i);

      step->caused = g_new0 (gint64, n);
      step->lead = g_new0 (gint64, n);
      step->last = -1;
      step->late = 0;
    }
}

/* One collective: each rank waits from its arrival to the last one, no
 * longer than its kernel ran; the last rank caused those waits, in the
 * step its call belongs to, and led the others' median arrival by @lead.
 * These name each step's last rank and its lateness only: what the others
 * lose is measured on their own GPUs (set_losses()), since these waits
 * overlap their compute. */
static void
measure_collective (WsRankSet *self, guint **bounds, const guint *pair, gint64 *arrival,
                    gint64 *others)
{
  guint n = self->figures->len;
  gint last = 0;
  gint64 caused = 0;
  WsRankSetStep *step;

  for (guint r = 0; r < n; r++)
    {
      arrival[r] = matched_call (self, bounds, r, pair)->start + self->align[r];
      if (arrival[r] > arrival[last])
        last = (gint) r;
    }
  for (guint r = 0; r < n; r++)
    {
      const WsRankCall *call = matched_call (self, bounds, r, pair);
      gint64 wait = MAX (0, MIN (call->end + self->align[r], arrival[last]) - arrival[r]);

      caused = ws_time_add (caused, wait);
    }
  step = set_step (self, matched_call (self, bounds, last, pair)->step);
  if (step != NULL)
    {
      guint k = 0;
      gint64 lead;

      for (guint r = 0; r < n; r++)
        if ((gint) r != last)
          others[k++] = arrival[r];
      lead = arrival[last] - median_of_n (others, k);
      step->caused[last] = ws_time_add (step->caused[last], caused);
      step->lead[last] = MAX (step->lead[last], lead);
    }
}

/* A step's last rank is the one the others waited for most in it. */
static void
pick_last_ranks (WsRankSet *self)
{
  for (guint i = 0; i < self->steps->len; i++)
    {
      WsRankSetStep *step = &g_array_index (self->steps, WsRankSetStep, i);

      for (guint r = 0; r < self->figures->len; r++)
        if (step_of (self, r, step->number) != NULL && step->caused[r] > 0 &&
            (step->last < 0 || step->caused[r] > step->caused[step->last]))
          step->last = (gint) r;
      if (step->last >= 0)
        step->late = step->lead[step->last];
    }
}

/* The NCCL method.  The n-th call of a communicator is one collective on
 * every rank (the same kind, or the order is lost and matching stops
 * there).  Each rank's clock is aligned on the first rank's by the median
 * offset of the collectives' ends, which are simultaneous to
 * microseconds; a rank's arrival is its kernel's start on that clock, the
 * last arrival is the one the others wait for, and each other rank waits
 * from its own arrival to that one, no longer than its kernel ran. */
static gboolean
compare_collectives (WsRankSet *self)
{
  guint n = self->figures->len;
  guint n_comms;
  g_autofree guint **bounds = NULL;
  g_autofree gint64 *arrival = NULL;
  g_autofree gint64 *others = NULL;
  g_autoptr (GArray) pairs = NULL;

  if (n < 2)
    return FALSE;
  n_comms = shared_comms (self);
  if (n_comms == 0)
    return FALSE;

  bounds = g_new0 (guint *, n);
  for (guint r = 0; r < n; r++)
    bounds[r] = comm_bounds (g_ptr_array_index (self->figures, r), n_comms);
  pairs = match_collectives (self, bounds, n_comms);
  if (pairs->len > 0)
    {
      self->method = WS_RANK_METHOD_NCCL;
      self->n_matched = pairs->len;
      self->matched = g_new (guint, (gsize) pairs->len * n);
      for (guint p = 0; p < pairs->len; p++)
        for (guint r = 0; r < n; r++)
          {
            const guint *pair = &g_array_index (pairs, guint, 2 * p);

            self->matched[(gsize) p * n + r] = bounds[r][pair[0]] + pair[1];
          }
      align_clocks (self, bounds, pairs);
      reset_waits (self);
      arrival = g_new (gint64, n);
      others = g_new (gint64, MAX (n, 2) - 1);
      for (guint p = 0; p < pairs->len; p++)
        measure_collective (self, bounds, &g_array_index (pairs, guint, 2 * p), arrival, others);
      pick_last_ranks (self);
    }
  for (guint r = 0; r < n; r++)
    g_free (bounds[r]);
  return pairs->len > 0;
}

/* The range where the straggler's extra work is: among the ranges where it
 * spends at least half its lateness more than the others, the deepest
 * (the most precise), then the one with the most extra. */
static void
find_range (WsRankSet *self)
{
  WsStraggler *s = &self->straggler;
  const WsRankFigures *mine = g_ptr_array_index (self->figures, s->index);
  gint best = -1;
  gint64 best_extra = 0;
  guint best_depth = 0;

  for (guint i = 0; i < mine->ranges->len; i++)
    {
      const WsRankRange *range = &g_array_index (mine->ranges, WsRankRange, i);
      g_autoptr (GArray) others = g_array_new (FALSE, FALSE, sizeof (gint64));
      gint64 extra;
      gboolean enough, better;

      for (guint r = 0; r < self->figures->len; r++)
        {
          const WsRankFigures *other = g_ptr_array_index (self->figures, r);
          gint64 value = 0;

          if ((gint) r == s->index)
            continue;
          for (guint j = 0; j < other->ranges->len; j++)
            if (g_str_equal (g_array_index (other->ranges, WsRankRange, j).name, range->name))
              value = (gint64) llround (g_array_index (other->ranges, WsRankRange, j).per_step);
          g_array_append_val (others, value);
        }
      extra = (gint64) llround (range->per_step) - median_i64 (others);
      if (extra <= 0)
        continue;
      enough = extra * 2 >= s->late;
      if (best < 0)
        better = TRUE;
      else
        {
          gboolean best_enough = best_extra * 2 >= s->late;

          better =
            (enough && !best_enough) ||
            (enough == best_enough && enough &&
             (range->depth > best_depth || (range->depth == best_depth && extra > best_extra))) ||
            (enough == best_enough && !enough && extra > best_extra);
        }
      if (better)
        {
          best = (gint) i;
          best_extra = extra;
          best_depth = range->depth;
        }
    }
  if (best >= 0)
    {
      s->range = g_strdup (g_array_index (mine->ranges, WsRankRange, best).name);
      s->range_extra = best_extra;
    }
}

/* What the others lose to rank @who in @step (docs/NOTES.md, "What a
 * straggler costs"): each other rank's loss in the step (its time with a
 * collective waiting and none of its own work running, or its blocking
 * waits on the host) up to @late, the straggler's lateness in the step,
 * summed.  Had it arrived with the others' median, no rank would have
 * waited for it; what a rank waits beyond @late is the collective's own
 * transfer or waiting for another rank.  So the sum never exceeds
 * (n − 1) × @late, and each rank's part never exceeds its step's wall
 * less its own work.  -1 when no other rank's loss is measured. */
static gint64
step_cost (const WsRankSet *self, const WsRankSetStep *step, guint who, gint64 late)
{
  gint64 cost = -1;

  for (guint r = 0; r < self->figures->len; r++)
    if (r != who && step->lost[r] >= 0)
      cost = ws_time_add (MAX (cost, 0), MIN (step->lost[r], late));
  return cost;
}

/* Each rank's loss per step and over the run: its own measure of waiting
 * (ws_rank_measure()), whichever method named the last ranks, so that the
 * table, the per-step lines, the heatmap and the straggler read one
 * figure; -1 (not measured) where nothing measured it. */
static void
set_losses (WsRankSet *self)
{
  for (guint r = 0; r < self->figures->len; r++)
    {
      const WsRankFigures *f = g_ptr_array_index (self->figures, r);
      gboolean measured = f->wait_source != WS_WAIT_NONE;

      self->wait[r] = measured ? f->wait_time : -1;
      for (guint i = 0; i < self->steps->len; i++)
        {
          WsRankSetStep *step = &g_array_index (self->steps, WsRankSetStep, i);
          const WsRankStep *mine = step_of (self, r, step->number);

          step->lost[r] = measured && mine != NULL ? mine->wait : -1;
        }
    }
}

static void
find_straggler (WsRankSet *self)
{
  WsStraggler *s = &self->straggler;
  guint n = self->figures->len;
  g_autofree guint *counts = g_new0 (guint, MAX (n, 1));
  g_autoptr (GArray) lates = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) losts = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n_steps = 0;
  gint best = -1;

  s->index = -1;
  for (guint i = 0; i < self->steps->len; i++)
    {
      const WsRankSetStep *step = &g_array_index (self->steps, WsRankSetStep, i);

      if (!step->steady || step->last < 0)
        continue;
      n_steps++;
      counts[step->last]++;
    }
  for (guint r = 0; r < n; r++)
    if (best < 0 || counts[r] > counts[best])
      best = (gint) r;
  s->n_steps = n_steps;
  if (best < 0 || n_steps < MIN_STEPS || counts[best] < MIN_STEPS ||
      counts[best] < CONSISTENT_SHARE * n_steps)
    return;

  /* Its lateness and what the others lose, over every steady step: also
   * those where noise put another rank last. */
  for (guint i = 0; i < self->steps->len; i++)
    {
      const WsRankSetStep *step = &g_array_index (self->steps, WsRankSetStep, i);
      const WsRankStep *mine = step_of (self, (guint) best, step->number);
      gint64 late, lost = 0;

      if (!step->steady || mine == NULL)
        continue;
      /* NCCL method: its lateness is its largest lead at a collective it
       * arrived at last, not their sum: a rank behind by 2 ms at each of
       * ten buckets of an all-reduce is 2 ms late, not 20.  Host method:
       * its own work beyond the others' median. */
      late = step->caused != NULL ? step->lead[best]
                                  : mine->work - others_median (self, step->number, (guint) best);
      g_array_append_val (lates, late);
      lost = step_cost (self, step, (guint) best, MAX (0, late));
      if (lost >= 0)
        g_array_append_val (losts, lost);
    }
  s->late = median_i64 (lates);
  if (s->late <= 0)
    return;
  s->index = best;
  s->rank = ((const WsRankFigures *) g_ptr_array_index (self->figures, best))->rank;
  s->n_last = counts[best];
  s->lost = losts->len > 0 ? median_i64 (losts) : -1;
  if (n > 1 && self->step_median > 0 && s->lost >= 0)
    s->lost_share = (double) s->lost / ((n - 1) * self->step_median);
  find_range (self);
}

/**
 * ws_rank_set_new:
 * @figures: (element-type WsRankFigures): the ranks' figures in rank
 *   order; %NULL entries (ranks not measured yet) are left out
 *
 * Returns: (transfer full): the ranks compared
 */
WsRankSet *
ws_rank_set_new (GPtrArray *figures)
{
  WsRankSet *self = g_new0 (WsRankSet, 1);
  g_autoptr (GArray) medians = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_return_val_if_fail (figures != NULL, NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->figures = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_rank_figures_unref);
  self->steps = g_array_new (FALSE, TRUE, sizeof (WsRankSetStep));
  g_array_set_clear_func (self->steps, step_clear);
  for (guint i = 0; i < figures->len; i++)
    {
      WsRankFigures *f = g_ptr_array_index (figures, i);

      if (f == NULL)
        continue;
      g_ptr_array_add (self->figures, ws_rank_figures_ref (f));
    }
  /* One warm-up for the job, whoever measured the ranks (docs/NOTES.md,
   * "The warm-up rule"): a no-op on a loader's figures. */
  ws_rank_measure_join_warmup (self->figures);
  for (guint i = 0; i < self->figures->len; i++)
    {
      const WsRankFigures *f = g_ptr_array_index (self->figures, i);

      if (f->n_steady > 0)
        {
          gint64 median = (gint64) llround (f->step_median);

          g_array_append_val (medians, median);
        }
    }
  self->step_median = (double) median_i64 (medians);
  self->align = g_new0 (gint64, MAX (self->figures->len, 1));
  self->wait = g_new0 (gint64, MAX (self->figures->len, 1));
  compare_steps (self);
  if (!compare_collectives (self))
    self->method = WS_RANK_METHOD_HOST;
  set_losses (self);
  find_straggler (self);
  return self;
}

/**
 * ws_rank_set_new_for_run:
 *
 * The ranks of @run compared, each measured where the loader has not
 * measured it yet.
 *
 * Returns: (transfer full) (nullable): the set, or %NULL for a run of one
 * process
 */
WsRankSet *
ws_rank_set_new_for_run (const WsRun *run)
{
  g_autoptr (GPtrArray) figures = NULL;
  const WsRanks *ranks;

  g_return_val_if_fail (run != NULL, NULL);

  ranks = run->ranks;
  if (ranks == NULL || ranks->ranks->len == 0)
    return NULL;
  figures = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_rank_figures_unref);
  for (guint i = 0; i < ranks->ranks->len; i++)
    {
      WsRankFigures *f = i < ranks->figures->len ? g_ptr_array_index (ranks->figures, i) : NULL;
      const WsRank *rank = ws_ranks_get (ranks, i);

      g_ptr_array_add (figures, f != NULL ? ws_rank_figures_ref (f)
                                          : ws_rank_measure (run, rank->pid, rank->rank));
    }
  return ws_rank_set_new (figures);
}

WsRankSet *
ws_rank_set_ref (WsRankSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_rank_set_unref (WsRankSet *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_ptr_array_unref (self->figures);
  g_array_unref (self->steps);
  g_free (self->straggler.range);
  g_free (self->align);
  g_free (self->matched);
  g_free (self->wait);
  g_free (self);
}

/* The index of rank number @rank in the set, or -1. */
gint
ws_rank_set_index_of (const WsRankSet *self, guint rank)
{
  for (guint i = 0; i < self->figures->len; i++)
    if (((const WsRankFigures *) g_ptr_array_index (self->figures, i))->rank == rank)
      return (gint) i;
  return -1;
}

/**
 * ws_rank_set_straggler_line:
 *
 * Returns: (transfer full): "straggler: rank 3, +612345 ns per step, in
 * extra work", or "straggler: none", for scripts (not translated)
 */
char *
ws_rank_set_straggler_line (const WsRankSet *self)
{
  const WsStraggler *s = &self->straggler;

  if (s->index < 0)
    return g_strdup ("straggler: none");
  if (s->range != NULL)
    return g_strdup_printf ("straggler: rank %u, +%" G_GINT64_FORMAT " ns per step, in %s", s->rank,
                            s->late, s->range);
  return g_strdup_printf ("straggler: rank %u, +%" G_GINT64_FORMAT " ns per step", s->rank,
                          s->late);
}

/**
 * ws_rank_set_describe:
 * @ranks: the ranks the set compares
 *
 * The ranks in a line, as ws_ranks_describe() says them, with the clocks
 * the comparison used: with the NCCL method, aligned on the ends of the
 * matched collectives (the set's own alignment, not the run's).
 *
 * Returns: (transfer full): the line
 */
char *
ws_rank_set_describe (const WsRankSet *self, const WsRanks *ranks)
{
  g_autofree char *clock = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (ranks != NULL, NULL);

  if (self->method != WS_RANK_METHOD_NCCL)
    return ws_ranks_describe (ranks);
  clock = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "clocks aligned on the ends of the %u NCCL collective "
                                        "matched on every rank",
                                        "clocks aligned on the ends of the %u NCCL collectives "
                                        "matched on every rank",
                                        self->n_matched),
                           self->n_matched);
  return ws_ranks_describe_clock (ranks, clock);
}

/* "nccl" or "host": the method's name in CSV and JSON (not translated). */
const char *
ws_rank_method_string (WsRankMethod method)
{
  return method == WS_RANK_METHOD_NCCL ? "nccl" : "host";
}

/* The method in words, for tables and pages. */
const char *
ws_rank_method_label (WsRankMethod method)
{
  return method == WS_RANK_METHOD_NCCL ? _ ("NCCL collectives") : _ ("host waits");
}

/**
 * ws_rank_set_straggler_text:
 *
 * The straggler in a sentence, with the method that named it: what the
 * table, the Ranks page and its chart say.
 *
 * Returns: (transfer full): the translated sentence, without a final newline
 */
char *
ws_rank_set_straggler_text (const WsRankSet *self)
{
  const WsStraggler *s = &self->straggler;
  const char *method = ws_rank_method_label (self->method);
  g_autofree char *late = NULL, *lost = NULL, *head = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (s->index < 0)
    /* TRANSLATORS: the method, "NCCL collectives" or "host waits" */
    return g_strdup_printf (
      _ ("Straggler: none (no rank comes last in two thirds of the steady steps, by %s)"), method);
  late = ws_format_duration ((double) s->late);
  lost = ws_format_duration ((double) MAX (s->lost, 0));
  if (s->range != NULL)
    head = g_strdup_printf (_ ("Straggler: rank %1$u, +%2$s per step, in “%3$s”"), s->rank, late,
                            s->range);
  else
    head = g_strdup_printf (_ ("Straggler: rank %1$u, +%2$s per step"), s->rank, late);
  if (s->lost < 0)
    /* TRANSLATORS: steps it came last, steady steps, the method */
    return g_strdup_printf (_ ("%1$s (last in %2$u of %3$u steady steps, by %4$s); what the "
                               "others lose waiting for it is not measured"),
                            head, s->n_last, s->n_steps, method);
  /* TRANSLATORS: steps it came last, steady steps, the method, the others' waiting, its share */
  return g_strdup_printf (_ ("%1$s (last in %2$u of %3$u steady steps, by %4$s); the others lose "
                             "%5$s per step waiting for it (%6$.1f%% of their time)"),
                          head, s->n_last, s->n_steps, method, lost, s->lost_share * 100);
}

static WsFinding *
imbalance_finding (const WsRankSet *self)
{
  const WsStraggler *s = &self->straggler;
  const WsRankFigures *mine = g_ptr_array_index (self->figures, s->index);
  g_autoptr (WsFinding) finding = ws_finding_new ("rank-imbalance");
  g_autofree char *late = ws_format_duration ((double) s->late);
  g_autofree char *lost = ws_format_duration ((double) MAX (s->lost, 0));
  g_autofree char *where = NULL;
  double pct = s->lost >= 0 ? s->lost_share * 100 : 0;

  finding->severity = pct >= 20  ? WS_SEVERITY_SEVERE
                      : pct >= 5 ? WS_SEVERITY_MEDIUM
                                 : WS_SEVERITY_MINOR;
  finding->title = g_strdup (_ ("Rank imbalance"));
  if (s->range != NULL)
    {
      g_autofree char *extra = ws_format_duration ((double) s->range_extra);

      /* TRANSLATORS: "in “extra work” (+0.70 ms)": an NVTX range and the time it adds */
      where = g_strdup_printf (_ (", in “%s” (+%s)"), s->range, extra);
    }
  if (s->lost >= 0)
    finding->summary = g_strdup_printf (
      _ ("Rank %u reaches the synchronisation last in %u of %u steady steps: +%s per step%s; "
         "the other ranks lose %s per step waiting for it (%.1f%% of their time)"),
      s->rank, s->n_last, s->n_steps, late, where != NULL ? where : "", lost, pct);
  else
    finding->summary = g_strdup_printf (
      _ ("Rank %u reaches the synchronisation last in %u of %u steady steps: +%s per step%s; "
         "what the other ranks lose waiting for it is not measured"),
      s->rank, s->n_last, s->n_steps, late, where != NULL ? where : "");
  finding->rule = g_strdup (
    self->method == WS_RANK_METHOD_NCCL
      ? _ ("A rank that arrives last at the NCCL collectives (clocks aligned on their ends) in "
           "at least two thirds of the steady steps is a straggler; severe when the others lose "
           "20% of their time waiting for it, medium from 5%, minor below")
      : _ ("A rank that does the most work before the synchronisation in at least two thirds of "
           "the steady steps is a straggler; severe when the others lose 20% of their time "
           "waiting for it, medium from 5%, minor below"));
  finding->fix = g_strdup_printf (
    _ ("Give rank %u no more work than the others: spread what it does%s over the ranks, or "
       "move it out of the step"),
    /* TRANSLATORS: inserted after "what it does" in "spread what it does%s" */
    s->rank, s->range != NULL ? _ (" in that range") : "");
  ws_finding_add_evidence (finding, "rank", _ ("Straggler rank"), WS_UNIT_COUNT, s->rank);
  ws_finding_add_evidence_text (finding, "method", _ ("Found by"),
                                ws_rank_method_label (self->method));
  ws_finding_add_evidence (finding, "steps_last", _ ("Steps it came last"), WS_UNIT_COUNT,
                           s->n_last);
  ws_finding_add_evidence (finding, "steady_steps", _ ("Steady steps compared"), WS_UNIT_COUNT,
                           s->n_steps);
  ws_finding_add_evidence (finding, "late_ns", _ ("Extra work per step"), WS_UNIT_NS,
                           (double) s->late);
  if (s->range != NULL)
    {
      WsFindingNvtx *nvtx = g_new0 (WsFindingNvtx, 1);

      ws_finding_add_evidence_text (finding, "range", _ ("In NVTX range"), s->range);
      ws_finding_add_evidence (finding, "range_extra_ns", _ ("Extra time in that range per step"),
                               WS_UNIT_NS, (double) s->range_extra);
      nvtx->name = g_strdup (s->range);
      nvtx->domain = g_strdup ("");
      nvtx->depth = 1;
      /* The steady steps, and the straggler's extra time in the range
       * over them (not "0 events": the finding's events are steps). */
      nvtx->events = s->n_steps;
      nvtx->event_time = s->range_extra * (gint64) s->n_steps;
      g_ptr_array_add (finding->nvtx, nvtx);
    }
  if (s->lost >= 0)
    {
      ws_finding_add_evidence (finding, "lost_ns", _ ("The others' waiting per step"), WS_UNIT_NS,
                               (double) s->lost);
      ws_finding_add_evidence (finding, "lost_pct", _ ("Share of the others' time"),
                               WS_UNIT_PERCENT, pct);
    }
  for (guint i = 0; i < mine->steps->len; i++)
    {
      const WsRankStep *step = &g_array_index (mine->steps, WsRankStep, i);

      if (!step->warmup)
        ws_finding_add_range (finding, step->start + mine->offset, step->end + mine->offset);
    }
  finding->cost = MAX (s->lost, 0) * (gint64) s->n_steps;
  return g_steal_pointer (&finding);
}

static WsFinding *
shared_gpu_finding (const WsRanks *ranks)
{
  g_autoptr (WsFinding) finding = NULL;
  g_autoptr (GPtrArray) lines = NULL;

  if (ranks->shared_gpus->len == 0)
    return NULL;
  lines = g_ptr_array_new ();
  for (guint i = 0; i < ranks->shared_gpus->len; i++)
    g_ptr_array_add (lines, g_ptr_array_index (ranks->shared_gpus, i));
  g_ptr_array_add (lines, NULL);
  finding = ws_finding_new ("shared-gpu");
  finding->severity = WS_SEVERITY_MINOR;
  finding->title = g_strdup (_ ("Ranks share a GPU"));
  finding->summary = g_strjoinv ("; ", (char **) lines->pdata);
  finding->rule = g_strdup (_ ("Two ranks whose kernels ran on the same GPU of the same host"));
  finding->fix = g_strdup (
    _ ("Give each rank a GPU of its own (CUDA_VISIBLE_DEVICES, torch.cuda.set_device(LOCAL_RANK)) "
       "before reading its GPU times"));
  ws_finding_add_evidence (finding, "gpus_shared", _ ("GPUs shared"), WS_UNIT_COUNT,
                           ranks->shared_gpus->len);
  return g_steal_pointer (&finding);
}

/**
 * ws_rank_set_add_findings:
 *
 * Adds to @findings what comparing @run's ranks finds: a consistent
 * straggler (rank-imbalance) and ranks that share a GPU (shared-gpu).
 */
void
ws_rank_set_add_findings (const WsRun *run, GPtrArray *findings)
{
  g_autoptr (WsRankSet) set = NULL;
  WsFinding *shared;

  if (run->ranks == NULL || run->ranks->ranks->len < 2)
    return;
  set = ws_rank_set_new_for_run (run);
  if (set != NULL && set->straggler.index >= 0)
    g_ptr_array_add (findings, imbalance_finding (set));
  shared = shared_gpu_finding (run->ranks);
  if (shared != NULL)
    g_ptr_array_add (findings, shared);
}
