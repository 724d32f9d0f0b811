/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-nvtx-join.h"

G_BEGIN_DECLS

/* The kernels each NVTX range launched, and their summed GPU time: the
 * NVTX → GPU join (ws-nvtx-join.h) summed per range, for the timeline,
 * the NVTX summary and the rollup.  Not nsys's projection, which spans
 * the GPU work instead of summing kernels (WsNvtxGpu in analysis). */
typedef struct _WsNvtxKernels WsNvtxKernels;

/* GPU time per NVTX range name: what the NVTX summary adds. */
typedef struct
{
  char *name;        /* "domain:name", as nvtx_sum prints it (":name" in the default domain) */
  const char *style; /* "PushPop" or "StartEnd" */
  guint32 name_id;
  guint16 domain;
  gint64 ranges;     /* instances */
  gint64 range_time; /* ns: the ranges' own summed duration */
  gint64 gpu_time;   /* ns: summed duration of the kernels launched inside them */
  gint64 kernels;    /* kernels launched inside them */
} WsNvtxKernelsRow;

WsNvtxKernels *ws_nvtx_kernels_new (const WsRun *run);
WsNvtxKernels *ws_nvtx_kernels_new_for_join (WsNvtxJoin *join);
WsNvtxKernels *ws_nvtx_kernels_ref (WsNvtxKernels *self);
void ws_nvtx_kernels_unref (WsNvtxKernels *self);

WsLaunchIndex *ws_nvtx_kernels_get_launches (const WsNvtxKernels *self);
gint64 ws_nvtx_kernels_gpu_time (const WsNvtxKernels *self, gsize range);
guint32 ws_nvtx_kernels_count (const WsNvtxKernels *self, gsize range);
gboolean ws_nvtx_kernels_contains (const WsNvtxKernels *self, gsize range, gsize kernel);
GArray *ws_nvtx_kernels_in_range (const WsNvtxKernels *self, gsize range);
GArray *ws_nvtx_kernels_summary (const WsNvtxKernels *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsNvtxKernels, ws_nvtx_kernels_unref)

G_END_DECLS
