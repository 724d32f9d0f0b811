/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-event-ref.h"

G_BEGIN_DECLS

/* Events per block of a track's summaries, and blocks per super-block. */
#define WS_TRACK_BLOCK 32
#define WS_TRACK_SUPER 32

/* Marks in WsTrack.start_delta and .duration: the value did not fit in 32
 * bits; read it from the run. */
#define WS_TRACK_FAR G_MAXUINT32

/* WsTrack.style of an NVTX range or mark with a colour of its own: this bit
 * and the colour's index in WsTrack.colors; without it, a hash of the name. */
#define WS_TRACK_STYLE_COLOR 0x80

/* One row of a timeline: events sorted by start (ties: later end first),
 * with their times and style copied next to them, and per-block summaries,
 * so that the events in view, and how busy a stretch of time is, are found
 * in logarithmic time whatever the count, reading memory of this track
 * alone: drawing costs pixels, not events. */
typedef struct
{
  WsEventRef *events;
  gsize n;
  guint32 *start_delta; /* ns after the start of its block's first event */
  guint32 *duration;    /* ns */
  guint8 *style;        /* what its colour depends on, see ws_track_finish() */
  guint32 *colors;      /* ARGB: the distinct NVTX colours of the track */
  guint n_colors;
  gsize n_blocks;
  gint64 *block_start; /* ns: the start of the first event of each block */
  gint64 *block_end;   /* ns: the latest end of any event up to the end of each block */
  gint64 *block_busy;  /* ns: the summed duration of the events before each block; n_blocks + 1 */
  gsize n_super;
  gint64 *super_start; /* ns: the start of the first event of each super-block: small
                        * enough to stay in cache, so a search touches little memory */
} WsTrack;

void ws_track_init (WsTrack *self, WsEventRef *events, gsize n);
void ws_track_finish (WsTrack *self, const WsRun *run, guint8 *api_classes);
void ws_track_clear (WsTrack *self);
gsize ws_track_memory (const WsTrack *self);

gsize ws_track_lower_bound (const WsTrack *self, const WsRun *run, gint64 time, gsize from);
gsize ws_track_lower_block (const WsTrack *self, gint64 time, gsize from_block);
gsize ws_track_first_ending_after (const WsTrack *self, const WsRun *run, gint64 time);
gint64 ws_track_busy (const WsTrack *self, const WsRun *run, gsize from, gsize to, gint64 t0,
                      gint64 t1);
WsEventRef ws_track_event_at (const WsTrack *self, const WsRun *run, gint64 time, gint64 tolerance);

/* ns */
static inline gint64
ws_track_start (const WsTrack *self, const WsRun *run, gsize i)
{
  guint32 delta = self->start_delta[i];

  if (G_LIKELY (delta != WS_TRACK_FAR))
    return self->block_start[i / WS_TRACK_BLOCK] + delta;
  return ws_event_start (run, self->events[i]);
}

static inline gint64
ws_track_end (const WsTrack *self, const WsRun *run, gsize i)
{
  guint32 duration = self->duration[i];

  if (G_LIKELY (duration != WS_TRACK_FAR))
    return ws_track_start (self, run, i) + duration;
  return ws_event_end (run, self->events[i]);
}

G_END_DECLS
