/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ncu-value.h"

G_BEGIN_DECLS

/* How a profiled launch used the memory hierarchy: each level's
 * throughput and hit rate, the traffic between levels, coalescing
 * (sectors per request of global loads and stores) and shared-memory
 * bank conflicts (MemoryWorkloadAnalysis, SourceCounters). */
typedef struct
{
  WsNcuValue l1_throughput;     /* % of peak */
  WsNcuValue l1_hit;            /* % */
  WsNcuValue shared_throughput; /* % of peak: shared-memory wavefronts */
  WsNcuValue l2_throughput;     /* % of peak */
  WsNcuValue l2_hit;            /* % */
  WsNcuValue dram_throughput;   /* % of peak */
  WsNcuValue dram_rate;         /* byte/s */
  WsNcuValue dram_read;         /* bytes */
  WsNcuValue dram_write;        /* bytes */
  WsNcuValue l2_to_l1;          /* bytes read by L1 from L2 */
  WsNcuValue l1_to_l2;          /* bytes written by L1 to L2 */
  WsNcuValue load_sectors;      /* global loads: sectors and requests */
  WsNcuValue load_requests;
  WsNcuValue store_sectors; /* global stores */
  WsNcuValue store_requests;
  WsNcuValue
    excessive_sectors;       /* global sectors beyond what the accesses needed (SourceCounters) */
  WsNcuValue bank_conflicts; /* shared memory, extra wavefronts */
  WsNcuValue shared_wavefronts;
} WsMemoryWorkload;

void ws_memory_workload_compute (const WsNcuResults *results, guint launch,
                                 WsMemoryWorkload *memory);
double ws_memory_load_sectors_per_request (const WsMemoryWorkload *memory);
double ws_memory_store_sectors_per_request (const WsMemoryWorkload *memory);
double ws_memory_excessive_pct (const WsMemoryWorkload *memory);
double ws_memory_bank_conflict_pct (const WsMemoryWorkload *memory);

G_END_DECLS
