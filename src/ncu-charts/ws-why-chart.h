/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-palette.h"
#include "ws-roofline-chart.h"
#include "ws-why.h"

G_BEGIN_DECLS

/* The charts of why a kernel is slow, drawn alike by the window, render
 * and the Markdown report. */
typedef enum
{
  WS_WHY_CHART_STALLS,
  WS_WHY_CHART_ROOFLINE,
  WS_WHY_CHART_MEMORY,
  WS_WHY_CHART_ROOFLINE_RUN,
} WsWhyChart;

/* A roofline's height for a width: it has no natural one. */
#define WS_ROOFLINE_ASPECT 0.6

double ws_why_chart_natural_height (cairo_t *cr, double width, WsWhyChart chart,
                                    const WsNcuResults *results, const WsWhy *why,
                                    const WsPalette *palette);
void ws_why_chart_draw (cairo_t *cr, double width, double height, WsWhyChart chart,
                        const WsNcuResults *results, const WsWhy *why,
                        const WsRooflineModel *roofline, const WsPalette *palette);

G_END_DECLS
