/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-gauges.h"
#include "ws-palette.h"

G_BEGIN_DECLS

/* How gauges look, shared by the panel and the overview: colour bands,
 * the hatch of "not collected", and bar gauges. */

typedef enum
{
  WS_GAUGE_BAND_LOW,
  WS_GAUGE_BAND_MEDIUM,
  WS_GAUGE_BAND_HIGH,
} WsGaugeBand;

/* Where a gauge is drawn, for hit tests and for tests that measure it. */
typedef struct
{
  gboolean arc;           /* an arc gauge; otherwise a bar */
  double cx, cy;          /* arc: the centre */
  double radius;          /* arc: the middle of the band */
  double thickness;       /* arc: the band's width; bar: the track's height */
  double start, sweep;    /* arc: cairo angles in radians, clockwise */
  double fill_end;        /* arc: the angle where the fill ends; bar: its x */
  cairo_rectangle_t rect; /* bar: the track; arc: the cell */
  WsColor fill;           /* the colour of the fill */
  gboolean collected;
} WsGaugeGeometry;

void ws_gauge_band_edges (WsGaugeKind kind, double *low_end, double *high_start);
void ws_gauge_band_bounds (WsGaugeKind kind, double bounds[4]);
WsGaugeBand ws_gauge_band (WsGaugeKind kind, double value);
WsColor ws_gauge_band_color (const WsPalette *palette, WsGaugeBand band);
WsColor ws_gauge_band_tint (const WsPalette *palette, WsGaugeBand band);
void ws_gauge_hatch (cairo_t *cr, const WsPalette *palette);
void ws_gauge_draw_band_tints (cairo_t *cr, WsGaugeKind kind, double x, double y, double width,
                               double height, const WsPalette *palette);
void ws_gauge_draw_bar (cairo_t *cr, const WsGauge *gauge, WsGaugeKind kind, double x, double y,
                        double width, double height, const WsPalette *palette,
                        WsGaugeGeometry *geometry);

G_END_DECLS
