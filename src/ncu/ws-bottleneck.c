/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-bottleneck"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-bottleneck.h"
#include "ws-format.h"

/* Each unit's throughput, elapsed-based first (as the speed-of-light
 * breakdown), then the active-based and 2019 Pascal names. */
static const char *const *const unit_metrics[WS_N_LIMITS] = {
  [WS_LIMIT_TENSOR] =
    WS_NCU_METRICS ("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
                    "sm__pipe_tensor_cycles_active_v2.avg.pct_of_peak_sustained_elapsed",
                    "sm__pipe_tc_cycles_active.avg.pct_of_peak_sustained_elapsed",
                    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
                    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"),
  [WS_LIMIT_FMA] = WS_NCU_METRICS ("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed",
                                   "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_elapsed",
                                   "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"),
  [WS_LIMIT_ALU] = WS_NCU_METRICS ("sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed",
                                   "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_elapsed"),
  [WS_LIMIT_FP64] =
    WS_NCU_METRICS ("sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed",
                    "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_elapsed"),
  [WS_LIMIT_XU] = WS_NCU_METRICS ("sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_elapsed"),
  [WS_LIMIT_ISSUE] = WS_NCU_METRICS ("sm__inst_issued.avg.pct_of_peak_sustained_elapsed",
                                     "sm__issue_active.avg.pct_of_peak_sustained_elapsed",
                                     "sm__inst_issued_per_active_cycle_sol_pct"),
  [WS_LIMIT_SM] =
    WS_NCU_METRICS ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm__sol_pct"),
  [WS_LIMIT_L1] =
    WS_NCU_METRICS ("l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
                    "l1tex__throughput.avg.pct_of_peak_sustained_active", "tex__sol_pct"),
  [WS_LIMIT_L2] =
    WS_NCU_METRICS ("lts__throughput.avg.pct_of_peak_sustained_elapsed", "ltc__sol_pct"),
  [WS_LIMIT_DRAM] =
    WS_NCU_METRICS ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                    "dram__throughput.avg.pct_of_peak_sustained_elapsed", "fbpa__sol_pct"),
};

static char *
pct (double value)
{
  g_autofree char *num = ws_format_fixed_string (value, 2);

  return g_strdup_printf ("%s%%", num);
}

/* The busiest unit in [first, last), or -1. */
static int
busiest (const WsBottleneck *b, int first, int last)
{
  int best = -1;

  for (int u = first; u < last; u++)
    if (ws_ncu_value_collected (b->units[u]) &&
        (best < 0 || b->units[u].value > b->units[best].value))
      best = u;
  return best;
}

/* "L1/shared memory 96.45%" */
static char *
unit_value (const WsBottleneck *b, int unit)
{
  g_autofree char *v = pct (b->units[unit].value);

  return g_strdup_printf ("%s %s", ws_limit_unit_label ((WsLimitUnit) unit), v);
}

/* The other units within WS_BOTTLENECK_GAP of the limiter, for the reason. */
static void
append_close (GString *text, const WsBottleneck *b, int unit)
{
  gboolean any = FALSE;

  for (int u = 0; u < WS_N_LIMITS; u++)
    {
      g_autofree char *v = NULL;

      if (u == unit || u == WS_LIMIT_SM || !ws_ncu_value_collected (b->units[u]) ||
          b->units[unit].value - b->units[u].value >= WS_BOTTLENECK_GAP)
        continue;
      v = unit_value (b, u);
      g_string_append (text, any ? ", " : " (");
      g_string_append (text, v);
      any = TRUE;
    }
  if (any)
    g_string_append_c (text, ')');
}

static void
throughput_rule (WsBottleneck *b, int compute, int memory)
{
  g_autofree char *busy = ws_format_percent_short (WS_BOTTLENECK_BUSY);
  int unit = compute < 0                                         ? memory
             : memory < 0                                        ? compute
             : b->units[compute].value >= b->units[memory].value ? compute
                                                                 : memory;
  int other = unit == compute ? memory : compute;
  g_autofree char *main = unit_value (b, unit);
  GString *text = g_string_new (NULL);

  if (other >= 0 && b->units[other].value >= WS_BOTTLENECK_BUSY &&
      fabs (b->units[compute].value - b->units[memory].value) < WS_BOTTLENECK_GAP)
    {
      g_autofree char *c = unit_value (b, compute);
      g_autofree char *m = unit_value (b, memory);
      g_autofree char *gap =
        ws_format_fixed_string (fabs (b->units[compute].value - b->units[memory].value), 2);

      b->kind = WS_BOTTLENECK_MIXED;
      b->rule = "mixed";
      b->unit = compute;
      b->other = memory;
      /* TRANSLATORS: "Instruction issue 68.96% and L2 69.30% are both ≥ 60% of peak, 0.34 points apart (< 10)" */
      g_string_append_printf (text, _ ("%s and %s are both ≥ %s of peak, %s points apart (< %.0f)"),
                              c, m, busy, gap, WS_BOTTLENECK_GAP);
      b->reason = g_string_free (text, FALSE);
      return;
    }
  b->kind = unit >= WS_LIMIT_FIRST_MEMORY ? WS_BOTTLENECK_MEMORY : WS_BOTTLENECK_COMPUTE;
  b->rule = "unit";
  b->unit = unit;
  b->other = other;
  /* TRANSLATORS: "L1/shared memory 96.45% ≥ 60% of peak, the busiest unit" */
  g_string_append_printf (text, _ ("%s ≥ %s of peak, the busiest unit"), main, busy);
  append_close (text, b, unit);
  if (unit == WS_LIMIT_L1 && ws_ncu_value_collected (b->shared))
    {
      g_autofree char *shared = pct (b->shared.value);

      g_string_append_printf (text, _ ("; shared-memory wavefronts %s"), shared);
    }
  if (other >= 0)
    {
      g_autofree char *o = unit_value (b, other);

      /* TRANSLATORS: "; busiest on the other side: Tensor pipe 19.47%" */
      g_string_append_printf (text, _ ("; busiest on the other side: %s"), o);
    }
  b->reason = g_string_free (text, FALSE);
}

static char *
stall_text (const WsBottleneck *b)
{
  g_autofree char *v = NULL;

  if (b->top_stall == NULL)
    /* TRANSLATORS: "stall reasons not collected (--section WarpStateStats)"; nvprof: "(--metrics stall_sync,…)" */
    return g_strdup_printf (_ ("stall reasons not collected (%s)"), b->top_stall_collect);
  v = ws_format_fixed_string (b->top_stall_value, 2);
  /* TRANSLATORS: "top stall long_scoreboard (15.53 warps/issue)" */
  return g_strdup_printf (_ ("top stall %s (%s %s)"), b->top_stall, v, b->top_stall_unit);
}

/* No unit is busy: latency, or too little work when the grid leaves
 * SMs idle or ends in a mostly empty wave. */
static void
low_throughput_rules (WsBottleneck *b, int top)
{
  g_autofree char *busy = ws_format_percent_short (WS_BOTTLENECK_BUSY);
  g_autofree char *top_text = unit_value (b, top);
  g_autofree char *stall = stall_text (b);
  double waves = b->waves.value;

  if (ws_ncu_value_collected (b->waves) && waves < 1)
    {
      g_autofree char *w = ws_format_fixed_string (waves, 2);

      b->kind = WS_BOTTLENECK_WORK;
      b->rule = "small-grid";
      if (ws_ncu_value_collected (b->sm) && ws_ncu_value_collected (b->memory))
        {
          g_autofree char *sm = pct (b->sm.value);
          g_autofree char *mem = pct (b->memory.value);

          /* TRANSLATORS: "0.03 waves per SM < 1: the grid leaves SMs idle (SM 0.01%, Memory 13.73% < 60%)" */
          b->reason = g_strdup_printf (_ ("%s waves per SM < 1: the grid leaves SMs idle (SM %s, "
                                          "Memory %s < %s)"),
                                       w, sm, mem, busy);
        }
      else
        b->reason = g_strdup_printf (_ ("%s waves per SM < 1: the grid leaves SMs idle (busiest "
                                        "unit %s)"),
                                     w, top_text);
      return;
    }
  if (ws_ncu_value_collected (b->waves) && waves >= 1 && waves < 2 && waves - floor (waves) > 0 &&
      waves - floor (waves) <= WS_BOTTLENECK_TAIL)
    {
      g_autofree char *w = ws_format_fixed_string (waves, 2);
      g_autofree char *fill = ws_format_percent_short (100.0 * (waves - floor (waves)));

      b->kind = WS_BOTTLENECK_WORK;
      b->rule = "tail";
      /* TRANSLATORS: "1.20 waves per SM: the second wave is 20% full (a tail); busiest unit L2 45.00% < 60%" */
      b->reason = g_strdup_printf (_ ("%s waves per SM: the second wave is %s full (a tail); "
                                      "busiest unit %s < %s"),
                                   w, fill, top_text, busy);
      return;
    }
  b->kind = WS_BOTTLENECK_LATENCY;
  b->rule = "latency";
  if (ws_ncu_value_collected (b->units[WS_LIMIT_ISSUE]) && top != WS_LIMIT_ISSUE)
    {
      g_autofree char *issue = pct (b->units[WS_LIMIT_ISSUE].value);

      /* TRANSLATORS: "every unit < 60% of peak (busiest: L2 53.86%), instruction issue 58.12%; top stall long_scoreboard (15.53 warps/issue)" */
      b->reason =
        g_strdup_printf (_ ("every unit < %s of peak (busiest: %s), instruction issue %s; %s"),
                         busy, top_text, issue, stall);
    }
  else
    b->reason =
      g_strdup_printf (_ ("every unit < %s of peak (busiest: %s); %s"), busy, top_text, stall);
}

/**
 * ws_bottleneck_compute:
 * @stalls: (nullable): @launch's stalls, for the top one
 *
 * Decides, in this order: too little work when the grid has fewer than
 * one wave and no unit is busy; the busiest unit when it reaches
 * WS_BOTTLENECK_BUSY (mixed when the busiest compute and memory units
 * both do and are within WS_BOTTLENECK_GAP); a tail when the second of
 * fewer than two waves is at most half full; latency otherwise.  Clear
 * with ws_bottleneck_clear().  This is the verdict of a launch: every
 * page, command and export reads it (through ws_bottleneck_verdict() and
 * the gauges' verdict, which ws_gauges_compute() takes from here).
 */
void
ws_bottleneck_compute (const WsNcuResults *results, guint launch, const WsStalls *stalls,
                       WsBottleneck *b)
{
  ws_bottleneck_compute_with (
    results, launch, stalls,
    results->gauges != NULL ? ws_ncu_results_gauges (results, launch) : NULL, b);
}

/**
 * ws_bottleneck_compute_with:
 * @gauges: (nullable): @launch's gauges, whose SM and DRAM stand in where
 *   no throughput metric of those units was collected (nvprof's
 *   sm_efficiency and dram_utilization)
 *
 * ws_bottleneck_compute() for gauges being computed.
 */
void
ws_bottleneck_compute_with (const WsNcuResults *results, guint launch, const WsStalls *stalls,
                            const WsGauges *gauges, WsBottleneck *b)
{
  const WsStall *top_stall = stalls != NULL ? ws_stalls_top (stalls) : NULL;
  int compute, memory, top;

  memset (b, 0, sizeof *b);
  b->unit = b->other = -1;
  for (int u = 0; u < WS_N_LIMITS; u++)
    b->units[u] = ws_ncu_value_first (results, launch, unit_metrics[u]);
  if (gauges != NULL && !ws_ncu_value_collected (b->units[WS_LIMIT_SM]) &&
      gauges->gauge[WS_GAUGE_SM].collected)
    b->units[WS_LIMIT_SM] =
      ws_ncu_value_make (gauges->gauge[WS_GAUGE_SM].value, gauges->gauge[WS_GAUGE_SM].metric);
  if (gauges != NULL && !ws_ncu_value_collected (b->units[WS_LIMIT_DRAM]) &&
      gauges->gauge[WS_GAUGE_DRAM].collected)
    b->units[WS_LIMIT_DRAM] =
      ws_ncu_value_make (gauges->gauge[WS_GAUGE_DRAM].value, gauges->gauge[WS_GAUGE_DRAM].metric);
  b->sm = ws_ncu_value_first (results, launch, unit_metrics[WS_LIMIT_SM]);
  b->memory = ws_ncu_value_first (
    results, launch,
    WS_NCU_METRICS ("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
                    "gpu__compute_memory_sol_pct"));
  b->shared =
    ws_ncu_value (results, launch,
                  "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed");
  b->waves = ws_ncu_value (results, launch, "launch__waves_per_multiprocessor");
  b->top_stall_collect = stalls != NULL    ? stalls->collect
                         : results->nvprof ? "--metrics stall_sync,stall_exec_dependency,"
                                             "stall_memory_dependency"
                                           : "--section WarpStateStats";
  if (top_stall != NULL)
    {
      b->top_stall = g_strdup (top_stall->reason);
      b->top_stall_value = top_stall->value;
      b->top_stall_unit = stalls->unit;
    }
  /* The SM as a whole stands in only where no pipe and no issue figure is known. */
  compute = busiest (b, 0, WS_LIMIT_SM);
  if (compute < 0 && ws_ncu_value_collected (b->units[WS_LIMIT_SM]))
    compute = WS_LIMIT_SM;
  memory = busiest (b, WS_LIMIT_FIRST_MEMORY, WS_N_LIMITS);
  top = compute < 0                                         ? memory
        : memory < 0                                        ? compute
        : b->units[compute].value >= b->units[memory].value ? compute
                                                            : memory;

  if (top < 0)
    {
      b->kind = WS_BOTTLENECK_UNKNOWN;
      b->rule = "no-data";
      /* TRANSLATORS: "no unit's throughput was collected (--section SpeedOfLight)" */
      b->reason = g_strdup_printf (_ ("no unit's throughput was collected (%s)"),
                                   results->nvprof ? "--metrics sm_efficiency,dram_utilization"
                                                   : "--section SpeedOfLight");
      return;
    }
  /* A verdict never rests on a number that was not measured: without one
   * side, "the busiest unit" is only the busiest of those collected. */
  if (compute < 0 || memory < 0)
    {
      g_autofree char *known = unit_value (b, top);

      b->kind = WS_BOTTLENECK_UNKNOWN;
      b->rule = "one-side";
      b->reason =
        compute < 0
          /* TRANSLATORS: "DRAM 75.02%, but no compute unit's throughput was collected (--section SpeedOfLight)" */
          ? g_strdup_printf (_ ("%s, but no compute unit's throughput was collected (%s)"), known,
                             results->nvprof ? "--metrics sm_efficiency" : "--section SpeedOfLight")
          /* TRANSLATORS: "SM 97.83%, but no memory unit's throughput was collected (--section SpeedOfLight)" */
          : g_strdup_printf (_ ("%s, but no memory unit's throughput was collected (%s)"), known,
                             results->nvprof ? "--metrics dram_utilization"
                                             : "--section SpeedOfLight");
      return;
    }
  /* A grid under one wave leaves SMs idle whatever the counters of the
   * few that ran say (a 2 µs kernel can read L1 181%). */
  if (ws_ncu_value_collected (b->waves) && b->waves.value < 1 &&
      !(b->sm.value >= WS_BOTTLENECK_BUSY) && !(b->memory.value >= WS_BOTTLENECK_BUSY))
    {
      low_throughput_rules (b, top);
      return;
    }
  if (b->units[top].value >= WS_BOTTLENECK_BUSY)
    {
      throughput_rule (b, compute, memory);
      return;
    }
  low_throughput_rules (b, top);
}

/**
 * ws_bottleneck_verdict:
 *
 * The verdict class of a bottleneck, the one that tables, bars, roll-ups
 * and exports show: too little work is a latency problem there.
 *
 * Returns: the verdict
 */
WsVerdict
ws_bottleneck_verdict (WsBottleneckKind kind)
{
  switch (kind)
    {
      case WS_BOTTLENECK_COMPUTE:
        return WS_VERDICT_COMPUTE;
      case WS_BOTTLENECK_MEMORY:
        return WS_VERDICT_MEMORY;
      case WS_BOTTLENECK_LATENCY:
      case WS_BOTTLENECK_WORK:
        return WS_VERDICT_LATENCY;
      case WS_BOTTLENECK_MIXED:
        return WS_VERDICT_MIXED;
      case WS_BOTTLENECK_UNKNOWN:
      case WS_N_BOTTLENECKS:
      default:
        return WS_VERDICT_UNKNOWN;
    }
}

void
ws_bottleneck_clear (WsBottleneck *bottleneck)
{
  g_clear_pointer (&bottleneck->top_stall, g_free);
  g_clear_pointer (&bottleneck->reason, g_free);
}

const char *
ws_bottleneck_id (WsBottleneckKind kind)
{
  static const char *const ids[WS_N_BOTTLENECKS] = { "unknown", "compute",         "memory",
                                                     "latency", "too-little-work", "mixed" };

  g_return_val_if_fail (kind < WS_N_BOTTLENECKS, "");
  return ids[kind];
}

const char *
ws_bottleneck_label (WsBottleneckKind kind)
{
  static const char *const labels[WS_N_BOTTLENECKS] = {
    N_ ("Unknown"),       N_ ("Compute-bound"),   N_ ("Memory-bound"),
    N_ ("Latency-bound"), N_ ("Too little work"), N_ ("Compute and memory"),
  };

  g_return_val_if_fail (kind < WS_N_BOTTLENECKS, "");
  return _ (labels[kind]);
}

const char *
ws_limit_unit_id (WsLimitUnit unit)
{
  static const char *const ids[WS_N_LIMITS] = { "tensor-pipe", "fma-pipe", "alu-pipe", "fp64-pipe",
                                                "xu-pipe",     "issue",    "sm",       "l1",
                                                "l2",          "dram" };

  g_return_val_if_fail (unit < WS_N_LIMITS, "");
  return ids[unit];
}

const char *
ws_limit_unit_label (WsLimitUnit unit)
{
  static const char *const labels[WS_N_LIMITS] = {
    N_ ("Tensor pipe"), N_ ("FMA pipe"),         N_ ("ALU pipe"),
    N_ ("FP64 pipe"),   N_ ("XU pipe"),          N_ ("Instruction issue"),
    N_ ("SM"),          N_ ("L1/shared memory"), N_ ("L2"),
    N_ ("DRAM"),
  };

  g_return_val_if_fail (unit < WS_N_LIMITS, "");
  return _ (labels[unit]);
}

/**
 * ws_bottleneck_headline:
 *
 * Returns: (transfer full): "Memory-bound: L1/shared memory 96.45%",
 * "Latency-bound", …
 */
char *
ws_bottleneck_headline (const WsBottleneck *b)
{
  g_autofree char *unit = NULL;

  if ((b->kind == WS_BOTTLENECK_COMPUTE || b->kind == WS_BOTTLENECK_MEMORY) && b->unit >= 0)
    {
      unit = unit_value (b, b->unit);
      /* TRANSLATORS: "Memory-bound: L1/shared memory 96.45%" */
      return g_strdup_printf (_ ("%s: %s"), ws_bottleneck_label (b->kind), unit);
    }
  if (b->kind == WS_BOTTLENECK_MIXED && b->unit >= 0 && b->other >= 0)
    {
      g_autofree char *other = unit_value (b, b->other);

      unit = unit_value (b, b->unit);
      /* TRANSLATORS: "Compute and memory: Instruction issue 68.96%, L2 69.30%" */
      return g_strdup_printf (_ ("%s: %s, %s"), ws_bottleneck_label (b->kind), unit, other);
    }
  return g_strdup (ws_bottleneck_label (b->kind));
}
