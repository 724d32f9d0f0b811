/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <glib.h>

#include "ws-critical-graph.h"
#include "ws-what-if.h"

G_BEGIN_DECLS

/* The critical path of each step (docs/critical-path.md): the chain of
 * binding edges that ends at the step's end, back to its start.  A job's
 * step is the same step number on every rank; its time is the mean of the
 * ranks' step ranges, and its path ends at the step end of the rank whose
 * range is longest. */

/* What the time on the path is. */
typedef enum
{
  WS_CP_COMPUTE, /* a kernel, copy, set or replay running, or the gap before it on its stream */
  WS_CP_COMM,    /* an NCCL kernel, a host collective, waiting for the last arrival */
  WS_CP_LAUNCH,  /* a launch call, and the time from its start to the GPU's */
  WS_CP_HOST,    /* the thread's own time between CUDA calls */
  WS_CP_SYNC,    /* a sync call returning, an event wait, a thread woken by another */
  WS_CP_N_KINDS,
} WsCpKind;

/* One binding edge on a path. */
typedef struct
{
  guint32 src; /* its points in the graph */
  guint32 dst;
  gint64 start; /* ns, on the job's clock */
  gint64 end;
  guint8 edge; /* WsCpEdge, or WS_CP_N_EDGES for the time before a point with no edge in */
  guint8 kind; /* WsCpKind */
} WsCpSegment;

typedef struct
{
  guint number;    /* the steps' counter */
  gboolean steady; /* no rank has it as warm-up */
  gint64 time;     /* ns: the step's time, the mean of the ranks' step ranges */
  guint rank;      /* rank index whose step range is the longest: the path is its */
  gint64 start;    /* ns, that rank's step range on the job's clock */
  gint64 end;
  guint first; /* its path: segments[first] to segments[first + n - 1], from its end back */
  guint n;
} WsCpStep;

/* A kernel name, an NVTX range name or a rank, and its time per steady step. */
typedef struct
{
  char *name;
  double on_path; /* ns per steady step on the path */
  double busy;    /* ns per steady step it ran (a kernel), its thread's time in it (a range), or
                   * the rank's step time (a rank) */
} WsCpItem;

typedef struct
{
  WsCpGraph *graph;
  GArray *steps;    /* WsCpStep, by number */
  GArray *segments; /* WsCpSegment */
  guint n_steady;
  gint median;        /* index into @steps of the steady step of median time, or -1 */
  double median_time; /* ns: the median over the steady steps of the step time */
  gint64 min_time;
  gint64 max_time;
  double by_kind[WS_CP_N_KINDS]; /* ns per steady step */
  GPtrArray *kernels;            /* WsCpItem *: the kernel names, most on the path first */
  GPtrArray *ranges;             /* WsCpItem *: the innermost NVTX range of each part */
  GPtrArray *ranks;              /* WsCpItem *: the ranks, in rank order */
} WsCriticalPath;

/* A what-if's answer over the steady steps. */
typedef struct
{
  guint n_steps;
  double median; /* ns: predicted median step time */
  gint64 min;    /* ns: the range over the steady steps */
  gint64 max;
  double measured; /* ns: the measured median, for the same steps */
  gsize touched;   /* kernels or range instances changed */
} WsCpPrediction;

WsCriticalPath *ws_critical_path_new (const WsRun *run, GCancellable *cancellable);
void ws_critical_path_free (WsCriticalPath *self);
void ws_critical_path_predict (const WsCriticalPath *self, WsWhatIf *const *changes, guint n,
                               WsCpPrediction *out);
void ws_critical_path_simulate (const WsCpGraph *graph, const gint64 *weights, gint64 *sim);
const char *ws_cp_kind_name (WsCpKind kind);
const char *ws_cp_kind_label (WsCpKind kind);
char *ws_critical_path_busiest_text (const WsCriticalPath *self);
char *ws_cp_prediction_text (const char *change, const WsCpPrediction *prediction);
char *ws_cp_segment_name (const WsCriticalPath *self, const WsCpSegment *segment);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCriticalPath, ws_critical_path_free)

G_END_DECLS
