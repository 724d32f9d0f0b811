/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-launch-index.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* Derived lookups over a loaded run that analyses share: which API calls
 * allocate or synchronise, which launched GPU work, the NVTX ranges open on
 * a thread at a time, and when each GPU was busy.  Built once per analysis;
 * the run must outlive it. */
typedef struct _WsRunIndex WsRunIndex;

typedef enum
{
  WS_API_CLASS_ALLOC = 1 << 0, /* cudaMalloc, cudaMallocHost, cuMemAlloc, … (not the async ones) */
  WS_API_CLASS_FREE = 1 << 1,  /* cudaFree, cudaFreeHost, cuMemFree, … */
  WS_API_CLASS_SYNC = 1 << 2,  /* cudaDeviceSynchronize, cudaStreamSynchronize, … */
} WsApiClass;

/* When a GPU (or the GPUs of a process) was busy: kernels and memory
 * operations merged into disjoint intervals, sorted. */
typedef struct
{
  gsize n;
  gint64 *start; /* ns */
  gint64 *end;
  gint64 *before; /* ns busy before interval i: busy time over a window is two lookups */
  gint64 total;   /* ns busy in all */
} WsBusy;

WsRunIndex *ws_run_index_new (const WsRun *run);
void ws_run_index_free (WsRunIndex *self);

const char *ws_run_index_api_name (const WsRunIndex *self, gsize api);
guint ws_run_index_api_class (const WsRunIndex *self, gsize api);
guint32 ws_run_index_api_pid (const WsRunIndex *self, gsize api);
gssize ws_run_index_kernel_launch (const WsRunIndex *self, gsize kernel);
gssize ws_run_index_memop_launch (const WsRunIndex *self, gsize memop);
guint ws_run_index_count_launches (const WsRunIndex *self, guint32 thread, gint64 from, gint64 to,
                                   gboolean kernels_only);
gssize ws_run_index_context_call (const WsRunIndex *self, guint32 pid);
gint64 ws_run_index_last_kernel_launch (const WsRunIndex *self, guint32 pid);
guint ws_run_index_nvtx_at (const WsRunIndex *self, guint32 thread, gint64 time, guint32 *out,
                            guint max);

const WsBusy *ws_run_index_device_busy (const WsRunIndex *self, gint32 device);
const WsBusy *ws_run_index_process_busy (const WsRunIndex *self, guint32 pid);
GArray *ws_run_index_devices (const WsRunIndex *self);

gint64 ws_busy_between (const WsBusy *busy, gint64 from, gint64 to);
gboolean ws_busy_gap_at (const WsBusy *busy, gint64 time, gint64 *gap_start, gint64 *gap_end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRunIndex, ws_run_index_free)

G_END_DECLS
