/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-lanes"
#include "config.h"

#include "ws-lanes-align.h"
#include "ws-ranks.h"

/* A job's ranks side by side: each rank's lanes moved in time so that one
 * step starts at the same moment on every rank.  The clocks of several
 * exports agree only to a millisecond or so, and ranks drift apart over
 * a run; aligned on a step, what each rank does in it lines up. */

/**
 * ws_lanes_align_on_step:
 * @step: the step's number ("step 3" → 3)
 * @reference: (out) (optional): ns: where the step starts once aligned (on
 *   the first rank that has it)
 *
 * Returns: (transfer full) (nullable): ns per lane to add to its events'
 * times (0 for the lanes of no rank, and of ranks without that step), or
 * %NULL when no rank has step @step
 */
gint64 *
ws_lanes_align_on_step (const WsLanes *lanes, guint step, gint64 *reference)
{
  const WsRun *run = ws_lanes_get_run (lanes);
  const WsRanks *ranks = run->ranks;
  guint n_lanes = ws_lanes_get_n_lanes (lanes);
  g_autofree gint64 *starts = NULL;
  g_autofree gboolean *has = NULL;
  gint64 ref = 0;
  gboolean found = FALSE;
  gint64 *shifts;

  g_return_val_if_fail (lanes != NULL, NULL);

  if (ranks == NULL)
    return NULL;
  starts = g_new0 (gint64, MAX (ranks->ranks->len, 1));
  has = g_new0 (gboolean, MAX (ranks->ranks->len, 1));
  for (guint r = 0; r < ranks->ranks->len && r < ranks->figures->len; r++)
    {
      const WsRankFigures *f = g_ptr_array_index (ranks->figures, r);
      const WsRankStep *s = f != NULL ? ws_rank_figures_find_step (f, step) : NULL;

      if (s == NULL)
        continue;
      starts[r] = s->start + f->offset;
      has[r] = TRUE;
      if (!found)
        {
          ref = starts[r];
          found = TRUE;
        }
    }
  if (!found)
    return NULL;
  shifts = g_new0 (gint64, MAX (n_lanes, 1));
  for (guint l = 0; l < n_lanes; l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);
      gint index = lane->rank >= 0 ? ws_ranks_index_of (ranks, (guint) lane->rank) : -1;

      if (index >= 0 && has[index])
        shifts[l] = ref - starts[index];
    }
  if (reference != NULL)
    *reference = ref;
  return shifts;
}

/* The group lane of the rank whose process is @pid, or WS_LANE_NONE. */
guint32
ws_lanes_align_rank_group (const WsLanes *lanes, guint32 pid)
{
  for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);

      if (lane->kind == WS_LANE_GROUP && lane->group_kind == WS_GROUP_PROCESS && lane->pid == pid)
        return l;
    }
  return WS_LANE_NONE;
}
