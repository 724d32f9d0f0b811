/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "ws-compare-chart.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-test-load.h"
#include "ws-test-pixels.h"
#include "ws-test-util.h"

static WsRun *
load (const char *name)
{
  WsRun *run = ws_test_load_nsys (name);

  return run;
}

/* The diverging bars, measured in the pixels: faster kernels go left of
 * the zero line in the "faster" colour, slower ones right in the "slower"
 * colour, lengths in proportion to |Δ|. */
static void
test_diverging_bars (void)
{
  g_autoptr (WsRun) before = load ("v2025.3_h100_train_fp32.sqlite");
  g_autoptr (WsRun) after = load ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_NORMALIZED);
  WsCompareState state = { -1, -1, 12, NULL, FALSE };
  const int width = 1200, height = 1000;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  const guint8 *data;
  int stride;
  double unit = 0;
  WsPalette palette;

  ws_palette_init_light (&palette);
  ws_compare_chart_draw (cr, width, height, cmp, &state, &palette);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);

  for (guint i = 0; i < ws_compare_chart_n_rows (cmp, &state); i++)
    {
      const WsDelta *d = ws_compare_chart_row (cmp, &state, i);
      cairo_rectangle_t rect;
      int y, left = 0, right = 0, first = width, last = -1;

      g_assert_true (ws_compare_chart_bar_rect (cr, width, cmp, &state, &palette, i, FALSE, &rect));
      y = (int) (rect.y + rect.height / 2);
      for (int x = 0; x < width; x++)
        {
          const guint8 *px = data + y * stride + x * 4;

          if (ws_test_argb_is_color (px, palette.faster))
            left++, first = MIN (first, x), last = MAX (last, x);
          else if (ws_test_argb_is_color (px, palette.slower))
            right++, first = MIN (first, x), last = MAX (last, x);
        }
      if (llabs (d->delta) < 1000)
        continue; /* sub-pixel bars */
      if (d->delta < 0)
        {
          g_assert_cmpint (left, >, 0);
          g_assert_cmpint (right, ==, 0);
          g_assert_cmpint (last, <, width / 2 + 1);
        }
      else
        {
          g_assert_cmpint (right, >, 0);
          g_assert_cmpint (left, ==, 0);
          g_assert_cmpint (first, >=, width / 2);
        }
      /* Pixels per ns, from the largest bar; the others agree within a pixel. */
      if (i == 0)
        unit = (double) (left + right) / (double) llabs (d->delta);
      else
        g_assert_cmpfloat (fabs ((left + right) - unit * (double) llabs (d->delta)), <=, 1.0);
    }
  g_assert_cmpfloat (unit, >, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/compare/diverging-bars", test_diverging_bars);

  return g_test_run ();
}
