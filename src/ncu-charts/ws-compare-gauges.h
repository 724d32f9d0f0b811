/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-comparison.h"
#include "ws-gauge-change.h"
#include "ws-palette.h"

G_BEGIN_DECLS

/* The gauges of one kernel before and after: a row per gauge, the value
 * after as a filled bar, the value before as a tick across the track, the
 * numbers "before → after (Δ)", and the verdict change with both reasons.
 * For a WsDelta profiled on both sides (ws_delta_profiled_both()). */

typedef struct
{
  int hover; /* WsGaugeKind of the row under the pointer, or -1 */
} WsCompareGaugesState;

/* Where a row is drawn, for hit tests and for tests that measure it. */
typedef struct
{
  cairo_rectangle_t row;   /* label to value */
  cairo_rectangle_t track; /* the bar's track */
  double scale;            /* the value at the track's right end */
  gboolean before_collected;
  gboolean after_collected;
  double fill_end; /* x where the fill (after) ends */
  double marker_x; /* x of the tick's centre (before) */
  WsColor fill;
  WsColor marker;
} WsCompareGaugeGeometry;

double ws_compare_gauges_natural_height (cairo_t *cr, double width, const WsComparison *cmp,
                                         const WsDelta *delta, const WsPalette *palette);
void ws_compare_gauges_draw (cairo_t *cr, double width, double height, const WsComparison *cmp,
                             const WsDelta *delta, const WsCompareGaugesState *state,
                             const WsPalette *palette);
gboolean ws_compare_gauges_geometry (cairo_t *cr, double width, const WsComparison *cmp,
                                     const WsDelta *delta, const WsPalette *palette,
                                     WsGaugeKind kind, WsCompareGaugeGeometry *geometry);
int ws_compare_gauges_hit (cairo_t *cr, double width, const WsComparison *cmp, const WsDelta *delta,
                           const WsPalette *palette, double x, double y);
char *ws_compare_gauges_tooltip (const WsComparison *cmp, const WsDelta *delta, WsGaugeKind kind);

double ws_compare_gauges_all_natural_height (cairo_t *cr, double width, const WsComparison *cmp,
                                             const char *title, const WsPalette *palette);
void ws_compare_gauges_draw_all (cairo_t *cr, double width, double height, const WsComparison *cmp,
                                 const char *title, const WsPalette *palette);

G_END_DECLS
