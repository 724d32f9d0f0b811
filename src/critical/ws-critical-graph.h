/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* The dependency graph of a run (docs/critical-path.md): what must
 * happen before what, as the run records it, for one process or the
 * ranks of a job.  Its points are moments: the start and end of a CUDA
 * API call, of an OS runtime wait, of a step or collective NVTX range on
 * a thread; the start and end of a kernel, memory operation or graph
 * replay on a stream; the last arrival at a collective.  Each edge says
 * that its target cannot happen before its source plus a weight, measured
 * as the difference of their times.  At each point the edge whose source
 * came last binds; the others keep at most a floor (the smallest delay of
 * their kind), so that replaying the graph with the measured weights
 * gives back every measured time, and replaying it with other weights
 * (ws-what-if.h) moves what depends on them. */

typedef enum
{
  WS_CP_EDGE_CHAIN,      /* host order within a thread */
  WS_CP_EDGE_LAUNCH,     /* a launch call's start to its operation's start */
  WS_CP_EDGE_STREAM,     /* an operation's end to the next one's start on its stream */
  WS_CP_EDGE_DURATION,   /* an operation's start to its end */
  WS_CP_EDGE_SYNC,       /* GPU back to host: an operation's end to a waiting call's end */
  WS_CP_EDGE_WAIT,       /* an operation's end to a start on another stream (an event wait) */
  WS_CP_EDGE_WAKE,       /* another thread of the process to the end of a thread's wait */
  WS_CP_EDGE_ARRIVAL,    /* a rank's arrival at a collective to its last arrival */
  WS_CP_EDGE_COLLECTIVE, /* the last arrival at a collective to each rank's end of it */
  WS_CP_N_EDGES,
} WsCpEdge;

/* What a point is the moment of. */
typedef enum
{
  WS_CP_API_START, /* @index: a CUDA API call (run->api) */
  WS_CP_API_END,
  WS_CP_OSRT_START, /* @index: an OS runtime wait (run->osrt) */
  WS_CP_OSRT_END,
  WS_CP_NVTX_START, /* @index: a step or collective range (run->nvtx) */
  WS_CP_NVTX_END,
  WS_CP_OP_START, /* @index: an operation (WsCpGraph.op_*) */
  WS_CP_OP_END,
  WS_CP_MEETING, /* @index: a collective (WsCpGraph.meetings) */
} WsCpPointKind;

/* Where GPU operations come from. */
typedef enum
{
  WS_CP_OP_KERNEL,
  WS_CP_OP_MEMOP,
  WS_CP_OP_REPLAY, /* a graph replay recorded whole (no kernels of its own in the run) */
} WsCpOpTable;

typedef struct
{
  const WsRun *run; /* borrowed: the run must outlive the graph */

  /* Points, in the order they were made. */
  gsize n_points;
  gint64 *t;      /* ns: measured, on the job's clock (each rank shifted by @shift) */
  guint8 *kind;   /* WsCpPointKind */
  guint32 *index; /* into the table @kind names */
  guint16 *rank;  /* rank index (into run->ranks), 0 outside a job */

  /* GPU operations: kernels, memory operations, replays recorded whole. */
  gsize n_ops;
  guint8 *op_table;  /* WsCpOpTable */
  guint32 *op_index; /* into that table of the run */
  guint8 *op_nccl;   /* an NCCL kernel */
  gssize *op_launch; /* the API call that launched it, or -1 */
  guint32 *op_start; /* its start and end points */
  guint32 *op_end;

  /* API calls: their start and end points. */
  guint32 *api_start;
  guint32 *api_end;
  guint8 *api_role; /* WS_CP_ROLE_*: what the call is for the breakdown */

  /* Edges into each point: @first[p] to @first[p + 1]. */
  gsize n_edges;
  gsize *first;
  guint32 *src;
  gint64 *w;    /* ns: the measured delay, t(point) − t(src) */
  guint8 *edge; /* WsCpEdge */
  gint64 *cap;  /* ns: the most the edge may weigh when it does not bind (G_MAXINT64 where
                   * it binds, at its point the edge of the latest source) */
  gint64 floor[WS_CP_N_EDGES]; /* ns: the median delay of each kind where it binds */

  /* Points in an order where every kept edge goes forward. */
  guint32 *order;
  gsize n_back; /* edges left out because the clocks put their source after their target */

  guint n_ranks;    /* 1 outside a job */
  gint64 *shift;    /* ns added to each rank's times: its clock on the first rank's */
  guint n_meetings; /* collectives matched across ranks */
  guint n_nccl;     /* of them NCCL collectives */
  guint n_syncs;    /* sync edges */
  guint n_waits;    /* inferred event waits */
  guint n_wakes;    /* wake-ups across threads */
  guint n_io;       /* network waits ended by a host collective's last arrival */
  /* Host points by thread, then time: thread t's are host[host_first[t]] to
   * host[host_first[t + 1]]. */
  guint32 *host;
  gsize *host_first;
  gsize n_host;
  guint32 *nvtx_start; /* per NVTX range of the run: its start and end points (step and
                        * collective ranges), or G_MAXUINT32 */
  guint32 *nvtx_end;
} WsCpGraph;

/* What an API call is, for the breakdown by kind. */
enum
{
  WS_CP_ROLE_OTHER,
  WS_CP_ROLE_LAUNCH, /* it launched GPU work */
  WS_CP_ROLE_SYNC,   /* it waited for the GPU (a sync call, a blocking copy) */
};

WsCpGraph *ws_cp_graph_new (const WsRun *run, GCancellable *cancellable);
gboolean ws_cp_is_collective_range (const char *name);
void ws_cp_graph_free (WsCpGraph *self);
gint ws_cp_graph_point_thread (const WsCpGraph *self, guint32 point);
const char *ws_cp_edge_name (WsCpEdge edge);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCpGraph, ws_cp_graph_free)

G_END_DECLS
