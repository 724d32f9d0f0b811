/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauge-style"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-gauge-style.h"

/* Bands show a level, not a judgement: a busy DRAM is neither good nor
 * bad.  Their edges are the verdict rule's thresholds where it has them. */
void
ws_gauge_band_edges (WsGaugeKind kind, double *low_end, double *high_start)
{
  switch (kind)
    {
      case WS_GAUGE_L1_HIT:
        *low_end = WS_VERDICT_L1_HIT;
        *high_start = 80;
        break;
      case WS_GAUGE_L2_HIT:
        *low_end = WS_VERDICT_L2_HIT;
        *high_start = 80;
        break;
      case WS_GAUGE_OCCUPANCY:
        *low_end = 25;
        *high_start = 50;
        break;
      default:
        *low_end = WS_VERDICT_IDLE;
        *high_start = WS_VERDICT_BUSY;
        break;
    }
}

/* The bands' bounds in percent: 0, the low band's end, the high band's
 * start, 100. */
void
ws_gauge_band_bounds (WsGaugeKind kind, double bounds[4])
{
  bounds[0] = 0;
  ws_gauge_band_edges (kind, &bounds[1], &bounds[2]);
  bounds[3] = 100;
}

WsGaugeBand
ws_gauge_band (WsGaugeKind kind, double value)
{
  double low_end, high_start;

  ws_gauge_band_edges (kind, &low_end, &high_start);
  if (value < low_end)
    return WS_GAUGE_BAND_LOW;
  if (value < high_start)
    return WS_GAUGE_BAND_MEDIUM;
  return WS_GAUGE_BAND_HIGH;
}

/* One hue, stronger as the value rises; readable on light and dark. */
WsColor
ws_gauge_band_color (const WsPalette *palette, WsGaugeBand band)
{
  static const double fade[2][3] = { { 0.45, 0.2, 0.0 }, { 0.3, 0.12, 0.0 } };

  return ws_color_mix (palette->bar, palette->background, fade[palette->dark ? 1 : 0][band]);
}

WsColor
ws_gauge_band_tint (const WsPalette *palette, WsGaugeBand band)
{
  static const double amount[2][3] = { { 0.08, 0.13, 0.19 }, { 0.06, 0.10, 0.15 } };

  return ws_color_mix (palette->background, palette->bar, amount[palette->dark ? 1 : 0][band]);
}

/* Sets a diagonal hatch as the source: the look of "not collected". */
void
ws_gauge_hatch (cairo_t *cr, const WsPalette *palette)
{
  cairo_surface_t *tile = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
  cairo_t *t = cairo_create (tile);
  cairo_pattern_t *pattern;

  ws_color_set (t, ws_color_mix (palette->background, palette->foreground, 0.06));
  cairo_paint (t);
  ws_color_set (t, ws_color_mix (palette->background, palette->foreground, 0.30));
  cairo_set_line_width (t, 1.5);
  cairo_move_to (t, -2, 10);
  cairo_line_to (t, 10, -2);
  cairo_move_to (t, -2, 2);
  cairo_line_to (t, 2, -2);
  cairo_move_to (t, 6, 10);
  cairo_line_to (t, 10, 6);
  cairo_stroke (t);
  cairo_destroy (t);

  pattern = cairo_pattern_create_for_surface (tile);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_REPEAT);
  cairo_set_source (cr, pattern);
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (tile);
}

/* The tints of @kind's bands across the track (x, y, width, height),
 * their edges on whole pixels. */
void
ws_gauge_draw_band_tints (cairo_t *cr, WsGaugeKind kind, double x, double y, double width,
                          double height, const WsPalette *palette)
{
  double bounds[4];

  ws_gauge_band_bounds (kind, bounds);
  for (int b = 0; b < 3; b++)
    {
      double x0 = x + round (bounds[b] / 100 * width);
      double x1 = x + round (bounds[b + 1] / 100 * width);

      ws_color_set (cr, ws_gauge_band_tint (palette, (WsGaugeBand) b));
      cairo_rectangle (cr, x0, y, x1 - x0, height);
      cairo_fill (cr);
    }
}

/* A bar gauge in (x, y, width, height): band tints, the fill on whole
 * pixels, or a hatch when the gauge was not collected. */
void
ws_gauge_draw_bar (cairo_t *cr, const WsGauge *gauge, WsGaugeKind kind, double x, double y,
                   double width, double height, const WsPalette *palette, WsGaugeGeometry *geometry)
{
  double fraction = ws_gauge_fraction (gauge);
  double fill_w = isnan (fraction) ? 0 : round (fraction * width);
  WsColor fill = ws_gauge_band_color (palette, gauge->collected ? ws_gauge_band (kind, gauge->value)
                                                                : WS_GAUGE_BAND_LOW);

  cairo_save (cr);
  if (!gauge->collected)
    {
      ws_gauge_hatch (cr, palette);
      cairo_rectangle (cr, x, y, width, height);
      cairo_fill (cr);
    }
  else
    {
      ws_gauge_draw_band_tints (cr, kind, x, y, width, height, palette);
      ws_color_set (cr, fill);
      cairo_rectangle (cr, x, y, fill_w, height);
      cairo_fill (cr);
    }
  cairo_restore (cr);

  if (geometry != NULL)
    {
      memset (geometry, 0, sizeof *geometry);
      geometry->rect = (cairo_rectangle_t){ x, y, width, height };
      geometry->thickness = height;
      geometry->fill_end = x + fill_w;
      geometry->fill = fill;
      geometry->collected = gauge->collected;
    }
}
