/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-timeline-view.h"

G_BEGIN_DECLS

/* What a key does to the timeline that has the focus. */
typedef enum
{
  WS_TIMELINE_KEY_NONE,
  WS_TIMELINE_KEY_ZOOM_IN,
  WS_TIMELINE_KEY_ZOOM_OUT,
  WS_TIMELINE_KEY_PAN_LEFT,
  WS_TIMELINE_KEY_PAN_RIGHT,
  WS_TIMELINE_KEY_HOME,
  WS_TIMELINE_KEY_END,
  WS_TIMELINE_KEY_SCROLL_UP,
  WS_TIMELINE_KEY_SCROLL_DOWN,
  WS_TIMELINE_KEY_ZOOM_SELECTION,
  WS_TIMELINE_KEY_ZOOM_FIT,
  WS_TIMELINE_KEY_CLEAR,
} WsTimelineKey;

/* What a press of the primary button began, by where it fell. */
typedef enum
{
  WS_TIMELINE_DRAG_NONE,
  WS_TIMELINE_DRAG_PAN,      /* the lanes: a drag pans, a click selects */
  WS_TIMELINE_DRAG_RANGE,    /* the ruler: a drag selects a time range */
  WS_TIMELINE_DRAG_OVERVIEW, /* the overview: the view follows the pointer */
} WsTimelineDrag;

/* The pointer and the keys over one WsTimelineView, which embeds this and
 * hands it its events; it acts through the view's own API. */
typedef struct
{
  WsTimelineView *view; /* (unowned) */
  WsTimelineDrag drag;
  double press_x, press_y;
  double last_x, last_y;
  gboolean moved;
  gint64 anchor;    /* ns, absolute: where a range drag began */
  double pointer_x; /* < 0 when outside */
} WsTimelineInput;

WsTimelineKey ws_timeline_input_key (guint keyval, GdkModifierType state);

void ws_timeline_input_init (WsTimelineInput *self, WsTimelineView *view);
gboolean ws_timeline_input_button_press (WsTimelineInput *self, GdkEventButton *event);
gboolean ws_timeline_input_motion_notify (WsTimelineInput *self, GdkEventMotion *event);
gboolean ws_timeline_input_button_release (WsTimelineInput *self, GdkEventButton *event);
gboolean ws_timeline_input_leave_notify (WsTimelineInput *self, GdkEventCrossing *event);
gboolean ws_timeline_input_scroll (WsTimelineInput *self, GdkEventScroll *event);
gboolean ws_timeline_input_key_press (WsTimelineInput *self, GdkEventKey *event);

G_END_DECLS
