/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ws-error.h"
#include "ws-limits.h"
#include "ws-nsys-reader.h"
#include "ws-nvtx-depth.h"
#include "ws-reader-error.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-test-util.h"

static WsRun *
load_fixture (const char *name)
{
  g_autofree char *path = ws_test_data ("nsys", name, NULL);
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (run);
  return run;
}

static gint64
count_or_zero (const char *path, const char *table)
{
  g_autofree char *exists = NULL;
  g_autofree char *sql =
    g_strdup_printf ("SELECT name FROM sqlite_master WHERE type='table' AND name='%s'", table);

  exists = ws_test_sqlite_text (path, sql);
  return exists != NULL ? ws_test_sqlite_count (path, table) : 0;
}

/* Every export loads, and every kind of event has as many rows as SQLite's
 * own count(*) of its table. */
static void
test_every_fixture_loads (void)
{
  for (gsize i = 0; ws_test_nsys_exports[i] != NULL; i++)
    {
      g_autofree char *path = ws_test_data ("nsys", ws_test_nsys_exports[i], NULL);
      g_autoptr (WsRun) run = load_fixture (ws_test_nsys_exports[i]);
      gint64 ranges = 0, marks = 0;

      g_test_message ("%s", ws_test_nsys_exports[i]);
      g_assert_cmpint (run->kernels.n, ==, count_or_zero (path, "CUPTI_ACTIVITY_KIND_KERNEL"));
      g_assert_cmpint (run->memops.n, ==,
                       count_or_zero (path, "CUPTI_ACTIVITY_KIND_MEMCPY") +
                         count_or_zero (path, "CUPTI_ACTIVITY_KIND_MEMSET"));
      g_assert_cmpint (run->api.n, ==, count_or_zero (path, "CUPTI_ACTIVITY_KIND_RUNTIME"));
      g_assert_cmpint (run->mem_usage.n, ==, count_or_zero (path, "CUDA_GPU_MEMORY_USAGE_EVENTS"));
      g_assert_cmpint (run->metric_samples.n, ==, count_or_zero (path, "GPU_METRICS"));

      if (count_or_zero (path, "NVTX_EVENTS") > 0)
        {
          g_autofree char *r =
            ws_test_sqlite_text (path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, "
                                       "60, 70, 71) AND end IS NOT NULL");
          g_autofree char *m = ws_test_sqlite_text (
            path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34, 65)");

          ranges = g_ascii_strtoll (r, NULL, 10);
          marks = g_ascii_strtoll (m, NULL, 10);
        }
      g_assert_cmpint (run->nvtx.n, ==, ranges);
      g_assert_cmpint (run->marks.n, ==, marks);

      /* Tables are sorted by start, and no event ends before it starts. */
      for (gsize k = 1; k < run->kernels.n; k++)
        g_assert_cmpint (run->kernels.start[k - 1], <=, run->kernels.start[k]);
      for (gsize k = 0; k < run->api.n; k++)
        g_assert_cmpint (run->api.start[k], <=, run->api.end[k]);
      g_assert_cmpint (run->origin, <=, run->end_time);
    }
}

static void
test_provenance_versions (void)
{
  g_autoptr (WsRun) old = load_fixture ("v2021.2_mordred.sqlite");
  g_autoptr (WsRun) pipit = load_fixture ("v2022.2_pipit_saxpy_mpi.sqlite");
  g_autoptr (WsRun) probe = load_fixture ("v2025.3_h100_probe.sqlite");
  g_autoptr (WsRun) newest = load_fixture ("v2026.2_nsysai_h100_2gpu.sqlite");
  const WsGpu *gpu;

  /* 2021.2 has no metadata table at all. */
  g_assert_null (old->prov.nsys_version);
  g_assert_null (old->prov.metadata_table);
  g_assert_cmpuint (old->prov.gpus->len, ==, 1);
  g_assert_cmpstr (g_array_index (old->prov.gpus, WsGpu, 0).name, ==, "Quadro RTX 6000");

  /* Up to 2023.2 the table is EXPORT_META_DATA. */
  g_assert_cmpstr (pipit->prov.metadata_table, ==, "EXPORT_META_DATA");
  g_assert_cmpstr (pipit->prov.nsys_version, ==, "2022.2.1.31");

  g_assert_cmpstr (probe->prov.metadata_table, ==, "META_DATA_EXPORT");
  g_assert_cmpstr (probe->prov.nsys_version, ==, "2025.3.2.0");
  g_assert_cmpstr (probe->prov.schema_version, ==, "3.20.3");
  gpu = &g_array_index (probe->prov.gpus, WsGpu, 0);
  g_assert_cmpstr (gpu->name, ==, "NVIDIA H100 80GB HBM3");
  g_assert_cmpint (gpu->sm_count, ==, 132);
  g_assert_cmpint (gpu->cc_major, ==, 9);
  g_assert_cmpint (probe->prov.processes->len, ==, 1);
  g_assert_cmpstr (g_array_index (probe->prov.processes, WsProcess, 0).name, ==, "/tmp/probe");

  g_assert_cmpstr (newest->prov.schema_version, ==, "3.25.0");
  /* TARGET_INFO_GPU is empty there: the devices come from the events. */
  g_assert_cmpuint (newest->prov.gpus->len, ==, 0);
}

/* The 2021.2 export has no mangledName column; 2022.2 has one. */
static void
test_kernel_names_by_version (void)
{
  g_autoptr (WsRun) old = load_fixture ("v2021.2_mordred.sqlite");
  g_autoptr (WsRun) pipit = load_fixture ("v2022.2_pipit_saxpy_mpi.sqlite");
  g_autofree char *path = ws_test_data ("nsys", "v2022.2_pipit_saxpy_mpi.sqlite", NULL);
  g_autofree char *mangled =
    ws_test_sqlite_text (path, "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                               "JOIN StringIds s ON s.id = k.mangledName ORDER BY k.start LIMIT 1");
  g_autofree char *demangled = ws_test_sqlite_text (
    path, "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
          "JOIN StringIds s ON s.id = k.demangledName ORDER BY k.start LIMIT 1");

  for (gsize i = 0; i < old->kernels.n; i++)
    g_assert_cmpuint (old->kernels.mangled[i], ==, WS_STRING_NONE);
  g_assert_cmpstr (ws_run_kernel_name (pipit, 0, WS_NAME_MANGLED), ==, mangled);
  g_assert_cmpstr (ws_run_kernel_name (pipit, 0, WS_NAME_DEMANGLED), ==, demangled);
}

/* NVTX names come from `text` or, when it is NULL, from StringIds by
 * textId; domains from the domain-create events. */
static void
test_nvtx_names_and_domains (void)
{
  g_autoptr (WsRun) run = load_fixture ("v2022.2_pipit_saxpy_mpi.sqlite");
  gboolean saw_mpi_init = FALSE, saw_saxpy = FALSE;

  g_assert_cmpuint (run->nvtx.n, ==, 22);
  for (gsize i = 0; i < run->nvtx.n; i++)
    {
      const char *name = ws_run_string (run, run->nvtx.name[i]);
      const char *domain = ws_run_nvtx_domain_name (run, run->nvtx.domain[i]);

      if (g_str_equal (name, "MPI_Init"))
        {
          saw_mpi_init = TRUE;
          g_assert_cmpstr (domain, ==, "MPI");
          g_assert_cmpint (run->nvtx.start[i], ==, 65117824);
          g_assert_cmpint (run->nvtx.end[i], ==, 710796807);
        }
      if (g_str_equal (name, "saxpy"))
        {
          saw_saxpy = TRUE;
          g_assert_cmpstr (domain, ==, "");
        }
    }
  g_assert_true (saw_mpi_init);
  g_assert_true (saw_saxpy);
}

/* Chinese names, ARGB colours, marks and the nesting depth on the probe. */
static void
test_nvtx_probe (void)
{
  g_autoptr (WsRun) run = load_fixture ("v2025.3_h100_probe.sqlite");
  guint found = 0;

  g_assert_cmpuint (run->marks.n, ==, 1);
  g_assert_cmpstr (ws_run_string (run, run->marks.name[0]), ==, "done");
  g_assert_cmpint (run->marks.time[0], ==, 456604528);

  for (gsize i = 0; i < run->nvtx.n; i++)
    {
      const char *name = ws_run_string (run, run->nvtx.name[i]);

      if (g_str_equal (name, "负载不均衡"))
        {
          /* push("负载不均衡", 0xFFFF00FF) in probe.cu */
          g_assert_cmpuint (run->nvtx.color[i], ==, 0xFFFF00FF);
          g_assert_cmpuint (run->nvtx.depth[i], ==, 0);
          g_assert_cmpint (run->nvtx.style[i], ==, WS_NVTX_PUSH_POP);
          found++;
        }
      else if (g_str_equal (name, "任务3") || g_str_equal (name, "分配内存"))
        {
          g_assert_cmpuint (run->nvtx.depth[i], ==, 1);
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 1 + 1 + 20);
}

/* The depth of a push/pop range is the number of ranges of its thread that
 * enclose it, computed here by SQL over the export. */
static void
test_nvtx_depth_matches_sql (void)
{
  static const char *const names[] = { "v2025.3_h100_probe.sqlite",
                                       "v2025.3_h100_train_fp32.sqlite" };

  for (gsize f = 0; f < G_N_ELEMENTS (names); f++)
    {
      g_autofree char *path = ws_test_data ("nsys", names[f], NULL);
      g_autoptr (WsRun) run = load_fixture (names[f]);

      for (gsize i = 0; i < run->nvtx.n; i++)
        {
          g_autofree char *sql = g_strdup_printf (
            "SELECT count(*) FROM NVTX_EVENTS p WHERE p.eventType = 59 AND p.globalTid = "
            "%" G_GINT64_FORMAT " AND p.start <= %" G_GINT64_FORMAT
            " AND p.end >= %" G_GINT64_FORMAT " AND NOT (p.start = %" G_GINT64_FORMAT
            " AND p.end = %" G_GINT64_FORMAT ")",
            ws_run_thread (run, run->nvtx.thread[i])->global_tid, run->nvtx.start[i],
            run->nvtx.end[i], run->nvtx.start[i], run->nvtx.end[i]);
          g_autofree char *enclosing = ws_test_sqlite_text (path, sql);

          g_assert_cmpint (run->nvtx.depth[i], ==, g_ascii_strtoll (enclosing, NULL, 10));
        }
    }
}

/* `nsys stats --report nvtx_pushpop_trace` prints each range's level (Lvl)
 * from nsys's own stack: the depth we assign must equal it. */
static void
test_nvtx_depth_matches_pushpop_trace (void)
{
  g_autofree char *path = ws_test_data ("nsys-stats", "pipit_nvtx_pushpop_trace.csv", NULL);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) start = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) end = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) thread = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) level = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autofree guint16 *depth = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_true (g_str_has_prefix (
    lines[0], "Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),Name,PID,TID,Lvl"));
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
      gint64 s = g_ascii_strtoll (f[0], NULL, 10), e = g_ascii_strtoll (f[1], NULL, 10);
      guint32 t = (guint32) g_ascii_strtoull (f[7], NULL, 10);
      guint16 lvl = (guint16) g_ascii_strtoull (f[8], NULL, 10);

      g_assert_cmpuint (g_strv_length (f), >=, 9);
      g_array_append_val (start, s);
      g_array_append_val (end, e);
      g_array_append_val (thread, t);
      g_array_append_val (level, lvl);
    }
  g_assert_cmpuint (start->len, ==, 131);

  /* The trace lists ranges by start; thread ids are small here. */
  depth = g_new0 (guint16, start->len);
  ws_nvtx_assign_depth ((gint64 *) start->data, (gint64 *) end->data, (guint32 *) thread->data,
                        start->len, 1, depth);
  for (guint i = 0; i < start->len; i++)
    g_assert_cmpuint (depth[i], ==, g_array_index (level, guint16, i));
}

static void
test_gpu_metrics_and_memory (void)
{
  g_autoptr (WsRun) run = load_fixture ("v2025.3_h100_probe.sqlite");
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  /* The samples of one metric: its rows of GPU_METRICS, named through
   * TARGET_INFO_GPU_METRICS (by type and metric id). */
  g_autofree char *sm_active =
    ws_test_sqlite_text (path, "SELECT count(*) FROM GPU_METRICS g JOIN TARGET_INFO_GPU_METRICS t "
                               "ON t.typeId = g.typeId AND t.metricId = g.metricId "
                               "WHERE t.metricName = 'SMs Active [Throughput %]'");
  g_autofree char *all = ws_test_sqlite_text (path, "SELECT count(*) FROM GPU_METRICS");
  gboolean saw_sm_active = FALSE;
  gsize total = 0;
  gint64 allocated = 0;

  for (guint m = 0; m < run->metrics->len; m++)
    {
      const WsGpuMetric *metric = &g_array_index (run->metrics, WsGpuMetric, m);
      const char *name = ws_run_string (run, metric->name);

      total += metric->n;
      if (g_str_equal (name, "SMs Active [Throughput %]"))
        {
          saw_sm_active = TRUE;
          g_assert_cmpint ((gint64) metric->n, ==, g_ascii_strtoll (sm_active, NULL, 10));
        }
      for (gsize k = metric->first + 1; k < metric->first + metric->n; k++)
        g_assert_cmpint (run->metric_samples.time[k - 1], <=, run->metric_samples.time[k]);
    }
  g_assert_true (saw_sm_active);
  g_assert_cmpuint (total, ==, run->metric_samples.n);
  g_assert_cmpint ((gint64) total, ==, g_ascii_strtoll (all, NULL, 10));

  /* probe.cu frees everything it allocates through cudaMalloc. */
  for (gsize i = 0; i < run->mem_usage.n; i++)
    allocated += run->mem_usage.bytes[i];
  g_assert_cmpint (allocated, ==, 0);
}

static void
test_thread_names (void)
{
  g_autoptr (WsRun) run = load_fixture ("v2025.3_h100_probe.sqlite");
  gboolean named = FALSE;

  for (guint i = 0; i < run->threads->len; i++)
    {
      const WsThread *thread = ws_run_thread (run, i);

      g_assert_cmpuint (thread->pid, ==, 3180);
      if (thread->name != WS_STRING_NONE &&
          g_str_equal (ws_run_string (run, thread->name), "probe"))
        named = TRUE;
    }
  g_assert_true (named);
}

static void
test_streams_and_configs (void)
{
  g_autoptr (WsRun) run = load_fixture ("v2025.3_h100_probe.sqlite");
  guint imbalanced_streams = 0;

  /* imbalanced<<<64, 256, 0, s[k]>>> on four streams of their own. */
  for (gsize i = 0; i < run->kernels.n; i++)
    if (g_str_has_prefix (ws_run_kernel_name (run, i, WS_NAME_DEMANGLED), "imbalanced("))
      {
        const WsLaunchConfig *config = ws_run_kernel_config (run, i);

        g_assert_cmpuint (config->grid[0], ==, 64);
        g_assert_cmpuint (config->block[0], ==, 256);
        g_assert_cmpint (ws_run_kernel_stream (run, i)->stream_id, ==,
                         13 + (int) imbalanced_streams);
        imbalanced_streams++;
      }
  g_assert_cmpuint (imbalanced_streams, ==, 4);
}

static void
test_no_kernels_is_not_an_error (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *copy = ws_test_copy_to_tmp (path, "nvtx-only.sqlite");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autofree char *dropped = NULL;
  g_autofree char *sql =
    g_strdup_printf ("sqlite3 %s 'DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL'", copy);

  g_assert_true (g_spawn_command_line_sync (sql, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  dropped = ws_test_sqlite_text (
    copy, "SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'");
  g_assert_cmpstr (dropped, ==, "0");

  run = ws_nsys_reader_load (copy, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (run->has_kernel_table);
  g_assert_cmpuint (run->kernels.n, ==, 0);
  g_assert_cmpuint (run->nvtx.n, ==, 146);
  g_assert_false (ws_run_has_summary_data (run, WS_SUMMARY_KERN_SUM));
}

typedef struct
{
  double last;
  guint calls;
} Progress;

static void
record_progress (double fraction, const char *what, gpointer data)
{
  Progress *progress = data;

  g_assert_cmpfloat (fraction, >=, progress->last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  g_assert_nonnull (what);
  progress->last = fraction;
  progress->calls++;
}

static void
test_progress_reaches_one (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autoptr (GError) error = NULL;
  Progress progress = { 0, 0 };
  g_autoptr (WsRun) run =
    ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, record_progress, &progress, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (progress.calls, >=, 10);
  g_assert_cmpfloat (progress.last, ==, 1.0);
}

static void
test_cancel (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;

  g_cancellable_cancel (cancellable);
  run = ws_nsys_reader_load (path, WS_LOAD_ALL, cancellable, NULL, NULL, &error);
  g_assert_null (run);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Cancelling half-way, from the progress callback, stops the load. */
static void
cancel_at_half (double fraction, const char *what, gpointer data)
{
  if (fraction >= 0.5)
    g_cancellable_cancel (data);
}

static void
test_cancel_midway (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run =
    ws_nsys_reader_load (path, WS_LOAD_ALL, cancellable, cancel_at_half, cancellable, &error);

  g_assert_null (run);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

typedef struct
{
  GMainLoop *loop;
  WsRun *run;
  GError *error;
  guint progress_calls;
  GThread *main_thread;
} AsyncLoad;

static void
async_progress (double fraction, const char *what, gpointer data)
{
  AsyncLoad *load = data;

  /* Progress arrives on the caller's main context, not the worker. */
  g_assert_true (g_thread_self () == load->main_thread);
  load->progress_calls++;
}

static void
async_done (GObject *source, GAsyncResult *result, gpointer data)
{
  AsyncLoad *load = data;

  load->run = ws_run_load_finish (result, &load->error);
  g_main_loop_quit (load->loop);
}

static void
test_async_load (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  const char *paths[] = { path, NULL };
  AsyncLoad load = { g_main_loop_new (NULL, FALSE), NULL, NULL, 0, g_thread_self () };

  ws_run_load_async (paths, WS_LOAD_ALL, NULL, async_progress, &load, NULL, async_done, &load);
  g_main_loop_run (load.loop);
  g_assert_no_error (load.error);
  g_assert_nonnull (load.run);
  g_assert_cmpuint (load.run->kernels.n, ==, 336);
  /* The summaries are derived on the worker, before the run is shared. */
  g_assert_nonnull (ws_run_get_summary (load.run, WS_SUMMARY_KERN_SUM));
  g_assert_nonnull (ws_run_get_summary (load.run, WS_SUMMARY_NVTX_SUM));
  g_assert_cmpuint (load.progress_calls, >, 0);
  ws_run_unref (load.run);
  g_main_loop_unref (load.loop);
}

/* Opening a run never writes to the file or creates anything beside it. */
static void
test_read_only (void)
{
  g_autofree char *fixture = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *copy = ws_test_copy_to_tmp (fixture, "probe.sqlite");
  g_autofree char *dir = g_path_get_dirname (copy);
  g_autofree char *before = ws_test_file_sha256 (copy);
  g_autoptr (GPtrArray) listing_before = ws_test_list_dir (dir);
  g_autoptr (GPtrArray) listing_after = NULL;
  g_autofree char *after = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_chmod (copy, 0444), ==, 0);
  {
    g_autoptr (WsRun) run = ws_nsys_reader_load (copy, WS_LOAD_ALL, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (run->kernels.n, ==, 336);
  }
  after = ws_test_file_sha256 (copy);
  listing_after = ws_test_list_dir (dir);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpuint (listing_before->len, ==, listing_after->len);
  for (guint i = 0; i < listing_after->len; i++)
    g_assert_cmpstr (g_ptr_array_index (listing_before, i), ==,
                     g_ptr_array_index (listing_after, i));
}

/* GPU_METRICS rows cycle through the metrics.  With the probe's 138,204
 * samples spread over 55,000 metrics (each metric id shifted by
 * 1000 × (rowid % 5000)), far more than the 4,096 the reader used to stop
 * at, dropping every sample after, every sample is read, each under its
 * metric: as SQL counts. */
static void
test_gpu_metrics_thousands (void)
{
  g_autofree char *source = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *path = ws_test_copy_to_tmp (source, "v2025.3_h100_probe.sqlite");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autofree char *samples = NULL, *metrics = NULL, *busiest = NULL;
  gint64 most = 0;

  ws_test_sqlite_exec (path, "UPDATE GPU_METRICS SET metricId = metricId + 1000 * (rowid % 5000)");
  samples = ws_test_sqlite_text (path, "SELECT count(*) FROM GPU_METRICS");
  metrics = ws_test_sqlite_text (
    path, "SELECT count(*) FROM (SELECT DISTINCT typeId, metricId FROM GPU_METRICS)");
  busiest = ws_test_sqlite_text (path, "SELECT max(n) FROM (SELECT count(*) AS n FROM GPU_METRICS "
                                       "GROUP BY typeId, metricId)");
  run = ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("SQL: %s samples of %s metrics; loaded %" G_GSIZE_FORMAT " samples of %u metrics",
                  samples, metrics, run->metric_samples.n, run->metrics->len);
  g_assert_cmpint ((gint64) run->metric_samples.n, ==, g_ascii_strtoll (samples, NULL, 10));
  /* The probe's TARGET_INFO_GPU_METRICS names metrics no sample has now. */
  g_assert_cmpuint (run->metrics->len, >=, g_ascii_strtoull (metrics, NULL, 10));
  for (guint m = 0; m < run->metrics->len; m++)
    most = MAX (most, (gint64) g_array_index (run->metrics, WsGpuMetric, m).n);
  g_assert_cmpint (most, ==, g_ascii_strtoll (busiest, NULL, 10));
  ws_test_rmtree (dir);
}

/* Some tools suffix table names with a version: _V10 is newer than _V9. */
static void
test_highest_table_version (void)
{
  g_autofree char *source = ws_test_data ("nsys", "v2021.2_mordred.sqlite", NULL);
  g_autofree char *path = ws_test_copy_to_tmp (source, "v2021.2_mordred.sqlite");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autofree char *kernels = NULL;

  ws_test_sqlite_exec (
    path, "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO CUPTI_ACTIVITY_KIND_KERNEL_V10;"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL_V9 AS "
          "SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL_V10 LIMIT 1;"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL_V2 AS "
          "SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL_V10 LIMIT 2");
  kernels = ws_test_sqlite_text (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL_V10");
  run = ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint ((gint64) run->kernels.n, ==, g_ascii_strtoll (kernels, NULL, 10));
  g_assert_cmpint ((gint64) run->kernels.n, >, 2);
  ws_test_rmtree (dir);
}

/* The memory a load may use counts the scratch of sorting its largest
 * table, not only the tables: with a budget of exactly what the probe's
 * tables take (per-row costs of ws-nsys-reader.c times SQL's counts), it is
 * refused; with the scratch of its largest table (24-byte items twice, a
 * 4-byte order and an 8-byte column copy per row) added, it loads. */
static void
test_budget_counts_sort_scratch (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  static const struct
  {
    const char *table;
    guint64 bytes;
  } costs[] = {
    { "CUPTI_ACTIVITY_KIND_KERNEL", 48 },
    { "CUPTI_ACTIVITY_KIND_MEMCPY", 48 },
    { "CUPTI_ACTIVITY_KIND_MEMSET", 48 },
    { "CUPTI_ACTIVITY_KIND_RUNTIME", 40 },
    { "NVTX_EVENTS", 80 },
    { "CUDA_GPU_MEMORY_USAGE_EVENTS", 24 },
    { "GPU_METRICS", 44 },
    { "OSRT_API", 24 },
  };
  guint64 tables = 0, largest = 0;
  g_autofree char *limit = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (costs); i++)
    {
      guint64 rows = (guint64) MAX (count_or_zero (path, costs[i].table), 0);

      tables += rows * costs[i].bytes;
      largest = MAX (largest, rows);
    }
  g_test_message ("tables %" G_GUINT64_FORMAT " bytes, largest %" G_GUINT64_FORMAT " rows", tables,
                  largest);
  for (int with_scratch = 0; with_scratch < 2; with_scratch++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsRun) run = NULL;

      g_free (limit);
      limit = g_strdup_printf ("%" G_GUINT64_FORMAT, tables + (with_scratch ? largest * 60 : 0));
      g_setenv ("WARPSCOPE_MEMORY_LIMIT", limit, TRUE);
      run = ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, NULL, NULL, &error);
      g_unsetenv ("WARPSCOPE_MEMORY_LIMIT");
      if (with_scratch)
        g_assert_no_error (error);
      else
        g_assert_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE);
    }
}

/* A table of more than 2^32 rows is refused by its count, with a message
 * that says so (event indices are 32-bit). */
static void
test_rows_beyond_32_bits (void)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (ws_limits_check_rows ("x.sqlite", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                        (gint64) G_MAXUINT32 + 1, 1, &error));
  g_assert_error (error, WS_BASE_ERROR, WS_BASE_ERROR_TOO_LARGE);
  g_assert_cmpstr (error->message, ==,
                   "x.sqlite: CUPTI_ACTIVITY_KIND_MEMCPY has 4294967296 rows, more than the "
                   "4294967295 a table may have");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nsys-sqlite/every-fixture/loads-with-sqlite-counts", test_every_fixture_loads);
  g_test_add_func ("/nsys-sqlite/provenance/versions-and-gpus", test_provenance_versions);
  g_test_add_func ("/nsys-sqlite/kernels/names-by-version", test_kernel_names_by_version);
  g_test_add_func ("/nsys-sqlite/kernels/streams-and-launch-configs", test_streams_and_configs);
  g_test_add_func ("/nsys-sqlite/nvtx/names-from-text-id-and-domains", test_nvtx_names_and_domains);
  g_test_add_func ("/nsys-sqlite/nvtx/probe-colours-marks-depth", test_nvtx_probe);
  g_test_add_func ("/nsys-sqlite/nvtx/depth-equals-enclosing-ranges", test_nvtx_depth_matches_sql);
  g_test_add_func ("/nsys-sqlite/nvtx/depth-equals-pushpop-trace-level",
                   test_nvtx_depth_matches_pushpop_trace);
  g_test_add_func ("/nsys-sqlite/gpu-metrics-and-memory-usage", test_gpu_metrics_and_memory);
  g_test_add_func ("/nsys-sqlite/gpu-metrics/thousands-of-metrics-lose-nothing",
                   test_gpu_metrics_thousands);
  g_test_add_func ("/nsys-sqlite/tables/highest-version-suffix", test_highest_table_version);
  g_test_add_func ("/nsys-sqlite/limits/budget-counts-sort-scratch",
                   test_budget_counts_sort_scratch);
  g_test_add_func ("/nsys-sqlite/limits/rows-beyond-32-bits", test_rows_beyond_32_bits);
  g_test_add_func ("/nsys-sqlite/threads/names", test_thread_names);
  g_test_add_func ("/nsys-sqlite/no-kernel-table/loads", test_no_kernels_is_not_an_error);
  g_test_add_func ("/nsys-sqlite/load/progress-reaches-one", test_progress_reaches_one);
  g_test_add_func ("/nsys-sqlite/load/cancel-before-start", test_cancel);
  g_test_add_func ("/nsys-sqlite/load/cancel-midway", test_cancel_midway);
  g_test_add_func ("/nsys-sqlite/load/async-on-worker-thread", test_async_load);
  g_test_add_func ("/nsys-sqlite/load/never-writes-beside-the-file", test_read_only);

  return g_test_run ();
}
