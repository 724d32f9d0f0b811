/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ncu-results.h"
#include "ws-summary.h"

G_BEGIN_DECLS

/* One `==PID== Profiling result:` of an nvprof console log or `--csv`
 * summary: its tables as the summaries of the same meaning. */
typedef struct
{
  guint32 pid;         /* 0 where the log names none */
  char *command;       /* the profiled command line, or NULL */
  gboolean no_kernels; /* "No kernels were profiled." */
  WsSummary *kernels;  /* GPU activities that are kernels (cuda_gpu_kern_sum), or NULL */
  WsSummary *memops;   /* GPU activities "[CUDA memcpy …]" (cuda_gpu_mem_time_sum), or NULL */
  WsSummary *api;      /* API calls (cuda_api_sum), or NULL */
  GPtrArray *unified;  /* char *: the Unified Memory block's rows, cells joined by ", " */
  gboolean metrics;    /* it had `Metric result:` or `Event result:` blocks (ws-nvprof-metrics.h) */
} WsNvprofResult;

GPtrArray *ws_nvprof_log_parse (const char *path, const char *text, gsize len,
                                WsNcuResults **metrics, GError **error);
GPtrArray *ws_nvprof_log_read (const char *path, WsNcuResults **metrics, GError **error);
void ws_nvprof_result_free (WsNvprofResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsNvprofResult, ws_nvprof_result_free)

G_END_DECLS
