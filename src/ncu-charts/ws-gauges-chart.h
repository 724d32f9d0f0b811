/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-gauge-style.h"
#include "ws-ncu-results.h"

G_BEGIN_DECLS

/* The gauge panel of one profiled launch: six arc gauges (SM, Tensor,
 * FP32, L1 hit, L2 hit, DRAM), bar gauges for Memory and Occupancy, the
 * three stall bars, and both verdicts with their reasons.  Drawable at any
 * size: the arcs take the room the text leaves. */

/* The arc gauges, in the order they are drawn. */
#define WS_GAUGES_N_ARCS 6
extern const WsGaugeKind ws_gauges_arc_kinds[WS_GAUGES_N_ARCS];

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

G_END_DECLS
