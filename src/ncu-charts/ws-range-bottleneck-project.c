/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-range-bottleneck"
#include "config.h"

#include "ws-range-bottleneck-project.h"

/* The roll-up of analysis (ws-range-bottleneck.c) meets the kernels of
 * each NVTX range (timeline's WsNvtxKernels) here, the first layer that
 * sees both. */

static GArray *
range_kernels (gsize range, gpointer nvtx_kernels)
{
  if (ws_nvtx_kernels_count (nvtx_kernels, range) == 0)
    return g_array_new (FALSE, FALSE, sizeof (guint32));
  return ws_nvtx_kernels_in_range (nvtx_kernels, range);
}

/**
 * ws_range_bottleneck_project:
 *
 * ws_range_bottleneck_compute() with the kernels that @nvtx_kernels gives
 * each NVTX range.  Safe on a worker thread.
 *
 * Returns: (transfer full) (element-type WsRangeBottleneck): the rows
 */
GArray *
ws_range_bottleneck_project (const WsRun *run, WsNvtxKernels *nvtx_kernels)
{
  return ws_range_bottleneck_compute (run, range_kernels, nvtx_kernels);
}
