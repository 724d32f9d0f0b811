/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-run-build.h"
#include "ws-run-loader.h"
#include "ws-test-load.h"
#include "ws-test-util.h"
#include "ws-timeline-chart.h"
#include "ws-timeline-text.h"

#define PROBE "v2025.3_h100_probe.sqlite"

/* Fontconfig and Pango keep caches for the life of the process, which
 * LeakSanitizer would report (the ASan build); what the timeline itself
 * allocates is still checked. */
const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\nleak:libpango-1.0.so\nleak:libpangoft2-1.0.so\n"
         "leak:libpangocairo-1.0.so\nleak:libharfbuzz.so\n";
}

/* Runs warpscope-cli; as above, its font caches are not leaks of ours. */
static int
run_cli (const char *const *argv, char **out, char **err)
{
  g_auto (GStrv) env = g_get_environ ();
  const char *asan = g_environ_getenv (env, "ASAN_OPTIONS");
  g_autofree char *options =
    g_strdup_printf ("%s%sdetect_leaks=0", asan != NULL ? asan : "", asan != NULL ? ":" : "");
  g_autoptr (GError) error = NULL;
  int status = 0;

  env = g_environ_setenv (env, "ASAN_OPTIONS", options, TRUE);
  g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &error);
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

typedef struct
{
  WsRun *run;
  WsLanes *lanes;
  WsTimelineChart *chart;
  WsTimeWindow *window;
  WsTimelineState state;
  WsPalette palette;
  double header;
  cairo_surface_t *surface;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  g_autoptr (GError) error = NULL;
  const char *paths[] = { path, NULL };

  f->run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  f->lanes = ws_lanes_new (f->run);
  f->chart = ws_timeline_chart_new (f->lanes);
  f->window = ws_time_window_new ();
  ws_timeline_state_init (&f->state);
  ws_palette_init_light (&f->palette);
  f->header = ws_timeline_chart_header_width (f->chart, &f->palette);
  /* 1000 px of time axis beside the lane names. */
  ws_time_window_set_width (f->window, 1000);
  ws_time_window_set_bounds (f->window, f->run->origin, f->run->end_time);
  f->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) f->header + 1000, 700);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  cairo_surface_destroy (f->surface);
  g_object_unref (f->window);
  ws_timeline_chart_free (f->chart);
  ws_lanes_unref (f->lanes);
  ws_run_unref (f->run);
}

static void
draw (Fixture *f)
{
  cairo_t *cr = cairo_create (f->surface);

  ws_timeline_chart_draw (f->chart, cr, f->header + 1000, 700, f->window, &f->state, &f->palette);
  cairo_destroy (cr);
  cairo_surface_flush (f->surface);
}

static guint32
pixel (Fixture *f, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (f->surface);
  int stride = cairo_image_surface_get_stride (f->surface);

  return *(const guint32 *) (data + y * stride + x * 4) & 0xffffff;
}

static guint32
stream_lane (Fixture *f, gint32 stream_id)
{
  for (guint l = 0; l < ws_lanes_get_n_lanes (f->lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (f->lanes, l);

      if (lane->kind == WS_LANE_STREAM &&
          g_array_index (f->run->streams, WsStream, lane->stream).stream_id == stream_id)
        return l;
    }
  g_assert_not_reached ();
}

/* barrier_heavy, correlation 452 + 6 = 458 on stream 7, runs over
 * [452307116, 452760116) ns (SQL over CUPTI_ACTIVITY_KIND_KERNEL); the
 * kernel before it ends at 452302924, the next starts at 452761204.  In a
 * view of [452306116, 453306116) over 1000 px (1000 ns per px) it starts
 * at x = 1.0 and ends at x = 454.0: columns 1 to 453, less the last one,
 * which stays background to part it from its neighbour; columns 453 and
 * 454 are the gap; the next kernel starts at x = 455.088, column 455. */
static void
test_kernel_at_expected_columns (Fixture *f, gconstpointer data)
{
  gssize k = ws_test_kernel_by_correlation (f->run, 458);
  WsEventRef event = ws_event_ref (WS_EVENT_KERNEL, (gsize) k);
  guint32 lane = stream_lane (f, 7);
  const guint32 background = 0xffffff; /* the light palette's */
  cairo_rectangle_t band, rect;
  int y, x0 = (int) f->header;
  WsTimelineHit hit;

  g_assert_cmpint (k, >=, 0);
  g_assert_cmpint (f->run->kernels.start[k], ==, 452307116);
  g_assert_cmpint (f->run->kernels.end[k], ==, 452760116);
  ws_time_window_zoom_to (f->window, 452306116, 453306116);
  draw (f);

  g_assert_true (ws_timeline_chart_lane_rect (f->chart, f->header + 1000, 700, &f->state,
                                              &f->palette, lane, 0, &band));
  /* A row of pixels just inside the top of the band, above the name. */
  y = (int) band.y + 1;

  g_assert_cmphex (pixel (f, x0 + 0, y), ==, background);
  for (int x = 1; x <= 452; x++)
    g_assert_cmphex (pixel (f, x0 + x, y), !=, background);
  g_assert_cmphex (pixel (f, x0 + 453, y), ==, background);
  g_assert_cmphex (pixel (f, x0 + 454, y), ==, background);
  g_assert_cmphex (pixel (f, x0 + 455, y), !=, background);
  /* One kernel, one colour. */
  g_assert_cmphex (pixel (f, x0 + 1, y), ==, pixel (f, x0 + 452, y));

  /* The hit test and the event's rectangle agree with the pixels. */
  ws_timeline_chart_hit (f->chart, f->header + 1000, 700, f->window, &f->state, &f->palette,
                         x0 + 200, band.y + band.height / 2, &hit);
  g_assert_cmpint (hit.area, ==, WS_TIMELINE_AREA_LANE);
  g_assert_cmpuint (hit.lane, ==, lane);
  g_assert_cmpuint (hit.event, ==, event);
  g_assert_true (ws_timeline_chart_event_rect (f->chart, f->header + 1000, 700, f->window,
                                               &f->state, &f->palette, event, &rect));
  g_assert_cmpfloat_with_epsilon (rect.x, x0 + 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (rect.width, 453.0, 1e-6);
}

/* Zoomed out, the 200 tiny kernels of "小内核" (within 0.88 ms) share a few
 * pixel columns; they are drawn, and the hit test finds one of them. */
static void
test_merged_columns (Fixture *f, gconstpointer data)
{
  guint32 lane = stream_lane (f, 7);
  gssize first = -1;
  cairo_rectangle_t band;
  WsTimelineHit hit;
  double x;
  int y;

  for (gsize r = 0; r < f->run->nvtx.n && first < 0; r++)
    if (g_str_equal (ws_run_string (f->run, f->run->nvtx.name[r]), "小内核"))
      for (gsize k = 0; k < f->run->kernels.n; k++)
        if (f->run->kernels.start[k] > f->run->nvtx.start[r] + 200000)
          {
            first = (gssize) k;
            break;
          }
  g_assert_cmpint (first, >=, 0);
  g_assert_cmpstr (ws_run_kernel_name (f->run, (gsize) first, WS_NAME_SHORT), ==, "tiny");

  ws_time_window_fit (f->window);
  draw (f);
  g_assert_true (ws_timeline_chart_lane_rect (f->chart, f->header + 1000, 700, &f->state,
                                              &f->palette, lane, 0, &band));
  x = f->header + ws_time_window_time_to_x (f->window, f->run->kernels.start[first]);
  y = (int) (band.y + band.height / 2);
  g_assert_cmphex (pixel (f, (int) x, y), !=, 0xffffff);

  ws_timeline_chart_hit (f->chart, f->header + 1000, 700, f->window, &f->state, &f->palette, x, y,
                         &hit);
  g_assert_cmpint (ws_event_ref_kind (hit.event), ==, WS_EVENT_KERNEL);
  g_assert_cmpstr (ws_run_kernel_name (f->run, ws_event_ref_index (hit.event), WS_NAME_SHORT), ==,
                   "tiny");
}

/* A collapsed lane is a thin strip; a hidden one takes no room. */
static void
test_lane_flags_move_lanes (Fixture *f, gconstpointer data)
{
  guint n = ws_lanes_get_n_lanes (f->lanes);
  g_autofree guint8 *flags = g_new0 (guint8, n);
  guint32 lane = stream_lane (f, 7);
  cairo_rectangle_t before, after;
  double content;

  f->state.lane_flags = flags;
  content = ws_timeline_chart_content_height (f->chart, &f->state, &f->palette);
  g_assert_true (ws_timeline_chart_lane_rect (f->chart, 1000, 700, &f->state, &f->palette, lane + 1,
                                              0, &before));
  flags[lane] = WS_LANE_FLAG_HIDDEN;
  g_assert_false (
    ws_timeline_chart_lane_rect (f->chart, 1000, 700, &f->state, &f->palette, lane, 0, &after));
  g_assert_true (
    ws_timeline_chart_lane_rect (f->chart, 1000, 700, &f->state, &f->palette, lane + 1, 0, &after));
  g_assert_cmpfloat (after.y, <, before.y);
  g_assert_cmpfloat (ws_timeline_chart_content_height (f->chart, &f->state, &f->palette), <,
                     content);

  /* Collapsing the GPU group hides everything in it. */
  flags[lane] = 0;
  flags[0] = WS_LANE_FLAG_COLLAPSED;
  g_assert_false (
    ws_timeline_chart_lane_rect (f->chart, 1000, 700, &f->state, &f->palette, lane, 0, &after));
  g_assert_true (
    ws_timeline_chart_lane_rect (f->chart, 1000, 700, &f->state, &f->palette, 0, 0, &after));
  draw (f);
}

/* The same drawing goes to SVG and PDF (no caches there) without error. */
static void
test_vector_output (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = ws_test_tmpdir ();
  const char *names[] = { "t.svg", "t.pdf", "t.png" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *out = g_build_filename (dir, names[i], NULL);
      const char *argv[] = {
        ws_test_cli (), "render",   "--view", "timeline", "--range", "452306116:453306116",
        "--size",       "1200x600", "-o",     out,        NULL,      NULL
      };
      g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
      g_autofree char *stdout_text = NULL, *stderr_text = NULL;
      gsize len = 0;
      g_autofree char *contents = NULL;

      argv[10] = path;
      g_assert_cmpint (run_cli (argv, &stdout_text, &stderr_text), ==, 0);
      g_assert_true (g_file_get_contents (out, &contents, &len, NULL));
      g_assert_cmpuint (len, >, 1000);
      g_unlink (out);
    }
  ws_test_rmtree (dir);
}

/* bench/redraw-timing ends with the timings, as bench/timeline.sh reads
 * them; `render` draws only, and still checks --range. */
static void
test_repeat_prints_timings (Fixture *f, gconstpointer data)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  const char *timing = g_getenv ("WARPSCOPE_REDRAW_TIMING");
  const char *argv[] = { timing,   "--view",  "timeline", "--repeat", "5",
                         "--size", "800x400", path,       NULL };
  const char *gone[] = { ws_test_cli (), "render", "--view", "timeline", "--repeat", "5",
                         "-o",           "x.png",  path,     NULL };
  const char *bad[] = { ws_test_cli (), "render", "--view", "timeline", "--range",
                        "5:3",          "-o",     "x.png",  path,       NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;
  g_auto (GStrv) lines = NULL;
  guint n;

  g_assert_nonnull (timing);
  g_assert_cmpint (run_cli (argv, &out, &err), ==, 0);
  lines = g_strsplit (g_strstrip (out), "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >=, 2);
  g_assert_true (g_str_has_prefix (lines[n - 1], "render_ms median="));
  g_assert_nonnull (strstr (lines[n - 1], " p95="));
  g_assert_true (g_str_has_prefix (lines[n - 2], "timeline lanes=22 "));

  g_assert_cmpint (run_cli (bad, &out2, &err2), ==, 2);
  g_assert_nonnull (strstr (err2, "--range"));
  g_assert_cmpint (run_cli (gone, &out3, &err3), ==, 2);
  g_assert_nonnull (strstr (err3, "--repeat"));
}

/* The range label's three parts agree: the length printed is the end
 * printed minus the start printed, in the same unit and decimals (issue
 * 31: a view from 1.31 s before a 26.8 s run to 25.49 s read
 * "0.00 s – 25.49 s (26.8 s)").  The digits are subtracted here as
 * integers. */
static void
test_range_label_parts_agree (void)
{
  static const struct
  {
    gint64 start, end;
    const char *text;
  } views[] = {
    { -1310000000, 25490000000, "0.00 s – 25.49 s (25.49 s)" },
    { 10000000, 10070000, "10.00000 ms – 10.07000 ms (0.07000 ms)" },
    { 1234567, 26800000000, "0.00 s – 26.80 s (26.80 s)" },
    { 2004999, 2015001, "2.00500 ms – 2.01500 ms (0.01000 ms)" },
  };
  g_autoptr (WsRun) run = ws_run_new ();
  g_autoptr (GRegex) parts = g_regex_new (
    "^([0-9]+)\\.([0-9]+) (\\S+) – ([0-9]+)\\.([0-9]+) (\\S+) \\(([0-9]+)\\.([0-9]+) (\\S+)\\)$", 0,
    0, NULL);

  run->origin = 0;
  run->end_time = 26800000000;
  for (gsize i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autofree char *text = ws_timeline_format_range (run, views[i].start, views[i].end);
      g_autoptr (GMatchInfo) match = NULL;
      gint64 n[3];

      g_assert_cmpstr (text, ==, views[i].text);
      g_assert_true (g_regex_match (parts, text, 0, &match));
      for (int p = 0; p < 3; p++)
        {
          g_autofree char *whole = g_match_info_fetch (match, 1 + 3 * p);
          g_autofree char *frac = g_match_info_fetch (match, 2 + 3 * p);
          g_autofree char *unit = g_match_info_fetch (match, 3 + 3 * p);
          g_autofree char *first_unit = g_match_info_fetch (match, 3);
          g_autofree char *first_frac = g_match_info_fetch (match, 2);
          g_autofree char *digits = g_strconcat (whole, frac, NULL);

          g_assert_cmpstr (unit, ==, first_unit);
          g_assert_cmpuint (strlen (frac), ==, strlen (first_frac));
          n[p] = g_ascii_strtoll (digits, NULL, 10);
        }
      g_assert_cmpint (n[2], ==, n[1] - n[0]);
    }
}

/* An nvprof export's stream lanes say whose they are, as an nsys
 * export's do: "Stream 7", "process 14146", the process of the calls
 * that launched the stream's work (nvprof's GPU records name none). */
static void
test_nvprof_stream_lanes (void)
{
  g_autofree char *path = ws_test_data ("nvprof", "nvvp_jetson_nano_tensorrt_yolo.nvvp", NULL);
  const char *paths[] = { path, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  g_autofree char *pid = ws_test_sqlite_text (
    path, "SELECT group_concat(DISTINCT processId) FROM CUPTI_ACTIVITY_KIND_RUNTIME");
  g_autofree char *process = g_strdup_printf ("process %s", pid);
  guint n_streams = 0;
  static const char streams_sql[] =
    "SELECT count(*) FROM (SELECT deviceId, contextId, streamId "
    "FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL UNION SELECT deviceId, contextId, streamId "
    "FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION SELECT deviceId, contextId, streamId "
    "FROM CUPTI_ACTIVITY_KIND_MEMSET)";
  g_autofree char *count = NULL;

  g_assert_cmpstr (pid, ==, "14146");
  for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);
      const WsStream *stream;
      g_autofree char *subtitle = NULL;
      g_autofree char *title = NULL;
      g_autofree char *want = NULL;

      if (lane->kind != WS_LANE_STREAM)
        continue;
      stream = &g_array_index (run->streams, WsStream, lane->stream);
      title = ws_timeline_lane_title (lanes, l, &subtitle);
      want = g_strdup_printf ("Stream %d", stream->stream_id);
      g_assert_cmpstr (title, ==, want);
      g_assert_cmpstr (subtitle, ==, process);
      n_streams++;
    }
  count = ws_test_sqlite_text (path, streams_sql);
  g_assert_cmpuint (n_streams, ==, g_ascii_strtoull (count, NULL, 10));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/timeline-render/kernel/expected-columns", Fixture, NULL, fixture_set_up,
              test_kernel_at_expected_columns, fixture_tear_down);
  g_test_add ("/timeline-render/zoomed-out/merged-columns", Fixture, NULL, fixture_set_up,
              test_merged_columns, fixture_tear_down);
  g_test_add ("/timeline-render/lanes/flags-move-lanes", Fixture, NULL, fixture_set_up,
              test_lane_flags_move_lanes, fixture_tear_down);
  g_test_add ("/timeline-render/cli/vector-output", Fixture, NULL, fixture_set_up,
              test_vector_output, fixture_tear_down);
  g_test_add ("/timeline-render/bench/redraw-timing-prints-timings", Fixture, NULL, fixture_set_up,
              test_repeat_prints_timings, fixture_tear_down);
  g_test_add_func ("/timeline-render/range-label/parts-agree", test_range_label_parts_agree);
  g_test_add_func ("/timeline-render/lanes/nvprof-streams-name-process", test_nvprof_stream_lanes);
  return g_test_run ();
}
