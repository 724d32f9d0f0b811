/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-compare-gauges.h"
#include "ws-gauge-style.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-surface.h"
#include "ws-test-pixels.h"
#include "ws-test-load.h"
#include "ws-test-util.h"
#include "ws-text.h"

#define WIDTH 1200
#define LAYER_NORM "at::native::<unnamed>::vectorized_layer_norm_kernel"

static WsRun *
load (const char *nsys, const char *ncu)
{
  const char *paths[] = { nsys, ncu, NULL };
  WsRun *run = ws_test_load_paths (paths);

  return run;
}

typedef struct
{
  char *fp32, *bf16, *fp32_ncu, *bf16_ncu;
} Files;

static void
files_init (Files *f)
{
  f->fp32 = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  f->bf16 = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  f->fp32_ncu = ws_test_data ("ncu", "h100_train_fp32_sections_raw.csv", NULL);
  f->bf16_ncu = ws_test_data ("ncu", "h100_train_bf16_sections_raw.csv", NULL);
}

static void
files_clear (Files *f)
{
  g_free (f->fp32);
  g_free (f->bf16);
  g_free (f->fp32_ncu);
  g_free (f->bf16_ncu);
}

/* The x just past the last pixel of the track's middle row in the fill
 * colour (the tick may cut the fill; its end is what counts). */
static int
measure_fill_end (cairo_surface_t *surface, const WsCompareGaugeGeometry *g)
{
  int y = (int) (g->track.y + g->track.height / 2);
  int end = (int) g->track.x;

  for (int x = (int) g->track.x; x < (int) (g->track.x + g->track.width); x++)
    if (ws_test_pixel_is_color (surface, x, y, g->fill))
      end = x + 1;
  return end;
}

/* The tick's centre, from the row just above the track, where nothing but
 * the tick is drawn: the middle of its foreground pixels. */
static double
measure_tick (cairo_surface_t *surface, const WsCompareGaugeGeometry *g)
{
  int y = (int) g->track.y - 2;
  int first = -1, last = -1;

  for (int x = (int) g->track.x - 4; x < (int) (g->track.x + g->track.width + 4); x++)
    if (ws_test_pixel_is_color (surface, x, y, g->marker))
      {
        if (first < 0)
          first = x;
        last = x;
      }
  g_assert_cmpint (first, >=, 0);
  g_assert_cmpint (last - first, <=, 2);
  return (first + last + 1) / 2.0;
}

/* Values from the CSV cells (fp32 row ID 3 before, bf16 row ID 3 after),
 * and the value at the right end of the track: 100 for percentages, the
 * longer duration (fp32 "0.133824" ms), and for stalls the warp cycles per
 * issued instruction that they share, the larger of the two sides
 * (smsp__average_warp_latency_per_inst_issued.ratio: fp32 "32.760173",
 * bf16 "18.436251"). */
static const struct
{
  WsGaugeKind kind;
  double before, after, scale;
} expected[] = {
  { WS_GAUGE_DURATION, 133824, 66624, 133824 },
  { WS_GAUGE_SM, 31.500516, 72.752171, 100 },
  { WS_GAUGE_MEMORY, 72.551387, 54.297936, 100 },
  { WS_GAUGE_FP32, 16.408150, 36.902873, 100 },
  { WS_GAUGE_L2_HIT, 44.002673, 57.600454, 100 },
  { WS_GAUGE_OCCUPANCY, 67.105313, 88.428950, 100 },
  { WS_GAUGE_STALL_LONG_SCOREBOARD, 22.838352, 7.117916, 32.760173 },
};

static void
check_rows (cairo_surface_t *surface, const WsComparison *cmp, const WsDelta *d,
            const WsPalette *palette)
{
  cairo_t *cr = ws_measure_context ();

  cairo_surface_flush (surface);
  for (gsize i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      WsCompareGaugeGeometry g;
      double w, fill_end, tick;

      g_assert_true (ws_compare_gauges_geometry (cr, WIDTH, cmp, d, palette, expected[i].kind, &g));
      w = g.track.width;
      g_assert_cmpfloat (w, >, WIDTH * 0.4);
      fill_end = g.track.x + w * expected[i].after / expected[i].scale;
      /* A tick at the very end stays inside the track. */
      tick = MIN (g.track.x + w * expected[i].before / expected[i].scale, g.track.x + w - 1);

      g_test_message ("%s: fill ends at %d (%.1f), tick at %.1f (%.1f)",
                      ws_gauge_label (expected[i].kind), measure_fill_end (surface, &g), fill_end,
                      measure_tick (surface, &g), tick);
      g_assert_cmpfloat (fabs (measure_fill_end (surface, &g) - fill_end), <=, 1.0);
      g_assert_cmpfloat (fabs (measure_tick (surface, &g) - tick), <=, 1.0);
    }
  /* Faster after: the duration's fill takes the "faster" colour; the SM
   * fill (72.75% ≥ 60) the strong band, the L2 fill (57.60% < 60) the
   * faint one. */
  {
    WsCompareGaugeGeometry g;

    ws_compare_gauges_geometry (cr, WIDTH, cmp, d, palette, WS_GAUGE_DURATION, &g);
    g_assert_true (ws_test_pixel_is_color (
      surface, (int) g.track.x + 2, (int) (g.track.y + g.track.height / 2), palette->faster));
    ws_compare_gauges_geometry (cr, WIDTH, cmp, d, palette, WS_GAUGE_SM, &g);
    g_assert_true (ws_test_pixel_is_color (surface, (int) g.track.x + 2,
                                           (int) (g.track.y + g.track.height / 2),
                                           ws_gauge_band_color (palette, WS_GAUGE_BAND_HIGH)));
    ws_compare_gauges_geometry (cr, WIDTH, cmp, d, palette, WS_GAUGE_L2_HIT, &g);
    g_assert_true (ws_test_pixel_is_color (surface, (int) g.track.x + 2,
                                           (int) (g.track.y + g.track.height / 2),
                                           ws_gauge_band_color (palette, WS_GAUGE_BAND_LOW)));
  }
  cairo_destroy (cr);
}

/* `render --view compare-gauges --kernel KEY` with each side as
 * "export,ncu.csv": the PNG's bars end where the values after put them
 * and the ticks stand where the values before do. */
static void
test_png_markers_and_bars (void)
{
  Files f;
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *png = g_build_filename (dir, "layer-norm.png", NULL);
  g_autofree char *before = NULL, *after = NULL, *out = NULL, *err = NULL;
  g_autoptr (WsRun) b = NULL;
  g_autoptr (WsRun) a = NULL;
  g_autoptr (WsComparison) cmp = NULL;
  cairo_surface_t *surface;
  WsPalette palette;
  const WsDelta *d;

  files_init (&f);
  before = g_strdup_printf ("%s,%s", f.fp32, f.fp32_ncu);
  after = g_strdup_printf ("%s,%s", f.bf16, f.bf16_ncu);
  {
    const char *argv[] = {
      ws_test_cli (), "render", "--view", "compare-gauges", "--by", "normalized", "--kernel",
      "layer_norm",   "-o",     png,      before,           after,  NULL
    };

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  }
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, WIDTH);

  b = load (f.fp32, f.fp32_ncu);
  a = load (f.bf16, f.bf16_ncu);
  cmp = ws_comparison_new (b, a, WS_MATCH_NORMALIZED);
  d = ws_comparison_find (cmp, LAYER_NORM);
  g_assert_nonnull (d);
  ws_palette_init_light (&palette);
  {
    cairo_t *cr = ws_measure_context ();

    /* The image is the panel's natural height. */
    g_assert_cmpint (cairo_image_surface_get_height (surface), ==,
                     (int) ceil (ws_compare_gauges_natural_height (cr, WIDTH, cmp, d, &palette)));
    cairo_destroy (cr);
  }
  check_rows (surface, cmp, d, &palette);

  cairo_surface_destroy (surface);
  ws_test_rmtree (dir);
  files_clear (&f);
}

/* The same panel in the dark palette, drawn straight onto an image. */
static void
test_dark_palette (void)
{
  Files f;
  g_autoptr (WsRun) b = NULL;
  g_autoptr (WsRun) a = NULL;
  g_autoptr (WsComparison) cmp = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  WsPalette palette;
  const WsDelta *d;
  double height;

  files_init (&f);
  b = load (f.fp32, f.fp32_ncu);
  a = load (f.bf16, f.bf16_ncu);
  cmp = ws_comparison_new (b, a, WS_MATCH_NORMALIZED);
  d = ws_comparison_find (cmp, LAYER_NORM);
  ws_palette_init_dark (&palette);
  cr = ws_measure_context ();
  height = ceil (ws_compare_gauges_natural_height (cr, WIDTH, cmp, d, &palette));
  cairo_destroy (cr);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, (int) height);
  cr = cairo_create (surface);
  ws_compare_gauges_draw (cr, WIDTH, height, cmp, d, NULL, &palette);
  cairo_destroy (cr);
  /* The tick is the light foreground on the dark background. */
  check_rows (surface, cmp, d, &palette);
  cairo_surface_destroy (surface);
  files_clear (&f);
}

/* All kernels profiled on both sides, stacked; sides with CJK file names
 * give a CJK title, drawn with real glyphs at the width Pango gives it. */
static void
test_stacked_cjk_title (void)
{
  Files f;
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *png = g_build_filename (dir, "all.png", NULL);
  g_autofree char *fp32 = NULL, *bf16 = NULL, *before = NULL, *after = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (WsRun) b = NULL;
  g_autoptr (WsRun) a = NULL;
  g_autoptr (WsComparison) cmp = NULL;
  g_autoptr (PangoLayout) layout = NULL;
  g_autoptr (PangoLayout) text = NULL;
  const char *title = "训练_fp32.sqlite → 训练_bf16.sqlite";
  cairo_surface_t *surface;
  cairo_t *cr;
  WsPalette palette;
  double title_w, pad;
  int ink_right = -1;

  files_init (&f);
  fp32 = ws_test_copy_to_tmp (f.fp32, "训练_fp32.sqlite");
  bf16 = ws_test_copy_to_tmp (f.bf16, "训练_bf16.sqlite");
  before = g_strdup_printf ("%s,%s", fp32, f.fp32_ncu);
  after = g_strdup_printf ("%s,%s", bf16, f.bf16_ncu);
  {
    const char *argv[] = { ws_test_cli (), "render",     "--view", "compare-gauges",
                           "--by",         "normalized", "-o",     png,
                           before,         after,        NULL };

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  }
  b = load (fp32, f.fp32_ncu);
  a = load (bf16, f.bf16_ncu);
  cmp = ws_comparison_new (b, a, WS_MATCH_NORMALIZED);
  g_assert_cmpuint (cmp->n_profiled, ==, 7);
  ws_palette_init_light (&palette);
  cr = ws_measure_context ();
  layout = ws_text_layout (cr, &palette, 1.25, TRUE);
  ws_text_size (layout, title, &title_w, NULL);
  /* The panels' padding: 0.8 of a line of body text. */
  text = ws_text_layout (cr, &palette, 1.0, FALSE);
  pad = round (ws_text_line_height (text) * 0.8);
  g_assert_cmpint (pango_layout_get_unknown_glyphs_count (layout), ==, 0);

  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  /* Seven panels, each at its natural height, under the heading. */
  g_assert_cmpint (
    cairo_image_surface_get_height (surface), ==,
    (int) ceil (ws_compare_gauges_all_natural_height (cr, WIDTH, cmp, title, &palette)));
  cairo_destroy (cr);

  /* The title's ink, on the rows of its first line. */
  cairo_surface_flush (surface);
  for (int y = 8; y < (int) (pad + round (ws_text_line_height (text) * 1.4)); y++)
    for (int x = 0; x < WIDTH; x++)
      if (!ws_test_pixel_is_color (surface, x, y, palette.background))
        ink_right = MAX (ink_right, x);
  g_test_message ("title ink ends at %d; Pango: %.0f wide after %.0f of padding", ink_right,
                  title_w, pad);
  g_assert_cmpfloat (fabs (ink_right + 1 - (pad + title_w)), <=, 3);
  cairo_surface_destroy (surface);
  ws_test_rmtree (dir);
  files_clear (&f);
}

/* --kernel with a name no kernel profiled on both sides has: exit 2. */
static void
test_unknown_kernel (void)
{
  Files f;
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *png = g_build_filename (dir, "x.png", NULL);
  g_autofree char *before = NULL, *after = NULL, *out = NULL, *err = NULL;

  files_init (&f);
  before = g_strdup_printf ("%s,%s", f.fp32, f.fp32_ncu);
  after = g_strdup_printf ("%s,%s", f.bf16, f.bf16_ncu);
  {
    /* The fp32 GEMM is gone after: not profiled on both sides. */
    const char *argv[] = { ws_test_cli (), "render",  "--view", "compare-gauges",
                           "--kernel",     "cutlass", "-o",     png,
                           before,         after,     NULL };

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "cutlass"));
    g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  }
  ws_test_rmtree (dir);
  files_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/compare-gauges/png-ticks-and-bars-at-csv-values",
                   test_png_markers_and_bars);
  g_test_add_func ("/render/compare-gauges/dark-palette", test_dark_palette);
  g_test_add_func ("/render/compare-gauges/stacked-with-cjk-title", test_stacked_cjk_title);
  g_test_add_func ("/render/compare-gauges/unknown-kernel-is-bad-input", test_unknown_kernel);

  return g_test_run ();
}
