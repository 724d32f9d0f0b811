/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-nvtx-join.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* Two answers to "how long did the GPU work in this NVTX range":
 *
 * - launched from the range (nsys's projection, `nvtx_gpu_proj_sum`): the
 *   GPU operations (kernels, copies, memsets) whose launch call ran on the
 *   range's thread, wholly inside the range; the projection spans the
 *   first one's start to the last one's end;
 * - GPU busy during the range: the union of the GPU activity of the
 *   range's process, launched from any thread, within the range's time.
 *
 * PyTorch launches backward kernels from its autograd thread, so a
 * training step launches a fraction of the work its GPU does meanwhile:
 * the first figure answers "what did this code launch", the second "how
 * long did the GPU work in this step". */
typedef struct _WsNvtxGpu WsNvtxGpu;

WsNvtxGpu *ws_nvtx_gpu_new (const WsRun *run);
WsNvtxGpu *ws_nvtx_gpu_new_projected (const WsRun *run);
WsNvtxGpu *ws_nvtx_gpu_new_for_join (WsNvtxJoin *join);
WsNvtxGpu *ws_nvtx_gpu_ref (WsNvtxGpu *self);
void ws_nvtx_gpu_unref (WsNvtxGpu *self);

gboolean ws_nvtx_gpu_projected (const WsNvtxGpu *self, gsize range, gint64 *start, gint64 *end);
gint64 ws_nvtx_gpu_projection (const WsNvtxGpu *self, gsize range);
guint32 ws_nvtx_gpu_ops (const WsNvtxGpu *self, gsize range);
guint16 ws_nvtx_gpu_level (const WsNvtxGpu *self, gsize range);
guint32 ws_nvtx_gpu_children (const WsNvtxGpu *self, gsize range);
gint64 ws_nvtx_gpu_busy (const WsNvtxGpu *self, gsize range);
const WsRun *ws_nvtx_gpu_get_run (const WsNvtxGpu *self);
WsNvtxJoin *ws_nvtx_gpu_get_join (const WsNvtxGpu *self);

char *ws_nvtx_range_label (const WsRun *run, gsize range);
const char *ws_nvtx_range_style (const WsRun *run, gsize range);
guint64 ws_nvtx_range_group_key (const WsRun *run, gsize range);

/* A row of `nsys stats --report nvtx_gpu_proj_sum`. */
typedef struct
{
  char *name;        /* "domain:name" */
  const char *style; /* "PushPop" or "StartEnd" */
  gint64 proj_total; /* ns */
  gint64 range_total;
  gint64 instances; /* ranges with GPU operations */
  double proj_avg;
  double proj_med;
  gint64 proj_min;
  gint64 proj_max;
  double proj_stddev;
  gint64 ops;
  double avg_ops;
  double avg_level;
  double avg_children;
} WsNvtxProjRow;

GArray *ws_nvtx_gpu_proj_sum (const WsNvtxGpu *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsNvtxGpu, ws_nvtx_gpu_unref)

G_END_DECLS
