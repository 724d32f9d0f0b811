/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-bars-chart.h"
#include "ws-cli.h"
#include "ws-compare-chart.h"
#include "ws-format.h"
#include "ws-compare-gauges.h"
#include "ws-gauges-overview.h"
#include "ws-input.h"
#include "ws-gpu-busy.h"
#include "ws-ncu-match.h"
#include "ws-nsys-overview.h"
#include "ws-overview-chart.h"
#include "ws-rank-measure.h"
#include "ws-ranks-chart.h"
#include "ws-run-loader.h"
#include "ws-steps-chart.h"
#include "ws-surface.h"
#include "ws-timeline-chart.h"
#include "ws-timeline-path.h"
#include "ws-timeline-text.h"

/* What the views of `render` share from the command line. */
typedef struct
{
  const char *output;
  double width;
  double height; /* 0: the view's natural height */
  gboolean dark;
  guint top;
  int kernel;        /* gauges: the launch to draw, or -1 for the overview */
  const char *key;   /* compare-gauges: the kernel to draw, or NULL for all */
  int sort;          /* gauges: the overview's order */
  WsMatchBy by;      /* compare: how kernels of the two runs are matched */
  gboolean ranges;   /* compare: NVTX ranges instead of kernels */
  gboolean sized;    /* --size given */
  const char *range; /* timeline: START_NS:END_NS or "fit", or NULL */
  gboolean critical; /* timeline: the median step's critical path drawn over it */
  int metric;        /* ranks: what colours the heatmap (WsRanksMetric) */
} RenderOptions;

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
  if (*end != '\0' || w < 1 || h < 0 || w > WS_SURFACE_MAX_EXTENT || h > WS_SURFACE_MAX_EXTENT)
    return FALSE;
  *width = (double) w;
  *height = (double) h;
  return TRUE;
}

static WsVerdict
bars_verdict (const char *kernel_name, gpointer data)
{
  return ws_ncu_match_verdict_for (data, kernel_name);
}

static gboolean
render_bars (WsRun *run, const RenderOptions *options, GError **error)
{
  const WsSummary *summary = ws_run_get_summary (run, WS_SUMMARY_KERN_SUM);
  g_autofree char *title =
    g_strdup_printf (_ ("GPU time by kernel — %s"), ws_run_display_name (run));
  g_autoptr (WsBarsModel) model =
    ws_bars_model_new (summary, options->top, WS_BARS_SORT_TOTAL, NULL,
                       run->ncu != NULL ? bars_verdict : NULL, run->ncu);
  WsPalette palette;

  if (options->dark)
    ws_palette_init_dark (&palette);
  else
    ws_palette_init_light (&palette);
  return ws_bars_chart_render_to_file (options->output, options->width, options->height, model,
                                       title, &palette, error);
}

typedef struct
{
  WsNcuResults *results;
  WsGaugesOverview *overview;
  int kernel;
  WsPalette palette;
} GaugesDraw;

static void
draw_gauges (cairo_t *cr, double width, double height, gpointer data)
{
  GaugesDraw *gauges = data;

  if (gauges->kernel >= 0)
    ws_gauges_panel_draw (cr, width, height, gauges->results, (guint) gauges->kernel, NULL,
                          &gauges->palette);
  else
    ws_gauges_overview_draw (cr, width, height, gauges->overview, NULL, &gauges->palette);
}

static gboolean
render_gauges (WsRun *run, const RenderOptions *options, GError **error)
{
  GaugesDraw gauges = { 0 };
  double height = options->height;
  gboolean ok;

  if (options->kernel >= 0 && (guint) options->kernel >= ws_ncu_results_n_launches (run->ncu))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("--kernel %d: the files hold launches 0 to %u"), options->kernel,
                   ws_ncu_results_n_launches (run->ncu) - 1);
      return FALSE;
    }
  gauges.results = run->ncu;
  gauges.kernel = options->kernel;
  gauges.overview = ws_gauges_overview_new (run->ncu, options->sort);
  if (options->dark)
    ws_palette_init_dark (&gauges.palette);
  else
    ws_palette_init_light (&gauges.palette);

  if (height <= 0 && options->kernel < 0)
    {
      cairo_t *cr = ws_measure_context ();

      height = ceil (
        ws_gauges_overview_natural_height (cr, options->width, gauges.overview, &gauges.palette));
      cairo_destroy (cr);
    }
  else if (height <= 0)
    height = round (options->width * 0.62);
  ok = ws_render_to_file (options->output, options->width, height, draw_gauges, &gauges, error);
  ws_gauges_overview_free (gauges.overview);
  return ok;
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

/* The timeline over --range (already checked by parse_range()). */
static gboolean
render_timeline (WsRun *run, const RenderOptions *options, GError **error)
{
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  g_autoptr (WsTimelineChart) chart = ws_timeline_chart_new (lanes);
  g_autoptr (WsTimeWindow) window = ws_time_window_new ();
  TimelineDraw timeline = { chart, window };
  g_autoptr (WsCriticalPath) cp = NULL;
  g_autoptr (WsTimelinePath) path = NULL;
  double width = options->sized ? options->width : 1600;
  double height = options->height;

  {
    g_autofree char *left_out = ws_timeline_left_out_text (run);

    if (left_out != NULL)
      g_printerr ("warpscope-cli: %s\n", left_out);
  }
  ws_timeline_state_init (&timeline.state);
  if (options->dark)
    ws_palette_init_dark (&timeline.palette);
  else
    ws_palette_init_light (&timeline.palette);

  ws_time_window_set_bounds (window, run->origin, run->end_time);
  ws_time_window_set_width (window,
                            width - ws_timeline_chart_header_width (chart, &timeline.palette));
  show_range (window, options->range);
  if (options->critical)
    {
      cp = ws_critical_path_new (run, NULL);
      if (cp->median < 0)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _ ("no steady steps to draw a critical path of"));
          return FALSE;
        }
      path = ws_timeline_path_new (cp, (guint) cp->median);
      timeline.state.path = path;
      if (options->range == NULL && path->n > 0)
        {
          gint64 a = path->start[0], b = path->end[path->n - 1];

          ws_time_window_zoom_to (window, a - (b - a) / 20, b + (b - a) / 20);
        }
    }
  if (height <= 0)
    height =
      CLAMP (ceil (ws_timeline_chart_top_height (chart, &timeline.palette) +
                   ws_timeline_chart_content_height (chart, &timeline.state, &timeline.palette)),
             200, 8000);

  return ws_render_to_file (options->output, width, height, draw_timeline, &timeline, error);
}

typedef struct
{
  WsComparison *cmp;
  WsCompareState state;
  WsPalette palette;
} CompareDraw;

static void
draw_compare (cairo_t *cr, double width, double height, gpointer data)
{
  CompareDraw *compare = data;

  ws_compare_chart_draw (cr, width, height, compare->cmp, &compare->state, &compare->palette);
}

/* Two runs, each loaded on its own: BEFORE and AFTER. */
static gboolean
render_compare (WsRun *before, WsRun *after, const RenderOptions *options, GError **error)
{
  g_autoptr (WsComparison) cmp = NULL;
  g_autofree char *title = NULL;
  CompareDraw compare = { 0 };
  double height = options->height;

  cmp = ws_comparison_new (before, after, options->by);
  title =
    g_strdup_printf (_ ("%s → %s"), ws_run_display_name (before), ws_run_display_name (after));

  compare.cmp = cmp;
  compare.state.hover = compare.state.selected = -1;
  compare.state.top_n = options->top;
  compare.state.title = title;
  compare.state.ranges = options->ranges;
  if (options->dark)
    ws_palette_init_dark (&compare.palette);
  else
    ws_palette_init_light (&compare.palette);
  if (height <= 0)
    {
      cairo_t *cr = ws_measure_context ();

      height = ceil (ws_compare_chart_natural_height (cr, cmp, &compare.state, &compare.palette));
      cairo_destroy (cr);
    }
  return ws_render_to_file (options->output, options->width, height, draw_compare, &compare, error);
}

typedef struct
{
  WsComparison *cmp;
  const WsDelta *delta; /* one kernel, or NULL for all those profiled on both sides */
  const char *title;
  WsPalette palette;
} CompareGaugesDraw;

static void
draw_compare_gauges (cairo_t *cr, double width, double height, gpointer data)
{
  CompareGaugesDraw *draw = data;

  if (draw->delta != NULL)
    ws_compare_gauges_draw (cr, width, height, draw->cmp, draw->delta, NULL, &draw->palette);
  else
    ws_compare_gauges_draw_all (cr, width, height, draw->cmp, draw->title, &draw->palette);
}

/* --kernel KEY: the kernel matched under KEY, or else the only kernel
 * profiled on both sides whose key contains it. */
static const WsDelta *
find_profiled (const WsComparison *cmp, const char *key, GError **error)
{
  const WsDelta *found = ws_comparison_find (cmp, key);
  guint n = 0;

  if (found != NULL && ws_delta_profiled_both (found))
    return found;
  found = NULL;
  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);

      if (ws_delta_profiled_both (d) && strstr (d->key, key) != NULL)
        {
          found = d;
          n++;
        }
    }
  if (n == 1)
    return found;
  if (n == 0)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 _ ("--kernel “%s”: no kernel profiled on both sides has that name "
                    "(warpscope-cli compare lists the kernels with their gauges)"),
                 key);
  else
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 _ ("--kernel “%s”: several kernels profiled on both sides have names that "
                    "hold it; give the whole name"),
                 key);
  return NULL;
}

/* The gauges of kernels profiled on both sides: one with --kernel, or all
 * of them stacked. */
static gboolean
render_compare_gauges (WsRun *before, WsRun *after, const RenderOptions *options, GError **error)
{
  g_autoptr (WsComparison) cmp = NULL;
  g_autofree char *title = NULL;
  CompareGaugesDraw draw = { 0 };
  double height = options->height;
  cairo_t *cr;

  cmp = ws_comparison_new (before, after, options->by);
  if (options->key != NULL && (draw.delta = find_profiled (cmp, options->key, error)) == NULL)
    return FALSE;
  title =
    g_strdup_printf (_ ("%s → %s"), ws_run_display_name (before), ws_run_display_name (after));
  draw.cmp = cmp;
  draw.title = title;
  if (options->dark)
    ws_palette_init_dark (&draw.palette);
  else
    ws_palette_init_light (&draw.palette);
  if (height <= 0)
    {
      cr = ws_measure_context ();
      height =
        draw.delta != NULL
          ? ws_compare_gauges_natural_height (cr, options->width, cmp, draw.delta, &draw.palette)
          : ws_compare_gauges_all_natural_height (cr, options->width, cmp, title, &draw.palette);
      cairo_destroy (cr);
    }
  return ws_render_to_file (options->output, options->width, ceil (height), draw_compare_gauges,
                            &draw, error);
}

static gboolean
render_steps (WsRun *run, const RenderOptions *options, GError **error)
{
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
  WsPalette palette;

  if (options->dark)
    ws_palette_init_dark (&palette);
  else
    ws_palette_init_light (&palette);
  return ws_steps_chart_render_to_file (options->output, options->width,
                                        options->sized ? options->height : 0, run, steps, &palette,
                                        error);
}

static gboolean
render_why (WsRun *run, const char *view, const RenderOptions *options, GError **error)
{
  return ws_cli_render_why (run, view, options->output, options->width, options->height,
                            options->dark, options->kernel, error);
}

static gboolean
render_roofline (WsRun *run, const RenderOptions *options, GError **error)
{
  return render_why (run, "roofline", options, error);
}

static gboolean
render_stalls (WsRun *run, const RenderOptions *options, GError **error)
{
  return render_why (run, "stalls", options, error);
}

static gboolean
render_memory (WsRun *run, const RenderOptions *options, GError **error)
{
  return render_why (run, "memory", options, error);
}

/* The views `render` draws: one line each. A view draws one run (render)
 * or two, BEFORE and AFTER, each loaded on its own (render_pair). */
typedef struct
{
  const char *name;
  gboolean needs_ncu; /* reads ncu CSVs (and an nsys export, when given) */
  gboolean ranges;
  gboolean (*render) (WsRun *run, const RenderOptions *options, GError **error);
  gboolean (*render_pair) (WsRun *before, WsRun *after, const RenderOptions *options,
                           GError **error);
  /* Reads what it draws itself, without loading the run. */
  gboolean (*render_file) (const char *path, const RenderOptions *options, GError **error);
} View;

typedef struct
{
  const WsOverview *overview;
  WsPalette palette;
} OverviewDraw;

static void
draw_overview (cairo_t *cr, double width, double height, gpointer data)
{
  OverviewDraw *draw = data;

  ws_overview_chart_draw (cr, width, height, draw->overview, &draw->palette);
}

/* The window's first frame of a big export: its lanes and biggest kernels
 * from a sample of the kernel table, before (and without) the whole load. */
static gboolean
render_overview (const char *path, const RenderOptions *options, GError **error)
{
  g_autoptr (WsOverview) overview = ws_nsys_overview_read (path, NULL, NULL, error);
  OverviewDraw draw = { overview };

  if (overview == NULL)
    return FALSE;
  if (options->dark)
    ws_palette_init_dark (&draw.palette);
  else
    ws_palette_init_light (&draw.palette);
  return ws_render_to_file (options->output, options->sized ? options->width : 1600,
                            options->height > 0 ? options->height : 900, draw_overview, &draw,
                            error);
}

static gboolean
render_flame (WsRun *run, const RenderOptions *options, GError **error)
{
  return ws_cli_flame_render (run, 0, -1, 0, 0, options->output, options->width, options->height,
                              options->dark, 0, NULL, error);
}

/* The ranks view's heatmap; a run of one process is a job of one rank. */
static gboolean
render_ranks (WsRun *run, const RenderOptions *options, GError **error)
{
  g_autoptr (WsRankSet) set = NULL;
  g_autoptr (WsRanksChartModel) model = NULL;
  g_autoptr (WsRanks) one = NULL;
  const WsRanks *ranks = run->ranks;
  WsPalette palette;

  if (ranks == NULL)
    {
      const char *file = run->prov.files->len > 0 ? g_ptr_array_index (run->prov.files, 0) : "";

      one = ws_ranks_new_for_files (&file, &run, 1);
      g_ptr_array_add (one->figures, ws_rank_measure (run, WS_PID_ANY, 0));
      ranks = one;
    }
  set = ws_rank_set_new_for_run (run);
  model = ws_ranks_chart_model_new (ranks, set != NULL ? set->figures : ranks->figures);
  if (options->dark)
    ws_palette_init_dark (&palette);
  else
    ws_palette_init_light (&palette);
  return ws_ranks_chart_render_to_file (options->output, options->width, options->height, model,
                                        options->metric, &palette, error);
}

static const View views[] = {
  { "bars", FALSE, FALSE, render_bars, NULL },
  { "gauges", TRUE, FALSE, render_gauges, NULL },
  { "roofline", TRUE, FALSE, render_roofline, NULL },
  { "stalls", TRUE, FALSE, render_stalls, NULL },
  { "memory", TRUE, FALSE, render_memory, NULL },
  { "compare", FALSE, FALSE, NULL, render_compare },
  { "compare-nvtx", FALSE, TRUE, NULL, render_compare },
  { "timeline", FALSE, FALSE, render_timeline, NULL },
  { "steps", FALSE, FALSE, render_steps, NULL },
  { "flame", FALSE, FALSE, render_flame, NULL },
  { "compare-gauges", FALSE, FALSE, NULL, render_compare_gauges },
  { "ranks", FALSE, FALSE, render_ranks, NULL },
  { "overview", FALSE, FALSE, NULL, NULL, render_overview },
};

/* The options of `render`, as given. */
typedef struct
{
  char *view_str, *output, *size, *theme, *sort_str, *by_str, *range, *metric_str, *kernel_str;
  int top;
  gboolean steady;
  gboolean critical;
} RenderArgs;

static void
render_args_clear (RenderArgs *args)
{
  char **strings[] = { &args->view_str, &args->output,     &args->size,
                       &args->theme,    &args->sort_str,   &args->by_str,
                       &args->range,    &args->metric_str, &args->kernel_str };

  for (gsize i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RenderArgs, render_args_clear)

/* The view asked for, and @options from @args; NULL after printing what
 * is wrong. */
static const View *
check_options (const RenderArgs *args, const char *command, RenderOptions *options)
{
  const View *view = NULL;
  gint64 kernel = -1;

  options->output = args->output;
  options->width = 1200;
  options->sized = args->size != NULL;
  options->range = args->range;
  options->critical = args->critical;
  options->sort = WS_GAUGE_DURATION;
  options->by = WS_MATCH_DEMANGLED;
  if (!parse_size (args->size, &options->width, &options->height))
    {
      ws_cli_error (command, _ ("--size must be WIDTHxHEIGHT, e.g. 1600x900"));
      return NULL;
    }
  if (args->top < 0)
    {
      ws_cli_error (command, _ ("--top must be 0 or more"));
      return NULL;
    }
  options->top = (guint) args->top;
  if (args->metric_str != NULL)
    {
      WsRanksMetric metric;

      if (!ws_ranks_chart_metric_from_string (args->metric_str, &metric))
        {
          ws_cli_error (command,
                        _ ("--metric must be step-time, gpu-busy, waiting, work or comm-hidden"));
          return NULL;
        }
      options->metric = metric;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (views); i++)
    if (g_strcmp0 (args->view_str != NULL ? args->view_str : "bars", views[i].name) == 0)
      view = &views[i];
  if (view == NULL)
    {
      ws_cli_error (command, _ ("unknown view “%s”"), args->view_str);
      return NULL;
    }
  if (args->kernel_str != NULL && view->render_pair == render_compare_gauges)
    options->key = args->kernel_str;
  else if (args->kernel_str != NULL &&
           !g_ascii_string_to_signed (args->kernel_str, 10, 0, G_MAXINT, &kernel, NULL))
    {
      ws_cli_error (command, _ ("--kernel must be 0 or more"));
      return NULL;
    }
  options->kernel = (int) kernel;
  if (args->sort_str != NULL && !ws_gauges_sort_from_string (args->sort_str, &options->sort))
    {
      ws_cli_error (command, _ ("unknown --sort “%s”"), args->sort_str);
      return NULL;
    }
  if (args->by_str != NULL && !ws_match_by_from_string (args->by_str, &options->by))
    {
      ws_cli_error (command, _ ("--by must be demangled, short or normalized"));
      return NULL;
    }
  if (args->theme != NULL)
    {
      if (g_str_equal (args->theme, "dark"))
        options->dark = TRUE;
      else if (!g_str_equal (args->theme, "light"))
        {
          ws_cli_error (command, _ ("--theme must be light or dark"));
          return NULL;
        }
    }
  {
    gint64 start, end;

    if (!parse_range (args->range, &start, &end))
      {
        ws_cli_error (command, _ ("--range must be START_NS:END_NS (in the export's clock, END "
                                  "after START) or fit"));
        return NULL;
      }
  }
  options->ranges = view->ranges;
  return view;
}

/* Loads the run (BEFORE and AFTER for the compare views) the view draws,
 * and draws it.  Returns the exit status. */
static int
load_and_render (const View *view, const RenderOptions *options, int argc, char **argv,
                 gboolean steady)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsRun) after = NULL;

  if (view->render_file != NULL)
    {
      if (argc != 2 || steady)
        {
          ws_cli_error (argv[0], _ ("the overview takes one nsys export and no --steady"));
          return WS_EXIT_BAD_INPUT;
        }
      if (!view->render_file (argv[1], options, &error))
        return ws_cli_fail (error);
      return WS_EXIT_OK;
    }
  if (view->render_pair != NULL)
    {
      g_auto (GStrv) before_paths = NULL;
      g_auto (GStrv) after_paths = NULL;

      if (argc != 3)
        {
          ws_cli_error (argv[0], _ ("the compare views take two runs, BEFORE and AFTER"));
          return WS_EXIT_BAD_INPUT;
        }
      /* Each side is one run: a file, a folder, or files joined by commas. */
      before_paths = ws_input_split_side (argv[1]);
      after_paths = ws_input_split_side (argv[2]);
      run = ws_cli_load (before_paths, WS_LOAD_ALL, &error);
      if (run != NULL)
        after = ws_cli_load (after_paths, WS_LOAD_ALL, &error);
      if (after == NULL)
        return ws_cli_fail (error);
    }
  else if (view->needs_ncu)
    run = ws_cli_load_ncu (argv + 1, &error);
  else if (view->render == render_ranks)
    {
      ws_cli_load_as_job (TRUE);
      run = ws_cli_load (argv + 1, WS_LOAD_ALL & ~WS_LOAD_GPU_METRICS, &error);
    }
  else
    run = ws_cli_load (argv + 1, WS_LOAD_ALL, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  if (steady && !ws_cli_use_steady (&run, argv[1]))
    return WS_EXIT_BAD_INPUT;
  if (steady && after != NULL && !ws_cli_use_steady (&after, argv[2]))
    return WS_EXIT_BAD_INPUT;

  if (view->render_pair != NULL ? !view->render_pair (run, after, options, &error)
                                : !view->render (run, options, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return g_error_matches (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE) ? WS_EXIT_BAD_INPUT
                                                                               : WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}

int
ws_cli_render (int argc, char **argv)
{
  g_auto (RenderArgs) args = { .top = 15 };
  GOptionEntry entries[] = {
    { "view", 'v', 0, G_OPTION_ARG_STRING, &args.view_str,
      N_ ("What to draw: bars (default), timeline, overview (the first frame of a big nsys "
          "export, from a sample), steps (of a training loop), flame (a CPU profile), gauges, "
          "roofline, stalls or memory of ncu results, ranks (the heatmap of a "
          "job's ranks by step), compare, compare-nvtx or compare-gauges (two runs: BEFORE AFTER)"),
      "VIEW" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &args.output,
      N_ ("Image to write: .png, .svg or .pdf"), "OUT" },
    { "top", 't', 0, G_OPTION_ARG_INT, &args.top,
      N_ ("Bars before the rest is folded into “others” (default 15, 0 for all)"), "N" },
    { "kernel", 'k', 0, G_OPTION_ARG_STRING, &args.kernel_str,
      N_ ("Gauges, roofline, stalls, memory: the launch ID (as `gauges` numbers them); without "
          "it the gauges overview, every profiled kernel's roofline, the longest launch's stalls "
          "or memory; compare-gauges: the kernel KEY (its name as compare prints it), all "
          "without it"),
      "ID|KEY" },
    { "sort", 0, 0, G_OPTION_ARG_STRING, &args.sort_str,
      N_ ("Gauges overview order: duration (default), id, sm, memory, dram, tensor, fp32, l1, "
          "l2 or occupancy"),
      "KEY" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &args.size,
      N_ ("Image size in pixels (default 1200 wide, height to fit)"), "WxH" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &args.theme, N_ ("Colours: light (default) or dark"),
      "THEME" },
    { "critical-path", 0, 0, G_OPTION_ARG_NONE, &args.critical,
      N_ ("timeline: draw the median steady step's critical path, and show that step unless "
          "--range says otherwise"),
      NULL },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &args.range,
      N_ ("timeline: the time to show, in ns of the export's clock (default: fit, the whole run)"),
      "START_NS:END_NS" },
    { "by", 0, 0, G_OPTION_ARG_STRING, &args.by_str,
      N_ ("Compare views: match kernels by demangled (default), short or normalized name"),
      "FORM" },
    { "steady", 0, 0, G_OPTION_ARG_NONE, &args.steady,
      N_ ("Only the steady state: the steps past the warm-up (see warpscope-cli steps)"), NULL },
    { "metric", 0, 0, G_OPTION_ARG_STRING, &args.metric_str,
      N_ ("ranks: what colours the cells: step-time (default), gpu-busy, waiting, work or "
          "comm-hidden (the share of NCCL time hidden under compute)"),
      "METRIC" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE… — draw a chart to an image"));
  g_auto (WsCliFrame) frame = { 0 };
  RenderOptions options = { 0 };
  const View *view = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _ ("Draws what the window shows, with the same drawing code, "
                                   "into a PNG, SVG or PDF file. The compare views take BEFORE "
                                   "and AFTER, each one run: a file, a folder, or the files of "
                                   "one run joined by commas (run.sqlite,run_ncu_raw.csv)."));
  ws_cli_frame_init (&frame, context, argv[0], 0, NULL);
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, &args.output, NULL))
    return WS_EXIT_BAD_INPUT;
  if (args.output == NULL)
    {
      ws_cli_error (argv[0], _ ("--output is required"));
      return WS_EXIT_BAD_INPUT;
    }
  view = check_options (&args, argv[0], &options);
  if (view == NULL)
    return WS_EXIT_BAD_INPUT;

  return load_and_render (view, &options, argc, argv, args.steady);
}
