/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-test-util.h"

/* Issue 46, item 5: each message names what is wrong, not something near
 * it.  Real files changed by SQL or by one line; each command answers
 * with exit status 2 and one line naming the file and the fault. */

static char *tmp;

static char *
copy_of (const char *dir, const char *name, const char *as)
{
  g_autofree char *source = ws_test_data (dir, name, NULL);
  g_autofree char *contents = NULL;
  char *copy = g_build_filename (tmp, as, NULL);
  gsize len;

  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) len, NULL));
  return copy;
}

/* Runs @args; exit 2, one line on standard error naming @path and
 * saying @reason, and not @wrong. */
static void
assert_blames (const char *const *args, const char *path, const char *reason, const char *wrong)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  WsTestRun run = { 0 };

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  ws_test_run_bounded ((const char *const *) argv->pdata, 60, &run);
  g_test_message ("%s: exit %d: %s", args[0], run.status, run.err);
  g_assert_false (run.timed_out);
  g_assert_cmpint (run.signal, ==, 0);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpuint (ws_test_count_lines (run.err), ==, 1);
  g_assert_nonnull (strstr (run.err, path));
  g_assert_nonnull (strstr (run.err, reason));
  if (wrong != NULL)
    g_assert_null (strstr (run.err, wrong));
  ws_test_run_clear (&run);
}

/* Every table of a real export renamed, and a view in its place. */
static void
test_views (void)
{
  g_autofree char *path = copy_of ("nsys", "v2025.3_h100_probe.sqlite", "views.sqlite");
  g_autofree char *tables = ws_test_sqlite_text (
    path, "SELECT group_concat (name, ' ') FROM sqlite_master WHERE type = 'table'");
  g_auto (GStrv) names = g_strsplit (tables, " ", -1);
  g_autoptr (GString) sql = g_string_new (NULL);
  const char *const args[] = { "stats", path, NULL };

  for (guint i = 0; names[i] != NULL; i++)
    g_string_append_printf (
      sql, "ALTER TABLE \"%s\" RENAME TO \"_%s\"; CREATE VIEW \"%s\" AS SELECT * FROM \"_%s\";",
      names[i], names[i], names[i], names[i]);
  ws_test_sqlite_exec (path, sql->str);
  assert_blames (args, path, "is a view, not a table", "no StringIds");
}

/* An nvprof GPU trace whose units row says "parsecs" for Start: the unit
 * is blamed, on its line, not the first start time (598.807267). */
static void
test_nvprof_unit (void)
{
  g_autofree char *source = ws_test_data ("nvprof", "gputrace_magus_concurrentkernels.csv", NULL);
  g_autofree char *path = g_build_filename (tmp, "units.csv", NULL);
  const char *const args[] = { "stats", path, NULL };

  ws_test_write_changed (source, path, "", "\nms,ms,", "\nparsecs,ms,");
  assert_blames (args, path, "line 5: the unit of Start is “parsecs”", "598.807267");
}

/* A blob in a kernel's start: said as a blob, its bytes never printed. */
static void
test_blob_time (void)
{
  g_autofree char *path = copy_of ("nsys", "v2025.3_h100_probe.sqlite", "blob.sqlite");
  const char *const args[] = { "stats", path, NULL };

  ws_test_sqlite_exec (path, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = x'1b5b324a4142'"
                             " WHERE rowid = (SELECT min (rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL)");
  assert_blames (args, path, "column start: 'a blob of 6 bytes' is not a time in ns", "[2JAB");
}

/* --peers on one export of one process: it is not a job. */
static void
test_peers_one_export (void)
{
  g_autofree char *path = copy_of ("nsys", "v2025.3_h100_probe.sqlite", "one.sqlite");
  const char *const args[] = { "compare", "--peers", "0,1", path, NULL };

  assert_blames (args, path, "not a job of several ranks", "its ranks are 0 to 0");
}

/* A first line of 10^6 columns, or of 1 MB: its length is the fault. */
static void
test_long_first_line (void)
{
  g_autofree char *wide = g_build_filename (tmp, "wide_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *long_line = g_build_filename (tmp, "long.csv", NULL);
  g_autoptr (GString) columns = g_string_new (NULL);
  g_autofree char *bytes = g_strnfill (1 << 20, 'y');
  g_autofree char *text = g_strconcat (bytes, "\n1\n", NULL);
  const char *const args_wide[] = { "stats", wide, NULL };
  const char *const args_long[] = { "info", long_line, NULL };

  for (guint i = 0; i < 1000000; i++)
    g_string_append_printf (columns, i == 0 ? "c%u" : ",c%u", i);
  g_string_append (columns, "\n1,2\n");
  g_assert_true (g_file_set_contents (wide, columns->str, (gssize) columns->len, NULL));
  g_assert_true (g_file_set_contents (long_line, text, -1, NULL));
  assert_blames (args_wide, wide, "line 1 is longer than 8192 bytes", "not a file Warpscope reads");
  assert_blames (args_long, long_line, "line 1 is longer than 8192 bytes",
                 "not a file Warpscope reads");
}

/* A report into a folder that does not exist: refused alike for an export
 * with data and one without, before any work; no folder is made. */
static void
test_output_folder_missing (void)
{
  g_autofree char *full = copy_of ("nsys", "v2025.3_h100_probe.sqlite", "full.sqlite");
  g_autofree char *empty = g_build_filename (tmp, "empty.sqlite", NULL);
  g_autofree char *missing = g_build_filename (tmp, "missing", NULL);
  g_autofree char *report = g_build_filename (missing, "report.md", NULL);
  g_autofree char *png = g_build_filename (missing, "bars.png", NULL);
  const char *const markdown_full[] = { "export", "--markdown", report, full, NULL };
  const char *const markdown_empty[] = { "export", "--markdown", report, empty, NULL };
  const char *const render[] = { "render", "-o", png, full, NULL };

  ws_test_sqlite_exec (empty,
                       "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
                       "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, shortName INT,"
                       " demangledName INT, deviceId INT, streamId INT)");
  assert_blames (markdown_full, report, "the folder", NULL);
  assert_blames (markdown_empty, report, "does not exist", NULL);
  assert_blames (render, png, "does not exist", NULL);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  g_test_add_func ("/blame-right/views-not-tables", test_views);
  g_test_add_func ("/blame-right/nvprof-unknown-unit", test_nvprof_unit);
  g_test_add_func ("/blame-right/blob-in-a-time-column", test_blob_time);
  g_test_add_func ("/blame-right/peers-of-one-export", test_peers_one_export);
  g_test_add_func ("/blame-right/long-first-line", test_long_first_line);
  g_test_add_func ("/blame-right/output-folder-missing", test_output_folder_missing);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  return status;
}
