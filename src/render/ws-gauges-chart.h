/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-ncu-results.h"
#include "ws-palette.h"

G_BEGIN_DECLS

/* The gauge panel of one profiled launch: six arc gauges (SM, Tensor,
 * FP32, L1 hit, L2 hit, DRAM), bar gauges for Memory and Occupancy, the
 * three stall bars, and both verdicts with their reasons.  Drawable at any
 * size: the arcs take the room the text leaves. */

/* The arc gauges, in the order they are drawn. */
#define WS_GAUGES_N_ARCS 6
extern const WsGaugeKind ws_gauges_arc_kinds[WS_GAUGES_N_ARCS];

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

typedef struct
{
  int hover; /* WsGaugeKind under the pointer, or -1 */
} WsGaugesPanelState;

void ws_gauges_panel_draw (cairo_t *cr, double width, double height, const WsNcuResults *results,
                           guint launch, const WsGaugesPanelState *state, const WsPalette *palette);
gboolean ws_gauges_panel_geometry (cairo_t *cr, double width, double height,
                                   const WsNcuResults *results, guint launch,
                                   const WsPalette *palette, WsGaugeKind kind,
                                   WsGaugeGeometry *geometry);
int ws_gauges_panel_hit (cairo_t *cr, double width, double height, const WsNcuResults *results,
                         guint launch, const WsPalette *palette, double x, double y);
char *ws_gauges_panel_tooltip (const WsNcuResults *results, guint launch, WsGaugeKind kind);
void ws_gauges_panel_draw_empty (cairo_t *cr, double width, double height, const char *text,
                                 const WsPalette *palette);

/* Shared with the overview. */
WsGaugeBand ws_gauge_band (WsGaugeKind kind, double value);
WsColor ws_gauge_band_color (const WsPalette *palette, WsGaugeBand band);
void ws_gauge_draw_bar (cairo_t *cr, const WsGauge *gauge, WsGaugeKind kind, double x, double y,
                        double width, double height, const WsPalette *palette,
                        WsGaugeGeometry *geometry);
void ws_gauge_hatch (cairo_t *cr, const WsPalette *palette);

G_END_DECLS
