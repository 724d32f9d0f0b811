/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-series"
#include "config.h"

#include "ws-series.h"
#include "ws-sort.h"

static void
summarize_blocks (WsSeries *self)
{
  double sum = 0;

  self->n_blocks = (self->n + WS_SERIES_BLOCK - 1) / WS_SERIES_BLOCK;
  self->block_max = g_new (float, MAX (self->n_blocks, 1));
  self->block_sum = g_new (double, self->n_blocks + 1);
  self->max = 0;
  for (gsize b = 0; b < self->n_blocks; b++)
    {
      gsize lo = b * WS_SERIES_BLOCK, hi = MIN (lo + WS_SERIES_BLOCK, self->n);
      float m = self->value[lo];

      self->block_sum[b] = sum;
      for (gsize i = lo; i < hi; i++)
        {
          m = MAX (m, self->value[i]);
          sum += self->value[i];
        }
      self->block_max[b] = m;
      self->max = b == 0 ? m : MAX (self->max, m);
    }
  self->block_sum[self->n_blocks] = sum;
}

/* A series over samples it does not own (they live in the run). */
void
ws_series_init (WsSeries *self, const gint64 *time, const float *value, gsize n)
{
  *self = (WsSeries){ 0 };
  self->time = time;
  self->value = value;
  self->n = n;
  summarize_blocks (self);
}

/* Takes ownership of @time and @value (g_malloc'ed). */
void
ws_series_init_owned (WsSeries *self, gint64 *time, float *value, gsize n)
{
  ws_series_init (self, time, value, n);
  self->own_time = time;
  self->own_value = value;
}

void
ws_series_clear (WsSeries *self)
{
  g_clear_pointer (&self->block_max, g_free);
  g_clear_pointer (&self->block_sum, g_free);
  g_clear_pointer (&self->own_time, g_free);
  g_clear_pointer (&self->own_value, g_free);
  *self = (WsSeries){ 0 };
}

gsize
ws_series_memory (const WsSeries *self)
{
  gsize bytes = self->n_blocks * (sizeof (float) + sizeof (double)) + sizeof (double);

  if (self->own_time != NULL)
    bytes += self->n * (sizeof (gint64) + sizeof (float));
  return bytes;
}

/* The first sample at or after @from taken at or after @time. */
gsize
ws_series_lower_bound (const WsSeries *self, gint64 time, gsize from)
{
  gsize lo = from, hi = self->n, step = 1;

  if (from >= self->n)
    return self->n;
  /* Gallop: columns are asked for from left to right. */
  while (lo + step < self->n && self->time[lo + step] < time)
    {
      lo += step;
      step *= 2;
    }
  hi = MIN (lo + step + 1, self->n);
  return ws_sort_lower_bound (self->time, lo, hi, time);
}

/**
 * ws_series_summarize:
 *
 * The mean and the largest of samples [@from, @to).  Returns %FALSE when
 * the range is empty.
 */
gboolean
ws_series_summarize (const WsSeries *self, gsize from, gsize to, double *mean, float *max)
{
  gsize b0, b1;
  double sum = 0;
  float m;

  to = MIN (to, self->n);
  if (from >= to)
    return FALSE;
  b0 = (from + WS_SERIES_BLOCK - 1) / WS_SERIES_BLOCK;
  b1 = to / WS_SERIES_BLOCK;
  m = self->value[from];
  if (b0 >= b1)
    {
      for (gsize i = from; i < to; i++)
        {
          sum += self->value[i];
          m = MAX (m, self->value[i]);
        }
    }
  else
    {
      sum = self->block_sum[b1] - self->block_sum[b0];
      for (gsize b = b0; b < b1; b++)
        m = MAX (m, self->block_max[b]);
      for (gsize i = from; i < b0 * WS_SERIES_BLOCK; i++)
        {
          sum += self->value[i];
          m = MAX (m, self->value[i]);
        }
      for (gsize i = b1 * WS_SERIES_BLOCK; i < to; i++)
        {
          sum += self->value[i];
          m = MAX (m, self->value[i]);
        }
    }
  if (mean != NULL)
    *mean = sum / (double) (to - from);
  if (max != NULL)
    *max = m;
  return TRUE;
}

/* The sample in effect at @time: the last one taken at or before it, or -1. */
gssize
ws_series_index_at (const WsSeries *self, gint64 time)
{
  gsize i = ws_series_lower_bound (self, time == G_MAXINT64 ? time : time + 1, 0);

  return (gssize) i - 1;
}
