/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline-input"
#include "config.h"

#include <math.h>

#include "ws-lane-menu.h"
#include "ws-timeline-input.h"

/* One notch of the wheel or one key press zooms by this much. */
#define ZOOM_STEP 1.5
#define WHEEL_ZOOM 1.25
/* A press that moves less than this is a click, not a drag. */
#define CLICK_SLOP 3

/**
 * ws_timeline_input_key:
 * @keyval: the key pressed
 * @state: the modifiers held
 *
 * Returns: what @keyval does to a focused timeline; WS_TIMELINE_KEY_NONE
 * with Ctrl, Alt or Super held, and for keys the timeline leaves alone
 */
WsTimelineKey
ws_timeline_input_key (guint keyval, GdkModifierType state)
{
  if ((state & (GDK_CONTROL_MASK | GDK_MOD1_MASK | GDK_SUPER_MASK)) != 0)
    return WS_TIMELINE_KEY_NONE;
  switch (keyval)
    {
      case GDK_KEY_w:
      case GDK_KEY_W:
      case GDK_KEY_plus:
      case GDK_KEY_equal:
      case GDK_KEY_KP_Add:
        return WS_TIMELINE_KEY_ZOOM_IN;
      case GDK_KEY_s:
      case GDK_KEY_S:
      case GDK_KEY_minus:
      case GDK_KEY_KP_Subtract:
        return WS_TIMELINE_KEY_ZOOM_OUT;
      case GDK_KEY_a:
      case GDK_KEY_A:
      case GDK_KEY_Left:
        return WS_TIMELINE_KEY_PAN_LEFT;
      case GDK_KEY_d:
      case GDK_KEY_D:
      case GDK_KEY_Right:
        return WS_TIMELINE_KEY_PAN_RIGHT;
      case GDK_KEY_Home:
        return WS_TIMELINE_KEY_HOME;
      case GDK_KEY_End:
        return WS_TIMELINE_KEY_END;
      case GDK_KEY_Up:
        return WS_TIMELINE_KEY_SCROLL_UP;
      case GDK_KEY_Down:
        return WS_TIMELINE_KEY_SCROLL_DOWN;
      case GDK_KEY_f:
      case GDK_KEY_F:
        return WS_TIMELINE_KEY_ZOOM_SELECTION;
      case GDK_KEY_0:
      case GDK_KEY_KP_0:
        return WS_TIMELINE_KEY_ZOOM_FIT;
      case GDK_KEY_Escape:
        return WS_TIMELINE_KEY_CLEAR;
      default:
        return WS_TIMELINE_KEY_NONE;
    }
}

void
ws_timeline_input_init (WsTimelineInput *self, WsTimelineView *view)
{
  *self = (WsTimelineInput){ .view = view, .drag = WS_TIMELINE_DRAG_NONE, .pointer_x = -1 };
}

static void
scroll_lanes (WsTimelineInput *self, double dy)
{
  GtkAdjustment *vadjustment = ws_timeline_view_get_vadjustment (self->view);

  gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_value (vadjustment) + dy);
}

/* Centres the view on @time, at the same zoom. */
static void
center_on (WsTimelineInput *self, gint64 time)
{
  WsTimeWindow *window = ws_timeline_view_get_window (self->view);
  double span = ws_time_window_get_span (window);
  double at = (double) (time - ws_time_window_get_origin (window));

  ws_time_window_set_view (window, at - span / 2, at + span / 2);
}

gboolean
ws_timeline_input_button_press (WsTimelineInput *self, GdkEventButton *event)
{
  WsTimelineView *view = self->view;
  WsTimelineHit hit;

  if (ws_timeline_view_get_lanes (view) == NULL || event->type != GDK_BUTTON_PRESS)
    return GDK_EVENT_PROPAGATE;
  gtk_widget_grab_focus (GTK_WIDGET (view));
  ws_timeline_view_hit (view, event->x, event->y, &hit);

  if (event->button == GDK_BUTTON_SECONDARY)
    {
      if (hit.lane != WS_LANE_NONE)
        ws_lane_menu_popup (view, hit.lane, hit.event, (GdkEvent *) event);
      return GDK_EVENT_STOP;
    }
  if (event->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;

  self->press_x = self->last_x = event->x;
  self->press_y = self->last_y = event->y;
  self->moved = FALSE;
  switch (hit.area)
    {
      case WS_TIMELINE_AREA_OVERVIEW:
        self->drag = WS_TIMELINE_DRAG_OVERVIEW;
        center_on (self, hit.time);
        break;
      case WS_TIMELINE_AREA_RULER:
        self->drag = WS_TIMELINE_DRAG_RANGE;
        self->anchor = hit.time;
        break;
      case WS_TIMELINE_AREA_HEADER:
        if (hit.lane != WS_LANE_NONE)
          ws_timeline_view_toggle_collapsed (view, hit.lane);
        self->drag = WS_TIMELINE_DRAG_NONE;
        break;
      case WS_TIMELINE_AREA_LANE:
      case WS_TIMELINE_AREA_CORNER:
      case WS_TIMELINE_AREA_NONE:
      default:
        self->drag = WS_TIMELINE_DRAG_PAN;
        break;
    }
  return GDK_EVENT_STOP;
}

gboolean
ws_timeline_input_motion_notify (WsTimelineInput *self, GdkEventMotion *event)
{
  WsTimelineView *view = self->view;
  WsTimelineHit hit;

  self->pointer_x = event->x;
  if (ws_timeline_view_get_lanes (view) == NULL)
    return GDK_EVENT_PROPAGATE;
  if (fabs (event->x - self->press_x) > CLICK_SLOP || fabs (event->y - self->press_y) > CLICK_SLOP)
    self->moved = TRUE;

  switch (self->drag)
    {
      case WS_TIMELINE_DRAG_PAN:
        {
          GtkAdjustment *vadjustment = ws_timeline_view_get_vadjustment (view);

          ws_time_window_pan (ws_timeline_view_get_window (view), self->last_x - event->x);
          gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_value (vadjustment) +
                                                   self->last_y - event->y);
        }
        break;
      case WS_TIMELINE_DRAG_RANGE:
        {
          gint64 t = ws_time_window_x_to_time (ws_timeline_view_get_window (view),
                                               event->x - ws_timeline_view_get_header_width (view));

          if (self->moved)
            ws_timeline_view_set_range (view, MIN (self->anchor, t), MAX (self->anchor, t));
        }
        break;
      case WS_TIMELINE_DRAG_OVERVIEW:
        ws_timeline_view_hit (view, MAX (event->x, ws_timeline_view_get_header_width (view)), 1,
                              &hit);
        center_on (self, hit.time);
        break;
      case WS_TIMELINE_DRAG_NONE:
      default:
        ws_timeline_view_hit (view, event->x, event->y, &hit);
        ws_timeline_view_set_hover (
          view, hit.event,
          hit.area == WS_TIMELINE_AREA_LANE || hit.area == WS_TIMELINE_AREA_RULER ? event->x : -1);
        break;
    }
  self->last_x = event->x;
  self->last_y = event->y;
  return GDK_EVENT_STOP;
}

gboolean
ws_timeline_input_button_release (WsTimelineInput *self, GdkEventButton *event)
{
  WsTimelineDrag drag = self->drag;
  WsTimelineHit hit;

  if (event->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  self->drag = WS_TIMELINE_DRAG_NONE;
  if (drag == WS_TIMELINE_DRAG_PAN && !self->moved)
    {
      ws_timeline_view_hit (self->view, event->x, event->y, &hit);
      ws_timeline_view_select (self->view, hit.event);
    }
  else if (drag == WS_TIMELINE_DRAG_RANGE && !self->moved)
    ws_timeline_view_set_range (self->view, 0, 0);
  return GDK_EVENT_STOP;
}

gboolean
ws_timeline_input_leave_notify (WsTimelineInput *self, GdkEventCrossing *event)
{
  self->pointer_x = -1;
  ws_timeline_view_set_hover (self->view, WS_EVENT_NONE, -1);
  return GDK_EVENT_PROPAGATE;
}

gboolean
ws_timeline_input_scroll (WsTimelineInput *self, GdkEventScroll *event)
{
  WsTimelineView *view = self->view;
  double dx = 0, dy = 0;

  if (ws_timeline_view_get_lanes (view) == NULL)
    return GDK_EVENT_PROPAGATE;
  self->pointer_x = event->x;
  switch (event->direction)
    {
      case GDK_SCROLL_UP:
        dy = -1;
        break;
      case GDK_SCROLL_DOWN:
        dy = 1;
        break;
      case GDK_SCROLL_LEFT:
        dx = -1;
        break;
      case GDK_SCROLL_RIGHT:
        dx = 1;
        break;
      case GDK_SCROLL_SMOOTH:
      default:
        gdk_event_get_scroll_deltas ((GdkEvent *) event, &dx, &dy);
        break;
    }
  if (event->state & GDK_CONTROL_MASK)
    ws_timeline_view_zoom (view, pow (WHEEL_ZOOM, -dy));
  else if (event->state & GDK_SHIFT_MASK)
    ws_time_window_pan (ws_timeline_view_get_window (view), (dy + dx) * 80);
  else
    {
      if (dx != 0)
        ws_time_window_pan (ws_timeline_view_get_window (view), dx * 80);
      if (dy != 0)
        scroll_lanes (self, dy * 60);
    }
  return GDK_EVENT_STOP;
}

gboolean
ws_timeline_input_key_press (WsTimelineInput *self, GdkEventKey *event)
{
  WsTimelineView *view = self->view;

  if (ws_timeline_view_get_lanes (view) == NULL)
    return GDK_EVENT_PROPAGATE;
  switch (ws_timeline_input_key (event->keyval, event->state))
    {
      case WS_TIMELINE_KEY_ZOOM_IN:
        ws_timeline_view_zoom (view, ZOOM_STEP);
        break;
      case WS_TIMELINE_KEY_ZOOM_OUT:
        ws_timeline_view_zoom (view, 1 / ZOOM_STEP);
        break;
      case WS_TIMELINE_KEY_PAN_LEFT:
        ws_timeline_view_pan (view, -0.15);
        break;
      case WS_TIMELINE_KEY_PAN_RIGHT:
        ws_timeline_view_pan (view, 0.15);
        break;
      case WS_TIMELINE_KEY_HOME:
        ws_timeline_view_go_home (view);
        break;
      case WS_TIMELINE_KEY_END:
        ws_timeline_view_go_end (view);
        break;
      case WS_TIMELINE_KEY_SCROLL_UP:
        scroll_lanes (self, -40);
        break;
      case WS_TIMELINE_KEY_SCROLL_DOWN:
        scroll_lanes (self, 40);
        break;
      case WS_TIMELINE_KEY_ZOOM_SELECTION:
        ws_timeline_view_zoom_selection (view);
        break;
      case WS_TIMELINE_KEY_ZOOM_FIT:
        ws_timeline_view_zoom_fit (view);
        break;
      case WS_TIMELINE_KEY_CLEAR:
        ws_timeline_view_select (view, WS_EVENT_NONE);
        ws_timeline_view_set_range (view, 0, 0);
        ws_timeline_view_set_highlight (view, NULL);
        break;
      case WS_TIMELINE_KEY_NONE:
      default:
        return GDK_EVENT_PROPAGATE;
    }
  return GDK_EVENT_STOP;
}
