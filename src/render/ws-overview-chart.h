/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-overview.h"
#include "ws-palette.h"

G_BEGIN_DECLS

char *ws_overview_describe (const WsOverview *overview);
void ws_overview_chart_draw (cairo_t *cr, double width, double height, const WsOverview *overview,
                             const WsPalette *palette);

G_END_DECLS
