/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-lanes.h"
#include "ws-nvtx-kernels.h"
#include "ws-time-window.h"
#include "ws-timeline-chart.h"

G_BEGIN_DECLS

#define WS_TYPE_TIMELINE_VIEW (ws_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (WsTimelineView, ws_timeline_view, WS, TIMELINE_VIEW, GtkDrawingArea)

GtkWidget *ws_timeline_view_new (void);
void ws_timeline_view_set_lanes (WsTimelineView *self, WsLanes *lanes);
WsLanes *ws_timeline_view_get_lanes (WsTimelineView *self);
void ws_timeline_view_set_memory_top (WsTimelineView *self, double top);
double ws_timeline_view_get_memory_peak (WsTimelineView *self);
double ws_timeline_view_get_memory_top (WsTimelineView *self);
void ws_timeline_view_set_nvtx_kernels (WsTimelineView *self, WsNvtxKernels *nvtx_kernels);
WsNvtxKernels *ws_timeline_view_get_nvtx_kernels (WsTimelineView *self);
WsTimeWindow *ws_timeline_view_get_window (WsTimelineView *self);
GtkAdjustment *ws_timeline_view_get_vadjustment (WsTimelineView *self);

WsEventRef ws_timeline_view_get_selected (WsTimelineView *self);
void ws_timeline_view_select (WsTimelineView *self, WsEventRef event);
WsEventRef ws_timeline_view_get_hover (WsTimelineView *self);
void ws_timeline_view_set_hover (WsTimelineView *self, WsEventRef event, double cursor_x);
gboolean ws_timeline_view_get_range (WsTimelineView *self, gint64 *start, gint64 *end);
void ws_timeline_view_set_range (WsTimelineView *self, gint64 start, gint64 end);
void ws_timeline_view_reveal (WsTimelineView *self, WsEventRef event);
void ws_timeline_view_set_highlight (WsTimelineView *self, GHashTable *events);
void ws_timeline_view_ask_what_if (WsTimelineView *self, const char *change);
void ws_timeline_view_set_path (WsTimelineView *self, WsTimelinePath *path);
const WsTimelinePath *ws_timeline_view_get_path (WsTimelineView *self);
GHashTable *ws_timeline_view_get_highlight (WsTimelineView *self);
void ws_timeline_view_set_lane_shifts (WsTimelineView *self, const gint64 *shifts);
gint64 ws_timeline_view_get_lane_shift (WsTimelineView *self, guint32 lane);
gsize ws_timeline_view_get_nvtx_focus (WsTimelineView *self);
gsize ws_timeline_view_get_replay_focus (WsTimelineView *self);

void ws_timeline_view_zoom (WsTimelineView *self, double factor);
void ws_timeline_view_pan (WsTimelineView *self, double fraction);
void ws_timeline_view_zoom_fit (WsTimelineView *self);
gboolean ws_timeline_view_zoom_selection (WsTimelineView *self);
void ws_timeline_view_go_home (WsTimelineView *self);
void ws_timeline_view_go_end (WsTimelineView *self);

guint ws_timeline_view_set_search (WsTimelineView *self, const char *text);
gboolean ws_timeline_view_find (WsTimelineView *self, gboolean backwards);
gboolean ws_timeline_view_search_matches (WsTimelineView *self, WsEventRef event);

guint8 ws_timeline_view_get_lane_flags (WsTimelineView *self, guint32 lane);
void ws_timeline_view_set_lane_flags (WsTimelineView *self, guint32 lane, guint8 flags);
void ws_timeline_view_show_all_lanes (WsTimelineView *self);
void ws_timeline_view_toggle_collapsed (WsTimelineView *self, guint32 lane);
void ws_timeline_view_scroll_to_lane (WsTimelineView *self, guint32 lane);

double ws_timeline_view_get_header_width (WsTimelineView *self);
void ws_timeline_view_hit (WsTimelineView *self, double x, double y, WsTimelineHit *hit);
gboolean ws_timeline_view_event_rect (WsTimelineView *self, WsEventRef event,
                                      cairo_rectangle_t *rect);
gboolean ws_timeline_view_lane_rect (WsTimelineView *self, guint32 lane, cairo_rectangle_t *rect);
char *ws_timeline_view_tooltip_markup (WsTimelineView *self, double x, double y);

G_END_DECLS
