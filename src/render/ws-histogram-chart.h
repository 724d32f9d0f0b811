/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-kernel-instances.h"
#include "ws-palette.h"

G_BEGIN_DECLS

void ws_histogram_chart_draw (cairo_t *cr, double width, double height,
                              const WsHistogram *histogram, const WsPalette *palette);

G_END_DECLS
