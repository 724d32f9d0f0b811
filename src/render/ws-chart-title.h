/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-bottleneck.h"
#include "ws-ncu-results.h"
#include "ws-palette.h"

G_BEGIN_DECLS

double ws_chart_title_height (cairo_t *cr, double width, const WsPalette *palette,
                              const char *subtitle);
double ws_chart_title_draw (cairo_t *cr, double width, const WsPalette *palette, const char *title,
                            const char *subtitle);
char *ws_chart_launch_name (const WsNcuResults *results, guint launch);
WsColor ws_bottleneck_color (const WsPalette *palette, WsBottleneckKind kind);
double ws_chart_pad (cairo_t *cr, const WsPalette *palette);

G_END_DECLS
