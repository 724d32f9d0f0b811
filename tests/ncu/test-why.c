/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-gauges.h"
#include "ws-ncu-reader.h"
#include "ws-test-capture.h"
#include "ws-test-load.h"
#include "ws-test-util.h"
#include "ws-why.h"

/* Why a kernel is slow (docs/why-slow.md): every figure against the CSV
 * cells it comes from, or against arithmetic done by hand on them. */

static char *gpt2_dir;    /* the unpacked GPT-2 capture's target folder */
static char *gpt2_tmpdir; /* what to remove at the end */

static WsNcuResults *
load_ncu_path (const char *path)
{
  g_autoptr (GError) error = NULL;
  WsNcuResults *results = ws_ncu_reader_load_file (path, &error);

  g_assert_no_error (error);
  ws_gauges_compute_all (results);
  return results;
}

/* The GPT-2 capture's ncu CSV of one kernel: "Kernel2" is the
 * cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_align1 GEMM. */
static WsNcuResults *
load_gpt2 (const char *name)
{
  g_autofree char *file = g_strdup_printf ("%s_ncu_raw.csv", name);
  g_autofree char *path = g_build_filename (gpt2_dir, "ncu", file, NULL);

  return load_ncu_path (path);
}

/* A copy of a raw-page CSV (every field quoted, as ncu writes it) with
 * one cell of data row @row changed: for a rule that no real file
 * triggers, the smallest departure from a real one. */
static WsNcuResults *
load_with_cell (const char *path, guint row, const char *column, const char *value)
{
  g_autofree char *text = ws_test_read (path);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_auto (GStrv) header = g_strsplit (lines[0] + 1, "\",\"", -1);
  g_auto (GStrv) cells = g_strsplit (lines[2 + row] + 1, "\",\"", -1);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *copy = g_build_filename (dir, "edited_ncu_raw.csv", NULL);
  g_autofree char *joined = NULL;
  g_autofree char *new_text = NULL;
  gint index = -1;
  WsNcuResults *results;

  for (gint i = 0; header[i] != NULL; i++)
    if (g_str_equal (header[i], column))
      index = i;
  g_assert_cmpint (index, >=, 0);
  g_free (cells[index]);
  cells[index] = g_strdup (value);
  joined = g_strjoinv ("\",\"", cells);
  g_free (lines[2 + row]);
  lines[2 + row] = g_strconcat ("\"", joined, NULL);
  new_text = g_strjoinv ("\n", lines);
  g_assert_true (g_file_set_contents (copy, new_text, -1, NULL));
  results = load_ncu_path (copy);
  ws_test_rmtree (dir);
  return results;
}

static const WsStall *
stall (const WsWhy *why, const char *reason)
{
  const WsStall *s = ws_stalls_find (why->stalls, reason);

  g_assert_nonnull (s);
  return s;
}

/* ---- warp stalls -------------------------------------------------------- */

/* Kernel2_ncu_raw.csv, smsp__average_warps_issue_stalled_R_per_issue_active.ratio
 * for its 19 reasons R: long_scoreboard 6.31, wait 1.54, selected 1.00,
 * lg_throttle 0.51, short_scoreboard 0.47, barrier 0.43, mio_throttle
 * 0.34, dispatch_stall 0.20, not_selected 0.11, math_pipe_throttle 0.10,
 * no_instruction 0.04, branch_resolving 0.01, drain, imc_miss, misc
 * 0.00, gmma, membar, sleeping, tex_throttle 0.  Their sum is 11.06, so
 * long_scoreboard's share is 6.31 / 11.06. */
static void
test_stalls_gpt2_equal_cells (void)
{
  static const struct
  {
    const char *reason;
    double value;
  } cells[] = {
    { "long_scoreboard", 6.31 },
    { "wait", 1.54 },
    { "selected", 1.00 },
    { "lg_throttle", 0.51 },
    { "short_scoreboard", 0.47 },
    { "barrier", 0.43 },
    { "mio_throttle", 0.34 },
    { "dispatch_stall", 0.20 },
    { "not_selected", 0.11 },
    { "math_pipe_throttle", 0.10 },
    { "no_instruction", 0.04 },
    { "branch_resolving", 0.01 },
    { "drain", 0 },
    { "imc_miss", 0 },
    { "misc", 0 },
    { "gmma", 0 },
    { "membar", 0 },
    { "sleeping", 0 },
    { "tex_throttle", 0 },
  };
  g_autoptr (WsNcuResults) r = load_gpt2 ("Kernel2");
  g_autoptr (WsWhy) why = ws_why_compute (r, 0);

  g_assert_cmpint (why->stalls->form, ==, WS_STALL_FORM_PER_ISSUE);
  g_assert_cmpuint (why->stalls->n_collected, ==, G_N_ELEMENTS (cells));
  g_assert_cmpuint (why->stalls->stalls->len, ==, G_N_ELEMENTS (cells));
  for (gsize i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      const WsStall *s = stall (why, cells[i].reason);

      g_assert_cmpfloat_with_epsilon (s->value, cells[i].value, 1e-9);
      g_assert_nonnull (s->meaning);
      g_assert_true (g_str_has_prefix (s->metric, "smsp__average_warps_issue_stalled_"));
    }
  /* Sorted: the first twelve in the order of the comment. */
  for (gsize i = 0; i < 12; i++)
    g_assert_cmpstr (g_array_index (why->stalls->stalls, WsStall, i).reason, ==, cells[i].reason);
  g_assert_cmpfloat_with_epsilon (stall (why, "long_scoreboard")->share, 6.31 / 11.06, 1e-9);
  g_assert_cmpstr (ws_stalls_top (why->stalls)->reason, ==, "long_scoreboard");
}

/* fma_heavy (h100_probe_full_raw_base_units.csv, launch 0): not_selected
 * 10.25 is the largest, but a warp that was ready is no stall; the top
 * stall is wait 2.86. */
static void
test_stalls_top_skips_ready_warps (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  g_autoptr (WsWhy) why = ws_why_compute (r, 0);

  g_assert_cmpstr (g_array_index (why->stalls->stalls, WsStall, 0).reason, ==, "not_selected");
  g_assert_cmpfloat_with_epsilon (stall (why, "not_selected")->value, 10.25, 1e-9);
  g_assert_cmpstr (ws_stalls_top (why->stalls)->reason, ==, "wait");
  g_assert_cmpfloat_with_epsilon (ws_stalls_top (why->stalls)->value, 2.86, 1e-9);
}

/* The RTX 5090's details pages hold no stall reason: all 19 of the
 * current section are listed as not collected, with what collects them. */
static void
test_stalls_rtx5090_not_collected (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("rtx5090_llmperf_kernel_0001_details.csv");
  g_autoptr (WsWhy) why = ws_why_compute (r, 0);

  g_assert_cmpint (why->stalls->form, ==, WS_STALL_FORM_NONE);
  g_assert_cmpuint (why->stalls->n_collected, ==, 0);
  /* Compute capability 12.0: gmma (Hopper on) is among them. */
  g_assert_cmpuint (why->stalls->stalls->len, ==, 19);
  g_assert_cmpstr (why->stalls->collect, ==, "--section WarpStateStats --page raw");
  g_assert_null (stall (why, "gmma")->metric);
  g_assert_true (isnan (stall (why, "long_scoreboard")->value));
  g_assert_null (ws_stalls_top (why->stalls));
}

/* 2019 Pascal names: smsp__warp_cycles_per_issue_stall_R, 17 of them
 * (gtx1080_microgpusim_raw_2019.csv, first launch): imc_miss 36.16, misc
 * 33.92, allocation_stall 7.47, … */
static void
test_stalls_pascal_cycles (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("gtx1080_microgpusim_raw_2019.csv");
  g_autoptr (WsWhy) why = ws_why_compute (r, 0);

  g_assert_cmpint (why->stalls->form, ==, WS_STALL_FORM_CYCLES);
  g_assert_cmpuint (why->stalls->n_collected, ==, 17);
  g_assert_cmpuint (why->stalls->stalls->len, ==, 17);
  g_assert_cmpfloat_with_epsilon (stall (why, "imc_miss")->value, 36.16, 1e-9);
  g_assert_cmpfloat_with_epsilon (stall (why, "misc")->value, 33.92, 1e-9);
  g_assert_cmpfloat_with_epsilon (stall (why, "allocation_stall")->value, 7.47, 1e-9);
  g_assert_cmpstr (ws_stalls_top (why->stalls)->reason, ==, "imc_miss");
}

/* ---- roofline ----------------------------------------------------------- */

/* fma_heavy, h100_probe_full_raw_base_units.csv launch 0, by hand:
 *   fadd 27.64, fmul 0, ffma 14,151.73 thread inst per SMSP cycle;
 *   hadd 0, hmul 0, hfma 27.64; dadd = dmul = dfma = 0;
 *   smsp__cycles_elapsed.avg.per_second = sm__… = 1,589,840,803.37 Hz
 *   FP32 = (27.64 + 0 + 2 × 14,151.73) × 1,589,840,803.37 = 45,041,938,784,355.8 FLOP/s
 *   FP16 = (0 + 0 + 4 × 27.64) × 1,589,840,803.37 = 175,772,799,220.6 FLOP/s
 *   FP32 peak = 2 × 16,896 (ffma peak per cycle) × 1,589,840,803.37 = 53,723,900,427,479.0
 *   FP64 peak = 2 × 8,448 × 1,589,840,803.37 = 26,861,950,213,739.5
 *   FP16 peak = 4 × 16,896 × 1,589,840,803.37 = 107,447,800,854,958.1
 *   DRAM: 292,412,035,872.94 byte/s of 1,280 byte/cycle × 2,619,059,592.66 Hz
 *         = 3,352,396,278,604.8 byte/s
 *   intensity against DRAM = (45,041,938,784,355.8 + 175,772,799,220.6)
 *                            / 292,412,035,872.94 = 154.637 FLOP/byte */
static void
test_roofline_fma_heavy_by_hand (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  g_autoptr (WsWhy) why = ws_why_compute (r, 0);
  const WsRoofline *roof = why->roofline;

  g_assert_cmpstr (ws_ncu_results_launch (r, 0)->kernel, ==, "fma_heavy(float *, int, int)");
  g_assert_cmpfloat (fabs (roof->achieved[WS_PRECISION_FP32].value - 45041938784355.8), <, 1);
  g_assert_cmpfloat (fabs (roof->achieved[WS_PRECISION_FP16].value - 175772799220.6), <, 1);
  g_assert_cmpfloat (roof->achieved[WS_PRECISION_FP64].value, ==, 0);
  g_assert_cmpfloat (fabs (roof->peak[WS_PRECISION_FP32].value - 53723900427479.0), <, 1);
  g_assert_cmpfloat (fabs (roof->peak[WS_PRECISION_FP64].value - 26861950213739.5), <, 1);
  g_assert_cmpfloat (fabs (roof->peak[WS_PRECISION_FP16].value - 107447800854958.1), <, 1);
  g_assert_cmpfloat (fabs (roof->traffic[WS_LEVEL_DRAM].value - 292412035872.94), <, 1e-3);
  g_assert_cmpfloat (fabs (roof->bandwidth[WS_LEVEL_DRAM].value - 3352396278604.8), <, 1);
  g_assert_cmpfloat (fabs (ws_roofline_intensity (roof, WS_LEVEL_DRAM) - 154.637), <, 1e-3);
  g_assert_cmpint (ws_roofline_main_precision (roof), ==, WS_PRECISION_FP32);
  g_assert_null (roof->tensor_path);
  g_assert_true (strstr (roof->achieved[WS_PRECISION_FP32].source,
                         "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed") !=
                 NULL);
}

/* The GPT-2 GEMM (Kernel2_ncu_raw.csv), by hand:
 *   tensor: sm__ops_path_tensor_src_bf16_dst_fp32.sum.per_second
 *           = 75,602,507,544,833.28 (the other input types 0)
 *   FP32: fmul 34.28 per cycle × 1,436,023,035.50 Hz = 49,226,869,656.94
 *   all = 75,651,734,414,490.22 FLOP/s
 *   tensor ceiling: the dense bf16 path, HGMMA 540,672 per cycle (HMMA
 *   360,448; the aggregate src_bf16_dst_fp32 1,081,344 counts 2:4
 *   sparsity) × 1,436,023,035.50 = 776,417,446,649,856 FLOP/s; the
 *   HMMA path it took: 360,448 × 1,436,023,035.50 = 517,611,631,099,904
 *   L1: 7,644,209,848,797.57 byte/s of 16,896 × 1,436,023,035.50
 *       = 24,263,045,207,808; intensity 9.8966
 *   L2: 1,146,679,057,927.81 of 5,120 × 1,709,366,256.94
 *       = 8,751,955,235,532.8; intensity 65.9746
 *   DRAM: 116,567,077,925.06 of 1,280 × 2,618,960,693.48
 *       = 3,352,269,687,654.4; intensity 648.997 */
static void
test_roofline_gpt2_gemm_by_hand (void)
{
  g_autoptr (WsNcuResults) r = load_gpt2 ("Kernel2");
  g_autoptr (WsWhy) why = ws_why_compute (r, 0);
  const WsRoofline *roof = why->roofline;

  g_assert_cmpfloat (fabs (roof->achieved[WS_PRECISION_TENSOR].value - 75602507544833.28), <, 1e-2);
  g_assert_cmpfloat (fabs (roof->achieved[WS_PRECISION_FP32].value - 49226869656.94), <, 1e-2);
  g_assert_cmpfloat (fabs (ws_roofline_flops (roof) - 75651734414490.22), <, 1e-1);
  g_assert_cmpfloat (fabs (roof->peak[WS_PRECISION_TENSOR].value - 776417446649856.0), <, 1);
  g_assert_cmpstr (roof->tensor_source, ==, "bf16_dst_fp32");
  g_assert_cmpstr (roof->tensor_path, ==, "hmma");
  g_assert_cmpfloat (fabs (roof->tensor_path_peak - 517611631099904.0), <, 1);
  g_assert_cmpfloat (fabs (roof->bandwidth[WS_LEVEL_L1].value - 24263045207808.0), <, 1);
  g_assert_cmpfloat (fabs (roof->bandwidth[WS_LEVEL_L2].value - 8751955235532.8), <, 1);
  g_assert_cmpfloat (fabs (roof->bandwidth[WS_LEVEL_DRAM].value - 3352269687654.4), <, 1);
  g_assert_cmpfloat (fabs (ws_roofline_intensity (roof, WS_LEVEL_L1) - 9.8966), <, 1e-4);
  g_assert_cmpfloat (fabs (ws_roofline_intensity (roof, WS_LEVEL_L2) - 65.9746), <, 1e-4);
  g_assert_cmpfloat (fabs (ws_roofline_intensity (roof, WS_LEVEL_DRAM) - 648.997), <, 1e-3);
  g_assert_cmpint (ws_roofline_main_precision (roof), ==, WS_PRECISION_TENSOR);
}

/* A details page has the DRAM rate ("Memory Throughput", 345.14
 * Gbyte/s) but no peak per cycle: no ceiling is made up. */
static void
test_roofline_details_without_ceilings (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("rtx5090_llmperf_kernel_0001_details.csv");
  g_autoptr (WsWhy) why = ws_why_compute (r, 0);

  g_assert_cmpfloat (fabs (why->roofline->traffic[WS_LEVEL_DRAM].value - 345.14e9), <, 1);
  for (int p = 0; p < WS_N_PRECISIONS; p++)
    g_assert_true (isnan (why->roofline->peak[p].value));
  g_assert_true (isnan (why->roofline->bandwidth[WS_LEVEL_DRAM].value));
  g_assert_true (isnan (ws_roofline_flops (why->roofline)));
}

/* ---- memory ------------------------------------------------------------- */

/* strided_read (launch 2 of the base-units probe): global loads 16,777,216
 * sectors for 524,288 requests = 32.0 per request; stores 2,097,152 for
 * 524,288 = 4.0; 14,680,064 excessive of 16,777,216 + 2,097,152 sectors =
 * 77.78%.  stream_copy (launch 1): 2,097,152 / 131,072 = 16.0 for both,
 * 0 excessive: float4 accesses need 16 sectors. */
static void
test_memory_coalescing (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  g_autoptr (WsWhy) strided = ws_why_compute (r, 2);
  g_autoptr (WsWhy) copy = ws_why_compute (r, 1);

  g_assert_cmpfloat (ws_memory_load_sectors_per_request (&strided->memory), ==, 32.0);
  g_assert_cmpfloat (ws_memory_store_sectors_per_request (&strided->memory), ==, 4.0);
  g_assert_cmpfloat_with_epsilon (ws_memory_excessive_pct (&strided->memory),
                                  100.0 * 14680064 / (16777216 + 2097152), 1e-9);
  g_assert_cmpfloat (ws_memory_load_sectors_per_request (&copy->memory), ==, 16.0);
  g_assert_cmpfloat (ws_memory_excessive_pct (&copy->memory), ==, 0);
  /* barrier_heavy: 548,097 conflicts in 103,840,390 shared wavefronts. */
  {
    g_autoptr (WsWhy) barrier = ws_why_compute (r, 3);

    g_assert_cmpfloat_with_epsilon (ws_memory_bank_conflict_pct (&barrier->memory),
                                    100.0 * 548097 / 103840390, 1e-9);
    g_assert_cmpfloat_with_epsilon (barrier->memory.shared_throughput.value, 88.12, 1e-9);
  }
}

/* ---- occupancy ---------------------------------------------------------- */

/* The GPT-2 GEMM: 254 registers per thread, allocated in units of 8 per
 * thread = 256; a warp takes 256 × 32 = 8,192 registers, a block of 128
 * threads (4 warps) 32,768 of the SM's 65,536: 2 blocks, 8 warps of 64 =
 * 12.5% (launch__occupancy_limit_registers 2, shared memory 4, warps 16,
 * blocks 32, barriers 32; sm__maximum_warps_per_active_cycle_pct 12.50;
 * achieved 12.47). */
static void
test_occupancy_register_limited (void)
{
  g_autoptr (WsNcuResults) r = load_gpt2 ("Kernel2");
  g_autoptr (WsWhy) why = ws_why_compute (r, 0);
  const WsOccupancy *o = &why->occupancy;
  guint allocated = (254 + 7) / 8 * 8;
  guint blocks = 65536 / (allocated * 32 * (128 / 32));

  g_assert_cmpuint (blocks, ==, 2);
  g_assert_cmpint (o->limiter, ==, WS_OCC_LIMIT_REGISTERS);
  g_assert_cmpuint (o->limiters, ==, 1u << WS_OCC_LIMIT_REGISTERS);
  g_assert_cmpuint (o->blocks_per_sm, ==, blocks);
  g_assert_cmpuint (o->warps_per_block, ==, 4);
  g_assert_cmpfloat (100.0 * blocks * 4 / o->max_warps.value, ==, o->theoretical.value);
  g_assert_cmpfloat_with_epsilon (o->achieved.value, 12.47, 1e-9);
  g_assert_cmpstr (o->text, ==, "254 registers per thread: 2 blocks of 128 threads per SM, 12.5%");
}

/* barrier_heavy: blocks of 1,024 threads (32 warps); the warps allow 2
 * blocks (64 of 64 warps, 100%), shared memory 3, registers 4. */
static void
test_occupancy_warp_limited (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  g_autoptr (WsWhy) why = ws_why_compute (r, 3);

  g_assert_cmpint (why->occupancy.limiter, ==, WS_OCC_LIMIT_WARPS);
  g_assert_cmpstr (why->occupancy.text, ==,
                   "the SM's 64 warps: 2 blocks of 1024 threads per SM, 100%");
}

/* The RTX 5090's details page: Block Limit Registers 2, Shared Mem 4,
 * Warps 12, SM 24; blocks (32, 4, 1) = 128 threads; Theoretical Active
 * Warps per SM 8 at 16.67%: the SM holds 8 / 0.1667 = 48 warps. */
static void
test_occupancy_details_page (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("rtx5090_llmperf_kernel_0001_details.csv");
  g_autoptr (WsWhy) why = ws_why_compute (r, 0);

  g_assert_cmpint (why->occupancy.limiter, ==, WS_OCC_LIMIT_REGISTERS);
  g_assert_cmpfloat (why->occupancy.max_warps.value, ==, 48);
  g_assert_cmpfloat_with_epsilon (why->occupancy.achieved.value, 11.32, 1e-9);
  g_assert_cmpstr (why->occupancy.text, ==, "registers: 2 blocks of 128 threads per SM, 16.67%");
}

/* ---- the bottleneck ----------------------------------------------------- */

static void
assert_bottleneck (const WsNcuResults *r, guint launch, WsBottleneckKind kind, const char *rule,
                   int unit, const char *reason)
{
  g_autoptr (WsWhy) why = ws_why_compute (r, launch);

  g_assert_cmpstr (ws_bottleneck_id (why->bottleneck.kind), ==, ws_bottleneck_id (kind));
  g_assert_cmpstr (why->bottleneck.rule, ==, rule);
  g_assert_cmpint (why->bottleneck.unit, ==, unit);
  if (reason != NULL)
    g_assert_cmpstr (why->bottleneck.reason, ==, reason);
}

/* The issue's GEMM: the workflow's rule said Mixed (SM 19.47%, DRAM
 * 3.48%); the one verdict names L1: l1tex__throughput 96.45% against the
 * tensor pipe's 19.47% and L2's 16.87%, and the gauges say the same. */
static void
test_bottleneck_unit_memory (void)
{
  g_autoptr (WsNcuResults) r = load_gpt2 ("Kernel2");

  g_assert_cmpint (ws_ncu_results_gauges (r, 0)->verdict, ==, WS_VERDICT_MEMORY);
  g_assert_true (g_str_has_prefix (ws_ncu_results_gauges (r, 0)->verdict_reason,
                                   "L1/shared memory 96.45% ≥ 60% of peak"));
  assert_bottleneck (r, 0, WS_BOTTLENECK_MEMORY, "unit", WS_LIMIT_L1,
                     "L1/shared memory 96.45% ≥ 60% of peak, the busiest unit; shared-memory "
                     "wavefronts 17.05%; busiest on the other side: Tensor pipe 19.47%");
}

/* fma_heavy: instruction issue (sm__inst_issued) 97.83%, FMA pipe 84.4%;
 * bf16 GEMM nvjet: tensor pipe 91.48% (h100_train_bf16_sections_raw.csv
 * launch 1). strided_read is not compute-bound: L2 92.78%. */
static void
test_bottleneck_unit_compute (void)
{
  g_autoptr (WsNcuResults) probe = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  g_autoptr (WsNcuResults) bf16 = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");

  assert_bottleneck (probe, 0, WS_BOTTLENECK_COMPUTE, "unit", WS_LIMIT_ISSUE, NULL);
  assert_bottleneck (bf16, 1, WS_BOTTLENECK_COMPUTE, "unit", WS_LIMIT_TENSOR, NULL);
  assert_bottleneck (probe, 2, WS_BOTTLENECK_MEMORY, "unit", WS_LIMIT_L2,
                     "L2 92.78% ≥ 60% of peak, the busiest unit (DRAM 83.22%); busiest on the "
                     "other side: Instruction issue 7.03%");
}

/* h100_train_bf16_sections_raw.csv launch 2: instruction issue 68.96%
 * and L2 69.30%, 0.34 points apart: mixed.  Launch 3: issue 72.75%, L2
 * 61.00%, 11.75 apart: compute. */
static void
test_bottleneck_mixed (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");

  assert_bottleneck (r, 2, WS_BOTTLENECK_MIXED, "mixed", WS_LIMIT_ISSUE,
                     "Instruction issue 68.96% and L2 69.30% are both ≥ 60% of peak, 0.34 "
                     "points apart (< 10)");
  assert_bottleneck (r, 3, WS_BOTTLENECK_COMPUTE, "unit", WS_LIMIT_ISSUE, NULL);
}

/* The GPT-2 copy kernel: every unit under 60% (issue 55.64% the busiest),
 * 11.64 waves: latency, with its top stall long_scoreboard 13.95. */
static void
test_bottleneck_latency (void)
{
  g_autoptr (WsNcuResults) r = load_gpt2 ("unrolled_elementwise_kernel");

  assert_bottleneck (r, 0, WS_BOTTLENECK_LATENCY, "latency", -1,
                     "every unit < 60% of peak (busiest: Instruction issue 55.64%); top stall "
                     "long_scoreboard (13.95 warps/issue)");
}

/* Too little work: 0.00 waves (bf16 launch 8, a 2 µs kernel whose L1
 * counter reads 181%) and the 2019 vecAdd's 0.03; a tail when the second
 * of fewer than two waves is at most half full: the copy kernel above
 * with launch__waves_per_multiprocessor set to 1.30 (no real file has a
 * tail with every unit idle). */
static void
test_bottleneck_too_little_work (void)
{
  g_autoptr (WsNcuResults) bf16 = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");
  g_autoptr (WsNcuResults) pascal = ws_test_load_ncu ("gtx1080_microgpusim_raw_2019.csv");
  g_autofree char *copy =
    g_build_filename (gpt2_dir, "ncu", "unrolled_elementwise_kernel_ncu_raw.csv", NULL);
  g_autoptr (WsNcuResults) tail =
    load_with_cell (copy, 0, "launch__waves_per_multiprocessor", "1.30");

  assert_bottleneck (bf16, 8, WS_BOTTLENECK_WORK, "small-grid", -1,
                     "0.00 waves per SM < 1: the grid leaves SMs idle (SM 0.01%, Memory 13.73% "
                     "< 60%)");
  assert_bottleneck (pascal, 0, WS_BOTTLENECK_WORK, "small-grid", -1, NULL);
  assert_bottleneck (tail, 0, WS_BOTTLENECK_WORK, "tail", -1,
                     "1.30 waves per SM: the second wave is 30% full (a tail); busiest unit "
                     "Instruction issue 55.64% < 60%");
  /* 62.06 waves are plenty. */
  assert_bottleneck (bf16, 9, WS_BOTTLENECK_LATENCY, "latency", -1, NULL);
}

/* ---- hints -------------------------------------------------------------- */

static gboolean
has_hint (const WsNcuResults *r, guint launch, const char *id, const char *evidence)
{
  g_autoptr (WsWhy) why = ws_why_compute (r, launch);
  const WsHint *hint = ws_hints_find (why->hints, id);

  if (hint != NULL && evidence != NULL)
    g_assert_cmpstr (hint->evidence, ==, evidence);
  return hint != NULL;
}

static void
test_kernel_name_arch (void)
{
  g_assert_cmpint (ws_kernel_name_arch ("void Kernel2<cutlass_75_tensorop_bf16_s1688gemm_bf16_"
                                        "128x128_tn_align1>(Params)"),
                   ==, 75);
  g_assert_cmpint (ws_kernel_name_arch ("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize"), ==, 80);
  g_assert_cmpint (ws_kernel_name_arch ("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"), ==,
                   90);
  g_assert_cmpint (ws_kernel_name_arch ("cutlass3x_sm100_tensorop_s64x256x32gemm_f8_f8"), ==, 100);
  g_assert_cmpint (ws_kernel_name_arch ("turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_nn"), ==, 75);
  g_assert_cmpint (ws_kernel_name_arch ("fma_heavy(float *, int, int)"), ==, 0);
  g_assert_cmpint (ws_kernel_name_arch ("void at::native::vectorized_elementwise_kernel<4>"), ==,
                   0);
}

/* The GPT-2 GEMM fires the old-architecture, alignment, uncoalesced and
 * register hints; nvjet_sm90 on the same GPU fires neither of the first
 * two; the fp32 sm80 GEMM runs on the FMA pipe (tensor 0%): no tensor
 * hint. */
static void
test_hints_gemm (void)
{
  g_autoptr (WsNcuResults) gemm = load_gpt2 ("Kernel2");
  g_autoptr (WsNcuResults) bf16 = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");
  g_autoptr (WsNcuResults) fp32 = ws_test_load_ncu ("h100_train_fp32_sections_raw.csv");

  g_assert_true (has_hint (gemm, 0, WS_HINT_OLD_ARCH,
                           "built for sm_75, running on compute capability 9.0; its tensor work "
                           "takes the HMMA path (518 TFLOP/s at this clock) where this GPU's "
                           "fastest reaches 776 TFLOP/s"));
  g_assert_true (has_hint (gemm, 0, WS_HINT_ALIGNMENT,
                           "“align1” in the name: operands aligned to 1 element(s); global loads "
                           "take 16.0 sectors per request"));
  g_assert_true (has_hint (gemm, 0, WS_HINT_UNCOALESCED, NULL));
  g_assert_true (has_hint (gemm, 0, WS_HINT_REGISTERS,
                           "254 registers per thread: 2 blocks of 128 threads per SM, 12.5%"));
  g_assert_false (has_hint (bf16, 1, WS_HINT_OLD_ARCH, NULL));
  g_assert_false (has_hint (bf16, 1, WS_HINT_ALIGNMENT, NULL));
  g_assert_cmpstr (ws_ncu_results_launch (fp32, 1)->kernel, ==,
                   "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize256x64x8_stage3_warpsize2x2x1_"
                   "ffma_aligna4_alignc4_execute_kernel__5x_cublas");
  g_assert_false (has_hint (fp32, 1, WS_HINT_OLD_ARCH, NULL));
}

/* strided_read: 77.78% of its sectors not needed; stream_copy's 16
 * sectors per request are what float4 needs (0 excessive). */
static void
test_hints_uncoalesced (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");

  g_assert_true (has_hint (r, 2, WS_HINT_UNCOALESCED,
                           "global loads 32.0 and stores 4.0 sectors per request; 77.78% of the "
                           "global sectors were not needed"));
  g_assert_false (has_hint (r, 1, WS_HINT_UNCOALESCED, NULL));
}

/* barrier_heavy has 0.53% conflicts (548,097 in 103,840,390 wavefronts):
 * no hint.  With the conflicts cell at 20,768,078 (20.00%), the hint. */
static void
test_hints_bank_conflicts (void)
{
  g_autofree char *path = ws_test_data ("ncu", "h100_probe_full_raw_base_units.csv", NULL);
  g_autoptr (WsNcuResults) real = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  g_autoptr (WsNcuResults) edited =
    load_with_cell (path, 3, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "20,768,078");

  g_assert_false (has_hint (real, 3, WS_HINT_BANK_CONFLICTS, NULL));
  g_assert_true (has_hint (edited, 3, WS_HINT_BANK_CONFLICTS,
                           "20768078 bank conflicts in 103840390 shared-memory wavefronts (20%)"));
}

/* Register-limited at 12.5% (the GEMM) against fma_heavy's warp limit at
 * 100%; fewer blocks than SMs: the bf16 run's 2 µs kernel; a tail:
 * stream_copy's 1.25 waves (the last of 2 waves 25% full, (1 − 0.25) / 2
 * = 37.5% of the slots idle) against fma_heavy's 62.06. */
static void
test_hints_launch (void)
{
  g_autoptr (WsNcuResults) probe = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  g_autoptr (WsNcuResults) bf16 = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");

  g_assert_false (has_hint (probe, 0, WS_HINT_REGISTERS, NULL));
  g_assert_true (has_hint (bf16, 8, WS_HINT_SMALL_GRID, "1 block for 132 SMs"));
  g_assert_false (has_hint (probe, 0, WS_HINT_SMALL_GRID, NULL));
  g_assert_true (has_hint (probe, 1, WS_HINT_TAIL,
                           "1.25 waves per SM: the last of 2 waves is 25% full, up to 37.5% of "
                           "the block slots idle"));
  g_assert_false (has_hint (probe, 0, WS_HINT_TAIL, NULL));
}

/* ---- gauges --format json ----------------------------------------------- */

static JsonObject *
member (JsonObject *object, const char *path)
{
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_assert_true (json_object_has_member (object, parts[i]));
      object = json_object_get_object_member (object, parts[i]);
    }
  return object;
}

/* The objects each launch gains, every figure with its source metric. */
static void
test_cli_gauges_json (void)
{
  g_autofree char *path = g_build_filename (gpt2_dir, "ncu", "Kernel2_ncu_raw.csv", NULL);
  const char *argv[] = { ws_test_cli (), "gauges", "--format", "json", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *launch;
  JsonArray *reasons;

  g_assert_cmpint (ws_test_run (argv, &out, NULL), ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  launch = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "launches"),
    0);
  /* One verdict: the gauges' is the bottleneck's. */
  g_assert_cmpstr (json_object_get_string_member (launch, "verdict"), ==, "Memory");
  g_assert_cmpstr (json_object_get_string_member (member (launch, "bottleneck"), "kind"), ==,
                   "memory");
  g_assert_cmpstr (json_object_get_string_member (member (launch, "bottleneck"), "verdict"), ==,
                   "Memory");
  g_assert_cmpstr (json_object_get_string_member (member (launch, "bottleneck"), "unit"), ==, "l1");
  g_assert_cmpstr (
    json_object_get_string_member (member (launch, "bottleneck.units_pct.l1"), "metric"), ==,
    "l1tex__throughput.avg.pct_of_peak_sustained_elapsed");
  g_assert_cmpfloat (
    json_object_get_double_member (member (launch, "bottleneck.units_pct.l1"), "value"), ==, 96.45);
  reasons = json_object_get_array_member (member (launch, "stalls"), "reasons");
  g_assert_cmpuint (json_array_get_length (reasons), ==, 19);
  g_assert_cmpstr (
    json_object_get_string_member (json_array_get_object_element (reasons, 0), "metric"), ==,
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio");
  g_assert_cmpfloat (
    json_object_get_double_member (json_array_get_object_element (reasons, 0), "value"), ==, 6.31);
  g_assert_nonnull (
    strstr (json_object_get_string_member (member (launch, "roofline.peak_flops.tensor"), "source"),
            "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32_sparsity_off"));
  g_assert_cmpstr (json_object_get_string_member (member (launch, "occupancy"), "limiter"), ==,
                   "registers");
  g_assert_cmpstr (
    json_object_get_string_member (member (launch, "occupancy.registers_per_thread"), "metric"), ==,
    "launch__registers_per_thread");
  g_assert_cmpfloat (
    json_object_get_double_member (member (launch, "memory.l1_throughput_pct"), "value"), ==,
    96.45);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (launch, "hints")), ==, 4);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  gpt2_dir = ws_test_unpack_capture ("h100_gpt2_capture.tar.xz",
                                     "out/targets-20261125-023446/GPT2__", &gpt2_tmpdir);

  g_test_add_func ("/why/stalls/gpt2-gemm/equal-csv-cells", test_stalls_gpt2_equal_cells);
  g_test_add_func ("/why/stalls/top-skips-ready-warps", test_stalls_top_skips_ready_warps);
  g_test_add_func ("/why/stalls/rtx5090-details/not-collected", test_stalls_rtx5090_not_collected);
  g_test_add_func ("/why/stalls/pascal-2019/cycles-per-issue", test_stalls_pascal_cycles);
  g_test_add_func ("/why/roofline/fma-heavy/by-hand", test_roofline_fma_heavy_by_hand);
  g_test_add_func ("/why/roofline/gpt2-gemm/by-hand", test_roofline_gpt2_gemm_by_hand);
  g_test_add_func ("/why/roofline/details-page/no-made-up-ceilings",
                   test_roofline_details_without_ceilings);
  g_test_add_func ("/why/memory/coalescing-and-bank-conflicts", test_memory_coalescing);
  g_test_add_func ("/why/occupancy/register-limited/by-hand", test_occupancy_register_limited);
  g_test_add_func ("/why/occupancy/warp-limited", test_occupancy_warp_limited);
  g_test_add_func ("/why/occupancy/rtx5090-details-page", test_occupancy_details_page);
  g_test_add_func ("/why/bottleneck/unit/memory-l1-in-the-gauges-too", test_bottleneck_unit_memory);
  g_test_add_func ("/why/bottleneck/unit/compute", test_bottleneck_unit_compute);
  g_test_add_func ("/why/bottleneck/mixed", test_bottleneck_mixed);
  g_test_add_func ("/why/bottleneck/latency", test_bottleneck_latency);
  g_test_add_func ("/why/bottleneck/too-little-work", test_bottleneck_too_little_work);
  g_test_add_func ("/why/hints/kernel-name-arch", test_kernel_name_arch);
  g_test_add_func ("/why/hints/gemm", test_hints_gemm);
  g_test_add_func ("/why/hints/uncoalesced", test_hints_uncoalesced);
  g_test_add_func ("/why/hints/bank-conflicts", test_hints_bank_conflicts);
  g_test_add_func ("/why/hints/launch", test_hints_launch);
  g_test_add_func ("/why/cli/gauges-json", test_cli_gauges_json);

  status = g_test_run ();
  ws_test_rmtree (gpt2_tmpdir);
  g_free (gpt2_tmpdir);
  g_free (gpt2_dir);
  return status;
}
