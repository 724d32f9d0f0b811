/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-memory-workload"
#include "config.h"

#include <math.h>

#include "ws-memory-workload.h"

/**
 * ws_memory_workload_compute:
 *
 * Fills @memory with what @launch's file holds; the rest stays not
 * collected.  Names after the current ones are 2019 Pascal exports'.
 */
void
ws_memory_workload_compute (const WsNcuResults *results, guint launch, WsMemoryWorkload *memory)
{
  memory->l1_throughput = ws_ncu_value_first (
    results, launch,
    WS_NCU_METRICS ("l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
                    "l1tex__throughput.avg.pct_of_peak_sustained_active", "tex__sol_pct"));
  memory->l1_hit = ws_ncu_value_first (
    results, launch, WS_NCU_METRICS ("l1tex__t_sector_hit_rate.pct", "tex__hitrate_pct"));
  memory->shared_throughput =
    ws_ncu_value (results, launch,
                  "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed");
  memory->l2_throughput = ws_ncu_value_first (
    results, launch,
    WS_NCU_METRICS ("lts__throughput.avg.pct_of_peak_sustained_elapsed", "ltc__sol_pct"));
  memory->l2_hit = ws_ncu_value_first (
    results, launch,
    WS_NCU_METRICS ("lts__t_sector_hit_rate.pct", "lts__request_total_sectors_hitrate_pct"));
  memory->dram_throughput = ws_ncu_value_first (
    results, launch,
    WS_NCU_METRICS ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                    "dram__throughput.avg.pct_of_peak_sustained_elapsed", "fbpa__sol_pct"));
  memory->dram_rate = ws_ncu_value (results, launch, "dram__bytes.sum.per_second");
  memory->dram_read = ws_ncu_value (results, launch, "dram__bytes_read.sum");
  memory->dram_write = ws_ncu_value (results, launch, "dram__bytes_write.sum");
  memory->l2_to_l1 = ws_ncu_value (results, launch, "l1tex__m_xbar2l1tex_read_bytes.sum");
  memory->l1_to_l2 = ws_ncu_value (results, launch, "l1tex__m_l1tex2xbar_write_bytes.sum");
  memory->load_sectors =
    ws_ncu_value (results, launch, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  memory->load_requests =
    ws_ncu_value (results, launch, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  memory->store_sectors =
    ws_ncu_value (results, launch, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
  memory->store_requests =
    ws_ncu_value (results, launch, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  memory->excessive_sectors =
    ws_ncu_value (results, launch, "derived__memory_l2_theoretical_sectors_global_excessive");
  memory->bank_conflicts =
    ws_ncu_value (results, launch, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum");
  memory->shared_wavefronts =
    ws_ncu_value (results, launch, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
}

static double
ratio (WsNcuValue a, WsNcuValue b)
{
  if (!ws_ncu_value_collected (a) || !ws_ncu_value_collected (b) || b.value <= 0)
    return NAN;
  return a.value / b.value;
}

/* Sectors per request of global loads: 4 for 32 threads reading
 * consecutive 4-byte words, 16 for 16-byte vectors; NaN without loads. */
double
ws_memory_load_sectors_per_request (const WsMemoryWorkload *memory)
{
  return ratio (memory->load_sectors, memory->load_requests);
}

double
ws_memory_store_sectors_per_request (const WsMemoryWorkload *memory)
{
  return ratio (memory->store_sectors, memory->store_requests);
}

/* % of the global load and store sectors that the accesses did not need:
 * what uncoalesced access costs; NaN where not collected. */
double
ws_memory_excessive_pct (const WsMemoryWorkload *memory)
{
  double sectors;

  if (!ws_ncu_value_collected (memory->excessive_sectors) ||
      !ws_ncu_value_collected (memory->load_sectors) ||
      !ws_ncu_value_collected (memory->store_sectors))
    return NAN;
  sectors = memory->load_sectors.value + memory->store_sectors.value;
  return sectors > 0 ? 100.0 * memory->excessive_sectors.value / sectors : 0;
}

/* Bank conflicts as % of the shared-memory wavefronts. */
double
ws_memory_bank_conflict_pct (const WsMemoryWorkload *memory)
{
  double r = ratio (memory->bank_conflicts, memory->shared_wavefronts);

  if (isnan (r) && ws_ncu_value_collected (memory->bank_conflicts) &&
      ws_ncu_value_collected (memory->shared_wavefronts))
    return 0;
  return 100.0 * r;
}
