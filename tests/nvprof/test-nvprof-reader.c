/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "ws-demangle.h"
#include "ws-input.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* Every nvprof export in tests/data/nvprof (their
 * sources: tests/data/THIRD-PARTY.md): those that open, with
 * their numbers against SQL written here, and those that only look like
 * exports, with the one line each gets. */

typedef struct
{
  const char *file;
  guint n_gpus; /* GPUs that ran something */
} Export;

static const Export exports[] = {
  { "nvvp_blinkplus_nccl_8xv100.nvvp", 4 },     { "nvvp_tf_tutorial_mnist_titanx.nvvp", 1 },
  { "nvvp_ece408_mxnet_timeline.nvprof", 1 },   { "nvvp_ece408_mxnet_analysis_metrics.nvprof", 1 },
  { "nvvp_jetson_nano_tensorrt_yolo.nvvp", 1 },
};

static WsRun *
load (const char *file)
{
  g_autofree char *path = ws_test_data ("nvprof", file, NULL);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (run);
  return run;
}

static gint64
sql_count (const char *path, const char *table)
{
  g_autofree char *text = NULL;
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM %s", table);

  text = ws_test_sqlite_text (path, sql);
  return g_ascii_strtoll (text, NULL, 10);
}

static void
test_detect (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (exports); i++)
    {
      g_autofree char *path = ws_test_data ("nvprof", exports[i].file, NULL);
      g_autoptr (GError) error = NULL;

      g_assert_cmpint (ws_input_detect (path, &error), ==, WS_INPUT_NVPROF_SQLITE);
      g_assert_no_error (error);
    }
}

/* Each table's rows arrive, whatever the schema version (8 to 16). */
static void
test_counts_equal_sql (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (exports); i++)
    {
      g_autofree char *path = ws_test_data ("nvprof", exports[i].file, NULL);
      g_autoptr (WsRun) run = load (exports[i].file);
      gint64 kernels = sql_count (path, "CUPTI_ACTIVITY_KIND_KERNEL") +
                       sql_count (path, "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL");
      gint64 memops = sql_count (path, "CUPTI_ACTIVITY_KIND_MEMCPY") +
                      sql_count (path, "CUPTI_ACTIVITY_KIND_MEMSET");
      gint64 api = sql_count (path, "CUPTI_ACTIVITY_KIND_RUNTIME") +
                   sql_count (path, "CUPTI_ACTIVITY_KIND_DRIVER");

      g_test_message ("%s", exports[i].file);
      g_assert_cmpstr (run->prov.kind, ==, "nvprof-sqlite");
      g_assert_cmpint ((gint64) run->kernels.n, ==, kernels);
      g_assert_cmpint ((gint64) run->memops.n, ==, memops);
      g_assert_cmpint ((gint64) run->api.n, ==, api);
      g_assert_cmpuint (run->prov.gpus->len, ==, exports[i].n_gpus);
      g_assert_cmpint (kernels, >, 0);
    }
}

/* The kernel summary, grouped by the names as nvprof stored them, equals
 * a GROUP BY over both kernel tables. */
static void
test_kernel_summary_matches_sql (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (exports); i++)
    {
      g_autofree char *path = ws_test_data ("nvprof", exports[i].file, NULL);
      g_autoptr (WsRun) run = load (exports[i].file);
      g_autoptr (WsSummary) summary = ws_stats_compute (run, WS_SUMMARY_KERN_SUM, WS_NAME_MANGLED);
      sqlite3 *db = NULL;
      sqlite3_stmt *stmt = NULL;
      guint rows = 0;
      const char *sql =
        "SELECT s.value, count(*), sum(k.e - k.s), min(k.e - k.s), max(k.e - k.s) FROM "
        "(SELECT name, start AS s, end AS e FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
        " SELECT name, start, end FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) k "
        "JOIN StringTable s ON s._id_ = k.name GROUP BY s.value";

      g_test_message ("%s", exports[i].file);
      g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          const char *name = (const char *) sqlite3_column_text (stmt, 0);
          const WsSummaryRow *row = ws_summary_find (summary, name);

          g_assert_nonnull (row);
          g_assert_cmpint (row->count, ==, sqlite3_column_int64 (stmt, 1));
          g_assert_cmpint (row->total, ==, sqlite3_column_int64 (stmt, 2));
          g_assert_cmpint (row->min, ==, sqlite3_column_int64 (stmt, 3));
          g_assert_cmpint (row->max, ==, sqlite3_column_int64 (stmt, 4));
          rows++;
        }
      sqlite3_finalize (stmt);
      sqlite3_close (db);
      g_assert_cmpuint (rows, ==, summary->rows->len);
    }
}

/* Names as c++filt prints them (c++filt 2.40 on the two symbols). */
static void
test_demangled_names (void)
{
  g_autoptr (WsRun) nccl = load ("nvvp_blinkplus_nccl_8xv100.nvvp");
  g_autoptr (WsRun) mx = load ("nvvp_ece408_mxnet_timeline.nvprof");
  g_autoptr (WsSummary) by_name = ws_stats_compute (nccl, WS_SUMMARY_KERN_SUM, WS_NAME_DEMANGLED);
  g_autoptr (WsSummary) by_short = ws_stats_compute (mx, WS_SUMMARY_KERN_SUM, WS_NAME_SHORT);
  g_autofree char *plain = ws_demangle ("volta_sgemm_128x64_tn");

  g_assert_nonnull (ws_summary_find (by_name, "ncclBroadcastRingLLKernel_copy_i8(ncclColl)"));
  g_assert_nonnull (ws_summary_find (by_name, "ncclAllReduceTreeLLKernel_sum_i32(ncclColl)"));
  /* mxnet::op::forward_kernel(float*, float const*, float const*, int, …) */
  g_assert_nonnull (ws_summary_find (by_short, "forward_kernel"));
  g_assert_nonnull (ws_summary_find (by_short, "volta_sgemm_128x64_tn"));
  g_assert_null (plain);
}

/* CUPTI callback id 20 is cudaMalloc (cupti_runtime_cbid.h); the NCCL demo
 * calls it 172 times (SELECT count(*) … WHERE cbid = 20). */
static void
test_api_names (void)
{
  g_autofree char *path = ws_test_data ("nvprof", "nvvp_blinkplus_nccl_8xv100.nvvp", NULL);
  g_autoptr (WsRun) run = load ("nvvp_blinkplus_nccl_8xv100.nvvp");
  const WsSummary *api = ws_run_get_summary (run, WS_SUMMARY_API_SUM);
  const WsSummaryRow *malloc_row = ws_summary_find (api, "cudaMalloc");

  g_assert_nonnull (malloc_row);
  g_assert_cmpint (malloc_row->count, ==,
                   sql_count (path, "CUPTI_ACTIVITY_KIND_RUNTIME WHERE cbid = 20"));
  g_assert_cmpint (malloc_row->count, ==, 172);
}

/* Driver calls are named from cupti_driver_cbid.h (build-aux/
 * gen-cupti-names.py).  The truth here is CUPTI's own link between a call
 * and what it started: every kernel and copy of every export is matched,
 * by correlation id, to the API call that launched it, and that call's
 * name must say so: TensorRT on the Jetson launches with cuLaunchKernel
 * (driver id 307) and copies with cuMemcpyHtoDAsync/cuMemcpyDtoHAsync
 * (277, 279), TensorFlow copies with cuMemcpyHtoDAsync, the NCCL demo
 * launches with cudaLaunchCooperativeKernelMultiDevice (runtime id 272).
 * No call of any export is left without a name.  How many kernels have a
 * launching call, and how many copies and sets a driver call, SQL over
 * the export counts. */
static void
check_launchers (const WsRun *run, const char *file)
{
  g_autofree char *path = ws_test_data ("nvprof", file, NULL);
  g_autofree char *sql_kernels = ws_test_sqlite_text (
    path, "SELECT count(*) FROM (SELECT correlationId c FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL "
          "UNION ALL SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL) WHERE c IN (SELECT "
          "correlationId FROM CUPTI_ACTIVITY_KIND_DRIVER UNION SELECT correlationId FROM "
          "CUPTI_ACTIVITY_KIND_RUNTIME)");
  g_autofree char *sql_copies = ws_test_sqlite_text (
    path, "SELECT count(*) FROM (SELECT correlationId c FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION "
          "ALL SELECT correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET) WHERE c IN (SELECT "
          "correlationId FROM CUPTI_ACTIVITY_KIND_DRIVER) AND c NOT IN (SELECT correlationId "
          "FROM CUPTI_ACTIVITY_KIND_RUNTIME)");
  g_autoptr (GHashTable) by_corr = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint kernels = 0, copies = 0;

  for (gsize i = 0; i < run->api.n; i++)
    {
      const char *name = ws_run_string (run, run->api.name[i]);

      g_assert_null (strstr (name, "driver call"));
      g_assert_null (strstr (name, "runtime call"));
      g_hash_table_insert (by_corr, GUINT_TO_POINTER (run->api.correlation[i] + 1),
                           (gpointer) name);
    }
  for (gsize i = 0; i < run->kernels.n; i++)
    {
      const char *caller =
        g_hash_table_lookup (by_corr, GUINT_TO_POINTER (run->kernels.correlation[i] + 1));

      if (caller == NULL)
        continue;
      g_test_message ("%s: kernel launched by %s", file, caller);
      g_assert_nonnull (strstr (caller, "Launch"));
      kernels++;
    }
  for (gsize i = 0; i < run->memops.n; i++)
    {
      const char *caller =
        g_hash_table_lookup (by_corr, GUINT_TO_POINTER (run->memops.correlation[i] + 1));
      const char *dir = run->memops.kind[i] == WS_MEMOP_HTOD   ? "HtoD"
                        : run->memops.kind[i] == WS_MEMOP_DTOH ? "DtoH"
                                                               : NULL;

      if (caller == NULL || !g_str_has_prefix (caller, "cu") || g_str_has_prefix (caller, "cuda"))
        continue;
      g_assert_true (g_str_has_prefix (caller, "cuMemcpy") ||
                     g_str_has_prefix (caller, "cuMemset"));
      if (dir != NULL)
        g_assert_nonnull (strstr (caller, dir));
      copies++;
    }
  g_test_message ("%s: %u kernels and %u driver copies checked", file, kernels, copies);
  g_assert_cmpuint (kernels, >, 0);
  g_assert_cmpint (kernels, ==, g_ascii_strtoll (sql_kernels, NULL, 10));
  g_assert_cmpint (copies, ==, g_ascii_strtoll (sql_copies, NULL, 10));
}

static void
test_driver_names (void)
{
  guint checked = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (exports); i++)
    {
      g_autoptr (WsRun) run = load (exports[i].file);

      if (run->api.n > 0)
        {
          check_launchers (run, exports[i].file);
          checked++;
        }
    }
  /* All but the metrics-only mxnet export record API calls. */
  g_assert_cmpuint (checked, ==, 4);
  {
    g_autoptr (WsRun) jetson = load ("nvvp_jetson_nano_tensorrt_yolo.nvvp");
    const WsSummary *api = ws_run_get_summary (jetson, WS_SUMMARY_API_SUM);
    const WsSummaryRow *launch = ws_summary_find (api, "cuLaunchKernel");

    /* SELECT count(*) FROM CUPTI_ACTIVITY_KIND_DRIVER WHERE cbid = 307 */
    g_assert_nonnull (launch);
    g_assert_cmpint (launch->count, ==, 19);
    g_assert_nonnull (ws_summary_find (api, "cuMemcpyHtoDAsync"));
    g_assert_nonnull (ws_summary_find (api, "cuDeviceGetAttribute"));
  }
}

/* TensorRT's layer ranges: 58 MARKER starts paired with their ends by id;
 * ExecutionContext::enqueue (string 3) lasts its end minus its start. */
static void
test_nvtx_markers (void)
{
  g_autofree char *path = ws_test_data ("nvprof", "nvvp_jetson_nano_tensorrt_yolo.nvvp", NULL);
  g_autoptr (WsRun) run = load ("nvvp_jetson_nano_tensorrt_yolo.nvvp");
  const WsSummary *nvtx = ws_run_get_summary (run, WS_SUMMARY_NVTX_SUM);
  const WsSummaryRow *enqueue = ws_summary_find (nvtx, "TensorRT:ExecutionContext::enqueue");
  g_autofree char *expected =
    ws_test_sqlite_text (path, "SELECT e.timestamp - s.timestamp FROM CUPTI_ACTIVITY_KIND_MARKER s "
                               "JOIN CUPTI_ACTIVITY_KIND_MARKER e ON e.id = s.id AND e.flags = 4 "
                               "WHERE s.flags = 2 AND s.name = 3");

  g_assert_cmpint ((gint64) run->nvtx.n, ==,
                   sql_count (path, "CUPTI_ACTIVITY_KIND_MARKER WHERE flags = 2"));
  g_assert_cmpuint (run->nvtx.n, ==, 58);
  g_assert_nonnull (enqueue);
  g_assert_cmpint (enqueue->total, ==, g_ascii_strtoll (expected, NULL, 10));
  g_assert_cmpint (enqueue->total, ==, 162869804);
}

typedef struct
{
  const char *file;
  const char *says;
} Refused;

static const Refused refused[] = {
  { "nvvp_nbody_openacc_session_xml.nvvp", "a Visual Profiler session file (XML)" },
  { "nvvp_hybridmaxflow_legacy_binary.nvprof", "not an nvprof export" },
  { "nvvp_saw_models_cpu_sampling_only.nvvp", "CPU samples only" },
  { "nvvp_profiling_lm_empty_no_kernels.sql", "with no kernels, memory copies or CUDA API calls" },
};

static void
test_lookalikes_refused (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *path = ws_test_data ("nvprof", refused[i].file, NULL);
      const char *argv[] = { ws_test_cli (), "info", path, NULL };
      g_autofree char *out = NULL, *err = NULL;

      g_test_message ("%s", refused[i].file);
      g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 2);
      g_assert_nonnull (strstr (err, path));
      g_assert_nonnull (strstr (err, refused[i].says));
      /* One line. */
      g_assert_nonnull (strchr (err, '\n'));
      g_assert_cmpstr (strchr (err, '\n') + 1, ==, "");
      g_assert_cmpstr (out, ==, "");
    }
}

/* The CLI reads them like any run: `stats` in nsys's CSV form, `compare`
 * of the two ece408 runs (the timeline and the --analysis-metrics run of
 * one program), a Chrome trace. */
static void
test_cli (void)
{
  g_autofree char *nccl = ws_test_data ("nvprof", "nvvp_blinkplus_nccl_8xv100.nvvp", NULL);
  g_autofree char *a = ws_test_data ("nvprof", "nvvp_ece408_mxnet_timeline.nvprof", NULL);
  g_autofree char *b = ws_test_data ("nvprof", "nvvp_ece408_mxnet_analysis_metrics.nvprof", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *trace = g_build_filename (dir, "nccl.json", NULL);
  const char *stats[] = { ws_test_cli (), "stats", "--format", "csv", nccl, NULL };
  const char *compare[] = { ws_test_cli (), "compare", "--by", "short", "--format",
                            "csv",          a,         b,      NULL };
  const char *chrome[] = { ws_test_cli (), "export", "--chrome-trace", trace, nccl, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;

  g_assert_cmpint (ws_test_run (stats, &out, &err), ==, 0);
  /* 12 + 12 launches over devices 0–3; totals from the GROUP BY above. */
  g_assert_nonnull (strstr (out, ",12,"));
  g_assert_nonnull (strstr (out, "ncclAllReduceTreeLLKernel_sum_i32(ncclColl)"));

  g_assert_cmpint (ws_test_run (compare, &out2, &err2), ==, 0);
  g_assert_nonnull (strstr (out2, "forward_kernel,"));

  g_assert_cmpint (ws_test_run (chrome, &out3, &err3), ==, 0);
  g_assert_cmpuint (ws_test_trace_count (trace, "kernel"), ==, 24);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nvprof/detect", test_detect);
  g_test_add_func ("/nvprof/counts-equal-sql", test_counts_equal_sql);
  g_test_add_func ("/nvprof/kernel-summary/matches-sql", test_kernel_summary_matches_sql);
  g_test_add_func ("/nvprof/kernel-names/demangled", test_demangled_names);
  g_test_add_func ("/nvprof/api/names-by-callback-id", test_api_names);
  g_test_add_func ("/nvprof/api/driver-names-by-callback-id", test_driver_names);
  g_test_add_func ("/nvprof/nvtx/markers-paired", test_nvtx_markers);
  g_test_add_func ("/nvprof/lookalikes-refused", test_lookalikes_refused);
  g_test_add_func ("/nvprof/cli", test_cli);
  return g_test_run ();
}
