/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-nvprof-log.h"
#include "ws-nvprof-trace.h"
#include "ws-test-util.h"

/* nvprof console logs and `--csv` summaries (issue 21): their tables
 * against their own printed rows, and every nvprof text file of the
 * fixtures either opened or refused with one line. */

static GPtrArray *
read_log (const char *name)
{
  g_autofree char *path = ws_test_data ("nvprof", name, NULL);
  g_autoptr (GError) error = NULL;
  GPtrArray *results = ws_nvprof_log_read (path, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (results);
  return results;
}

static const WsSummaryRow *
find_row (const WsSummary *summary, const char *name)
{
  g_assert_nonnull (summary);
  for (guint i = 0; i < summary->rows->len; i++)
    if (strcmp (g_array_index (summary->rows, WsSummaryRow, i).name, name) == 0)
      return &g_array_index (summary->rows, WsSummaryRow, i);
  g_error ("no row named %s", name);
  return NULL;
}

/* The test's own reading of a printed time: "159.25ms" → 159,250,000. */
static gint64
printed_ns (const char *number, const char *unit)
{
  double scale = strcmp (unit, "ns") == 0   ? 1
                 : strcmp (unit, "us") == 0 ? 1e3
                 : strcmp (unit, "ms") == 0 ? 1e6
                                            : 1e9;

  return (gint64) llround (g_ascii_strtod (number, NULL) * scale);
}

/* Seven `nvprof ./nbody` runs pasted one after another: every printed
 * row (found here by a regular expression, not by the reader's scan) is a
 * row of its result's table with the same total and calls, and there are
 * no others. */
static void
test_text_rows_equal_printed (void)
{
  g_autoptr (GPtrArray) results = read_log ("nichitapavel_nvprof.txt");
  g_autofree char *path = ws_test_data ("nvprof", "nichitapavel_nvprof.txt", NULL);
  g_autofree char *text = ws_test_read (path);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GRegex) row = g_regex_new (
    "^\\s*(GPU activities:|API calls:)?\\s+[0-9.]+%\\s+([0-9.]+)(ns|us|ms|s)\\s+([0-9]+)\\s+\\S+"
    "\\s+\\S+\\s+\\S+\\s+(.+?)\\s*$",
    0, 0, NULL);
  static const guint32 pids[] = { 297, 351, 414, 252, 450, 2388, 2401 };
  int result = -1;
  gboolean api = FALSE;
  guint printed = 0, parsed = 0;

  g_assert_cmpuint (results->len, ==, G_N_ELEMENTS (pids));
  for (guint i = 0; i < results->len; i++)
    {
      const WsNvprofResult *r = g_ptr_array_index (results, i);

      g_assert_cmpuint (r->pid, ==, pids[i]);
      g_assert_true (g_str_has_prefix (r->command, "./nbody"));
      /* The first three are "No kernels were profiled." */
      g_assert_cmpint (r->no_kernels, ==, i < 3);
      g_assert_cmpint (r->kernels == NULL, ==, i < 3);
      parsed += (r->kernels != NULL ? r->kernels->rows->len : 0) +
                (r->memops != NULL ? r->memops->rows->len : 0) + r->api->rows->len;
    }

  for (guint l = 0; lines[l] != NULL; l++)
    {
      g_autoptr (GMatchInfo) m = NULL;
      g_autofree char *type = NULL, *number = NULL, *unit = NULL, *calls = NULL, *name = NULL;
      const WsNvprofResult *r;
      const WsSummaryRow *found;

      if (strstr (lines[l], "== Profiling result:") != NULL)
        result++, api = FALSE;
      if (!g_regex_match (row, lines[l], 0, &m))
        continue;
      type = g_match_info_fetch (m, 1);
      number = g_match_info_fetch (m, 2);
      unit = g_match_info_fetch (m, 3);
      calls = g_match_info_fetch (m, 4);
      name = g_match_info_fetch (m, 5);
      if (*type != '\0')
        api = g_str_equal (type, "API calls:");
      g_assert_cmpint (result, >=, 0);
      r = g_ptr_array_index (results, result);
      found = find_row (api ? r->api : r->kernels, name);
      g_assert_cmpint (found->total, ==, printed_ns (number, unit));
      g_assert_cmpint (found->count, ==, g_ascii_strtoll (calls, NULL, 10));
      g_assert_cmpint (found->min, <=, found->avg + 1);
      g_assert_cmpint (found->avg, <=, found->max + 1);
      printed++;
    }
  g_assert_cmpuint (printed, ==, parsed);
  /* By hand: the file has 85 such rows (grep -cP with the same pattern). */
  g_assert_cmpuint (printed, ==, 85);

  /* One row by hand: process 297's cuDeviceGetAttribute, "0.16%  254.62us
   * 94  2.7080us  610ns  69.471us". */
  {
    const WsNvprofResult *r = g_ptr_array_index (results, 0);
    const WsSummaryRow *attr = find_row (r->api, "cuDeviceGetAttribute");

    g_assert_cmpint (attr->total, ==, 254620);
    g_assert_cmpint (attr->count, ==, 94);
    g_assert_cmpfloat_with_epsilon (attr->avg, 2708.0, 1e-6);
    g_assert_cmpint (attr->min, ==, 610);
    g_assert_cmpint (attr->max, ==, 69471);
    g_assert_true (isnan (attr->med));
    /* Process 252's Unified Memory block, its six lines. */
    r = g_ptr_array_index (results, 3);
    g_assert_cmpuint (r->unified->len, ==, 7);
    g_assert_cmpstr (g_ptr_array_index (r->unified, 6), ==, "Total CPU thrashes: 48");
  }
}

/* `--print-gpu-summary --csv`: a units row with a different unit per
 * column (`,%,ms,,us,us,ms,`), copies named as nsys names them, and the
 * Unified Memory CSV block. */
static void
test_csv_summary (void)
{
  g_autoptr (GPtrArray) results = read_log ("summary_nvprof_result_cfd_gpu_summary.csv");
  const WsNvprofResult *r;
  const WsSummaryRow *flux, *dtod;

  g_assert_cmpuint (results->len, ==, 1);
  r = g_ptr_array_index (results, 0);
  g_assert_cmpuint (r->pid, ==, 308050);
  g_assert_null (r->api);
  g_assert_cmpuint (r->kernels->rows->len, ==, 4);
  g_assert_cmpuint (r->memops->rows->len, ==, 3);
  /* "GPU activities",68.739052,268.352834,6000,44.725000,43.106000,1.791976,
   * "cuda_compute_flux(…)": ms, -, us, us, ms. */
  flux = find_row (r->kernels, "cuda_compute_flux(int, int*, float*, float*, float*)");
  g_assert_cmpint (flux->total, ==, 268352834);
  g_assert_cmpint (flux->count, ==, 6000);
  g_assert_cmpfloat_with_epsilon (flux->avg, 44725.0, 1e-6);
  g_assert_cmpint (flux->min, ==, 43106);
  g_assert_cmpint (flux->max, ==, 1791976);
  /* Shares among the kernels alone, as nsys's kern_sum: 268.352834 of
   * 268.352834 + 88.081013 + 14.094000 + 0.756862 ms = 72.2768 %. */
  g_assert_cmpfloat_with_epsilon (flux->percent, 72.2768, 1e-3);
  dtod = find_row (r->memops, "[CUDA memcpy Device-to-Device]");
  g_assert_cmpint (dtod->total, ==, 19103987);
  g_assert_cmpint (find_row (r->memops, "[CUDA memset]")->total, ==, 1088);
  g_assert_cmpuint (r->unified->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (r->unified, 2), ==, "Total CPU Page faults: 49");
}

/* The head of the cfd summary CSV (tests/data/nvprof), lines 1 to 5:
 * what comes before its first row. */
#define CFD_HEAD                                                                                   \
  "==308050== NVPROF is profiling process 308050, command: ./euler3d_adapt "                       \
  "../../data/cfd/fvcorr.domn.097K\n"                                                              \
  "==308050== Profiling application: ./euler3d_adapt ../../data/cfd/fvcorr.domn.097K\n"            \
  "==308050== Profiling result:\n"                                                                 \
  "\"Type\",\"Time(%)\",\"Time\",\"Calls\",\"Avg\",\"Min\",\"Max\",\"Name\"\n"                     \
  ",%,ms,,us,us,ms,\n"

/* The GPU activities rows of an nvprof console log, read here by a
 * regular expression: name → (calls, average in ns). */
typedef struct
{
  char *name;
  gint64 calls;
  double avg_ns;
} PrintedRow;

static void
printed_row_free (gpointer data)
{
  PrintedRow *row = data;

  g_free (row->name);
  g_free (row);
}

static GPtrArray *
printed_rows (const char *path, gboolean api)
{
  g_autofree char *text = ws_test_read (path);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GRegex) re = g_regex_new (
    "^\\s*(GPU activities:|API calls:)?\\s+[0-9.]+%\\s+\\S+\\s+([0-9]+)\\s+([0-9.]+)(ns|us|ms|s)"
    "\\s+\\S+\\s+\\S+\\s+(.+?)\\s*$",
    0, 0, NULL);
  GPtrArray *rows = g_ptr_array_new_with_free_func (printed_row_free);
  gboolean in_api = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GMatchInfo) match = NULL;
      g_autofree char *type = NULL, *calls = NULL, *avg = NULL, *unit = NULL;
      PrintedRow *row;

      if (!g_regex_match (re, lines[i], 0, &match))
        continue;
      type = g_match_info_fetch (match, 1);
      if (type[0] != '\0')
        in_api = g_str_has_prefix (type, "API");
      if (in_api != api)
        continue;
      calls = g_match_info_fetch (match, 2);
      avg = g_match_info_fetch (match, 3);
      unit = g_match_info_fetch (match, 4);
      row = g_new0 (PrintedRow, 1);
      row->name = g_match_info_fetch (match, 5);
      row->calls = g_ascii_strtoll (calls, NULL, 10);
      row->avg_ns = (double) printed_ns (avg, unit);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

/* A log of small copies and short kernels (written after issue 31's
 * numbers): `info` says what it holds, with the launches the GPU
 * activities rows count, and `diagnose` raises the two checks a summary
 * can carry, with the counts of the rows that qualify, read here. */
static void
test_summary_findings (void)
{
  g_autofree char *path = ws_test_data ("nvprof", "summary_written_small_copies.txt", NULL);
  g_autoptr (GPtrArray) gpu = printed_rows (path, FALSE);
  g_autoptr (GPtrArray) api = printed_rows (path, TRUE);
  const char *info_argv[] = { ws_test_cli (), "info", path, NULL };
  const char *diag_argv[] = { ws_test_cli (), "diagnose", "--format", "json", path, NULL };
  g_autofree char *info = NULL, *json = NULL, *kernel_line = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  gint64 launches = 0, small_copies = 0, short_launches = 0;
  double launch_call_avg = 0;
  guint kernel_names = 0;
  JsonArray *findings;
  gboolean seen_copies = FALSE, seen_launch = FALSE;

  for (guint i = 0; i < api->len; i++)
    {
      const PrintedRow *row = g_ptr_array_index (api, i);

      if (g_str_equal (row->name, "cudaLaunchKernel"))
        launch_call_avg = row->avg_ns;
    }
  for (guint i = 0; i < gpu->len; i++)
    {
      const PrintedRow *row = g_ptr_array_index (gpu, i);

      if (g_str_has_prefix (row->name, "[CUDA memcpy HtoD]") ||
          g_str_has_prefix (row->name, "[CUDA memcpy DtoH]"))
        small_copies += row->avg_ns < 10000 && row->calls >= 10 ? row->calls : 0;
      else if (!g_str_has_prefix (row->name, "[CUDA "))
        {
          kernel_names++;
          launches += row->calls;
          if (row->avg_ns < 5000 || row->avg_ns < launch_call_avg)
            short_launches += row->calls;
        }
    }
  /* The numbers, and the sums by hand: 12480 + 6240 + 364 + 30
   * launches of kernels under 5 µs, 228119 + 1200 copies of 3.1 and 2.8 µs. */
  g_assert_cmpuint (kernel_names, ==, 11);
  g_assert_cmpint (launches, ==, 26264);
  g_assert_cmpint (short_launches, ==, 12480 + 6240 + 364 + 30);
  g_assert_cmpint (small_copies, ==, 228119 + 1200);

  g_assert_cmpint (ws_test_run (info_argv, &info, NULL), ==, 0);
  g_assert_null (strstr (info, "no CUDA kernel data"));
  g_assert_nonnull (strstr (info, "python train_small_batches.py --batch 8 (pid 28871)"));
  kernel_line = g_strdup_printf ("  kernels            %u       26,264", kernel_names);
  g_assert_nonnull (strstr (info, kernel_line));

  g_assert_cmpint (ws_test_run (diag_argv, &json, NULL), ==, 0);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  findings =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings");
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);
      JsonObject *evidence = json_object_get_object_member (f, "evidence");
      const char *id = json_object_get_string_member (f, "id");

      if (g_str_equal (id, "small-transfers"))
        {
          seen_copies = TRUE;
          g_assert_cmpint (json_object_get_int_member (evidence, "copies"), ==, small_copies);
          g_assert_cmpstr (json_object_get_string_member (f, "severity"), ==, "severe");
        }
      else if (g_str_equal (id, "launch-overhead"))
        {
          seen_launch = TRUE;
          g_assert_cmpint (json_object_get_int_member (evidence, "tiny_kernels"), ==,
                           short_launches);
          g_assert_cmpint (json_object_get_int_member (evidence, "kernels"), ==, launches);
        }
    }
  g_assert_true (seen_copies);
  g_assert_true (seen_launch);
}

/* Every nvprof text file of the fixtures: `info` opens the summaries, the
 * GPU traces and the metrics; files made here from the fixtures' heads,
 * each with one fault, are refused in one line naming the file, the line
 * and the fault (the metrics' refusals: test-nvprof-metrics.c). */
static void
test_every_file_opens_or_is_refused (void)
{
  static const struct
  {
    const char *file;
    const char *says; /* NULL: opens */
    const char *made; /* the file's text, made here; NULL: a fixture */
  } files[] = {
    { "nichitapavel_nvprof.txt", NULL },
    { "summary_nvprof_result_cfd_gpu_summary.csv", NULL },
    { "summary_nvprof_result_cfd_gpu_api_um.csv", NULL },
    { "gputrace_magus_concurrentkernels.csv", NULL },
    { "gputrace_magus_simplecufft_callback.csv", NULL },
    { "gputrace_txt_nvprof_result_cudastream.txt", NULL },
    { "gputrace_txt_nvprof_result_bfs_unified_memory.txt", NULL },
    { "metrics_magus_concurrentkernels.csv", NULL },
    { "v100_darknet19_metrics.txt", NULL },
    { "events_written_from_guide.txt", NULL },
    { "events_written_from_guide.csv", NULL },
    { "metrics_mixed_written.txt", NULL },
    { "summary_written_small_copies.txt", NULL },

    /* cfd's first row with its 6000 calls made 0. */
    { "cfd_zero_calls.csv",
      "line 6: an nvprof summary row with a call count that is not a positive number",
      CFD_HEAD "\"GPU activities\",68.739052,268.352834,0,44.725000,43.106000,1.791976,"
               "\"cuda_compute_flux(int, int*, float*, float*, float*)\"\n" },
    /* cfd's first row with its time 268.352834 ms made a word. */
    { "cfd_time_word.csv", "line 6: an nvprof summary row with a value that is not a time",
      CFD_HEAD "\"GPU activities\",68.739052,fast,6000,44.725000,43.106000,1.791976,"
               "\"cuda_compute_flux(int, int*, float*, float*, float*)\"\n" },
    /* A CSV header that is none of nvprof's tables. */
    { "other_table.csv", "an nvprof CSV table of another kind",
      "==308050== Profiling result:\n\"Device\",\"Context\",\"Colour\"\n" },
    /* `nvprof --print-api-trace`: its header as the guide shows it. */
    { "api_trace.txt", "`--print-api-trace`",
      "==2== Profiling application: ./a.out\n==2== Profiling result:\n"
      "   Start  Duration  Name\n183.85ms  5.1560us  cuDeviceGetCount\n" },
  };
  g_autofree char *dir = ws_test_tmpdir ();
  guint refused = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = ws_test_data ("nvprof", files[i].file, NULL);
      g_autofree char *out = NULL, *err = NULL;
      const char *argv[] = { ws_test_cli (), "info", path, NULL };
      int rc;

      if (files[i].made != NULL)
        {
          g_free (path);
          path = g_build_filename (dir, files[i].file, NULL);
          argv[2] = path;
          g_assert_true (g_file_set_contents (path, files[i].made, -1, NULL));
        }
      else if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_autofree char *xz = g_strconcat (path, ".xz", NULL);
          g_autofree char *cmd = NULL;
          const char *sh[] = { "/bin/sh", "-c", NULL, NULL };
          g_autofree char *o = NULL, *e = NULL;

          g_free (path);
          path = g_build_filename (dir, files[i].file, NULL);
          argv[2] = path;
          cmd = g_strdup_printf ("xz -dc '%s' > '%s'", xz, path);
          sh[2] = cmd;
          g_assert_cmpint (ws_test_run (sh, &o, &e), ==, 0);
        }
      g_test_message ("%s", files[i].file);
      rc = ws_test_run (argv, &out, &err);
      if (files[i].says == NULL)
        {
          g_assert_cmpint (rc, ==, 0);
          g_assert_nonnull (strstr (out, g_str_has_prefix (files[i].file, "gputrace")
                                           ? "Kind:           nvprof GPU trace"
                                         : strstr (files[i].file, "metrics") != NULL ||
                                             g_str_has_prefix (files[i].file, "events")
                                           ? "Kind:           nvprof metrics and events"
                                           : "Kind:           nvprof summary tables"));
          g_assert_null (strstr (out, "nsys version"));
          continue;
        }
      g_assert_cmpint (rc, ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, path));
      g_assert_nonnull (strstr (err, files[i].says));
      /* One line. */
      g_assert_nonnull (strchr (err, '\n'));
      g_assert_cmpstr (strchr (err, '\n') + 1, ==, "");
      refused++;
    }
  g_assert_cmpuint (refused, ==, 4);
  ws_test_rmtree (dir);
}

/* `stats` prints the log's table as nsys's cuda_api_sum, the median and
 * deviation that nvprof does not print as "-"; the other results are
 * named in a warning. */
static void
test_cli_stats (void)
{
  g_autofree char *path = ws_test_data ("nvprof", "nichitapavel_nvprof.txt", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { ws_test_cli (), "stats", "--report", "cuda_api_sum",
                         "--format",     "csv",   path,       NULL };

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  /* "99.58%  159.25ms  1  159.25ms  159.25ms  159.25ms  cudaMallocManaged";
   * the share recomputed: 159.25 / (159.25 + 0.25462 + 0.248 + 0.14185 +
   * 0.017229 + 0.003694 + 0.001974) ms = 99.58 %. */
  g_assert_nonnull (strstr (out, ",159250000,1,159250000.0,-,159250000,159250000,-,"));
  g_assert_nonnull (strstr (out, "99.6"));
}

/* Two `--csv` summaries of one program (cfd run twice): `compare` pairs
 * its four kernels by name; checked by hand: all four in both, the flux
 * kernel 268,352,834 → 271,148,968 ns. */
static void
test_compare_two_logs (void)
{
  g_autofree char *a = ws_test_data ("nvprof", "summary_nvprof_result_cfd_gpu_summary.csv", NULL);
  g_autofree char *b = ws_test_data ("nvprof", "summary_nvprof_result_cfd_gpu_api_um.csv", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { ws_test_cli (), "compare", "--format", "csv", a, b, NULL };
  g_auto (GStrv) lines = NULL;
  guint both = 0;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    both += g_str_has_suffix (g_strchomp (lines[i]), ",both");
  g_assert_cmpuint (both, ==, 4);
  g_assert_nonnull (strstr (out,
                            "\"cuda_compute_flux(int, int*, float*, float*, float*)\",268352834,"
                            "271148968,"));
}

/* No fixture holds an nvprof and an nsys capture of one program, and no
 * nvprof export shares a kernel name with an nsys export here (checked
 * over every pair, by demangled, short and normalised name): what can be
 * checked is that an nvprof export (TensorFlow MNIST on a TITAN X)
 * against an nsys export (two PyTorch kernels) matches nothing, lists
 * every distinct kernel of each side once, and merges by normalised name
 * what SQL says are the same function (EigenMetaKernel's 9 launches, of
 * three template instances). */
static void
test_compare_export_with_nsys (void)
{
  g_autofree char *a = ws_test_data ("nvprof", "nvvp_tf_tutorial_mnist_titanx.nvvp", NULL);
  g_autofree char *b = ws_test_data ("nsys", "v2026.1_nsysai_mock.sqlite", NULL);
  g_autofree char *before = ws_test_sqlite_text (
    a, "SELECT count(DISTINCT name) FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL");
  g_autofree char *after =
    ws_test_sqlite_text (b, "SELECT count(DISTINCT demangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  g_autofree char *eigen = ws_test_sqlite_text (
    a, "SELECT sum(k.end - k.start) || ',0,' || -sum(k.end - k.start) || ',0.000,' || count(*) "
       "FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL k JOIN StringTable s ON s._id_ = k.name "
       "WHERE s.value LIKE '%EigenMetaKernel%'");
  static const char *const forms[] = { "demangled", "normalized" };

  for (gsize f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      const char *argv[] = { ws_test_cli (), "compare", "--by", forms[f], "--format",
                             "csv",          a,         b,      NULL };
      g_autofree char *out = NULL, *err = NULL;
      g_auto (GStrv) lines = NULL;
      guint only_before = 0, only_after = 0, both = 0;

      g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
      lines = g_strsplit (out, "\n", -1);
      for (guint i = 1; lines[i] != NULL; i++)
        {
          only_before += g_str_has_suffix (lines[i], ",only_before");
          only_after += g_str_has_suffix (lines[i], ",only_after");
          both += g_str_has_suffix (lines[i], ",both");
        }
      g_assert_cmpuint (both, ==, 0);
      g_assert_cmpuint (only_after, ==, g_ascii_strtoull (after, NULL, 10));
      if (f == 0)
        g_assert_cmpuint (only_before, ==, g_ascii_strtoull (before, NULL, 10));
      else
        {
          g_autofree char *row =
            g_strdup_printf ("\nEigen::internal::EigenMetaKernel,%s,0,only_before\n", eigen);

          /* 13 mangled names, 3 of them EigenMetaKernel<…>: 11 rows. */
          g_assert_cmpuint (only_before, ==, g_ascii_strtoull (before, NULL, 10) - 2);
          g_assert_nonnull (strstr (out, row));
        }
    }
}

static WsRun *
read_trace (const char *name)
{
  g_autofree char *path = ws_test_data ("nvprof", name, NULL);
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_nvprof_trace_read (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (run);
  return run;
}

/* The printed throughput of a copy (nvprof's GB is 2^30 bytes) equals its
 * bytes over its duration as read: both units checked at once. */
static void
assert_throughput (const WsRun *run, gsize i, double printed_gib_s)
{
  double bps =
    (double) run->memops.bytes[i] / ((double) (run->memops.end[i] - run->memops.start[i]) * 1e-9);

  g_assert_cmpfloat (fabs (bps / 1073741824.0 - printed_gib_s) / printed_gib_s, <, 2e-3);
}

/* `--print-gpu-trace` as text (a BabelStream-like program on a TITAN Xp):
 * as many kernels and copies as the file has rows of each (counted here
 * by a regular expression), values right-aligned under their headers. */
static void
test_trace_text (void)
{
  g_autoptr (WsRun) run = read_trace ("gputrace_txt_nvprof_result_cudastream.txt");
  g_autofree char *path =
    ws_test_data ("nvprof", "gputrace_txt_nvprof_result_cudastream.txt", NULL);
  g_autofree char *text = ws_test_read (path);
  g_autoptr (GRegex) kernel =
    g_regex_new ("^\\S+\\s+\\S+\\s+\\(\\d+ \\d+ \\d+\\).*\\[\\d+\\]$", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GRegex) copy = g_regex_new ("\\[CUDA memcpy DtoH\\]$", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) m = NULL;
  guint kernels = 0, copies = 0;
  const WsLaunchConfig *config;

  for (g_regex_match (kernel, text, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    kernels++;
  g_clear_pointer (&m, g_match_info_free);
  for (g_regex_match (copy, text, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    copies++;
  g_assert_cmpuint (run->kernels.n, ==, kernels);
  g_assert_cmpuint (run->memops.n, ==, copies);
  g_assert_cmpuint (kernels, ==, 501);

  /* The first row: "309.24ms  1.6783ms  (32768 1 1)  (1024 1 1)  14  0B  0B
   * … TITAN Xp (0)  1  7  void init_kernel<double>(…) [128]". */
  g_assert_cmpint (run->kernels.start[0], ==, 309240000);
  g_assert_cmpint (run->kernels.end[0] - run->kernels.start[0], ==, 1678300);
  g_assert_cmpstr (ws_run_kernel_name (run, 0, WS_NAME_DEMANGLED), ==,
                   "void init_kernel<double>(double*, double*, double*, double, double, double)");
  g_assert_cmpstr (ws_run_kernel_name (run, 0, WS_NAME_SHORT), ==, "init_kernel");
  g_assert_cmpuint (run->kernels.correlation[0], ==, 128);
  config = ws_run_kernel_config (run, 0);
  g_assert_cmpuint (config->grid[0], ==, 32768);
  g_assert_cmpuint (config->block[0], ==, 1024);
  g_assert_cmpuint (config->registers, ==, 14);
  g_assert_cmpint (ws_run_kernel_stream (run, 0)->stream_id, ==, 7);
  g_assert_cmpstr (ws_run_gpu_name (run, 0), ==, "TITAN Xp");
  /* "318.40ms  1.7600us … 2.0000KB  1.0837GB/s  Device  Pageable". */
  g_assert_cmpint (run->memops.start[0], ==, 318400000);
  g_assert_cmpuint (run->memops.bytes[0], ==, 2048);
  g_assert_cmpuint (run->memops.kind[0], ==, WS_MEMOP_DTOH);
  g_assert_cmpstr (ws_mem_kind_label (run->memops.src_kind[0]), ==, "Device");
  g_assert_cmpstr (ws_mem_kind_label (run->memops.dst_kind[0]), ==, "Pageable");
  assert_throughput (run, 0, 1.0837);
}

/* `--print-gpu-trace --csv`, units in a row of their own: CUDA 8's
 * concurrentKernels (9 kernels on streams 13 to 21, one copy) and a cuFFT
 * program with mixed units (`s,us`, `B,KB,B,GB/s`). */
static void
test_trace_csv (void)
{
  g_autoptr (WsRun) run = read_trace ("gputrace_magus_concurrentkernels.csv");
  g_autoptr (WsRun) fft = read_trace ("gputrace_magus_simplecufft_callback.csv");
  g_autoptr (GHashTable) streams = g_hash_table_new (NULL, NULL);

  g_assert_cmpuint (run->kernels.n, ==, 9);
  g_assert_cmpuint (run->memops.n, ==, 1);
  for (gsize i = 0; i < run->kernels.n; i++)
    g_hash_table_add (streams, GINT_TO_POINTER (ws_run_kernel_stream (run, i)->stream_id));
  g_assert_cmpuint (g_hash_table_size (streams), ==, 9);
  for (int s = 13; s <= 21; s++)
    g_assert_true (g_hash_table_contains (streams, GINT_TO_POINTER (s)));
  /* "598.807267,10.733177,1,1,1,1,1,1,8,0,0,,,…,"13","clock_block(long*, long) [1183]"" in ms. */
  g_assert_cmpint (run->kernels.start[0], ==, 598807267);
  g_assert_cmpint (run->kernels.end[0] - run->kernels.start[0], ==, 10733177);
  g_assert_cmpuint (run->kernels.correlation[0], ==, 1183);
  g_assert_cmpuint (ws_run_kernel_config (run, 0)->registers, ==, 8);

  /* "1.205290,1.536000,,,,,,,,,,448,0.271636,…,"[CUDA memcpy HtoD]"" in s,
   * us, B and GB/s. */
  g_assert_cmpint (fft->memops.start[0], ==, 1205290000);
  g_assert_cmpint (fft->memops.end[0] - fft->memops.start[0], ==, 1536);
  g_assert_cmpuint (fft->memops.bytes[0], ==, 448);
  g_assert_cmpuint (fft->memops.kind[0], ==, WS_MEMOP_HTOD);
  assert_throughput (fft, 0, 0.271636);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nvprof-log/text/rows-equal-printed", test_text_rows_equal_printed);
  g_test_add_func ("/nvprof-log/csv/summary", test_csv_summary);
  g_test_add_func ("/nvprof-log/fixtures/open-or-refused", test_every_file_opens_or_is_refused);
  g_test_add_func ("/nvprof-log/summary/info-and-findings", test_summary_findings);
  g_test_add_func ("/nvprof-log/cli/stats", test_cli_stats);
  g_test_add_func ("/nvprof-log/cli/compare", test_compare_two_logs);
  g_test_add_func ("/nvprof/compare-export-with-nsys", test_compare_export_with_nsys);
  g_test_add_func ("/nvprof-trace/text", test_trace_text);
  g_test_add_func ("/nvprof-trace/csv", test_trace_csv);
  return g_test_run ();
}
