/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-gauges.h"
#include "ws-run.h"
#include "ws-steps.h"

G_BEGIN_DECLS

/* How kernels of two runs are matched: by the full demangled name, by the
 * function's short name (no namespace, no templates, no parameters), or by
 * a normalised name that keeps the namespace but drops return type,
 * template arguments and parameter lists (instantiations of one template
 * are one kernel). */
typedef enum
{
  WS_MATCH_DEMANGLED,
  WS_MATCH_SHORT,
  WS_MATCH_NORMALIZED,
} WsMatchBy;

typedef enum
{
  WS_PRESENT_BOTH,
  WS_PRESENT_ONLY_BEFORE,
  WS_PRESENT_ONLY_AFTER,
} WsPresence;

/* One kernel (or NVTX range) before and after. */
typedef struct
{
  char *key;           /* the matched name, in the chosen form */
  char *name;          /* a full name, for tooltips */
  char *style;         /* NVTX ranges: PushPop / StartEnd */
  gint64 before_total; /* ns */
  gint64 after_total;
  gint64 before_count;
  gint64 after_count;
  double before_avg;
  double after_avg;
  gint64 delta;           /* after - before, ns */
  double ratio;           /* after / before; NAN when before is 0 */
  double share_of_change; /* delta / the total change of all rows */
  guint n_before_names;   /* how many names of the run fold into the key */
  guint n_after_names;
  WsPresence presence;
  /* Kernels: the longest launch Nsight Compute profiled under the key, an
   * index into before->ncu / after->ncu; -1 when none (and for ranges). */
  int before_launch;
  int after_launch;
} WsDelta;

/* A figure of the whole run, before and after; NAN where unknown. */
typedef struct
{
  double before;
  double after;
} WsPair;

typedef struct _WsComparison WsComparison;

struct _WsComparison
{
  gatomicrefcount ref_count;
  WsRun *before;
  WsRun *after;
  WsMatchBy by;

  GArray *kernels; /* WsDelta, by |delta| largest first */
  GArray *ranges;  /* WsDelta of NVTX ranges, by |delta| largest first */

  WsPair gpu_time;   /* ns of kernels, and of graph replays traced whole (docs/cuda-graphs.md) */
  WsPair launches;   /* kernel launches, a replay traced whole as one */
  WsPair n_kernels;  /* distinct kernel names (in the chosen form) */
  WsPair busy_share; /* % of the run's span with a GPU busy (ws_busy_spans()) */
  WsPair memop_time; /* ns of memory operations */
  WsPair api_time;   /* ns of CUDA API calls */
  WsPair span;       /* ns from the first to the last event */
  guint n_profiled;  /* kernels with a profiled launch on both sides */

  /* Both runs have steps: their steady-state medians lead the headline
   * (ws_comparison_set_steps()). */
  gboolean per_step;
  WsStepMedians step_before;
  WsStepMedians step_after;
};

const char *ws_match_by_to_string (WsMatchBy by);
gboolean ws_match_by_from_string (const char *str, WsMatchBy *by);
const char *ws_presence_to_string (WsPresence presence);
const char *ws_presence_label (WsPresence presence);
char *ws_comparison_key (const char *name, WsMatchBy by);

WsComparison *ws_comparison_new (WsRun *before, WsRun *after, WsMatchBy by);
WsComparison *ws_comparison_ref (WsComparison *self);
void ws_comparison_unref (WsComparison *self);
const WsDelta *ws_comparison_find (const WsComparison *self, const char *key);
char *ws_comparison_headline (const WsComparison *self);
void ws_comparison_set_steps (WsComparison *self, const WsSteps *before, const WsSteps *after);
double ws_comparison_gpu_busy_share (const WsRun *run);
const WsGauges *ws_comparison_gauges (const WsComparison *self, const WsDelta *delta,
                                      gboolean after);
gboolean ws_delta_profiled_both (const WsDelta *delta);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsComparison, ws_comparison_unref)

G_END_DECLS
