/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The least time one pixel may show: zooming stops at 1 ns per 1000 px. */
#define WS_TIME_WINDOW_MIN_NS_PER_PX 0.001

/* How much wider than the run the view may get when zoomed out. */
#define WS_TIME_WINDOW_MAX_SPAN_FACTOR 1.05

#define WS_TYPE_TIME_WINDOW (ws_time_window_get_type ())

G_DECLARE_FINAL_TYPE (WsTimeWindow, ws_time_window, WS, TIME_WINDOW, GObject)

WsTimeWindow *ws_time_window_new (void);

void ws_time_window_set_bounds (WsTimeWindow *self, gint64 origin, gint64 end_time);
gint64 ws_time_window_get_origin (WsTimeWindow *self);
gint64 ws_time_window_get_end_time (WsTimeWindow *self);
void ws_time_window_set_width (WsTimeWindow *self, double width);
double ws_time_window_get_width (WsTimeWindow *self);

double ws_time_window_get_start (WsTimeWindow *self);
double ws_time_window_get_end (WsTimeWindow *self);
double ws_time_window_get_span (WsTimeWindow *self);
void ws_time_window_get_range (WsTimeWindow *self, gint64 *start, gint64 *end);
double ws_time_window_get_ns_per_px (WsTimeWindow *self);
double ws_time_window_get_min_span (WsTimeWindow *self);
double ws_time_window_get_max_span (WsTimeWindow *self);
gboolean ws_time_window_is_fit (WsTimeWindow *self);

double ws_time_window_time_to_x (WsTimeWindow *self, gint64 time);
double ws_time_window_offset_to_x (WsTimeWindow *self, double offset);
double ws_time_window_x_to_offset (WsTimeWindow *self, double x);
gint64 ws_time_window_x_to_time (WsTimeWindow *self, double x);

void ws_time_window_set_view (WsTimeWindow *self, double start, double end);
void ws_time_window_zoom_at (WsTimeWindow *self, double factor, double x);
void ws_time_window_pan (WsTimeWindow *self, double dx);
void ws_time_window_fit (WsTimeWindow *self);
void ws_time_window_zoom_to (WsTimeWindow *self, gint64 start, gint64 end);
void ws_time_window_go_home (WsTimeWindow *self);
void ws_time_window_go_end (WsTimeWindow *self);

G_END_DECLS
