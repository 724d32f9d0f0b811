/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-track"
#include "config.h"

#include "ws-limits.h"
#include "ws-sort.h"
#include "ws-track.h"

/* Events scanned one by one, at most, where a stretch of time has more
 * events than this: the ones near its edges are the only ones that can
 * cross them in a lane whose events do not overlap. */
#define EDGE_SCAN 4

/* Takes ownership of @events (g_malloc'ed, sorted by start). */
void
ws_track_init (WsTrack *self, WsEventRef *events, gsize n)
{
  *self = (WsTrack){ 0 };
  self->events = events;
  self->n = n;
}

static guint8
nvtx_style (WsTrack *self, guint32 color, guint32 name)
{
  guint32 argb = 0xff000000u | (color & 0xffffff);

  if (color != 0)
    {
      for (guint c = 0; c < self->n_colors; c++)
        if (self->colors[c] == argb)
          return WS_TRACK_STYLE_COLOR | c;
      if (self->n_colors < WS_TRACK_STYLE_COLOR)
        {
          self->colors = g_renew (guint32, self->colors, self->n_colors + 1);
          self->colors[self->n_colors] = argb;
          return WS_TRACK_STYLE_COLOR | self->n_colors++;
        }
    }
  return (name * 2654435761u) >> 25;
}

/* The style byte: kernels and CPU samples, a hash of the name (string id);
 * graph replays, a hash of their graph's id;
 * memory operations, their WsMemopKind; API calls, their WsApiClass; OS
 * runtime calls, their WsOsrtClass; NVTX ranges and marks,
 * WS_TRACK_STYLE_COLOR and a colour index, or a hash of the name. */
static guint8
style_of (WsTrack *self, const WsRun *run, WsEventRef event, guint8 *api_classes)
{
  gsize i = ws_event_ref_index (event);

  switch (ws_event_ref_kind (event))
    {
      case WS_EVENT_KERNEL:
        return (run->kernels.demangled[i] * 2654435761u) >> 24;
      case WS_EVENT_MEMOP:
        return run->memops.kind[i];
      case WS_EVENT_API:
        {
          guint32 name = run->api.name[i];

          if (api_classes == NULL || name >= ws_string_table_size (run->strings))
            return ws_api_class (ws_run_string (run, name));
          /* Cached per name, biased by one: 0 is "not yet". */
          if (api_classes[name] == 0)
            api_classes[name] = 1 + ws_api_class (ws_run_string (run, name));
          return api_classes[name] - 1;
        }
      case WS_EVENT_NVTX:
        return nvtx_style (self, run->nvtx.color[i], run->nvtx.name[i]);
      case WS_EVENT_OSRT:
        return ws_osrt_class (ws_run_string (run, run->osrt.name[i]));
      case WS_EVENT_SAMPLE:
        return (run->cpu_samples.name[i] * 2654435761u) >> 24;
      case WS_EVENT_REPLAY:
        return (run->replays.graph[i] * 2654435761u) >> 24;
      case WS_EVENT_MARK:
      default:
        return nvtx_style (self, run->marks.color[i], run->marks.name[i]);
    }
}

/**
 * ws_track_finish:
 * @api_classes: (nullable): per string id of the run, zeroed at first: a
 *   cache of API calls' classes, shared by the tracks of one run
 *
 * Copies the events' times and styles next to them and computes the block
 * summaries, once the events are in place.
 */
void
ws_track_finish (WsTrack *self, const WsRun *run, guint8 *api_classes)
{
  gint64 latest = G_MININT64;
  gint64 busy = 0;

  self->n_blocks = (self->n + WS_TRACK_BLOCK - 1) / WS_TRACK_BLOCK;
  self->block_start = g_new (gint64, MAX (self->n_blocks, 1));
  self->block_end = g_new (gint64, MAX (self->n_blocks, 1));
  self->block_busy = g_new (gint64, self->n_blocks + 1);
  self->start_delta = g_new (guint32, MAX (self->n, 1));
  self->duration = g_new (guint32, MAX (self->n, 1));
  self->style = g_new (guint8, MAX (self->n, 1));

  for (gsize b = 0; b < self->n_blocks; b++)
    {
      gsize lo = b * WS_TRACK_BLOCK, hi = MIN (lo + WS_TRACK_BLOCK, self->n);
      gint64 first = ws_event_start (run, self->events[lo]);

      self->block_start[b] = first;
      self->block_busy[b] = busy;
      for (gsize i = lo; i < hi; i++)
        {
          WsEventRef event = self->events[i];
          gint64 s = ws_event_start (run, event), e = ws_event_end (run, event);
          guint64 delta = (guint64) (s - first), duration = (guint64) (e - s);

          self->start_delta[i] = delta < WS_TRACK_FAR ? (guint32) delta : WS_TRACK_FAR;
          self->duration[i] = duration < WS_TRACK_FAR ? (guint32) duration : WS_TRACK_FAR;
          self->style[i] = style_of (self, run, event, api_classes);
          latest = MAX (latest, e);
          busy = ws_time_add (busy, e - s);
        }
      self->block_end[b] = latest;
    }
  self->block_busy[self->n_blocks] = busy;

  self->n_super = (self->n_blocks + WS_TRACK_SUPER - 1) / WS_TRACK_SUPER;
  self->super_start = g_new (gint64, MAX (self->n_super, 1));
  for (gsize s = 0; s < self->n_super; s++)
    self->super_start[s] = self->block_start[s * WS_TRACK_SUPER];
}

void
ws_track_clear (WsTrack *self)
{
  g_clear_pointer (&self->events, g_free);
  g_clear_pointer (&self->start_delta, g_free);
  g_clear_pointer (&self->duration, g_free);
  g_clear_pointer (&self->style, g_free);
  g_clear_pointer (&self->colors, g_free);
  g_clear_pointer (&self->block_start, g_free);
  g_clear_pointer (&self->block_end, g_free);
  g_clear_pointer (&self->block_busy, g_free);
  g_clear_pointer (&self->super_start, g_free);
  self->n = self->n_blocks = self->n_super = 0;
  self->n_colors = 0;
}

gsize
ws_track_memory (const WsTrack *self)
{
  return self->n * (sizeof (WsEventRef) + 2 * sizeof (guint32) + sizeof (guint8)) +
         self->n_colors * sizeof (guint32) + self->n_blocks * 3 * sizeof (gint64) +
         sizeof (gint64) + self->n_super * sizeof (gint64);
}

/**
 * ws_track_lower_block:
 * @from_block: where to start looking
 *
 * Returns: the first block at or after @from_block whose first event starts
 * at or after @time, or the number of blocks.  Gallops over the
 * super-blocks, then searches the 32 blocks of one.
 */
gsize
ws_track_lower_block (const WsTrack *self, gint64 time, gsize from_block)
{
  gsize s0, lo, hi, step = 1;

  if (from_block >= self->n_blocks)
    return self->n_blocks;
  /* Super-block hi is the first after s0 that starts at or after @time. */
  s0 = from_block / WS_TRACK_SUPER;
  lo = s0;
  hi = s0 + 1;
  while (hi < self->n_super && self->super_start[hi] < time)
    {
      lo = hi;
      step *= 2;
      hi = s0 + step;
    }
  hi = MIN (hi, self->n_super);
  hi = ws_sort_lower_bound (self->super_start, lo + 1, hi, time);
  /* The answer is in super-block hi - 1, or is hi's first block. */
  return ws_sort_lower_bound (self->block_start, MAX (from_block, (hi - 1) * WS_TRACK_SUPER),
                              MIN (hi * WS_TRACK_SUPER, self->n_blocks), time);
}

/**
 * ws_track_lower_bound:
 * @from: where to start looking: the answer is at or after it
 *
 * Returns: the first event at or after @from that starts at or after @time,
 * or the number of events.  Gallops from @from, so a sweep from left to
 * right costs the log of each step, not of the track.
 */
gsize
ws_track_lower_bound (const WsTrack *self, const WsRun *run, gint64 time, gsize from)
{
  gsize b, lo, hi;

  if (from >= self->n)
    return self->n;
  /* Blocks after from's that start before @time hold only earlier events:
   * the answer is in the block before block b, or is b's first event. */
  b = ws_track_lower_block (self, time, from / WS_TRACK_BLOCK + 1);
  lo = MAX (from, (b - 1) * WS_TRACK_BLOCK);
  hi = MIN (b * WS_TRACK_BLOCK, self->n);
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (ws_track_start (self, run, mid) < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
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
    sum = ws_time_add (
      sum, overlap (ws_track_start (self, run, i), ws_track_end (self, run, i), t0, t1));
  return sum;
}

/* The summed duration of the events before @i, from the nearer block
 * boundary: at most half a block of events is read. */
static gint64
busy_before (const WsTrack *self, const WsRun *run, gsize i)
{
  gsize b = i / WS_TRACK_BLOCK, lo = b * WS_TRACK_BLOCK;
  gsize hi = MIN (lo + WS_TRACK_BLOCK, self->n);

  if (i - lo <= hi - i || b + 1 > self->n_blocks)
    return ws_time_add (self->block_busy[b],
                        direct_busy (self, run, lo, i, G_MININT64, G_MAXINT64));
  return ws_time_sub (self->block_busy[b + 1],
                      direct_busy (self, run, i, hi, G_MININT64, G_MAXINT64));
}

/* The summed duration of events [from, to), unclipped. */
static gint64
durations (const WsTrack *self, const WsRun *run, gsize from, gsize to)
{
  if (to - from <= WS_TRACK_BLOCK)
    return direct_busy (self, run, from, to, G_MININT64, G_MAXINT64);
  return ws_time_sub (busy_before (self, run, to), busy_before (self, run, from));
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

  /* [from, mid) start before t0: only their ends can reach into [t0, t1).
   * A sweep of columns mostly asks from an event that starts inside. */
  if (ws_track_start (self, run, from) >= t0)
    mid = from;
  else
    mid = MIN (ws_track_lower_bound (self, run, t0, from), to);
  sum = direct_busy (self, run, mid > from + EDGE_SCAN ? mid - EDGE_SCAN : from, mid, t0, t1);

  /* [mid, to) start inside: whole durations, less what the last ones
   * spend after t1. */
  if (to > mid)
    {
      gsize tail = to - mid > EDGE_SCAN ? to - EDGE_SCAN : mid;

      sum = ws_time_add (sum, durations (self, run, mid, tail));
      sum = ws_time_add (sum, direct_busy (self, run, tail, to, t0, t1));
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
