/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauges"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-bottleneck.h"
#include "ws-format.h"
#include "ws-gauges.h"
#include "ws-ncu-results.h"
#include "ws-ncu-value.h"
#include "ws-stalls.h"

/* Where each gauge comes from (docs/formats.md, "Metric sources"): the metrics
 * in order of preference, then what would collect them.  Names after the
 * current ones are the Pascal-era metrics of 2019 exports (sm__sol_pct,
 * fbpa__sol_pct, tex__hitrate_pct, …), which mean the same on those GPUs. */
typedef struct
{
  const char *metrics[8];
  const char *collect;
  const char *unit;
} Source;

static const Source sources[WS_N_GAUGES] = {
  [WS_GAUGE_DURATION] = { { "gpu__time_duration.sum", "gpu__time_duration" },
                          "--section SpeedOfLight",
                          "ns" },
  [WS_GAUGE_SM] = { { "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                      "smsp__throughput.avg.pct_of_peak_sustained_elapsed", "sm__sol_pct" },
                    "--section SpeedOfLight",
                    "%" },
  [WS_GAUGE_MEMORY] = { { "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
                          "gpu__compute_memory_sol_pct" },
                        "--section SpeedOfLight",
                        "%" },
  [WS_GAUGE_DRAM] = { { "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                        "dram__throughput.avg.pct_of_peak_sustained_elapsed", "fbpa__sol_pct" },
                      "--section SpeedOfLight",
                      "%" },
  /* Pipe cycles, never instruction issue: a GEMM whose tensor pipe is 95%
   * busy issues tensor instructions in 3% of the slots. */
  [WS_GAUGE_TENSOR] = { { "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
                          "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
                          "sm__pipe_tensor_cycles_active_v2.avg.pct_of_peak_sustained_active",
                          "sm__pipe_tensor_cycles_active_v2.avg.pct_of_peak_sustained_elapsed" },
                        "--section ComputeWorkloadAnalysis",
                        "%" },
  [WS_GAUGE_FP32] = { { "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
                        "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed",
                        "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active",
                        "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_elapsed",
                        "sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active",
                        "sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_elapsed" },
                      "--section ComputeWorkloadAnalysis",
                      "%" },
  [WS_GAUGE_L1_HIT] = { { "l1tex__t_sector_hit_rate.pct", "tex__hitrate_pct" },
                        "--section MemoryWorkloadAnalysis",
                        "%" },
  [WS_GAUGE_L2_HIT] = { { "lts__t_sector_hit_rate.pct", "lts__request_total_sectors_hitrate_pct" },
                        "--section MemoryWorkloadAnalysis",
                        "%" },
  [WS_GAUGE_OCCUPANCY] = { { "sm__warps_active.avg.pct_of_peak_sustained_active",
                             "sm__active_warps_avg_per_active_cycle_pct" },
                           "--section Occupancy",
                           "%" },
  [WS_GAUGE_STALL_BARRIER] = { { "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
                                 "smsp__warp_cycles_per_issue_stall_barrier",
                                 "smsp__warp_issue_stalled_barrier_per_warp_active.pct" },
                               "--section WarpStateStats",
                               "warps/issue" },
  [WS_GAUGE_STALL_SHORT_SCOREBOARD] = { { "smsp__average_warps_issue_stalled_short_scoreboard_per_"
                                          "issue_active.ratio",
                                          "smsp__warp_cycles_per_issue_stall_short_scoreboard",
                                          "smsp__warp_issue_stalled_short_scoreboard_per_warp_"
                                          "active.pct" },
                                        "--section WarpStateStats",
                                        "warps/issue" },
  [WS_GAUGE_STALL_LONG_SCOREBOARD] = { { "smsp__average_warps_issue_stalled_long_scoreboard_per_"
                                         "issue_active.ratio",
                                         "smsp__warp_cycles_per_issue_stall_long_scoreboard",
                                         "smsp__warp_issue_stalled_long_scoreboard_per_warp_active."
                                         "pct" },
                                       "--section WarpStateStats",
                                       "warps/issue" },
};

/* Tensor pipes by kind, when the all-pipes metric is absent: the busiest. */
static const char *const tensor_kinds[] = {
  "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
  "sm__pipe_tensor_op_imma_cycles_active.avg.pct_of_peak_sustained_active",
  "sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active",
  "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
  "sm__pipe_tensor_op_imma_cycles_active.avg.pct_of_peak_sustained_elapsed",
  "sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
  "sm__pipe_tc_cycles_active.avg.pct_of_peak_sustained_active",
  "sm__pipe_tc_cycles_active.avg.pct_of_peak_sustained_elapsed",
};

/* nvprof's metrics (CUDA ≤ 10, docs/nvprof.md), tried after every ncu
 * metric, with what turns each into the gauge's unit: levels 0–10 ×10,
 * achieved_occupancy's 0–1 ×100; the rest are % already. */
typedef struct
{
  const char *metric;
  double scale;
} NvprofSource;

typedef struct
{
  NvprofSource metrics[3];
  const char *collect; /* the nvprof options that collect it */
} NvprofGauge;

static const NvprofGauge nvprof_sources[WS_N_GAUGES] = {
  [WS_GAUGE_DURATION] = { { { NULL } }, "nvprof --print-gpu-trace, without --metrics" },
  /* sm_activity: nvprof 8's name for it ("Multiprocessor Activity" both). */
  [WS_GAUGE_SM] = { { { "sm_efficiency", 1 }, { "sm_activity", 1 } }, "--metrics sm_efficiency" },
  [WS_GAUGE_MEMORY] = { { { NULL } },
                        "--metrics dram_utilization,l2_utilization,tex_utilization,"
                        "shared_utilization" },
  [WS_GAUGE_DRAM] = { { { "dram_utilization", 10 } }, "--metrics dram_utilization" },
  [WS_GAUGE_TENSOR] = { { { NULL } },
                        "--metrics tensor_precision_fu_utilization,tensor_int_fu_utilization" },
  [WS_GAUGE_FP32] = { { { "flop_sp_efficiency", 1 } }, "--metrics flop_sp_efficiency" },
  [WS_GAUGE_L1_HIT] = { { { "global_hit_rate", 1 }, { "tex_cache_hit_rate", 1 } },
                        "--metrics global_hit_rate" },
  [WS_GAUGE_L2_HIT] = { { { "l2_tex_hit_rate", 1 },
                          { "l2_tex_read_hit_rate", 1 },
                          { "l2_l1_read_hit_rate", 1 } },
                        "--metrics l2_tex_hit_rate" },
  [WS_GAUGE_OCCUPANCY] = { { { "achieved_occupancy", 100 } }, "--metrics achieved_occupancy" },
  [WS_GAUGE_STALL_BARRIER] = { { { "stall_sync", 1 } }, "--metrics stall_sync" },
  [WS_GAUGE_STALL_SHORT_SCOREBOARD] = { { { "stall_exec_dependency", 1 } },
                                        "--metrics stall_exec_dependency" },
  [WS_GAUGE_STALL_LONG_SCOREBOARD] = { { { "stall_memory_dependency", 1 } },
                                       "--metrics stall_memory_dependency" },
};

/* Memory: the busiest unit of the memory hierarchy, as ncu's Memory is;
 * Tensor: the busier tensor pipe. */
static const char *const nvprof_memory_levels[] = { "dram_utilization", "l2_utilization",
                                                    "tex_utilization", "shared_utilization" };
static const char *const nvprof_tensor_levels[] = { "tensor_precision_fu_utilization",
                                                    "tensor_int_fu_utilization" };

static const char *const issue_cycles_metrics[] = {
  "smsp__average_warp_latency_per_inst_issued.ratio",
  "smsp__warp_cycles_per_issued_instruction",
};

static gboolean
find (const WsNcuResults *results, guint launch, const char *metric, WsGauge *gauge)
{
  const WsNcuMetric *from = NULL;
  double value;

  if (!ws_ncu_results_value (results, launch, metric, &value, &from))
    return FALSE;
  gauge->collected = TRUE;
  gauge->value = value;
  gauge->metric = metric;
  gauge->column = from->alias != NULL ? from->name : NULL;
  return TRUE;
}

/* The busiest tensor pipe by kind, including the Blackwell sub-pipes
 * (sm__pipe_tensor_subpipe_*), found by name. */
static gboolean
find_tensor_by_kind (const WsNcuResults *results, guint launch, WsGauge *gauge)
{
  static const char subpipe[] = "sm__pipe_tensor_subpipe_";
  static const char active[] = ".avg.pct_of_peak_sustained_active";

  for (gsize i = 0; i < G_N_ELEMENTS (tensor_kinds); i++)
    {
      WsGauge g = *gauge;

      if (find (results, launch, tensor_kinds[i], &g) &&
          (!gauge->collected || g.value > gauge->value))
        *gauge = g;
    }
  for (guint i = 0; i < results->metrics->len; i++)
    {
      const WsNcuMetric *m = g_ptr_array_index (results->metrics, i);
      WsGauge g = *gauge;

      if (g_str_has_prefix (m->name, subpipe) && g_str_has_suffix (m->name, active) &&
          find (results, launch, m->name, &g) && (!gauge->collected || g.value > gauge->value))
        *gauge = g;
    }
  return gauge->collected;
}

static const char *
nvprof_note (const char *metric, double scale)
{
  if (scale == 10)
    return _ ("nvprof's 0–10 utilisation level ×10, not a measured percentage");
  if (scale == 100)
    return _ ("nvprof's achieved_occupancy, a fraction of the maximum warps, ×100");
  if (g_str_equal (metric, "stall_exec_dependency"))
    return _ ("share of nvprof's stall reasons; execution dependency is the nearest nvprof reason "
              "to the short scoreboard, not the same counter");
  if (g_str_has_prefix (metric, "stall_"))
    return _ ("share of nvprof's stall reasons");
  if (g_str_equal (metric, "sm_efficiency") || g_str_equal (metric, "sm_activity"))
    return _ ("nvprof's multiprocessor activity: the time at least one warp was active on an SM, "
              "not throughput");
  return NULL;
}

/* A gauge from nvprof's metric @metric × @scale, if the launch has it. */
static gboolean
find_nvprof (const WsNcuResults *results, guint launch, const char *metric, double scale,
             WsGauge *gauge)
{
  WsGauge g = *gauge;

  if (!find (results, launch, metric, &g))
    return FALSE;
  g.value *= scale;
  g.unit = "%";
  g.note = nvprof_note (metric, scale);
  *gauge = g;
  return TRUE;
}

/* The busiest of nvprof's 0–10 levels @metrics, ×10. */
static gboolean
find_nvprof_busiest (const WsNcuResults *results, guint launch, const char *const *metrics, gsize n,
                     WsGauge *gauge)
{
  for (gsize i = 0; i < n; i++)
    {
      WsGauge g = *gauge;

      if (find_nvprof (results, launch, metrics[i], 10, &g) &&
          (!gauge->collected || g.value > gauge->value))
        *gauge = g;
    }
  return gauge->collected;
}

/* The gauges ncu's metrics left empty, from nvprof's. */
static void
nvprof_fallbacks (const WsNcuResults *results, guint launch, WsGauges *gauges)
{
  for (int k = 0; k < WS_N_GAUGES; k++)
    {
      WsGauge *gauge = &gauges->gauge[k];
      const NvprofGauge *source = &nvprof_sources[k];

      if (gauge->collected)
        continue;
      for (gsize i = 0; i < G_N_ELEMENTS (source->metrics) && source->metrics[i].metric != NULL;
           i++)
        if (find_nvprof (results, launch, source->metrics[i].metric, source->metrics[i].scale,
                         gauge))
          break;
      if (!gauge->collected && k == WS_GAUGE_MEMORY)
        find_nvprof_busiest (results, launch, nvprof_memory_levels,
                             G_N_ELEMENTS (nvprof_memory_levels), gauge);
      if (!gauge->collected && k == WS_GAUGE_TENSOR)
        find_nvprof_busiest (results, launch, nvprof_tensor_levels,
                             G_N_ELEMENTS (nvprof_tensor_levels), gauge);
      if (!gauge->collected)
        gauge->collect = source->collect;
    }
}

static char *
pct (double value)
{
  g_autofree char *num = ws_format_fixed_string (value, 2);

  return g_strdup_printf ("%s%%", num);
}

static char *
threshold (double value)
{
  g_autofree char *num = ws_format_fixed_string (value, 0);

  return g_strdup_printf ("%s%%", num);
}

/* The launch's verdict is the bottleneck's (ws_bottleneck_compute()), so
 * that the gauges, the Why page, roll-ups and every export agree; the
 * reason holds the numbers that decided it. */
static void
launch_verdict (const WsNcuResults *results, guint launch, WsGauges *g)
{
  g_autoptr (WsStalls) stalls = ws_stalls_compute (results, launch);
  WsBottleneck b;

  ws_bottleneck_compute_with (results, launch, stalls, g, &b);
  g->verdict = ws_bottleneck_verdict (b.kind);
  g->verdict_reason = g_steal_pointer (&b.reason);
  ws_bottleneck_clear (&b);
}

/* Nsight Compute's speed-of-light rule, on SM and memory throughput. */
static void
sol_verdict (WsGauges *g, gboolean nvprof)
{
  const WsGauge *sm = &g->gauge[WS_GAUGE_SM];
  const WsGauge *mem = &g->gauge[WS_GAUGE_MEMORY];
  g_autofree char *sm_v = NULL;
  g_autofree char *mem_v = NULL;
  g_autofree char *high = threshold (WS_SOL_HIGH);
  g_autofree char *low = threshold (WS_SOL_LOW);
  double gap;

  if (!sm->collected || !mem->collected)
    {
      g->sol = WS_SOL_UNKNOWN;
      if (nvprof)
        g->sol_reason =
          g_strdup_printf (_ ("SM and Memory were not collected (%s)"),
                           nvprof_sources[!sm->collected ? WS_GAUGE_SM : WS_GAUGE_MEMORY].collect);
      else
        g->sol_reason =
          g_strdup (_ ("SM and memory throughput were not collected (--section SpeedOfLight)"));
      return;
    }
  sm_v = pct (sm->value);
  mem_v = pct (mem->value);
  gap = sm->value - mem->value;

  if (sm->value >= WS_SOL_HIGH || mem->value >= WS_SOL_HIGH)
    {
      g->sol = WS_SOL_HIGH_THROUGHPUT;
      if (sm->value >= WS_SOL_HIGH && mem->value >= WS_SOL_HIGH)
        g->sol_reason = g_strdup_printf (_ ("SM %s and Memory %s ≥ %s"), sm_v, mem_v, high);
      else if (sm->value >= WS_SOL_HIGH)
        g->sol_reason = g_strdup_printf (_ ("SM %s ≥ %s"), sm_v, high);
      else
        g->sol_reason = g_strdup_printf (_ ("Memory %s ≥ %s"), mem_v, high);
      return;
    }
  if (sm->value < WS_SOL_LOW && mem->value < WS_SOL_LOW)
    {
      g_autofree char *waves = isnan (g->waves) ? NULL : ws_format_fixed_string (g->waves, 2);

      if (!isnan (g->waves) && g->waves < 1)
        {
          g->sol = WS_SOL_SMALL_GRID;
          g->sol_reason = g_strdup_printf (_ ("SM %s and Memory %s < %s with %s waves per SM < 1"),
                                           sm_v, mem_v, low, waves);
        }
      else
        {
          g->sol = WS_SOL_LATENCY;
          if (waves != NULL)
            g->sol_reason = g_strdup_printf (_ ("SM %s and Memory %s < %s with %s waves per SM"),
                                             sm_v, mem_v, low, waves);
          else
            g->sol_reason = g_strdup_printf (_ ("SM %s and Memory %s < %s"), sm_v, mem_v, low);
        }
      return;
    }

  {
    g_autofree char *points = ws_format_fixed_string (fabs (gap), 2);
    g_autofree char *min_gap = ws_format_fixed_string (WS_SOL_GAP, 0);

    if (gap >= WS_SOL_GAP)
      {
        g->sol = WS_SOL_COMPUTE_DOMINATED;
        g->sol_reason = g_strdup_printf (_ ("SM %s is %s points above Memory %s (≥ %s)"), sm_v,
                                         points, mem_v, min_gap);
      }
    else if (-gap >= WS_SOL_GAP)
      {
        g->sol = WS_SOL_MEMORY_DOMINATED;
        g->sol_reason = g_strdup_printf (_ ("Memory %s is %s points above SM %s (≥ %s)"), mem_v,
                                         points, sm_v, min_gap);
      }
    else
      {
        g->sol = WS_SOL_BALANCED;
        g->sol_reason = g_strdup_printf (_ ("SM %s and Memory %s are %s points apart (< %s)"), sm_v,
                                         mem_v, points, min_gap);
      }
  }
}

/**
 * ws_gauges_compute:
 *
 * Fills @gauges for @launch: each gauge from the first metric of its list
 * that the launch has, with the metric that fed it, or "not collected"
 * and what would collect it; then both verdicts with their reasons.
 */
void
ws_gauges_compute (const WsNcuResults *results, guint launch, WsGauges *gauges)
{
  const WsNcuLaunch *l = ws_ncu_results_launch (results, launch);
  /* The details page lists no pipe or stall metrics, whatever was collected. */
  gboolean details_only = l->pages == WS_NCU_PAGE_DETAILS;
  double cc = ws_ncu_launch_compute_capability (results, launch);

  memset (gauges, 0, sizeof *gauges);
  gauges->issue_cycles = NAN;
  gauges->waves = NAN;

  for (int k = 0; k < WS_N_GAUGES; k++)
    {
      WsGauge *gauge = &gauges->gauge[k];
      const Source *source = &sources[k];

      gauge->unit = source->unit;
      gauge->collect = source->collect;
      for (gsize i = 0; i < G_N_ELEMENTS (source->metrics) && source->metrics[i] != NULL; i++)
        if (find (results, launch, source->metrics[i], gauge))
          break;
      if (!gauge->collected && k == WS_GAUGE_TENSOR)
        find_tensor_by_kind (results, launch, gauge);
      if (gauge->collected && g_str_has_suffix (gauge->metric, ".pct"))
        gauge->unit = "%";
      if (gauge->collected)
        continue;

      if (k == WS_GAUGE_TENSOR && !isnan (cc) && cc < 7.0)
        gauge->absent = _ ("no Tensor Cores before compute capability 7.0");
      if (results->nvprof)
        continue; /* nvprof_fallbacks() */
      if (details_only && (k == WS_GAUGE_TENSOR || k == WS_GAUGE_FP32))
        gauge->collect = "--section ComputeWorkloadAnalysis --page raw";
      else if (details_only && k >= WS_GAUGE_STALL_BARRIER)
        gauge->collect = "--section WarpStateStats --page raw";
    }

  if (results->nvprof)
    nvprof_fallbacks (results, launch, gauges);

  for (gsize i = 0; i < G_N_ELEMENTS (issue_cycles_metrics); i++)
    if (ws_ncu_results_value (results, launch, issue_cycles_metrics[i], &gauges->issue_cycles,
                              NULL))
      break;
  if (!ws_ncu_results_value (results, launch, "launch__waves_per_multiprocessor", &gauges->waves,
                             NULL))
    gauges->waves = NAN;

  launch_verdict (results, launch, gauges);
  sol_verdict (gauges, results->nvprof);
}

/**
 * ws_gauges_compute_all:
 *
 * Gives each launch of @results its gauges and verdicts: done once, on the
 * loading thread, after the reader finished the results and before they
 * are shared.
 */
void
ws_gauges_compute_all (WsNcuResults *results)
{
  guint n;

  g_return_if_fail (results != NULL && results->finished && results->gauges == NULL);

  n = results->launches->len;
  results->gauges = g_new0 (WsGauges, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    ws_gauges_compute (results, i, &results->gauges[i]);
}
