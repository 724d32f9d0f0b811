/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <sqlite3.h>
#include <string.h>

#include "ws-event-search.h"
#include "ws-lanes.h"
#include "ws-launch-index.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* CUDA graph replays on the timeline (issue 39, docs/cuda-graphs.md),
 * against SQL written here over issue 39's H200 captures: a graph-level
 * trace's replays are the rows of CUPTI_ACTIVITY_KIND_GRAPH_TRACE, one
 * span each on its stream; a node-level trace's are its graph kernels
 * grouped by launch, drawn as a band over them. */

static char *unpacked;

static char *
export_of (const char *mode, const char *target)
{
  g_autofree char *name = g_strdup_printf ("%s.sqlite", target);

  return g_build_filename (unpacked, mode, target, "nsys", name, NULL);
}

static WsRun *
load (const char *path)
{
  const char *paths[] = { path, NULL };

  return ws_test_load_paths (paths);
}

static sqlite3_stmt *
query (sqlite3 **db, const char *path, const char *sql)
{
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (*db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  return stmt;
}

static void
query_done (sqlite3 *db, sqlite3_stmt *stmt)
{
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

static gint64
sql_int (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

static gint32
lane_stream_id (const WsRun *run, const WsLane *lane)
{
  return g_array_index (run->streams, WsStream, lane->stream).stream_id;
}

/* The replays the stream lanes hold in @where (row 0, or the band), in
 * order of start (ties: the longer first), as the lanes sort them. */
static GArray *
replays_in_lanes (const WsLanes *lanes, gboolean band)
{
  const WsRun *run = ws_lanes_get_run (lanes);
  GArray *found = g_array_new (FALSE, FALSE, sizeof (WsEventRef));

  for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);
      const WsTrack *track;

      if (lane->kind != WS_LANE_STREAM)
        continue;
      track = band ? &lane->replays : &lane->tracks[0];
      for (gsize i = 0; i < track->n; i++)
        if (ws_event_ref_kind (track->events[i]) == WS_EVENT_REPLAY)
          {
            guint row = 0;

            /* Where the lanes say it is: this lane, this row. */
            g_assert_cmpuint (ws_lanes_find_event (lanes, track->events[i], &row), ==, l);
            g_assert_cmpuint (row, ==, band ? WS_LANE_ROW_REPLAYS : 0);
            g_assert_cmpint (ws_track_start (track, run, i), ==,
                             ws_event_start (run, track->events[i]));
            g_assert_cmpint (ws_track_end (track, run, i), ==,
                             ws_event_end (run, track->events[i]));
            g_array_append_val (found, track->events[i]);
          }
    }
  return found;
}

static int
compare_replays (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsRun *run = data;
  gsize x = ws_event_ref_index (*(const WsEventRef *) a);
  gsize y = ws_event_ref_index (*(const WsEventRef *) b);

  if (run->replays.start[x] != run->replays.start[y])
    return run->replays.start[x] < run->replays.start[y] ? -1 : 1;
  return (run->replays.end[x] < run->replays.end[y]) - (run->replays.end[x] > run->replays.end[y]);
}

/* Graph-level traces: each GRAPH_TRACE row is one span in row 0 of its
 * stream's lane, with its graph and launch, its kernels unknown. */
static void
test_one_span_per_graph_trace_row (void)
{
  static const struct
  {
    const char *target;
    gint64 replays;
  } targets[] = { { "decode_graph", 40 }, { "decode_compile", 41 }, { "decode_recapture", 20 } };

  for (gsize t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autofree char *path = export_of ("graph", targets[t].target);
      g_autoptr (WsRun) run = load (path);
      g_autoptr (WsLanes) lanes = ws_lanes_new (run);
      g_autoptr (GArray) spans = replays_in_lanes (lanes, FALSE);
      g_autoptr (GArray) bands = replays_in_lanes (lanes, TRUE);
      sqlite3 *db;
      sqlite3_stmt *stmt = query (&db, path,
                                  "SELECT start, end, streamId, graphExecId, correlationId "
                                  "FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY start, end DESC");
      guint i = 0;

      g_test_message ("graph/%s", targets[t].target);
      g_assert_cmpuint (bands->len, ==, 0);
      g_assert_cmpuint (spans->len, ==, targets[t].replays);
      g_array_sort_with_data (spans, compare_replays, run);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          gsize r;
          const WsLane *lane;

          g_assert_cmpuint (i, <, spans->len);
          r = ws_event_ref_index (g_array_index (spans, WsEventRef, i++));
          lane = ws_lanes_get_lane (
            lanes, ws_lanes_find_event (lanes, ws_event_ref (WS_EVENT_REPLAY, r), NULL));
          g_assert_cmpint (run->replays.start[r], ==, sqlite3_column_int64 (stmt, 0));
          g_assert_cmpint (run->replays.end[r], ==, sqlite3_column_int64 (stmt, 1));
          g_assert_cmpint (lane_stream_id (run, lane), ==, sqlite3_column_int (stmt, 2));
          g_assert_cmpuint (run->replays.graph[r], ==, sqlite3_column_int64 (stmt, 3));
          g_assert_cmpuint (run->replays.correlation[r], ==, sqlite3_column_int64 (stmt, 4));
          g_assert_cmpuint (run->replays.nodes[r], ==, 0);
        }
      g_assert_cmpuint (i, ==, spans->len);
      query_done (db, stmt);
    }
}

/* Node-level traces: a replay is the kernels (and memory operations) of
 * one cudaGraphLaunch, graphNodeId set; the band holds one per launch,
 * from the first one's start to the last one's end, and row 0 none. */
static void
test_node_trace_band_spans_its_kernels (void)
{
  static const struct
  {
    const char *target;
    gint64 replays;
  } targets[] = { { "decode_graph", 40 }, { "decode_compile", 41 }, { "decode_recapture", 20 } };

  for (gsize t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autofree char *path = export_of ("node", targets[t].target);
      g_autoptr (WsRun) run = load (path);
      g_autoptr (WsLanes) lanes = ws_lanes_new (run);
      g_autoptr (GArray) spans = replays_in_lanes (lanes, FALSE);
      g_autoptr (GArray) bands = replays_in_lanes (lanes, TRUE);
      sqlite3 *db;
      sqlite3_stmt *stmt =
        query (&db, path,
               "SELECT min(start), max(end), count(*), graphNodeId >> 32 FROM ("
               " SELECT start, end, correlationId, graphNodeId FROM CUPTI_ACTIVITY_KIND_KERNEL"
               " WHERE graphNodeId IS NOT NULL UNION ALL"
               " SELECT start, end, correlationId, graphNodeId FROM CUPTI_ACTIVITY_KIND_MEMCPY"
               " WHERE graphNodeId IS NOT NULL UNION ALL"
               " SELECT start, end, correlationId, graphNodeId FROM CUPTI_ACTIVITY_KIND_MEMSET"
               " WHERE graphNodeId IS NOT NULL) GROUP BY correlationId ORDER BY 1, 2 DESC");
      guint i = 0;

      g_test_message ("node/%s", targets[t].target);
      g_assert_cmpuint (spans->len, ==, 0);
      g_assert_cmpuint (bands->len, ==, targets[t].replays);
      g_array_sort_with_data (bands, compare_replays, run);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          gsize r;

          g_assert_cmpuint (i, <, bands->len);
          r = ws_event_ref_index (g_array_index (bands, WsEventRef, i++));
          g_assert_cmpint (run->replays.start[r], ==, sqlite3_column_int64 (stmt, 0));
          g_assert_cmpint (run->replays.end[r], ==, sqlite3_column_int64 (stmt, 1));
          g_assert_cmpuint (run->replays.nodes[r], ==, sqlite3_column_int64 (stmt, 2));
          g_assert_cmpuint (run->replays.graph[r], ==, sqlite3_column_int64 (stmt, 3));
        }
      g_assert_cmpuint (i, ==, bands->len);
      query_done (db, stmt);

      /* Each kernel of a replay is drawn under its band, in its lane. */
      for (gsize k = 0; k < run->kernels.n; k++)
        if (ws_run_kernel_in_graph (run, k))
          {
            guint32 r = run->kernels.replay[k];

            g_assert_cmpuint (ws_lanes_find_event (lanes, ws_event_ref (WS_EVENT_KERNEL, k), NULL),
                              ==,
                              ws_lanes_find_event (lanes, ws_event_ref (WS_EVENT_REPLAY, r), NULL));
            g_assert_cmpint (run->kernels.start[k], >=, run->replays.start[r]);
            g_assert_cmpint (run->kernels.end[k], <=, run->replays.end[r]);
          }
    }
}

/* How busy a stream's lane is, the sum its shading and the overview
 * draw from: its kernels, memory operations and, in a graph-level trace,
 * its replays, as SQL sums them. */
static void
test_busy_counts_replays (void)
{
  static const char *const modes[] = { "graph", "node" };

  for (gsize m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autofree char *path = export_of (modes[m], "decode_graph");
      g_autoptr (WsRun) run = load (path);
      g_autoptr (WsLanes) lanes = ws_lanes_new (run);
      gboolean graph = g_str_equal (modes[m], "graph");

      for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
        {
          const WsLane *lane = ws_lanes_get_lane (lanes, l);
          gint32 id;
          g_autofree char *work = NULL;
          g_autofree char *replayed = NULL;
          gint64 busy, replays;

          if (lane->kind != WS_LANE_STREAM)
            continue;
          id = lane_stream_id (run, lane);
          work = g_strdup_printf (
            "SELECT (SELECT coalesce(sum(end - start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL"
            " WHERE streamId = %d) + (SELECT coalesce(sum(end - start), 0) FROM"
            " CUPTI_ACTIVITY_KIND_MEMCPY WHERE streamId = %d) + (SELECT coalesce(sum(end -"
            " start), 0) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE streamId = %d)",
            id, id, id);
          replayed = g_strdup_printf ("SELECT coalesce(sum(end - start), 0) FROM"
                                      " CUPTI_ACTIVITY_KIND_GRAPH_TRACE WHERE streamId = %d",
                                      id);
          replays = graph ? sql_int (path, replayed) : 0;
          busy =
            ws_track_busy (&lane->tracks[0], run, 0, lane->tracks[0].n, G_MININT64, G_MAXINT64);
          g_test_message ("%s: stream %d", modes[m], id);
          g_assert_cmpint (busy, ==, sql_int (path, work) + replays);
          /* 40 replays of about 380 µs: 15.2 ms of stream 7's work that
           * no kernel row holds. */
          if (graph && id == 7)
            {
              g_assert_cmpint (replays, >, 40 * 370000);
              g_assert_cmpint (replays, <, 40 * 390000);
            }
        }
    }
}

/* The launch of each replay is the cudaGraphLaunch of its correlation
 * id, and the NVTX range it was launched in is the innermost range open
 * on that thread then: "forward", in each of the 40 steps. */
static void
test_launched_in_innermost_range (void)
{
  static const char *const modes[] = { "graph", "node" };

  for (gsize m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autofree char *path = export_of (modes[m], "decode_graph");
      g_autoptr (WsRun) run = load (path);
      g_autoptr (WsLanes) lanes = ws_lanes_new (run);
      g_autoptr (WsLaunchIndex) launches = ws_launch_index_new (run);
      guint forward = 0;

      g_assert_cmpuint (run->replays.n, ==, 40);
      for (gsize r = 0; r < run->replays.n; r++)
        {
          gssize a = ws_launch_index_replay (launches, r);
          g_autofree char *call_sql = g_strdup_printf (
            "SELECT r.start FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId"
            " WHERE r.correlationId = %u AND s.value LIKE 'cudaGraphLaunch%%'",
            run->replays.correlation[r]);
          g_autofree char *range_sql = g_strdup_printf (
            "SELECT coalesce(n.text, s.value) FROM CUPTI_ACTIVITY_KIND_RUNTIME r"
            " JOIN NVTX_EVENTS n ON n.globalTid = r.globalTid AND n.start <= r.start"
            " AND n.end >= r.start AND n.eventType = 59"
            " LEFT JOIN StringIds s ON s.id = n.textId"
            " WHERE r.correlationId = %u ORDER BY n.start DESC LIMIT 1",
            run->replays.correlation[r]);
          g_autofree char *innermost = ws_test_sqlite_text (path, range_sql);
          g_autoptr (GArray) path_ranges = NULL;
          guint32 last;

          g_assert_cmpint (a, >=, 0);
          g_assert_cmpuint (run->api.correlation[a], ==, run->replays.correlation[r]);
          g_assert_cmpint (run->api.start[a], ==, sql_int (path, call_sql));
          path_ranges = ws_lanes_nvtx_enclosing (lanes, run->api.thread[a], run->api.start[a]);
          g_assert_cmpuint (path_ranges->len, >, 0);
          last = g_array_index (path_ranges, guint32, path_ranges->len - 1);
          g_assert_nonnull (innermost);
          g_assert_cmpstr (ws_run_string (run, run->nvtx.name[last]), ==, innermost);
          forward += g_str_equal (innermost, "forward");
        }
      g_assert_cmpuint (forward, ==, 40);
    }
}

/* The search finds replays by the name the timeline gives them, with
 * the other events whose names hold the text, as SQL counts them. */
static void
test_search_finds_replays (void)
{
  g_autofree char *path = export_of ("graph", "decode_graph");
  g_autoptr (WsRun) run = load (path);
  g_autoptr (WsEventSearch) search = ws_event_search_new (run);
  gint64 replays = sql_int (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
  gint64 named = sql_int (
    path, "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id "
          "= r.nameId WHERE s.value LIKE '%graph%') + (SELECT count(*) FROM "
          "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName JOIN StringIds "
          "h ON h.id = k.shortName WHERE d.value LIKE '%graph%' OR h.value LIKE '%graph%') + "
          "(SELECT count(*) FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE "
          "coalesce(n.text, s.value) LIKE '%graph%' AND n.eventType IN (34, 59, 60)) + (SELECT "
          "count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId WHERE s.value LIKE "
          "'%graph%')");
  WsEventRef found = WS_EVENT_NONE;
  gsize next = 0;

  g_assert_cmpint (replays, ==, 40);
  /* cudaGraphLaunch and the capture's graph calls are found too. */
  g_assert_cmpint (named, >, 0);
  g_assert_cmpuint (ws_event_search_set_text (search, "GRAPH"), ==, replays + named);
  g_assert_cmpuint (ws_event_search_set_text (search, "cuda graph 2"), ==, replays);
  g_assert_cmpuint (ws_event_search_set_text (search, "cuda graph 3"), ==, 0);
  g_assert_null (ws_event_search_get_replay_bits (search));

  /* Found in order of start, then round to the first again. */
  ws_event_search_set_text (search, "cuda graph 2");
  g_assert_nonnull (ws_event_search_get_replay_bits (search));
  for (gint64 n = 0; n <= replays; n++)
    {
      found = ws_event_search_find (search, found, FALSE);
      g_assert_cmpuint (ws_event_ref_kind (found), ==, WS_EVENT_REPLAY);
      g_assert_cmpuint (ws_event_ref_index (found), ==, next);
      g_assert_true (ws_event_search_matches (search, found));
      next = (next + 1) % run->replays.n;
    }
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  unpacked = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_test_add_func ("/lanes/graph-replays/one-span-per-graph-trace-row",
                   test_one_span_per_graph_trace_row);
  g_test_add_func ("/lanes/graph-replays/node-trace-band-spans-its-kernels",
                   test_node_trace_band_spans_its_kernels);
  g_test_add_func ("/lanes/graph-replays/stream-busy-counts-replays", test_busy_counts_replays);
  g_test_add_func ("/lanes/graph-replays/launched-in-innermost-nvtx-range",
                   test_launched_in_innermost_range);
  g_test_add_func ("/event-search/graph-replays/found-by-graph", test_search_finds_replays);
  status = g_test_run ();
  ws_test_rmtree (unpacked);
  g_free (unpacked);
  return status;
}
