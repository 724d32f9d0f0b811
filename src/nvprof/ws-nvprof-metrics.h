/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ncu-results.h"

G_BEGIN_DECLS

/* nvprof's `--metrics` and `--events` results (`==PID== Metric result:`,
 * `==PID== Event result:`), text or `--csv`, read block by block as the
 * nvprof log reader (ws-nvprof-log.c) meets them, into the profiled
 * launches of a WsNcuResults: one launch per (process, device, kernel),
 * each metric a column of its Avg over the kernel's invocations, its Min
 * and Max beside it. */
typedef struct _WsNvprofMetrics WsNvprofMetrics;

WsNvprofMetrics *ws_nvprof_metrics_new (const char *path);
void ws_nvprof_metrics_free (WsNvprofMetrics *self);
void ws_nvprof_metrics_begin (WsNvprofMetrics *self, guint32 pid, const char *command,
                              gboolean events);
int ws_nvprof_metrics_line (WsNvprofMetrics *self, guint line_number, const char *line,
                            GError **error);
gboolean ws_nvprof_metrics_end (WsNvprofMetrics *self, GError **error);
guint ws_nvprof_metrics_n_launches (const WsNvprofMetrics *self);
WsNcuResults *ws_nvprof_metrics_finish (WsNvprofMetrics *self);

gboolean ws_nvprof_metric_value (const char *cell, double *value, const char **unit,
                                 const char **base_unit, gboolean *level);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsNvprofMetrics, ws_nvprof_metrics_free)

G_END_DECLS
