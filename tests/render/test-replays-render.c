/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-event-search.h"
#include "ws-format.h"
#include "ws-nsys-overview.h"
#include "ws-nvtx-kernels.h"
#include "ws-overview-chart.h"
#include "ws-test-load.h"
#include "ws-test-util.h"
#include "ws-timeline-chart.h"
#include "ws-timeline-colors.h"
#include "ws-timeline-text.h"

/* CUDA graph replays drawn on the timeline (issue 39): where they are,
 * what colour, what the hit test and the tooltip say of them, and what a
 * replay's selection highlights, on issue 39's H200 captures; the figures
 * come from SQL written here. */

#define WIDTH 1000
#define HEIGHT 700

/* Fontconfig and Pango keep caches for the life of the process. */
const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\nleak:libpango-1.0.so\nleak:libpangoft2-1.0.so\n"
         "leak:libpangocairo-1.0.so\nleak:libharfbuzz.so\n";
}

static char *unpacked;

typedef struct
{
  char *path;
  WsRun *run;
  WsLanes *lanes;
  WsNvtxKernels *nvtx_kernels;
  WsTimelineChart *chart;
  WsTimeWindow *window;
  WsTimelineState state;
  WsPalette palette;
  double header;
  cairo_surface_t *surface;
  guint32 lane; /* stream 7's */
} Fixture;

static void
fixture_open (Fixture *f, const char *mode)
{
  const char *paths[2] = { NULL, NULL };

  f->path = g_build_filename (unpacked, mode, "decode_graph", "nsys", "decode_graph.sqlite", NULL);
  paths[0] = f->path;
  f->run = ws_test_load_paths (paths);
  f->lanes = ws_lanes_new (f->run);
  f->nvtx_kernels = ws_nvtx_kernels_new (f->run);
  f->chart = ws_timeline_chart_new (f->lanes);
  ws_timeline_chart_set_nvtx_kernels (f->chart, f->nvtx_kernels);
  f->window = ws_time_window_new ();
  ws_timeline_state_init (&f->state);
  ws_palette_init_light (&f->palette);
  f->header = ws_timeline_chart_header_width (f->chart, &f->palette);
  ws_time_window_set_width (f->window, WIDTH);
  ws_time_window_set_bounds (f->window, f->run->origin, f->run->end_time);
  f->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) f->header + WIDTH, HEIGHT);
  f->lane = WS_LANE_NONE;
  for (guint l = 0; l < ws_lanes_get_n_lanes (f->lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (f->lanes, l);

      if (lane->kind == WS_LANE_STREAM &&
          g_array_index (f->run->streams, WsStream, lane->stream).stream_id == 7)
        f->lane = l;
    }
  g_assert_cmpuint (f->lane, !=, WS_LANE_NONE);
}

static void
fixture_close (Fixture *f)
{
  cairo_surface_destroy (f->surface);
  g_object_unref (f->window);
  ws_timeline_chart_free (f->chart);
  ws_nvtx_kernels_unref (f->nvtx_kernels);
  ws_lanes_unref (f->lanes);
  ws_run_unref (f->run);
  g_free (f->path);
}

static void
draw (Fixture *f)
{
  cairo_t *cr = cairo_create (f->surface);

  ws_timeline_chart_draw (f->chart, cr, f->header + WIDTH, HEIGHT, f->window, &f->state,
                          &f->palette);
  cairo_destroy (cr);
  cairo_surface_flush (f->surface);
}

static guint32
pixel (Fixture *f, double x, double y)
{
  const guint8 *data = cairo_image_surface_get_data (f->surface);
  int stride = cairo_image_surface_get_stride (f->surface);

  return *(const guint32 *) (data + (int) y * stride + (int) x * 4) & 0xffffff;
}

static gint64
sql_int (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* The replay of @correlation, as the run holds it. */
static gsize
replay_of (const WsRun *run, gint64 correlation)
{
  for (gsize r = 0; r < run->replays.n; r++)
    if (run->replays.correlation[r] == correlation)
      return r;
  g_assert_not_reached ();
}

/* The colour the painter gives event @i of @track, without focus. */
static guint32
event_color (Fixture *f, const WsTrack *track, gsize i)
{
  WsTimelineColors colors;

  ws_timeline_colors_init (&colors, &f->palette);
  return ws_timeline_colors_event (&colors, track, i) & 0xffffff;
}

static gsize
track_index (const WsTrack *track, WsEventRef event)
{
  for (gsize i = 0; i < track->n; i++)
    if (track->events[i] == event)
      return i;
  g_assert_not_reached ();
}

static void
assert_contains (const char *text, const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("“%s” not in “%s”", part, text);
}

/* The markup of a replay: its graph, what the run holds of it, how long,
 * and the NVTX range that launched it (the innermost open on the
 * launching thread at its cudaGraphLaunch, by SQL). */
static void
assert_replay_markup (Fixture *f, gsize r, const char *nodes)
{
  WsEventRef event = ws_event_ref (WS_EVENT_REPLAY, r);
  g_autofree char *markup = ws_timeline_event_markup (f->lanes, f->nvtx_kernels, event);
  g_autofree char *graph = g_strdup_printf ("<b>CUDA graph %u</b>", f->run->replays.graph[r]);
  g_autofree char *range_sql = g_strdup_printf (
    "SELECT coalesce(n.text, s.value) FROM CUPTI_ACTIVITY_KIND_RUNTIME r"
    " JOIN NVTX_EVENTS n ON n.globalTid = r.globalTid AND n.start <= r.start"
    " AND n.end >= r.start AND n.eventType = 59 LEFT JOIN StringIds s ON s.id = n.textId"
    " WHERE r.correlationId = %u ORDER BY n.start DESC LIMIT 1",
    f->run->replays.correlation[r]);
  g_autofree char *range = ws_test_sqlite_text (f->path, range_sql);
  g_autoptr (GString) exact = g_string_new ("(");

  ws_format_int (exact, f->run->replays.end[r] - f->run->replays.start[r], TRUE);
  g_string_append (exact, " ns)");
  assert_contains (markup, graph);
  assert_contains (markup, "CUDA graph replay");
  assert_contains (markup, nodes);
  assert_contains (markup, exact->str);
  g_assert_nonnull (range);
  /* The last row: "decode N › forward", the innermost range last. */
  assert_contains (strrchr (markup, '\n'), "Launched in NVTX</span>");
  g_assert_true (g_str_has_suffix (markup, range));
}

/* A graph-level trace: the first replay (the first GRAPH_TRACE row) is a
 * span of its own colour in row 0 of stream 7, named after its graph. */
static void
test_graph_trace_span (void)
{
  Fixture f = { 0 };
  gint64 start, end, correlation, graph;
  WsEventRef event;
  const WsLane *lane;
  cairo_rectangle_t row;
  WsTimelineHit hit;
  double x0, x1, mid;
  gsize r, i;
  WsTimelineColors colors;
  g_autofree char *label = NULL;

  fixture_open (&f, "graph");
  start = sql_int (f.path, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
  end = sql_int (f.path, "SELECT end FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY start LIMIT 1");
  correlation = sql_int (
    f.path, "SELECT correlationId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY start LIMIT 1");
  graph = sql_int (
    f.path, "SELECT graphExecId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY start LIMIT 1");
  r = replay_of (f.run, correlation);
  event = ws_event_ref (WS_EVENT_REPLAY, r);
  lane = ws_lanes_get_lane (f.lanes, f.lane);
  g_assert_cmpint (f.run->replays.start[r], ==, start);
  g_assert_cmpint (f.run->replays.end[r], ==, end);
  g_assert_cmpuint (lane->replays.n, ==, 0);

  /* The replay fills the middle 80% of the view. */
  ws_time_window_zoom_to (f.window, start - (end - start) / 8, end + (end - start) / 8);
  draw (&f);
  g_assert_true (ws_timeline_chart_lane_rect (f.chart, f.header + WIDTH, HEIGHT, &f.state,
                                              &f.palette, f.lane, 0, &row));
  x0 = f.header + ws_time_window_time_to_x (f.window, start);
  x1 = f.header + ws_time_window_time_to_x (f.window, end);
  mid = (x0 + x1) / 2;
  i = track_index (&lane->tracks[0], event);
  g_assert_cmphex (pixel (&f, mid, row.y + 1), ==, event_color (&f, &lane->tracks[0], i));
  g_assert_cmphex (pixel (&f, x0 + 2, row.y + 1), ==, pixel (&f, x1 - 3, row.y + 1));
  /* Teal, none of the kernels' blues. */
  ws_timeline_colors_init (&colors, &f.palette);
  for (guint k = 0; k < G_N_ELEMENTS (colors.kernel); k++)
    g_assert_cmphex (pixel (&f, mid, row.y + 1), !=, colors.kernel[k] & 0xffffff);

  ws_timeline_chart_hit (f.chart, f.header + WIDTH, HEIGHT, f.window, &f.state, &f.palette, mid,
                         row.y + row.height / 2, &hit);
  g_assert_cmpuint (hit.lane, ==, f.lane);
  g_assert_cmpuint (hit.row, ==, 0);
  g_assert_cmpuint (hit.event, ==, event);

  label = ws_timeline_event_label (f.run, event, WS_NAME_SHORT);
  g_assert_cmpint (graph, ==, 2);
  g_assert_cmpstr (label, ==, "CUDA graph 2");
  assert_replay_markup (&f, r, "kernels not recorded (graph-level trace)");
  fixture_close (&f);
}

/* A node-level trace: the first replay is a band over its 91 kernels,
 * which stay drawn as kernels below it; each says whose it is. */
static void
test_node_band_over_kernels (void)
{
  Fixture f = { 0 };
  gint64 correlation, nodes;
  const WsLane *lane;
  cairo_rectangle_t band, row;
  WsTimelineHit hit;
  double x0, x1, y;
  gsize r, k;
  g_autofree char *nodes_text = NULL;
  g_autofree char *kernel_markup = NULL;

  fixture_open (&f, "node");
  correlation = sql_int (f.path, "SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "
                                 "graphNodeId IS NOT NULL ORDER BY start LIMIT 1");
  nodes = sql_int (f.path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS "
                           "NOT NULL AND correlationId = (SELECT correlationId FROM "
                           "CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL "
                           "ORDER BY start LIMIT 1)");
  g_assert_cmpint (nodes, ==, 91);
  r = replay_of (f.run, correlation);
  lane = ws_lanes_get_lane (f.lanes, f.lane);
  g_assert_cmpuint (lane->replays.n, ==, 40);

  ws_time_window_zoom_to (f.window, f.run->replays.start[r] - 1000, f.run->replays.end[r] + 1000);
  draw (&f);
  g_assert_true (ws_timeline_chart_lane_rect (f.chart, f.header + WIDTH, HEIGHT, &f.state,
                                              &f.palette, f.lane, WS_LANE_ROW_REPLAYS, &band));
  g_assert_true (ws_timeline_chart_lane_rect (f.chart, f.header + WIDTH, HEIGHT, &f.state,
                                              &f.palette, f.lane, 0, &row));
  g_assert_cmpfloat (band.y + band.height, <=, row.y);
  g_assert_cmpfloat (band.height, >=, 3);
  x0 = f.header + ws_time_window_time_to_x (f.window, f.run->replays.start[r]);
  x1 = f.header + ws_time_window_time_to_x (f.window, f.run->replays.end[r]);
  y = band.y + band.height / 2;
  g_assert_cmphex (pixel (&f, (x0 + x1) / 2, y), ==,
                   event_color (&f, &lane->replays,
                                track_index (&lane->replays, ws_event_ref (WS_EVENT_REPLAY, r))));
  ws_timeline_chart_hit (f.chart, f.header + WIDTH, HEIGHT, f.window, &f.state, &f.palette,
                         (x0 + x1) / 2, y, &hit);
  g_assert_cmpuint (hit.row, ==, WS_LANE_ROW_REPLAYS);
  g_assert_cmpuint (hit.event, ==, ws_event_ref (WS_EVENT_REPLAY, r));

  /* Under the band: a kernel of that replay. */
  ws_timeline_chart_hit (f.chart, f.header + WIDTH, HEIGHT, f.window, &f.state, &f.palette,
                         (x0 + x1) / 2, row.y + row.height / 2, &hit);
  g_assert_cmpuint (ws_event_ref_kind (hit.event), ==, WS_EVENT_KERNEL);
  k = ws_event_ref_index (hit.event);
  g_assert_true (ws_run_kernel_in_graph (f.run, k));
  g_assert_cmpuint (f.run->kernels.replay[k], ==, r);
  g_assert_cmpuint (f.run->kernels.correlation[k], ==, correlation);
  kernel_markup = ws_timeline_event_markup (f.lanes, f.nvtx_kernels, hit.event);
  assert_contains (kernel_markup, "Ran in a replay of</span>  CUDA graph 2");

  nodes_text = g_strdup_printf ("%" G_GINT64_FORMAT " kernels and memory operations", nodes);
  assert_replay_markup (&f, r, nodes_text);
  fixture_close (&f);
}

/* Selecting a replay whose kernels are drawn highlights them: its kernels
 * keep their colour, the stream's other kernels fade.  A search for
 * "graph 2" keeps the replays and the graph calls, and fades the rest. */
static void
test_focus_and_search (void)
{
  Fixture f = { 0 };
  const WsLane *lane;
  cairo_rectangle_t row;
  gsize r, inside = G_MAXSIZE, outside = G_MAXSIZE;
  double xi, xo;
  guint32 plain_in, plain_out;
  g_autoptr (WsEventSearch) search = NULL;

  fixture_open (&f, "node");
  lane = ws_lanes_get_lane (f.lanes, f.lane);
  r = ws_event_ref_index (lane->replays.events[1]);
  /* A kernel of replay r, and the first kernel on stream 7 after it,
   * outside any replay (the step's sampling). */
  for (gsize k = 0; k < f.run->kernels.n; k++)
    if (ws_run_kernel_in_graph (f.run, k) && f.run->kernels.replay[k] == r && inside == G_MAXSIZE)
      inside = k;
    else if (!ws_run_kernel_in_graph (f.run, k) &&
             f.run->kernels.start[k] > f.run->replays.end[r] && outside == G_MAXSIZE &&
             g_array_index (f.run->streams, WsStream, f.run->kernels.stream[k]).stream_id == 7)
      outside = k;
  g_assert_cmpuint (inside, !=, G_MAXSIZE);
  g_assert_cmpuint (outside, !=, G_MAXSIZE);

  ws_time_window_zoom_to (f.window, f.run->kernels.start[inside] - 200,
                          f.run->kernels.end[outside] + 200);
  g_assert_true (ws_timeline_chart_lane_rect (f.chart, f.header + WIDTH, HEIGHT, &f.state,
                                              &f.palette, f.lane, 0, &row));
  xi = f.header + ws_time_window_time_to_x (f.window, f.run->kernels.start[inside]) + 0.5;
  xo = f.header + ws_time_window_time_to_x (f.window, f.run->kernels.start[outside]) + 0.5;
  draw (&f);
  plain_in = pixel (&f, xi, row.y + 1);
  plain_out = pixel (&f, xo, row.y + 1);
  g_assert_cmphex (plain_in, !=, 0xffffff);
  g_assert_cmphex (plain_out, !=, 0xffffff);

  f.state.replay_focus = r;
  draw (&f);
  g_assert_cmphex (pixel (&f, xi, row.y + 1), ==, plain_in);
  g_assert_cmphex (pixel (&f, xo, row.y + 1), !=, plain_out);

  /* The search matches replays, not their kernels. */
  f.state.replay_focus = G_MAXSIZE;
  search = ws_event_search_new (f.run);
  g_assert_cmpuint (ws_event_search_set_text (search, "cuda graph 2"), ==, 40);
  f.state.search = ws_event_search_get_bits (search, &f.state.search_len);
  f.state.search_replays = ws_event_search_get_replay_bits (search);
  draw (&f);
  g_assert_cmphex (pixel (&f, xi, row.y + 1), !=, plain_in);
  {
    cairo_rectangle_t band;
    double xb = f.header + ws_time_window_time_to_x (f.window, f.run->replays.end[r]) - 2;
    gsize i = track_index (&lane->replays, ws_event_ref (WS_EVENT_REPLAY, r));

    g_assert_true (ws_timeline_chart_lane_rect (f.chart, f.header + WIDTH, HEIGHT, &f.state,
                                                &f.palette, f.lane, WS_LANE_ROW_REPLAYS, &band));
    g_assert_cmphex (pixel (&f, xb, band.y + band.height / 2), ==,
                     event_color (&f, &lane->replays, i));
  }
  fixture_close (&f);
}

/* The first frame's line counts the replays of a graph-level trace beside
 * its kernels: they are GPU work that no kernel row holds. */
static void
test_first_frame_line (void)
{
  g_autofree char *path =
    g_build_filename (unpacked, "graph", "decode_graph", "nsys", "decode_graph.sqlite", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsOverview) overview = ws_nsys_overview_read (path, NULL, NULL, &error);
  gint64 first = sql_int (
    path, "SELECT min(t) FROM (SELECT min(start) AS t FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
          "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE UNION ALL SELECT min(start) FROM "
          "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_MEMSET "
          "UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL SELECT "
          "min(start) FROM NVTX_EVENTS UNION ALL SELECT min(start) FROM OSRT_API)");
  gint64 last = sql_int (
    path, "SELECT max(t) FROM (SELECT max(end) AS t FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
          "SELECT max(end) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE UNION ALL SELECT max(end) FROM "
          "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT max(end) FROM CUPTI_ACTIVITY_KIND_MEMSET "
          "UNION ALL SELECT max(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL SELECT "
          "max(coalesce(end, start)) FROM NVTX_EVENTS UNION ALL SELECT max(end) FROM OSRT_API)");
  g_autofree char *span = ws_format_duration ((double) (last - first));
  g_autofree char *expected = g_strdup_printf (
    "%" G_GINT64_FORMAT " kernels and %" G_GINT64_FORMAT " CUDA graph replays over %s",
    ws_test_sqlite_count (path, "CUPTI_ACTIVITY_KIND_KERNEL"),
    ws_test_sqlite_count (path, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"), span);
  g_autofree char *line = NULL;

  g_assert_no_error (error);
  line = ws_overview_describe (overview);
  g_assert_cmpstr (line, ==, expected);
  g_assert_cmpstr (line, ==, "593 kernels and 40 CUDA graph replays over 5.26 s");
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  unpacked = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_test_add_func ("/timeline-render/graph-replays/graph-trace-span-named-after-its-graph",
                   test_graph_trace_span);
  g_test_add_func ("/timeline-render/graph-replays/node-trace-band-over-its-kernels",
                   test_node_band_over_kernels);
  g_test_add_func ("/timeline-render/graph-replays/selection-and-search-highlight",
                   test_focus_and_search);
  g_test_add_func ("/timeline-render/graph-replays/first-frame-line-counts-replays",
                   test_first_frame_line);
  status = g_test_run ();
  ws_test_rmtree (unpacked);
  g_free (unpacked);
  return status;
}
