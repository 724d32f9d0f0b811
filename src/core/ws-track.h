/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-event-ref.h"

G_BEGIN_DECLS

/* Events per block of a track's summaries. */
#define WS_TRACK_BLOCK 32

/* One row of a timeline: events sorted by start (ties: later end first),
 * with per-block summaries so that the events in view, and how busy a
 * stretch of time is, are found in logarithmic time, whatever the count:
 * drawing costs pixels, not events. */
typedef struct
{
  WsEventRef *events;
  gsize n;
  gsize n_blocks;
  gint64 *block_start; /* ns: the start of the first event of each block */
  gint64 *block_end;   /* ns: the latest end of any event up to the end of each block */
  gint64 *block_busy;  /* ns: the summed duration of the events before each block; n_blocks + 1 */
} WsTrack;

void ws_track_init (WsTrack *self, WsEventRef *events, gsize n);
void ws_track_finish (WsTrack *self, const WsRun *run);
void ws_track_clear (WsTrack *self);
gsize ws_track_memory (const WsTrack *self);

gsize ws_track_lower_bound (const WsTrack *self, const WsRun *run, gint64 time, gsize from);
gsize ws_track_first_ending_after (const WsTrack *self, const WsRun *run, gint64 time);
gint64 ws_track_busy (const WsTrack *self, const WsRun *run, gsize from, gsize to, gint64 t0,
                      gint64 t1);
WsEventRef ws_track_event_at (const WsTrack *self, const WsRun *run, gint64 time, gint64 tolerance);

static inline gint64
ws_track_start (const WsTrack *self, const WsRun *run, gsize i)
{
  return ws_event_start (run, self->events[i]);
}

static inline gint64
ws_track_end (const WsTrack *self, const WsRun *run, gsize i)
{
  return ws_event_end (run, self->events[i]);
}

G_END_DECLS
