/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-gauges-chart.h"

G_BEGIN_DECLS

/* The overview of all profiled launches: one compact row each, with the
 * duration, the verdict and a mini gauge per metric, sorted by profiling
 * order, by duration, or by any gauge. */

#define WS_GAUGES_SORT_ID (-1) /* the order ncu profiled them in */

typedef struct
{
  WsNcuResults *results;
  GArray *order; /* guint: launch indices in display order */
  int sort;      /* WS_GAUGES_SORT_ID or a WsGaugeKind (largest first) */
} WsGaugesOverview;

typedef struct
{
  int hover;    /* row, or -1 */
  int selected; /* row, or -1 */
} WsGaugesOverviewState;

/* The mini gauges, in column order. */
#define WS_GAUGES_N_MINI 8
extern const WsGaugeKind ws_gauges_mini_kinds[WS_GAUGES_N_MINI];

WsGaugesOverview *ws_gauges_overview_new (WsNcuResults *results, int sort);
void ws_gauges_overview_free (WsGaugesOverview *self);
guint ws_gauges_overview_n_rows (const WsGaugesOverview *self);
guint ws_gauges_overview_launch (const WsGaugesOverview *self, guint row);
int ws_gauges_overview_row_of (const WsGaugesOverview *self, guint launch);
gboolean ws_gauges_sort_from_string (const char *str, int *sort);

guint ws_gauges_overview_n_shown (cairo_t *cr, double width, const WsGaugesOverview *self,
                                  const WsPalette *palette);
char **ws_gauges_overview_row_names (const WsGaugesOverview *self, guint max_chars);
double ws_gauges_overview_natural_height (cairo_t *cr, double width, const WsGaugesOverview *self,
                                          const WsPalette *palette);
void ws_gauges_overview_draw (cairo_t *cr, double width, double height,
                              const WsGaugesOverview *self, const WsGaugesOverviewState *state,
                              const WsPalette *palette);
int ws_gauges_overview_hit (cairo_t *cr, double width, const WsGaugesOverview *self,
                            const WsPalette *palette, double x, double y);
gboolean ws_gauges_overview_geometry (cairo_t *cr, double width, const WsGaugesOverview *self,
                                      const WsPalette *palette, guint row, WsGaugeKind kind,
                                      WsGaugeGeometry *geometry);
gboolean ws_gauges_overview_row_rect (cairo_t *cr, double width, const WsGaugesOverview *self,
                                      const WsPalette *palette, guint row, cairo_rectangle_t *rect);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsGaugesOverview, ws_gauges_overview_free)

G_END_DECLS
