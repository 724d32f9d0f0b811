/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <sqlite3.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-nvtx-kernels.h"
#include "ws-run-loader.h"
#include "ws-test-util.h"

/* NVTX ranges of an nvprof export get their GPU time through the
 * correlation ids of the calls that launched the work, as in nsys.  The
 * fixture is the only nvprof export of tests/data/nvprof with NVTX
 * ranges and GPU work (TensorRT's layer ranges on a Jetson Nano,
 * tests/data/THIRD-PARTY.md). */

#define FIXTURE "nvvp_jetson_nano_tensorrt_yolo.nvvp"

/* A call's (pid, tid) as the 8 bytes of a MARKER row's objectId
 * (CUpti_ActivityObjectKindId, little-endian), in hex. */
#define WHO(t)                                                                                     \
  "printf('%02X%02X%02X%02X%02X%02X%02X%02X', " t ".processId & 255, (" t ".processId >> 8) & "    \
  "255, (" t ".processId >> 16) & 255, (" t ".processId >> 24) & 255, " t ".threadId & 255, (" t   \
  ".threadId >> 8) & 255, (" t ".threadId >> 16) & 255, (" t ".threadId >> 24) & 255)"

/* Per range name: the instances that launched GPU work and the sum of
 * their projections, each the span from the first start to the last end
 * of the GPU operations (kernels, copies, sets: nsys's "GPU ops") whose
 * runtime or driver call, joined by correlationId, lies wholly inside the
 * range on the range's thread.  Written from the file's own CUPTI tables,
 * nothing of Warpscope's. */
static const char projection_sql[] =
  "WITH ranges AS ("
  "  SELECT s.id, s.timestamp AS rs, e.timestamp AS re, hex(substr(s.objectId, 1, 8)) AS who,"
  "    CASE WHEN s.domain > 0 THEN (SELECT value FROM StringTable WHERE _id_ = s.domain)"
  "    ELSE '' END || ':' || (SELECT value FROM StringTable WHERE _id_ = s.name) AS name"
  "  FROM CUPTI_ACTIVITY_KIND_MARKER s"
  "  JOIN CUPTI_ACTIVITY_KIND_MARKER e ON e.id = s.id AND (e.flags & 4) != 0"
  "  WHERE (s.flags & 2) != 0),"
  "calls AS ("
  "  SELECT c.correlationId, c.start, c.end, " WHO (
    "c") " AS who"
         "  FROM CUPTI_ACTIVITY_KIND_RUNTIME c"
         "  UNION ALL"
         "  SELECT d.correlationId, d.start, d.end, " WHO (
           "d") " AS who"
                "  FROM CUPTI_ACTIVITY_KIND_DRIVER d),"
                "ops AS ("
                "  SELECT correlationId, start, end FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL"
                "  UNION ALL SELECT correlationId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY"
                "  UNION ALL SELECT correlationId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET),"
                "launched AS ("
                "  SELECT c.start AS cs, c.end AS ce, c.who, o.start AS os, o.end AS oe"
                "  FROM ops o JOIN calls c ON c.correlationId = o.correlationId),"
                "per_range AS ("
                "  SELECT r.id, r.name, max(l.oe) - min(l.os) AS span, count(*) AS n"
                "  FROM ranges r JOIN launched l ON l.who = r.who AND l.cs >= r.rs AND l.ce <= r.re"
                "  GROUP BY r.id)"
                "SELECT name, sum(span), count(*), sum(n) FROM per_range GROUP BY name";

/* Per range name: the summed durations of the kernels launched inside
 * its ranges (the rollup's gpu_ns, the Timeline's GPU time of a range),
 * joined as above. */
static const char kernel_time_sql[] =
  "WITH ranges AS ("
  "  SELECT s.id, s.timestamp AS rs, e.timestamp AS re, hex(substr(s.objectId, 1, 8)) AS who,"
  "    CASE WHEN s.domain > 0 THEN (SELECT value FROM StringTable WHERE _id_ = s.domain)"
  "    ELSE '' END || ':' || (SELECT value FROM StringTable WHERE _id_ = s.name) AS name"
  "  FROM CUPTI_ACTIVITY_KIND_MARKER s"
  "  JOIN CUPTI_ACTIVITY_KIND_MARKER e ON e.id = s.id AND (e.flags & 4) != 0"
  "  WHERE (s.flags & 2) != 0),"
  "calls AS ("
  "  SELECT c.correlationId, c.start, c.end, " WHO (
    "c") " AS who"
         "  FROM CUPTI_ACTIVITY_KIND_RUNTIME c"
         "  UNION ALL"
         "  SELECT d.correlationId, d.start, d.end, " WHO (
           "d") " AS who"
                "  FROM CUPTI_ACTIVITY_KIND_DRIVER d)"
                "SELECT r.name, sum(k.end - k.start), 0, count(*)"
                "  FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL k"
                "  JOIN calls c ON c.correlationId = k.correlationId"
                "  JOIN ranges r ON c.who = r.who AND c.start >= r.rs AND c.end <= r.re"
                "  GROUP BY r.name";

typedef struct
{
  gint64 total;
  gint64 instances;
  gint64 ops;
} Projection;

static GHashTable *
sql_rows (const char *path, const char *query)
{
  GHashTable *rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  if (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s", sqlite3_errmsg (db));
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      Projection *p = g_new0 (Projection, 1);

      p->total = sqlite3_column_int64 (stmt, 1);
      p->instances = sqlite3_column_int64 (stmt, 2);
      p->ops = sqlite3_column_int64 (stmt, 3);
      g_hash_table_insert (rows, g_strdup ((const char *) sqlite3_column_text (stmt, 0)), p);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return rows;
}

static gint64
cell_int (GPtrArray *fields, guint i)
{
  g_assert_cmpuint (i, <, fields->len);
  return g_ascii_strtoll (g_ptr_array_index (fields, i), NULL, 10);
}

/* `stats --report nvtx_gpu_proj_sum` has a row per range name that
 * launched GPU work, its totals those of the SQL above; before the
 * streams had their process, it printed no row at all. */
static void
test_gpu_proj_sum_matches_sql (void)
{
  g_autofree char *path = ws_test_data ("nvprof", FIXTURE, NULL);
  const char *argv[] = {
    ws_test_cli (), "stats", "--report", "nvtx_gpu_proj_sum", "--format", "csv", path, NULL,
  };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GHashTable) expected = sql_rows (path, projection_sql);
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsCsvReader) csv = NULL;
  guint n_rows = 0;
  gint64 enqueue = 0;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  /* Each of the 58 ranges (TensorRT's layers, ExecutionContext::enqueue
   * around them) launched GPU work, each under a name of its own. */
  g_assert_cmpuint (g_hash_table_size (expected), ==, 58);

  csv = ws_csv_reader_new (path, out, strlen (out), ',');
  g_assert_true (ws_csv_reader_next (csv, fields, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (g_ptr_array_index (fields, 0), ==, "Range");
  g_assert_cmpstr (g_ptr_array_index (fields, 2), ==, "Total Proj Time (ns)");
  g_assert_cmpstr (g_ptr_array_index (fields, 4), ==, "Range Instances");
  g_assert_cmpstr (g_ptr_array_index (fields, 10), ==, "Total GPU Ops");
  while (ws_csv_reader_next (csv, fields, &error))
    {
      const char *name = g_ptr_array_index (fields, 0);
      const Projection *want = g_hash_table_lookup (expected, name);

      g_test_message ("%s", name);
      g_assert_nonnull (want);
      g_assert_cmpint (cell_int (fields, 2), >, 0);
      g_assert_cmpint (cell_int (fields, 2), ==, want->total);
      g_assert_cmpint (cell_int (fields, 4), ==, want->instances);
      g_assert_cmpint (cell_int (fields, 10), ==, want->ops);
      if (g_strcmp0 (name, "TensorRT:ExecutionContext::enqueue") == 0)
        enqueue = cell_int (fields, 2);
      n_rows++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n_rows, ==, g_hash_table_size (expected));
  g_assert_cmpint (enqueue, >, 0);
}

/* The GPU's streams are of the process whose calls launched their work:
 * the one process of the file's RUNTIME table, never 0. */
static void
test_streams_have_process (void)
{
  g_autofree char *path = ws_test_data ("nvprof", FIXTURE, NULL);
  g_autofree char *pid_text =
    ws_test_sqlite_text (path, "SELECT DISTINCT processId FROM CUPTI_ACTIVITY_KIND_RUNTIME");
  g_autofree char *streams = ws_test_sqlite_text (
    path, "SELECT count(*) FROM (SELECT DISTINCT deviceId, contextId, streamId FROM ("
          "SELECT deviceId, contextId, streamId FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL "
          "UNION ALL SELECT deviceId, contextId, streamId FROM CUPTI_ACTIVITY_KIND_KERNEL "
          "UNION ALL SELECT deviceId, contextId, streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY "
          "UNION ALL SELECT deviceId, contextId, streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY2 "
          "UNION ALL SELECT deviceId, contextId, streamId FROM CUPTI_ACTIVITY_KIND_MEMSET))");
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  guint32 pid = (guint32) g_ascii_strtoll (pid_text, NULL, 10);

  g_assert_no_error (error);
  g_assert_cmpuint (pid, ==, 14146);
  /* One stream per (device, context, stream id) that the file's GPU work
   * uses (SQL: 12, one of kernels, four of copies, nine of memsets, two
   * shared). */
  g_assert_cmpint ((gint64) run->streams->len, ==, g_ascii_strtoll (streams, NULL, 10));
  for (guint s = 0; s < run->streams->len; s++)
    {
      const WsStream *stream = &g_array_index (run->streams, WsStream, s);

      g_assert_cmpuint (stream->pid, ==, pid);
      g_assert_cmpint (stream->global_pid, ==, (gint64) pid << 24);
    }
}

/* `stats --report nvtx_kern_sum` names the kernels of each range too:
 * ExecutionContext::enqueue launched all 51 of the file's kernels. */
static void
test_kern_sum_has_ranges (void)
{
  g_autofree char *path = ws_test_data ("nvprof", FIXTURE, NULL);
  const char *argv[] = {
    ws_test_cli (), "stats", "--report", "nvtx_kern_sum", "--format", "csv", path, NULL,
  };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "TensorRT:ExecutionContext::enqueue,"));
  g_assert_nonnull (strstr (out, "TensorRT:001_convolutional + 001_convolutional_bn,"));
}

/* `rollup` splits each range's kernel time: its gpu_ns is the SQL's sum
 * of the durations of the kernels launched inside the range's instances. */
static void
test_rollup_matches_sql (void)
{
  g_autofree char *path = ws_test_data ("nvprof", FIXTURE, NULL);
  const char *argv[] = { ws_test_cli (), "rollup", "--format", "csv", path, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GHashTable) expected = sql_rows (path, kernel_time_sql);
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsCsvReader) csv = NULL;
  guint n_with_time = 0;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  csv = ws_csv_reader_new (path, out, strlen (out), ',');
  g_assert_true (ws_csv_reader_next (csv, fields, &error));
  g_assert_cmpstr (g_ptr_array_index (fields, 1), ==, "gpu_ns");
  while (ws_csv_reader_next (csv, fields, &error))
    {
      const char *name = g_ptr_array_index (fields, 0);
      const Projection *want = g_hash_table_lookup (expected, name);

      g_test_message ("%s", name);
      g_assert_cmpint (cell_int (fields, 1), ==, want != NULL ? want->total : 0);
      n_with_time += cell_int (fields, 1) > 0;
    }
  g_assert_no_error (error);
  /* The 51 layer ranges with a kernel, and ExecutionContext::enqueue. */
  g_assert_cmpuint (n_with_time, ==, g_hash_table_size (expected));
  g_assert_cmpuint (n_with_time, ==, 52);
}

/* The Timeline's NVTX kernels match each of the 51 kernels to its call
 * and gives ExecutionContext::enqueue all of them. */
static void
test_timeline_kernels (void)
{
  g_autofree char *path = ws_test_data ("nvprof", FIXTURE, NULL);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autoptr (GHashTable) expected = sql_rows (path, kernel_time_sql);
  const Projection *enqueue = g_hash_table_lookup (expected, "TensorRT:ExecutionContext::enqueue");
  g_autoptr (WsNvtxKernels) nvtx_kernels = NULL;
  gboolean found = FALSE;

  g_assert_no_error (error);
  nvtx_kernels = ws_nvtx_kernels_new (run);
  g_assert_cmpuint (ws_launch_index_n_kernels_found (ws_nvtx_kernels_get_launches (nvtx_kernels)),
                    ==, run->kernels.n);
  g_assert_cmpuint (run->kernels.n, ==, 51);
  g_assert_nonnull (enqueue);
  for (gsize r = 0; r < run->nvtx.n; r++)
    if (g_strcmp0 (ws_run_string (run, run->nvtx.name[r]), "ExecutionContext::enqueue") == 0)
      {
        g_assert_cmpint (ws_nvtx_kernels_gpu_time (nvtx_kernels, r), ==, enqueue->total);
        g_assert_cmpuint (ws_nvtx_kernels_count (nvtx_kernels, r), ==, enqueue->ops);
        found = TRUE;
      }
  g_assert_true (found);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nvprof-nvtx/gpu-proj-sum/matches-sql", test_gpu_proj_sum_matches_sql);
  g_test_add_func ("/nvprof-nvtx/nvtx-kern-sum/names-ranges", test_kern_sum_has_ranges);
  g_test_add_func ("/nvprof-nvtx/rollup/matches-sql", test_rollup_matches_sql);
  g_test_add_func ("/nvprof-nvtx/timeline-kernels/matches-sql", test_timeline_kernels);
  g_test_add_func ("/nvprof-nvtx/streams/have-process", test_streams_have_process);
  return g_test_run ();
}
