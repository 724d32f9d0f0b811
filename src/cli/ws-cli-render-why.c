/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-cli.h"
#include "ws-ncu-results.h"
#include "ws-surface.h"
#include "ws-why-chart.h"

/* `render --view roofline|stalls|memory`: why a kernel is slow, drawn by
 * the window's own charts. */

typedef struct
{
  WsWhyChart chart;
  WsNcuResults *results;
  WsWhy *why;
  WsRooflineModel *roofline;
  WsPalette palette;
} WhyDraw;

static void
draw (cairo_t *cr, double width, double height, gpointer data)
{
  WhyDraw *d = data;

  ws_why_chart_draw (cr, width, height, d->chart, d->results, d->why, d->roofline, &d->palette);
}

/* The launch with the longest duration: the one the Gauges page shows first. */
static guint
longest_launch (const WsNcuResults *results)
{
  guint best = 0;
  double longest = -1;

  for (guint i = 0; i < ws_ncu_results_n_launches (results); i++)
    {
      const WsGauge *d = &ws_ncu_results_gauges (results, i)->gauge[WS_GAUGE_DURATION];

      if (d->collected && d->value > longest)
        {
          longest = d->value;
          best = i;
        }
    }
  return best;
}

/**
 * ws_cli_render_why:
 * @view: "roofline", "stalls" or "memory"
 * @kernel: the launch (as `gauges` numbers them), or -1: the longest for
 *   stalls and memory, every profiled kernel for the roofline
 * @height: 0 for the chart's natural height
 */
gboolean
ws_cli_render_why (WsRun *run, const char *view, const char *output, double width, double height,
                   gboolean dark, int kernel, GError **error)
{
  WhyDraw d = { WS_WHY_CHART_STALLS, run->ncu, NULL, NULL, { { 0 } } };
  guint n = ws_ncu_results_n_launches (run->ncu);
  gboolean ok;

  if (kernel >= 0 && (guint) kernel >= n)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("--kernel %d: the files hold launches 0 to %u"), kernel, n - 1);
      return FALSE;
    }
  if (dark)
    ws_palette_init_dark (&d.palette);
  else
    ws_palette_init_light (&d.palette);
  d.chart = g_str_equal (view, "memory")   ? WS_WHY_CHART_MEMORY
            : g_str_equal (view, "stalls") ? WS_WHY_CHART_STALLS
            : kernel < 0                   ? WS_WHY_CHART_ROOFLINE_RUN
                                           : WS_WHY_CHART_ROOFLINE;
  if (d.chart == WS_WHY_CHART_ROOFLINE_RUN)
    d.roofline = ws_roofline_model_new_run (run);
  else
    {
      d.why = ws_why_compute (run->ncu, kernel >= 0 ? (guint) kernel : longest_launch (run->ncu));
      if (d.chart == WS_WHY_CHART_ROOFLINE)
        d.roofline = ws_roofline_model_new_launch (run->ncu, d.why);
    }
  if (height <= 0)
    {
      cairo_t *cr = ws_measure_context ();

      height = ws_why_chart_natural_height (cr, width, d.chart, run->ncu, d.why, &d.palette);
      cairo_destroy (cr);
    }
  ok = ws_render_to_file (output, width, ceil (height), draw, &d, error);
  g_clear_pointer (&d.roofline, ws_roofline_model_free);
  g_clear_pointer (&d.why, ws_why_free);
  return ok;
}
