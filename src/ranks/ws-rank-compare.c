/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-rank-compare"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-rank-compare.h"
#include "ws-ranks.h"

/**
 * ws_rank_compare_peer_headline:
 * @cmp: a comparison of rank @a (its "before" side) with rank @b
 * @a: "rank 0"
 * @b: "rank 3"
 *
 * Two ranks of one job do the same work at the same time: neither is
 * faster "after".  The sentence says which spends more GPU time, by how
 * much, and in which kernel most of the difference is.
 *
 * Returns: (transfer full): "rank 3 vs rank 0: rank 3's kernels take
 * 22.4 ms more (1.71×), 43% of it in gemm"
 */
char *
ws_rank_compare_peer_headline (const WsComparison *cmp, const char *a, const char *b)
{
  double ta = cmp->gpu_time.before, tb = cmp->gpu_time.after, delta;
  const char *more = b, *less = a;
  const WsDelta *top = NULL;
  g_autofree char *change = NULL, *factor = NULL, *share = NULL;

  g_return_val_if_fail (cmp != NULL && a != NULL && b != NULL, NULL);

  if (isnan (ta) || isnan (tb) || ta <= 0 || tb <= 0)
    /* TRANSLATORS: two ranks, e.g. "rank 0 vs rank 3" */
    return g_strdup_printf (_ ("%s vs %s: one of them ran no kernel"), a, b);
  delta = tb - ta;
  if (delta < 0)
    {
      more = a;
      less = b;
    }
  if (fabs (delta) < MIN (ta, tb) * 0.01)
    {
      g_autofree char *pct = ws_format_fixed_string (100.0 * delta / ta, 1);

      return g_strdup_printf (_ ("%s vs %s: their kernels take about the same time (%s%%)"), a, b,
                              pct);
    }
  for (guint i = 0; i < cmp->kernels->len && top == NULL; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);

      if ((delta < 0 && d->delta < 0) || (delta > 0 && d->delta > 0))
        top = d;
    }
  change = ws_format_duration (fabs (delta));
  factor = ws_format_fixed_string (MAX (ta, tb) / MIN (ta, tb), 2);
  if (top == NULL)
    return g_strdup_printf (_ ("%s vs %s: %s's kernels take %s more (%s×)"), a, b, more, change,
                            factor);
  share = ws_format_fixed_string (100.0 * (double) top->delta / delta, 0);
  /* TRANSLATORS: "rank 0 vs rank 3: rank 3's kernels take 22.4 ms more (1.71×) than rank 0's,
   * 43% of it in gemm" */
  return g_strdup_printf (_ ("%s vs %s: %s's kernels take %s more (%s×) than %s's, %s%% of it "
                             "in %s"),
                          a, b, more, change, factor, less, share, top->key);
}

static int
compare_pairs (gconstpointer x, gconstpointer y)
{
  const WsRankPair *a = x, *b = y;

  return a->rank < b->rank ? -1 : a->rank > b->rank;
}

static void
add_side (GArray *pairs, const WsRanks *ranks, gboolean after)
{
  for (guint i = 0; ranks != NULL && i < ws_ranks_get_n (ranks); i++)
    {
      const WsRankFigures *f =
        i < ranks->figures->len ? g_ptr_array_index (ranks->figures, i) : NULL;
      guint number = ws_ranks_get (ranks, i)->rank;
      WsRankPair *pair = NULL;

      for (guint p = 0; p < pairs->len && pair == NULL; p++)
        if (g_array_index (pairs, WsRankPair, p).rank == number)
          pair = &g_array_index (pairs, WsRankPair, p);
      if (pair == NULL)
        {
          WsRankPair fresh = { number, NULL, NULL };

          g_array_append_val (pairs, fresh);
          pair = &g_array_index (pairs, WsRankPair, pairs->len - 1);
        }
      if (after)
        pair->after = f;
      else
        pair->before = f;
    }
}

/**
 * ws_rank_compare_pairs:
 *
 * Two jobs rank by rank: each rank number of either, with its figures on
 * each side (they stay owned by the runs).
 *
 * Returns: (transfer full) (element-type WsRankPair): by rank number;
 * empty when either run is not a job of several ranks
 */
GArray *
ws_rank_compare_pairs (const WsRun *before, const WsRun *after)
{
  GArray *pairs = g_array_new (FALSE, TRUE, sizeof (WsRankPair));

  if (before->ranks == NULL || after->ranks == NULL || ws_ranks_get_n (before->ranks) < 2 ||
      ws_ranks_get_n (after->ranks) < 2)
    return pairs;
  add_side (pairs, before->ranks, FALSE);
  add_side (pairs, after->ranks, TRUE);
  g_array_sort (pairs, compare_pairs);
  return pairs;
}
