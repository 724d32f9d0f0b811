/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-test-util.h"

/* Numbers at the edges of their types in real files (issue 46, items 2
 * and 6), read by the real CLI under a time bound: what is left out is
 * said, what cannot be a capture's is refused in one line.  The ASan+UBSan stage
 * runs this with halt_on_error: a signed overflow is a signal there.
 * Each command ends on its own, without a signal; where it answers, its
 * answer is checked against the file's own numbers. */

#define BOUND_S 120

static char *tmp;

/* A copy of the demo export (a real nsys 2025.3 export of probe.cu on an
 * H100), changed by @sql. */
static char *
probe_with (const char *name, const char *sql)
{
  g_autofree char *source = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *contents = NULL;
  char *copy = g_build_filename (tmp, name, NULL);
  gsize len;

  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) len, NULL));
  if (sql != NULL)
    ws_test_sqlite_exec (copy, sql);
  return copy;
}

/* Runs warpscope-cli with @args; no timeout, no signal. */
static void
run_cli (const char *const *args, WsTestRun *run)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  ws_test_run_bounded ((const char *const *) argv->pdata, BOUND_S, run);
  g_test_message ("%s: exit %d\n%s", args[0], run->status, run->err);
  g_assert_false (run->timed_out);
  g_assert_cmpint (run->signal, ==, 0);
}

/* Every GPU event on device 2147483647 (INT_MAX): its key in a table of
 * devices once overflowed (device id + 1).  Each command answers, and
 * names the device as the file does. */
static void
test_device_int_max (void)
{
  g_autofree char *path = probe_with (
    "device-max.sqlite", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 2147483647;"
                         "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET deviceId = 2147483647;"
                         "UPDATE CUDA_GPU_MEMORY_USAGE_EVENTS SET deviceId = 2147483647;");
  g_autofree char *other = probe_with (
    "device-max-b.sqlite", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 2147483647");
  g_autofree char *digest = g_build_filename (tmp, "device-max.wsdigest", NULL);
  g_autofree char *trace = g_build_filename (tmp, "device-max.json", NULL);
  g_autofree char *png = g_build_filename (tmp, "device-max.png", NULL);
  const char *const diagnose[] = { "diagnose", path, NULL };
  const char *const compare[] = { "compare", path, other, NULL };
  const char *const digest_args[] = { "digest", "-o", digest, path, NULL };
  const char *const export_args[] = { "export", "--chrome-trace", trace, path, NULL };
  const char *const render[] = { "render", "-v", "timeline", "-o", png, path, NULL };
  const char *const *commands[] = { diagnose, compare, digest_args, export_args, render };

  for (gsize c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      WsTestRun run = { 0 };

      run_cli (commands[c], &run);
      g_assert_cmpint (run.status, ==, 0);
      ws_test_run_clear (&run);
    }
  /* The trace names the device as the file does. */
  {
    g_autofree char *json = ws_test_read (trace);

    g_assert_nonnull (strstr (json, "2147483647"));
  }
  {
    g_autofree char *gpus = ws_test_sqlite_text (digest, "SELECT gpus FROM ranks");

    g_assert_nonnull (gpus);
  }
}

/* Allocations of 2^63 − 1 bytes: the memory lane's running sum once
 * overflowed int64.  The timeline still draws. */
static void
test_memory_int64_bytes (void)
{
  g_autofree char *path = probe_with (
    "bytes-max.sqlite", "UPDATE CUDA_GPU_MEMORY_USAGE_EVENTS SET bytes = 9223372036854775807");
  g_autofree char *png = g_build_filename (tmp, "bytes-max.png", NULL);
  const char *const render[] = { "render", "-v", "timeline", "-o", png, path, NULL };
  WsTestRun run = { 0 };

  g_assert_cmpint (ws_test_sqlite_count (path, "CUDA_GPU_MEMORY_USAGE_EVENTS"), ==, 46);
  run_cli (render, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  ws_test_run_clear (&run);
}

/* How many times @needle occurs in @haystack. */
static guint
count_of (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *at = strstr (haystack, needle); at != NULL; at = strstr (at + 1, needle))
    n++;
  return n;
}

/* Three kernels with times at the int64 extremes are left out: every
 * command that answers says how many, once, on standard error, naming
 * the file; info says it in its report instead; a command refused says
 * its refusal alone.  The count is the file's, by SQL. */
static void
test_left_out_said_once (void)
{
  g_autofree char *path = probe_with (
    "extremes.sqlite", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -9223372036854775808,"
                       " end = 9223372036854775807 WHERE rowid IN"
                       " (SELECT rowid FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid LIMIT 3)");
  g_autofree char *n = ws_test_sqlite_text (
    path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start = -9223372036854775808");
  g_autofree char *said = g_strdup_printf ("%s events have no time or one beyond", n);
  g_autofree char *named = g_strdup_printf ("%s: %s", path, said);
  g_autofree char *digest = g_build_filename (tmp, "extremes.wsdigest", NULL);
  g_autofree char *trace = g_build_filename (tmp, "extremes.json", NULL);
  g_autofree char *png = g_build_filename (tmp, "extremes.png", NULL);
  const char *const stats[] = { "stats", path, NULL };
  const char *const ranks[] = { "ranks", path, NULL };
  const char *const diagnose[] = { "diagnose", path, NULL };
  const char *const rollup[] = { "rollup", path, NULL };
  const char *const render[] = { "render", "-o", png, path, NULL };
  const char *const export_args[] = { "export", "--chrome-trace", trace, path, NULL };
  const char *const digest_args[] = { "digest", "-o", digest, path, NULL };
  const char *const steps[] = { "steps", path, NULL };
  const char *const *commands[] = {
    stats, ranks, diagnose, rollup, render, export_args, digest_args
  };

  g_assert_cmpstr (n, ==, "3");
  for (gsize c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      WsTestRun run = { 0 };

      run_cli (commands[c], &run);
      g_assert_cmpuint (count_of (run.err, said), ==, 1);
      g_assert_cmpuint (count_of (run.err, named), ==, 1);
      g_assert_cmpuint (count_of (run.out, said), ==, 0);
      ws_test_run_clear (&run);
    }
  /* A command refused as bad input (this export has no steps) says one
   * line, its refusal. */
  {
    WsTestRun run = { 0 };

    run_cli (steps, &run);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_cmpuint (ws_test_count_lines (run.err), ==, 1);
    g_assert_nonnull (strstr (run.err, "no steps"));
    ws_test_run_clear (&run);
  }
  /* compare: once for each side. */
  {
    const char *const compare[] = { "compare", path, path, NULL };
    WsTestRun run = { 0 };

    run_cli (compare, &run);
    g_assert_cmpuint (count_of (run.err, named), ==, 2);
    ws_test_run_clear (&run);
  }
  /* info: in its report, not on standard error. */
  {
    const char *const info[] = { "info", path, NULL };
    WsTestRun run = { 0 };

    run_cli (info, &run);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpuint (count_of (run.out, said), ==, 1);
    g_assert_cmpuint (count_of (run.err, said), ==, 0);
    ws_test_run_clear (&run);
  }
}

/* One file given twice to digest is refused, as `ranks A A` is: it would
 * make one rank where two were asked for.  Nothing is written. */
static void
test_digest_same_file_twice (void)
{
  g_autofree char *path = probe_with ("twice.sqlite", NULL);
  g_autofree char *digest = g_build_filename (tmp, "twice.wsdigest", NULL);
  const char *const args[] = { "digest", "-o", digest, path, path, NULL };
  WsTestRun run = { 0 };

  run_cli (args, &run);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpuint (ws_test_count_lines (run.err), ==, 1);
  g_assert_nonnull (strstr (run.err, "the same file as"));
  g_assert_false (g_file_test (digest, G_FILE_TEST_EXISTS));
  ws_test_run_clear (&run);
}

/* A session start stored as text is not read as a time, and is said. */
static void
test_session_start_text (void)
{
  g_autofree char *path =
    probe_with ("session-text.sqlite",
                "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = '2026-11-21T05:27:19'");
  g_autofree char *type =
    ws_test_sqlite_text (path, "SELECT typeof (utcEpochNs) FROM TARGET_INFO_SESSION_START_TIME");
  const char *const args[] = { "stats", path, NULL };
  WsTestRun run = { 0 };

  g_assert_cmpstr (type, ==, "text");
  run_cli (args, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (
    strstr (run.err, "TARGET_INFO_SESSION_START_TIME.utcEpochNs is not an integer (text)"));
  ws_test_run_clear (&run);
}

/* A real kernel summary CSV with one cell changed: @from becomes @to. */
static char *
kern_sum_with (const char *name, const char *from, const char *to)
{
  g_autofree char *source =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  char *path = g_build_filename (tmp, name, NULL);

  ws_test_write_changed (source, path, "", from, to);
  return path;
}

/* CSV numbers past what a capture holds are refused, naming the line and
 * the cell: a total of 9×10^18 ns, an average of 10^308, a negative
 * instance count.  The same file unchanged is read. */
static void
test_csv_numbers_out_of_bounds (void)
{
  static const struct
  {
    const char *from, *to, *cell, *reason;
  } cases[] = {
    { "33.3,1358714,3,", "33.3,9000000000000000000,3,", "“9000000000000000000”",
      "beyond ±2^62 ns" },
    { "33.3,1358714,3,452904.7,", "33.3,1358714,3,1e308,", "“1e308”", "beyond ±2^62 ns" },
    { "33.3,1358714,3,", "33.3,1358714,-3,", "“-3”", "is not an instance count" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("case%zu_cuda_gpu_kern_sum.csv", i);
      g_autofree char *path = kern_sum_with (name, cases[i].from, cases[i].to);
      const char *const args[] = { "stats", path, NULL };
      WsTestRun run = { 0 };

      run_cli (args, &run);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpuint (ws_test_count_lines (run.err), ==, 1);
      g_assert_nonnull (strstr (run.err, path));
      g_assert_nonnull (strstr (run.err, "line 2"));
      g_assert_nonnull (strstr (run.err, cases[i].cell));
      g_assert_nonnull (strstr (run.err, cases[i].reason));
      ws_test_run_clear (&run);
    }
}

/* --topn -1 and --launch-count -1 are values given, and refused. */
static void
test_capture_negative_counts (void)
{
  const char *const options[] = { "--topn", "--launch-count" };

  for (gsize i = 0; i < G_N_ELEMENTS (options); i++)
    {
      const char *const args[] = { "capture", options[i], "-1", "--targets", "/nonexistent", NULL };
      WsTestRun run = { 0 };

      run_cli (args, &run);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_nonnull (strstr (run.err, "--topn must be 1 or more, --launch-count 0 or more"));
      ws_test_run_clear (&run);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  g_test_add_func ("/hostile-numbers/device-int-max-no-overflow", test_device_int_max);
  g_test_add_func ("/hostile-numbers/memory-int64-bytes-no-overflow", test_memory_int64_bytes);
  g_test_add_func ("/hostile-numbers/left-out-said-once-by-every-command", test_left_out_said_once);
  g_test_add_func ("/hostile-numbers/digest-same-file-twice-refused", test_digest_same_file_twice);
  g_test_add_func ("/hostile-numbers/session-start-as-text-said", test_session_start_text);
  g_test_add_func ("/hostile-numbers/csv-numbers-out-of-bounds-refused",
                   test_csv_numbers_out_of_bounds);
  g_test_add_func ("/hostile-numbers/capture-negative-counts-refused",
                   test_capture_negative_counts);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  return status;
}
