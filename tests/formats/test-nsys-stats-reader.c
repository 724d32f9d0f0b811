/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-input.h"
#include "ws-loader-error.h"
#include "ws-nsys-stats-reader.h"
#include "ws-run-loader.h"
#include "ws-summary-table.h"
#include "ws-test-util.h"

static const char *const csv_fixtures[] = {
  "v2025.3_h100_probe_cuda_gpu_kern_sum.csv",
  "v2025.3_h100_probe_nvtx_sum.csv",
  "v2025.3_h100_probe_cuda_api_sum.csv",
  "v2025.3_h100_probe_cuda_gpu_mem_time_sum.csv",
  "v2025.3_h100_probe_cuda_gpu_mem_size_sum.csv",
  "v2025.3_h100_train_fp32_cuda_gpu_kern_sum.csv",
  "v2025.3_h100_train_fp32_nvtx_sum.csv",
  "v2025.3_h100_train_bf16_cuda_gpu_kern_sum.csv",
  "v2025.3_h100_train_bf16_nvtx_sum.csv",
  "llmperf_clip_cuda_gpu_kern_sum.csv",
  "llmperf_decode_cuda_gpu_kern_sum.csv",
  "llmperf_prefill_cuda_gpu_kern_sum.csv",
  "llmperf_projector_cuda_gpu_kern_sum.csv",
  "llmperf_sam_cuda_gpu_kern_sum.csv",
  "llmperf_scripts_ncu_examples_cuda_gpu_kern_sum.csv",
  "llmperf_summary_cuda_gpu_kern_sum.csv",
};

/* Reading a report and writing it back gives the file byte for byte: every
 * number survives, in nsys's own format. */
static void
test_round_trip (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (csv_fixtures); i++)
    {
      g_autofree char *path = ws_test_data ("nsys-stats", csv_fixtures[i], NULL);
      g_autofree char *original = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSummary) summary = ws_nsys_stats_read (path, &error);
      g_autoptr (GString) out = g_string_new (NULL);
      g_auto (GStrv) a = NULL;
      g_auto (GStrv) b = NULL;

      g_test_message ("%s", csv_fixtures[i]);
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
      ws_summary_table_write (summary, WS_FORMAT_CSV, out);
      /* Rows of equal totals may come in another order: compare as sets. */
      a = g_strsplit (out->str, "\n", -1);
      b = g_strsplit (original, "\n", -1);
      g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
      for (guint k = 0; a[k] != NULL; k++)
        g_assert_true (g_strv_contains ((const char *const *) b, a[k]));
    }
}

static void
test_report_kinds (void)
{
  static const struct
  {
    const char *file;
    WsSummaryKind kind;
    guint rows;
  } cases[] = {
    { "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", WS_SUMMARY_KERN_SUM, 6 },
    { "v2025.3_h100_probe_nvtx_sum.csv", WS_SUMMARY_NVTX_SUM, 21 },
    { "v2025.3_h100_probe_cuda_api_sum.csv", WS_SUMMARY_API_SUM, 10 },
    { "v2025.3_h100_probe_cuda_gpu_mem_time_sum.csv", WS_SUMMARY_MEM_TIME_SUM, 2 },
    { "v2025.3_h100_probe_cuda_gpu_mem_size_sum.csv", WS_SUMMARY_MEM_SIZE_SUM, 2 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = ws_test_data ("nsys-stats", cases[i].file, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSummary) summary = ws_nsys_stats_read (path, &error);

      g_assert_no_error (error);
      g_assert_cmpint (summary->kind, ==, cases[i].kind);
      g_assert_cmpuint (summary->rows->len, ==, cases[i].rows);
    }
}

/* The console table (thousands separators, aligned columns, NOTICE lines
 * before it) gives the same numbers as the CSV of the same report. */
static void
test_console_form (void)
{
  g_autofree char *console =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum_console.txt", NULL);
  g_autofree char *csv =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *expected = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSummary) summary = ws_nsys_stats_read (console, &error);
  g_autoptr (GString) out = g_string_new (NULL);

  g_assert_no_error (error);
  g_assert_cmpint (summary->kind, ==, WS_SUMMARY_KERN_SUM);
  ws_summary_table_write (summary, WS_FORMAT_CSV, out);
  g_assert_true (g_file_get_contents (csv, &expected, NULL, NULL));
  g_assert_cmpstr (out->str, ==, expected);
}

static WsSummary *
parse (const char *name, const char *text, GError **error)
{
  return ws_nsys_stats_parse (name, text, strlen (text), error);
}

/* The header forms of older nsys versions (docs/formats.md, "Older headers"),
 * made from the real probe numbers: barrier_heavy 3 × 1358714 ns, min 452713,
 * max 453001. */
static void
test_older_headers (void)
{
  static const char *const forms[] = {
    /* ≤ 2020 */
    "Time(%),Total Time (ns),Instances,Average,Minimum,Maximum,Name\n"
    "33.3,1358714,3,452904.7,452713,453001,\"barrier_heavy(float *, int)\"\n",
    /* 2021: with StdDev */
    "Time(%),Total Time (ns),Instances,Average,Minimum,Maximum,StdDev,Name\n"
    "33.3,1358714,3,452904.7,452713,453001,166.0,\"barrier_heavy(float *, int)\"\n",
    /* Calls for Instances */
    "Time(%),Total Time (ns),Calls,Average,Minimum,Maximum,Name\n"
    "33.3,1358714,3,452904.7,452713,453001,\"barrier_heavy(float *, int)\"\n",
    /* 2022.4: grid and block before the name */
    "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev "
    "(ns),GridXYZ,BlockXYZ,Name\n"
    "33.3,1358714,3,452904.7,453000.0,452713,453001,166.0,16384    1    1,1024    1    "
    "1,\"barrier_heavy(float *, int)\"\n",
    /* a locale with a decimal comma */
    "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
    "\"33,3\",1358714,3,\"452904,7\",\"453000,0\",452713,453001,\"166,0\",\"barrier_heavy(float *, "
    "int)\"\n",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSummary) summary = parse ("old_gpukernsum.csv", forms[i], &error);
      const WsSummaryRow *row;

      g_test_message ("form %" G_GSIZE_FORMAT, i);
      g_assert_no_error (error);
      g_assert_cmpint (summary->kind, ==, WS_SUMMARY_KERN_SUM);
      g_assert_cmpuint (summary->rows->len, ==, 1);
      row = &g_array_index (summary->rows, WsSummaryRow, 0);
      g_assert_cmpstr (row->name, ==, "barrier_heavy(float *, int)");
      g_assert_cmpint (row->total, ==, 1358714);
      g_assert_cmpint (row->count, ==, 3);
      g_assert_cmpint (row->min, ==, 452713);
      g_assert_cmpint (row->max, ==, 453001);
      g_assert_cmpfloat_with_epsilon (row->avg, 452904.7, 1e-6);
      g_assert_cmpfloat_with_epsilon (row->percent, 33.3, 1e-9);
    }
}

static void
test_bad_reports (void)
{
  static const struct
  {
    const char *text;
    const char *message;
  } cases[] = {
    { "hello,world\n1,2\n", "not an nsys stats summary" },
    { "Time (%),Total Time (ns),Instances,Avg (ns),Name\n1.0,12,3\n",
      "line 2 has 3 fields, its header has 5" },
    { "Time (%),Total Time (ns),Instances,Avg (ns),Name\n1.0,lots,3,4.0,k\n",
      "“lots” is not a number" },
    { "\nSKIPPED: /tmp/x.sqlite does not contain CUDA kernel data.\n",
      "found nothing to summarise" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSummary) summary = parse ("bad_cuda_gpu_kern_sum.csv", cases[i].text, &error);

      g_assert_null (summary);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "bad_cuda_gpu_kern_sum.csv"));
      g_assert_nonnull (strstr (error->message, cases[i].message));
    }
}

static void
test_input_detect (void)
{
  static const struct
  {
    const char *dir;
    const char *file;
    WsInputKind kind;
  } cases[] = {
    { "nsys", "v2021.2_mordred.sqlite", WS_INPUT_NSYS_SQLITE },
    { "nsys-stats", "v2025.3_h100_probe_nvtx_sum.csv", WS_INPUT_NSYS_STATS_CSV },
    { "nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum_console.txt", WS_INPUT_NSYS_STATS_CSV },
  };
  g_autofree char *dir = ws_test_data ("nsys", NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = ws_test_data (cases[i].dir, cases[i].file, NULL);

      g_assert_cmpint (ws_input_detect (path, NULL), ==, cases[i].kind);
    }
  g_assert_cmpint (ws_input_detect (dir, NULL), ==, WS_INPUT_FOLDER);
}

/* A run from stats CSVs alone: no events, the summaries from the files. */
static void
test_run_from_csvs (void)
{
  g_autofree char *kern =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *nvtx = ws_test_data ("nsys-stats", "v2025.3_h100_probe_nvtx_sum.csv", NULL);
  const char *paths[] = { kern, nvtx, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  const WsSummary *summary;

  g_assert_no_error (error);
  g_assert_cmpuint (run->kernels.n, ==, 0);
  g_assert_cmpstr (run->prov.kind, ==, "nsys-stats-csv");
  summary = ws_run_get_summary (run, WS_SUMMARY_KERN_SUM);
  g_assert_nonnull (summary);
  g_assert_cmpint (summary->grand_total, ==, 1358714 + 1243736 + 924306 + 327111 + 151811 + 73698);
  g_assert_nonnull (ws_run_get_summary (run, WS_SUMMARY_NVTX_SUM));
  g_assert_null (ws_run_get_summary (run, WS_SUMMARY_API_SUM));
}

/* An export with a stats CSV beside it: the export's events win. */
static void
test_export_wins_over_csv (void)
{
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  g_autofree char *csv =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  const char *paths[] = { sqlite, csv, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autofree char *total =
    ws_test_sqlite_text (sqlite, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  const WsSummary *summary;

  g_assert_no_error (error);
  g_assert_cmpuint (run->kernels.n, ==, 229);
  /* The summary the loader computed is the export's, not the CSV's (of
   * another capture, 6 kernels). */
  summary = ws_run_get_summary (run, WS_SUMMARY_KERN_SUM);
  g_assert_nonnull (summary);
  g_assert_cmpint (ws_summary_count (summary), ==, 229);
  g_assert_cmpint (summary->grand_total, ==, g_ascii_strtoll (total, NULL, 10));
  g_assert_cmpuint (run->prov.files->len, ==, 2);
}

static void
test_two_exports_refused (void)
{
  g_autofree char *a = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  g_autofree char *b = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  const char *paths[] = { a, b, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_null (run);
  g_assert_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "a run holds one nsys export"));
}

/* One "open" of several files: each export is a run, CSVs join the export
 * whose name they share. */
static void
test_group_runs (void)
{
  g_autofree char *bf16 = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  g_autofree char *fp32 = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *probe_csv =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *copy_dir = ws_test_tmpdir ();
  g_autofree char *bf16_copy = g_build_filename (copy_dir, "v2025.3_h100_train_bf16.sqlite", NULL);
  g_autofree char *bf16_csv =
    g_build_filename (copy_dir, "v2025.3_h100_train_bf16_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (bf16, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (bf16_copy, contents, len, NULL));
  g_assert_true (g_file_set_contents (bf16_csv, "Time (%),Total Time (ns),Instances\n", -1, NULL));

  {
    const char *paths[] = { bf16_copy, fp32, bf16_csv, NULL };
    g_autoptr (GPtrArray) runs = ws_input_group_runs (paths);
    char **first;

    g_assert_cmpuint (runs->len, ==, 2);
    first = (char **) ((GPtrArray *) g_ptr_array_index (runs, 0))->pdata;
    g_assert_cmpstr (first[0], ==, bf16_copy);
    g_assert_cmpstr (first[1], ==, bf16_csv);
    g_assert_null (first[2]);
  }
  {
    /* One export and a CSV from elsewhere: one run. */
    const char *paths[] = { bf16, probe_csv, NULL };
    g_autoptr (GPtrArray) runs = ws_input_group_runs (paths);

    g_assert_cmpuint (runs->len, ==, 1);
  }
  ws_test_rmtree (copy_dir);
}

/* A capture folder (OUT/<group>/<NAME>/{nsys,ncu} with run.json): the
 * export and the manifest's command. */
static void
test_capture_folder (void)
{
  g_autofree char *out = ws_test_tmpdir ();
  g_autofree char *target = g_build_filename (out, "g1", "probe", NULL);
  g_autofree char *nsys_dir = g_build_filename (target, "nsys", NULL);
  g_autofree char *fixture = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *export = g_build_filename (nsys_dir, "probe.sqlite", NULL);
  g_autofree char *csv = g_build_filename (nsys_dir, "probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *manifest = g_build_filename (target, "run.json", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;

  g_assert_cmpint (g_mkdir_with_parents (nsys_dir, 0755), ==, 0);
  g_assert_true (g_file_get_contents (fixture, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (export, contents, len, NULL));
  g_assert_true (g_file_set_contents (
    csv,
    "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n", -1,
    NULL));
  g_assert_true (g_file_set_contents (
    manifest, "{\"target\": {\"name\": \"probe\", \"cmd\": \"./probe --fast\"}}", -1, NULL));

  {
    const char *paths[] = { target, NULL };
    g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (run->prov.kind, ==, "capture-folder");
    g_assert_cmpuint (run->kernels.n, ==, 336);
    g_assert_cmpstr (run->prov.capture_command, ==, "./probe --fast");
  }
  {
    /* A folder of two captures is refused with a message. */
    g_autofree char *other = g_build_filename (out, "g1", "again", "nsys", NULL);
    g_autofree char *other_export = g_build_filename (other, "again.sqlite", NULL);
    g_autofree char *group = g_build_filename (out, "g1", NULL);
    const char *paths[] = { group, NULL };
    g_autoptr (WsRun) run = NULL;

    g_assert_cmpint (g_mkdir_with_parents (other, 0755), ==, 0);
    g_assert_true (g_file_set_contents (other_export, contents, len, NULL));
    run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
    g_assert_null (run);
    g_assert_nonnull (strstr (error->message, "holds 2 nsys exports"));
  }
  ws_test_rmtree (out);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nsys-stats-csv/round-trip-byte-for-byte", test_round_trip);
  g_test_add_func ("/nsys-stats-csv/report-kinds", test_report_kinds);
  g_test_add_func ("/nsys-stats-csv/console-form", test_console_form);
  g_test_add_func ("/nsys-stats-csv/older-header-forms", test_older_headers);
  g_test_add_func ("/nsys-stats-csv/bad-reports", test_bad_reports);
  g_test_add_func ("/input/detect", test_input_detect);
  g_test_add_func ("/input/run-from-stats-csvs", test_run_from_csvs);
  g_test_add_func ("/input/export-wins-over-csv", test_export_wins_over_csv);
  g_test_add_func ("/input/two-exports-refused", test_two_exports_refused);
  g_test_add_func ("/input/group-runs", test_group_runs);
  g_test_add_func ("/input/capture-folder", test_capture_folder);

  return g_test_run ();
}
