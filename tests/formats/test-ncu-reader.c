/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ws-error.h"
#include "ws-ncu-reader.h"
#include "ws-reader-error.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* The value of a raw metric, read from a raw column or a details row. */
static double
value (const WsNcuResults *results, guint launch, const char *metric)
{
  double v = NAN;

  g_assert_true (ws_ncu_results_value (results, launch, metric, &v, NULL));
  return v;
}

static double
details_value (const WsNcuResults *results, guint launch, const char *section, const char *name)
{
  const WsNcuMetric *m = ws_ncu_results_find_details_metric (results, section, name);

  g_assert_nonnull (m);
  g_assert_cmpuint (launch, <, m->n_alloc);
  return m->values[launch];
}

#define SOL "GPU Speed Of Light Throughput"

/* Every expected number below is a cell of the fixture, copied by hand,
 * times the factor of its unit as written in the comment. */

static void
test_probe_raw_auto_units (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw.csv");
  const WsNcuMetric *m;

  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 8);
  g_assert_cmpstr (ws_ncu_results_launch (r, 0)->kernel, ==, "fma_heavy(float *, int, int)");
  g_assert_cmpstr (ws_ncu_results_launch (r, 3)->kernel, ==, "barrier_heavy(float *, int)");
  g_assert_cmpstr (ws_ncu_results_launch (r, 0)->block, ==, "(256, 1, 1)");
  g_assert_cmpstr (ws_ncu_results_launch (r, 0)->grid, ==, "(65536, 1, 1)");
  g_assert_cmpstr (ws_ncu_results_launch (r, 0)->cc, ==, "9.0");
  g_assert_cmpuint (ws_ncu_results_launch (r, 0)->pid, ==, 980);
  g_assert_cmpstr (ws_ncu_results_launch (r, 0)->process, ==, "probe");
  g_assert_cmpint (ws_ncu_results_launch (r, 5)->id, ==, 5);

  /* "381.792000" us = 381,792 ns */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "gpu__time_duration.sum"), 381792, 1e-6);
  m = ws_ncu_results_find_metric (r, "gpu__time_duration.sum");
  g_assert_cmpstr (m->unit, ==, "us");
  g_assert_cmpstr (m->base_unit, ==, "ns");
  /* "0.067115" Gbyte = 67,115,000 bytes (decimal prefixes) */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "dram__bytes_read.sum"), 67115000, 1e-3);
  g_assert_cmpstr (ws_ncu_results_find_metric (r, "dram__bytes_read.sum")->base_unit, ==, "byte");
  /* "1.589052" Ghz = 1,589,052,000 Hz */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "gpc__cycles_elapsed.avg.per_second"), 1589052000,
                                  1e-3);
  g_assert_cmpstr (ws_ncu_results_find_metric (r, "gpc__cycles_elapsed.avg.per_second")->base_unit,
                   ==, "Hz");
  /* "0.078989" Tbyte/s = 78,989,000,000 byte/s */
  g_assert_cmpfloat_with_epsilon (value (r, 3, "dram__bytes_write.sum.per_second"), 78989000000, 1);
  /* "43.640911" sector/ns = 43,640,911,000 sector/s */
  g_assert_cmpfloat_with_epsilon (value (r, 2, "lts__t_sectors_srcunit_ltcfabric.sum.per_second"),
                                  43640911000, 1);
  g_assert_cmpstr (
    ws_ncu_results_find_metric (r, "lts__t_sectors_srcunit_ltcfabric.sum.per_second")->base_unit,
    ==, "sector/s");
  /* "5.485787" % stays */
  g_assert_cmpfloat_with_epsilon (value (r, 1, "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
                                  5.485787, 1e-9);
  /* "32.768000" Kbyte = 32,768 bytes */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "launch__shared_mem_config_size"), 32768, 1e-6);
  /* Text stays text. */
  g_assert_cmpstr (ws_ncu_results_text (r, 0, "device__attribute_display_name"), ==,
                   "NVIDIA H100 80GB HBM3");
}

static void
test_probe_raw_base_units (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");

  /* "381,792" ns */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "gpu__time_duration.sum"), 381792, 1e-9);
  /* "67,115,008" byte */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "dram__bytes_read.sum"), 67115008, 1e-9);
  /* "1,589,051,761.17" hz */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "gpc__cycles_elapsed.avg.per_second"), 1589051761.17,
                                  1e-3);
  /* "78,989,339,262.30" byte/s */
  g_assert_cmpfloat_with_epsilon (value (r, 3, "dram__bytes_write.sum.per_second"), 78989339262.30,
                                  1e-2);
}

/* The largest difference the two roundings allow: the base-units file has
 * two decimals in base units, the auto-units file @decimals in its own
 * unit, which is @scale base units. */
static double
tolerance (double scale, int decimals)
{
  return 0.005 + 0.5 * pow (10, -decimals) * scale + 1e-9;
}

static guint
compare_files (const char *auto_name, const char *base_name, int decimals)
{
  g_autoptr (WsNcuResults) a = ws_test_load_ncu (auto_name);
  g_autoptr (WsNcuResults) b = ws_test_load_ncu (base_name);
  guint compared = 0;

  g_assert_cmpuint (ws_ncu_results_n_launches (a), ==, ws_ncu_results_n_launches (b));
  g_assert_cmpuint (a->metrics->len, ==, b->metrics->len);
  for (guint i = 0; i < a->metrics->len; i++)
    {
      const WsNcuMetric *ma = g_ptr_array_index (a->metrics, i);
      const WsNcuMetric *mb = ma->section != NULL
                                ? ws_ncu_results_find_details_metric (b, ma->section, ma->name)
                                : ws_ncu_results_find_metric (b, ma->name);

      g_assert_nonnull (mb);
      for (guint l = 0; l < ws_ncu_results_n_launches (a); l++)
        {
          const char *unit = ma->units != NULL && ma->units[l] != NULL ? ma->units[l] : ma->unit;
          double scale;
          const char *base;

          if (isnan (ma->values[l]) || isnan (mb->values[l]))
            {
              if (isnan (ma->values[l]) != isnan (mb->values[l]))
                g_error ("%s launch %u: %g in %s, %g in %s", ma->name, l, ma->values[l], auto_name,
                         mb->values[l], base_name);
              continue;
            }
          ws_ncu_unit_normalize (unit, &scale, &base);
          if (fabs (ma->values[l] - mb->values[l]) > tolerance (scale, decimals))
            g_error ("%s launch %u: %.9g (%s) in %s, %.9g (%s) in %s", ma->name, l, ma->values[l],
                     unit, auto_name, mb->values[l], mb->unit, base_name);
          compared++;
        }
    }
  return compared;
}

/* ncu's two exports of one report: auto units with six decimals, base
 * units with two.  Every numeric cell must agree within the rounding. */
static void
test_raw_units_agree (void)
{
  guint compared =
    compare_files ("h100_probe_full_raw.csv", "h100_probe_full_raw_base_units.csv", 6);

  /* Every number of the metric columns (those after "CC") of the 8 launch
   * rows: 2,207 of the 2,227 columns hold a number in every row, the rest
   * text or "nan".  By hand (Python's csv module over either file):
   *   rows = list (csv.reader (open (F))); c = rows[0].index ('CC') + 1
   *   sum (bool (re.fullmatch (r'-?[0-9][0-9,]*(\.[0-9]+)?', x))
   *        for r in rows[2:] for x in r[c:])   # 17656 */
  g_assert_cmpuint (compared, ==, 8 * 2207);
}

static void
test_details_units_agree (void)
{
  guint compared =
    compare_files ("h100_probe_full_details.csv", "h100_probe_full_details_base_units.csv", 2);

  /* The numbers of the "Metric Value" column: 672 of its 764 rows (8
   * launches), the others text; counted as for the raw pages above. */
  g_assert_cmpuint (compared, ==, 672);
}

static void
test_probe_details (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_details.csv");
  g_autoptr (WsNcuResults) base = ws_test_load_ncu ("h100_probe_full_details_base_units.csv");
  const WsNcuMetric *policy;

  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 8);
  g_assert_cmpstr (ws_ncu_results_launch (r, 1)->kernel, ==,
                   "stream_copy(const float4 *, float4 *, int)");
  /* "381.79" us = 381,790 ns; "381,792" ns in base units */
  g_assert_cmpfloat_with_epsilon (details_value (r, 0, SOL, "Duration"), 381790, 1e-6);
  g_assert_cmpfloat_with_epsilon (details_value (base, 0, SOL, "Duration"), 381792, 1e-6);
  /* "2.62" Ghz; "2,619,059,592.66" hz */
  g_assert_cmpfloat_with_epsilon (details_value (r, 0, SOL, "DRAM Frequency"), 2.62e9, 1);
  g_assert_cmpfloat_with_epsilon (details_value (base, 0, SOL, "DRAM Frequency"), 2619059592.66,
                                  1e-2);
  /* "606,920" cycle */
  g_assert_cmpfloat_with_epsilon (details_value (r, 0, SOL, "Elapsed Cycles"), 606920, 1e-9);
  /* Two metrics named "Memory Throughput": % in SOL, Gbyte/s in the memory section. */
  g_assert_cmpfloat_with_epsilon (details_value (r, 1, SOL, "Memory Throughput"), 75.02, 1e-9);
  g_assert_cmpstr (
    ws_ncu_results_find_details_metric (r, "Memory Workload Analysis", "Memory Throughput")
      ->base_unit,
    ==, "byte/s");
  /* "32.77" Kbyte = 32,770 bytes; "32,768" byte in base units */
  g_assert_cmpfloat_with_epsilon (
    details_value (r, 0, "Launch Statistics", "Shared Memory Configuration Size"), 32770, 1e-6);
  g_assert_cmpfloat_with_epsilon (
    details_value (base, 0, "Launch Statistics", "Shared Memory Configuration Size"), 32768, 1e-6);
  /* "8.72" % */
  g_assert_cmpfloat_with_epsilon (details_value (r, 2, "Memory Workload Analysis", "L2 Hit Rate"),
                                  8.72, 1e-9);
  policy = ws_ncu_results_find_details_metric (r, "Launch Statistics", "Cluster Scheduling Policy");
  g_assert_nonnull (policy->text);
  g_assert_cmpstr (policy->text[0], ==, "PolicySpread");
  /* Display names stand for raw metrics: the gauges find "Duration". */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "gpu__time_duration.sum"), 381790, 1e-6);
  /* 68 rule rows in the file (grep of a non-empty "Rule Name"). */
  g_assert_cmpuint (r->rules->len, ==, 68);
}

/* The details page's display names against ncu's own raw page of the same
 * report: each alias holds the raw column's values (base units, two
 * decimals on both sides). */
static void
test_details_aliases_equal_raw (void)
{
  g_autoptr (WsNcuResults) details = ws_test_load_ncu ("h100_probe_full_details_base_units.csv");
  g_autoptr (WsNcuResults) raw = ws_test_load_ncu ("h100_probe_full_raw_base_units.csv");
  guint checked = 0;

  for (guint i = 0; i < details->metrics->len; i++)
    {
      const WsNcuMetric *m = g_ptr_array_index (details->metrics, i);
      const WsNcuMetric *column;

      if (m->alias == NULL)
        continue;
      column = ws_ncu_results_find_metric (raw, m->alias);
      g_assert_nonnull (column);
      for (guint l = 0; l < 8; l++)
        {
          double tol = MAX (0.0101, fabs (column->values[l]) * 1e-6);

          if (fabs (m->values[l] - column->values[l]) > tol)
            g_error ("%s / %s launch %u: %.4f, raw %s %.4f", m->section, m->name, l, m->values[l],
                     m->alias, column->values[l]);
          checked++;
        }
    }
  /* Every alias of the table but the two pre-2021 SOL names: 31 of them. */
  g_assert_cmpuint (checked, ==, 31 * 8);
}

static void
test_instances_values (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_instances_values.csv");

  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 8);
  /* "18,549 (0; 0; …; 1,267; …)": the aggregate comes first. */
  g_assert_cmpfloat_with_epsilon (value (r, 3, "smsp__pcsamp_warps_issue_stalled_barrier"), 18549,
                                  1e-9);
  /* "561.312000" us */
  g_assert_cmpfloat_with_epsilon (value (r, 3, "gpu__time_duration.sum"), 561312, 1e-6);
  /* "87.648050" % */
  g_assert_cmpfloat_with_epsilon (value (r, 3, "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
                                  87.648050, 1e-9);
}

static void
test_torch_nvtx (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_torch_nvtx_sections_raw.csv");
  g_autoptr (WsNcuResults) d = ws_test_load_ncu ("h100_torch_nvtx_sections_details.csv");
  g_autofree char *path0 = NULL;
  g_autofree char *path1 = NULL;
  g_autofree char *path8 = NULL;

  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 16);
  g_assert_cmpuint (ws_ncu_results_n_launches (d), ==, 16);
  /* The two NVTX columns after "Host Name" are not metrics. */
  g_assert_null (ws_ncu_results_find_metric (
    r, "thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg"));
  g_assert_cmpstr (ws_ncu_results_launch (r, 1)->kernel, ==,
                   "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT");
  path0 = ws_ncu_launch_nvtx_path (ws_ncu_results_launch (r, 0));
  path1 = ws_ncu_launch_nvtx_path (ws_ncu_results_launch (r, 1));
  path8 = ws_ncu_launch_nvtx_path (ws_ncu_results_launch (r, 8));
  /* 0: the column is empty; 1: "1380  "<default domain>:step 0:…"  "<default domain>:forward:…"" */
  g_assert_null (path0);
  g_assert_cmpstr (path1, ==, "step 0 › forward");
  g_assert_cmpstr (path8, ==, "step 0 › backward");

  /* "402.688000" us; "95.299769" %; "2.590195" Tbyte/s; "168" register/thread */
  g_assert_cmpfloat_with_epsilon (value (r, 1, "gpu__time_duration.sum"), 402688, 1e-6);
  g_assert_cmpfloat_with_epsilon (
    value (r, 1, "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"), 95.299769,
    1e-9);
  g_assert_cmpfloat_with_epsilon (value (r, 7, "dram__bytes.sum.per_second"), 2.590195e12, 1);
  g_assert_cmpfloat_with_epsilon (value (r, 1, "launch__registers_per_thread"), 168, 1e-9);
  /* Details: "402.69" us, "2.34" us, "70.81" %, and "no data" is missing. */
  g_assert_cmpfloat_with_epsilon (details_value (d, 1, SOL, "Duration"), 402690, 1e-6);
  g_assert_cmpfloat_with_epsilon (details_value (d, 8, SOL, "Duration"), 2340, 1e-6);
  g_assert_cmpfloat_with_epsilon (details_value (d, 1, SOL, "Memory Throughput"), 70.81, 1e-9);
  g_assert_true (isnan (
    details_value (d, 1, "Memory Workload Analysis", "Local Memory Spilling Request Overhead")));
}

static void
test_train_pair (void)
{
  g_autoptr (WsNcuResults) bf16 = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");
  g_autoptr (WsNcuResults) fp32 = ws_test_load_ncu ("h100_train_fp32_sections_raw.csv");

  g_assert_cmpuint (ws_ncu_results_n_launches (bf16), ==, 14);
  g_assert_cmpuint (ws_ncu_results_n_launches (fp32), ==, 14);
  /* bf16: "405.536000" us, "95.399873" %, "2.981246" %, "0.898033" Tbyte/s, "233.472000" Kbyte */
  g_assert_cmpfloat_with_epsilon (value (bf16, 1, "gpu__time_duration.sum"), 405536, 1e-6);
  g_assert_cmpfloat_with_epsilon (
    value (bf16, 1, "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"), 95.399873,
    1e-9);
  g_assert_cmpfloat_with_epsilon (
    value (bf16, 1, "sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_active"),
    2.981246, 1e-9);
  g_assert_cmpfloat_with_epsilon (value (bf16, 1, "dram__bytes.sum.per_second"), 0.898033e12, 1);
  g_assert_cmpfloat_with_epsilon (value (bf16, 1, "launch__shared_mem_config_size"), 233472, 1e-6);
  /* fp32: "6.662464" ms = 6,662,464 ns; "78.555575" %; "0.286918" Tbyte/s; "135.168000" Kbyte */
  g_assert_cmpfloat_with_epsilon (value (fp32, 1, "gpu__time_duration.sum"), 6662464, 1e-6);
  g_assert_cmpfloat_with_epsilon (
    value (fp32, 1, "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"), 78.555575,
    1e-9);
  g_assert_cmpfloat_with_epsilon (value (fp32, 1, "dram__bytes.sum.per_second"), 0.286918e12, 1);
  g_assert_cmpfloat_with_epsilon (value (fp32, 1, "launch__shared_mem_config_size"), 135168, 1e-6);
}

static void
test_rtx5090_details (void)
{
  static const char *const files[] = {
    "rtx5090_llmperf_kernel_0001_details.csv",
    "rtx5090_llmperf_kernel_0001_metrics.csv",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr (WsNcuResults) r = ws_test_load_ncu (files[i]);
      double v;

      g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 1);
      g_assert_cmpstr (ws_ncu_results_launch (r, 0)->cc, ==, "12.0");
      /* "2.33" Mbyte = 2,330,000 bytes; "6.75" us; "9.15" %; "n/a" is missing, not 0 */
      g_assert_cmpfloat_with_epsilon (value (r, 0, "dram__bytes_read.sum"), 2330000, 1e-6);
      g_assert_cmpfloat_with_epsilon (value (r, 0, "gpu__time_duration.sum"), 6750, 1e-6);
      g_assert_cmpfloat_with_epsilon (
        value (r, 0, "sm__throughput.avg.pct_of_peak_sustained_elapsed"), 9.15, 1e-9);
      g_assert_false (ws_ncu_results_value (r, 0, "flop_count_hp.sum", &v, NULL));
      g_assert_false (ws_ncu_results_value (r, 0, "flop_count_sp.sum", &v, NULL));
    }
  {
    g_autoptr (WsNcuResults) r = ws_test_load_ncu ("rtx5090_llmperf_kernel_0001_details.csv");

    /* "13,485" cycle: thousands separator in a quoted value */
    g_assert_cmpfloat_with_epsilon (details_value (r, 0, SOL, "Elapsed Cycles"), 13485, 1e-9);
    g_assert_cmpfloat_with_epsilon (details_value (r, 0, SOL, "Memory Throughput"), 19.66, 1e-9);
    /* 4 rows with a non-empty "Rule Name" */
    g_assert_cmpuint (r->rules->len, ==, 4);
  }
  {
    g_autoptr (WsNcuResults) d = ws_test_load_ncu ("rtx5090_llmperf_kernel_0002_details.csv");
    g_autoptr (WsNcuResults) m = ws_test_load_ncu ("rtx5090_llmperf_kernel_0002_metrics.csv");

    /* "17.57" Mbyte, "18.34" us, "5.30" %, "54.36" % */
    g_assert_cmpfloat_with_epsilon (value (d, 0, "dram__bytes_read.sum"), 17570000, 1e-6);
    g_assert_cmpfloat_with_epsilon (value (d, 0, "gpu__time_duration.sum"), 18340, 1e-6);
    g_assert_cmpfloat_with_epsilon (details_value (d, 0, "Memory Workload Analysis", "L2 Hit Rate"),
                                    5.30, 1e-9);
    g_assert_cmpfloat_with_epsilon (value (m, 0, "dram__bytes_read.sum"), 17570000, 1e-6);
    g_assert_cmpfloat_with_epsilon (
      value (m, 0, "dram__throughput.avg.pct_of_peak_sustained_elapsed"), 54.36, 1e-9);
  }
}

static void
test_b200_live_log (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("b200_superbench_cublaslt_full_details.log");

  /* Three lines (==PROF== and the program's own output) come before the table. */
  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 1);
  g_assert_cmpstr (ws_ncu_results_launch (r, 0)->kernel, ==,
                   "cutlass3x_sm100_tensorop_s64x256x32gemm_f8_f8_f32_f16_f16_64x256x128_1x1x1_0_"
                   "tnn_align4_1sm_bias_f16_relu_aux_scalemax");
  g_assert_cmpstr (ws_ncu_results_launch (r, 0)->cc, ==, "10.0");
  /* "406240" ns, "3995313115.40" hz, "233472" byte, "168" register/thread */
  g_assert_cmpfloat_with_epsilon (details_value (r, 0, SOL, "Duration"), 406240, 1e-9);
  g_assert_cmpfloat_with_epsilon (details_value (r, 0, SOL, "DRAM Frequency"), 3995313115.40, 1e-3);
  g_assert_cmpfloat_with_epsilon (
    details_value (r, 0, "Launch Statistics", "Shared Memory Configuration Size"), 233472, 1e-9);
  g_assert_cmpfloat_with_epsilon (value (r, 0, "launch__registers_per_thread"), 168, 1e-9);
}

static void
test_gtx1080_2019 (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("gtx1080_microgpusim_raw_2019.csv");
  g_autoptr (WsNcuResults) txt = ws_test_load_ncu ("gtx1080_microgpusim_raw_2019.txt");
  const WsNcuLaunch *launch = ws_ncu_results_launch (r, 0);

  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 3);
  g_assert_cmpstr (launch->kernel, ==, "vecAdd");
  g_assert_cmpstr (launch->kernel_time, ==, "2023-Oct-01 02:39:05");
  g_assert_null (launch->block);
  g_assert_null (launch->cc);
  g_assert_cmpint (launch->device, ==, -1);
  g_assert_null (ws_ncu_results_find_metric (r, "Kernel Time"));
  /* "2,720.00" nsecond; "2,917,647,058.82" byte/second; "6,447,058,823.53" hz; "29.63" % */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "gpu__time_duration"), 2720, 1e-9);
  g_assert_cmpfloat_with_epsilon (value (r, 0, "dram__bytes_per_sec"), 2917647058.82, 1e-3);
  g_assert_cmpstr (ws_ncu_results_find_metric (r, "dram__bytes_per_sec")->base_unit, ==, "byte/s");
  g_assert_cmpfloat_with_epsilon (value (r, 2, "dram__frequency"), 6447058823.53, 1e-3);
  g_assert_cmpfloat_with_epsilon (value (r, 1, "lts__request_total_sectors_hitrate_pct"), 29.63,
                                  1e-9);

  /* The same table after the program's output and ==PROF== lines. */
  g_assert_cmpuint (ws_ncu_results_n_launches (txt), ==, 3);
  g_assert_cmpuint (txt->metrics->len, ==, r->metrics->len);
  for (guint i = 0; i < r->metrics->len; i++)
    {
      const WsNcuMetric *a = g_ptr_array_index (r->metrics, i);
      const WsNcuMetric *b = g_ptr_array_index (txt->metrics, i);

      g_assert_cmpstr (a->name, ==, b->name);
      for (guint l = 0; l < 3; l++)
        g_assert_true ((isnan (a->values[l]) && isnan (b->values[l])) ||
                       a->values[l] == b->values[l]);
    }
}

/* PM-sampling columns carry a unit prefix; they are kept as they are and
 * never taken for the plain metric. */
static void
test_pm_sampling_columns (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw.csv");
  const WsNcuMetric *pm =
    ws_ncu_results_find_metric (r, "TPC.TriageCompute.sm__inst_executed_pipe_fma_realtime.avg."
                                   "pct_of_peak_sustained_elapsed");

  g_assert_nonnull (pm);
  /* "49.660985" % for launch 0 */
  g_assert_cmpfloat_with_epsilon (pm->values[0], 49.660985, 1e-9);
  /* SM_B.TriageCompute.l1tex__t_sector_hit_rate.pct is empty for launch 0;
   * l1tex__t_sector_hit_rate.pct is "49.834824". */
  g_assert_true (isnan (
    ws_ncu_results_find_metric (r, "SM_B.TriageCompute.l1tex__t_sector_hit_rate.pct")->values[0]));
  g_assert_cmpfloat_with_epsilon (value (r, 0, "l1tex__t_sector_hit_rate.pct"), 49.834824, 1e-9);
}

/* 2,238 columns of 8 launches stay small: columns of doubles. */
static void
test_compact (void)
{
  g_autoptr (WsNcuResults) r = ws_test_load_ncu ("h100_probe_full_raw.csv");

  /* 2,238 columns less the 11 leading ones */
  g_assert_cmpuint (r->metrics->len, ==, 2227);
  g_assert_cmpuint (ws_ncu_results_memory (r), <, 1024 * 1024);
}

static void
test_errors_only (void)
{
  g_autofree char *path = ws_test_data ("ncu", "rtx5090_llmperf_raw_errors_only.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsNcuResults) r = ws_ncu_reader_load_file (path, &error);

  g_assert_null (r);
  g_assert_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "only an error"));
  g_assert_nonnull (strstr (error->message, "did not match any section"));
  g_assert_null (strchr (error->message, '\n'));
}

static void
expect_error (const char *content, GQuark domain, int code, const char *part)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "x.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsNcuResults) r = NULL;

  g_assert_true (g_file_set_contents (path, content, -1, NULL));
  r = ws_ncu_reader_load_file (path, &error);
  g_assert_null (r);
  g_assert_error (error, domain, code);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, part));
  ws_test_rmtree (dir);
}

static void
test_bad_files (void)
{
  expect_error ("a,b\n1,2\n", WS_READER_ERROR, WS_READER_ERROR_FORMAT, "not an Nsight Compute CSV");
  expect_error ("", WS_BASE_ERROR, WS_BASE_ERROR_EMPTY, "empty");
  expect_error ("==PROF== Connected to process 1\n==PROF== Disconnected from process 1\n",
                WS_READER_ERROR, WS_READER_ERROR_NO_DATA, "profiled no kernel");
  expect_error ("\"ID\",\"Process ID\",\"Kernel Name\",\"x\"\n\"\",\"\",\"\",\"%\"\n",
                WS_READER_ERROR, WS_READER_ERROR_NO_DATA, "no profiled launch");
  expect_error ("\"ID\",\"Kernel Name\",\"x\"\n\"0\",\"k\",\"never closed\n", WS_BASE_ERROR,
                WS_BASE_ERROR_FORMAT, "never closed");
}

static void
test_sniff (void)
{
  static const char *const ncu[] = {
    "b200_superbench_cublaslt_full_details.log",
    "gtx1080_microgpusim_raw_2019.csv",
    "gtx1080_microgpusim_raw_2019.txt",
    "h100_probe_full_details.csv",
    "h100_probe_full_raw.csv",
    "h100_torch_nvtx_sections_raw.csv",
    "rtx5090_llmperf_kernel_0001_metrics.csv",
    "rtx5090_llmperf_raw_errors_only.csv",
  };
  static const char *const other[][2] = {
    { "nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv" },
    { "nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum_console.txt" },
    { "nsys", "v2026.1_nsysai_mock.sqlite" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (ncu); i++)
    {
      g_autofree char *path = ws_test_data ("ncu", ncu[i], NULL);
      g_autofree char *data = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      g_assert_true (ws_ncu_reader_sniff (data, MIN (len, 1024)));
    }
  for (gsize i = 0; i < G_N_ELEMENTS (other); i++)
    {
      g_autofree char *path = ws_test_data (other[i][0], other[i][1], NULL);
      g_autofree char *data = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      g_assert_false (ws_ncu_reader_sniff (data, MIN (len, 1024)));
    }
}

/* A raw and a details export of one report: one launch each, both pages. */
static void
test_raw_and_details_merge (void)
{
  g_autofree char *raw = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *details = ws_test_data ("ncu", "h100_probe_full_details.csv", NULL);
  const char *paths[] = { raw, details, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsNcuResults) r = ws_ncu_reader_load (paths, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (ws_ncu_results_n_launches (r), ==, 8);
  g_assert_cmpuint (r->files->len, ==, 2);
  g_assert_cmpuint (ws_ncu_results_launch (r, 0)->pages, ==, WS_NCU_PAGE_RAW | WS_NCU_PAGE_DETAILS);
  /* The raw page's six decimals win over the details page's two. */
  g_assert_cmpfloat_with_epsilon (value (r, 0, "gpu__time_duration.sum"), 381792, 1e-6);
  g_assert_cmpfloat_with_epsilon (details_value (r, 0, SOL, "Duration"), 381790, 1e-6);
  g_assert_cmpuint (r->rules->len, ==, 68);
}

static void
test_unit_normalize (void)
{
  static const struct
  {
    const char *unit;
    double scale;
    const char *base;
  } cases[] = {
    { "ns", 1, "ns" },
    { "nsecond", 1, "ns" },
    { "us", 1e3, "ns" },
    { "usecond", 1e3, "ns" },
    { "ms", 1e6, "ns" },
    { "msecond", 1e6, "ns" },
    { "s", 1e9, "ns" },
    { "second", 1e9, "ns" },
    { "byte", 1, "byte" },
    { "Kbyte", 1e3, "byte" },
    { "Mbyte", 1e6, "byte" },
    { "Gbyte", 1e9, "byte" },
    { "Tbyte", 1e12, "byte" },
    { "byte/s", 1, "byte/s" },
    { "byte/second", 1, "byte/s" },
    { "Gbyte/s", 1e9, "byte/s" },
    { "Tbyte/s", 1e12, "byte/s" },
    { "hz", 1, "Hz" },
    { "Khz", 1e3, "Hz" },
    { "Mhz", 1e6, "Hz" },
    { "Ghz", 1e9, "Hz" },
    { "cycle/second", 1, "Hz" },
    { "cycle/usecond", 1e6, "Hz" },
    { "%", 1, "%" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double scale = 0;
      const char *base = NULL;

      g_assert_true (ws_ncu_unit_normalize (cases[i].unit, &scale, &base));
      g_assert_cmpfloat_with_epsilon (scale, cases[i].scale, cases[i].scale * 1e-12);
      g_assert_cmpstr (base, ==, cases[i].base);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ncu-reader/raw/auto-units", test_probe_raw_auto_units);
  g_test_add_func ("/ncu-reader/raw/base-units", test_probe_raw_base_units);
  g_test_add_func ("/ncu-reader/raw/auto-and-base-units-agree", test_raw_units_agree);
  g_test_add_func ("/ncu-reader/details/auto-and-base-units-agree", test_details_units_agree);
  g_test_add_func ("/ncu-reader/details/probe", test_probe_details);
  g_test_add_func ("/ncu-reader/details/aliases-equal-raw-columns", test_details_aliases_equal_raw);
  g_test_add_func ("/ncu-reader/raw/metric-instances", test_instances_values);
  g_test_add_func ("/ncu-reader/nvtx/torch", test_torch_nvtx);
  g_test_add_func ("/ncu-reader/raw/train-pair", test_train_pair);
  g_test_add_func ("/ncu-reader/details/rtx5090-na-and-rules", test_rtx5090_details);
  g_test_add_func ("/ncu-reader/details/b200-live-log", test_b200_live_log);
  g_test_add_func ("/ncu-reader/raw/gtx1080-2019-layout", test_gtx1080_2019);
  g_test_add_func ("/ncu-reader/raw/pm-sampling-columns", test_pm_sampling_columns);
  g_test_add_func ("/ncu-reader/raw/compact", test_compact);
  g_test_add_func ("/ncu-reader/errors/errors-only-export", test_errors_only);
  g_test_add_func ("/ncu-reader/errors/bad-files", test_bad_files);
  g_test_add_func ("/ncu-reader/sniff", test_sniff);
  g_test_add_func ("/ncu-reader/merge/raw-and-details", test_raw_and_details_merge);
  g_test_add_func ("/ncu-reader/units/normalize", test_unit_normalize);

  return g_test_run ();
}
