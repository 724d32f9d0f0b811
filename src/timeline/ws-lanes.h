/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"
#include "ws-series.h"
#include "ws-track.h"

G_BEGIN_DECLS

#define WS_LANE_NONE G_MAXUINT32
/* The row of a stream lane's band of CUDA graph replays (WsLane.replays). */
#define WS_LANE_ROW_REPLAYS (G_MAXUINT - 1)

typedef enum
{
  WS_LANE_GROUP,   /* a heading over the lanes of one GPU or one process */
  WS_LANE_STREAM,  /* kernels, memory operations and CUDA graph replays of one GPU stream */
  WS_LANE_NVTX,    /* NVTX ranges of one thread, one row per depth, marks as ticks */
  WS_LANE_API,     /* CUDA API calls of one thread */
  WS_LANE_METRIC,  /* one GPU metric (GPU_METRICS), as an area chart */
  WS_LANE_MEMORY,  /* GPU memory in use on one device */
  WS_LANE_OSRT,    /* OS runtime calls of one thread (poll, read, pthread_cond_wait, …) */
  WS_LANE_SAMPLES, /* CPU samples of one thread on the run's clock (nsys CPU sampling) */
} WsLaneKind;

typedef enum
{
  WS_GROUP_GPU,
  WS_GROUP_PROCESS,
} WsGroupKind;

typedef struct
{
  WsLaneKind kind;
  guint32 group; /* index of the group lane it belongs to; WS_LANE_NONE for groups */
  WsGroupKind group_kind;
  gint32 device;    /* GPU groups, stream, metric and memory lanes; -1 if unknown */
  guint32 pid;      /* process groups and thread lanes; stream lanes: the stream's */
  guint32 stream;   /* WS_LANE_STREAM: index into run->streams */
  guint32 thread;   /* WS_LANE_NVTX, _API, _OSRT, _SAMPLES: index into run->threads */
  guint32 metric;   /* WS_LANE_METRIC: index into run->metrics */
  guint n_tracks;   /* rows: 1, or the deepest NVTX row + 1 */
  WsTrack *tracks;  /* row 0 first (NVTX depth 0) */
  WsTrack marks;    /* WS_LANE_NVTX: the thread's NVTX marks */
  WsTrack replays;  /* WS_LANE_STREAM: the graph replays launched on it whose kernels the run
                     * holds (node tracing), drawn as a band over those kernels; the replays
                     * recorded without their kernels are events of tracks[0] */
  WsSeries series;  /* WS_LANE_METRIC (values as exported), WS_LANE_MEMORY (bytes) */
  gboolean percent; /* WS_LANE_METRIC: values are % (0–100) */
  gint32 rank;      /* in a job's run: the rank of the process the lane belongs to, or -1 */
} WsLane;

/* The lanes of a run's timeline, in display order: per GPU (its metrics,
 * its memory, then its streams), then per process (per thread: NVTX, CUDA
 * API, OS runtime calls, CPU samples).  In a job's run each rank is a
 * process group of its own, in rank order, that holds its streams too (GPU
 * groups keep only their metrics and memory).  Immutable once built; it
 * refers to the run's arrays and holds a
 * reference to the run. */
typedef struct _WsLanes WsLanes;

WsLanes *ws_lanes_new (WsRun *run);
WsLanes *ws_lanes_ref (WsLanes *self);
void ws_lanes_unref (WsLanes *self);

WsRun *ws_lanes_get_run (const WsLanes *self);
guint ws_lanes_get_n_lanes (const WsLanes *self);
const WsLane *ws_lanes_get_lane (const WsLanes *self, guint index);
guint32 ws_lanes_find_stream_lane (const WsLanes *self, guint32 stream);
guint32 ws_lanes_find_thread_lane (const WsLanes *self, guint32 thread, WsLaneKind kind);
guint32 ws_lanes_find_event (const WsLanes *self, WsEventRef ref, guint *row);
gsize ws_lanes_n_events (const WsLanes *self);
guint64 ws_lanes_count_left_out (const WsRun *run);
gsize ws_lanes_memory (const WsLanes *self);
GArray *ws_lanes_nvtx_enclosing (const WsLanes *self, guint32 thread, gint64 time);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsLanes, ws_lanes_unref)

G_END_DECLS
