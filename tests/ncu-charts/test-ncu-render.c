/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "ws-gauges-overview.h"
#include "ws-ncu-reader.h"
#include "ws-surface.h"
#include "ws-test-fixtures.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

#define WIDTH 1200
#define HEIGHT 760

static WsColor
pixel (cairo_surface_t *surface, double x, double y)
{
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *data = cairo_image_surface_get_data (surface);
  int ix = (int) floor (x), iy = (int) floor (y);
  guint32 argb;

  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (iy, <, cairo_image_surface_get_height (surface));
  argb = *(const guint32 *) (data + iy * stride + ix * 4);
  return ws_color_from_argb (argb);
}

static gboolean
near (WsColor a, WsColor b)
{
  return fabs (a.r - b.r) < 0.04 && fabs (a.g - b.g) < 0.04 && fabs (a.b - b.b) < 0.04;
}

/* Walks the middle of the arc's band from its start in steps of 0.1° and
 * returns the fraction of the sweep painted in the fill colour before the
 * first pixel that is not. */
static double
measure_arc (cairo_surface_t *surface, const WsGaugeGeometry *g, WsColor fill)
{
  double step = G_PI / 1800;
  double last = g->start;

  cairo_surface_flush (surface);
  /* From 1° in: the band's square end is antialiased. */
  for (double a = g->start + G_PI / 180; a < g->start + g->sweep; a += step)
    {
      WsColor c = pixel (surface, g->cx + g->radius * cos (a), g->cy + g->radius * sin (a));

      if (!near (c, fill))
        {
          if (a < g->start + G_PI / 90)
            g_test_message ("at %.1f°: %.3f %.3f %.3f, fill %.3f %.3f %.3f", a * 180 / G_PI, c.r,
                            c.g, c.b, fill.r, fill.g, fill.b);
          break;
        }
      last = a + step / 2;
    }
  return (last - g->start) / g->sweep;
}

/* Counts the pixels of a bar's middle row painted in the fill colour. */
static double
measure_bar (cairo_surface_t *surface, const WsGaugeGeometry *g, WsColor fill)
{
  double y = g->rect.y + g->rect.height / 2;
  int filled = 0;

  cairo_surface_flush (surface);
  for (int x = (int) g->rect.x; x < (int) (g->rect.x + g->rect.width); x++)
    if (near (pixel (surface, x + 0.5, y), fill))
      filled++;
  return filled / g->rect.width;
}

/* The CLI draws the panel of the bf16 GEMM into a PNG; its tensor arc is
 * filled to 95.399873% of its sweep (the CSV cell), not 3%. */
static void
test_panel_png_tensor_arc (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");
  g_autofree char *csv = ws_test_data ("ncu", "h100_train_bf16_sections_raw.csv", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *png = g_build_filename (dir, "panel.png", NULL);
  const char *argv[] = { ws_test_cli (), "render",   "--view", "gauges", "--kernel", "1",
                         "--size",       "1200x760", "-o",     png,      csv,        NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  cairo_surface_t *surface;
  cairo_t *cr = ws_measure_context ();
  WsPalette palette;
  WsGaugeGeometry g;
  double measured;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, WIDTH);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, HEIGHT);

  ws_palette_init_light (&palette);
  g_assert_true (ws_gauges_panel_geometry (cr, WIDTH, HEIGHT, r, 1, &palette, WS_GAUGE_TENSOR, &g));
  g_assert_true (g.arc);
  g_assert_true (g.collected);
  measured = measure_arc (surface, &g, g.fill);
  g_assert_cmpfloat_with_epsilon (measured, 0.95399873, 0.005);

  /* SM: "91.480842" */
  g_assert_true (ws_gauges_panel_geometry (cr, WIDTH, HEIGHT, r, 1, &palette, WS_GAUGE_SM, &g));
  g_assert_cmpfloat_with_epsilon (measure_arc (surface, &g, g.fill), 0.91480842, 0.005);

  cairo_surface_destroy (surface);
  cairo_destroy (cr);
  ws_test_rmtree (dir);
}

static cairo_surface_t *
draw_panel (const WsNcuResults *r, guint launch, const WsPalette *palette)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);

  ws_gauges_panel_draw (cr, WIDTH, HEIGHT, r, launch, NULL, palette);
  cairo_destroy (cr);
  return surface;
}

/* Bars in both themes: Occupancy "14.736941", L2 hit "75.993918", and the
 * barrier stall "5.848238" of "19.342601" warp cycles per issue. */
static void
test_panel_bars_both_themes (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");

  for (int dark = 0; dark <= 1; dark++)
    {
      WsPalette palette;
      cairo_surface_t *surface;
      cairo_t *cr = ws_measure_context ();
      WsGaugeGeometry g;

      if (dark)
        ws_palette_init_dark (&palette);
      else
        ws_palette_init_light (&palette);
      surface = draw_panel (r, 1, &palette);

      g_assert_true (
        ws_gauges_panel_geometry (cr, WIDTH, HEIGHT, r, 1, &palette, WS_GAUGE_OCCUPANCY, &g));
      g_assert_false (g.arc);
      g_assert_cmpfloat_with_epsilon (measure_bar (surface, &g, g.fill), 0.14736941,
                                      1.5 / g.rect.width);
      g_assert_true (
        ws_gauges_panel_geometry (cr, WIDTH, HEIGHT, r, 1, &palette, WS_GAUGE_L2_HIT, &g));
      g_assert_cmpfloat_with_epsilon (measure_arc (surface, &g, g.fill), 0.75993918, 0.005);
      g_assert_true (
        ws_gauges_panel_geometry (cr, WIDTH, HEIGHT, r, 1, &palette, WS_GAUGE_STALL_BARRIER, &g));
      g_assert_cmpfloat_with_epsilon (measure_bar (surface, &g, g.fill), 5.848238 / 19.342601,
                                      1.5 / g.rect.width);
      cairo_surface_destroy (surface);
      cairo_destroy (cr);
    }
}

/* A gauge that was not collected has no fill at all: not a zero, a hatch. */
static void
test_not_collected_is_not_zero (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_details.csv");
  WsPalette palette;
  cairo_surface_t *surface;
  cairo_t *cr = ws_measure_context ();
  WsGaugeGeometry g;
  guint hatch_light = 0, hatch_dark = 0;
  WsColor light, dark;

  ws_palette_init_light (&palette);
  surface = draw_panel (r, 0, &palette);
  g_assert_true (ws_gauges_panel_geometry (cr, WIDTH, HEIGHT, r, 0, &palette, WS_GAUGE_TENSOR, &g));
  g_assert_false (g.collected);

  /* The hatch's two tones, and never a band colour. */
  light = ws_color_mix (palette.background, palette.foreground, 0.06);
  dark = ws_color_mix (palette.background, palette.foreground, 0.30);
  cairo_surface_flush (surface);
  for (double a = g.start; a < g.start + g.sweep; a += G_PI / 360)
    {
      WsColor c = pixel (surface, g.cx + g.radius * cos (a), g.cy + g.radius * sin (a));

      for (int b = WS_GAUGE_BAND_LOW; b <= WS_GAUGE_BAND_HIGH; b++)
        g_assert_false (near (c, ws_gauge_band_color (&palette, (WsGaugeBand) b)));
      hatch_light += near (c, light);
      hatch_dark += near (c, dark);
    }
  g_assert_cmpuint (hatch_light, >, 50);
  g_assert_cmpuint (hatch_dark, >, 10);
  cairo_surface_destroy (surface);
  cairo_destroy (cr);
}

/* The overview sorted by duration: the longest launch first, its SM mini
 * gauge filled to its value. */
static void
test_overview (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");
  g_autoptr (WsGaugesOverview) overview = ws_gauges_overview_new (r, WS_GAUGE_DURATION);
  g_autoptr (WsGaugesOverview) by_tensor = ws_gauges_overview_new (r, WS_GAUGE_TENSOR);
  cairo_t *mcr = ws_measure_context ();
  WsPalette palette;
  cairo_surface_t *surface;
  cairo_t *cr;
  WsGaugeGeometry g;
  double height;

  ws_palette_init_light (&palette);
  g_assert_cmpuint (ws_gauges_overview_n_rows (overview), ==, 14);
  /* Durations "405.536000" (1), "403.552000" (4), "393.760000" (13) us lead. */
  g_assert_cmpuint (ws_gauges_overview_launch (overview, 0), ==, 1);
  g_assert_cmpuint (ws_gauges_overview_launch (overview, 1), ==, 4);
  g_assert_cmpuint (ws_gauges_overview_launch (overview, 2), ==, 13);
  /* Tensor: "95.913926" (13), "95.447409" (4), "95.399873" (1). */
  g_assert_cmpuint (ws_gauges_overview_launch (by_tensor, 0), ==, 13);
  g_assert_cmpuint (ws_gauges_overview_launch (by_tensor, 1), ==, 4);
  g_assert_cmpint (ws_gauges_overview_row_of (by_tensor, 1), ==, 2);

  height = ceil (ws_gauges_overview_natural_height (mcr, WIDTH, overview, &palette));
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, (int) height);
  cr = cairo_create (surface);
  ws_gauges_overview_draw (cr, WIDTH, height, overview, NULL, &palette);
  cairo_destroy (cr);

  g_assert_true (ws_gauges_overview_geometry (mcr, WIDTH, overview, &palette, 0, WS_GAUGE_SM, &g));
  /* launch 1: SM "91.480842" */
  g_assert_cmpfloat_with_epsilon (measure_bar (surface, &g, g.fill), 0.91480842,
                                  1.5 / g.rect.width);
  g_assert_cmpint (
    ws_gauges_overview_hit (mcr, WIDTH, overview, &palette, 100, g.rect.y + g.rect.height / 2), ==,
    0);
  cairo_surface_destroy (surface);
  cairo_destroy (mcr);
}

/* Issue 31: the Gauges rows of launches of different kernels never read
 * alike, however narrow the column, on every fixture with ncu CSVs and an
 * export (the kernels told apart by the nsys kernel each launch joins). */
static void
test_overview_row_names_distinct (void)
{
  g_autoptr (GPtrArray) fixtures = ws_test_ncu_fixtures ();
  guint checked = 0;

  for (guint f = 0; f < fixtures->len; f++)
    {
      const WsTestNcuFixture *fixture = g_ptr_array_index (fixtures, f);
      g_autoptr (WsRun) run = ws_test_load_paths ((const char *const *) fixture->paths->pdata);
      WsGaugesOverview *overview = ws_gauges_overview_new (run->ncu, WS_GAUGE_DURATION);
      guint n = ws_ncu_results_n_launches (run->ncu);

      for (guint chars = 16; chars <= 64; chars += 16)
        {
          g_auto (GStrv) names = ws_gauges_overview_row_names (overview, chars);
          g_autoptr (GHashTable) kernel_of = g_hash_table_new (g_str_hash, g_str_equal);

          for (guint i = 0; i < n; i++)
            {
              const char *kernel = ws_ncu_results_match (run->ncu, i)->nsys_name;
              const char *seen = g_hash_table_lookup (kernel_of, names[i]);

              g_assert_nonnull (kernel);
              g_assert_cmpint (g_utf8_strlen (names[i], -1), <=, chars);
              if (seen != NULL && !g_str_equal (seen, kernel))
                g_error ("%s, %u characters: “%s” shows %s and %s", fixture->name, chars, names[i],
                         seen, kernel);
              g_hash_table_insert (kernel_of, names[i], (gpointer) kernel);
              checked++;
            }
        }
      ws_gauges_overview_free (overview);
    }
  g_test_message ("%u row names checked", checked);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ncu-render/panel/png-tensor-arc-fill", test_panel_png_tensor_arc);
  g_test_add_func ("/ncu-render/panel/bars-light-and-dark", test_panel_bars_both_themes);
  g_test_add_func ("/ncu-render/panel/not-collected-is-hatched", test_not_collected_is_not_zero);
  g_test_add_func ("/ncu-render/overview/sorted-mini-gauges", test_overview);
  g_test_add_func ("/ncu-render/overview/row-names-tell-kernels-apart",
                   test_overview_row_names_distinct);

  status = g_test_run ();
  return status;
}
