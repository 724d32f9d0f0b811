/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-why-chart"
#include "config.h"

#include <math.h>

#include "ws-memory-chart.h"
#include "ws-stalls-chart.h"
#include "ws-why-chart.h"

/**
 * ws_why_chart_natural_height:
 *
 * Returns: the height @chart takes at @width: the stalls and the memory
 * diagram as tall as their content, a roofline WS_ROOFLINE_ASPECT of its
 * width
 */
double
ws_why_chart_natural_height (cairo_t *cr, double width, WsWhyChart chart,
                             const WsNcuResults *results, const WsWhy *why,
                             const WsPalette *palette)
{
  switch (chart)
    {
      case WS_WHY_CHART_STALLS:
        return ws_stalls_chart_natural_height (cr, width, results, why, palette);
      case WS_WHY_CHART_MEMORY:
        return ws_memory_chart_natural_height (cr, width, results, why, palette);
      case WS_WHY_CHART_ROOFLINE:
      case WS_WHY_CHART_ROOFLINE_RUN:
      default:
        return round (width * WS_ROOFLINE_ASPECT);
    }
}

/**
 * ws_why_chart_draw:
 * @why: (nullable): the launch, for the stalls and memory charts
 * @roofline: (nullable): the model, for the two rooflines
 */
void
ws_why_chart_draw (cairo_t *cr, double width, double height, WsWhyChart chart,
                   const WsNcuResults *results, const WsWhy *why, const WsRooflineModel *roofline,
                   const WsPalette *palette)
{
  switch (chart)
    {
      case WS_WHY_CHART_STALLS:
        ws_stalls_chart_draw (cr, width, height, results, why, palette);
        break;
      case WS_WHY_CHART_MEMORY:
        ws_memory_chart_draw (cr, width, height, results, why, palette);
        break;
      case WS_WHY_CHART_ROOFLINE:
      case WS_WHY_CHART_ROOFLINE_RUN:
      default:
        ws_roofline_chart_draw (cr, width, height, roofline, palette);
        break;
    }
}
