/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-kernel-names.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* Per-group statistics over a partitioned value buffer. */
typedef struct
{
  gint64 count;
  gint64 total;
  gint64 min;
  gint64 max;
  double avg;
  double med;
  double stddev;
} WsGroupStats;

WsSummary *ws_stats_summary (const WsRun *run, WsSummaryKind kind, WsNameForm form);
WsSummary *ws_stats_compute (const WsRun *run, WsSummaryKind kind, WsNameForm form);
WsSummary *ws_stats_compute_sketched (const WsRun *run, WsSummaryKind kind, WsNameForm form);
WsSummary *ws_stats_compute_nvtx_ops (const WsRun *run);
char *ws_nvtx_op_name (const char *name);
WsSummary *ws_stats_compute_kernels (const WsKernelNames *names);
WsSummary *ws_stats_compute_kernels_in (const WsRun *run, WsNameForm form, gint64 from, gint64 to);
WsSummary *ws_stats_compute_kernels_in_pid (const WsRun *run, WsNameForm form, guint32 pid,
                                            gint64 from, gint64 to);
gboolean ws_nvtx_has_op_ranges (const WsRun *run);

void ws_group_stats (gint64 *values, gsize n, WsGroupStats *out);
char *ws_api_base_name (const char *name);

G_END_DECLS
