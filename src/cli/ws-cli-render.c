/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-bars-chart.h"
#include "ws-cli.h"
#include "ws-compare-chart.h"
#include "ws-run-loader.h"
#include "ws-surface.h"

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
static int
render_compare (char **paths, const char *output, double width, double height, guint top,
                gboolean dark, gboolean ranges, WsMatchBy by, GError **error)
{
  const char *b[] = { paths[0], NULL };
  const char *a[] = { paths[1], NULL };
  g_autoptr (WsRun) before = ws_run_load (b, WS_LOAD_ALL, NULL, NULL, NULL, error);
  g_autoptr (WsRun) after = NULL;
  g_autoptr (WsComparison) cmp = NULL;
  g_autofree char *title = NULL;
  CompareDraw compare = { 0 };

  if (before == NULL)
    return WS_EXIT_BAD_INPUT;
  after = ws_run_load (a, WS_LOAD_ALL, NULL, NULL, NULL, error);
  if (after == NULL)
    return WS_EXIT_BAD_INPUT;
  ws_run_compute_summaries (before);
  ws_run_compute_summaries (after);
  cmp = ws_comparison_new (before, after, by);
  title =
    g_strdup_printf (_ ("%s → %s"), ws_run_display_name (before), ws_run_display_name (after));

  compare.cmp = cmp;
  compare.state.hover = compare.state.selected = -1;
  compare.state.top_n = top;
  compare.state.title = title;
  compare.state.ranges = ranges;
  if (dark)
    ws_palette_init_dark (&compare.palette);
  else
    ws_palette_init_light (&compare.palette);
  if (height <= 0)
    {
      cairo_t *cr = ws_measure_context ();

      height = ceil (ws_compare_chart_natural_height (cr, cmp, &compare.state, &compare.palette));
      cairo_destroy (cr);
    }
  return ws_render_to_file (output, width, height, draw_compare, &compare, error) ? WS_EXIT_OK
                                                                                  : WS_EXIT_FAILED;
}

int
ws_cli_render (int argc, char **argv)
{
  g_autofree char *view = NULL;
  g_autofree char *output = NULL;
  g_autofree char *size = NULL;
  g_autofree char *theme = NULL;
  g_autofree char *by_str = NULL;
  int top = 15;
  WsMatchBy by = WS_MATCH_DEMANGLED;
  GOptionEntry entries[] = {
    { "view", 'v', 0, G_OPTION_ARG_STRING, &view,
      N_ ("What to draw: bars (default); compare or compare-nvtx (two files: BEFORE AFTER)"),
      "VIEW" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Image to write: .png, .svg or .pdf"),
      "OUT" },
    { "top", 't', 0, G_OPTION_ARG_INT, &top,
      N_ ("Bars before the rest is folded into “others” (default 15, 0 for all)"), "N" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size,
      N_ ("Image size in pixels (default 1200 wide, height to fit)"), "WxH" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, N_ ("Colours: light (default) or dark"),
      "THEME" },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by_str,
      N_ ("Compare views: match kernels by demangled (default), short or normalized name"),
      "FORM" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE… — draw a chart to an image"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  double width = 1200, height = 0;
  gboolean dark = FALSE;
  int status;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _ ("Draws what the window shows, with the same drawing code, "
                                   "into a PNG, SVG or PDF file."));
  if (!ws_cli_parse (context, &argc, &argv, 1, -1))
    return WS_EXIT_BAD_INPUT;
  if (output == NULL)
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
  if (by_str != NULL && !ws_match_by_from_string (by_str, &by))
    {
      g_printerr (_ ("%s: --by must be demangled, short or normalized\n"), argv[0]);
      return WS_EXIT_BAD_INPUT;
    }

  if (view != NULL && (g_str_equal (view, "compare") || g_str_equal (view, "compare-nvtx")))
    {
      if (argc != 3)
        {
          g_printerr (_ ("%s: the compare views take two files, BEFORE and AFTER\n"), argv[0]);
          return WS_EXIT_BAD_INPUT;
        }
      status = render_compare (argv + 1, output, width, height, (guint) top, dark,
                               g_str_equal (view, "compare-nvtx"), by, &error);
    }
  else if (view == NULL || g_str_equal (view, "bars"))
    {
      run = ws_cli_load (argv + 1, WS_LOAD_ALL, &error);
      if (run == NULL)
        return ws_cli_fail (error);
      status = render_bars (run, output, width, height, (guint) top, dark, &error);
    }
  else
    {
      g_printerr (_ ("%s: unknown view “%s”\n"), argv[0], view);
      return WS_EXIT_BAD_INPUT;
    }

  if (status == WS_EXIT_BAD_INPUT)
    return ws_cli_fail (error);
  if (status != WS_EXIT_OK)
    g_printerr ("warpscope-cli: %s\n", error->message);
  return status;
}
