/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-bars-chart.h"
#include "ws-cli.h"
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

int
ws_cli_render (int argc, char **argv)
{
  g_autofree char *view = NULL;
  g_autofree char *output = NULL;
  g_autofree char *size = NULL;
  g_autofree char *theme = NULL;
  int top = 15;
  GOptionEntry entries[] = {
    { "view", 'v', 0, G_OPTION_ARG_STRING, &view, N_ ("What to draw: bars (default)"), "VIEW" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Image to write: .png, .svg or .pdf"),
      "OUT" },
    { "top", 't', 0, G_OPTION_ARG_INT, &top,
      N_ ("Bars before the rest is folded into “others” (default 15, 0 for all)"), "N" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size,
      N_ ("Image size in pixels (default 1200 wide, height to fit)"), "WxH" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, N_ ("Colours: light (default) or dark"),
      "THEME" },
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
  if (view != NULL && !g_str_equal (view, "bars"))
    {
      g_printerr (_ ("%s: unknown view “%s”\n"), argv[0], view);
      return WS_EXIT_BAD_INPUT;
    }

  run = ws_cli_load (argv + 1, WS_LOAD_ALL, &error);
  if (run == NULL)
    return ws_cli_fail (error);

  if (render_bars (run, output, width, height, (guint) top, dark, &error) != WS_EXIT_OK)
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
