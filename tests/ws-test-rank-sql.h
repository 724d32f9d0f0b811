/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One rank's figures worked out by SQL over its own nsys export, after the
 * definitions that ws-rank-figures.h states, without any code of ours. */
typedef struct
{
  gint64 gpu_time;    /* ns: union of its kernels, copies and sets */
  gint64 kernel_time; /* ns: sum of its kernels */
  gint64 idle_time;   /* ns: first GPU start to last GPU end, less gpu_time */
  gint64 wait_time;   /* ns: blocking OS calls of each step's thread in the step */
  double step_median; /* ns: median wall of the steady steps (of an even count, the
                       * mean of the middle two) */
  guint n_steps;
  gboolean *steady; /* per step: neither the first nor over twice the others' median */
  gint64 *wall;     /* ns per step */
  gint64 *work;     /* ns per step: wall less waiting less CUDA syncs, at least 0 */
  gint64 *wait;     /* ns per step: blocking OS calls of its thread in the step */
} WsTestRankSql;

void ws_test_rank_sql (const char *db, WsTestRankSql *out);
void ws_test_rank_sql_clear (WsTestRankSql *rank);
gint64 ws_test_median (const gint64 *values, guint n);
double ws_test_median_exact (const gint64 *values, guint n);
void ws_test_straggler_sql (const WsTestRankSql *ranks, guint n, guint who, gint64 *late,
                            gint64 *lost);

G_END_DECLS
