/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-finding.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* The checks of the field's guides (docs/formats.md, "Diagnostic checks"), each
 * raised only where it applies.  Definitions and thresholds: docs/NOTES.md,
 * "Findings". */
#define WS_FINDING_ALLOC_IN_LOOP "alloc-in-loop"
#define WS_FINDING_SMALL_TRANSFERS "small-transfers"
#define WS_FINDING_OVER_SYNC "over-synchronization"
#define WS_FINDING_LAUNCH_OVERHEAD "launch-overhead"
#define WS_FINDING_LOAD_IMBALANCE "load-imbalance"
#define WS_FINDING_GPU_IDLE "gpu-idle"
#define WS_FINDING_MEMORY_ACCESS "memory-access"
/* The checks that know CUDA graphs (docs/cuda-graphs.md). */
#define WS_FINDING_GRAPH_RECAPTURE "graph-recapture"
#define WS_FINDING_REPLAY_GAPS "replay-gaps"

GPtrArray *ws_findings_compute (const WsRun *run);
GPtrArray *ws_findings_compute_cancellable (const WsRun *run, GCancellable *cancellable,
                                            GError **error);
void ws_findings_compute_async (WsRun *run, GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data);
GPtrArray *ws_findings_compute_finish (GAsyncResult *result, GError **error);
WsFinding *ws_findings_find (GPtrArray *findings, const char *id);
void ws_findings_sort (GPtrArray *findings);

G_END_DECLS
