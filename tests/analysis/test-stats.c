/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-format.h"
#include "ws-nsys-reader.h"
#include "ws-stats.h"
#include "ws-summary-table.h"
#include "ws-test-util.h"

/* Every ground-truth CSV of `nsys stats --format csv` that has its export
 * beside it in the fixtures. */
typedef struct
{
  const char *sqlite;
  const char *csv;
  WsSummaryKind kind;
} GroundTruth;

static const GroundTruth truths[] = {
  { "v2025.3_h100_probe.sqlite", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", WS_SUMMARY_KERN_SUM },
  { "v2025.3_h100_probe.sqlite", "v2025.3_h100_probe_nvtx_sum.csv", WS_SUMMARY_NVTX_SUM },
  { "v2025.3_h100_probe.sqlite", "v2025.3_h100_probe_cuda_api_sum.csv", WS_SUMMARY_API_SUM },
  { "v2025.3_h100_probe.sqlite", "v2025.3_h100_probe_cuda_gpu_mem_time_sum.csv",
    WS_SUMMARY_MEM_TIME_SUM },
  { "v2025.3_h100_probe.sqlite", "v2025.3_h100_probe_cuda_gpu_mem_size_sum.csv",
    WS_SUMMARY_MEM_SIZE_SUM },
  { "v2025.3_h100_train_fp32.sqlite", "v2025.3_h100_train_fp32_cuda_gpu_kern_sum.csv",
    WS_SUMMARY_KERN_SUM },
  { "v2025.3_h100_train_fp32.sqlite", "v2025.3_h100_train_fp32_nvtx_sum.csv", WS_SUMMARY_NVTX_SUM },
  { "v2025.3_h100_train_bf16.sqlite", "v2025.3_h100_train_bf16_cuda_gpu_kern_sum.csv",
    WS_SUMMARY_KERN_SUM },
  { "v2025.3_h100_train_bf16.sqlite", "v2025.3_h100_train_bf16_nvtx_sum.csv", WS_SUMMARY_NVTX_SUM },
};

/* The leading "Total Time (ns)" (or Total (MB)) column of a report line. */
static double
line_total (const char *line, WsSummaryKind kind)
{
  g_auto (GStrv) fields = g_strsplit (line, ",", 3);

  return g_ascii_strtod (kind == WS_SUMMARY_MEM_SIZE_SUM ? fields[0] : fields[1], NULL);
}

/* Equal to the ground truth byte for byte, except that rows with equal
 * totals may come in another order: same header, same multiset of lines,
 * and totals in the same non-increasing order. */
static void
assert_same_report (const char *ours, const char *theirs, WsSummaryKind kind)
{
  g_auto (GStrv) a = g_strsplit (ours, "\n", -1);
  g_auto (GStrv) b = g_strsplit (theirs, "\n", -1);
  g_autoptr (GHashTable) remaining = g_hash_table_new (g_str_hash, g_str_equal);
  guint na = g_strv_length (a), nb = g_strv_length (b);

  g_assert_cmpuint (na, ==, nb);
  g_assert_cmpstr (a[0], ==, b[0]);
  for (guint i = 1; i < nb; i++)
    g_hash_table_insert (
      remaining, b[i],
      GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (remaining, b[i])) + 1));
  for (guint i = 1; i < na; i++)
    {
      guint left = GPOINTER_TO_UINT (g_hash_table_lookup (remaining, a[i]));

      if (left == 0)
        g_error ("line %u is not in the ground truth: %s", i, a[i]);
      g_hash_table_insert (remaining, a[i], GUINT_TO_POINTER (left - 1));
      if (i > 1 && a[i][0] != '\0' && a[i - 1][0] != '\0')
        g_assert_cmpfloat (line_total (a[i - 1], kind), >=, line_total (a[i], kind));
    }
}

static void
test_reports_equal_nsys_stats (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (truths); i++)
    {
      g_autofree char *sqlite = ws_test_data ("nsys", truths[i].sqlite, NULL);
      g_autofree char *csv = ws_test_data ("nsys-stats", truths[i].csv, NULL);
      g_autofree char *expected = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (WsRun) run = ws_nsys_reader_load (sqlite, WS_LOAD_ALL, NULL, NULL, NULL, &error);
      g_autoptr (WsSummary) summary = NULL;
      g_autoptr (GString) out = g_string_new (NULL);

      g_test_message ("%s", truths[i].csv);
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (csv, &expected, NULL, NULL));
      summary = ws_stats_compute (run, truths[i].kind, WS_NAME_DEMANGLED);
      ws_summary_table_write (summary, WS_FORMAT_CSV, out);
      assert_same_report (out->str, expected, truths[i].kind);
    }
}

/* The same through the real command line. */
static void
test_cli_csv_equals_nsys_stats (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (truths); i++)
    {
      g_autofree char *sqlite = ws_test_data ("nsys", truths[i].sqlite, NULL);
      g_autofree char *csv = ws_test_data ("nsys-stats", truths[i].csv, NULL);
      const char *argv[] = { ws_test_cli (), "stats",
                             "--report",     ws_summary_kind_to_string (truths[i].kind),
                             "--format",     "csv",
                             sqlite,         NULL };
      g_autofree char *out = NULL, *err = NULL, *expected = NULL;

      g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
      g_assert_cmpstr (err, ==, "");
      g_assert_true (g_file_get_contents (csv, &expected, NULL, NULL));
      assert_same_report (out, expected, truths[i].kind);
    }
}

/* --name short and mangled group by other columns: totals and instances per
 * name equal SQLite's own GROUP BY over that column. */
static void
test_name_forms_equal_sql_group_by (void)
{
  static const char *const files[] = { "v2025.3_h100_train_bf16.sqlite",
                                       "v2022.2_pipit_saxpy_mpi.sqlite" };
  static const char *const forms[][2] = { { "short", "shortName" },
                                          { "mangled", "mangledName" },
                                          { "demangled", "demangledName" } };

  for (gsize f = 0; f < G_N_ELEMENTS (files); f++)
    for (gsize m = 0; m < G_N_ELEMENTS (forms); m++)
      {
        g_autofree char *sqlite = ws_test_data ("nsys", files[f], NULL);
        const char *argv[] = { ws_test_cli (), "stats", "--name", forms[m][0],
                               "--format",     "csv",   sqlite,   NULL };
        g_autofree char *out = NULL, *err = NULL;
        g_auto (GStrv) lines = NULL;
        guint rows = 0;

        g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
        lines = g_strsplit (out, "\n", -1);
        for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
          {
            g_auto (GStrv) fields = g_strsplit (lines[i], ",", 9);
            g_autofree char *name = g_str_has_prefix (fields[8], "\"")
                                      ? g_strndup (fields[8] + 1, strlen (fields[8]) - 2)
                                      : g_strdup (fields[8]);
            g_auto (GStrv) quoted = g_strsplit (name, "'", -1);
            g_autofree char *escaped = g_strjoinv ("''", quoted);
            g_autofree char *sql = g_strdup_printf (
              "SELECT count(*) || ',' || sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
              "JOIN StringIds s ON s.id = k.%s WHERE s.value = '%s'",
              forms[m][1], escaped);
            g_autofree char *expected = ws_test_sqlite_text (sqlite, sql);
            g_autofree char *ours = g_strdup_printf ("%s,%s", fields[2], fields[1]);

            g_assert_cmpstr (ours, ==, expected);
            rows++;
          }
        g_assert_cmpuint (rows, >, 0);
      }
}

/* The 2021.2 export has no mangledName column.  Asking for mangled names
 * used to read the array a lean load never made (signal 11): now one line
 * says so, and the report groups by the demangled names, as nsys falls
 * back (the SQL below is the truth), with exit status 0. */
static void
test_missing_name_form (void)
{
  g_autofree char *sqlite = ws_test_data ("nsys", "v2021.2_mordred.sqlite", NULL);
  const char *argv[] = { ws_test_cli (), "stats", "--name", "mangled",
                         "--format",     "csv",   sqlite,   NULL };
  g_autofree char *has_mangled = ws_test_sqlite_text (
    sqlite, "SELECT count(*) FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') "
            "WHERE name = 'mangledName'");
  g_autofree char *expected = ws_test_sqlite_text (
    sqlite, "SELECT group_concat(line, '|') FROM (SELECT count(*) || ',' || sum(k.end - k.start) "
            "AS line FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
            "k.demangledName GROUP BY s.value ORDER BY sum(k.end - k.start) DESC)");
  g_autoptr (GString) ours = g_string_new (NULL);
  WsTestRun run;
  g_auto (GStrv) lines = NULL;
  g_auto (GStrv) err_lines = NULL;

  g_assert_cmpstr (has_mangled, ==, "0");
  ws_test_run_bounded (argv, 60, &run);
  g_test_message ("exit %d, signal %d, stderr: %s", run.status, run.signal, run.err);
  g_assert_cmpint (run.signal, ==, 0);
  g_assert_cmpint (run.status, ==, 0);
  err_lines = g_strsplit (g_strchomp (run.err), "\n", -1);
  g_assert_cmpuint (g_strv_length (err_lines), ==, 1);
  g_assert_nonnull (strstr (err_lines[0], sqlite));
  g_assert_nonnull (strstr (err_lines[0], "no mangled kernel names; demangled names are shown"));
  lines = g_strsplit (run.out, "\n", -1);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], ",", 4);

      g_string_append_printf (ours, "%s%s,%s", i > 1 ? "|" : "", fields[2], fields[1]);
    }
  g_assert_cmpstr (ours->str, ==, expected);
  ws_test_run_clear (&run);
}

/* Each name form asked of a lean load (what `stats` reads) or a full one
 * gives a name for every kernel, from the form the file has or the
 * nearest; the run says which forms it holds, as PRAGMA table_info does. */
static void
test_name_forms_held (void)
{
  static const char *const files[] = { "v2021.2_mordred.sqlite", "v2025.3_h100_probe.sqlite" };
  static const struct
  {
    WsNameForm form;
    WsLoadFlags flag;
    const char *column;
  } forms[] = {
    { WS_NAME_DEMANGLED, 0, "demangledName" },
    { WS_NAME_SHORT, WS_LOAD_NAME_SHORT, "shortName" },
    { WS_NAME_MANGLED, WS_LOAD_NAME_MANGLED, "mangledName" },
  };

  for (gsize f = 0; f < G_N_ELEMENTS (files); f++)
    for (gsize lean = 0; lean < 2; lean++)
      for (gsize asked = 0; asked < G_N_ELEMENTS (forms); asked++)
        {
          g_autofree char *path = ws_test_data ("nsys", files[f], NULL);
          WsLoadFlags flags = WS_LOAD_ALL | (lean ? WS_LOAD_LEAN | forms[asked].flag : 0);
          g_autoptr (GError) error = NULL;
          g_autoptr (WsRun) run = ws_nsys_reader_load (path, flags, NULL, NULL, NULL, &error);

          g_assert_no_error (error);
          g_assert_cmpint ((gint64) run->kernels.n, ==,
                           ws_test_sqlite_count (path, "CUPTI_ACTIVITY_KIND_KERNEL"));
          for (gsize m = 0; m < G_N_ELEMENTS (forms); m++)
            {
              g_autofree char *sql = g_strdup_printf (
                "SELECT count(*) FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') "
                "WHERE name = '%s'",
                forms[m].column);
              g_autofree char *in_file = ws_test_sqlite_text (path, sql);
              gboolean loaded = !lean || m == asked || m == 0;

              /* A lean load holds the form asked for, or demangled when the
               * file lacks it. */
              if (lean && m == 0 && asked != 0)
                {
                  g_autofree char *sql_asked = g_strdup_printf (
                    "SELECT count(*) FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') "
                    "WHERE name = '%s'",
                    forms[asked].column);
                  g_autofree char *asked_in_file = ws_test_sqlite_text (path, sql_asked);

                  loaded = g_str_equal (asked_in_file, "0");
                }
              g_assert_cmpint (ws_run_has_kernel_names (run, forms[m].form), ==,
                               g_str_equal (in_file, "1") && loaded);
              for (gsize k = 0; k < run->kernels.n; k++)
                g_assert_cmpstr (ws_run_kernel_name (run, k, forms[m].form), !=, "");
            }
        }
}

/* --format table is nsys's console table: compared with the console output
 * kept in the fixtures, from the report's title on. */
static void
test_table_equals_nsys_console (void)
{
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *console =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum_console.txt", NULL);
  const char *argv[] = { ws_test_cli (), "stats", sqlite, NULL };
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  const char *from;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_true (g_file_get_contents (console, &expected, NULL, NULL));
  from = strstr (expected, " ** CUDA GPU Kernel Summary");
  g_assert_nonnull (from);
  g_assert_cmpstr (out, ==, from);
}

/* The rounding rule of docs/formats.md ("Rounding"), on its own examples. */
static void
test_rounding_rule (void)
{
  static const struct
  {
    double value;
    int decimals;
    const char *expected;
  } cases[] = {
    { 309437.0 / 4, 1, "77359.3" },   /* exactly .25: away from zero (printf gives .2) */
    { 1040827.0 / 20, 1, "52041.3" }, /* 52041.34999… in binary */
    { 0.05, 1, "0.1" },               /* 0.05000000000000000277 */
    { 0.25, 1, "0.3" },
    { 0.35, 1, "0.3" }, /* 0.34999999999999997780 */
    { 2.5, 0, "3" },
    { 99.95, 1, "100.0" },  /* 99.9500000000000028 carries */
    { 0.0045, 3, "0.004" }, /* 0.00449999999999999966: below the half */
    { -1.25, 1, "-1.3" },
    { 0.0, 1, "0.0" },
    { 1e15 + 0.5, 0, "1000000000000001" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = ws_format_fixed_string (cases[i].value, cases[i].decimals);

      g_assert_cmpstr (got, ==, cases[i].expected);
    }
}

static void
test_thousands_separators (void)
{
  g_autoptr (GString) out = g_string_new (NULL);

  ws_format_int (out, 1358714, TRUE);
  g_string_append_c (out, ' ');
  ws_format_fixed (out, 452904.66666, 1, TRUE);
  g_string_append_c (out, ' ');
  ws_format_int (out, -999, TRUE);
  g_assert_cmpstr (out->str, ==, "1,358,714 452,904.7 -999");
  {
    g_autofree char *count = ws_format_count (100000);
    g_autofree char *small = ws_format_count (999);

    g_assert_cmpstr (count, ==, "100,000");
    g_assert_cmpstr (small, ==, "999");
  }
}

/* The LLM kernel summaries have no export beside them, but two of their
 * columns follow from two others: Avg = Total / Instances and
 * Time (%) = Total / sum of Totals × 100.  Recomputing both with our
 * arithmetic and rounding must reproduce the tool's text exactly. */
static void
test_llmperf_derived_columns (void)
{
  static const char *const files[] = {
    "llmperf_clip_cuda_gpu_kern_sum.csv",    "llmperf_decode_cuda_gpu_kern_sum.csv",
    "llmperf_prefill_cuda_gpu_kern_sum.csv", "llmperf_projector_cuda_gpu_kern_sum.csv",
    "llmperf_sam_cuda_gpu_kern_sum.csv",     "llmperf_scripts_ncu_examples_cuda_gpu_kern_sum.csv",
    "llmperf_summary_cuda_gpu_kern_sum.csv",
  };
  guint checked = 0;

  for (gsize f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = ws_test_data ("nsys-stats", files[f], NULL);
      g_autofree char *contents = NULL;
      g_auto (GStrv) lines = NULL;
      gint64 grand = 0;

      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      lines = g_strsplit (contents, "\n", -1);
      g_assert_true (g_str_has_prefix (lines[0], "Time (%),Total Time (ns),Instances,Avg (ns)"));
      for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
        {
          g_auto (GStrv) fields = g_strsplit (lines[i], ",", 5);

          grand += g_ascii_strtoll (fields[1], NULL, 10);
        }
      for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
        {
          g_auto (GStrv) fields = g_strsplit (lines[i], ",", 5);
          gint64 total = g_ascii_strtoll (fields[1], NULL, 10);
          gint64 instances = g_ascii_strtoll (fields[2], NULL, 10);
          g_autofree char *avg = ws_format_fixed_string ((double) total / (double) instances, 1);
          g_autofree char *percent =
            ws_format_fixed_string ((double) total / (double) grand * 100.0, 1);

          g_assert_cmpstr (avg, ==, fields[3]);
          g_assert_cmpstr (percent, ==, fields[0]);
          checked++;
        }
    }
  /* By hand: 19 + 46 + 97 + 2 + 36 + 128 + 113 rows below the headers, in
   * the order of @files (awk 'NR > 1 && $0 != ""' FILE | wc -l). */
  g_assert_cmpuint (checked, ==, 19 + 46 + 97 + 2 + 36 + 128 + 113);
}

/* The version suffix rule of cuda_api_sum. */
static void
test_api_base_names (void)
{
  static const char *const cases[][2] = {
    { "cudaMalloc_v3020", "cudaMalloc" },
    { "cudaLaunchKernel_v7000", "cudaLaunchKernel" },
    { "cudaLaunchKernelExC_v11060", "cudaLaunchKernelExC_v11060" },
    { "cudaStreamIsCapturing_v10000", "cudaStreamIsCapturing_v10000" },
    { "cuGetProcAddress_v2", "cuGetProcAddress_v2" },
    { "cudaFree", "cudaFree" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *base = ws_api_base_name (cases[i][0]);

      g_assert_cmpstr (base, ==, cases[i][1]);
    }
}

/* Median of an even count is the mean of the two middle values; the
 * standard deviation is the sample one. */
static void
test_group_stats (void)
{
  gint64 even[] = { 37601, 6016, 19585, 10496 };
  gint64 one[] = { 42 };
  WsGroupStats stats;

  ws_group_stats (even, G_N_ELEMENTS (even), &stats);
  g_assert_cmpint (stats.total, ==, 73698);
  g_assert_cmpint (stats.min, ==, 6016);
  g_assert_cmpint (stats.max, ==, 37601);
  g_assert_cmpfloat (stats.med, ==, 15040.5);
  g_assert_cmpfloat_with_epsilon (stats.stddev, 13975.2, 0.05);

  ws_group_stats (one, 1, &stats);
  g_assert_cmpfloat (stats.med, ==, 42);
  g_assert_cmpfloat (stats.stddev, ==, 0);
}

/* The summary of kernels that start in a time range. */
static void
test_kernels_in_range (void)
{
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_nsys_reader_load (sqlite, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  /* The "负载不均衡" range: 456394443 to 456603892 holds the four imbalanced kernels. */
  g_autoptr (WsSummary) summary =
    ws_stats_compute_kernels_in (run, WS_NAME_DEMANGLED, 456394443, 456603892);
  const WsSummaryRow *row;

  g_assert_no_error (error);
  g_assert_cmpuint (summary->rows->len, ==, 1);
  row = ws_summary_find (summary, "imbalanced(float *, int, int)");
  g_assert_nonnull (row);
  g_assert_cmpint (row->count, ==, 4);
  g_assert_cmpint (row->total, ==, 73698);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stats/reports/equal-nsys-stats-csv", test_reports_equal_nsys_stats);
  g_test_add_func ("/stats/cli/csv-equals-nsys-stats", test_cli_csv_equals_nsys_stats);
  g_test_add_func ("/stats/cli/table-equals-nsys-console", test_table_equals_nsys_console);
  g_test_add_func ("/stats/cli/name-forms-equal-sql-group-by", test_name_forms_equal_sql_group_by);
  g_test_add_func ("/stats/cli/missing-name-form-noted", test_missing_name_form);
  g_test_add_func ("/stats/name-forms/held-or-nearest", test_name_forms_held);
  g_test_add_func ("/stats/format/rounding-half-away-on-exact-value", test_rounding_rule);
  g_test_add_func ("/stats/format/thousands-separators", test_thousands_separators);
  g_test_add_func ("/stats/llmperf/avg-and-share-reproduce-nsys-text",
                   test_llmperf_derived_columns);
  g_test_add_func ("/stats/cuda-api/version-suffix-rule", test_api_base_names);
  g_test_add_func ("/stats/groups/median-and-sample-stddev", test_group_stats);
  g_test_add_func ("/stats/kernels/in-time-range", test_kernels_in_range);

  return g_test_run ();
}
