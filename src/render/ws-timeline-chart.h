/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-lanes.h"
#include "ws-nvtx-kernels.h"
#include "ws-palette.h"
#include "ws-time-window.h"

G_BEGIN_DECLS

/* Per-lane display flags: what the user chose, part of the view state. */
typedef enum
{
  WS_LANE_FLAG_HIDDEN = 1 << 0,
  WS_LANE_FLAG_COLLAPSED = 1 << 1,
} WsLaneFlags;

typedef enum
{
  WS_TIMELINE_AREA_NONE,
  WS_TIMELINE_AREA_CORNER,   /* above the lane headers */
  WS_TIMELINE_AREA_OVERVIEW, /* the whole run, with the view's box */
  WS_TIMELINE_AREA_RULER,
  WS_TIMELINE_AREA_HEADER, /* a lane's name */
  WS_TIMELINE_AREA_LANE,   /* a lane's events */
} WsTimelineArea;

typedef struct _WsTimelinePath WsTimelinePath; /* ws-timeline-path.h */

/* What the widget varies; everything else comes from the lanes. */
typedef struct
{
  double scroll_y;          /* px the lanes are scrolled up by */
  const guint8 *lane_flags; /* WsLaneFlags per lane, or NULL: all shown, expanded */
  WsEventRef hover;
  WsEventRef selected;
  gint64 range_start; /* ns: a selected stretch of time; none when range_end <= range_start */
  gint64 range_end;
  const guint8 *search;         /* bitset over string ids: names that match a search, or NULL */
  guint search_len;             /* bytes in @search */
  const guint8 *search_replays; /* bitset over graph replays that match the search, or NULL */
  gsize nvtx_focus;             /* an NVTX range whose kernels to highlight, or G_MAXSIZE */
  gsize replay_focus;           /* a graph replay whose kernels to highlight, or G_MAXSIZE */
  GHashTable *highlight;        /* WsEventRef + 1 of events to show, the rest dimmed; or NULL */
  double cursor_x;              /* px: a line following the pointer, or < 0 */
  WsNameForm name_form;         /* how kernels are labelled */
  const gint64 *lane_shift;     /* ns per lane added to its events' times (a job's ranks aligned
                             * on a step), or NULL */
  const WsTimelinePath *path;   /* a step's critical path to draw over the lanes, or NULL */
} WsTimelineState;

typedef struct
{
  WsTimelineArea area;
  guint32 lane;      /* WS_LANE_NONE outside lanes and headers */
  guint row;         /* row within the lane; G_MAXUINT on an NVTX mark, WS_LANE_ROW_REPLAYS on
                      * a stream's band of graph replays */
  WsEventRef event;  /* WS_EVENT_NONE if none is there */
  gint64 time;       /* ns at the pointer's x (absolute), in the overview too */
  gboolean expander; /* on a header's collapse triangle */
} WsTimelineHit;

typedef struct _WsTimelineChart WsTimelineChart;

WsTimelineChart *ws_timeline_chart_new (WsLanes *lanes);
void ws_timeline_chart_free (WsTimelineChart *self);
WsLanes *ws_timeline_chart_get_lanes (WsTimelineChart *self);
void ws_timeline_chart_set_nvtx_kernels (WsTimelineChart *self, WsNvtxKernels *nvtx_kernels);
void ws_timeline_chart_set_memory_top (WsTimelineChart *self, double top);
double ws_timeline_chart_get_memory_top (WsTimelineChart *self);
double ws_timeline_chart_memory_peak (WsTimelineChart *self);

void ws_timeline_state_init (WsTimelineState *state);

double ws_timeline_chart_header_width (WsTimelineChart *self, const WsPalette *palette);
double ws_timeline_chart_top_height (WsTimelineChart *self, const WsPalette *palette);
double ws_timeline_chart_content_height (WsTimelineChart *self, const WsTimelineState *state,
                                         const WsPalette *palette);

void ws_timeline_chart_draw (WsTimelineChart *self, cairo_t *cr, double width, double height,
                             WsTimeWindow *window, const WsTimelineState *state,
                             const WsPalette *palette);
void ws_timeline_chart_draw_base (WsTimelineChart *self, cairo_t *cr, double width, double height,
                                  WsTimeWindow *window, const WsTimelineState *state,
                                  const WsPalette *palette);
void ws_timeline_chart_draw_overlay (WsTimelineChart *self, cairo_t *cr, double width,
                                     double height, WsTimeWindow *window,
                                     const WsTimelineState *state, const WsPalette *palette);

void ws_timeline_chart_hit (WsTimelineChart *self, double width, double height,
                            WsTimeWindow *window, const WsTimelineState *state,
                            const WsPalette *palette, double x, double y, WsTimelineHit *hit);
gboolean ws_timeline_chart_lane_rect (WsTimelineChart *self, double width, double height,
                                      const WsTimelineState *state, const WsPalette *palette,
                                      guint32 lane, guint row, cairo_rectangle_t *rect);
gboolean ws_timeline_chart_event_rect (WsTimelineChart *self, double width, double height,
                                       WsTimeWindow *window, const WsTimelineState *state,
                                       const WsPalette *palette, WsEventRef event,
                                       cairo_rectangle_t *rect);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTimelineChart, ws_timeline_chart_free)

G_END_DECLS
