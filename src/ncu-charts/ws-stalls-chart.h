/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-palette.h"
#include "ws-why.h"

G_BEGIN_DECLS

/* Every warp-stall reason of a profiled launch as sorted bars, with ncu's
 * names and what each means; the reasons not collected below them. */
double ws_stalls_chart_natural_height (cairo_t *cr, double width, const WsNcuResults *results,
                                       const WsWhy *why, const WsPalette *palette);
void ws_stalls_chart_draw (cairo_t *cr, double width, double height, const WsNcuResults *results,
                           const WsWhy *why, const WsPalette *palette);

G_END_DECLS
