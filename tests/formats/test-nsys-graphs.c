/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "ws-nsys-kernel-identity.h"
#include "ws-run.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* CUDA graph replays read from real exports (docs/cuda-graphs.md), against
 * SQL written here over the same files: the decode loop of
 * tests/device/graph_probe.py captured on an H200 with nsys 2025.3.2, once
 * with --cuda-graph-trace=graph (graph/…) and once with node (node/…). */

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

/* Rows of two integer columns, in the order the query gives. */
static GArray *
sql_pairs (const char *path, const char *query)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    for (int c = 0; c < 2; c++)
      {
        gint64 v = sqlite3_column_int64 (stmt, c);

        g_array_append_val (rows, v);
      }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return rows;
}

static gint64
sql_int (const char *path, const char *query)
{
  g_autofree char *text = ws_test_sqlite_text (path, query);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* Graph tracing: each row of CUPTI_ACTIVITY_KIND_GRAPH_TRACE is a replay,
 * with its span, stream and graph; its kernels are in no table. */
static void
test_graph_trace_rows (void)
{
  static const char *const targets[] = { "decode_graph", "decode_compile", "decode_recapture" };

  for (gsize t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autofree char *path = export_of ("graph", targets[t]);
      g_autoptr (WsRun) run = load (path);
      g_autoptr (GArray) rows = sql_pairs (
        path, "SELECT start, end FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY start, end DESC");
      g_autoptr (GArray) ids =
        sql_pairs (path, "SELECT graphExecId, streamId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE "
                         "ORDER BY start, end DESC");

      g_assert_true (run->has_graph_trace);
      g_assert_cmpuint (run->replays.n, ==, rows->len / 2);
      for (gsize i = 0; i < run->replays.n; i++)
        {
          g_assert_cmpint (run->replays.start[i], ==, g_array_index (rows, gint64, 2 * i));
          g_assert_cmpint (run->replays.end[i], ==, g_array_index (rows, gint64, 2 * i + 1));
          g_assert_cmpint (run->replays.graph[i], ==, g_array_index (ids, gint64, 2 * i));
          g_assert_cmpint (ws_run_replay_stream (run, i)->stream_id, ==,
                           g_array_index (ids, gint64, 2 * i + 1));
          g_assert_cmpuint (run->replays.nodes[i], ==, 0);
        }
      /* No kernel of the table ran inside a replay. */
      g_assert_null (run->kernels.replay);
    }
}

/* Node tracing: the kernels of one cudaGraphLaunch (same process, same
 * correlation id, graphNodeId set) make one replay from the first one's
 * start to the last one's end; each names it. */
static void
test_node_trace_groups (void)
{
  static const char *const targets[] = { "decode_graph", "decode_compile", "decode_recapture" };

  for (gsize t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autofree char *path = export_of ("node", targets[t]);
      g_autoptr (WsRun) run = load (path);
      g_autoptr (GArray) rows =
        sql_pairs (path, "SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                         "WHERE graphNodeId IS NOT NULL GROUP BY globalPid, correlationId "
                         "ORDER BY 1, 2 DESC");
      g_autoptr (GArray) counts =
        sql_pairs (path, "SELECT count(*), graphNodeId >> 32 FROM CUPTI_ACTIVITY_KIND_KERNEL "
                         "WHERE graphNodeId IS NOT NULL GROUP BY globalPid, correlationId "
                         "ORDER BY min(start), max(end) DESC");
      gsize inside = 0;

      g_assert_false (run->has_graph_trace);
      g_assert_cmpuint (run->replays.n, ==, rows->len / 2);
      g_assert_cmpuint (run->replays.n, >, 0);
      for (gsize i = 0; i < run->replays.n; i++)
        {
          g_assert_cmpint (run->replays.start[i], ==, g_array_index (rows, gint64, 2 * i));
          g_assert_cmpint (run->replays.end[i], ==, g_array_index (rows, gint64, 2 * i + 1));
          g_assert_cmpint (run->replays.nodes[i], ==, g_array_index (counts, gint64, 2 * i));
          g_assert_cmpint (run->replays.graph[i], ==, g_array_index (counts, gint64, 2 * i + 1));
        }
      g_assert_nonnull (run->kernels.replay);
      for (gsize k = 0; k < run->kernels.n; k++)
        if (ws_run_kernel_in_graph (run, k))
          {
            guint32 r = run->kernels.replay[k];

            inside++;
            g_assert_cmpuint (run->kernels.correlation[k], ==, run->replays.correlation[r]);
            g_assert_cmpint (run->kernels.start[k], >=, run->replays.start[r]);
            g_assert_cmpint (run->kernels.end[k], <=, run->replays.end[r]);
          }
      g_assert_cmpint ((gint64) inside, ==,
                       sql_int (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                      "WHERE graphNodeId IS NOT NULL"));
    }
}

/* Both traces of one program name a replay's graph alike: graphNodeId's
 * upper half is the graphExecId of graph tracing. */
static void
test_graph_ids_agree (void)
{
  g_autofree char *node_path = export_of ("node", "decode_compile");
  g_autofree char *graph_path = export_of ("graph", "decode_compile");
  g_autoptr (WsRun) node = load (node_path);
  g_autoptr (WsRun) graph = load (graph_path);
  g_autofree char *graph_ids = ws_test_sqlite_text (
    graph_path, "SELECT group_concat(id) FROM (SELECT DISTINCT graphExecId AS id FROM "
                "CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY 1)");
  g_autoptr (GString) node_ids = g_string_new (NULL);
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; i < node->replays.n; i++)
    if (g_hash_table_add (seen, GUINT_TO_POINTER (node->replays.graph[i])))
      g_string_append_printf (node_ids, "%s%u", node_ids->len > 0 ? "," : "",
                              node->replays.graph[i]);
  g_assert_cmpstr (node_ids->str, ==, graph_ids);
  g_assert_cmpstr (graph_ids, ==, "5,8");
  g_assert_cmpuint (graph->replays.n, ==, node->replays.n);
}

/* nsys names the target `bash` (PROCESSES keeps the name from before the
 * exec); its main thread's name in ThreadNames is the program it became. */
static void
test_process_named_after_exec (void)
{
  g_autofree char *path = export_of ("node", "decode_compile");
  g_autoptr (WsRun) run = load (path);
  g_autofree char *listed = ws_test_sqlite_text (path, "SELECT name FROM PROCESSES WHERE pid = "
                                                       "(SELECT (globalPid >> 24) & 16777215 FROM "
                                                       "CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1)");
  g_autofree char *main_thread = ws_test_sqlite_text (
    path, "SELECT s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId WHERE "
          "t.globalTid = (SELECT (globalPid & ~16777215) | ((globalPid >> 24) & 16777215) FROM "
          "CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1)");
  gint64 gpu_pid =
    sql_int (path, "SELECT (globalPid >> 24) & 16777215 FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1");
  const WsProcess *first;

  g_assert_cmpstr (listed, ==, "bash");
  g_assert_cmpstr (main_thread, ==, "python3");
  g_assert_cmpuint (run->prov.processes->len, ==, 2);
  /* The process that ran every kernel comes first, named as it ran. */
  first = &g_array_index (run->prov.processes, WsProcess, 0);
  g_assert_cmpint (first->pid, ==, gpu_pid);
  g_assert_cmpstr (first->name, ==, main_thread);
  g_assert_cmpstr (ws_run_process_name (run, (guint32) gpu_pid), ==, "python3");
}

/* The launcher's default (node tracing) puts kernels of replays in the
 * kernel summary, so ncu's top N holds them: each capture's run.json
 * names the kernels picked, and SQL says which ran inside a graph. */
static void
test_top_n_inside_graphs (void)
{
  static const char *const targets[] = { "decode_graph", "decode_compile" };

  for (gsize t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autofree char *json = g_build_filename (capture_dir, "node", targets[t], "run.json", NULL);
      g_autofree char *text = ws_test_read (json);
      g_autofree char *path = export_of ("node", targets[t]);
      g_autofree char *top = ws_test_sqlite_text (
        path, "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
              "s.id = k.demangledName WHERE k.graphNodeId IS NOT NULL GROUP BY k.demangledName "
              "ORDER BY sum(k.end - k.start) DESC LIMIT 1");
      g_autofree char *quoted = NULL;

      g_assert_nonnull (top);
      /* json-glib writes names with their quotes escaped, not their other
       * characters: the name as it stands is in the file. */
      quoted = g_strdup_printf ("\"%s\"", top);
      g_assert_nonnull (strstr (text, "--graph-profiling"));
      g_assert_nonnull (strstr (text, quoted));
    }
}

/* Step 4's lookup: how many launches of a kernel came before its first
 * one inside a graph, which ncu skips (--launch-skip). */
static void
test_launches_before_first_replay (void)
{
  g_autofree char *path = export_of ("node", "decode_compile");
  const char *names[] = { "nvjet_sm90_hsh_64x8_64x16_4x1_v_bz_bias_TNT", NULL };
  char *mangled[2] = { NULL }, *grid[2] = { NULL }, *block[2] = { NULL };
  guint skip[2] = { 0 };
  g_autoptr (GError) error = NULL;
  gint64 expected = sql_int (
    path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
          "k.demangledName WHERE s.value = 'nvjet_sm90_hsh_64x8_64x16_4x1_v_bz_bias_TNT' AND "
          "k.start < (SELECT min(g.start) FROM CUPTI_ACTIVITY_KIND_KERNEL g JOIN StringIds t ON "
          "t.id = g.demangledName WHERE t.value = 'nvjet_sm90_hsh_64x8_64x16_4x1_v_bz_bias_TNT' "
          "AND g.graphNodeId IS NOT NULL)");

  g_assert_true (ws_nsys_kernel_identities (path, 1, names, mangled, grid, block, skip, &error));
  g_assert_no_error (error);
  g_assert_cmpint (expected, ==, 24);
  g_assert_cmpint (skip[0], ==, expected);
  g_free (mangled[0]);
  g_free (grid[0]);
  g_free (block[0]);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  capture_dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_test_add_func ("/nsys-graphs/graph-trace/one-replay-per-row", test_graph_trace_rows);
  g_test_add_func ("/nsys-graphs/node-trace/kernels-of-one-launch", test_node_trace_groups);
  g_test_add_func ("/nsys-graphs/graph-ids/node-and-graph-agree", test_graph_ids_agree);
  g_test_add_func ("/nsys-graphs/process/named-after-exec", test_process_named_after_exec);
  g_test_add_func ("/nsys-graphs/launcher/top-n-inside-graphs", test_top_n_inside_graphs);
  g_test_add_func ("/nsys-graphs/launcher/skip-to-the-first-replay",
                   test_launches_before_first_replay);
  status = g_test_run ();
  ws_test_rmtree (capture_dir);
  g_free (capture_dir);
  return status;
}
