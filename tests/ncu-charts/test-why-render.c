/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ws-gauge-style.h"
#include "ws-markdown-document.h"
#include "ws-memory-chart.h"
#include "ws-ncu-match.h"
#include "ws-roofline-chart.h"
#include "ws-stalls-chart.h"
#include "ws-test-load.h"
#include "ws-test-pixels.h"
#include "ws-test-util.h"

/* The charts of why a kernel is slow, drawn on image surfaces as the
 * window and `render` draw them, and read back. */

#define WIDTH 1200

static cairo_surface_t *
draw_stalls (const WsNcuResults *r, const WsWhy *why, const WsPalette *palette, double *height)
{
  cairo_surface_t *probe = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (probe);
  cairo_surface_t *surface;

  *height = ceil (ws_stalls_chart_natural_height (cr, WIDTH, r, why, palette));
  cairo_destroy (cr);
  cairo_surface_destroy (probe);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, (int) *height);
  cr = cairo_create (surface);
  ws_stalls_chart_draw (cr, WIDTH, *height, r, why, palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* The longest horizontal run of pixels of colour @c. */
static int
longest_run (cairo_surface_t *surface, WsColor c)
{
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  int best = 0;

  for (int y = 0; y < h; y++)
    {
      int run = 0;

      for (int x = 0; x < w; x++)
        {
          run = ws_test_pixel_is_color (surface, x, y, c) ? run + 1 : 0;
          best = MAX (best, run);
        }
    }
  return best;
}

static gboolean
has_color (cairo_surface_t *surface, WsColor c)
{
  return longest_run (surface, c) >= 3;
}

/* barrier_heavy (h100_probe_full_raw_base_units.csv, launch 3): the top
 * stall, barrier 12.67, is the longest bar, in the memory colour; the
 * next, short_scoreboard 10.04, is 10.04 / 12.67 of its length. */
static void
test_stalls_bars_to_scale (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  g_autoptr (WsWhy) why = ws_why_compute (r, 3);
  WsPalette palette;
  double height;
  cairo_surface_t *surface;
  int top, second;

  ws_palette_init_light (&palette);
  g_assert_cmpstr (ws_stalls_top (why->stalls)->reason, ==, "barrier");
  g_assert_cmpfloat_with_epsilon (ws_stalls_top (why->stalls)->value, 12.67, 1e-9);
  g_assert_cmpfloat_with_epsilon (ws_stalls_find (why->stalls, "short_scoreboard")->value, 10.04,
                                  1e-9);
  surface = draw_stalls (r, why, &palette, &height);
  top = longest_run (surface, palette.memory);
  second = longest_run (surface, ws_gauge_band_color (&palette, WS_GAUGE_BAND_MEDIUM));
  g_assert_cmpint (top, >, 400);
  g_assert_cmpfloat (fabs ((double) second / top - 10.04 / 12.67), <, 0.01);
  cairo_surface_destroy (surface);
}

static cairo_surface_t *
draw_memory (const WsNcuResults *r, const WsWhy *why, const WsPalette *palette)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, 400);
  cairo_t *cr = cairo_create (surface);

  ws_memory_chart_draw (cr, WIDTH, 400, r, why, palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* The unit that limits is outlined in the compute colour: L1 for
 * barrier_heavy; a latency-bound kernel (the GPT-2 run's copy kernel has
 * none here: the bf16 run's launch 5, every unit under 60%) has none. */
static void
test_memory_outlines_the_limiter (void)
{
  g_autoptr (WsNcuResults) probe = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  g_autoptr (WsNcuResults) bf16 = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");
  g_autoptr (WsWhy) limited = ws_why_compute (probe, 3);
  g_autoptr (WsWhy) latency = ws_why_compute (bf16, 5);
  WsPalette palette;
  cairo_surface_t *a, *b;

  ws_palette_init_dark (&palette);
  g_assert_cmpint (limited->bottleneck.unit, ==, WS_LIMIT_L1);
  g_assert_cmpint (latency->bottleneck.kind, ==, WS_BOTTLENECK_LATENCY);
  a = draw_memory (probe, limited, &palette);
  b = draw_memory (bf16, latency, &palette);
  g_assert_true (has_color (a, palette.compute));
  g_assert_false (has_color (b, palette.compute));
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
}

/* The probe's kernels on one roofline: four kernels, of which
 * stream_copy does no floating-point work and is not placed; each placed
 * point sits at its launch's FLOP/s and DRAM intensity. */
static void
test_run_roofline_points (void)
{
  g_autoptr (WsNcuResults) ncu = ws_test_load_ncu ("h100_probe_full_raw.csv");
  g_autoptr (WsRun) run = ws_run_new_from_ncu (ncu);
  g_autoptr (WsRooflineModel) model = ws_roofline_model_new_run (run);

  g_assert_cmpuint (model->points->len, ==, 4);
  g_assert_cmpuint (model->unplaced, ==, 1);
  for (guint i = 0; i < model->points->len; i++)
    {
      const WsRooflinePoint *p = &g_array_index (model->points, WsRooflinePoint, i);
      g_autoptr (WsWhy) why = ws_why_compute (ncu, p->launch);

      g_assert_cmpfloat (p->flops, ==, ws_roofline_flops (why->roofline));
      g_assert_cmpfloat (p->intensity[WS_LEVEL_DRAM], ==,
                         ws_roofline_intensity (why->roofline, WS_LEVEL_DRAM));
      g_assert_cmpint (p->kind, ==, why->bottleneck.kind);
    }
  g_assert_false (isnan (model->peak[WS_PRECISION_FP32]));
  g_assert_false (isnan (model->bandwidth[WS_LEVEL_DRAM]));
}

/* `render --view roofline|stalls|memory` writes each chart; a launch that
 * the files do not hold is one line and exit status 2. */
static void
test_cli_views (void)
{
  g_autofree char *csv = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  static const char *const views[] = { "roofline", "stalls", "memory" };

  for (gsize i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autofree char *out = g_strdup_printf ("%s/%s.png", dir, views[i]);
      const char *argv[] = { ws_test_cli (), "render", "--view", views[i], "--kernel", "2",
                             "--size",       "900x0",  "-o",     out,      csv,        NULL };
      cairo_surface_t *png;

      g_assert_cmpint (ws_test_run (argv, NULL, NULL), ==, 0);
      png = cairo_image_surface_create_from_png (out);
      g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_image_surface_get_width (png), ==, 900);
      g_assert_cmpint (cairo_image_surface_get_height (png), >, 200);
      cairo_surface_destroy (png);
    }
  {
    g_autofree char *out = g_strdup_printf ("%s/x.png", dir);
    const char *argv[] = { ws_test_cli (), "render", "--view", "stalls", "--kernel", "8",
                           "-o",           out,      csv,      NULL };
    g_autofree char *err = NULL;

    g_assert_cmpint (ws_test_run (argv, NULL, &err), ==, 2);
    g_assert_nonnull (strstr (err, "--kernel 8: the files hold launches 0 to 7"));
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
  ws_test_rmtree (dir);
}

/* The Markdown report of the probe with its ncu CSV: the run's roofline,
 * each profiled kernel with its three charts (four kernels, the longest
 * launch of each), and the NVTX ranges by bottleneck.  "compute" launches
 * the four profiled kernels three times each (SQL: barrier_heavy
 * 1,358,714 ns, fma_heavy 924,306, stream_copy 151,811, strided_read
 * 1,243,736; 3,678,567 in all); only fma_heavy is compute-bound:
 * 924,306 / 3,678,567 = 25.1%, the rest 74.9% memory-bound. */
static void
test_markdown_why (void)
{
  g_autoptr (WsRun) run =
    ws_test_load_nsys_ncu ("v2025.3_h100_probe.sqlite", "h100_probe_full_raw.csv");
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "report.md", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GPtrArray) figs = NULL;
  guint charts = 0;
  const char *row;

  g_assert_true (ws_markdown_document_write (run, path, NULL, &error));
  g_assert_no_error (error);
  text = ws_test_read (path);
  g_assert_nonnull (strstr (text, "## Why the kernels are slow"));
  g_assert_nonnull (strstr (text, "- **Memory-bound: L1/shared memory 89.91%** — "));
  g_assert_nonnull (strstr (text, "### Bottleneck by NVTX range"));
  row = strstr (text, "| compute | ");
  g_assert_nonnull (row);
  g_assert_true (g_str_has_prefix (row, "| compute | 3.68 ms | 25.1% | 74.9% | 0.0% | 0.0% | "
                                        "0.0% | 75% memory-bound, 25% compute-bound |\n"));
  {
    g_autofree char *folder = g_build_filename (dir, "figs", NULL);

    figs = ws_test_list_dir (folder);
  }
  for (guint i = 0; i < figs->len; i++)
    if (strstr (g_ptr_array_index (figs, i), "_launch") != NULL)
      charts++;
  g_assert_cmpuint (charts, ==, 4 * 3);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/why-render/stalls/bars-to-scale", test_stalls_bars_to_scale);
  g_test_add_func ("/why-render/memory/outlines-the-limiter", test_memory_outlines_the_limiter);
  g_test_add_func ("/why-render/roofline/run-points", test_run_roofline_points);
  g_test_add_func ("/why-render/cli/views", test_cli_views);
  g_test_add_func ("/why-render/markdown/why-section", test_markdown_why);
  return g_test_run ();
}
