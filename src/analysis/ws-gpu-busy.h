/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* Every process of a run, where a function takes a pid. */
#define WS_PID_ANY G_MAXUINT32

/* What counts as the GPU being busy: the kinds of GPU work a run holds
 * (docs/cuda-graphs.md, "Busy"). */
typedef enum
{
  WS_BUSY_KERNELS = 1 << 0,
  WS_BUSY_MEMOPS = 1 << 1,  /* memcpy and memset */
  WS_BUSY_REPLAYS = 1 << 2, /* CUDA graph replays, first node to last */
  WS_BUSY_COMPUTE = WS_BUSY_KERNELS | WS_BUSY_REPLAYS,
  WS_BUSY_ALL = WS_BUSY_KERNELS | WS_BUSY_MEMOPS | WS_BUSY_REPLAYS,
} WsBusyWhat;

/* The time some GPU of a process is busy: the union of its kernels, memory
 * operations and graph replays, on any stream and any device, whichever
 * thread launched them.  Built once (O(n)), then each window is two binary
 * searches, so that a step table or an NVTX range table costs nothing per
 * row. */
typedef struct _WsBusyIndex WsBusyIndex;

/* Which streams' work counts (the run's stream index), for
 * ws_busy_spans(). */
typedef gboolean (*WsBusyStreamFilter) (const WsRun *run, guint32 stream, gint64 key);

void ws_busy_spans (const WsRun *run, WsBusyWhat what, WsBusyStreamFilter filter, gint64 key,
                    const guint8 *kernel_mask, guint8 want, GArray *starts, GArray *ends);

WsBusyIndex *ws_busy_index_new (const WsRun *run, guint32 pid, WsBusyWhat what);
WsBusyIndex *ws_busy_index_new_masked (const WsRun *run, guint32 pid, WsBusyWhat what,
                                       const guint8 *kernel_mask, guint8 want);
void ws_busy_index_free (WsBusyIndex *self);
gint64 ws_busy_index_busy (const WsBusyIndex *self, gint64 from, gint64 to);
gint64 ws_busy_index_total (const WsBusyIndex *self);
gsize ws_busy_index_n_spans (const WsBusyIndex *self);
gboolean ws_busy_index_extent (const WsBusyIndex *self, gint64 *first, gint64 *last);

gint64 ws_gpu_busy_during (const WsRun *run, guint32 pid, gint64 from, gint64 to);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsBusyIndex, ws_busy_index_free)

G_END_DECLS
