/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-test-util.h"

/* Inputs at the extremes (issue 28): made here from real files, each read
 * by the real CLI under a time bound.  The program must answer: a result,
 * or one line on stderr naming the file, never a signal or a hang. */

#define BOUND_S 60

#define INT64_SPAN "start = -9223372036854775808, end = 9223372036854775807"

static char *tmpdir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* A copy of a real export in the temporary folder, changed by @sql. */
static char *
export_with (const char *data_dir, const char *data_name, const char *name, const char *sql)
{
  g_autofree char *source = ws_test_data (data_dir, data_name, NULL);
  char *copy = tmp_path (name);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, len, NULL));
  if (sql != NULL)
    ws_test_sqlite_exec (copy, sql);
  return copy;
}

static void run_cli (WsTestRun *run, const char *first, ...) G_GNUC_NULL_TERMINATED;

static void
run_cli (WsTestRun *run, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  va_list args;

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  ws_test_run_bounded ((const char *const *) argv->pdata, BOUND_S, run);
  g_assert_false (run->timed_out);
  g_assert_cmpint (run->signal, ==, 0);
}

/* Exit status 2 and one line on stderr that names @path and says @reason. */
static void
assert_refused (const WsTestRun *run, const char *path, const char *reason)
{
  g_assert_cmpint (run->status, ==, 2);
  g_assert_cmpuint (ws_test_count_lines (run->err), ==, 1);
  g_assert_nonnull (strstr (run->err, path));
  g_assert_nonnull (strstr (run->err, reason));
  g_assert_null (strstr (run->err, "CRITICAL"));
}

/* ---- A: nesting ---------------------------------------------------------- */

static char *
nested_json (const char *name, guint depth)
{
  g_autoptr (GString) text = g_string_new (
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"profiles\":[");
  char *path = tmp_path (name);

  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, ']');
  g_string_append (text, "]}");
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  return path;
}

static void
test_speedscope_nested (void)
{
  g_autofree char *path = nested_json ("nest.json", 100000);
  const char *commands[] = { "info", "stats", "flame" };

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      WsTestRun run;

      run_cli (&run, commands[i], path, NULL);
      assert_refused (&run, path, "nested deeper than 256 levels");
      ws_test_run_clear (&run);
    }
}

/* A shallow file is still read: the bound is on depth, not on JSON. */
static void
test_speedscope_real_still_read (void)
{
  g_autofree char *path = ws_test_data ("cpu", "speedscope_pyinstrument_molehill.json", NULL);
  WsTestRun run;

  run_cli (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  ws_test_run_clear (&run);
}

/* A capture folder whose run.json nests 100,000 deep: the export beside
 * it is read, the manifest is refused in a warning. */
static void
test_run_json_nested (void)
{
  g_autofree char *folder = tmp_path ("capture");
  g_autofree char *nsys = g_build_filename (folder, "nsys", NULL);
  g_autofree char *nest = nested_json ("run-nest.json", 100000);
  g_autofree char *manifest = g_build_filename (folder, "run.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *source = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *export = g_build_filename (nsys, "probe.sqlite", NULL);
  g_autofree char *contents = NULL;
  gsize len;
  WsTestRun run;

  g_assert_cmpint (g_mkdir_with_parents (nsys, 0755), ==, 0);
  g_assert_true (g_file_get_contents (nest, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (manifest, text, -1, NULL));
  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (export, contents, len, NULL));

  run_cli (&run, "info", folder, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "nested deeper than 256 levels"));
  ws_test_run_clear (&run);
}

/* speedscope's "frames" as an object: a message, no Json-CRITICAL. */
static void
test_speedscope_frames_object (void)
{
  g_autofree char *path = tmp_path ("frames.json");
  WsTestRun run;

  g_assert_true (g_file_set_contents (
    path,
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
    "\"shared\":{\"frames\":{}},\"profiles\":[{\"type\":\"sampled\",\"unit\":\"none\","
    "\"name\":{},\"samples\":[],\"weights\":[]}]}",
    -1, NULL));
  run_cli (&run, "info", path, NULL);
  assert_refused (&run, path, "no \"shared.frames\" array");
  ws_test_run_clear (&run);
}

/* ---- B: times -------------------------------------------------------------- */

/* The rows of the kernel summary CSV summed: instances and total ns. */
static void
kernel_totals (const char *csv, gint64 *instances, gint64 *total)
{
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);

  *instances = *total = 0;
  g_assert_true (g_str_has_prefix (lines[0], "Time (%),Total Time (ns),Instances,"));
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) cells = g_strsplit (lines[i], ",", 4);
      gint64 t = g_ascii_strtoll (cells[1], NULL, 10);

      g_assert_cmpint (t, >=, 0);
      g_assert_cmpint (t, <, G_GINT64_CONSTANT (1) << 62);
      *total += t;
      *instances += g_ascii_strtoll (cells[2], NULL, 10);
    }
}

/* A kernel that ends 1 µs before it starts: its end is set to its start,
 * with a warning, so the summary counts it for 0 ns (SQL: the other rows'
 * total), never a negative time. */
static void
test_kernel_reversed_span (void)
{
  g_autofree char *path =
    export_with ("nsys", "v2025.3_h100_probe.sqlite", "reversed.sqlite",
                 "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1000 WHERE rowid = 1");
  g_autofree char *count =
    ws_test_sqlite_text (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  g_autofree char *total_sql =
    ws_test_sqlite_text (path, "SELECT sum(max(end - start, 0)) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  gint64 instances, total;
  WsTestRun run;

  run_cli (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "1 events end before they start; their end was set to their "
                                     "start"));
  ws_test_run_clear (&run);
  run_cli (&run, "stats", "--format", "csv", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  kernel_totals (run.out, &instances, &total);
  g_assert_cmpint (instances, ==, g_ascii_strtoll (count, NULL, 10));
  g_assert_cmpint (total, ==, g_ascii_strtoll (total_sql, NULL, 10));
  /* The smallest of the rows' minimums is SQL's, the reversed kernel
   * counting 0 ns: none is below 0. */
  {
    g_auto (GStrv) lines = g_strsplit (run.out, "\n", -1);
    g_autofree char *min_sql =
      ws_test_sqlite_text (path, "SELECT min(max(end - start, 0)) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    gint64 smallest = G_MAXINT64;

    for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_auto (GStrv) cells = g_strsplit (lines[i], ",", 7);

        smallest = MIN (smallest, g_ascii_strtoll (cells[5], NULL, 10));
      }
    g_assert_cmpint (smallest, ==, g_ascii_strtoll (min_sql, NULL, 10));
  }
  ws_test_run_clear (&run);
}

/* One kernel from INT64_MIN to INT64_MAX: it is left out, with a warning;
 * every command ends in time and the summary is that of the other rows. */
static void
test_kernel_int64_span (void)
{
  g_autofree char *path =
    export_with ("nsys", "v2025.3_h100_probe.sqlite", "int64.sqlite",
                 "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET " INT64_SPAN " WHERE rowid = 1");
  g_autofree char *png = tmp_path ("int64.png");
  g_autofree char *trace = tmp_path ("int64.json");
  g_autofree char *kept =
    ws_test_sqlite_text (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid <> 1");
  g_autofree char *kept_total = ws_test_sqlite_text (
    path, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid <> 1");
  gint64 instances, total;
  WsTestRun run;

  run_cli (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "1 event has no time or one beyond"));
  g_assert_nonnull (strstr (run.out, "Time span:      454 ms"));
  ws_test_run_clear (&run);

  run_cli (&run, "stats", "--format", "csv", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  kernel_totals (run.out, &instances, &total);
  g_assert_cmpint (instances, ==, g_ascii_strtoll (kept, NULL, 10));
  g_assert_cmpint (total, ==, g_ascii_strtoll (kept_total, NULL, 10));
  ws_test_run_clear (&run);

  run_cli (&run, "render", "-v", "timeline", "-o", png, path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  ws_test_run_clear (&run);

  run_cli (&run, "export", "--chrome-trace", trace, path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpuint (ws_test_trace_count (trace, "kernel"), ==, g_ascii_strtoull (kept, NULL, 10));
  ws_test_run_clear (&run);
}

/* Every kernel so: no kernel is left, and no number is absurd. */
static void
test_every_kernel_int64_span (void)
{
  g_autofree char *path = export_with ("nsys", "v2025.3_h100_probe.sqlite", "all.sqlite",
                                       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET " INT64_SPAN);
  g_autofree char *count =
    ws_test_sqlite_text (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  g_autofree char *warning =
    g_strdup_printf ("%s events have no time or one beyond ±2^62 ns", count);
  WsTestRun run;

  run_cli (&run, "stats", "--format", "csv", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_null (strstr (run.out, "922337203685477"));
  ws_test_run_clear (&run);

  run_cli (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, warning));
  g_assert_null (strstr (run.out, "-9223372037"));
  ws_test_run_clear (&run);
}

/* Times just inside the bound (±(2^62 - 1)) are kept: their durations
 * fit, their sums do not, and must saturate wherever the run is summed or
 * drawn (the ASan/UBSan pass of the suite reports any overflow). */
static void
test_times_at_the_bound (void)
{
  g_autofree char *some = export_with (
    "nsys", "v2025.3_h100_probe.sqlite", "bound.sqlite",
    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -4611686018427387903, "
    "end = 4611686018427387903 WHERE rowid <= 3;"
    "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = -4611686018427387903, "
    "end = 4611686018427387903 WHERE rowid <= 3;"
    "UPDATE NVTX_EVENTS SET end = 4611686018427387903 WHERE end IS NOT NULL AND rowid <= 3;");
  g_autofree char *every =
    export_with ("nsys", "v2025.3_h100_train_bf16.sqlite", "bound-all.sqlite",
                 "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -4611686018427387903, "
                 "end = 4611686018427387903;"
                 "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = -4611686018427387903, "
                 "end = 4611686018427387903;"
                 "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET start = -4611686018427387903, "
                 "end = 4611686018427387903;"
                 "UPDATE NVTX_EVENTS SET start = -4611686018427387903, end = 4611686018427387903 "
                 "WHERE end IS NOT NULL;");
  g_autofree char *probe = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *png = tmp_path ("bound.png");
  g_autofree char *trace = tmp_path ("bound.json");
  g_autofree char *markdown = tmp_path ("bound.md");
  g_autofree char *digest = tmp_path ("bound.wsdigest");
  const char *const commands[][6] = {
    { "info", NULL },
    { "stats", "--format", "csv", NULL },
    { "render", "-v", "timeline", "-o", png, NULL },
    { "render", "-v", "bars", "-o", png, NULL },
    { "export", "--chrome-trace", trace, NULL },
    { "export", "--markdown", markdown, NULL },
    { "diagnose", NULL },
    { "rollup", NULL },
    { "compare", probe, NULL },
    { "digest", "-o", digest, NULL },
  };
  const char *files[] = { some, every };

  for (gsize f = 0; f < G_N_ELEMENTS (files); f++)
    for (gsize c = 0; c < G_N_ELEMENTS (commands); c++)
      {
        g_autoptr (GPtrArray) argv = g_ptr_array_new ();
        WsTestRun run;

        g_ptr_array_add (argv, (gpointer) ws_test_cli ());
        for (guint a = 0; commands[c][a] != NULL; a++)
          g_ptr_array_add (argv, (gpointer) commands[c][a]);
        /* compare takes BEFORE AFTER: the changed file comes first. */
        if (g_str_equal (commands[c][0], "compare"))
          g_ptr_array_insert (argv, 2, (gpointer) files[f]);
        else
          g_ptr_array_add (argv, (gpointer) files[f]);
        g_ptr_array_add (argv, NULL);
        g_remove (digest);
        ws_test_run_bounded ((const char *const *) argv->pdata, BOUND_S, &run);
        g_assert_false (run.timed_out);
        g_assert_cmpint (run.signal, ==, 0);
        g_assert_cmpint (run.status, ==, 0);
        g_assert_null (strstr (run.err, "runtime error"));
        ws_test_run_clear (&run);
      }
}

/* An NVTX range that ends at INT64_MAX, and an nvprof kernel from INT64_MIN
 * to INT64_MAX: left out the same way. */
static void
test_nvtx_and_nvprof_int64 (void)
{
  g_autofree char *nvtx =
    export_with ("nsys", "v2025.3_h100_probe.sqlite", "nvtx.sqlite",
                 "UPDATE NVTX_EVENTS SET end = 9223372036854775807 WHERE rowid = "
                 "(SELECT min(rowid) FROM NVTX_EVENTS WHERE end IS NOT NULL)");
  g_autofree char *nvprof =
    export_with ("nvprof", "nvvp_tf_tutorial_mnist_titanx.nvvp", "int64.nvvp",
                 "UPDATE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL SET " INT64_SPAN " WHERE rowid = 1");
  g_autofree char *png = tmp_path ("nvtx.png");
  g_autofree char *png2 = tmp_path ("nvprof.png");
  WsTestRun run;

  run_cli (&run, "render", "-v", "timeline", "-o", png, nvtx, NULL);
  g_assert_cmpint (run.status, ==, 0);
  ws_test_run_clear (&run);
  run_cli (&run, "info", nvtx, NULL);
  g_assert_nonnull (strstr (run.out, "1 event has no time or one beyond"));
  ws_test_run_clear (&run);

  run_cli (&run, "render", "-v", "timeline", "-o", png2, nvprof, NULL);
  g_assert_cmpint (run.status, ==, 0);
  ws_test_run_clear (&run);
  run_cli (&run, "info", nvprof, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "1 event has no time or one beyond"));
  ws_test_run_clear (&run);
}

/* Text where a time belongs is refused, naming the table and column. */
static void
test_text_in_time_column (void)
{
  g_autofree char *path =
    export_with ("nsys", "v2025.3_h100_probe.sqlite", "text.sqlite",
                 "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' WHERE rowid = 1");
  WsTestRun run;

  run_cli (&run, "stats", path, NULL);
  assert_refused (&run, path, "table CUPTI_ACTIVITY_KIND_KERNEL, column start: 'soon'");
  ws_test_run_clear (&run);
}

/* ---- C: files that are not files ------------------------------------------ */

static void
test_fifo (void)
{
  g_autofree char *fifo = tmp_path ("fifo.sqlite");
  g_autofree char *folder = tmp_path ("with-fifo");
  g_autofree char *inner = g_build_filename (folder, "run.sqlite", NULL);
  g_autofree char *digest = tmp_path ("fifo.wsdigest");
  g_autofree char *digest2 = tmp_path ("folder.wsdigest");
  WsTestRun run;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  g_assert_cmpint (mkfifo (inner, 0600), ==, 0);

  run_cli (&run, "info", fifo, NULL);
  assert_refused (&run, fifo, "a FIFO (a pipe), not a file Warpscope reads");
  ws_test_run_clear (&run);

  /* digest goes on past an export it cannot read, and says which. */
  run_cli (&run, "digest", "-o", digest, fifo, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "a FIFO (a pipe), not a file Warpscope reads"));
  ws_test_run_clear (&run);

  run_cli (&run, "digest", "-o", digest2, folder, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, inner));
  ws_test_run_clear (&run);
}

static void
test_devices (void)
{
  const char *devices[] = { "/dev/zero", "/dev/urandom" };
  g_autofree char *out = tmp_path ("capture-out");

  for (gsize i = 0; i < G_N_ELEMENTS (devices); i++)
    {
      WsTestRun run;

      run_cli (&run, "info", devices[i], NULL);
      assert_refused (&run, devices[i], "a character device, not a file Warpscope reads");
      ws_test_run_clear (&run);
    }
  {
    WsTestRun run;

    run_cli (&run, "capture", "--targets", "/dev/zero", "-o", out, NULL);
    assert_refused (&run, "/dev/zero", "a character device");
    ws_test_run_clear (&run);
  }
}

/* ---- D: say what is wrong ------------------------------------------------- */

/* A real kernel summary CSV with its text changed: @from becomes @to. */
static char *
kern_sum_with (const char *name, const char *prefix, const char *from, const char *to)
{
  g_autofree char *source =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  char *path = tmp_path (name);

  ws_test_write_changed (source, path, prefix, from, to);
  return path;
}

static void
test_csv_unknown_unit (void)
{
  g_autofree char *path = kern_sum_with ("fortnights_cuda_gpu_kern_sum.csv", "", "Total Time (ns)",
                                         "Total Time (fortnights)");
  WsTestRun run;

  run_cli (&run, "stats", path, NULL);
  assert_refused (&run, path, "column “Total Time (fortnights)” has a unit nsys does not write");
  ws_test_run_clear (&run);
}

static void
test_csv_no_name_column (void)
{
  g_autofree char *path =
    kern_sum_with ("renamed_cuda_gpu_kern_sum.csv", "", "StdDev (ns),Name", "StdDev (ns),Kernel");
  WsTestRun run;

  run_cli (&run, "stats", path, NULL);
  assert_refused (&run, path, "the header has no Name column");
  ws_test_run_clear (&run);
}

/* A byte order mark is not part of the header: the summary is the file's. */
static void
test_csv_bom (void)
{
  g_autofree char *path = kern_sum_with ("bom_cuda_gpu_kern_sum.csv", "\xef\xbb\xbf", "", "");
  g_autofree char *source =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  WsTestRun run, plain;

  run_cli (&run, "stats", "--format", "csv", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_cli (&plain, "stats", "--format", "csv", source, NULL);
  g_assert_cmpint (plain.status, ==, 0);
  g_assert_cmpstr (run.out, ==, plain.out);
  g_assert_nonnull (strstr (run.out, "barrier_heavy"));
  ws_test_run_clear (&run);
  ws_test_run_clear (&plain);
}

static void
test_kernel_table_view (void)
{
  g_autofree char *path =
    export_with ("nsys", "v2025.3_h100_probe.sqlite", "view.sqlite",
                 "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO kernels_moved;"
                 "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT * FROM kernels_moved;");
  WsTestRun run;

  run_cli (&run, "stats", path, NULL);
  assert_refused (&run, path, "CUPTI_ACTIVITY_KIND_KERNEL is a view, not a table");
  ws_test_run_clear (&run);
}

/* Half the kernels deleted in a write-ahead log not yet checkpointed: the
 * export is not read as if the log were not there. */
static void
test_pending_wal (void)
{
  g_autofree char *source =
    export_with ("nsys", "v2025.3_h100_probe.sqlite", "wal-src.sqlite", NULL);
  g_autofree char *source_wal = g_strconcat (source, "-wal", NULL);
  g_autofree char *path = tmp_path ("wal.sqlite");
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *contents = NULL;
  sqlite3 *db = NULL;
  gsize len;
  WsTestRun run;

  g_assert_cmpint (sqlite3_open (source, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db,
                                 "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
                                 "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 2 = 0;",
                                 NULL, NULL, NULL),
                   ==, SQLITE_OK);
  /* Copied while the connection holds the log, as a crashed writer leaves it. */
  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, len, NULL));
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (source_wal, &contents, &len, NULL));
  g_assert_cmpuint (len, >, 0);
  g_assert_true (g_file_set_contents (wal, contents, len, NULL));
  sqlite3_close (db);

  run_cli (&run, "stats", path, NULL);
  assert_refused (&run, path, "a write-ahead log beside it");
  g_assert_nonnull (strstr (run.err, wal));
  ws_test_run_clear (&run);
}

static void
test_duplicate_inputs (void)
{
  g_autofree char *path = export_with ("nsys", "v2025.3_h100_probe.sqlite", "rank0.sqlite", NULL);
  g_autofree char *hard = tmp_path ("rank1.sqlite");
  g_autofree char *digest = tmp_path ("twice.wsdigest");
  WsTestRun run;

  g_assert_cmpint (link (path, hard), ==, 0);
  run_cli (&run, "ranks", path, hard, NULL);
  assert_refused (&run, hard, "the same file as");
  ws_test_run_clear (&run);

  run_cli (&run, "digest", "-o", digest, path, hard, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "the same file as"));
  g_assert_false (g_file_test (digest, G_FILE_TEST_EXISTS));
  ws_test_run_clear (&run);
}

/* Collapsed stacks whose first line is longer than the 8 KiB head. */
static void
test_collapsed_long_first_line (void)
{
  g_autofree char *path = tmp_path ("deep.collapsed");
  g_autoptr (GString) text = g_string_new (NULL);
  WsTestRun run;

  for (guint i = 0; i < 1500; i++)
    g_string_append_printf (text, "%sframe_%u", i > 0 ? ";" : "", i);
  g_string_append (text, " 7\nmain;work 3\n");
  g_assert_cmpuint (text->len, >, 8192);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));

  run_cli (&run, "flame", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "frame_1499 7\n"));
  g_assert_nonnull (strstr (run.out, "main;work 3\n"));
  ws_test_run_clear (&run);
}

/* ---- scale: n log n where n is large ------------------------------------- */

/* 100,000 sibling frames under one caller: the flame graph was quadratic
 * in them (GLib 2.74 hashes a gint64 by its low half alone). */
static void
test_flame_many_siblings (void)
{
  g_autofree char *path = tmp_path ("wide.collapsed");
  g_autoptr (GString) text = g_string_new (NULL);
  WsTestRun run;

  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (text, "a;c%u %u\n", i, i + 1);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));

  run_cli (&run, "flame", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpuint (ws_test_count_lines (run.out), ==, 100000);
  g_assert_nonnull (strstr (run.out, "a;c99999 100000\n"));
  g_assert_cmpfloat (run.seconds, <, BOUND_S);
  ws_test_run_clear (&run);
}

/* Two ranks of 100,000 "step N" ranges each: ranks compared every step of
 * every rank by a linear search. */
static void
test_ranks_many_steps (void)
{
  char *rank[2] = { NULL, NULL };
  WsTestRun run;

  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *name = g_strdup_printf ("steps%u.sqlite", r);
      g_autofree char *sql = g_strdup_printf (
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999) "
        "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) "
        "SELECT 500000000 + i * 1000, 500000000 + i * 1000 + 900 + %u, 59, 'step ' || i, "
        "(SELECT globalTid FROM NVTX_EVENTS WHERE text = 'setup'), 0 FROM n",
        r);

      rank[r] = export_with ("nsys", "v2025.3_h100_probe.sqlite", name, sql);
    }
  {
    g_autofree char *steps = ws_test_sqlite_text (
      rank[0], "SELECT count(*) FROM NVTX_EVENTS WHERE text GLOB 'step [0-9]*'");

    g_assert_cmpstr (steps, ==, "100000");
    run_cli (&run, "ranks", rank[0], rank[1], NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, "Straggler: rank 1"));
    /* Step 0 is the warm-up. */
    g_assert_nonnull (strstr (run.out, "last in 99999 of 99999 steady steps"));
    g_assert_cmpfloat (run.seconds, <, BOUND_S);
    ws_test_run_clear (&run);
  }
  g_free (rank[0]);
  g_free (rank[1]);
}

/* A /proc file says 0 bytes and has some: that is said, not "empty". */
static void
test_proc_file_not_empty (void)
{
  WsTestRun run;

  run_cli (&run, "info", "/proc/self/status", NULL);
  assert_refused (&run, "/proc/self/status", "its size reads 0 bytes though it has some");
  ws_test_run_clear (&run);
}

/* `export --csv-dir` names its CSVs after the run: one of them may be an
 * input given beside the export, which it once replaced; it is refused,
 * and the input is the same file with the same bytes. */
static void
test_csv_dir_input_kept (void)
{
  g_autofree char *dir = tmp_path ("csv-dir");
  g_autofree char *export = NULL;
  g_autofree char *input = NULL;
  g_autofree char *sum_before = NULL, *sum_after = NULL;
  g_autofree char *source = ws_test_data ("nsys-stats", "v2025.3_h100_probe_nvtx_sum.csv", NULL);
  g_autofree char *contents = NULL;
  GStatBuf before, after;
  gsize len;
  WsTestRun run;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  export = g_build_filename (dir, "q.sqlite", NULL);
  input = g_build_filename (dir, "q_nvtx_sum.csv", NULL);
  {
    g_autofree char *copy = export_with ("nsys", "v2025.3_h100_probe.sqlite", "q-src.sqlite", NULL);

    g_assert_cmpint (g_rename (copy, export), ==, 0);
  }
  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (input, contents, (gssize) len, NULL));
  g_assert_cmpint (g_stat (input, &before), ==, 0);
  sum_before = ws_test_file_sha256 (input);

  run_cli (&run, "export", "--csv-dir", dir, export, input, NULL);
  assert_refused (&run, input, "the output is one of the inputs");
  ws_test_run_clear (&run);
  g_assert_cmpint (g_stat (input, &after), ==, 0);
  sum_after = ws_test_file_sha256 (input);
  g_assert_cmpuint (after.st_ino, ==, before.st_ino);
  g_assert_cmpstr (sum_after, ==, sum_before);
}

/* `rollup --help` offers an export with its ncu CSVs "joined by commas or
 * given apart": both forms are read, and say the same. */
static void
test_comma_joined_inputs (void)
{
  g_autofree char *export = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *csv = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *joined = g_strconcat (export, ",", csv, NULL);
  WsTestRun apart, together;

  run_cli (&apart, "rollup", "--format", "csv", export, csv, NULL);
  run_cli (&together, "rollup", "--format", "csv", joined, NULL);
  g_assert_cmpint (apart.status, ==, 0);
  g_assert_cmpint (together.status, ==, 0);
  /* A header, and a row for each range name of the export (SQL). */
  {
    g_autofree char *names = ws_test_sqlite_text (
      export, "SELECT COUNT (DISTINCT text) FROM NVTX_EVENTS WHERE eventType = 59");

    g_assert_cmpuint (ws_test_count_lines (apart.out), ==, 1 + g_ascii_strtoull (names, NULL, 10));
  }
  g_assert_cmpstr (together.out, ==, apart.out);
  ws_test_run_clear (&apart);
  ws_test_run_clear (&together);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = ws_test_tmpdir ();

  g_test_add_func ("/extremes/json/speedscope-nested-100000-deep-is-refused",
                   test_speedscope_nested);
  g_test_add_func ("/extremes/json/real-speedscope-still-read", test_speedscope_real_still_read);
  g_test_add_func ("/extremes/json/run-json-nested-100000-deep-is-a-warning", test_run_json_nested);
  g_test_add_func ("/extremes/json/speedscope-frames-object-no-critical",
                   test_speedscope_frames_object);
  g_test_add_func ("/extremes/times/kernel-int64-span-left-out", test_kernel_int64_span);
  g_test_add_func ("/extremes/times/kernel-ending-before-its-start", test_kernel_reversed_span);
  g_test_add_func ("/extremes/times/every-kernel-int64-span", test_every_kernel_int64_span);
  g_test_add_func ("/extremes/times/at-the-bound-no-overflow", test_times_at_the_bound);
  g_test_add_func ("/extremes/times/nvtx-and-nvprof-int64", test_nvtx_and_nvprof_int64);
  g_test_add_func ("/extremes/times/text-in-start-column-refused", test_text_in_time_column);
  g_test_add_func ("/extremes/files/fifo-refused-never-waits", test_fifo);
  g_test_add_func ("/extremes/files/devices-refused", test_devices);
  g_test_add_func ("/extremes/say/csv-unknown-unit", test_csv_unknown_unit);
  g_test_add_func ("/extremes/say/csv-no-name-column", test_csv_no_name_column);
  g_test_add_func ("/extremes/say/csv-utf8-bom-accepted", test_csv_bom);
  g_test_add_func ("/extremes/say/kernel-table-is-a-view", test_kernel_table_view);
  g_test_add_func ("/extremes/say/pending-wal", test_pending_wal);
  g_test_add_func ("/extremes/say/duplicate-inputs-refused", test_duplicate_inputs);
  g_test_add_func ("/extremes/say/collapsed-long-first-line", test_collapsed_long_first_line);
  g_test_add_func ("/extremes/scale/flame-100000-sibling-frames", test_flame_many_siblings);
  g_test_add_func ("/extremes/scale/ranks-100000-steps", test_ranks_many_steps);
  g_test_add_func ("/extremes/say/proc-file-not-empty", test_proc_file_not_empty);
  g_test_add_func ("/extremes/out/csv-dir-keeps-an-input", test_csv_dir_input_kept);
  g_test_add_func ("/extremes/say/comma-joined-inputs", test_comma_joined_inputs);

  status = g_test_run ();
  ws_test_rmtree (tmpdir);
  g_free (tmpdir);
  return status;
}
