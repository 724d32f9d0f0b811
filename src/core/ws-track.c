/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-track"
#include "config.h"

#include "ws-track.h"

/* Events scanned one by one, at most, where a stretch of time has more
 * events than this: the ones near its edges are the only ones that can
 * cross them in a lane whose events do not overlap. */
#define EDGE_SCAN 64

/* Takes ownership of @events (g_malloc'ed, sorted by start). */
void
ws_track_init (WsTrack *self, WsEventRef *events, gsize n)
{
  *self = (WsTrack){ 0 };
  self->events = events;
  self->n = n;
}

/* Computes the block summaries once the events are in place. */
void
ws_track_finish (WsTrack *self, const WsRun *run)
{
  gint64 latest = G_MININT64;
  gint64 busy = 0;

  self->n_blocks = (self->n + WS_TRACK_BLOCK - 1) / WS_TRACK_BLOCK;
  self->block_start = g_new (gint64, MAX (self->n_blocks, 1));
  self->block_end = g_new (gint64, MAX (self->n_blocks, 1));
  self->block_busy = g_new (gint64, self->n_blocks + 1);

  for (gsize b = 0; b < self->n_blocks; b++)
    {
      gsize lo = b * WS_TRACK_BLOCK, hi = MIN (lo + WS_TRACK_BLOCK, self->n);

      self->block_start[b] = ws_track_start (self, run, lo);
      self->block_busy[b] = busy;
      for (gsize i = lo; i < hi; i++)
        {
          gint64 s = ws_track_start (self, run, i), e = ws_track_end (self, run, i);

          latest = MAX (latest, e);
          busy += e - s;
        }
      self->block_end[b] = latest;
    }
  self->block_busy[self->n_blocks] = busy;
}

void
ws_track_clear (WsTrack *self)
{
  g_clear_pointer (&self->events, g_free);
  g_clear_pointer (&self->block_start, g_free);
  g_clear_pointer (&self->block_end, g_free);
  g_clear_pointer (&self->block_busy, g_free);
  self->n = self->n_blocks = 0;
}

gsize
ws_track_memory (const WsTrack *self)
{
  return self->n * sizeof (WsEventRef) + self->n_blocks * 3 * sizeof (gint64) + sizeof (gint64);
}

/**
 * ws_track_lower_bound:
 * @from: where to start looking: the answer is at or after it
 *
 * Returns: the first event at or after @from that starts at or after @time,
 * or the number of events.  Gallops from @from over the block starts, so a
 * sweep from left to right costs the log of each step, not of the track.
 */
gsize
ws_track_lower_bound (const WsTrack *self, const WsRun *run, gint64 time, gsize from)
{
  gsize b, lo, hi, step, stop;

  if (from >= self->n)
    return self->n;
  b = from / WS_TRACK_BLOCK;
  /* Block hi is the first after b whose first event starts at or after
   * @time (n_blocks if none); the answer lies in block hi - 1, or is hi's first. */
  lo = b;
  hi = b + 1;
  step = 1;
  while (hi < self->n_blocks && self->block_start[hi] < time)
    {
      lo = hi;
      step *= 2;
      hi = b + step;
    }
  hi = MIN (hi, self->n_blocks);
  while (hi - lo > 1)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->block_start[mid] < time)
        lo = mid;
      else
        hi = mid;
    }
  stop = MIN (hi * WS_TRACK_BLOCK, self->n);
  for (gsize i = MAX (from, lo * WS_TRACK_BLOCK); i < stop; i++)
    if (ws_track_start (self, run, i) >= time)
      return i;
  return stop;
}

/**
 * ws_track_first_ending_after:
 *
 * Returns: an event such that every event before it ends at or before
 * @time, and it ends after @time; the number of events if none does.
 * Drawing starts there: nothing earlier can be in view.
 */
gsize
ws_track_first_ending_after (const WsTrack *self, const WsRun *run, gint64 time)
{
  gsize lo = 0, hi = self->n_blocks;

  /* block_end is a running maximum, so it is sorted. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->block_end[mid] > time)
        hi = mid;
      else
        lo = mid + 1;
    }
  if (lo == self->n_blocks)
    return self->n;
  for (gsize i = lo * WS_TRACK_BLOCK; i < MIN ((lo + 1) * WS_TRACK_BLOCK, self->n); i++)
    if (ws_track_end (self, run, i) > time)
      return i;
  g_assert_not_reached ();
}

static inline gint64
overlap (gint64 s, gint64 e, gint64 t0, gint64 t1)
{
  gint64 a = MAX (s, t0), b = MIN (e, t1);

  return b > a ? b - a : 0;
}

static gint64
direct_busy (const WsTrack *self, const WsRun *run, gsize from, gsize to, gint64 t0, gint64 t1)
{
  gint64 sum = 0;

  for (gsize i = from; i < to; i++)
    sum += overlap (ws_track_start (self, run, i), ws_track_end (self, run, i), t0, t1);
  return sum;
}

/* The summed duration of events [from, to), unclipped. */
static gint64
durations (const WsTrack *self, const WsRun *run, gsize from, gsize to)
{
  gsize b0 = (from + WS_TRACK_BLOCK - 1) / WS_TRACK_BLOCK, b1 = to / WS_TRACK_BLOCK;
  gint64 sum = 0;

  if (b0 >= b1)
    return direct_busy (self, run, from, to, G_MININT64, G_MAXINT64);
  sum = self->block_busy[b1] - self->block_busy[b0];
  sum += direct_busy (self, run, from, b0 * WS_TRACK_BLOCK, G_MININT64, G_MAXINT64);
  sum += direct_busy (self, run, b1 * WS_TRACK_BLOCK, to, G_MININT64, G_MAXINT64);
  return sum;
}

/**
 * ws_track_busy:
 * @from: the first event to count
 * @to: one past the last; every event in [@from, @to) starts before @t1
 *
 * Returns: ns: the time within [@t0, @t1) that events [@from, @to) cover,
 * summed (overlapping events count twice).  Exact where events do not
 * overlap, as on a GPU stream or one NVTX row, where only the events at the
 * two edges can cross them; elsewhere only the EDGE_SCAN events nearest each
 * edge are clipped.
 */
gint64
ws_track_busy (const WsTrack *self, const WsRun *run, gsize from, gsize to, gint64 t0, gint64 t1)
{
  gsize mid;
  gint64 sum;

  to = MIN (to, self->n);
  if (from >= to || t1 <= t0)
    return 0;
  if (to - from <= 2 * EDGE_SCAN)
    return direct_busy (self, run, from, to, t0, t1);

  /* [from, mid) start before t0: only their ends can reach into [t0, t1). */
  mid = ws_track_lower_bound (self, run, t0, from);
  mid = MIN (mid, to);
  sum = direct_busy (self, run, mid > from + EDGE_SCAN ? mid - EDGE_SCAN : from, mid, t0, t1);

  /* [mid, to) start inside: whole durations, less what the last ones
   * spend after t1. */
  if (to > mid)
    {
      gsize tail = to - mid > EDGE_SCAN ? to - EDGE_SCAN : mid;

      sum += durations (self, run, mid, tail);
      sum += direct_busy (self, run, tail, to, t0, t1);
    }
  return sum;
}

/**
 * ws_track_event_at:
 * @tolerance: ns: how far from @time an event may be and still count
 *
 * Returns: the event under @time: the latest-starting one that contains it,
 * else the nearest within @tolerance, else WS_EVENT_NONE.
 */
WsEventRef
ws_track_event_at (const WsTrack *self, const WsRun *run, gint64 time, gint64 tolerance)
{
  gsize after, first, scan_from;
  WsEventRef best = WS_EVENT_NONE;
  gint64 best_distance = G_MAXINT64;

  if (self->n == 0)
    return WS_EVENT_NONE;
  after = ws_track_lower_bound (self, run, time == G_MAXINT64 ? time : time + 1, 0);
  first = ws_track_first_ending_after (self, run, time - 1);
  scan_from = after > first + EDGE_SCAN ? after - EDGE_SCAN : MIN (first, after);

  /* The latest start at or before @time that still runs: the innermost. */
  for (gsize i = after; i > scan_from; i--)
    {
      gint64 s = ws_track_start (self, run, i - 1), e = ws_track_end (self, run, i - 1);

      if (s <= time && (e > time || (e == s && s == time)))
        return self->events[i - 1];
    }

  if (after > 0)
    {
      gint64 d = time - ws_track_end (self, run, after - 1);

      if (d >= 0 && d <= tolerance)
        {
          best = self->events[after - 1];
          best_distance = d;
        }
    }
  if (after < self->n)
    {
      gint64 d = ws_track_start (self, run, after) - time;

      if (d <= tolerance && d < best_distance)
        best = self->events[after];
    }
  return best;
}
