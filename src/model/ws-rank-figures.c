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
  return self;
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
  g_array_unref (self->ranges);
  g_array_unref (self->collectives);
  g_free (self);
}

/* The step numbered @number, or %NULL. */
const WsRankStep *
ws_rank_figures_find_step (const WsRankFigures *self, guint number)
{
  for (guint i = 0; i < self->steps->len; i++)
    if (g_array_index (self->steps, WsRankStep, i).number == number)
      return &g_array_index (self->steps, WsRankStep, i);
  return NULL;
}
