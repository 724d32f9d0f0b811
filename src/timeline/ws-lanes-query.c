/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-lanes"
#include "config.h"

#include "ws-lanes-private.h"

/* What the timeline asks of its lanes once they are built (ws-lanes.c):
 * a lane by index, the lane of a stream or thread, where an event is, the
 * events in view, the memory they take, the NVTX range around a time. */

/**
 * ws_lanes_get_run:
 *
 * Returns: (transfer none): the run the lanes show
 */
WsRun *
ws_lanes_get_run (const WsLanes *self)
{
  return self->run;
}

guint
ws_lanes_get_n_lanes (const WsLanes *self)
{
  return self->lanes->len;
}

/**
 * ws_lanes_get_lane:
 *
 * Returns: (transfer none) (nullable): lane @index
 */
const WsLane *
ws_lanes_get_lane (const WsLanes *self, guint index)
{
  if (index >= self->lanes->len)
    return NULL;
  return &g_array_index (self->lanes, WsLane, index);
}

/* The lane of a stream (index into run->streams), or WS_LANE_NONE. */
guint32
ws_lanes_find_stream_lane (const WsLanes *self, guint32 stream)
{
  if (stream >= self->run->streams->len)
    return WS_LANE_NONE;
  return self->stream_lane[stream];
}

/* A thread's NVTX, CUDA API, OS runtime or CPU samples lane, or WS_LANE_NONE. */
guint32
ws_lanes_find_thread_lane (const WsLanes *self, guint32 thread, WsLaneKind kind)
{
  if (thread >= self->run->threads->len)
    return WS_LANE_NONE;
  switch (kind)
    {
      case WS_LANE_NVTX:
        return self->thread_nvtx[thread];
      case WS_LANE_API:
        return self->thread_api[thread];
      case WS_LANE_OSRT:
        return self->thread_osrt[thread];
      case WS_LANE_SAMPLES:
        return self->thread_samples[thread];
      case WS_LANE_GROUP:
      case WS_LANE_STREAM:
      case WS_LANE_METRIC:
      case WS_LANE_MEMORY:
      default:
        return WS_LANE_NONE;
    }
}

/**
 * ws_lanes_find_event:
 * @row: (out) (optional): the row within the lane; G_MAXUINT for NVTX marks,
 *   WS_LANE_ROW_REPLAYS for a graph replay drawn in its stream's band
 *
 * Returns: the lane that shows @ref, or WS_LANE_NONE.
 */
guint32
ws_lanes_find_event (const WsLanes *self, WsEventRef ref, guint *row)
{
  const WsRun *run = self->run;
  gsize i = ws_event_ref_index (ref);
  guint r = 0;
  guint32 lane = WS_LANE_NONE;

  if (!ws_event_ref_is_valid (run, ref))
    return WS_LANE_NONE;
  switch (ws_event_ref_kind (ref))
    {
      case WS_EVENT_KERNEL:
        if (run->kernels.stream != NULL)
          lane = ws_lanes_find_stream_lane (self, run->kernels.stream[i]);
        break;
      case WS_EVENT_MEMOP:
        if (run->memops.stream != NULL)
          lane = ws_lanes_find_stream_lane (self, run->memops.stream[i]);
        break;
      case WS_EVENT_API:
        lane = ws_lanes_find_thread_lane (self, run->api.thread[i], WS_LANE_API);
        break;
      case WS_EVENT_NVTX:
        lane = ws_lanes_find_thread_lane (self, run->nvtx.thread[i], WS_LANE_NVTX);
        r = run->nvtx.depth[i];
        break;
      case WS_EVENT_MARK:
        lane = ws_lanes_find_thread_lane (self, run->marks.thread[i], WS_LANE_NVTX);
        r = G_MAXUINT;
        break;
      case WS_EVENT_OSRT:
        lane = ws_lanes_find_thread_lane (self, run->osrt.thread[i], WS_LANE_OSRT);
        break;
      case WS_EVENT_SAMPLE:
        lane = ws_lanes_find_thread_lane (self, run->cpu_samples.thread[i], WS_LANE_SAMPLES);
        break;
      case WS_EVENT_REPLAY:
        lane = ws_lanes_find_stream_lane (self, run->replays.stream[i]);
        r = run->replays.nodes[i] > 0 ? WS_LANE_ROW_REPLAYS : 0;
        break;
      default:
        break;
    }
  if (row != NULL)
    *row = r;
  return lane;
}

/* The events the lanes index (tracks and series samples). */
gsize
ws_lanes_n_events (const WsLanes *self)
{
  gsize n = 0;

  for (guint l = 0; l < self->lanes->len; l++)
    {
      const WsLane *lane = &g_array_index (self->lanes, WsLane, l);

      for (guint r = 0; r < lane->n_tracks; r++)
        n += lane->tracks[r].n;
      n += lane->marks.n + lane->replays.n + lane->series.n;
    }
  return n;
}

/* Bytes the lanes hold beyond the run. */
gsize
ws_lanes_memory (const WsLanes *self)
{
  gsize bytes = sizeof *self + self->lanes->len * sizeof (WsLane);

  bytes += (self->run->streams->len + 1 + 4 * (self->run->threads->len + 1)) * sizeof (guint32);
  for (guint l = 0; l < self->lanes->len; l++)
    {
      const WsLane *lane = &g_array_index (self->lanes, WsLane, l);

      for (guint r = 0; r < lane->n_tracks; r++)
        bytes += sizeof (WsTrack) + ws_track_memory (&lane->tracks[r]);
      bytes += ws_track_memory (&lane->marks) + ws_track_memory (&lane->replays) +
               ws_series_memory (&lane->series);
    }
  return bytes;
}

/**
 * ws_lanes_nvtx_enclosing:
 * @thread: index into run->threads
 *
 * The NVTX ranges of @thread open at @time (start <= time <= end),
 * outermost first: the NVTX path of whatever the thread did then.
 *
 * Returns: (transfer full) (element-type guint32): NVTX range indices
 */
GArray *
ws_lanes_nvtx_enclosing (const WsLanes *self, guint32 thread, gint64 time)
{
  GArray *path = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 l = ws_lanes_find_thread_lane (self, thread, WS_LANE_NVTX);
  const WsLane *lane = ws_lanes_get_lane (self, l);

  if (lane == NULL)
    return path;
  for (guint r = 0; r < lane->n_tracks; r++)
    {
      const WsTrack *track = &lane->tracks[r];
      gsize after =
        ws_track_lower_bound (track, self->run, time == G_MAXINT64 ? time : time + 1, 0);

      /* Rows hold ranges that do not overlap (but for the shared last one):
       * the one that can hold @time started last before it. */
      if (after > 0 && ws_track_end (track, self->run, after - 1) >= time)
        {
          guint32 index = (guint32) ws_event_ref_index (track->events[after - 1]);

          g_array_append_val (path, index);
        }
    }
  return path;
}
