/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-bottleneck.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* Bottleneck by NVTX range: each range's GPU time (the kernels the NVTX
 * projection gives it) split by the verdict of its kernels (the gauges',
 * ws_bottleneck_compute()'s).  A
 * profiled launch's verdict carries to every launch of the same kernel
 * with the same grid and block; the rest is not profiled.  The kernels of
 * a range come from a function, so that this layer needs no timeline:
 * ws_range_bottleneck_project() (ncu-charts) passes the NVTX projection's. */

/* (transfer full) (element-type guint32): the kernels launched inside
 * NVTX range @range, as indices into the run's kernels. */
typedef GArray *(*WsRangeKernelsFunc) (gsize range, gpointer user_data);

typedef enum
{
  WS_ROLLUP_COMPUTE,
  WS_ROLLUP_MEMORY,
  WS_ROLLUP_LATENCY, /* latency, and too little work */
  WS_ROLLUP_MIXED,
  WS_ROLLUP_UNPROFILED, /* no profiled launch of that kernel and configuration, or no verdict */
  WS_N_ROLLUP,
} WsRollupClass;

typedef struct
{
  char *name;      /* "domain:name", as nvtx_sum prints it (":name" in the default domain) */
  guint32 name_id; /* string id of the range's name */
  gint64 ranges;   /* instances */
  gint64 gpu_ns;   /* the kernels launched inside them */
  gint64 ns[WS_N_ROLLUP];
  gint64 kernels;
} WsRangeBottleneck;

GArray *ws_range_bottleneck_compute (const WsRun *run, WsRangeKernelsFunc kernels_of,
                                     gpointer user_data);
WsRollupClass ws_rollup_class (WsVerdict verdict);
const char *ws_rollup_class_id (WsRollupClass klass);
const char *ws_rollup_class_label (WsRollupClass klass);
char *ws_range_bottleneck_text (const WsRangeBottleneck *row);

G_END_DECLS
