/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "ws-palette.h"
#include "ws-ranks-chart.h"
#include "ws-ranks-loader.h"
#include "ws-ranks.h"
#include "ws-test-pixels.h"
#include "ws-test-rank-sql.h"
#include "ws-test-util.h"

/* The Ranks page's heatmap as the README describes it: cells coloured by
 * step time, GPU busy, waiting or own work (each value checked against SQL
 * over the rank's own export), warm-up steps hatched, the rank that
 * reached the synchronisation last in each step dotted, the straggler's
 * row framed (checked on the pixels drawn). The four DDP ranks of
 * tests/data/multirank. */

static char *tmp;
static char *rank_files[4];

/* What the DDP fixture's ranks wait in (gloo's collectives block the step
 * thread in these OS runtime calls), as the README lists them. */
static const char *const waits[] = {
  "poll",
  "ppoll",
  "select",
  "pselect",
  "pselect6",
  "epoll_wait",
  "epoll_pwait",
  "recv",
  "recvfrom",
  "recvmsg",
  "recvmmsg",
  "accept",
  "accept4",
  "pthread_cond_wait",
  "pthread_cond_timedwait",
  "pthread_cond_clockwait",
  "pthread_barrier_wait",
  "pthread_join",
  "sem_wait",
  "sem_timedwait",
  "sem_clockwait",
  "futex",
  "nanosleep",
  "clock_nanosleep",
  "usleep",
  "sleep",
};

static WsRun *
load_ddp (void)
{
  g_autofree char *dir = g_build_filename (tmp, "job", NULL);
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  WsRun *run;

  if (rank_files[0] == NULL)
    {
      g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
      for (guint r = 0; r < 4; r++)
        {
          g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

          rank_files[r] = ws_test_unxz (xz, dir);
        }
    }
  run = ws_ranks_loader_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (run->ranks);
  return run;
}

static gint64
sql_int (const char *db, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (db, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* The time with a kernel, copy or memset of process @pid running within
 * [s, e): each operation clipped to the window, ordered by start; a
 * running maximum of the ends tells what is new. */
static gint64
sql_busy (const char *db, guint32 pid, gint64 s, gint64 e)
{
  g_autofree char *sql = g_strdup_printf (
    "WITH ops AS ("
    "  SELECT max(start, %" G_GINT64_FORMAT ") AS a, min(end, %" G_GINT64_FORMAT ") AS b"
    "  FROM (SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL"
    "    UNION ALL SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY"
    "    UNION ALL SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET)"
    "  WHERE end > %" G_GINT64_FORMAT " AND start < %" G_GINT64_FORMAT
    "    AND ((globalPid >> 24) & 16777215) = %u),"
    " ordered AS ("
    "  SELECT a, b, max(b) OVER (ORDER BY a, b ROWS BETWEEN UNBOUNDED PRECEDING"
    "    AND 1 PRECEDING) AS prev FROM ops)"
    " SELECT coalesce(sum(CASE WHEN prev IS NULL OR a >= prev THEN b - a"
    "   WHEN b > prev THEN b - prev ELSE 0 END), 0) FROM ordered",
    s, e, s, e, pid);

  return sql_int (db, sql);
}

/* Blocking calls of @thread (a globalTid) starting within [s, e), each
 * cut at @e. */
static gint64
sql_waits (const char *db, gint64 tid, gint64 s, gint64 e)
{
  g_autoptr (GString) names = g_string_new (NULL);
  g_autofree char *sql = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (waits); i++)
    g_string_append_printf (names, "%s'%s'", i > 0 ? "," : "", waits[i]);
  sql = g_strdup_printf (
    "SELECT coalesce(sum(min(o.end, %" G_GINT64_FORMAT ") - o.start), 0) FROM OSRT_API o JOIN "
    "StringIds n ON n.id = o.nameId WHERE o.globalTid = %" G_GINT64_FORMAT
    " AND o.start >= %" G_GINT64_FORMAT " AND o.start < %" G_GINT64_FORMAT " AND n.value IN (%s)",
    e, tid, s, e, names->str);
  return sql_int (db, sql);
}

/* CUDA synchronisation calls of @thread starting within [s, e), cut at @e. */
static gint64
sql_syncs (const char *db, gint64 tid, gint64 s, gint64 e)
{
  g_autofree char *sql = g_strdup_printf (
    "SELECT coalesce(sum(min(r.end, %" G_GINT64_FORMAT ") - r.start), 0) FROM "
    "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds n ON n.id = r.nameId WHERE r.globalTid = "
    "%" G_GINT64_FORMAT " AND r.start >= %" G_GINT64_FORMAT " AND r.start < %" G_GINT64_FORMAT
    " AND (n.value LIKE 'cudaDeviceSynchronize%%' OR n.value LIKE 'cudaStreamSynchronize%%' OR "
    "n.value LIKE 'cudaEventSynchronize%%' OR n.value LIKE 'cudaThreadSynchronize%%')",
    e, tid, s, e);

  return sql_int (db, sql);
}

/* Every cell's step time, GPU busy share, waiting and own work against
 * SQL over the rank's export: the step's range "step N", the union of its
 * GPU operations, the step thread's blocking calls, and the wall time less
 * waiting and CUDA synchronisation. Step 0 is the one warm-up column. */
static void
test_values (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  g_autoptr (WsRanksChartModel) model = ws_ranks_chart_model_new (run->ranks, run->ranks->figures);

  g_assert_cmpuint (model->n_rows, ==, 4);
  g_assert_cmpuint (model->n_cols, ==, 12);
  for (guint r = 0; r < model->n_rows; r++)
    {
      const char *db = rank_files[model->ranks[r]];
      gint64 tid = sql_int (db, "SELECT n.globalTid FROM NVTX_EVENTS n LEFT JOIN StringIds t ON "
                                "t.id = n.textId WHERE n.eventType = 59 AND "
                                "coalesce(n.text, t.value) LIKE 'step %' LIMIT 1");
      guint32 pid = (guint32) ((tid >> 24) & 0xffffff);

      g_assert_cmpuint (model->ranks[r], ==, r);
      for (guint c = 0; c < model->n_cols; c++)
        {
          g_autofree char *where = g_strdup_printf (
            "FROM NVTX_EVENTS n LEFT JOIN StringIds t ON t.id = n.textId WHERE n.eventType = 59 "
            "AND coalesce(n.text, t.value) = 'step %u'",
            model->steps[c]);
          g_autofree char *q_start = g_strdup_printf ("SELECT n.start %s", where);
          g_autofree char *q_end = g_strdup_printf ("SELECT n.end %s", where);
          gint64 s = sql_int (db, q_start), e = sql_int (db, q_end);
          gint64 wait = sql_waits (db, tid, s, e);

          g_assert_cmpuint (model->steps[c], ==, c);
          g_assert_cmpfloat (ws_ranks_chart_model_value (model, WS_RANKS_METRIC_STEP_TIME, r, c),
                             ==, (double) (e - s));
          g_assert_cmpfloat_with_epsilon (
            ws_ranks_chart_model_value (model, WS_RANKS_METRIC_GPU_BUSY, r, c),
            100.0 * (double) sql_busy (db, pid, s, e) / (double) (e - s), 1e-9);
          g_assert_cmpfloat (ws_ranks_chart_model_value (model, WS_RANKS_METRIC_WAITING, r, c), ==,
                             (double) wait);
          g_assert_cmpfloat (ws_ranks_chart_model_value (model, WS_RANKS_METRIC_WORK, r, c), ==,
                             (double) MAX (0, (e - s) - wait - sql_syncs (db, tid, s, e)));
          g_assert_cmpint (model->warmup[c], ==, c == 0);
        }
    }
  /* Rank 3 is the straggler (its "extra work"): its row. */
  g_assert_cmpint (model->straggler, ==, 3);
}

static cairo_surface_t *
draw (const WsRanksChartModel *model, const WsPalette *palette, double width, double height)
{
  cairo_surface_t *surface =
    cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cairo_t *cr = cairo_create (surface);
  /* ws_ranks_chart_state_init() leaves @untitled as it finds it. */
  WsRanksChartState state = { 0 };

  ws_ranks_chart_state_init (&state);
  ws_ranks_chart_draw (cr, width, height, model, &state, palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static guint32
pixel (cairo_surface_t *surface, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  return *(const guint32 *) (data + y * stride + x * 4);
}

/* The number of distinct colours along row @y of the cell @rect, a pixel
 * in from its sides. */
static guint
colours_along (cairo_surface_t *surface, const cairo_rectangle_t *rect, int y)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (int x = (int) ceil (rect->x) + 1; x < (int) floor (rect->x + rect->width) - 1; x++)
    g_hash_table_add (seen, GUINT_TO_POINTER (pixel (surface, x, y)));
  return g_hash_table_size (seen);
}

/* Drawn small (no values in the cells): the warm-up column's cells are
 * hatched (several colours along a row near their top) where a steady
 * cell is one colour; the cell of the last rank of each step has a dot at
 * its centre, of another colour than its top; the straggler's row, and
 * only it, has the accent frame just left of its first cell. */
static void
test_pixels (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  g_autoptr (WsRanksChartModel) model = ws_ranks_chart_model_new (run->ranks, run->ranks->figures);
  WsPalette palette;
  double width = 480, height;
  cairo_surface_t *surface;
  WsRanksChartState state = { 0 };
  WsTestRankSql sql[G_N_ELEMENTS (rank_files)];
  g_autofree gint *last = NULL;
  guint dots = 0, n_steps;

  /* The rank that reached each step's synchronisation last: the one with
   * the most own work in the step (SQL over each rank's export; the first
   * of equals). */
  for (guint r = 0; r < G_N_ELEMENTS (rank_files); r++)
    ws_test_rank_sql (rank_files[r], &sql[r]);
  n_steps = sql[0].n_steps;
  last = g_new (gint, n_steps);
  for (guint s = 0; s < n_steps; s++)
    {
      last[s] = 0;
      for (guint r = 1; r < G_N_ELEMENTS (rank_files); r++)
        {
          g_assert_cmpuint (sql[r].n_steps, ==, n_steps);
          if (sql[r].work[s] > sql[last[s]].work[s])
            last[s] = (gint) r;
        }
    }
  g_assert_cmpuint (model->n_cols, ==, n_steps);

  ws_palette_init_light (&palette);
  ws_ranks_chart_state_init (&state);
  state.metric = WS_RANKS_METRIC_STEP_TIME;
  height = ceil (ws_ranks_chart_natural_height (model, width, FALSE, &palette));
  surface = draw (model, &palette, width, height);
  for (guint r = 0; r < model->n_rows; r++)
    {
      cairo_rectangle_t first;

      for (guint c = 0; c < model->n_cols; c++)
        {
          cairo_rectangle_t rect;
          int top, cx, cy;

          g_assert_true (
            ws_ranks_chart_cell_rect (width, height, model, &state, &palette, r, c, &rect));
          g_assert_cmpfloat (rect.width, >=, 12);
          g_assert_cmpfloat (rect.height, >=, 12);
          top = (int) ceil (rect.y) + 1;
          cx = (int) (rect.x + rect.width / 2);
          cy = (int) (rect.y + rect.height / 2);
          if (model->warmup[c])
            g_assert_cmpuint (colours_along (surface, &rect, top), >=, 2);
          else
            g_assert_cmpuint (colours_along (surface, &rect, top), ==, 1);
          g_assert_cmpuint (model->ranks[r], ==, r);
          g_assert_cmpuint (model->steps[c], ==, c);
          if (last[c] == (gint) r)
            {
              g_assert_cmpuint (pixel (surface, cx, cy), !=, pixel (surface, cx, top));
              dots++;
            }
          else if (!model->warmup[c])
            g_assert_cmpuint (pixel (surface, cx, cy), ==, pixel (surface, cx, top));
        }
      g_assert_true (
        ws_ranks_chart_cell_rect (width, height, model, &state, &palette, r, 0, &first));
      {
        int x = (int) floor (first.x) - 2, y = (int) (first.y + first.height / 2);
        gboolean framed = ws_test_pixel_is_color (surface, x, y, palette.accent) ||
                          ws_test_pixel_is_color (surface, x + 1, y, palette.accent);

        g_assert_cmpint (framed, ==, (gint) r == model->straggler);
      }
    }
  /* Every step has one dot, the warm-up step too: one per "step N" range. */
  g_assert_cmpuint (dots, ==, n_steps);
  cairo_surface_destroy (surface);
  for (guint r = 0; r < G_N_ELEMENTS (rank_files); r++)
    ws_test_rank_sql_clear (&sql[r]);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  g_test_add_func ("/promises-heatmap/ddp/values-against-sql", test_values);
  g_test_add_func ("/promises-heatmap/ddp/hatching-dots-and-frame", test_pixels);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  for (guint r = 0; r < 4; r++)
    g_free (rank_files[r]);
  return status;
}
