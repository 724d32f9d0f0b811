/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "ws-test-rank-sql.h"

/* The blocking OS runtime calls and the CUDA calls that wait for the GPU,
 * written out here rather than taken from ws-rank-measure.c. */
#define WAIT_NAMES                                                                                 \
  "'poll','ppoll','select','pselect','pselect6','epoll_wait','epoll_pwait','recv','recvfrom',"     \
  "'recvmsg','recvmmsg','accept','accept4','pthread_cond_wait','pthread_cond_timedwait',"          \
  "'pthread_cond_clockwait','pthread_barrier_wait','pthread_join','sem_wait','sem_timedwait',"     \
  "'sem_clockwait','futex','nanosleep','clock_nanosleep','usleep','sleep'"
#define SYNC_LIKE(col)                                                                             \
  "(" col " LIKE 'cudaDeviceSynchronize%' OR " col " LIKE 'cudaStreamSynchronize%' OR " col        \
  " LIKE 'cudaEventSynchronize%' OR " col " LIKE 'cudaThreadSynchronize%' OR " col                 \
  " LIKE 'cuCtxSynchronize%' OR " col " LIKE 'cuStreamSynchronize%' OR " col                       \
  " LIKE 'cuEventSynchronize%')"

/* Every span of GPU activity of the export. */
#define GPU_SPANS                                                                                  \
  "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end FROM "            \
  "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET"

static gint64
one_int (sqlite3 *db, const char *sql, const gint64 *binds, guint n_binds)
{
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  for (guint i = 0; i < n_binds; i++)
    sqlite3_bind_int64 (stmt, (int) i + 1, binds[i]);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return value;
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The median of @n values; of an even count, the mean of the middle two. */
double
ws_test_median_exact (const gint64 *values, guint n)
{
  g_autofree gint64 *v = g_memdup2 (values, sizeof (gint64) * n);

  g_assert_cmpuint (n, >, 0);
  qsort (v, n, sizeof (gint64), compare_i64);
  return n % 2 == 1 ? (double) v[n / 2] : ((double) v[n / 2 - 1] + (double) v[n / 2]) / 2;
}

/* The same in whole ns, a half rounded away from zero. */
gint64
ws_test_median (const gint64 *values, guint n)
{
  return (gint64) llround (ws_test_median_exact (values, n));
}

void
ws_test_rank_sql (const char *path, WsTestRankSql *out)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *steps = NULL;
  g_autoptr (GArray) walls = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) works = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) waits = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 span;

  memset (out, 0, sizeof *out);
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);

  /* The union of the spans: sorted by start, each adds what it reaches past
   * the furthest end before it. */
  out->gpu_time = one_int (
    db,
    "WITH s AS (" GPU_SPANS "), o AS (SELECT start, end, max(end) OVER (ORDER BY start, end ROWS "
    "BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach FROM s) SELECT coalesce(sum(max(0, "
    "end - max(start, coalesce(reach, start)))), 0) FROM o",
    NULL, 0);
  out->kernel_time =
    one_int (db, "SELECT coalesce(sum(end - start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL", NULL, 0);
  span = one_int (db, "SELECT coalesce(max(end) - min(start), 0) FROM (" GPU_SPANS ")", NULL, 0);
  out->idle_time = span > 0 ? span - out->gpu_time : 0;

  /* The steps: NVTX ranges "step N" in time order, each on its own thread;
   * a call counts in a step when it starts inside it, up to the step's
   * end. */
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "SELECT n.start, n.end, n.globalTid FROM NVTX_EVENTS n LEFT "
                                       "JOIN StringIds s ON s.id = n.textId WHERE "
                                       "coalesce(n.text, s.value) GLOB 'step [0-9]*' ORDER BY "
                                       "n.start",
                                       -1, &steps, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (steps) == SQLITE_ROW)
    {
      gint64 a = sqlite3_column_int64 (steps, 0), b = sqlite3_column_int64 (steps, 1);
      gint64 tid = sqlite3_column_int64 (steps, 2);
      gint64 binds[] = { b, tid, a, b };
      gint64 wait = one_int (db,
                             "SELECT coalesce(sum(min(o.end, ?1) - o.start), 0) FROM OSRT_API o "
                             "JOIN StringIds n ON n.id = o.nameId WHERE o.globalTid = ?2 AND "
                             "o.start >= ?3 AND o.start < ?4 AND n.value IN (" WAIT_NAMES ")",
                             binds, 4);
      gint64 sync = one_int (db,
                             "SELECT coalesce(sum(min(r.end, ?1) - r.start), 0) FROM "
                             "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds n ON n.id = r.nameId "
                             "WHERE r.globalTid = ?2 AND r.start >= ?3 AND r.start < ?4 "
                             "AND " SYNC_LIKE ("n.value"),
                             binds, 4);
      gint64 wall = b - a;
      gint64 work = MAX (0, wall - wait - sync);

      out->wait_time += wait;
      g_array_append_val (walls, wall);
      g_array_append_val (works, work);
      g_array_append_val (waits, wait);
    }
  sqlite3_finalize (steps);
  sqlite3_close (db);

  out->n_steps = walls->len;
  out->steady = g_new0 (gboolean, MAX (walls->len, 1));
  /* The warm-up (docs/NOTES.md, "The warm-up rule"): the first step, and
   * any other that took over twice the median wall of the others, the
   * first and itself left out (of an even count, the mean of the middle
   * two, unrounded); the rest are steady. */
  if (walls->len > 1)
    {
      const gint64 *w = (const gint64 *) (gconstpointer) walls->data;
      g_autofree gint64 *kept = g_new (gint64, walls->len);
      g_autofree gint64 *others = g_new (gint64, walls->len);
      guint n_kept = 0;

      for (guint s = 1; s < walls->len; s++)
        {
          guint k = 0;

          for (guint o = 1; o < walls->len; o++)
            if (o != s)
              others[k++] = w[o];
          if (k == 0 || (double) w[s] <= 2 * ws_test_median_exact (others, k))
            {
              out->steady[s] = TRUE;
              kept[n_kept++] = w[s];
            }
        }
      if (n_kept > 0)
        out->step_median = ws_test_median_exact (kept, n_kept);
    }
  out->wall = (gint64 *) (gpointer) g_array_free (g_steal_pointer (&walls), FALSE);
  out->work = (gint64 *) (gpointer) g_array_free (g_steal_pointer (&works), FALSE);
  out->wait = (gint64 *) (gpointer) g_array_free (g_steal_pointer (&waits), FALSE);
}

void
ws_test_rank_sql_clear (WsTestRankSql *rank)
{
  g_clear_pointer (&rank->steady, g_free);
  g_clear_pointer (&rank->wall, g_free);
  g_clear_pointer (&rank->work, g_free);
  g_clear_pointer (&rank->wait, g_free);
}

/* The straggler @who's lateness and the others' loss (docs/NOTES.md, "What
 * a straggler costs"): over the steps steady on every rank, the median of
 * its work less the others' median work, and the median of the sum over
 * the other ranks of their waiting in the step, each up to that lateness. */
void
ws_test_straggler_sql (const WsTestRankSql *ranks, guint n, guint who, gint64 *late, gint64 *lost)
{
  guint n_steps = ranks[who].n_steps;
  g_autofree gint64 *lates = g_new (gint64, n_steps);
  g_autofree gint64 *losts = g_new (gint64, n_steps);
  g_autofree gint64 *others = g_new (gint64, n);
  guint n_steady = 0;

  for (guint s = 0; s < n_steps; s++)
    {
      gint64 mine = ranks[who].work[s], sum = 0;
      gboolean steady = TRUE;
      guint k = 0;

      for (guint r = 0; r < n; r++)
        {
          g_assert_cmpuint (ranks[r].n_steps, ==, n_steps);
          steady = steady && ranks[r].steady[s];
        }
      if (!steady)
        continue;
      for (guint r = 0; r < n; r++)
        if (r != who)
          {
            others[k++] = ranks[r].work[s];
          }
      lates[n_steady] = mine - ws_test_median (others, k);
      for (guint r = 0; r < n; r++)
        if (r != who)
          sum += MIN (ranks[r].wait[s], MAX (lates[n_steady], 0));
      losts[n_steady++] = sum;
    }
  g_assert_cmpuint (n_steady, >, 0);
  *late = ws_test_median (lates, n_steady);
  *lost = ws_test_median (losts, n_steady);
}
