/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>

#include "ws-digest-rank.h"
#include "ws-findings.h"
#include "ws-steps.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* The findings on issue 39's CUDA graph captures (an 8-layer fp16 decode
 * loop on an H200, tests/device/graph_probe.py): a replay pays one launch,
 * the GPU is busy while a graph runs, a graph captured anew every step,
 * the host between replays.  Findings run on the steady steps, as
 * `diagnose` does.  Every figure is checked against SQL over the export
 * (or the trace's JSON read with json-glib), written here, never against
 * what our loader made of the file. */

/* tests/data/captures/h200_graphs_capture.tar.xz, unpacked once. */
static char *captures;

/* Work launched in [?1, ?2): placed at its launch call's start (its own
 * start where it has none), as the steady run places it. */
#define LAUNCHED(table)                                                                            \
  "SELECT g.start, g.end FROM " table " g LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "                \
  "ON r.correlationId = g.correlationId AND r.globalTid >> 24 = g.globalPid >> 24 "                \
  "WHERE coalesce(r.start, g.start) >= ?1 AND coalesce(r.start, g.start) < ?2"

/* The kernels launched in [?1, ?2), with their duration and their launch
 * call's; @where picks some. */
#define KERNELS_LAUNCHED(where)                                                                    \
  "SELECT k.end - k.start, r.end - r.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "                     \
  "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "                       \
  "AND r.globalTid >> 24 = k.globalPid >> 24 "                                                     \
  "WHERE r.start >= ?1 AND r.start < ?2 AND " where

#define SHORT "(k.end - k.start < 5000 OR k.end - k.start < r.end - r.start)"

/* The export of @target traced with --cuda-graph-trace=@mode. */
static char *
export_path (const char *mode, const char *target)
{
  g_autofree char *file = g_strconcat (target, ".sqlite", NULL);

  if (captures == NULL)
    captures = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  return g_build_filename (captures, mode, target, "nsys", file, NULL);
}

static WsRun *
load_export (const char *path)
{
  const char *paths[] = { path, NULL };

  return ws_test_load_paths (paths);
}

/* The rows of @sql, @columns integers each, one after the other; ?1 and
 * ?2 are @a and @b. */
static GArray *
sql_rows (const char *path, const char *sql, gint64 a, gint64 b, int columns)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  if (sqlite3_bind_parameter_count (stmt) >= 1)
    sqlite3_bind_int64 (stmt, 1, a);
  if (sqlite3_bind_parameter_count (stmt) >= 2)
    sqlite3_bind_int64 (stmt, 2, b);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    for (int c = 0; c < columns; c++)
      {
        gint64 v = sqlite3_column_int64 (stmt, c);

        g_array_append_val (out, v);
      }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return out;
}

static gint64
sql_int (const char *path, const char *sql, gint64 a, gint64 b)
{
  g_autoptr (GArray) rows = sql_rows (path, sql, a, b, 1);

  g_assert_cmpuint (rows->len, ==, 1);
  return g_array_index (rows, gint64, 0);
}

static gint64
row (GArray *rows, int columns, guint i, int c)
{
  return g_array_index (rows, gint64, i * columns + c);
}

static int
compare_int64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The median as the checks state it: the middle value, or the mean of the
 * two middle ones, rounded. */
static gint64
median (GArray *values)
{
  g_autoptr (GArray) v = g_array_copy (values);
  guint n = v->len;

  if (n == 0)
    return 0;
  g_array_sort (v, compare_int64);
  if (n % 2 == 1)
    return g_array_index (v, gint64, n / 2);
  return (g_array_index (v, gint64, n / 2 - 1) + g_array_index (v, gint64, n / 2) + 1) / 2;
}

/* Column @c of @columns-column @rows as values of their own. */
static GArray *
column (GArray *rows, int columns, int c)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < rows->len / columns; i++)
    {
      gint64 v = row (rows, columns, i, c);

      g_array_append_val (out, v);
    }
  return out;
}

static double
evidence (const WsFinding *finding, const char *key)
{
  const WsEvidence *found = ws_finding_get_evidence (finding, key);

  if (found == NULL)
    g_error ("%s: no evidence “%s”", finding->id, key);
  return found->value;
}

/* The steady run of @run and, in @from and @to, the span of its steady
 * steps as SQL reads the NVTX ranges of their numbers ("decode 1" to
 * "decode 39"; consecutive steady steps are one span). */
static WsRun *
steady (const char *path, const WsRun *run, gint64 *from, gint64 *to)
{
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
  g_autofree char *first = NULL, *last = NULL;
  guint a = G_MAXUINT, b = 0;

  g_assert_true (ws_steps_has_steady_state (steps));
  for (guint i = 0; i < steps->steps->len; i++)
    if (!g_array_index (steps->steps, WsStep, i).warmup)
      {
        a = MIN (a, g_array_index (steps->steps, WsStep, i).number);
        b = MAX (b, g_array_index (steps->steps, WsStep, i).number);
      }
  /* One span: every step from the first steady one on is steady. */
  g_assert_cmpuint (b - a + 1, ==, steps->n_steady);
  first = g_strdup_printf ("SELECT start FROM NVTX_EVENTS WHERE eventType = 59 "
                           "AND text = 'decode %u'",
                           a);
  last = g_strdup_printf ("SELECT end FROM NVTX_EVENTS WHERE eventType = 59 "
                          "AND text = 'decode %u'",
                          b);
  *from = sql_int (path, first, 0, 0);
  *to = sql_int (path, last, 0, 0);
  return ws_steps_steady_run (run, steps);
}

/* Sorted, disjoint intervals: the union of (start, end) @rows. */
static GArray *
union_of (GArray *rows)
{
  g_autoptr (GArray) pairs = g_array_copy (rows);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gint64));

  /* By start: the comparison reads each pair's first value. */
  qsort (pairs->data, pairs->len / 2, 2 * sizeof (gint64), compare_int64);
  for (guint i = 0; i < pairs->len / 2; i++)
    {
      gint64 s = row (pairs, 2, i, 0), e = row (pairs, 2, i, 1);

      if (out->len > 0 && s <= g_array_index (out, gint64, out->len - 1))
        g_array_index (out, gint64, out->len - 1) =
          MAX (g_array_index (out, gint64, out->len - 1), e);
      else
        {
          g_array_append_val (out, s);
          g_array_append_val (out, e);
        }
    }
  return out;
}

static gint64
busy_between (GArray *spans, gint64 from, gint64 to)
{
  gint64 busy = 0;

  for (guint i = 0; i < spans->len / 2; i++)
    busy += MAX (0, MIN (row (spans, 2, i, 1), to) - MAX (row (spans, 2, i, 0), from));
  return busy;
}

/* The GPU's busy spans in a graph-level export's steady state, from SQL:
 * kernels, copies and sets launched in [@from, @to) and the replays
 * (CUPTI_ACTIVITY_KIND_GRAPH_TRACE) that start there. */
static GArray *
graph_trace_busy (const char *path, gint64 from, gint64 to, gboolean replays)
{
  static const char *const tables[] = {
    LAUNCHED ("CUPTI_ACTIVITY_KIND_KERNEL"),
    LAUNCHED ("CUPTI_ACTIVITY_KIND_MEMCPY"),
    LAUNCHED ("CUPTI_ACTIVITY_KIND_MEMSET"),
    "SELECT start, end FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE WHERE start >= ?1 AND start < ?2",
  };
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint t = 0; t < G_N_ELEMENTS (tables) - (replays ? 0 : 1); t++)
    {
      g_autoptr (GArray) rows = sql_rows (path, tables[t], from, to, 2);

      g_array_append_vals (all, rows->data, rows->len);
    }
  return union_of (all);
}

/* The steady run of a graph-level export holds the replays of its steady
 * steps, and that of a node-level export the replays its kernels make,
 * each with its 91 kernels, graph and span. */
static void
test_steady_run_keeps_replays (void)
{
  g_autofree char *graph = export_path ("graph", "decode_graph");
  g_autofree char *node = export_path ("node", "decode_graph");
  g_autoptr (WsRun) graph_run = load_export (graph);
  g_autoptr (WsRun) node_run = load_export (node);
  gint64 from, to;
  g_autoptr (WsRun) graph_steady = steady (graph, graph_run, &from, &to);
  g_autoptr (GArray) rows =
    sql_rows (graph,
              "SELECT start, end, graphExecId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE "
              "WHERE start >= ?1 AND start < ?2 ORDER BY start",
              from, to, 3);
  g_autoptr (WsRun) node_steady = NULL;
  g_autoptr (GArray) node_rows = NULL;

  /* 40 replays in all, one a step: steps 1–39 are steady. */
  g_assert_cmpint (sql_int (graph, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE", 0, 0),
                   ==, 40);
  g_assert_cmpuint (rows->len / 3, ==, 39);
  g_assert_cmpuint (graph_steady->replays.n, ==, 39);
  for (guint i = 0; i < 39; i++)
    {
      g_assert_cmpint (graph_steady->replays.start[i], ==, row (rows, 3, i, 0));
      g_assert_cmpint (graph_steady->replays.end[i], ==, row (rows, 3, i, 1));
      g_assert_cmpint (graph_steady->replays.graph[i], ==, row (rows, 3, i, 2));
      g_assert_cmpuint (graph_steady->replays.nodes[i], ==, 0);
    }

  /* A node trace: the kernels of one cudaGraphLaunch make its replay, the
   * graph in the upper half of graphNodeId. */
  node_steady = steady (node, node_run, &from, &to);
  node_rows = sql_rows (node,
                        "SELECT min(k.start), max(k.end), count(*), max(k.graphNodeId >> 32) "
                        "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                        "ON r.correlationId = k.correlationId WHERE k.graphNodeId IS NOT NULL "
                        "AND r.start >= ?1 AND r.start < ?2 GROUP BY k.correlationId ORDER BY 1",
                        from, to, 4);
  g_assert_cmpuint (node_rows->len / 4, ==, 39);
  g_assert_cmpuint (node_steady->replays.n, ==, 39);
  for (guint i = 0; i < 39; i++)
    {
      g_assert_cmpint (node_steady->replays.start[i], ==, row (node_rows, 4, i, 0));
      g_assert_cmpint (node_steady->replays.end[i], ==, row (node_rows, 4, i, 1));
      g_assert_cmpint (row (node_rows, 4, i, 2), ==, 91);
      g_assert_cmpuint (node_steady->replays.nodes[i], ==, 91);
      g_assert_cmpint (node_steady->replays.graph[i], ==, row (node_rows, 4, i, 3));
    }
}

/* The GPU idle finding counts a replay recorded without its kernels as
 * work: its busy and idle time are the union, in SQL, of the steady
 * state's kernels, copies, sets and GRAPH_TRACE spans. */
static void
test_idle_counts_replays (void)
{
  g_autofree char *path = export_path ("graph", "decode_graph");
  g_autoptr (WsRun) run = load_export (path);
  gint64 from, to;
  g_autoptr (WsRun) steady_run = steady (path, run, &from, &to);
  g_autoptr (GPtrArray) findings = ws_findings_compute (steady_run);
  g_autoptr (GArray) busy = graph_trace_busy (path, from, to, TRUE);
  g_autoptr (GArray) without = graph_trace_busy (path, from, to, FALSE);
  WsFinding *f = ws_findings_find (findings, WS_FINDING_GPU_IDLE);
  gint64 total = busy_between (busy, G_MININT64, G_MAXINT64);
  gint64 span = g_array_index (busy, gint64, busy->len - 1) - g_array_index (busy, gint64, 0);

  g_assert_nonnull (f);
  g_test_message ("busy %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " ns, %u spans", total, span,
                  busy->len / 2);
  g_assert_cmpfloat (evidence (f, "busy_ns"), ==, total);
  g_assert_cmpfloat (evidence (f, "span_ns"), ==, span);
  g_assert_cmpfloat (evidence (f, "idle_ns"), ==, span - total);
  g_assert_cmpfloat (evidence (f, "gaps"), ==, busy->len / 2 - 1);
  g_assert_cmpfloat_with_epsilon (evidence (f, "idle_pct"), 100.0 * (span - total) / span, 1e-9);
  /* The replays are most of that work: without them the GPU would look
   * idle most of the time. */
  g_assert_cmpint (busy_between (without, G_MININT64, G_MAXINT64), <, total / 4);
}

/* What the launch-overhead check says of the kernels launched one by one
 * in [@from, @to): their count, their GPU time, the medians of their
 * durations and of their launch calls, from SQL. */
static void
assert_short_kernels (const char *path, const WsFinding *f, gint64 from, gint64 to,
                      const char *where)
{
  g_autofree char *sql = g_strconcat (KERNELS_LAUNCHED (SHORT " AND "), where, NULL);
  g_autoptr (GArray) rows = sql_rows (path, sql, from, to, 2);
  g_autoptr (GArray) durations = column (rows, 2, 0);
  g_autoptr (GArray) calls = column (rows, 2, 1);
  gint64 sum = 0;

  g_test_message ("%u short kernels launched alone", durations->len);
  g_assert_cmpfloat (evidence (f, "tiny_kernels"), ==, durations->len);
  g_assert_cmpfloat (evidence (f, "median_kernel_ns"), ==, median (durations));
  g_assert_cmpfloat (evidence (f, "median_launch_ns"), ==, median (calls));
  for (guint i = 0; i < durations->len; i++)
    sum += g_array_index (durations, gint64, i);
  g_assert_cmpfloat (evidence (f, "tiny_gpu_time_ns"), ==, sum);
}

/* The eager loop, no graph anywhere: the finding stays as it was before
 * graphs were known, every number from SQL; graphs are the advice. */
static void
test_launch_eager_unchanged (void)
{
  g_autofree char *path = export_path ("node", "decode_eager");
  g_autoptr (WsRun) run = load_export (path);
  gint64 from, to;
  g_autoptr (WsRun) steady_run = steady (path, run, &from, &to);
  g_autoptr (GPtrArray) findings = ws_findings_compute (steady_run);
  WsFinding *f = ws_findings_find (findings, WS_FINDING_LAUNCH_OVERHEAD);

  g_assert_nonnull (f);
  g_assert_cmpint (sql_int (path,
                            "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                            "WHERE graphNodeId IS NOT NULL",
                            0, 0),
                   ==, 0);
  /* 3,369 of the 3,744 kernels launched in steps 1–39, each by a call of
   * its own; the GPU busy 10.4% of the loop: severe. */
  assert_short_kernels (path, f, from, to, "1");
  g_assert_cmpfloat (evidence (f, "tiny_kernels"), ==, 3369);
  g_assert_cmpfloat (
    evidence (f, "kernels"), ==,
    sql_int (path,
             "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
             "WHERE r.start >= ?1 AND r.start < ?2 AND EXISTS (SELECT 1 FROM "
             "CUPTI_ACTIVITY_KIND_KERNEL k WHERE k.correlationId = r.correlationId)",
             from, to));
  g_assert_cmpfloat (evidence (f, "kernels"), ==, 3744);
  g_assert_cmpint (f->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_null (ws_finding_get_evidence (f, "graph_kernels"));
  g_assert_nonnull (strstr (f->fix, "capture the sequence in a CUDA graph"));
}

/* A finding on a run with graphs: none of its kernels ran in a replay, and
 * it does not advise graphs for work already in them. */
static void
assert_blames_no_graph_kernel (const WsRun *run, const WsFinding *f)
{
  for (guint i = 0; i < f->kernels->len; i++)
    g_assert_false (ws_run_kernel_in_graph (run, g_array_index (f->kernels, guint32, i)));
  g_assert_null (strstr (f->fix, "capture the sequence in a CUDA graph"));
  g_assert_nonnull (strstr (f->fix, "already"));
}

/* Node traces of torch.cuda.graph and of torch.compile's graphs, and a
 * graph-level trace: the kernels of replays are no short kernels paying
 * a launch; those launched alone (sampling) still are. */
static void
test_launch_leaves_graph_kernels_out (void)
{
  static const struct
  {
    const char *mode, *target;
    gboolean raised;
  } cases[] = {
    { "node", "decode_graph", TRUE },
    { "node", "decode_compile", TRUE },
    { "graph", "decode_graph", FALSE },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *path = export_path (cases[c].mode, cases[c].target);
      g_autoptr (WsRun) run = load_export (path);
      gint64 from, to;
      g_autoptr (WsRun) steady_run = steady (path, run, &from, &to);
      g_autoptr (GPtrArray) findings = ws_findings_compute (steady_run);
      WsFinding *f = ws_findings_find (findings, WS_FINDING_LAUNCH_OVERHEAD);
      gint64 in_graphs =
        sql_int (path, "SELECT count(*) FROM (" KERNELS_LAUNCHED ("k.graphNodeId IS NOT NULL") ")",
                 from, to);

      g_test_message ("%s/%s: %" G_GINT64_FORMAT " kernels in replays", cases[c].mode,
                      cases[c].target, in_graphs);
      g_assert_cmpint (f != NULL, ==, cases[c].raised);
      if (f == NULL)
        continue;
      /* node/decode_graph: 122 short kernels alone and 3,549 in 39 replays;
       * node/decode_compile: 151 and 2,738. */
      assert_short_kernels (path, f, from, to, "k.graphNodeId IS NULL");
      g_assert_cmpfloat (evidence (f, "graph_kernels"), ==, in_graphs);
      g_assert_cmpint (in_graphs, >, 0);
      assert_blames_no_graph_kernel (steady_run, f);
    }
}

/* The duration of trace event @e in ns (µs with three decimals in the
 * JSON, which json-glib reads as a double). */
static gint64
event_ns (JsonObject *e, const char *member)
{
  return (gint64) (json_object_get_double_member (e, member) * 1000.0 + 0.5);
}

/* The PyTorch profiler's trace of the graph loop: each of the 91 kernels
 * of a replay carries the correlation of its one cudaGraphLaunch, whose
 * call lasts about 300 µs there.  Counted from the JSON: the kernels of
 * graph launches are left out, the short kernels launched alone stay. */
static void
test_launch_kineto_graph (void)
{
  g_autofree char *path =
    ws_test_data ("kineto", "captures", "graphs", "decode_graph.json.gz", NULL);
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) calls = g_hash_table_new (NULL, NULL); /* correlation → event */
  g_autoptr (GHashTable) graphs = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) call_durations = g_array_new (FALSE, FALSE, sizeof (gint64));
  JsonArray *events;
  guint in_graphs = 0;
  WsFinding *f;

  {
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autoptr (GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, &error));
    g_autoptr (GConverter) gunzip =
      G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
    g_autoptr (GInputStream) json = g_converter_input_stream_new (raw, gunzip);

    g_assert_no_error (error);
    json_parser_load_from_stream (parser, json, NULL, &error);
    g_assert_no_error (error);
  }
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *cat = json_object_get_string_member_with_default (e, "cat", "");

      if (g_str_equal (cat, "cuda_runtime") || g_str_equal (cat, "cuda_driver"))
        {
          gint64 corr =
            json_object_get_int_member (json_object_get_object_member (e, "args"), "correlation");

          g_hash_table_insert (calls, GINT_TO_POINTER (corr), e);
          if (g_str_has_prefix (json_object_get_string_member (e, "name"), "cudaGraphLaunch") ||
              g_str_has_prefix (json_object_get_string_member (e, "name"), "cuGraphLaunch"))
            g_hash_table_add (graphs, GINT_TO_POINTER (corr));
        }
    }
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      JsonObject *call;
      gint64 corr, dur;

      if (g_strcmp0 (json_object_get_string_member_with_default (e, "cat", ""), "kernel") != 0)
        continue;
      corr = json_object_get_int_member (json_object_get_object_member (e, "args"), "correlation");
      if (g_hash_table_contains (graphs, GINT_TO_POINTER (corr)))
        {
          in_graphs++;
          continue;
        }
      call = g_hash_table_lookup (calls, GINT_TO_POINTER (corr));
      dur = event_ns (e, "dur");
      if (dur >= 5000 && (call == NULL || dur >= event_ns (call, "dur")))
        continue;
      g_array_append_val (durations, dur);
      if (call != NULL)
        {
          gint64 call_dur = event_ns (call, "dur");

          g_array_append_val (call_durations, call_dur);
        }
    }
  /* 40 launches of 91 kernels. */
  g_assert_cmpuint (g_hash_table_size (graphs), ==, 40);
  g_assert_cmpuint (in_graphs, ==, 40 * 91);

  {
    const char *paths[] = { path, NULL };

    run = ws_test_load_paths (paths);
  }
  findings = ws_findings_compute (run);
  f = ws_findings_find (findings, WS_FINDING_LAUNCH_OVERHEAD);
  g_assert_nonnull (f);
  g_assert_cmpfloat (evidence (f, "tiny_kernels"), ==, durations->len);
  g_assert_cmpfloat (evidence (f, "median_kernel_ns"), ==, median (durations));
  g_assert_cmpfloat (evidence (f, "graph_kernels"), ==, in_graphs);
  /* The cudaGraphLaunch calls (300 µs) are nobody's launch cost now. */
  g_assert_cmpfloat (evidence (f, "median_launch_ns"), ==, median (call_durations));
  g_assert_cmpfloat (evidence (f, "median_launch_ns"), <, 10000);
  assert_blames_no_graph_kernel (run, f);
}

/* The first text column of @sql's first row, ?1 and ?2 bound to @a and
 * @b; NULL without a row. */
static char *
sql_text (const char *path, const char *sql, gint64 a, gint64 b)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *out = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  sqlite3_bind_int64 (stmt, 1, a);
  sqlite3_bind_int64 (stmt, 2, b);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    out = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return out;
}

/* What a step of @path spends on graphs, from SQL: instantiations, time
 * in them, time capturing (a cudaStreamBeginCapture to the next
 * cudaStreamEndCapture of its thread), and the spans of the replays
 * launched in it. */
typedef struct
{
  gint64 instantiations, instantiate, capture, replay, wall;
} StepTruth;

static StepTruth
step_truth (const char *path, gboolean node, gint64 start, gint64 end)
{
  StepTruth t = { 0 };
  g_autoptr (GArray) inst = sql_rows (
    path,
    "SELECT count(*), coalesce(sum(r.end - r.start), 0) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
    "JOIN StringIds s ON s.id = r.nameId WHERE s.value LIKE 'cudaGraphInstantiate%' "
    "AND r.start >= ?1 AND r.start < ?2",
    start, end, 2);

  t.instantiations = row (inst, 2, 0, 0);
  t.instantiate = row (inst, 2, 0, 1);
  t.capture =
    sql_int (path,
             "SELECT coalesce(sum((SELECT min(x.end) FROM CUPTI_ACTIVITY_KIND_RUNTIME x "
             "JOIN StringIds n ON n.id = x.nameId WHERE n.value LIKE 'cudaStreamEndCapture%' "
             "AND x.globalTid = b.globalTid AND x.start > b.start) - b.start), 0) "
             "FROM CUPTI_ACTIVITY_KIND_RUNTIME b JOIN StringIds s ON s.id = b.nameId "
             "WHERE s.value LIKE 'cudaStreamBeginCapture%' AND b.start >= ?1 AND b.start < ?2",
             start, end);
  t.replay = sql_int (
    path,
    node ? "SELECT coalesce(sum(span), 0) FROM (SELECT max(k.end) - min(k.start) AS span "
           "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
           "ON r.correlationId = k.correlationId WHERE k.graphNodeId IS NOT NULL "
           "AND r.start >= ?1 AND r.start < ?2 GROUP BY k.correlationId)"
         : "SELECT coalesce(sum(g.end - g.start), 0) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE g "
           "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId "
           "WHERE r.start >= ?1 AND r.start < ?2",
    start, end);
  t.wall = end - start;
  return t;
}

/* decode_recapture captures the forward with torch.cuda.graph and
 * instantiates it in every one of its 20 steps, then replays it once. */
static void
assert_recapture (const char *mode)
{
  g_autofree char *path = export_path (mode, "decode_recapture");
  g_autoptr (WsRun) run = load_export (path);
  gint64 from, to, setup = 0, wall = 0, instantiations = 0;
  g_autoptr (WsRun) steady_run = steady (path, run, &from, &to);
  g_autoptr (GPtrArray) findings = ws_findings_compute (steady_run);
  g_autoptr (GArray) steps = sql_rows (path,
                                       "SELECT start, end FROM NVTX_EVENTS WHERE eventType = 59 "
                                       "AND text LIKE 'decode %' AND start >= ?1 AND end <= ?2 "
                                       "ORDER BY start",
                                       from, to, 2);
  g_autoptr (GArray) capture = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) inst = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) both = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) replay = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) walls = g_array_new (FALSE, FALSE, sizeof (gint64));
  WsFinding *f = ws_findings_find (findings, WS_FINDING_GRAPH_RECAPTURE);

  g_assert_nonnull (f);
  g_assert_cmpuint (steps->len / 2, ==, 19);
  for (guint s = 0; s < steps->len / 2; s++)
    {
      StepTruth t =
        step_truth (path, g_str_equal (mode, "node"), row (steps, 2, s, 0), row (steps, 2, s, 1));
      gint64 sum = t.capture + t.instantiate;

      /* Each steady step instantiates its graph once. */
      g_assert_cmpint (t.instantiations, ==, 1);
      instantiations += t.instantiations;
      setup += sum;
      wall += t.wall;
      g_array_append_val (capture, t.capture);
      g_array_append_val (inst, t.instantiate);
      g_array_append_val (both, sum);
      g_array_append_val (replay, t.replay);
      g_array_append_val (walls, t.wall);
    }
  g_test_message ("%s: %s", mode, f->summary);
  g_assert_cmpfloat (evidence (f, "iterations"), ==, 19);
  g_assert_cmpfloat (evidence (f, "recapturing"), ==, 19);
  g_assert_cmpfloat (evidence (f, "instantiations"), ==, instantiations);
  g_assert_cmpfloat (evidence (f, "instantiations_per_iteration"), ==, 1.0);
  g_assert_cmpfloat (evidence (f, "capture_ns"), ==, median (capture));
  g_assert_cmpfloat (evidence (f, "instantiate_ns"), ==, median (inst));
  g_assert_cmpfloat (evidence (f, "setup_ns"), ==, median (both));
  g_assert_cmpfloat (evidence (f, "replay_ns"), ==, median (replay));
  g_assert_cmpfloat (evidence (f, "iteration_ns"), ==, median (walls));
  g_assert_cmpfloat (evidence (f, "setup_time_ns"), ==, setup);
  g_assert_cmpfloat_with_epsilon (evidence (f, "setup_share_pct"), 100.0 * setup / wall, 1e-9);
  /* A new executable graph every step. */
  g_assert_cmpfloat (
    evidence (f, "graphs"), ==,
    sql_int (path,
             g_str_equal (mode, "node")
               ? "SELECT count(DISTINCT k.graphNodeId >> 32) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                 "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
                 "WHERE k.graphNodeId IS NOT NULL AND r.start >= ?1 AND r.start < ?2"
               : "SELECT count(DISTINCT g.graphExecId) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE g "
                 "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId "
                 "WHERE r.start >= ?1 AND r.start < ?2",
             from, to));
  g_assert_cmpfloat (evidence (f, "graphs"), ==, 19);
  /* Over 30% of the steps' time: severe; 3.6 ms a step against 0.48 ms
   * for decode_graph, whose graph is captured once. */
  g_assert_cmpint (f->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_cmpuint (f->ranges->len, ==, 5);
  g_assert_nonnull (strstr (f->summary, "“decode N”"));
}

static void
test_recapture_every_step (void)
{
  assert_recapture ("node");
  assert_recapture ("graph");
}

/* The loops whose graph is captured once (before the loop, or in
 * torch.compile's warm-up) instantiate none in their steady steps. */
static void
test_recapture_not_raised_when_captured_once (void)
{
  static const char *const cases[][2] = {
    { "node", "decode_graph" },
    { "graph", "decode_graph" },
    { "node", "decode_compile" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *path = export_path (cases[c][0], cases[c][1]);
      g_autoptr (WsRun) run = load_export (path);
      gint64 from, to;
      g_autoptr (WsRun) steady_run = steady (path, run, &from, &to);
      g_autoptr (GPtrArray) findings = ws_findings_compute (steady_run);

      g_assert_cmpint (step_truth (path, TRUE, from, to).instantiations, ==, 0);
      g_assert_cmpint (step_truth (path, TRUE, 0, from).instantiations, >, 0);
      g_assert_null (ws_findings_find (findings, WS_FINDING_GRAPH_RECAPTURE));
    }
}

/* The middle of the longest stretch of [@from, @to) that @busy leaves
 * idle. */
static gint64
longest_idle_middle (GArray *busy, gint64 from, gint64 to)
{
  gint64 at = from, best = -1, middle = from;

  for (guint i = 0; i <= busy->len / 2 && at < to; i++)
    {
      gint64 next = i < busy->len / 2 ? MIN (MAX (row (busy, 2, i, 0), at), to) : to;

      if (i < busy->len / 2 && row (busy, 2, i, 1) <= from)
        continue;
      if (next - at > best)
        {
          best = next - at;
          middle = at + (next - at) / 2;
        }
      if (i < busy->len / 2)
        at = MAX (at, row (busy, 2, i, 1));
    }
  return middle;
}

/* The graph loop under graph-level tracing: between one replay's end and
 * the next's start the GPU runs the sampling kernels and the token's copy,
 * and idles while the host syncs on `.item()` and launches the next
 * replay.  Every figure from SQL over the steady state. */
static void
test_replay_gaps (void)
{
  g_autofree char *path = export_path ("graph", "decode_graph");
  g_autoptr (WsRun) run = load_export (path);
  gint64 from, to, idle_sum = 0, period_sum = 0;
  g_autoptr (WsRun) steady_run = steady (path, run, &from, &to);
  g_autoptr (GPtrArray) findings = ws_findings_compute (steady_run);
  g_autoptr (GArray) busy = graph_trace_busy (path, from, to, TRUE);
  g_autoptr (GArray) replays = sql_rows (path,
                                         "SELECT start, end, streamId, correlationId "
                                         "FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE "
                                         "WHERE start >= ?1 AND start < ?2 ORDER BY start",
                                         from, to, 4);
  g_autoptr (GArray) idle = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) periods = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GHashTable) calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  WsFinding *f = ws_findings_find (findings, WS_FINDING_REPLAY_GAPS);
  const WsEvidence *host;
  GHashTableIter iter;
  gpointer name, count;
  guint n = replays->len / 4;

  g_assert_nonnull (f);
  g_assert_cmpuint (n, ==, 39);
  for (guint i = 0; i < n; i++)
    {
      gint64 span = row (replays, 4, i, 1) - row (replays, 4, i, 0);

      g_array_append_val (spans, span);
    }
  for (guint i = 1; i < n; i++)
    {
      gint64 end = row (replays, 4, i - 1, 1), start = row (replays, 4, i, 0);
      gint64 gap = start > end ? (start - end) - busy_between (busy, end, start) : 0;
      gint64 period = start - row (replays, 4, i - 1, 0);
      g_autofree char *call = NULL;
      gint64 tid, middle;

      /* One stream. */
      g_assert_cmpint (row (replays, 4, i, 2), ==, row (replays, 4, 0, 2));
      g_array_append_val (idle, gap);
      g_array_append_val (periods, period);
      idle_sum += gap;
      period_sum += period;
      if (gap == 0)
        continue;
      /* Where the thread that launched the next replay was at the middle
       * of the longest idle stretch. */
      middle = longest_idle_middle (busy, end, start);
      tid =
        sql_int (path, "SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId = ?1",
                 row (replays, 4, i, 3), 0);
      /* The call as a person writes it: "cudaGraphLaunch", not
       * "cudaGraphLaunch_v10000". */
      call = sql_text (path,
                       "SELECT CASE WHEN instr(s.value, '_v') > 0 THEN "
                       "substr(s.value, 1, instr(s.value, '_v') - 1) ELSE s.value END "
                       "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                       "ON s.id = r.nameId WHERE r.globalTid = ?1 AND r.start <= ?2 "
                       "AND r.end > ?2",
                       tid, middle);
      if (call == NULL)
        call = g_strdup ("no CUDA call");
      g_hash_table_insert (
        calls, g_strdup (call),
        GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (calls, call)) + 1));
    }
  g_test_message ("%s", f->summary);
  g_assert_cmpfloat (evidence (f, "pairs"), ==, n - 1);
  g_assert_cmpfloat (evidence (f, "replays"), ==, n);
  g_assert_cmpfloat (evidence (f, "median_replay_ns"), ==, median (spans));
  g_assert_cmpfloat (evidence (f, "median_period_ns"), ==, median (periods));
  g_assert_cmpfloat (evidence (f, "median_idle_ns"), ==, median (idle));
  g_assert_cmpfloat (evidence (f, "idle_ns"), ==, idle_sum);
  g_assert_cmpfloat (evidence (f, "period_ns"), ==, period_sum);
  g_assert_cmpfloat_with_epsilon (evidence (f, "idle_share_pct"), 100.0 * idle_sum / period_sum,
                                  1e-9);
  /* 14.4% of the period: minor (10–25%), the median idle over 20 µs. */
  g_assert_cmpint (f->severity, ==, WS_SEVERITY_MINOR);
  g_assert_cmpint (median (idle), >=, 20000);
  g_assert_cmpuint (f->ranges->len, ==, 5);
  /* "32 no CUDA call, 6 cudaGraphLaunch". */
  host = ws_finding_get_evidence (f, "host_calls");
  g_assert_nonnull (host);
  g_hash_table_iter_init (&iter, calls);
  while (g_hash_table_iter_next (&iter, &name, &count))
    {
      g_autofree char *part = g_strdup_printf ("%u %s", GPOINTER_TO_UINT (count), (char *) name);

      g_test_message ("host: %s", part);
      g_assert_nonnull (strstr (host->text, part));
    }
}

/* A rank's digest carries the findings that know graphs, as `diagnose`
 * gives them. */
static void
test_digest_carries_graph_findings (void)
{
  g_autofree char *path = export_path ("node", "decode_recapture");
  g_autoptr (WsRun) run = load_export (path);
  WsDigestRank *rank;
  gboolean recapture = FALSE, gaps = FALSE;

  g_assert_cmpuint (run->replays.n, >, 0);
  rank = ws_digest_rank_compute (run, ws_run_replay_stream (run, 0)->pid);
  for (guint i = 0; i < rank->findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (rank->findings, i);

      recapture |= g_str_equal (f->id, WS_FINDING_GRAPH_RECAPTURE);
      gaps |= g_str_equal (f->id, WS_FINDING_REPLAY_GAPS);
    }
  g_assert_true (recapture);
  g_assert_true (gaps);
  ws_digest_rank_free (rank);
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/findings-graphs/steady-run-keeps-replays", test_steady_run_keeps_replays);
  g_test_add_func ("/findings-graphs/gpu-idle/replays-are-work", test_idle_counts_replays);
  g_test_add_func ("/findings-graphs/launch-overhead/eager-unchanged", test_launch_eager_unchanged);
  g_test_add_func ("/findings-graphs/launch-overhead/graph-kernels-left-out",
                   test_launch_leaves_graph_kernels_out);
  g_test_add_func ("/findings-graphs/launch-overhead/kineto-one-launch-per-replay",
                   test_launch_kineto_graph);
  g_test_add_func ("/findings-graphs/recapture/every-step", test_recapture_every_step);
  g_test_add_func ("/findings-graphs/recapture/not-raised-when-captured-once",
                   test_recapture_not_raised_when_captured_once);
  g_test_add_func ("/findings-graphs/replay-gaps/host-between-replays", test_replay_gaps);
  g_test_add_func ("/findings-graphs/digest/carries-graph-findings",
                   test_digest_carries_graph_findings);
  status = g_test_run ();
  if (captures != NULL)
    ws_test_rmtree (captures);
  g_free (captures);
  return status;
}
