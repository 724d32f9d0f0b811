/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <sqlite3.h>

#include "ws-comparison.h"
#include "ws-format.h"
#include "ws-gpu-busy.h"
#include "ws-graphs.h"
#include "ws-steps.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* Busy time, idle and steps of real exports with CUDA graphs
 * (docs/cuda-graphs.md, "Busy"), against SQL written here: a GPU is busy
 * while a kernel, copy, set or graph replay runs; a replay spans its first
 * node's start to its last node's end. */

static char *capture_dir;

static char *
export_of (const char *mode, const char *target)
{
  g_autofree char *name = g_strconcat (target, ".sqlite", NULL);

  return g_build_filename (capture_dir, mode, target, "nsys", name, NULL);
}

static WsRun *
load (const char *path)
{
  const char *paths[] = { path, NULL };

  return ws_test_load_paths (paths);
}

/* The spans of the GPU work of an export, by SQL: kernels, copies, sets,
 * and the replays of either trace (GRAPH_TRACE rows, or each graph
 * launch's kernels from first to last). */
static const char *const work_sql_graph =
  "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
  "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL "
  "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET UNION ALL "
  "SELECT start, end FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY 1";
static const char *const work_sql_node =
  "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
  "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL "
  "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET UNION ALL "
  "SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL "
  "GROUP BY globalPid, correlationId ORDER BY 1";

/* The union of the rows' [start, end) as disjoint spans. */
static GArray *
union_of (const char *path, const char *query)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 s = sqlite3_column_int64 (stmt, 0), e = sqlite3_column_int64 (stmt, 1);

      if (e <= s)
        continue;
      if (spans->len > 0 && s <= g_array_index (spans, gint64, spans->len - 1))
        {
          gint64 *last = &g_array_index (spans, gint64, spans->len - 1);

          *last = MAX (*last, e);
          continue;
        }
      g_array_append_val (spans, s);
      g_array_append_val (spans, e);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return spans;
}

/* ns of @spans inside [from, to). */
static gint64
busy_between (GArray *spans, gint64 from, gint64 to)
{
  gint64 busy = 0;

  for (guint i = 0; i + 1 < spans->len; i += 2)
    {
      gint64 s = MAX (g_array_index (spans, gint64, i), from);
      gint64 e = MIN (g_array_index (spans, gint64, i + 1), to);

      if (e > s)
        busy += e - s;
    }
  return busy;
}

static void
check_busy (const char *mode, const char *target)
{
  g_autofree char *path = export_of (mode, target);
  g_autoptr (WsRun) run = load (path);
  g_autoptr (GArray) spans =
    union_of (path, g_str_equal (mode, "graph") ? work_sql_graph : work_sql_node);
  g_autoptr (WsBusyIndex) busy = ws_busy_index_new (run, WS_PID_ANY, WS_BUSY_ALL);
  gint64 first = 0, last = 0;

  g_assert_cmpint (ws_busy_index_total (busy), ==, busy_between (spans, G_MININT64, G_MAXINT64));
  g_assert_cmpuint (ws_busy_index_n_spans (busy), ==, spans->len / 2);
  g_assert_true (ws_busy_index_extent (busy, &first, &last));
  g_assert_cmpint (first, ==, g_array_index (spans, gint64, 0));
  g_assert_cmpint (last, ==, g_array_index (spans, gint64, spans->len - 1));
}

static void
test_busy_union (void)
{
  static const char *const targets[] = { "decode_graph", "decode_compile", "decode_recapture" };

  for (gsize t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      check_busy ("graph", targets[t]);
      check_busy ("node", targets[t]);
    }
  check_busy ("node", "decode_eager");
}

/* The bug this fixes: the graph loop looked idle 94% of its steady state,
 * every replay left out.  Its idle share is the SQL union's complement
 * over the steady steps, as the idle finding and the steps say it. */
static void
test_steady_idle (void)
{
  g_autofree char *path = export_of ("graph", "decode_graph");
  g_autoptr (WsRun) run = load (path);
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
  g_autoptr (GArray) spans = union_of (path, work_sql_graph);
  gint64 wall = 0, busy = 0, sql_busy = 0;

  g_assert_cmpuint (steps->steps->len, ==, 40);
  g_assert_cmpuint (steps->n_steady, ==, 39);
  for (guint i = 0; i < steps->steps->len; i++)
    {
      const WsStep *s = &g_array_index (steps->steps, WsStep, i);
      gint64 expected = busy_between (spans, s->start, s->end);

      g_assert_cmpint (s->gpu_busy, ==, expected);
      g_assert_cmpint (s->idle, ==, s->wall - expected);
      if (s->warmup)
        continue;
      wall += s->wall;
      busy += s->gpu_busy;
      sql_busy += expected;
    }
  g_assert_cmpint (busy, ==, sql_busy);
  /* Most of each steady step is the replay: far from idle. */
  g_assert_cmpfloat (100.0 * (double) (wall - busy) / (double) wall, <, 25.0);
}

/* A step's launches: one per launch call of GPU work, a replay counting
 * once; its GPU time launched: a replay's span.  Both traces agree. */
static void
test_step_launches (void)
{
  static const char *const modes[] = { "graph", "node" };

  for (gsize m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autofree char *path = export_of (modes[m], "decode_graph");
      g_autoptr (WsRun) run = load (path);
      g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
      /* Per step, by SQL: launch calls (runtime rows with GPU work by
       * correlation) that started inside it. */
      g_autofree char *query = g_strdup_printf (
        "SELECT count(DISTINCT r.correlationId) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
        "JOIN NVTX_EVENTS n ON n.text = 'decode 5' AND r.start >= n.start AND r.start <= n.end "
        "WHERE r.correlationId IN (SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL%s)",
        g_str_equal (modes[m], "graph")
          ? " UNION SELECT correlationId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE"
          : "");
      g_autofree char *expected = ws_test_sqlite_text (path, query);
      const WsStep *step5 = &g_array_index (steps->steps, WsStep, 5);

      g_assert_cmpuint (step5->number, ==, 5);
      g_assert_cmpint ((gint64) step5->launches, ==, g_ascii_strtoll (expected, NULL, 10));
    }
}

/* What the pages say of a run's graphs, from SQL. */
static void
test_graph_summary (void)
{
  g_autofree char *graph_path = export_of ("graph", "decode_graph");
  g_autofree char *node_path = export_of ("node", "decode_graph");
  g_autoptr (WsRun) graph = load (graph_path);
  g_autoptr (WsRun) node = load (node_path);
  g_autofree char *rows =
    ws_test_sqlite_text (graph_path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
  g_autofree char *spans = ws_test_sqlite_text (
    graph_path, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
  g_autofree char *inside = ws_test_sqlite_text (
    node_path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL");
  g_autofree char *hulls =
    ws_test_sqlite_text (node_path, "SELECT sum(m) FROM (SELECT max(end) - min(start) AS m FROM "
                                    "CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL "
                                    "GROUP BY globalPid, correlationId)");
  g_autofree char *note = NULL, *line = NULL, *hull_time = NULL, *expected = NULL;
  WsGraphSummary g, n;

  ws_graph_summary_compute (graph, &g);
  ws_graph_summary_compute (node, &n);
  g_assert_cmpint (g.replays, ==, g_ascii_strtoll (rows, NULL, 10));
  g_assert_cmpint (g.traced_whole, ==, g.replays);
  g_assert_cmpint (g.traced_whole_ns, ==, g_ascii_strtoll (spans, NULL, 10));
  g_assert_cmpuint (g.graphs, ==, 1);
  g_assert_cmpuint (n.traced_whole, ==, 0);
  g_assert_cmpint ((gint64) n.kernels_inside, ==, g_ascii_strtoll (inside, NULL, 10));
  note = ws_graph_summary_stats_note (&g);
  g_assert_nonnull (g_strstr_len (note, -1, "40 CUDA graph replays"));
  g_assert_null (ws_graph_summary_stats_note (&n));
  g_assert_cmpint (n.replay_ns, ==, g_ascii_strtoll (hulls, NULL, 10));
  line = ws_graph_summary_describe (&n);
  hull_time = ws_format_duration ((double) g_ascii_strtoll (hulls, NULL, 10));
  expected = g_strdup_printf ("%s CUDA graph replays of 1 graph, %s on the GPU; 3,640 kernels ran "
                              "inside them",
                              rows, hull_time);
  g_assert_cmpstr (inside, ==, "3640");
  g_assert_cmpstr (line, ==, expected);
}

/* compare counts a replay traced whole as GPU time and one launch, and
 * its busy share is the busy definition's: eager against graph replays. */
static void
test_compare_counts_replays (void)
{
  g_autofree char *before_path = export_of ("node", "decode_eager");
  g_autofree char *after_path = export_of ("graph", "decode_graph");
  g_autoptr (WsRun) before = load (before_path);
  g_autoptr (WsRun) after = load (after_path);
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_DEMANGLED);
  g_autoptr (GArray) spans = union_of (after_path, work_sql_graph);
  g_autofree char *kernel_ns =
    ws_test_sqlite_text (after_path, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  g_autofree char *replay_ns = ws_test_sqlite_text (
    after_path, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
  g_autofree char *launches =
    ws_test_sqlite_text (after_path, "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) + "
                                     "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE)");

  g_assert_cmpfloat (
    cmp->gpu_time.after, ==,
    (double) (g_ascii_strtoll (kernel_ns, NULL, 10) + g_ascii_strtoll (replay_ns, NULL, 10)));
  g_assert_cmpfloat (cmp->launches.after, ==, (double) g_ascii_strtoll (launches, NULL, 10));
  g_assert_cmpfloat_with_epsilon (cmp->busy_share.after,
                                  100.0 * (double) busy_between (spans, G_MININT64, G_MAXINT64) /
                                    (double) (after->end_time - after->origin),
                                  1e-9);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  capture_dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_test_add_func ("/graph-busy/union-of-kernels-copies-sets-replays", test_busy_union);
  g_test_add_func ("/graph-busy/steady-idle-counts-replays", test_steady_idle);
  g_test_add_func ("/graph-busy/steps/a-replay-is-one-launch", test_step_launches);
  g_test_add_func ("/graph-busy/summary/what-the-pages-say", test_graph_summary);
  g_test_add_func ("/graph-busy/compare/counts-replays", test_compare_counts_replays);
  status = g_test_run ();
  ws_test_rmtree (capture_dir);
  g_free (capture_dir);
  return status;
}
