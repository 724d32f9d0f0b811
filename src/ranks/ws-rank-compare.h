/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-comparison.h"
#include "ws-rank-figures.h"

G_BEGIN_DECLS

/* Comparisons that ranks bring: two ranks of one run side by side as
 * peers (neither is "before"), and two jobs rank by rank. */

/* One rank in two jobs. */
typedef struct
{
  guint rank;
  const WsRankFigures *before; /* NULL where the first job has no such rank */
  const WsRankFigures *after;
} WsRankPair;

char *ws_rank_compare_peer_headline (const WsComparison *cmp, const char *a, const char *b);
GArray *ws_rank_compare_pairs (const WsRun *before, const WsRun *after);

G_END_DECLS
