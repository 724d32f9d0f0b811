/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

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

/* WCAG 2's relative luminance and contrast ratio: what "readable" means
 * for a graphic against its background (3:1 for non-text). */
static double
channel (double c)
{
  return c <= 0.03928 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (const guint8 *px)
{
  /* Cairo's ARGB32 in memory on a little-endian machine: B, G, R, A. */
  return 0.2126 * channel (px[2] / 255.0) + 0.7152 * channel (px[1] / 255.0) +
         0.0722 * channel (px[0] / 255.0);
}

static double
contrast (const guint8 *a, const guint8 *b)
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* barrier_heavy profiled (Compute), fma_heavy Unknown, the rest not. */
static WsVerdict
some_verdicts (const char *name, gpointer data)
{
  if (g_str_has_prefix (name, "barrier_heavy"))
    return WS_VERDICT_COMPUTE;
  if (g_str_has_prefix (name, "fma_heavy"))
    return WS_VERDICT_UNKNOWN;
  return WS_VERDICT_NONE;
}

/* The middle pixel of bar @index, and the background beside the chart. */
static void
draw_with_verdicts (gboolean dark, guint top_n, cairo_surface_t **surface, WsBarsModel **model,
                    WsPalette *palette)
{
  g_autofree char *csv =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autoptr (WsSummary) summary = ws_nsys_stats_read (csv, NULL);
  WsBarsState state = { -1, -1, NULL };
  cairo_t *cr;

  if (dark)
    ws_palette_init_dark (palette);
  else
    ws_palette_init_light (palette);
  *model = ws_bars_model_new (summary, top_n, WS_BARS_SORT_TOTAL, NULL, some_verdicts, NULL);
  g_assert_true ((*model)->has_verdicts);
  *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 600);
  cr = cairo_create (*surface);
  ws_bars_chart_draw (cr, 1000, 600, *model, &state, palette);
  cairo_destroy (cr);
  cairo_surface_flush (*surface);
}

static const guint8 *
bar_pixel (cairo_surface_t *surface, WsBarsModel *model, const WsPalette *palette, guint index,
           double along)
{
  cairo_t *cr = cairo_create (surface);
  WsBarsState state = { -1, -1, NULL };
  cairo_rectangle_t rect;
  int x, y;

  g_assert_true (ws_bars_chart_bar_rect (cr, 1000, model, &state, palette, index, &rect));
  cairo_destroy (cr);
  x = (int) (rect.x + rect.width * along);
  y = (int) (rect.y + rect.height / 2);
  return cairo_image_surface_get_data (surface) + y * cairo_image_surface_get_stride (surface) +
         x * 4;
}

/* A kernel that was not profiled is pale, yet readable in both themes: in
 * the dark one its bar has at least WCAG's 3:1 against the background (a
 * translucent blue over #242424 made it navy, about 1.8:1); in the light
 * one it stays paler than the verdicts' colours. */
static void
test_not_profiled_readable (void)
{
  for (int dark = 0; dark < 2; dark++)
    {
      g_autoptr (WsBarsModel) model = NULL;
      cairo_surface_t *surface = NULL;
      WsPalette palette;
      const guint8 *background, *profiled, *pale;
      double pale_contrast, profiled_contrast;
      guint none = 0;

      draw_with_verdicts (dark, 15, &surface, &model, &palette);
      background = cairo_image_surface_get_data (surface) + 2 * 4;
      profiled = bar_pixel (surface, model, &palette, 0, 0.5);
      while (ws_bars_model_get (model, none)->verdict != WS_VERDICT_NONE)
        none++;
      pale = bar_pixel (surface, model, &palette, none, 0.5);
      pale_contrast = contrast (pale, background);
      profiled_contrast = contrast (profiled, background);
      g_test_message ("%s: not profiled %.2f:1, profiled %.2f:1 against the background",
                      dark ? "dark" : "light", pale_contrast, profiled_contrast);
      if (dark)
        g_assert_cmpfloat (pale_contrast, >=, 3.0);
      else
        g_assert_cmpfloat (pale_contrast, >=, 1.4);
      g_assert_cmpfloat (pale_contrast, <, profiled_contrast);
      cairo_surface_destroy (surface);
    }
}

/* CIE L*a*b* of an sRGB colour (D65), for the distance between two. */
static void
to_lab (double r, double g, double b, double lab[3])
{
  double lr = channel (r), lg = channel (g), lb = channel (b);
  double xyz[3] = { (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047,
                    0.2126 * lr + 0.7152 * lg + 0.0722 * lb,
                    (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883 };
  double f[3];

  for (int i = 0; i < 3; i++)
    f[i] = xyz[i] > 0.008856 ? cbrt (xyz[i]) : 7.787 * xyz[i] + 16.0 / 116;
  lab[0] = 116 * f[1] - 16;
  lab[1] = 500 * (f[0] - f[1]);
  lab[2] = 200 * (f[1] - f[2]);
}

/* CIE76 ΔE between a drawn pixel and a colour: about 2.3 is the least an
 * eye tells apart, 10 and more reads as another colour at a glance. */
static double
delta_e (const guint8 *px, WsColor color)
{
  double a[3], b[3];

  to_lab (px[2] / 255.0, px[1] / 255.0, px[0] / 255.0, a);
  to_lab (color.r, color.g, color.b, b);
  return sqrt ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
               (a[2] - b[2]) * (a[2] - b[2]));
}

/* "Not profiled" is told from Memory at a glance (issue 31: in the dark
 * theme its faded blue, 82,125,177, was ΔE 17 from Memory's 98,160,234),
 * and from every verdict colour, in both themes; and in the dark one it
 * keeps 3:1 against the background. */
static void
test_not_profiled_distinct (void)
{
  for (int dark = 0; dark < 2; dark++)
    {
      g_autoptr (WsBarsModel) model = NULL;
      cairo_surface_t *surface = NULL;
      WsPalette palette;
      const guint8 *pale, *background;
      guint none = 0;
      /* The old dark colour as a pixel: B, G, R, A. */
      const guint8 faded_px[4] = { 177, 125, 82, 255 };

      draw_with_verdicts (dark, 15, &surface, &model, &palette);
      background = cairo_image_surface_get_data (surface) + 2 * 4;
      while (ws_bars_model_get (model, none)->verdict != WS_VERDICT_NONE)
        none++;
      pale = bar_pixel (surface, model, &palette, none, 0.5);
      g_test_message ("%s: not profiled ΔE %.1f from Memory, %.2f:1 on the background",
                      dark ? "dark" : "light", delta_e (pale, palette.memory),
                      contrast (pale, background));
      /* The old colour fails the same measure. */
      if (dark)
        g_assert_cmpfloat (delta_e (faded_px, palette.memory), <, 20);
      g_assert_cmpfloat (delta_e (pale, palette.memory), >=, 30);
      for (int v = WS_VERDICT_COMPUTE; v < WS_N_VERDICTS; v++)
        g_assert_cmpfloat (delta_e (pale, ws_verdict_color (&palette, (WsVerdict) v)), >=, 10);
      if (dark)
        g_assert_cmpfloat (contrast (pale, background), >=, 3.0);
      cairo_surface_destroy (surface);
    }
}

/* The "others" bar is striped, never a flat colour of a verdict: it had the
 * grey of Unknown. */
static void
test_others_not_a_verdict (void)
{
  for (int dark = 0; dark < 2; dark++)
    {
      g_autoptr (WsBarsModel) model = NULL;
      cairo_surface_t *surface = NULL;
      WsPalette palette;
      g_autoptr (GHashTable) colours = g_hash_table_new (NULL, NULL);
      guint unknown = 0;

      draw_with_verdicts (dark, 2, &surface, &model, &palette);
      g_assert_true (ws_bars_model_get (model, 2)->is_other);
      for (double along = 0.02; along < 0.98; along += 0.01)
        {
          const guint8 *px = bar_pixel (surface, model, &palette, 2, along);

          g_hash_table_add (colours, GUINT_TO_POINTER (*(const guint32 *) px));
          unknown += ws_test_argb_is_color (px, palette.unknown);
        }
      g_test_message ("%s: the others bar has %u colours, %u pixels of Unknown's grey",
                      dark ? "dark" : "light", g_hash_table_size (colours), unknown);
      g_assert_cmpuint (g_hash_table_size (colours), >=, 2);
      g_assert_cmpuint (unknown, ==, 0);
      cairo_surface_destroy (surface);
    }
}

/* Issue 40, item 9: the count beside a bar has thousands separators
 * ("100000×" stood beside "100,049" elsewhere), whatever the sort. */
static void
test_value_label_groups_count (void)
{
  WsBar bar = { .label = (char *) "k", .name = (char *) "k", .count = 100000 };
  WsBarsSort sorts[] = { WS_BARS_SORT_TOTAL, WS_BARS_SORT_AVG, WS_BARS_SORT_INSTANCES };

  bar.total = 1000000000;
  bar.avg = 10000;
  bar.share = 45.6;
  for (gsize i = 0; i < G_N_ELEMENTS (sorts); i++)
    {
      g_autofree char *label = ws_bar_value_label (&bar, sorts[i]);

      g_test_message ("%s", label);
      g_assert_nonnull (strstr (label, "100,000×"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/bars/lengths-proportional-to-totals", test_bar_lengths_proportional);
  g_test_add_func ("/render/bars/others-folds-the-rest", test_others_bar);
  g_test_add_func ("/render/bars/not-profiled-readable-in-both-themes", test_not_profiled_readable);
  g_test_add_func ("/render/bars/not-profiled-distinct-from-memory", test_not_profiled_distinct);
  g_test_add_func ("/render/bars/others-striped-not-a-verdict-colour", test_others_not_a_verdict);
  g_test_add_func ("/render/bars/sort-and-filter", test_sort_and_filter);
  g_test_add_func ("/render/bars/count-has-thousands-separators", test_value_label_groups_count);

  return g_test_run ();
}
