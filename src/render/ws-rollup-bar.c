/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-rollup-bar"
#include "config.h"

#include <math.h>

#include "ws-rollup-bar.h"

/* The verdict colours; time not profiled is pale. */
WsColor
ws_rollup_color (const WsPalette *palette, WsRollupClass klass)
{
  switch (klass)
    {
      case WS_ROLLUP_COMPUTE:
        return palette->compute;
      case WS_ROLLUP_MEMORY:
        return palette->memory;
      case WS_ROLLUP_LATENCY:
        return palette->latency;
      case WS_ROLLUP_MIXED:
        return palette->mixed;
      case WS_ROLLUP_UNPROFILED:
      case WS_N_ROLLUP:
      default:
        return ws_color_mix (palette->bar_other, palette->background, 0.55);
    }
}

/**
 * ws_rollup_bar_draw:
 * @shares: each class's share of the range's GPU time, in [0, 1]
 *
 * Draws a range's GPU time as one bar of @width split by bottleneck, in
 * the order of the roll-up's columns (compute, memory, latency, mixed,
 * not profiled).
 */
void
ws_rollup_bar_draw (cairo_t *cr, double x, double y, double width, double height,
                    const double shares[WS_N_ROLLUP], const WsPalette *palette)
{
  double at = x;

  for (int c = 0; c < WS_N_ROLLUP; c++)
    {
      double w = isfinite (shares[c]) ? CLAMP (shares[c], 0, 1) * width : 0;

      if (w <= 0)
        continue;
      ws_color_set (cr, ws_rollup_color (palette, (WsRollupClass) c));
      cairo_rectangle (cr, at, y, MIN (w, x + width - at), height);
      cairo_fill (cr);
      at += w;
    }
}
