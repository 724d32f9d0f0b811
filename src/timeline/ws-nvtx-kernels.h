/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-nvtx-join.h"

G_BEGIN_DECLS

/* NVTX ranges projected onto the GPU: a kernel belongs to a range when the
 * CUDA API call that launched it (the one with its correlation id, in the
 * same process) ran on the range's thread, wholly within the range, as
 * nsys counts it (docs/formats.md and docs/NOTES.md, "NVTX ranges on the
 * GPU"). */
typedef struct _WsNvtxProjection WsNvtxProjection;

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
} WsNvtxGpuRow;

WsNvtxProjection *ws_nvtx_projection_new (const WsRun *run);
WsNvtxProjection *ws_nvtx_projection_new_for_join (WsNvtxJoin *join);
WsNvtxProjection *ws_nvtx_projection_ref (WsNvtxProjection *self);
void ws_nvtx_projection_unref (WsNvtxProjection *self);

WsLaunchIndex *ws_nvtx_projection_get_launches (const WsNvtxProjection *self);
gint64 ws_nvtx_projection_gpu_time (const WsNvtxProjection *self, gsize range);
guint32 ws_nvtx_projection_n_kernels (const WsNvtxProjection *self, gsize range);
gboolean ws_nvtx_projection_contains (const WsNvtxProjection *self, gsize range, gsize kernel);
GArray *ws_nvtx_projection_kernels (const WsNvtxProjection *self, gsize range);
GArray *ws_nvtx_projection_summary (const WsNvtxProjection *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsNvtxProjection, ws_nvtx_projection_unref)

G_END_DECLS
