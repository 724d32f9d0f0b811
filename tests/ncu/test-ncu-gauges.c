/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-ncu-reader.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

static const WsGauge *
gauge (const WsNcuResults *r, guint launch, WsGaugeKind kind)
{
  return &ws_ncu_results_gauges (r, launch)->gauge[kind];
}

/* The bf16 GEMM's tensor pipe is busy 95.399873% of its active cycles
 * (sm__pipe_tensor_cycles_active), while tensor instructions take only
 * 2.981246% of the issue slots (sm__inst_executed_pipe_tensor_op_hmma):
 * the gauge must read the pipe. */
static void
test_tensor_reads_pipe_cycles (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");
  const WsGauge *tensor = gauge (r, 1, WS_GAUGE_TENSOR);

  g_assert_cmpstr (ws_ncu_results_launch (r, 1)->kernel, ==,
                   "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT");
  g_assert_true (tensor->collected);
  g_assert_cmpfloat_with_epsilon (tensor->value, 95.399873, 1e-9);
  g_assert_cmpstr (tensor->metric, ==,
                   "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active");
  /* The other two GEMM launches: "95.447409" and "95.913926". */
  g_assert_cmpfloat_with_epsilon (gauge (r, 4, WS_GAUGE_TENSOR)->value, 95.447409, 1e-9);
  g_assert_cmpfloat_with_epsilon (gauge (r, 13, WS_GAUGE_TENSOR)->value, 95.913926, 1e-9);
  /* FP32 pipe: "0.414955" */
  g_assert_cmpfloat_with_epsilon (gauge (r, 1, WS_GAUGE_FP32)->value, 0.414955, 1e-9);
  g_assert_cmpint (ws_ncu_results_gauges (r, 1)->verdict, ==, WS_VERDICT_COMPUTE);
}

/* probe.cu's kernels are written to be bound one way each; the cells of
 * h100_probe_full_raw.csv (launches 0–3) say, in % of peak:
 *   fma_heavy      issue 97.828073  L1 3.113132   L2 9.753968   DRAM 8.722478
 *   stream_copy    issue 2.851456   L1 24.700242  L2 75.829297  DRAM 75.023901
 *   strided_read   issue 7.028654   L1 13.020445  L2 92.775735  DRAM 83.222345
 *   barrier_heavy  issue 40.157671  L1 89.906975  L2 6.798794   DRAM 5.923845
 * (sm__inst_issued, l1tex__, lts__, gpu__dram_throughput) and SM 97.828073,
 * 5.485787, 7.028654, 87.648050: the busiest unit, ≥ 60, decides
 * (ws_bottleneck_compute()), so barrier_heavy, whose SM throughput is its
 * L1/shared traffic, is memory-bound: the verdict the Why page gives. */
static void
test_probe_verdicts (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw.csv");
  static const struct
  {
    const char *kernel;
    WsVerdict verdict;
    const char *reason;
    WsSolVerdict sol;
    const char *sol_reason;
  } expected[] = {
    { "fma_heavy(float *, int, int)", WS_VERDICT_COMPUTE,
      "Instruction issue 97.83% ≥ 60% of peak, the busiest unit; busiest on the other side: L2 "
      "9.75%",
      WS_SOL_HIGH_THROUGHPUT, "SM 97.83% ≥ 80%" },
    /* 75.023901 − 5.485787 = 69.538114 points */
    { "stream_copy(const float4 *, float4 *, int)", WS_VERDICT_MEMORY,
      "L2 75.83% ≥ 60% of peak, the busiest unit (DRAM 75.02%); busiest on the other side: "
      "Instruction issue 2.85%",
      WS_SOL_MEMORY_DOMINATED, "Memory 75.02% is 69.54 points above SM 5.49% (≥ 10)" },
    { "strided_read(const float *, float *, int, int)", WS_VERDICT_MEMORY,
      "L2 92.78% ≥ 60% of peak, the busiest unit (DRAM 83.22%); busiest on the other side: "
      "Instruction issue 7.03%",
      WS_SOL_HIGH_THROUGHPUT, "Memory 83.22% ≥ 80%" },
    { "barrier_heavy(float *, int)", WS_VERDICT_MEMORY,
      "L1/shared memory 89.91% ≥ 60% of peak, the busiest unit; shared-memory wavefronts 88.12%; "
      "busiest on the other side: Instruction issue 40.16%",
      WS_SOL_HIGH_THROUGHPUT, "SM 87.65% and Memory 89.91% ≥ 80%" },
  };

  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      const WsGauges *g = ws_ncu_results_gauges (r, i);
      guint e = i % 4; /* the second four launches repeat the first */

      g_assert_cmpstr (ws_ncu_results_launch (r, i)->kernel, ==, expected[e].kernel);
      g_assert_cmpint (g->verdict, ==, expected[e].verdict);
      g_assert_cmpint (g->sol, ==, expected[e].sol);
      if (i < 4)
        {
          g_assert_cmpstr (g->verdict_reason, ==, expected[e].reason);
          g_assert_cmpstr (g->sol_reason, ==, expected[e].sol_reason);
        }
    }

  /* Gauges and where they came from (cells of launch 0 and 3). */
  g_assert_cmpfloat_with_epsilon (gauge (r, 0, WS_GAUGE_DURATION)->value, 381792, 1e-6);
  g_assert_cmpstr (gauge (r, 0, WS_GAUGE_DURATION)->metric, ==, "gpu__time_duration.sum");
  g_assert_cmpfloat_with_epsilon (gauge (r, 0, WS_GAUGE_L1_HIT)->value, 49.834824, 1e-9);
  g_assert_cmpfloat_with_epsilon (gauge (r, 0, WS_GAUGE_L2_HIT)->value, 50.718094, 1e-9);
  g_assert_cmpfloat_with_epsilon (gauge (r, 0, WS_GAUGE_OCCUPANCY)->value, 96.058017, 1e-9);
  /* fma_heavy's FP32 pipe: "84.988201" */
  g_assert_cmpfloat_with_epsilon (gauge (r, 0, WS_GAUGE_FP32)->value, 84.988201, 1e-9);
  g_assert_cmpstr (gauge (r, 0, WS_GAUGE_FP32)->metric, ==,
                   "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active");
  /* barrier_heavy: "12.672462" warps stalled at a barrier per issue, of
   * "38.546751" warp cycles per issued instruction. */
  g_assert_cmpfloat_with_epsilon (gauge (r, 3, WS_GAUGE_STALL_BARRIER)->value, 12.672462, 1e-9);
  g_assert_cmpstr (gauge (r, 3, WS_GAUGE_STALL_BARRIER)->unit, ==, "warps/issue");
  g_assert_cmpfloat_with_epsilon (ws_ncu_results_gauges (r, 3)->issue_cycles, 38.546751, 1e-9);
  /* stream_copy waits on memory: long scoreboard "398.796229" */
  g_assert_cmpfloat_with_epsilon (gauge (r, 1, WS_GAUGE_STALL_LONG_SCOREBOARD)->value, 398.796229,
                                  1e-9);
}

/* The same report's details page, from the display names ("Compute (SM)
 * Throughput"), and says that pipes and stalls are only on the raw page.
 * Without the instruction-issue figure of the raw page, barrier_heavy's
 * SM as a whole ("87.65") stands against L1 ("90.75"), 3.10 points apart:
 * mixed, where the raw page names L1. */
static void
test_details_page (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_details.csv");
  const WsGauge *duration = gauge (r, 0, WS_GAUGE_DURATION);
  const WsGauge *tensor = gauge (r, 0, WS_GAUGE_TENSOR);
  const WsGauge *stall = gauge (r, 0, WS_GAUGE_STALL_BARRIER);
  g_autofree char *text = ws_gauge_not_collected_text (tensor);

  g_assert_cmpint (ws_ncu_results_gauges (r, 0)->verdict, ==, WS_VERDICT_COMPUTE);
  g_assert_cmpint (ws_ncu_results_gauges (r, 1)->verdict, ==, WS_VERDICT_MEMORY);
  g_assert_cmpint (ws_ncu_results_gauges (r, 2)->verdict, ==, WS_VERDICT_MEMORY);
  g_assert_cmpint (ws_ncu_results_gauges (r, 3)->verdict, ==, WS_VERDICT_MIXED);
  /* "Duration" "us" "381.79" */
  g_assert_cmpfloat_with_epsilon (duration->value, 381790, 1e-6);
  g_assert_cmpstr (duration->metric, ==, "gpu__time_duration.sum");
  g_assert_cmpstr (duration->column, ==, "Duration");
  g_assert_cmpstr (ws_ncu_results_gauges (r, 0)->verdict_reason, ==,
                   "SM 97.83% ≥ 60% of peak, the busiest unit; busiest on the other side: L2 "
                   "9.75%");

  g_assert_false (tensor->collected);
  g_assert_null (tensor->metric);
  g_assert_cmpstr (text, ==, "not collected (--section ComputeWorkloadAnalysis --page raw)");
  g_assert_false (stall->collected);
  g_assert_cmpstr (stall->collect, ==, "--section WarpStateStats --page raw");
}

/* A metric that was not collected is never a zero, and no verdict rests on it. */
static void
test_not_collected (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_instances_values.csv");
  const WsGauges *g = ws_ncu_results_gauges (r, 0);
  g_autofree char *dram = ws_gauge_not_collected_text (&g->gauge[WS_GAUGE_DRAM]);
  g_autofree char *l1 = ws_gauge_not_collected_text (&g->gauge[WS_GAUGE_L1_HIT]);
  g_autofree char *occ = ws_gauge_not_collected_text (&g->gauge[WS_GAUGE_OCCUPANCY]);
  g_autofree char *stall = ws_gauge_not_collected_text (&g->gauge[WS_GAUGE_STALL_LONG_SCOREBOARD]);

  /* The file has only gpu__time_duration.sum, sm__throughput and a PC sampling counter. */
  g_assert_true (g->gauge[WS_GAUGE_SM].collected);
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_SM].value, 97.828073, 1e-9);
  g_assert_false (g->gauge[WS_GAUGE_DRAM].collected);
  g_assert_true (isnan (ws_gauge_fraction (&g->gauge[WS_GAUGE_DRAM])));
  g_assert_null (ws_gauge_format_value (&g->gauge[WS_GAUGE_DRAM]));
  g_assert_cmpstr (dram, ==, "not collected (--section SpeedOfLight)");
  g_assert_cmpstr (l1, ==, "not collected (--section MemoryWorkloadAnalysis)");
  g_assert_cmpstr (occ, ==, "not collected (--section Occupancy)");
  g_assert_cmpstr (stall, ==, "not collected (--section WarpStateStats)");
  /* SM 97.83% alone would read "Compute" if DRAM were taken as 0. */
  g_assert_cmpint (g->verdict, ==, WS_VERDICT_UNKNOWN);
  g_assert_cmpstr (g->verdict_reason, ==,
                   "SM 97.83%, but no memory unit's throughput was collected (--section "
                   "SpeedOfLight)");
  g_assert_cmpint (g->sol, ==, WS_SOL_UNKNOWN);
}

/* torch launch 2 (GELU, vectorized_elementwise_kernel<8>): instruction
 * issue 69.424664 (sm__inst_issued) and L2 69.729… (lts__throughput), both
 * ≥ 60 and 0.30 points apart → Mixed.
 * SOL: Memory 64.237388 is 5.187276 points from SM: balanced.
 * Launch 8 (FillFunctor): SM 0.009031, Memory 13.694115, 0.00 waves per SM. */
static void
test_latency_and_small_grid (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_torch_nvtx_sections_raw.csv");
  const WsGauges *gelu = ws_ncu_results_gauges (r, 2);
  const WsGauges *fill = ws_ncu_results_gauges (r, 8);

  g_assert_cmpint (gelu->verdict, ==, WS_VERDICT_MIXED);
  g_assert_cmpstr (gelu->verdict_reason, ==,
                   "Instruction issue 69.42% and L2 69.73% are both ≥ 60% of peak, 0.30 points "
                   "apart (< 10)");
  /* Too little work is a latency verdict. */
  g_assert_cmpint (fill->verdict, ==, WS_VERDICT_LATENCY);
  g_assert_cmpint (gelu->sol, ==, WS_SOL_BALANCED);
  g_assert_cmpstr (gelu->sol_reason, ==,
                   "SM 69.42% and Memory 64.24% are 5.19 points apart (< 10)");

  g_assert_cmpint (fill->sol, ==, WS_SOL_SMALL_GRID);
  g_assert_cmpstr (fill->sol_reason, ==,
                   "SM 0.01% and Memory 13.69% < 60% with 0.00 waves per SM < 1");
}

/* b200: SM 23.59, DRAM 0.74 (SOL section), no memory workload section:
 * every unit below 60 with 1.89 waves → Latency (the workflow's rule said
 * Mixed).  SOL: SM 23.59 and Memory 21.68 < 60 with 1.89 waves → latency.
 * A details page lists no stall reasons: the reason says what collects
 * them as the stall tab does (issue 40, item 7). */
static void
test_mixed (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("b200_superbench_cublaslt_full_details.log");
  const WsGauges *g = ws_ncu_results_gauges (r, 0);

  g_assert_cmpint (g->verdict, ==, WS_VERDICT_LATENCY);
  g_assert_cmpstr (g->verdict_reason, ==,
                   "every unit < 60% of peak (busiest: SM 23.59%); stall reasons not collected "
                   "(--section WarpStateStats --page raw)");
  g_assert_cmpint (g->sol, ==, WS_SOL_LATENCY);
  g_assert_cmpstr (g->sol_reason, ==, "SM 23.59% and Memory 21.68% < 60% with 1.89 waves per SM");
  /* "Achieved Occupancy" "15.53" */
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_OCCUPANCY].value, 15.53, 1e-9);
  g_assert_cmpstr (g->gauge[WS_GAUGE_OCCUPANCY].column, ==, "Achieved Occupancy");
}

/* Pascal (2019): the legacy names feed the gauges; a GTX 1080 (CC 6.1,
 * from device__attribute_compute_capability_major/minor) has no Tensor Cores. */
static void
test_pascal_legacy (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("gtx1080_microgpusim_raw_2019.csv");
  const WsGauges *g = ws_ncu_results_gauges (r, 0);
  g_autofree char *tensor = ws_gauge_not_collected_text (&g->gauge[WS_GAUGE_TENSOR]);

  /* "2,720.00" nsecond, "0.09", "3.01", "1.67", "0.00", "30.77", "28.30", "4.27" */
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_DURATION].value, 2720, 1e-9);
  g_assert_cmpstr (g->gauge[WS_GAUGE_DURATION].metric, ==, "gpu__time_duration");
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_SM].value, 0.09, 1e-9);
  g_assert_cmpstr (g->gauge[WS_GAUGE_SM].metric, ==, "sm__sol_pct");
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_MEMORY].value, 3.01, 1e-9);
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_DRAM].value, 1.67, 1e-9);
  g_assert_cmpstr (g->gauge[WS_GAUGE_DRAM].metric, ==, "fbpa__sol_pct");
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_L1_HIT].value, 0, 1e-9);
  g_assert_true (g->gauge[WS_GAUGE_L1_HIT].collected);
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_L2_HIT].value, 30.77, 1e-9);
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_OCCUPANCY].value, 28.30, 1e-9);
  g_assert_cmpfloat_with_epsilon (g->gauge[WS_GAUGE_STALL_SHORT_SCOREBOARD].value, 4.27, 1e-9);
  g_assert_false (g->gauge[WS_GAUGE_TENSOR].collected);
  g_assert_cmpstr (tensor, ==, "no Tensor Cores before compute capability 7.0");
  g_assert_cmpint (g->verdict, ==, WS_VERDICT_LATENCY);
  g_assert_cmpstr (
    g->verdict_reason, ==,
    "0.03 waves per SM < 1: the grid leaves SMs idle (SM 0.09%, Memory 3.01% < 60%)");
  g_assert_cmpint (g->sol, ==, WS_SOL_SMALL_GRID);
}

static char **
split_csv_line (const char *line)
{
  /* The test's own lines have no quoted commas except the reason, last. */
  return g_strsplit (line, ",", 16);
}

static void
test_cli_csv (void)
{
  g_autofree char *path = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  const char *argv[] = { ws_test_cli (), "gauges", "--format", "csv", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) lines = NULL;
  g_auto (GStrv) row0 = NULL;
  g_auto (GStrv) row1 = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==,
                   "id,kernel,duration_ns,sm_pct,memory_pct,dram_pct,tensor_pct,fp32_pct,"
                   "l1_hit_pct,l2_hit_pct,occupancy_pct,stall_barrier,stall_short_scoreboard,"
                   "stall_long_scoreboard,verdict,verdict_reason,nsys_kernel");
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 8 + 1);
  /* The kernel name holds commas: quoted. */
  g_assert_true (g_str_has_prefix (lines[1], "0,\"fma_heavy(float *, int, int)\","));
  row0 = split_csv_line (strchr (lines[1], ')') + 3);
  /* Cells of launch 0, in base units as ncu wrote them: 381.792000 us,
   * 97.828073, 8.722478, 8.722478, tensor 0.329415, fp32 84.988201,
   * 49.834824, 50.718094, 96.058017, stalls 0.000000, 0.086923, 0.542398 */
  g_assert_cmpstr (row0[0], ==, "381792");
  g_assert_cmpstr (row0[1], ==, "97.828073");
  g_assert_cmpstr (row0[2], ==, "8.722478");
  g_assert_cmpstr (row0[3], ==, "8.722478");
  g_assert_cmpstr (row0[4], ==, "0.329415");
  g_assert_cmpstr (row0[5], ==, "84.988201");
  g_assert_cmpstr (row0[6], ==, "49.834824");
  g_assert_cmpstr (row0[7], ==, "50.718094");
  g_assert_cmpstr (row0[8], ==, "96.058017");
  g_assert_cmpstr (row0[9], ==, "0");
  g_assert_cmpstr (row0[10], ==, "0.086923");
  g_assert_cmpstr (row0[11], ==, "0.542398");
  g_assert_cmpstr (row0[12], ==, "Compute");
  /* The reason, quoted for its commas; no nsys export given: no nsys kernel. */
  g_assert_true (g_str_has_suffix (lines[1], ",Compute,\"Instruction issue 97.83% ≥ 60% of peak, "
                                             "the busiest unit; busiest on the other side: L2 "
                                             "9.75%\","));

  /* Not collected: empty cells, never 0. */
  {
    g_autofree char *details = ws_test_data ("ncu", "h100_probe_full_details.csv", NULL);
    const char *argv2[] = { ws_test_cli (), "gauges", "--format", "csv", details, NULL };
    g_autofree char *out2 = NULL;
    g_autofree char *err2 = NULL;
    g_auto (GStrv) lines2 = NULL;

    g_assert_cmpint (ws_test_run (argv2, &out2, &err2), ==, 0);
    lines2 = g_strsplit (out2, "\n", -1);
    row1 = split_csv_line (strchr (lines2[2], ')') + 3);
    /* stream_copy: "46.05" us, SM "5.49", Memory "75.02", DRAM "75.02", no
     * tensor or fp32, L1 "0", L2 "51.03", occupancy "85.97", no stalls. */
    g_assert_cmpstr (row1[0], ==, "46050");
    g_assert_cmpstr (row1[1], ==, "5.49");
    g_assert_cmpstr (row1[4], ==, "");
    g_assert_cmpstr (row1[5], ==, "");
    g_assert_cmpstr (row1[6], ==, "0");
    g_assert_cmpstr (row1[7], ==, "51.03");
    g_assert_cmpstr (row1[9], ==, "");
    g_assert_cmpstr (row1[11], ==, "");
    g_assert_cmpstr (row1[12], ==, "Memory");
  }
}

static void
test_cli_errors_only (void)
{
  g_autofree char *path = ws_test_data ("ncu", "rtx5090_llmperf_raw_errors_only.csv", NULL);
  const char *argv[] = { ws_test_cli (), "gauges", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = g_strdup_printf (
    "warpscope-cli: %s: Nsight Compute exported no results, only an error: Option '--section "
    ".*SpeedOfLight.*' did not match any section.\n",
    path);

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 2);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpstr (err, ==, expected);
}

/* A folder: the ncu CSVs below it are read; the error-only export is
 * skipped with a line on stderr. */
static void
test_cli_folder_json (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *ncu_dir = g_build_filename (dir, "grp", "probe", "ncu", NULL);
  g_autofree char *src = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *bad = ws_test_data ("ncu", "rtx5090_llmperf_raw_errors_only.csv", NULL);
  g_autofree char *dst = g_build_filename (ncu_dir, "probe_ncu_raw.csv", NULL);
  g_autofree char *dst_bad = g_build_filename (ncu_dir, "other_ncu_raw.csv", NULL);
  g_autofree char *data = NULL;
  g_autofree char *bad_data = NULL;
  const char *argv[] = { ws_test_cli (), "gauges", "--format", "json", dir, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *launches;
  JsonObject *l3;
  JsonObject *tensor;

  g_assert_cmpint (g_mkdir_with_parents (ncu_dir, 0700), ==, 0);
  g_assert_true (g_file_get_contents (src, &data, NULL, NULL));
  g_assert_true (g_file_set_contents (dst, data, -1, NULL));
  g_assert_true (g_file_get_contents (bad, &bad_data, NULL, NULL));
  g_assert_true (g_file_set_contents (dst_bad, bad_data, -1, NULL));

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_nonnull (strstr (err, "skipped"));
  g_assert_nonnull (strstr (err, "other_ncu_raw.csv"));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  launches =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "launches");
  g_assert_cmpuint (json_array_get_length (launches), ==, 8);
  l3 = json_array_get_object_element (launches, 3);
  g_assert_cmpstr (json_object_get_string_member (l3, "kernel"), ==, "barrier_heavy(float *, int)");
  /* l1tex__throughput "89.906975", the busiest unit */
  g_assert_cmpstr (json_object_get_string_member (l3, "verdict"), ==, "Memory");
  g_assert_cmpstr (json_object_get_string_member (l3, "sol_verdict"), ==, "high-throughput");
  tensor =
    json_object_get_object_member (json_object_get_object_member (l3, "gauges"), "tensor_pct");
  /* "0.226721" */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (tensor, "value"), 0.226721, 1e-9);
  g_assert_cmpstr (json_object_get_string_member (tensor, "metric"), ==,
                   "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active");
  ws_test_rmtree (dir);
}

/* Every number the JSON outputs print is the shortest decimal that reads
 * back to its double: one with 16 or 17 significant digits must need them
 * (printf's %.15g of it reads back to another double), where json-glib
 * printed 17 always (97.829999999999998).  And a gauge read from a cell
 * prints as the cell: SM of launch 0 of the base-units export is "97.83". */
static guint
count_long_numbers (const char *json, guint *numbers)
{
  g_autoptr (GRegex) number = g_regex_new (" : (-?[0-9][0-9.eE+-]*)", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  guint needless = 0;

  for (g_regex_match (number, json, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *text = g_match_info_fetch (match, 1);
      double value = g_ascii_strtod (text, NULL);
      char shorter[64];
      guint digits = 0;

      /* Significant digits: leading zeros ("0.0188…") are not. */
      (*numbers)++;
      for (const char *p = text; *p != '\0' && *p != 'e' && *p != 'E'; p++)
        digits += g_ascii_isdigit (*p) && (digits > 0 || *p != '0');
      g_ascii_formatd (shorter, sizeof shorter, "%.15g", value);
      if (digits >= 16 && g_ascii_strtod (shorter, NULL) == value)
        {
          if (needless++ < 3)
            g_test_message ("%s could be %s", text, shorter);
        }
    }
  return needless;
}

/* `gauges --format json` prints each Duration as the cell's decimal text
 * in ns: "129.02" us is 129020, shifted here as text, not multiplied. */
static void
test_cli_json_durations_exact (void)
{
  g_autofree char *path = ws_test_data ("ncu", "h100_torch_nvtx_sections_details.csv", NULL);
  g_autofree char *csv = ws_test_read (path);
  const char *argv[] = { ws_test_cli (), "gauges", "--format", "json", path, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GRegex) cell =
    g_regex_new ("^\"([0-9]+)\",.*\"Duration\",\"us\",\"([0-9]+)\\.([0-9]*)\"",
                 G_REGEX_MULTILINE | G_REGEX_UNGREEDY, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *launches;
  guint checked = 0;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  launches =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "launches");
  for (g_regex_match (cell, csv, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *id = g_match_info_fetch (match, 1);
      g_autofree char *whole = g_match_info_fetch (match, 2);
      g_autofree char *frac = g_match_info_fetch (match, 3);
      g_autofree char *ns_text = NULL;
      JsonObject *launch;
      JsonObject *duration;

      /* Three decimals of us are whole ns: "129.02" → "129" "020". */
      g_assert_cmpuint (strlen (frac), <=, 3);
      ns_text = g_strdup_printf ("%s%s%.*s", whole, frac, (int) (3 - strlen (frac)), "000");
      launch = json_array_get_object_element (launches, (guint) g_ascii_strtoull (id, NULL, 10));
      duration = json_object_get_object_member (json_object_get_object_member (launch, "gauges"),
                                                "duration_ns");
      g_assert_cmpfloat (json_object_get_double_member (duration, "value"), ==,
                         (double) g_ascii_strtoll (ns_text, NULL, 10));
      checked++;
    }
  g_assert_cmpuint (checked, ==, 16);
}

static void
test_cli_json_numbers_shortest (void)
{
  static const char *const files[] = { "h100_probe_full_raw_base_units.csv",
                                       "h100_probe_full_raw.csv",
                                       "h100_train_bf16_sections_raw.csv",
                                       "h100_probe_full_details.csv",
                                       "gtx1080_microgpusim_raw_2019.csv" };
  guint needless = 0, numbers = 0;

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = ws_test_data ("ncu", files[f], NULL);
      const char *argv[] = { ws_test_cli (), "gauges", "--format", "json", path, NULL };
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
      needless += count_long_numbers (out, &numbers);
      if (f == 0)
        g_assert_nonnull (strstr (out, "\"sm_pct\" : {\n          \"value\" : 97.83,"));
    }
  {
    g_autofree char *probe = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
    const char *info[] = { ws_test_cli (), "info", "--format", "json", probe, NULL };
    const char *diagnose[] = { ws_test_cli (), "diagnose", "--format", "json", probe, NULL };
    g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

    g_assert_cmpint (ws_test_run (info, &out, &err), ==, 0);
    g_assert_cmpint (ws_test_run (diagnose, &out2, &err2), ==, 0);
    needless += count_long_numbers (out, &numbers) + count_long_numbers (out2, &numbers);
  }
  g_test_message ("%u numbers, %u with more digits than they need", numbers, needless);
  g_assert_cmpuint (numbers, >, 500);
  g_assert_cmpuint (needless, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ncu-gauges/tensor/reads-pipe-cycles", test_tensor_reads_pipe_cycles);
  g_test_add_func ("/ncu-gauges/verdict/probe-kernels", test_probe_verdicts);
  g_test_add_func ("/ncu-gauges/details-page/display-names", test_details_page);
  g_test_add_func ("/ncu-gauges/not-collected/never-zero", test_not_collected);
  g_test_add_func ("/ncu-gauges/verdict/latency-and-small-grid", test_latency_and_small_grid);
  g_test_add_func ("/ncu-gauges/verdict/mixed", test_mixed);
  g_test_add_func ("/ncu-gauges/pascal/legacy-names", test_pascal_legacy);
  g_test_add_func ("/ncu-gauges/cli/csv", test_cli_csv);
  g_test_add_func ("/ncu-gauges/cli/errors-only-export", test_cli_errors_only);
  g_test_add_func ("/ncu-gauges/cli/folder-json", test_cli_folder_json);
  g_test_add_func ("/ncu-gauges/cli/json-numbers-shortest", test_cli_json_numbers_shortest);
  g_test_add_func ("/ncu-gauges/cli/json-durations-exact", test_cli_json_durations_exact);

  return g_test_run ();
}
