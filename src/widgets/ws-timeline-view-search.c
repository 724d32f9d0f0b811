/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline-view"
#include "config.h"

#include "ws-sort.h"
#include "ws-timeline-view-private.h"

/**
 * ws_timeline_view_set_search:
 * @text: (nullable): part of a name, any case; %NULL or "" ends the search
 *
 * Highlights every kernel, NVTX range or mark, API call and CUDA graph
 * replay whose name contains @text, dimming the rest.
 *
 * Returns: how many events match
 */
guint
ws_timeline_view_set_search (WsTimelineView *self, const char *text)
{
  guint count;

  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), 0);

  if (self->search == NULL)
    return 0;
  count = ws_event_search_set_text (self->search, text);
  self->state.search = ws_event_search_get_bits (self->search, &self->state.search_len);
  self->state.search_replays = ws_event_search_get_replay_bits (self->search);
  ws_timeline_view_invalidate (self);
  return count;
}

/**
 * ws_timeline_view_find:
 * @backwards: find the previous match instead of the next
 *
 * Selects and reveals the next match of the search after the selected
 * event (or the middle of the view), wrapping around at the end.
 *
 * Returns: %FALSE if nothing matches
 */
gboolean
ws_timeline_view_find (WsTimelineView *self, gboolean backwards)
{
  const WsRun *run;
  WsEventRef from = self->state.selected, found;

  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), FALSE);

  if (self->lanes == NULL || self->search == NULL)
    return FALSE;
  run = ws_lanes_get_run (self->lanes);
  /* Without a selection, the API call at the middle of the view stands for
   * "here". */
  if (from == WS_EVENT_NONE && run->api.n > 0)
    {
      gint64 mid =
        ws_time_window_x_to_time (self->window, ws_time_window_get_width (self->window) / 2);
      gsize lo = ws_sort_lower_bound (run->api.start, 0, run->api.n, mid);

      from = ws_event_ref (WS_EVENT_API, MIN (lo, run->api.n - 1));
    }
  found = ws_event_search_find (self->search, from, backwards);
  if (found == WS_EVENT_NONE)
    return FALSE;
  ws_timeline_view_select (self, found);
  ws_timeline_view_reveal (self, found);
  return TRUE;
}

/**
 * ws_timeline_view_search_matches:
 * @event: an event, or WS_EVENT_NONE
 *
 * Returns: whether @event matches the search (%FALSE without one)
 */
gboolean
ws_timeline_view_search_matches (WsTimelineView *self, WsEventRef event)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), FALSE);

  if (self->lanes == NULL || self->search == NULL || self->state.search == NULL ||
      !ws_event_ref_is_valid (ws_lanes_get_run (self->lanes), event))
    return FALSE;
  return ws_event_search_matches (self->search, event);
}
