/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "ws-bars-chart.h"
#include "ws-nsys-stats-reader.h"
#include "ws-test-pixels.h"
#include "ws-test-util.h"

/* Draws the probe's kernels and measures each bar in the pixels: the lengths
 * are proportional to the totals of the ground-truth CSV (within a pixel). */
static void
test_bar_lengths_proportional (void)
{
  g_autofree char *csv =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSummary) summary = ws_nsys_stats_read (csv, &error);
  g_autoptr (WsBarsModel) model = NULL;
  /* Totals from the CSV, largest first (barrier_heavy … imbalanced). */
  const double totals[] = { 1358714, 1243736, 924306, 327111, 151811, 73698 };
  WsBarsState state = { -1, -1, NULL };
  WsPalette palette;
  cairo_surface_t *surface;
  cairo_t *cr;
  double lengths[6];
  const int width = 1000, height = 600;

  g_assert_no_error (error);
  ws_palette_init_light (&palette);
  model = ws_bars_model_new (summary, 15, WS_BARS_SORT_TOTAL, NULL, NULL, NULL);
  g_assert_cmpuint (model->bars->len, ==, 6);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  ws_bars_chart_draw (cr, width, height, model, &state, &palette);
  cairo_surface_flush (surface);

  for (guint i = 0; i < 6; i++)
    {
      cairo_rectangle_t rect;
      const guint8 *data = cairo_image_surface_get_data (surface);
      int stride = cairo_image_surface_get_stride (surface);
      int y, x, run = 0;

      /* The rectangle gives only the row to look at; the length is counted
       * in the pixels. */
      g_assert_true (ws_bars_chart_bar_rect (cr, width, model, &state, &palette, i, &rect));
      y = (int) (rect.y + rect.height / 2);
      for (x = 0; x < width; x++)
        if (ws_test_argb_is_color (data + y * stride + x * 4, palette.bar))
          run++;
      lengths[i] = run;
      g_assert_cmpint (run, >, 0);
    }
  for (guint i = 1; i < 6; i++)
    {
      double expected = lengths[0] * totals[i] / totals[0];

      g_test_message ("bar %u: %.0f px, expected %.1f", i, lengths[i], expected);
      g_assert_cmpfloat (fabs (lengths[i] - expected), <=, 1.0);
    }
  /* The widest bar uses most of the width left beside its label. */
  g_assert_cmpfloat (lengths[0], >, width * 0.6);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* Folding: top 2 of 6 kernels leaves one "others" bar with the rest. */
static void
test_others_bar (void)
{
  g_autofree char *csv =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autoptr (WsSummary) summary = ws_nsys_stats_read (csv, NULL);
  g_autoptr (WsBarsModel) model =
    ws_bars_model_new (summary, 2, WS_BARS_SORT_TOTAL, NULL, NULL, NULL);
  const WsBar *other;

  g_assert_cmpuint (model->bars->len, ==, 3);
  other = ws_bars_model_get (model, 2);
  g_assert_true (other->is_other);
  g_assert_cmpuint (other->n_folded, ==, 4);
  g_assert_cmpint (other->total, ==, 924306 + 327111 + 151811 + 73698);
  g_assert_cmpint (other->count, ==, 3 + 320 + 3 + 4);
}

static void
test_sort_and_filter (void)
{
  g_autofree char *csv =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autoptr (WsSummary) summary = ws_nsys_stats_read (csv, NULL);
  g_autoptr (WsBarsModel) by_count =
    ws_bars_model_new (summary, 0, WS_BARS_SORT_INSTANCES, NULL, NULL, NULL);
  g_autoptr (WsBarsModel) by_avg =
    ws_bars_model_new (summary, 0, WS_BARS_SORT_AVG, NULL, NULL, NULL);
  g_autoptr (WsBarsModel) by_name =
    ws_bars_model_new (summary, 0, WS_BARS_SORT_NAME, NULL, NULL, NULL);
  g_autoptr (WsBarsModel) filtered =
    ws_bars_model_new (summary, 0, WS_BARS_SORT_TOTAL, "HEAVY", NULL, NULL);

  g_assert_cmpstr (ws_bars_model_get (by_count, 0)->name, ==, "tiny(float *)");
  /* barrier_heavy has the largest average: 452904.7 ns. */
  g_assert_cmpstr (ws_bars_model_get (by_avg, 0)->name, ==, "barrier_heavy(float *, int)");
  g_assert_cmpstr (ws_bars_model_get (by_name, 0)->label, ==, "barrier_heavy");
  g_assert_cmpstr (ws_bars_model_get (by_name, 5)->label, ==, "tiny");
  g_assert_cmpuint (filtered->bars->len, ==, 2);
  g_assert_cmpuint (filtered->n_kernels, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/bars/lengths-proportional-to-totals", test_bar_lengths_proportional);
  g_test_add_func ("/render/bars/others-folds-the-rest", test_others_bar);
  g_test_add_func ("/render/bars/sort-and-filter", test_sort_and_filter);

  return g_test_run ();
}
