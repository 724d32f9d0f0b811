/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline-view"
#include "config.h"

#include "ws-timeline-view-private.h"
#include "ws-widget-palette.h"

/* The x on the time axis to zoom at: the pointer's if over the lanes. */
static double
zoom_anchor (WsTimelineView *self)
{
  double header = ws_timeline_view_get_header_width (self);

  if (self->input.pointer_x >= header)
    return self->input.pointer_x - header;
  return ws_time_window_get_width (self->window) / 2;
}

/* Zooms in (@factor > 1) or out at the pointer, or at the middle. */
void
ws_timeline_view_zoom (WsTimelineView *self, double factor)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  ws_time_window_zoom_at (self->window, factor, zoom_anchor (self));
}

/* Pans by @fraction of the view: positive shows later times. */
void
ws_timeline_view_pan (WsTimelineView *self, double fraction)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  ws_time_window_pan (self->window, fraction * ws_time_window_get_width (self->window));
}

void
ws_timeline_view_zoom_fit (WsTimelineView *self)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  ws_time_window_fit (self->window);
}

/* Zooms to the selected time range, else to the selected event.  Returns
 * %FALSE if nothing is selected. */
gboolean
ws_timeline_view_zoom_selection (WsTimelineView *self)
{
  const WsRun *run;
  gint64 s, e;

  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), FALSE);

  if (ws_timeline_view_get_range (self, &s, &e))
    {
      ws_time_window_zoom_to (self->window, s, e);
      return TRUE;
    }
  if (self->lanes == NULL || self->state.selected == WS_EVENT_NONE)
    return FALSE;
  run = ws_lanes_get_run (self->lanes);
  s = ws_event_start (run, self->state.selected);
  e = ws_event_end (run, self->state.selected);
  ws_time_window_zoom_to (self->window, s - (e - s) / 10 - 1, e + (e - s) / 10 + 1);
  return TRUE;
}

void
ws_timeline_view_go_home (WsTimelineView *self)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  ws_time_window_go_home (self->window);
}

void
ws_timeline_view_go_end (WsTimelineView *self)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  ws_time_window_go_end (self->window);
}

/**
 * ws_timeline_view_reveal:
 *
 * Brings @event into view: shows its lane, pans (or zooms out, if it is
 * wider than the view) and scrolls to it.
 */
void
ws_timeline_view_reveal (WsTimelineView *self, WsEventRef event)
{
  const WsRun *run;
  cairo_rectangle_t rect;
  guint32 lane;
  gint64 s, e;
  double span, top, height;
  WsPalette palette;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (self->lanes == NULL || !ws_event_ref_is_valid (ws_lanes_get_run (self->lanes), event))
    return;
  run = ws_lanes_get_run (self->lanes);
  lane = ws_lanes_find_event (self->lanes, event, NULL);
  if (lane != WS_LANE_NONE)
    {
      const WsLane *l = ws_lanes_get_lane (self->lanes, lane);

      ws_timeline_view_set_lane_flags (
        self, lane, ws_timeline_view_get_lane_flags (self, lane) & ~WS_LANE_FLAG_HIDDEN);
      if (l->group != WS_LANE_NONE)
        ws_timeline_view_set_lane_flags (self, l->group, 0);
    }

  s = ws_event_start (run, event);
  e = ws_event_end (run, event);
  span = ws_time_window_get_span (self->window);
  if ((double) (e - s) > span * 0.8)
    ws_time_window_zoom_to (self->window, s - (e - s) / 10, e + (e - s) / 10 + 1);
  else if (ws_time_window_time_to_x (self->window, s) < 0 ||
           ws_time_window_time_to_x (self->window, e) > ws_time_window_get_width (self->window))
    {
      double mid = ((double) (s - run->origin) + (double) (e - run->origin)) / 2;

      ws_time_window_set_view (self->window, mid - span / 2, mid + span / 2);
    }

  ws_widget_palette (GTK_WIDGET (self), &palette);
  top = ws_timeline_chart_top_height (self->chart, &palette);
  height = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  if (ws_timeline_view_event_rect (self, event, &rect) &&
      (rect.y < top || rect.y + rect.height > height))
    gtk_adjustment_set_value (self->vadjustment,
                              self->state.scroll_y + rect.y - top - (height - top) / 3);
}

/**
 * ws_timeline_view_scroll_to_lane:
 *
 * Scrolls so that lane @lane is at the top of the lanes (as far as the
 * lanes below it allow).
 */
void
ws_timeline_view_scroll_to_lane (WsTimelineView *self, guint32 lane)
{
  cairo_rectangle_t rect;
  WsPalette palette;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (self->chart == NULL || !ws_timeline_view_lane_rect (self, lane, &rect))
    return;
  ws_widget_palette (GTK_WIDGET (self), &palette);
  gtk_adjustment_set_value (self->vadjustment,
                            self->state.scroll_y + rect.y -
                              ws_timeline_chart_top_height (self->chart, &palette));
}
