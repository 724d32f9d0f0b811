/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-bench"
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ws-digest-loader.h"
#include "ws-format.h"
#include "ws-gpu-busy.h"
#include "ws-input.h"
#include "ws-rank-measure.h"
#include "ws-rank-set.h"
#include "ws-ranks-chart.h"
#include "ws-ranks-loader.h"
#include "ws-run-loader.h"
#include "ws-timeline-chart.h"

/* redraw-timing: the redraw times of the timeline and of the Ranks page's
 * heatmap, drawn by the render library as the window draws them, onto an
 * image surface.  bench/timeline.sh and bench/digest.sh read its lines:
 *
 *   timeline lanes=… events=… bytes=… bytes_per_event=… build_ms=…
 *   ranks rows=… steps=… size=WxH shown=…
 *   render_ms median=… p95=… cpu_median=… cpu_p95=…
 */

typedef struct
{
  double width;  /* 1600 unless --size */
  double height; /* 0: the view's natural height */
  gboolean sized;
  const char *range; /* timeline: START_NS:END_NS or "fit", or NULL */
  int repeat;
  WsRanksMetric metric;
} Options;

typedef struct
{
  WsTimelineChart *chart;
  WsTimeWindow *window;
  WsTimelineState state;
  WsPalette palette;
} TimelineDraw;

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* ms of CPU time this thread has used. */
static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec / 1e6;
}

/* "median=… p95=…" of @ms, sorted in place, with @prefix before each key. */
static char *
percentiles (double *ms, int n, const char *prefix)
{
  g_autofree char *median = NULL, *p95 = NULL;

  qsort (ms, (gsize) n, sizeof (double), compare_doubles);
  median = ws_format_fixed_string (n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, 2);
  p95 = ws_format_fixed_string (ms[(int) ceil (0.95 * n) - 1], 2);
  return g_strdup_printf ("%smedian=%s %sp95=%s", prefix, median, prefix, p95);
}

static void
print_times (double *ms, double *cpu, int n)
{
  g_autofree char *wall = percentiles (ms, n, "");
  g_autofree char *used = percentiles (cpu, n, "cpu_");

  g_print ("render_ms %s %s\n", wall, used);
}

/* START_NS:END_NS in the export's own clock, or "fit" (@start = @end = 0). */
static gboolean
parse_range (const char *str, gint64 *start, gint64 *end)
{
  char *stop = NULL;

  *start = *end = 0;
  if (str == NULL || g_str_equal (str, "fit"))
    return TRUE;
  *start = g_ascii_strtoll (str, &stop, 10);
  if (stop == str || *stop != ':')
    return FALSE;
  str = stop + 1;
  *end = g_ascii_strtoll (str, &stop, 10);
  return stop != str && *stop == '\0' && *end > *start;
}

/* Redraws @repeat times onto an image, at random zoom levels (spans
 * log-uniform between the whole run and 100 µs, centred at a uniformly
 * random time) or, with @fixed, at the range given; prints the median and
 * 95th percentile of one redraw in wall time, then in CPU time (on a busy
 * machine the two differ by what other processes took). */
static void
time_redraws (TimelineDraw *timeline, double width, double height, int repeat, gboolean fixed)
{
  cairo_surface_t *surface =
    cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cairo_t *cr = cairo_create (surface);
  g_autoptr (GRand) rand = g_rand_new_with_seed (20240605);
  g_autofree double *ms = g_new (double, repeat);
  g_autofree double *cpu = g_new (double, repeat);
  double max_span = ws_time_window_get_max_span (timeline->window);
  double least = MIN (100000.0, max_span);
  double duration = (double) (ws_time_window_get_end_time (timeline->window) -
                              ws_time_window_get_origin (timeline->window));

  for (int i = 0; i < repeat; i++)
    {
      gint64 t0;
      double c0;

      if (!fixed)
        {
          double span = max_span * pow (least / max_span, g_rand_double (rand));
          double mid = g_rand_double (rand) * duration;

          ws_time_window_set_view (timeline->window, mid - span / 2, mid + span / 2);
        }
      t0 = g_get_monotonic_time ();
      c0 = thread_cpu_ms ();
      ws_timeline_chart_draw (timeline->chart, cr, width, height, timeline->window,
                              &timeline->state, &timeline->palette);
      cairo_surface_flush (surface);
      cpu[i] = thread_cpu_ms () - c0;
      ms[i] = (double) (g_get_monotonic_time () - t0) / 1000.0;
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  print_times (ms, cpu, repeat);
}

/* The timeline over --range: first the lanes' size and the time they took
 * to build, then the redraw times. */
static void
time_timeline (WsRun *run, const Options *options)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  g_autoptr (WsTimelineChart) chart = ws_timeline_chart_new (lanes);
  g_autoptr (WsTimeWindow) window = ws_time_window_new ();
  TimelineDraw timeline = { chart, window };
  double lanes_ms = (double) (g_get_monotonic_time () - t0) / 1000.0;
  double height = options->height;
  g_autofree char *bytes = NULL;
  g_autofree char *built = NULL;
  gint64 start, end;

  ws_timeline_state_init (&timeline.state);
  ws_palette_init_light (&timeline.palette);
  ws_time_window_set_bounds (window, run->origin, run->end_time);
  ws_time_window_set_width (window, options->width -
                                      ws_timeline_chart_header_width (chart, &timeline.palette));
  parse_range (options->range, &start, &end);
  if (end > start)
    ws_time_window_zoom_to (window, start, end);
  else
    ws_time_window_fit (window);
  if (height <= 0)
    height =
      CLAMP (ceil (ws_timeline_chart_top_height (chart, &timeline.palette) +
                   ws_timeline_chart_content_height (chart, &timeline.state, &timeline.palette)),
             200, 8000);

  bytes = ws_format_fixed_string (
    (double) ws_lanes_memory (lanes) / (double) MAX (ws_lanes_n_events (lanes), 1), 2);
  built = ws_format_fixed_string (lanes_ms, 1);
  g_print ("timeline lanes=%u events=%" G_GSIZE_FORMAT " bytes=%" G_GSIZE_FORMAT
           " bytes_per_event=%s build_ms=%s\n",
           ws_lanes_get_n_lanes (lanes), ws_lanes_n_events (lanes), ws_lanes_memory (lanes), bytes,
           built);
  time_redraws (&timeline, options->width, height, options->repeat, options->range != NULL);
}

/* Redraws the heatmap as the Ranks page's view does: the view is as tall
 * as its rows need (its natural height; a thousand ranks scroll) and each
 * redraw is clipped to what shows, here the top width × height of --size
 * (the whole chart without it, or with a height of 0). */
static void
time_ranks (WsRun *run, const Options *options)
{
  g_autoptr (WsRankSet) set = ws_rank_set_new_for_run (run);
  g_autoptr (WsRanks) one = NULL;
  g_autoptr (WsRanksChartModel) model = NULL;
  const WsRanks *ranks = run->ranks;
  g_autofree double *ms = g_new (double, options->repeat);
  g_autofree double *cpu = g_new (double, options->repeat);
  double width = options->width, height, shown;
  cairo_surface_t *surface;
  cairo_t *cr;
  WsRanksChartState state;
  WsPalette palette;

  /* A run of one process is a job of one rank. */
  if (ranks == NULL)
    {
      const char *file = run->prov.files->len > 0 ? g_ptr_array_index (run->prov.files, 0) : "";

      one = ws_ranks_new_for_files (&file, &run, 1);
      g_ptr_array_add (one->figures, ws_rank_measure (run, WS_PID_ANY, 0));
      ranks = one;
    }
  model = ws_ranks_chart_model_new (ranks, set != NULL ? set->figures : ranks->figures);
  ws_palette_init_light (&palette);
  height = ws_ranks_chart_natural_height (model, width, TRUE, &palette);
  shown = options->height > 0 ? MIN (options->height, height) : height;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) ceil (shown));
  cr = cairo_create (surface);
  ws_ranks_chart_state_init (&state);
  state.metric = options->metric;
  state.untitled = TRUE;
  for (int i = 0; i < options->repeat; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double c0 = thread_cpu_ms ();

      ws_ranks_chart_draw (cr, width, height, model, &state, &palette);
      cairo_surface_flush (surface);
      cpu[i] = thread_cpu_ms () - c0;
      ms[i] = (double) (g_get_monotonic_time () - t0) / 1000.0;
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_print ("ranks rows=%u steps=%u size=%.0fx%.0f shown=%.0f\n", model->n_rows, model->n_cols,
           width, ceil (height), ceil (shown));
  print_times (ms, cpu, options->repeat);
}

/* The run as warpscope-cli opens it: a digest, the exports of a job's
 * ranks (for the ranks view), or one run. */
static WsRun *
load (char **files, gboolean ranks, GError **error)
{
  const char *const *paths = (const char *const *) files;

  if (files[1] == NULL && ws_input_detect (files[0], NULL) == WS_INPUT_DIGEST)
    return ws_digest_loader_open (files[0], WS_DIGEST_CHECK_STAT, WS_DIGEST_READ_DEFAULT, NULL,
                                  error);
  if (ws_ranks_loader_is_job (paths, TRUE) || (ranks && files[1] != NULL))
    return ws_ranks_loader_load (paths, WS_LOAD_ALL & ~WS_LOAD_GPU_METRICS, NULL, NULL, NULL,
                                 error);
  return ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, error);
}

int
main (int argc, char **argv)
{
  g_autofree char *view = NULL;
  g_autofree char *size = NULL;
  g_autofree char *range = NULL;
  g_autofree char *metric = NULL;
  int repeat = 50;
  GOptionEntry entries[] = {
    { "view", 'v', 0, G_OPTION_ARG_STRING, &view, "timeline (default) or ranks", "VIEW" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size,
      "Surface size (default 1600 wide, natural height)", "WxH" },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range,
      "timeline: redraw at this range (START_NS:END_NS or fit) instead of random zoom levels",
      "START_NS:END_NS" },
    { "repeat", 'n', 0, G_OPTION_ARG_INT, &repeat, "Redraws to time (default 50)", "N" },
    { "metric", 0, 0, G_OPTION_ARG_STRING, &metric, "ranks: what colours the cells", "METRIC" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("FILE… — time redraws of the timeline or the Ranks heatmap");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  Options options = { 1600, 0, FALSE, NULL, 0, WS_RANKS_METRIC_STEP_TIME };
  gboolean ranks;
  gint64 start, end;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("redraw-timing: %s\n", error->message);
      return 2;
    }
  ranks = view != NULL && g_str_equal (view, "ranks");
  if (argc < 2 || repeat < 1 || (view != NULL && !ranks && !g_str_equal (view, "timeline")) ||
      !parse_range (range, &start, &end) ||
      (metric != NULL && !ws_ranks_chart_metric_from_string (metric, &options.metric)))
    {
      g_printerr ("redraw-timing: bad arguments; see redraw-timing --help\n");
      return 2;
    }
  if (size != NULL && (sscanf (size, "%lfx%lf", &options.width, &options.height) != 2 ||
                       options.width < 1 || options.height < 0))
    {
      g_printerr ("redraw-timing: --size must be WIDTHxHEIGHT\n");
      return 2;
    }
  options.sized = size != NULL;
  options.range = range;
  options.repeat = repeat;

  run = load (argv + 1, ranks, &error);
  if (run == NULL)
    {
      g_printerr ("redraw-timing: %s\n", error->message);
      return 2;
    }
  if (ranks)
    time_ranks (run, &options);
  else
    time_timeline (run, &options);
  return 0;
}
