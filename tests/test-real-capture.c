/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A capture made on a real H200 by `warpscope-cli capture`
 * (tests/data/capture-h200/README.md): what the window and the CLI read
 * from it against what the real tools wrote there. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ws-ncu-match.h"
#include "ws-report.h"
#include "ws-run-loader.h"
#include "ws-test-util.h"

static WsRun *
load_capture (void)
{
  g_autofree char *dir = ws_test_data ("capture-h200", "probe", NULL);
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return run;
}

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static char **
sorted_lines (const char *text)
{
  char **lines = g_strsplit (text, "\n", -1);

  qsort (lines, g_strv_length (lines), sizeof (char *), compare_lines);
  return lines;
}

/* The folder is one run: the export, its manifest, and the three ncu CSVs
 * matched to the export's kernels by their exact names. */
static void
test_folder_is_one_run (void)
{
  g_autoptr (WsRun) run = load_capture ();
  static const char *const profiled[] = { "barrier_heavy(float *, int)",
                                          "fma_heavy(float *, int, int)",
                                          "strided_read(const float *, float *, int, int)" };

  g_assert_cmpstr (run->prov.kind, ==, "capture-folder");
  g_assert_cmpstr (run->prov.capture_command, ==, "./probe");
  /* SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL */
  g_assert_cmpuint (run->kernels.n, ==, 336);
  g_assert_nonnull (run->ncu);
  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const WsNcuMatch *match = ws_ncu_results_match (run->ncu, i);

      g_assert_cmpint (match->kind, ==, WS_NCU_MATCH_EXACT);
      g_assert_cmpstr (match->nsys_name, ==, profiled[i]);
    }
}

/* Our kernel summary equals the one the real `nsys stats` wrote during
 * the capture (rows of equal totals may come in any order). */
static void
test_stats_equal_nsys_stats (void)
{
  g_autoptr (WsRun) run = load_capture ();
  g_autoptr (WsSummary) summary = ws_run_summary (run, WS_REPORT_KERN_SUM, WS_NAME_DEMANGLED);
  g_autoptr (GString) ours = g_string_new (NULL);
  g_autofree char *truth_path =
    ws_test_data ("capture-h200", "probe", "nsys", "probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *truth = NULL;
  g_auto (GStrv) a = NULL;
  g_auto (GStrv) b = NULL;

  ws_report_write (summary, WS_FORMAT_CSV, ours);
  g_assert_true (g_file_get_contents (truth_path, &truth, NULL, NULL));
  a = sorted_lines (ours->str);
  b = sorted_lines (truth);
  g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
  for (guint i = 0; a[i] != NULL; i++)
    g_assert_cmpstr (a[i], ==, b[i]);
}

/* Gauges and verdicts from the base-unit raw exports, with their
 * thousands separators: barrier_heavy "593,984" ns, SM "87.82", DRAM
 * "3.75" → compute-bound (SM ≥ 60, DRAM < 40); strided_read SM "10.28",
 * DRAM "79.87" → memory-bound (DRAM ≥ 60, SM < 40). */
static void
test_gauges_and_verdicts (void)
{
  g_autoptr (WsRun) run = load_capture ();
  const WsGauges *barrier = ws_ncu_results_gauges (run->ncu, 0);
  const WsGauges *strided = ws_ncu_results_gauges (run->ncu, 2);

  g_assert_cmpfloat_with_epsilon (barrier->gauge[WS_GAUGE_DURATION].value, 593984, 1e-6);
  g_assert_cmpfloat_with_epsilon (barrier->gauge[WS_GAUGE_SM].value, 87.82, 1e-9);
  g_assert_cmpfloat_with_epsilon (barrier->gauge[WS_GAUGE_DRAM].value, 3.75, 1e-9);
  g_assert_cmpint (barrier->verdict, ==, WS_VERDICT_COMPUTE);
  g_assert_cmpfloat_with_epsilon (strided->gauge[WS_GAUGE_SM].value, 10.28, 1e-9);
  g_assert_cmpfloat_with_epsilon (strided->gauge[WS_GAUGE_DRAM].value, 79.87, 1e-9);
  g_assert_cmpint (strided->verdict, ==, WS_VERDICT_MEMORY);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/real-capture/h200/folder-is-one-run", test_folder_is_one_run);
  g_test_add_func ("/real-capture/h200/stats-equal-nsys-stats", test_stats_equal_nsys_stats);
  g_test_add_func ("/real-capture/h200/gauges-and-verdicts", test_gauges_and_verdicts);

  return g_test_run ();
}
