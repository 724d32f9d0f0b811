/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ncu-value.h"

G_BEGIN_DECLS

/* Achieved against theoretical occupancy, and what limits the blocks an
 * SM holds (Occupancy, LaunchStats). */
typedef enum
{
  WS_OCC_LIMIT_REGISTERS,
  WS_OCC_LIMIT_SHARED_MEM,
  WS_OCC_LIMIT_WARPS,
  WS_OCC_LIMIT_BLOCKS,
  WS_OCC_LIMIT_BARRIERS,
  WS_N_OCC_LIMITS,
} WsOccupancyLimit;

typedef struct
{
  WsNcuValue achieved;               /* % of the SM's warps */
  WsNcuValue theoretical;            /* % */
  WsNcuValue limit[WS_N_OCC_LIMITS]; /* blocks per SM each resource allows */
  WsNcuValue registers;              /* per thread */
  WsNcuValue shared_per_block;       /* bytes, with the driver's reserve */
  WsNcuValue block_size;             /* threads */
  WsNcuValue grid_size;              /* blocks */
  WsNcuValue sm_count;
  WsNcuValue max_warps; /* per SM */
  WsNcuValue waves;     /* per SM */
  int limiter;          /* WsOccupancyLimit of fewest blocks (first on a tie), or -1 */
  guint limiters;       /* bit mask of every limit at that fewest */
  guint blocks_per_sm;  /* by the limiter; 0 when unknown */
  guint warps_per_block;
  char *text; /* "254 registers per thread: 2 blocks of 128 threads per SM, 12.5%", or NULL */
} WsOccupancy;

void ws_occupancy_compute (const WsNcuResults *results, guint launch, WsOccupancy *occupancy);
void ws_occupancy_clear (WsOccupancy *occupancy);
const char *ws_occupancy_limit_id (WsOccupancyLimit limit);
const char *ws_occupancy_limit_label (WsOccupancyLimit limit);

G_END_DECLS
