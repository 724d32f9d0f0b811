/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <math.h>
#include <time.h>

#include "ws-bars-chart.h"
#include "ws-cli.h"
#include "ws-format.h"
#include "ws-surface.h"
#include "ws-timeline-chart.h"

typedef struct
{
  WsBarsModel *model;
  WsBarsState state;
  WsPalette palette;
} BarsDraw;

static void
draw_bars (cairo_t *cr, double width, double height, gpointer data)
{
  BarsDraw *bars = data;

  ws_bars_chart_draw (cr, width, height, bars->model, &bars->state, &bars->palette);
}

static gboolean
parse_size (const char *str, double *width, double *height)
{
  char *end = NULL;
  gint64 w, h;

  if (str == NULL)
    return TRUE;
  w = g_ascii_strtoll (str, &end, 10);
  if (end == NULL || (*end != 'x' && *end != 'X'))
    return FALSE;
  h = g_ascii_strtoll (end + 1, &end, 10);
  if (*end != '\0' || w < 1 || h < 0 || w > 32768 || h > 32768)
    return FALSE;
  *width = (double) w;
  *height = (double) h;
  return TRUE;
}

static int
render_bars (WsRun *run, const char *output, double width, double height, guint top, gboolean dark,
             GError **error)
{
  g_autoptr (WsSummary) summary = ws_summary_compute (run, WS_REPORT_KERN_SUM, WS_NAME_DEMANGLED);
  g_autofree char *title =
    g_strdup_printf (_ ("GPU time by kernel — %s"), ws_run_display_name (run));
  BarsDraw bars = { 0 };

  bars.model = ws_bars_model_new (summary, top, WS_BARS_SORT_TOTAL, NULL, NULL, NULL);
  bars.state.hover = bars.state.selected = -1;
  bars.state.title = title;
  if (dark)
    ws_palette_init_dark (&bars.palette);
  else
    ws_palette_init_light (&bars.palette);

  if (height <= 0)
    {
      cairo_t *cr = ws_measure_context ();

      height = ceil (ws_bars_chart_natural_height (cr, bars.model, &bars.state, &bars.palette));
      cairo_destroy (cr);
    }
  if (!ws_render_to_file (output, width, height, draw_bars, &bars, error))
    {
      ws_bars_model_free (bars.model);
      return WS_EXIT_FAILED;
    }
  ws_bars_model_free (bars.model);
  return WS_EXIT_OK;
}

typedef struct
{
  WsTimelineChart *chart;
  WsTimeWindow *window;
  WsTimelineState state;
  WsPalette palette;
} TimelineDraw;

static void
draw_timeline (cairo_t *cr, double width, double height, gpointer data)
{
  TimelineDraw *timeline = data;

  ws_timeline_chart_draw (timeline->chart, cr, width, height, timeline->window, &timeline->state,
                          &timeline->palette);
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

static void
show_range (WsTimeWindow *window, const char *range)
{
  gint64 start, end;

  if (!parse_range (range, &start, &end))
    g_return_if_reached ();
  if (end > start)
    ws_time_window_zoom_to (window, start, end);
  else
    ws_time_window_fit (window);
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Redraws @repeat times onto an image, at random zoom levels (spans
 * log-uniform between the whole run and 100 µs, centred at a uniformly
 * random time) or, with @fixed, at the range given; prints the median and
 * 95th percentile of one redraw. */
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
  g_autofree char *wall = NULL, *used = NULL;

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
      draw_timeline (cr, width, height, timeline);
      cairo_surface_flush (surface);
      cpu[i] = thread_cpu_ms () - c0;
      ms[i] = (double) (g_get_monotonic_time () - t0) / 1000.0;
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  wall = percentiles (ms, repeat, "");
  used = percentiles (cpu, repeat, "cpu_");
  g_print ("render_ms %s %s\n", wall, used);
}

/* @range: already checked by parse_range() */
static int
render_timeline (WsRun *run, const char *output, double width, double height, const char *range,
                 int repeat, gboolean dark, GError **error)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  g_autoptr (WsTimelineChart) chart = ws_timeline_chart_new (lanes);
  g_autoptr (WsTimeWindow) window = ws_time_window_new ();
  TimelineDraw timeline = { chart, window };
  double lanes_ms = (double) (g_get_monotonic_time () - t0) / 1000.0;

  ws_timeline_state_init (&timeline.state);
  if (dark)
    ws_palette_init_dark (&timeline.palette);
  else
    ws_palette_init_light (&timeline.palette);

  ws_time_window_set_bounds (window, run->origin, run->end_time);
  ws_time_window_set_width (window,
                            width - ws_timeline_chart_header_width (chart, &timeline.palette));
  show_range (window, range);
  if (height <= 0)
    height =
      CLAMP (ceil (ws_timeline_chart_top_height (chart, &timeline.palette) +
                   ws_timeline_chart_content_height (chart, &timeline.state, &timeline.palette)),
             200, 8000);

  if (repeat > 0)
    {
      g_autofree char *bytes = ws_format_fixed_string (
        (double) ws_lanes_memory (lanes) / (double) MAX (ws_lanes_n_events (lanes), 1), 2);
      g_autofree char *built = ws_format_fixed_string (lanes_ms, 1);

      g_print ("timeline lanes=%u events=%" G_GSIZE_FORMAT " bytes=%" G_GSIZE_FORMAT
               " bytes_per_event=%s build_ms=%s\n",
               ws_lanes_get_n_lanes (lanes), ws_lanes_n_events (lanes), ws_lanes_memory (lanes),
               bytes, built);
      time_redraws (&timeline, width, height, repeat, range != NULL);
      /* The file shows the range asked for, not the last random one. */
      show_range (window, range);
    }
  if (output != NULL && !ws_render_to_file (output, width, height, draw_timeline, &timeline, error))
    return WS_EXIT_FAILED;
  return WS_EXIT_OK;
}

int
ws_cli_render (int argc, char **argv)
{
  g_autofree char *view = NULL;
  g_autofree char *output = NULL;
  g_autofree char *size = NULL;
  g_autofree char *theme = NULL;
  g_autofree char *range = NULL;
  int top = 15;
  int repeat = 0;
  GOptionEntry entries[] = {
    { "view", 'v', 0, G_OPTION_ARG_STRING, &view, N_ ("What to draw: bars (default), timeline"),
      "VIEW" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Image to write: .png, .svg or .pdf"),
      "OUT" },
    { "top", 't', 0, G_OPTION_ARG_INT, &top,
      N_ ("Bars before the rest is folded into “others” (default 15, 0 for all)"), "N" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size,
      N_ ("Image size in pixels (default 1200 wide, height to fit)"), "WxH" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, N_ ("Colours: light (default) or dark"),
      "THEME" },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range,
      N_ ("timeline: the time to show, in ns of the export's clock (default: fit, the whole run)"),
      "START_NS:END_NS" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat,
      N_ ("timeline: redraw N times at random zoom levels (or at --range) and print the median "
          "and 95th percentile in ms"),
      "N" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE… — draw a chart to an image"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  double width = 1200, height = 0;
  gboolean dark = FALSE;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _ ("Draws what the window shows, with the same drawing code, "
                                   "into a PNG, SVG or PDF file."));
  if (!ws_cli_parse (context, &argc, &argv, 1, -1))
    return WS_EXIT_BAD_INPUT;
  if (output == NULL && repeat <= 0)
    {
      g_printerr (_ ("%s: --output is required\n"), argv[0]);
      return WS_EXIT_BAD_INPUT;
    }
  if (!parse_size (size, &width, &height))
    {
      g_printerr (_ ("%s: --size must be WIDTHxHEIGHT, e.g. 1600x900\n"), argv[0]);
      return WS_EXIT_BAD_INPUT;
    }
  if (top < 0)
    {
      g_printerr (_ ("%s: --top must be 0 or more\n"), argv[0]);
      return WS_EXIT_BAD_INPUT;
    }
  if (theme != NULL)
    {
      if (g_str_equal (theme, "dark"))
        dark = TRUE;
      else if (!g_str_equal (theme, "light"))
        {
          g_printerr (_ ("%s: --theme must be light or dark\n"), argv[0]);
          return WS_EXIT_BAD_INPUT;
        }
    }
  if (repeat < 0 || (repeat > 0 && (view == NULL || !g_str_equal (view, "timeline"))))
    {
      g_printerr (_ ("%s: --repeat takes a positive count, with --view timeline\n"), argv[0]);
      return WS_EXIT_BAD_INPUT;
    }
  {
    gint64 start, end;

    if (!parse_range (range, &start, &end))
      {
        g_printerr (_ ("%s: --range must be START_NS:END_NS (in the export's clock, END after "
                       "START) or fit\n"),
                    argv[0]);
        return WS_EXIT_BAD_INPUT;
      }
  }
  if (view != NULL && !g_str_equal (view, "bars") && !g_str_equal (view, "timeline"))
    {
      g_printerr (_ ("%s: unknown view “%s”\n"), argv[0], view);
      return WS_EXIT_BAD_INPUT;
    }

  run = ws_cli_load (argv + 1, WS_LOAD_ALL, &error);
  if (run == NULL)
    return ws_cli_fail (error);

  if (view != NULL && g_str_equal (view, "timeline"))
    {
      int status = render_timeline (run, output, size != NULL ? width : 1600,
                                    size != NULL ? height : 0, range, repeat, dark, &error);

      if (status != WS_EXIT_OK)
        g_printerr ("warpscope-cli: %s\n", error->message);
      return status;
    }
  if (render_bars (run, output, width, height, (guint) top, dark, &error) != WS_EXIT_OK)
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
