/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-palette.h"
#include "ws-range-bottleneck.h"

G_BEGIN_DECLS

WsColor ws_rollup_color (const WsPalette *palette, WsRollupClass klass);
void ws_rollup_bar_draw (cairo_t *cr, double x, double y, double width, double height,
                         const double shares[WS_N_ROLLUP], const WsPalette *palette);

G_END_DECLS
