/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-rank-figures"
#include "config.h"

#include "ws-rank-figures.h"

const char *
ws_rank_figures_wait_source_string (WsWaitSource source)
{
  switch (source)
    {
      case WS_WAIT_NCCL:
        return "nccl";
      case WS_WAIT_CPU:
        return "cpu";
      case WS_WAIT_NONE:
      default:
        return "none";
    }
}

static void
range_clear (gpointer data)
{
  WsRankRange *range = data;

  g_free (range->name);
}

static void
collective_clear (gpointer data)
{
  WsRankCollective *collective = data;

  g_free (collective->kind);
}

/**
 * ws_rank_figures_new:
 *
 * Returns: (transfer full): empty figures, for a digest reader to fill
 */
WsRankFigures *
ws_rank_figures_new (void)
{
  WsRankFigures *self = g_new0 (WsRankFigures, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->steps = g_array_new (FALSE, TRUE, sizeof (WsRankStep));
  self->ranges = g_array_new (FALSE, TRUE, sizeof (WsRankRange));
  g_array_set_clear_func (self->ranges, range_clear);
  self->collectives = g_array_new (FALSE, TRUE, sizeof (WsRankCollective));
  g_array_set_clear_func (self->collectives, collective_clear);
  self->calls = g_array_new (FALSE, TRUE, sizeof (WsRankCall));
  return self;
}

/**
 * ws_rank_figures_copy:
 *
 * Returns: (transfer full): a copy of @self that can be changed while
 * others read @self
 */
WsRankFigures *
ws_rank_figures_copy (const WsRankFigures *self)
{
  WsRankFigures *copy = ws_rank_figures_new ();

  g_return_val_if_fail (self != NULL, copy);

  copy->rank = self->rank;
  copy->file = g_strdup (self->file);
  copy->process = g_strdup (self->process);
  copy->offset = self->offset;
  copy->gpu_time = self->gpu_time;
  copy->kernel_time = self->kernel_time;
  copy->comm_time = self->comm_time;
  copy->overlap_time = self->overlap_time;
  copy->wait_time = self->wait_time;
  copy->idle_time = self->idle_time;
  copy->wait_source = self->wait_source;
  copy->step_pattern = g_strdup (self->step_pattern);
  g_array_append_vals (copy->steps, self->steps->data, self->steps->len);
  copy->n_steady = self->n_steady;
  copy->step_median = self->step_median;
  copy->wait_median = self->wait_median;
  copy->work_median = self->work_median;
  for (guint i = 0; i < self->ranges->len; i++)
    {
      WsRankRange range = g_array_index (self->ranges, WsRankRange, i);

      range.name = g_strdup (range.name);
      g_array_append_val (copy->ranges, range);
    }
  for (guint i = 0; i < self->collectives->len; i++)
    {
      WsRankCollective c = g_array_index (self->collectives, WsRankCollective, i);

      c.kind = g_strdup (c.kind);
      g_array_append_val (copy->collectives, c);
    }
  /* A call's kind is interned. */
  g_array_append_vals (copy->calls, self->calls->data, self->calls->len);
  return copy;
}

WsRankFigures *
ws_rank_figures_ref (WsRankFigures *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_rank_figures_unref (WsRankFigures *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->file);
  g_free (self->process);
  g_free (self->step_pattern);
  g_array_unref (self->steps);
  g_free (self->by_number);
  g_array_unref (self->ranges);
  g_array_unref (self->collectives);
  g_array_unref (self->calls);
  g_free (self);
}

static int
compare_by_number (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsRankStep *steps = data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  if (steps[x].number != steps[y].number)
    return steps[x].number < steps[y].number ? -1 : 1;
  return (x > y) - (x < y);
}

/* The step numbered @number (the first to start, if several are), or
 * %NULL.  Callers ask for every step of every rank: a binary search over
 * the steps ordered by number, made once, keeps that n log n. */
const WsRankStep *
ws_rank_figures_find_step (const WsRankFigures *self, guint number)
{
  const WsRankStep *steps;
  guint lo = 0, hi;

  g_return_val_if_fail (self != NULL, NULL);

  steps = (const WsRankStep *) (gpointer) self->steps->data;
  hi = self->steps->len;
  if (g_once_init_enter (&((WsRankFigures *) self)->by_number_made))
    {
      guint32 *order = g_new (guint32, MAX (hi, 1));

      for (guint i = 0; i < hi; i++)
        order[i] = i;
      g_qsort_with_data (order, (gint) hi, sizeof (guint32), compare_by_number, (gpointer) steps);
      ((WsRankFigures *) self)->by_number = order;
      g_once_init_leave (&((WsRankFigures *) self)->by_number_made, 1);
    }
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (steps[self->by_number[mid]].number < number)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < self->steps->len && steps[self->by_number[lo]].number == number)
    return &steps[self->by_number[lo]];
  return NULL;
}
