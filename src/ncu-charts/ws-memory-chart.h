/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-palette.h"
#include "ws-why.h"

G_BEGIN_DECLS

/* A launch's memory hierarchy as a diagram: the SM, L1/TEX with shared
 * memory, L2 and DRAM, each with its throughput and hit rate, the bytes
 * between them, coalescing and bank conflicts. */
double ws_memory_chart_natural_height (cairo_t *cr, double width, const WsNcuResults *results,
                                       const WsWhy *why, const WsPalette *palette);
void ws_memory_chart_draw (cairo_t *cr, double width, double height, const WsNcuResults *results,
                           const WsWhy *why, const WsPalette *palette);

G_END_DECLS
