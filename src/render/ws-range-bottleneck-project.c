/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-range-bottleneck"
#include "config.h"

#include "ws-range-bottleneck-project.h"

/* The roll-up of analysis (ws-range-bottleneck.c) meets the NVTX
 * projection of timeline here, the first layer that sees both. */

static GArray *
projected_kernels (gsize range, gpointer projection)
{
  if (ws_nvtx_projection_n_kernels (projection, range) == 0)
    return g_array_new (FALSE, FALSE, sizeof (guint32));
  return ws_nvtx_projection_kernels (projection, range);
}

/**
 * ws_range_bottleneck_project:
 *
 * ws_range_bottleneck_compute() with the kernels that @projection gives
 * each NVTX range.  Safe on a worker thread.
 *
 * Returns: (transfer full) (element-type WsRangeBottleneck): the rows
 */
GArray *
ws_range_bottleneck_project (const WsRun *run, WsNvtxProjection *projection)
{
  return ws_range_bottleneck_compute (run, projected_kernels, projection);
}
