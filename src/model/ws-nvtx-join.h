/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-launch-index.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* The NVTX → GPU join: the GPU work an NVTX range launched is the work of
 * the launch calls that ran on the range's thread, wholly inside the range,
 * as nsys counts it (docs/formats.md, "NVTX ranges on the GPU").  A call
 * inside nested ranges belongs to each of them.  Every figure of "the GPU
 * work of a range" (the timeline's GPU time, nvtx_gpu_proj_sum,
 * nvtx_kern_sum, the rollup, the ranks) is a sum over this join. */
typedef struct _WsNvtxJoin WsNvtxJoin;

/* Called for each launch call with GPU work, in start order, with the
 * ranges of its thread that hold it wholly (@n > 0), in the ranges' order
 * (by start, an enclosing one first): the innermost last. */
typedef void (*WsNvtxJoinFunc) (gsize call, const guint32 *ranges, guint n, gpointer user_data);

WsNvtxJoin *ws_nvtx_join_new (WsLaunchIndex *launches);
WsNvtxJoin *ws_nvtx_join_ref (WsNvtxJoin *self);
void ws_nvtx_join_unref (WsNvtxJoin *self);

WsLaunchIndex *ws_nvtx_join_get_launches (const WsNvtxJoin *self);
const guint32 *ws_nvtx_join_call_kernels (const WsNvtxJoin *self, gsize call, guint *n);
void ws_nvtx_join_foreach (const WsNvtxJoin *self, WsNvtxJoinFunc func, gpointer user_data);
guint32 *ws_nvtx_join_innermost (const WsNvtxJoin *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsNvtxJoin, ws_nvtx_join_unref)

G_END_DECLS
