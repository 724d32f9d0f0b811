/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-gauges.h"
#include "ws-nvprof-log.h"
#include "ws-nvprof-metrics.h"
#include "ws-stalls.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* nvprof `--metrics` / `--events` results (issue 21): the raw values
 * against cells read from the files by hand (quoted beside each check),
 * every printed Avg of the V100 file against the test's own reading of
 * it, the gauges they feed, and the refusals that remain. */

#define GIB (1024.0 * 1024 * 1024)
#define MIB (1024.0 * 1024)

static char *tmpdir;

/* The V100 file, unpacked once. */
static const char *
darknet_path (void)
{
  static char *path;

  if (path == NULL)
    path = ws_test_unxz ("nvprof/v100_darknet19_metrics.txt.xz", tmpdir);
  return path;
}

static WsNcuResults *
read_metrics (const char *path)
{
  g_autoptr (GError) error = NULL;
  WsNcuResults *metrics = NULL;
  g_autoptr (GPtrArray) results = ws_nvprof_log_read (path, &metrics, &error);

  g_assert_no_error (error);
  g_assert_nonnull (results);
  g_assert_nonnull (metrics);
  return metrics;
}

static int
launch_of (const WsNcuResults *r, const char *kernel)
{
  for (guint i = 0; i < ws_ncu_results_n_launches (r); i++)
    if (g_str_equal (ws_ncu_results_launch (r, i)->kernel, kernel))
      return (int) i;
  g_error ("no launch %s", kernel);
  return -1;
}

static double
value (const WsNcuResults *r, guint launch, const char *metric)
{
  double v = NAN;

  g_assert_true (ws_ncu_results_value (r, launch, metric, &v, NULL));
  return v;
}

static const WsNcuMetric *
metric (const WsNcuResults *r, const char *name)
{
  const WsNcuMetric *m = ws_ncu_results_find_metric (r, name);

  g_assert_nonnull (m);
  return m;
}

static void
assert_close (double got, double want)
{
  g_assert_cmpfloat_with_epsilon (got, want, fabs (want) * 1e-9 + 1e-9);
}

/* Units: each form nvprof writes, converted by hand. */
static void
test_units (void)
{
  static const struct
  {
    const char *cell;
    double value;
    const char *base;
    gboolean level;
  } cells[] = {
    { "38.856GB/s", 38.856 * GIB, "byte/s", FALSE },
    { "262.42MB/s", 262.42 * MIB, "byte/s", FALSE },
    { "3.644531KB/s", 3.644531 * 1024, "byte/s", FALSE },
    { "0.00000B/s", 0, "byte/s", FALSE },
    { "1132.1GB/s", 1132.1 * GIB, "byte/s", FALSE },
    { "93.69%", 93.69, "%", FALSE },
    { "100.000000%", 100, "%", FALSE },
    { "Idle (0)", 0, "level", TRUE },
    { "Low (2)", 2, "level", TRUE },
    { "Mid (5)", 5, "level", TRUE },
    { "High (7)", 7, "level", TRUE },
    { "Max (10)", 10, "level", TRUE },
    { "422.000000", 422, "", FALSE },
    { "6144", 6144, "", FALSE },
    { "2.7080us", 2708, "ns", FALSE },
    { "159.25ms", 159250000, "ns", FALSE },
    { "610ns", 610, "ns", FALSE },
    { "1.5s", 1.5e9, "ns", FALSE },
    { "2.0000KB", 2048, "byte", FALSE },
  };
  static const char *const refused[] = { "Huge (3)", "Low (11)", "Low(2)", "12XB/s",
                                         "",         "GB/s",     "nan",    "Low (2" };

  for (gsize i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      double v;
      const char *unit, *base;
      gboolean level;

      g_test_message ("%s", cells[i].cell);
      g_assert_true (ws_nvprof_metric_value (cells[i].cell, &v, &unit, &base, &level));
      assert_close (v, cells[i].value);
      g_assert_cmpstr (base, ==, cells[i].base);
      g_assert_cmpint (level, ==, cells[i].level);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      double v;
      const char *unit, *base;

      g_test_message ("refused: %s", refused[i]);
      g_assert_false (ws_nvprof_metric_value (refused[i], &v, &unit, &base, NULL));
    }
}

/* The V100 `--metrics all` text: 16 kernels on one device of one process,
 * and cells checked by hand. */
static void
test_text_cells (void)
{
  g_autoptr (WsNcuResults) r = read_metrics (darknet_path ());
  const WsNcuLaunch *l;
  const WsNcuMetric *m;
  int norm, sgemm;

  g_assert_true (r->nvprof);
  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 16);
  norm = launch_of (r, "normalize_kernel(int, float*, float*, float*, int, int, int)");
  l = ws_ncu_results_launch (r, (guint) norm);
  /* `==22090== NVPROF is profiling process 22090, command: ./darknet classifier …`,
   * `Device "Tesla V100-PCIE-32GB (0)"`, rows starting `18`. */
  g_assert_cmpuint (l->pid, ==, 22090);
  g_assert_cmpstr (l->process, ==, "./darknet");
  g_assert_cmpstr (l->device_name, ==, "Tesla V100-PCIE-32GB");
  g_assert_cmpint (l->device, ==, 0);
  g_assert_cmpint (l->invocations, ==, 18);

  /* "sm_efficiency  Multiprocessor Activity  25.23%  98.32%  57.73%" */
  m = metric (r, "sm_efficiency");
  g_assert_cmpstr (m->description, ==, "Multiprocessor Activity");
  g_assert_cmpstr (m->base_unit, ==, "%");
  assert_close (m->values[norm], 57.73);
  assert_close (m->min[norm], 25.23);
  assert_close (m->max[norm], 98.32);
  /* "dram_utilization  Device Memory Utilization  Idle (0)  High (7)  Low (1)" */
  m = metric (r, "dram_utilization");
  g_assert_cmpstr (m->base_unit, ==, "level");
  assert_close (m->values[norm], 1);
  g_assert_cmpstr (m->text[norm], ==, "Low (1)");
  assert_close (m->min[norm], 0);
  assert_close (m->max[norm], 7);
  /* "gld_requested_throughput  …  38.856GB/s  300.71GB/s  199.64GB/s" */
  m = metric (r, "gld_requested_throughput");
  g_assert_cmpstr (m->base_unit, ==, "byte/s");
  assert_close (m->values[norm], 199.64 * GIB);
  assert_close (m->min[norm], 38.856 * GIB);
  /* "sysmem_write_throughput  …  5.4797MB/s  45.740MB/s  23.487MB/s" */
  assert_close (value (r, (guint) norm, "sysmem_write_throughput"), 23.487 * MIB);
  /* "dram_read_throughput  …  0.00000B/s  280.19GB/s  72.625GB/s" */
  m = metric (r, "dram_read_throughput");
  assert_close (m->min[norm], 0);
  assert_close (m->max[norm], 280.19 * GIB);
  /* "achieved_occupancy  Achieved Occupancy  0.240913  0.917853  0.622020" */
  assert_close (value (r, (guint) norm, "achieved_occupancy"), 0.622020);
  /* "gld_transactions  Global Load Transactions  6144  393216  61440" */
  assert_close (value (r, (guint) norm, "gld_transactions"), 61440);

  /* `Kernel: volta_sgemm_32x32_sliced1x4_nn`, 1 invocation: "dram_write_throughput
   * 262.42MB/s" (MB) and "l2_tex_read_throughput 506.74GB/s" (GB). */
  sgemm = launch_of (r, "volta_sgemm_32x32_sliced1x4_nn");
  g_assert_cmpint (ws_ncu_results_launch (r, (guint) sgemm)->invocations, ==, 1);
  assert_close (value (r, (guint) sgemm, "dram_write_throughput"), 262.42 * MIB);
  assert_close (value (r, (guint) sgemm, "l2_tex_read_throughput"), 506.74 * GIB);
  /* The last kernel's last row: "tensor_precision_fu_utilization … Idle (0)". */
  assert_close (
    value (r, (guint) launch_of (r, "copy_kernel(int, float*, int, int, float*, int, int)"),
           "tensor_precision_fu_utilization"),
    0);
}

/* The test's own reading of a printed Avg: the last column, a level when
 * it is "Word (N)". */
static double
printed_avg (char **words, guint n)
{
  const char *last = words[n - 1];
  double v;
  char *end;
  static const struct
  {
    const char *suffix;
    double scale;
  } units[] = { { "GB/s", GIB }, { "MB/s", MIB }, { "KB/s", 1024 }, { "B/s", 1 }, { "%", 1 } };

  if (last[0] == '(')
    return g_ascii_strtod (last + 1, NULL);
  v = g_ascii_strtod (last, &end);
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (end, units[i].suffix))
      return v * units[i].scale;
  g_assert_cmpstr (end, ==, "");
  return v;
}

/* Every row of the V100 file (found by the test's own scan: a count then
 * a name) is a value of its kernel's launch, equal to its printed Avg,
 * and each launch has as many metrics as its kernel has rows. */
static void
test_text_every_row (void)
{
  g_autoptr (WsNcuResults) r = read_metrics (darknet_path ());
  g_autofree char *text = ws_test_read (darknet_path ());
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  int launch = -1;
  guint rows = 0, total = 0;
  g_autoptr (GArray) per_launch = g_array_new (FALSE, TRUE, sizeof (guint));

  g_array_set_size (per_launch, ws_ncu_results_n_launches (r));
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) words = NULL;
      g_autoptr (GPtrArray) kept = g_ptr_array_new ();
      const char *kernel = strstr (lines[i], "    Kernel: ");

      if (kernel == lines[i])
        {
          launch = launch_of (r, kernel + strlen ("    Kernel: "));
          continue;
        }
      if (launch < 0 || !g_regex_match_simple ("^ +[0-9]+ +[a-z_0-9]+ ", lines[i], 0, 0))
        continue;
      words = g_strsplit (lines[i], " ", -1);
      for (guint w = 0; words[w] != NULL; w++)
        if (*words[w] != '\0')
          g_ptr_array_add (kept, words[w]);
      assert_close (value (r, (guint) launch, g_ptr_array_index (kept, 1)),
                    printed_avg ((char **) kept->pdata, kept->len));
      g_array_index (per_launch, guint, launch)++;
      rows++;
    }
  /* By hand: the file's 16 "    Kernel: " lines each head 158 metric rows
   * (lines 44 to 201 under the first), 2528 rows in all:
   *   xz -dc v100_darknet19_metrics.txt.xz | awk '/^    Kernel: /{k=1}
   *     k && /^ +[0-9]+ +[a-z_0-9]+ /{n++} END{print n}'
   * (the darknet layer table above the first kernel is not counted). */
  g_assert_cmpuint (rows, ==, 16 * 158);
  for (guint l = 0; l < ws_ncu_results_n_launches (r); l++)
    {
      guint have = 0;

      for (guint m = 0; m < r->metrics->len; m++)
        have += !isnan (((WsNcuMetric *) g_ptr_array_index (r->metrics, m))->values[l]);
      g_assert_cmpuint (have, ==, g_array_index (per_launch, guint, l));
      total += have;
    }
  g_assert_cmpuint (total, ==, rows);
}

/* The GTX 1080 Ti `--metrics all --csv`: two kernels, cells by hand. */
static void
test_csv_cells (void)
{
  g_autofree char *path = ws_test_data ("nvprof", "metrics_magus_concurrentkernels.csv", NULL);
  g_autoptr (WsNcuResults) r = read_metrics (path);
  int sum, clock;
  const WsNcuMetric *m;

  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 2);
  sum = launch_of (r, "sum(long*, int)");
  clock = launch_of (r, "clock_block(long*, long)");
  g_assert_cmpint (ws_ncu_results_launch (r, (guint) sum)->invocations, ==, 1);
  g_assert_cmpint (ws_ncu_results_launch (r, (guint) clock)->invocations, ==, 8);
  g_assert_cmpstr (ws_ncu_results_launch (r, (guint) sum)->device_name, ==, "GeForce GTX 1080 Ti");
  g_assert_cmpuint (ws_ncu_results_launch (r, (guint) sum)->pid, ==, 10129);
  /* 120 metrics per kernel: 246 lines less the five ==10129== lines and the header. */
  g_assert_cmpuint (r->metrics->len, ==, 120);
  /* "gld_requested_throughput","Requested Global Load Throughput",
   * 28.139768MB/s,28.139768MB/s,27.656555MB/s */
  assert_close (value (r, (guint) sum, "gld_requested_throughput"), 27.656555 * MIB);
  /* clock_block: "gst_throughput","Global Store Throughput",3.644531KB/s,3.644531KB/s,0.000000B/s:
   * nvprof's own Avg, kept as printed, Min and Max beside it. */
  m = metric (r, "gst_throughput");
  assert_close (m->values[clock], 0);
  assert_close (m->min[clock], 3.644531 * 1024);
  /* "dram_utilization","Device Memory Utilization","Low (1)","Low (1)","Low (1)" */
  assert_close (value (r, (guint) sum, "dram_utilization"), 1);
  g_assert_cmpstr (metric (r, "dram_utilization")->text[sum], ==, "Low (1)");
  /* "sm_activity","Multiprocessor Activity",0.912621%,… */
  assert_close (value (r, (guint) sum, "sm_activity"), 0.912621);
  /* "inst_per_warp","Instructions per warp",79.000000,… */
  assert_close (value (r, (guint) sum, "inst_per_warp"), 79);
}

static const WsGauge *
gauge (const WsNcuResults *r, int launch, WsGaugeKind kind)
{
  return &ws_ncu_results_gauges (r, (guint) launch)->gauge[kind];
}

static void
assert_gauge (const WsNcuResults *r, int launch, WsGaugeKind kind, const char *metric_name,
              double want)
{
  const WsGauge *g = gauge (r, launch, kind);

  g_test_message ("%s of launch %d", ws_gauge_csv_column (kind), launch);
  g_assert_true (g->collected);
  g_assert_cmpstr (g->metric, ==, metric_name);
  g_assert_cmpstr (g->unit, ==, "%");
  assert_close (g->value, want);
}

/* The gauges of the V100 file, loaded as the window loads it, from the
 * cells quoted above and below. */
static void
test_gauges_text (void)
{
  const char *paths[] = { darknet_path (), NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  WsNcuResults *r = run->ncu;
  int norm, sgemm32, sgemm64;

  g_assert_nonnull (r);
  g_assert_cmpstr (run->prov.kind, ==, "nvprof-metrics");
  norm = launch_of (r, "normalize_kernel(int, float*, float*, float*, int, int, int)");
  assert_gauge (r, norm, WS_GAUGE_SM, "sm_efficiency", 57.73);
  /* achieved_occupancy 0.622020 × 100 */
  assert_gauge (r, norm, WS_GAUGE_OCCUPANCY, "achieved_occupancy", 62.2020);
  /* dram_utilization "Low (1)" × 10 */
  assert_gauge (r, norm, WS_GAUGE_DRAM, "dram_utilization", 10);
  g_assert_nonnull (strstr (gauge (r, norm, WS_GAUGE_DRAM)->note, "0–10"));
  /* "flop_sp_efficiency  FLOP Efficiency(Peak Single)  0.70%  12.58%  4.48%" */
  assert_gauge (r, norm, WS_GAUGE_FP32, "flop_sp_efficiency", 4.48);
  /* "global_hit_rate  Global Hit Rate in unified l1/tex  58.75%  59.76%  58.86%" */
  assert_gauge (r, norm, WS_GAUGE_L1_HIT, "global_hit_rate", 58.86);
  /* "l2_tex_hit_rate  L2 Cache Hit Rate  50.06%  100.07%  96.71%" */
  assert_gauge (r, norm, WS_GAUGE_L2_HIT, "l2_tex_hit_rate", 96.71);
  /* "stall_sync … 0.00%", "stall_exec_dependency … 24.73%", "stall_memory_dependency … 14.83%" */
  assert_gauge (r, norm, WS_GAUGE_STALL_BARRIER, "stall_sync", 0);
  assert_gauge (r, norm, WS_GAUGE_STALL_SHORT_SCOREBOARD, "stall_exec_dependency", 24.73);
  assert_gauge (r, norm, WS_GAUGE_STALL_LONG_SCOREBOARD, "stall_memory_dependency", 14.83);
  /* "tensor_precision_fu_utilization … Idle (0)" */
  assert_gauge (r, norm, WS_GAUGE_TENSOR, "tensor_precision_fu_utilization", 0);
  /* Durations are not in metric results: said with an nvprof hint. */
  g_assert_false (gauge (r, norm, WS_GAUGE_DURATION)->collected);
  g_assert_nonnull (strstr (gauge (r, norm, WS_GAUGE_DURATION)->collect, "--print-gpu-trace"));
  /* SM 57.73 % and DRAM 10 %, both below 60: latency. */
  g_assert_cmpint (ws_ncu_results_gauges (r, (guint) norm)->verdict, ==, WS_VERDICT_LATENCY);

  /* volta_sgemm_32x32_sliced1x4_nn: dram Low (1), l2 Low (1), shared Low (1),
   * tex_utilization "Low (2)": Memory is the busiest, 20. */
  sgemm32 = launch_of (r, "volta_sgemm_32x32_sliced1x4_nn");
  assert_gauge (r, sgemm32, WS_GAUGE_MEMORY, "tex_utilization", 20);
  assert_gauge (r, sgemm32, WS_GAUGE_DRAM, "dram_utilization", 10);
  /* "sm_efficiency … 66.34%": SM 66.34 ≥ 60, the busiest, DRAM 10: compute. */
  g_assert_cmpint (ws_ncu_results_gauges (r, (guint) sgemm32)->verdict, ==, WS_VERDICT_COMPUTE);

  /* volta_sgemm_128x64_nn: dram_utilization "Mid (5)"; "flop_sp_efficiency 61.38%". */
  sgemm64 = launch_of (r, "volta_sgemm_128x64_nn");
  assert_gauge (r, sgemm64, WS_GAUGE_DRAM, "dram_utilization", 50);
  assert_gauge (r, sgemm64, WS_GAUGE_MEMORY, "dram_utilization", 50);
  assert_gauge (r, sgemm64, WS_GAUGE_FP32, "flop_sp_efficiency", 61.38);
  /* "achieved_occupancy 0.100965" */
  assert_gauge (r, sgemm64, WS_GAUGE_OCCUPANCY, "achieved_occupancy", 10.0965);
}

/* The GTX 1080 Ti CSV: nvprof 8 names the SM activity sm_activity, and
 * has no l2_tex_hit_rate: the L2 gauge is l2_tex_read_hit_rate. */
static void
test_gauges_csv (void)
{
  g_autofree char *path = ws_test_data ("nvprof", "metrics_magus_concurrentkernels.csv", NULL);
  const char *paths[] = { path, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  WsNcuResults *r = run->ncu;
  int sum = launch_of (r, "sum(long*, int)");

  /* "sm_activity",…,0.912621% */
  assert_gauge (r, sum, WS_GAUGE_SM, "sm_activity", 0.912621);
  /* "l2_tex_read_hit_rate",…,100.000000% */
  assert_gauge (r, sum, WS_GAUGE_L2_HIT, "l2_tex_read_hit_rate", 100);
  /* "global_hit_rate",…,0.000000% */
  assert_gauge (r, sum, WS_GAUGE_L1_HIT, "global_hit_rate", 0);
  /* "achieved_occupancy",…,0.015625 */
  assert_gauge (r, sum, WS_GAUGE_OCCUPANCY, "achieved_occupancy", 1.5625);
  /* "stall_sync",…,9.032258% */
  assert_gauge (r, sum, WS_GAUGE_STALL_BARRIER, "stall_sync", 9.032258);
  /* No tensor metric in nvprof 8's list: not collected, with the nvprof option. */
  g_assert_false (gauge (r, sum, WS_GAUGE_TENSOR)->collected);
  g_assert_nonnull (strstr (gauge (r, sum, WS_GAUGE_TENSOR)->collect, "--metrics tensor_"));
}

/* The event forms, written from the guide: one launch per device, the
 * Total kept beside the Avg; events are a name space of their own. */
static void
test_events (void)
{
  static const char *const files[] = { "events_written_from_guide.txt",
                                       "events_written_from_guide.csv" };

  for (gsize f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = ws_test_data ("nvprof", files[f], NULL);
      g_autoptr (WsNcuResults) r = read_metrics (path);
      const WsNcuMetric *m = ws_ncu_results_find_details_metric (r, "Events", "warps_launched");

      g_test_message ("%s", files[f]);
      g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, f == 0 ? 2 : 1);
      g_assert_nonnull (m);
      g_assert_null (ws_ncu_results_find_metric (r, "warps_launched"));
      /* "2  warps_launched  1024  3072  2048  4096" */
      assert_close (m->values[0], 2048);
      assert_close (m->min[0], 1024);
      assert_close (m->max[0], 3072);
      assert_close (m->total[0], 4096);
      g_assert_cmpint (ws_ncu_results_launch (r, 0)->invocations, ==, 2);
      g_assert_cmpstr (ws_ncu_results_launch (r, 0)->device_name, ==, "Tesla K40c");
      if (f == 0)
        {
          /* `Device "Tesla K40c (1)"`: "1  warps_launched  4096 …" */
          g_assert_cmpint (ws_ncu_results_launch (r, 1)->device, ==, 1);
          assert_close (m->values[1], 4096);
        }
    }
}

/* Two processes in one log, the first with a GPU summary, events and
 * metrics of one kernel: two launches (one per process), the summary in
 * the run beside them, an event and a metric of one name kept apart. */
static void
test_mixed (void)
{
  g_autofree char *path = ws_test_data ("nvprof", "metrics_mixed_written.txt", NULL);
  const char *paths[] = { path, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  WsNcuResults *r = run->ncu;
  const WsSummary *kern = run->summaries[WS_SUMMARY_KERN_SUM];

  g_assert_nonnull (r);
  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 2);
  g_assert_cmpuint (ws_ncu_results_launch (r, 0)->pid, ==, 5001);
  g_assert_cmpuint (ws_ncu_results_launch (r, 1)->pid, ==, 5002);
  /* "2  sm_efficiency … 85.00%"; "1  sm_efficiency … 5.00%" */
  assert_gauge (r, 0, WS_GAUGE_SM, "sm_efficiency", 85);
  assert_gauge (r, 1, WS_GAUGE_SM, "sm_efficiency", 5);
  /* "dram_utilization … High (8)  Max (10)  High (9)" */
  assert_gauge (r, 0, WS_GAUGE_DRAM, "dram_utilization", 90);
  /* The event and the metric inst_executed: "30720  92160  61440" both. */
  assert_close (value (r, 0, "inst_executed"), 61440);
  assert_close (ws_ncu_results_find_details_metric (r, "Events", "inst_executed")->total[0],
                122880);
  /* " GPU activities:  100.00%  120.00us  2  60.000us  40.000us  80.000us  saxpy(…)" */
  g_assert_nonnull (kern);
  g_assert_cmpuint (kern->rows->len, ==, 1);
  g_assert_cmpint (g_array_index (kern->rows, WsSummaryRow, 0).total, ==, 120000);
}

/* A metrics file opened with a GPU trace of the same program (magus'
 * concurrentKernels on the GTX 1080 Ti, two runs): the kernels join by
 * name, as an ncu CSV's join an nsys export's. */
static void
test_joined_with_trace (void)
{
  g_autofree char *metrics = ws_test_data ("nvprof", "metrics_magus_concurrentkernels.csv", NULL);
  g_autofree char *trace = ws_test_data ("nvprof", "gputrace_magus_concurrentkernels.csv", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { ws_test_cli (), "gauges", "--format", "csv", trace, metrics, NULL };

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  /* The last column is the nsys-side kernel the launch matched. */
  g_assert_nonnull (strstr (out, "\n0,\"sum(long*, int)\","));
  g_assert_true (g_str_has_suffix (out, ",\"clock_block(long*, long)\"\n"));
  g_assert_nonnull (strstr (out, "\"sum(long*, int)\"\n1,"));
}

/* The first @n lines of @text, each ended by a newline. */
static char *
head_lines (const char *text, guint n)
{
  const char *p = text;

  for (guint i = 0; i < n && p != NULL; i++)
    {
      p = strchr (p, '\n');
      if (p != NULL)
        p++;
    }
  g_assert_nonnull (p);
  return g_strndup (text, (gsize) (p - text));
}

/* What stays refused: one line naming the file and the problem, nothing
 * written beside it. */
static void
test_refused (void)
{
  g_autofree char *darknet = ws_test_read (darknet_path ());
  g_autofree char *head45 = head_lines (darknet, 45);
  struct
  {
    const char *name;
    char *text;
    const char *says;
  } files[] = {
    /* Up to `    Kernel: normalize_kernel(…)` (line 43), no row after it. */
    { "cut_after_kernel.txt", head_lines (darknet, 43),
      "line 43: a `Kernel:` line without metric rows" },
    /* Line 45 cut in its description: "18  branch_efficiency  Branch Effici". */
    { "cut_in_row.txt", g_strndup (head45, strlen (head45) - 41),
      "line 45: an nvprof metric row with too few values" },
    /* The `Metric result:` line and nothing after it. */
    { "cut_after_result.txt", g_strdup ("==7== Profiling result:\n==7== Metric result:\n"),
      "`Metric result:` block without its table" },
    { "row_before_kernel.txt",
      g_strdup (
        "==1== Profiling result:\n==1== Metric result:\n"
        "Invocations   Metric Name   Metric Description   Min   Max   Avg\n"
        "Device \"Tesla V100-PCIE-32GB (0)\"\n"
        "         18   sm_efficiency   Multiprocessor Activity   25.23%   98.32%   57.73%\n"),
      "line 5: an nvprof metric row before any `Kernel:` line" },
    { "csv_short_row.csv",
      g_strdup ("==1== Metric result:\n"
                "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\","
                "\"Min\",\"Max\",\"Avg\"\n"
                "\"GeForce GTX 1080 Ti (0)\",\"sum(long*, int)\",1,\"inst_per_warp\"\n"),
      "line 3: an nvprof metric row with too few or too many cells" },
    { "bad_value.txt",
      g_strdup (
        "==1== Metric result:\n"
        "Invocations   Metric Name   Metric Description   Min   Max   Avg\n"
        "Device \"Tesla V100-PCIE-32GB (0)\"\n"
        "    Kernel: k()\n"
        "         18   sm_efficiency   Multiprocessor Activity   25.23%   98.32%   57.73XB\n"),
      "line 5: Avg of sm_efficiency is “57.73XB”, not a value nvprof writes" },
    /* `nvprof --print-api-trace`: no real fixture; its header as the guide shows it. */
    { "api_trace.txt",
      g_strdup ("==2== Profiling application: ./a.out\n==2== Profiling result:\n"
                "   Start  Duration  Name\n"
                "183.85ms  5.1560us  cuDeviceGetCount\n"),
      "`--print-api-trace`" },
  };
  g_autofree char *dir = ws_test_tmpdir ();

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i].name, NULL);
      g_autofree char *out = NULL, *err = NULL;
      const char *argv[] = { ws_test_cli (), "gauges", path, NULL };
      g_autoptr (GPtrArray) before = NULL;
      g_autoptr (GPtrArray) after = NULL;

      g_test_message ("%s", files[i].name);
      g_assert_true (g_file_set_contents (path, files[i].text, -1, NULL));
      before = ws_test_list_dir (dir);
      g_assert_cmpint (ws_test_run (argv, &out, &err), !=, 0);
      g_assert_true (g_str_has_prefix (err, "warpscope-cli: "));
      g_assert_nonnull (strstr (err, path));
      g_assert_nonnull (strstr (err, files[i].says));
      g_assert_cmpstr (strchr (err, '\n') + 1, ==, "");
      after = ws_test_list_dir (dir);
      g_assert_cmpuint (after->len, ==, before->len);
      g_free (files[i].text);
    }
  ws_test_rmtree (dir);
}

/* The stall_* rows of an nvprof metrics file, read by the test: kernel →
 * (reason without stall_ → the Avg, the last cell, in %).  The text form
 * heads each kernel's rows with "    Kernel: NAME", the CSV names it in its
 * second cell. */
static GHashTable *
stall_rows (const char *path)
{
  g_autofree char *text = ws_test_read (path);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GHashTable *kernels =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  g_autofree char *kernel = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strchomp (lines[i]);
      const char *at;
      g_autofree char *reason = NULL;
      g_autofree char *cell = NULL;
      GHashTable *of;
      gboolean csv = line[0] == '"';

      if (g_str_has_prefix (line, "    Kernel: "))
        {
          g_free (kernel);
          kernel = g_strdup (line + strlen ("    Kernel: "));
          continue;
        }
      at = strstr (line, csv ? "\"stall_" : " stall_");
      if (at == NULL)
        continue;
      reason = g_strndup (at + 7, strcspn (at + 7, "\" "));
      cell = g_strdup (strrchr (line, csv ? ',' : ' ') + 1);
      g_assert_true (g_str_has_suffix (cell, "%"));
      if (csv)
        {
          /* "Device","Kernel",Invocations,"Metric Name",… */
          const char *name = strstr (line, "\",\"");

          g_assert_nonnull (name);
          name += 3;
          g_free (kernel);
          kernel = g_strndup (name, strstr (name, "\",") - name);
        }
      g_assert_nonnull (kernel);
      of = g_hash_table_lookup (kernels, kernel);
      if (of == NULL)
        {
          of = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          g_hash_table_insert (kernels, g_strdup (kernel), of);
        }
      g_hash_table_insert (of, g_steal_pointer (&reason),
                           g_memdup2 (&(double){ g_ascii_strtod (cell, NULL) }, sizeof (double)));
    }
  return kernels;
}

/* Issue 40, item 7: the verdict's words about stalls follow the file.
 * Where the file has stall_* rows (checked here, in the file), the
 * launch's stalls are those rows and no text says they were not
 * collected; where it has none, the text names nvprof's metrics. Never
 * an ncu section for nvprof data. */
static void
test_stalls_follow_the_file (void)
{
  static const struct
  {
    const char *file;
    guint with_stalls; /* kernels with stall_* rows, counted in the file by hand */
  } files[] = {
    { NULL, 16 }, /* v100_darknet19_metrics.txt.xz */
    { "metrics_magus_concurrentkernels.csv", 2 },
    { "metrics_mixed_written.txt", 0 },
  };

  for (gsize f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = files[f].file != NULL ? ws_test_data ("nvprof", files[f].file, NULL)
                                                    : g_strdup (darknet_path ());
      const char *paths[] = { path, NULL };
      g_autoptr (WsRun) run = ws_test_load_paths (paths);
      g_autoptr (GHashTable) rows = stall_rows (path);
      WsNcuResults *r = run->ncu;
      guint latency = 0;

      g_test_message ("%s", path);
      g_assert_cmpuint (g_hash_table_size (rows), ==, files[f].with_stalls);
      for (guint l = 0; l < ws_ncu_results_n_launches (r); l++)
        {
          const WsNcuLaunch *launch = ws_ncu_results_launch (r, l);
          const WsGauges *g = ws_ncu_results_gauges (r, l);
          GHashTable *want = g_hash_table_lookup (rows, launch->kernel);
          g_autoptr (WsStalls) stalls = ws_stalls_compute (r, l);
          const WsStall *top = ws_stalls_top (stalls);

          g_test_message ("%s: %s", launch->kernel, g->verdict_reason);
          g_assert_null (strstr (g->verdict_reason, "--section"));
          g_assert_null (strstr (g->verdict_reason, "WarpStateStats"));
          g_assert_null (strstr (stalls->collect, "--section"));
          g_assert_null (strstr (g->sol_reason, "--section"));
          for (int k = 0; k < WS_N_GAUGES; k++)
            g_assert_true (g->gauge[k].collected || g->gauge[k].collect == NULL ||
                           strstr (g->gauge[k].collect, "--section") == NULL);
          if (want == NULL)
            {
              g_assert_cmpuint (stalls->n_collected, ==, 0);
              g_assert_null (top);
              if (g->verdict == WS_VERDICT_LATENCY)
                g_assert_nonnull (
                  strstr (g->verdict_reason, "stall reasons not collected (--metrics stall_"));
              continue;
            }
          {
            GHashTableIter it;
            gpointer key, value;
            double max = -1;
            g_autofree char *top_text = NULL;

            /* Every row is a stall, and the largest that is not
             * not_selected (ready, another warp issued) is the top. */
            g_assert_cmpuint (stalls->n_collected, ==, g_hash_table_size (want));
            g_assert_cmpuint (stalls->stalls->len, ==, stalls->n_collected);
            g_assert_cmpint (stalls->form, ==, WS_STALL_FORM_NVPROF);
            g_hash_table_iter_init (&it, want);
            while (g_hash_table_iter_next (&it, &key, &value))
              {
                const WsStall *s = ws_stalls_find (stalls, key);

                g_assert_nonnull (s);
                assert_close (s->value, *(double *) value);
                if (!g_str_equal (key, "not_selected"))
                  max = MAX (max, *(double *) value);
              }
            g_assert_nonnull (top);
            assert_close (top->value, max);
            g_assert_null (strstr (g->verdict_reason, "not collected"));
            top_text = g_strdup_printf ("top stall %s (", top->reason);
            if (g->verdict == WS_VERDICT_LATENCY)
              {
                g_assert_nonnull (strstr (g->verdict_reason, top_text));
                latency++;
              }
          }
        }
      /* The V100's normalize_kernel is latency-bound ("SM 57.73%"): its
       * reason names its top stall, stall_exec_dependency 24.73%. */
      if (files[f].file == NULL)
        g_assert_cmpuint (latency, >, 0);
    }
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = ws_test_tmpdir ();
  g_test_add_func ("/nvprof-metrics/units", test_units);
  g_test_add_func ("/nvprof-metrics/text/cells", test_text_cells);
  g_test_add_func ("/nvprof-metrics/text/every-row", test_text_every_row);
  g_test_add_func ("/nvprof-metrics/csv/cells", test_csv_cells);
  g_test_add_func ("/nvprof-metrics/gauges/text", test_gauges_text);
  g_test_add_func ("/nvprof-metrics/gauges/csv", test_gauges_csv);
  g_test_add_func ("/nvprof-metrics/events", test_events);
  g_test_add_func ("/nvprof-metrics/stalls-follow-the-file", test_stalls_follow_the_file);
  g_test_add_func ("/nvprof-metrics/mixed-processes-and-summary", test_mixed);
  g_test_add_func ("/nvprof-metrics/joined-with-gpu-trace", test_joined_with_trace);
  g_test_add_func ("/nvprof-metrics/refused", test_refused);
  rc = g_test_run ();
  ws_test_rmtree (tmpdir);
  g_free (tmpdir);
  return rc;
}
