/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-nvtx-kernels.h"
#include "ws-range-bottleneck.h"

G_BEGIN_DECLS

/* The Timeline page's range table, Bottleneck column: each NVTX range's
 * GPU time by its kernels' verdicts, worked out on a worker. */
typedef struct _WsTimelineRollup WsTimelineRollup;

void ws_timeline_rollup_async (WsRun *run, WsNvtxKernels *nvtx_kernels, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data);
WsTimelineRollup *ws_timeline_rollup_finish (GAsyncResult *result);
void ws_timeline_rollup_free (WsTimelineRollup *rollup);
GArray *ws_timeline_rollup_rows (const WsTimelineRollup *rollup);
void ws_timeline_rollup_fill (const WsTimelineRollup *rollup, const char *name, GtkListStore *store,
                              GtkTreeIter *iter, int text_column, int first_share_column);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTimelineRollup, ws_timeline_rollup_free)

G_END_DECLS
