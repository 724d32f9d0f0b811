/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-time-ticks.h"
#include "ws-timeline-chart.h"
#include "ws-timeline-paint.h"

G_BEGIN_DECLS

/* What the two files of WsTimelineChart share: ws-timeline-chart.c (the
 * lanes, the overlay, hit tests) and ws-timeline-chart-axes.c (the ruler,
 * the overview, the lane names: what stays when the lanes move). */

/* Geometry from the font: recomputed when the font changes. */
typedef struct
{
  char font[64];
  double line; /* px: a line of lane text */
  double header_w;
  double overview_h;
  double ruler_h;
  double top_h; /* overview + ruler */
  double row_h; /* an NVTX row, an API lane */
  double stream_h;
  double replay_h; /* the band of graph replays over a stream's kernels */
  double group_h;
  double metric_h;
  double memory_h;
  double collapsed_h;
  double indent; /* lanes under a group */
  double expander_w;
} WsTimelineGeometry;

typedef struct
{
  double scroll_y;
  double height;
  double width;
  guint32 flags_hash;
  char font[64];
  WsColor foreground;
  WsColor background;
} WsTimelineHeaderKey;

typedef struct
{
  double width;
  double height;
  char font[64];
  WsColor background;
} WsTimelineOverviewKey;

struct _WsTimelineChart
{
  WsLanes *lanes;
  WsRun *run;
  WsNvtxKernels *nvtx_kernels;
  WsTimelinePaint *paint;
  double memory_top; /* bytes at a memory lane's full height; 0: each lane's own peak */

  WsTimelineGeometry geometry;
  double *lane_y; /* content px, per lane */
  double *lane_h; /* 0 when hidden */
  double content_h;

  cairo_surface_t *header_cache;
  WsTimelineHeaderKey header_key;
  cairo_surface_t *overview_cache;
  WsTimelineOverviewKey overview_key;
};

const WsTimelineGeometry *ws_timeline_chart_geometry (WsTimelineChart *self,
                                                      const WsPalette *palette);
guint8 ws_timeline_chart_lane_flags (const WsTimelineState *state, guint32 lane);
gboolean ws_timeline_chart_can_cache (cairo_t *cr);
gboolean ws_timeline_chart_same_color (WsColor a, WsColor b);
guint32 ws_timeline_chart_flags_hash (WsTimelineChart *self, const WsTimelineState *state);
guint ws_timeline_chart_first_lane_below (WsTimelineChart *self, double y);
void ws_timeline_chart_overview_mapping (WsTimeWindow *window, double width, double *start,
                                         double *ns_per_px);
void ws_timeline_chart_draw_headers_cached (WsTimelineChart *self, cairo_t *cr, double width,
                                            double height, const WsTimelineState *state,
                                            const WsPalette *palette);
void ws_timeline_chart_draw_ruler (WsTimelineChart *self, cairo_t *cr, const WsPaintFrame *f,
                                   const WsTimeTicks *ticks, const WsPalette *palette);
void ws_timeline_chart_draw_overview (WsTimelineChart *self, cairo_t *cr, const WsPaintFrame *f,
                                      WsTimeWindow *window, const WsPalette *palette);

G_END_DECLS
