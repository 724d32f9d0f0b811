/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-nsys-reader.h"
#include "ws-test-same-run.h"
#include "ws-test-util.h"

/* Issue 41: an event table read on several cores (WARPSCOPE_THREADS=3
 * cuts even the fixtures' tables into three rowid ranges) gives the run
 * one scan on one thread gives, array for array; and both equal SQL. */

static WsRun *
load_with (const char *path, const char *threads, WsLoadFlags flags)
{
  g_autoptr (GError) error = NULL;
  WsRun *run;

  g_setenv ("WARPSCOPE_THREADS", threads, TRUE);
  run = ws_nsys_reader_load (path, flags, NULL, NULL, NULL, &error);
  g_unsetenv ("WARPSCOPE_THREADS");
  g_assert_no_error (error);
  g_assert_nonnull (run);
  return run;
}

static gint64
source_rows (const WsRun *run, const char *what)
{
  for (guint i = 0; i < run->sources->len; i++)
    if (g_str_equal (g_array_index (run->sources, WsSourceCount, i).what, what))
      return g_array_index (run->sources, WsSourceCount, i).rows;
  return -1;
}

static gint64
sql_number (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* Kernels and CUDA API calls against SQL: how many, their summed time, and
 * the rows `info` lists (every row of the table, kept or not). */
static void
assert_matches_sql (const char *path, const WsRun *run, const char *kept)
{
  g_autofree char *n_kernels =
    g_strdup_printf ("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE %s", kept);
  g_autofree char *sum_kernels = g_strdup_printf (
    "SELECT total(max(end - start, 0)) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE %s", kept);
  g_autofree char *n_api =
    g_strdup_printf ("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE %s", kept);
  g_autofree char *has_kernels = ws_test_sqlite_text (
    path, "SELECT 1 FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'");
  gint64 sum = 0;

  if (has_kernels == NULL)
    return;
  for (gsize i = 0; i < run->kernels.n; i++)
    sum += run->kernels.end[i] - run->kernels.start[i];
  g_assert_cmpint ((gint64) run->kernels.n, ==, sql_number (path, n_kernels));
  g_assert_cmpint (sum, ==, sql_number (path, sum_kernels));
  g_assert_cmpint (source_rows (run, "kernels"), ==,
                   sql_number (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  if (run->has_runtime_table)
    {
      g_assert_cmpint ((gint64) run->api.n, ==, sql_number (path, n_api));
      g_assert_cmpint (source_rows (run, "cuda-api"), ==,
                       sql_number (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
    }
}

static void
test_fixtures (void)
{
  for (gsize i = 0; ws_test_nsys_exports[i] != NULL; i++)
    {
      g_autofree char *path = ws_test_data ("nsys", ws_test_nsys_exports[i], NULL);
      g_autoptr (WsRun) one = load_with (path, "1", WS_LOAD_ALL);
      g_autoptr (WsRun) three = load_with (path, "3", WS_LOAD_ALL);

      g_test_message ("%s", ws_test_nsys_exports[i]);
      ws_test_assert_same_run (one, three);
      assert_matches_sql (path, three, "start IS NOT NULL AND end IS NOT NULL");
    }
}

/* Rowids with holes (rows deleted) and rows the reader leaves out (a
 * time beyond ±2^62 ns): the slots of both are closed up, and `info`'s row counts are the
 * table's, not the rowids' span. */
static void
test_holes (void)
{
  g_autofree char *src = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *path = ws_test_copy_to_tmp (src, "holes.sqlite");
  g_autofree char *dir = g_path_get_dirname (path);
  const char *kept = "abs(start) < 4611686018427387904 AND abs(end) < 4611686018427387904";

  ws_test_sqlite_exec (
    path, "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 7 = 3;"
          "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 9000000000000000000 WHERE rowid % 11 = 5;"
          "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid % 5 = 1;"
          "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = -9000000000000000000 WHERE rowid % 13 = 2;"
          "DELETE FROM NVTX_EVENTS WHERE rowid % 6 = 2;"
          "UPDATE NVTX_EVENTS SET start = 9000000000000000000 WHERE rowid % 9 = 4;");
  /* The edit must leave holes and left-out rows, or this tests nothing. */
  g_assert_cmpint (sql_number (path, "SELECT max(rowid) - min(rowid) + 1 - count(*) FROM "
                                     "CUPTI_ACTIVITY_KIND_KERNEL"),
                   >, 0);
  g_assert_cmpint (sql_number (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start "
                                     "> 4611686018427387904"),
                   >, 0);
  for (WsLoadFlags flags = WS_LOAD_ALL; flags != 0;
       flags =
         flags == WS_LOAD_ALL ? WS_LOAD_LEAN | WS_LOAD_KERNELS | WS_LOAD_API | WS_LOAD_LAUNCHES : 0)
    {
      g_autoptr (WsRun) one = load_with (path, "1", flags);
      g_autoptr (WsRun) three = load_with (path, "3", flags);

      ws_test_assert_same_run (one, three);
      assert_matches_sql (path, three, kept);
      if (flags == WS_LOAD_ALL)
        {
          g_autofree char *sql = g_strdup_printf (
            "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71) AND end IS NOT "
            "NULL AND %s",
            kept);

          g_assert_cmpint ((gint64) three->nvtx.n, ==, sql_number (path, sql));
          /* The probe's 121 NVTX ranges less those the edit deleted or
           * moved beyond 2^62 ns: 105, by the SQL above on the edited copy. */
          g_assert_cmpint ((gint64) three->nvtx.n, ==, 105);
        }
    }
  ws_test_rmtree (dir);
}

/* A column named like the rowid hides it: such a table is read on one
 * thread, and read right. */
static void
test_rowid_column (void)
{
  g_autofree char *src = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *path = ws_test_copy_to_tmp (src, "rowid.sqlite");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (WsRun) three = NULL;

  ws_test_sqlite_exec (path, "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN RowId INTEGER;"
                             "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET RowId = 1 + _rowid_ / 2;");
  three = load_with (path, "3", WS_LOAD_ALL);
  assert_matches_sql (path, three, "start IS NOT NULL AND end IS NOT NULL");
  ws_test_rmtree (dir);
}

static char *
load_error (const char *path, const char *threads)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;

  g_setenv ("WARPSCOPE_THREADS", threads, TRUE);
  run = ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_unsetenv ("WARPSCOPE_THREADS");
  g_assert_null (run);
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

/* Text in a time column refuses the file; of two such cells in different
 * workers' ranges, the one a scan meets first is named, with its column. */
static void
test_text_time (void)
{
  g_autofree char *src = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *path = ws_test_copy_to_tmp (src, "text.sqlite");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *one = NULL;
  g_autofree char *three = NULL;

  ws_test_sqlite_exec (path,
                       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 'later' WHERE rowid = 100;"
                       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' WHERE rowid = 300;");
  one = load_error (path, "1");
  three = load_error (path, "3");
  g_assert_cmpstr (three, ==, one);
  g_assert_nonnull (strstr (three, "table CUPTI_ACTIVITY_KIND_KERNEL, column end: 'later'"));
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsys-parallel/fixtures", test_fixtures);
  g_test_add_func ("/nsys-parallel/holes", test_holes);
  g_test_add_func ("/nsys-parallel/rowid-column", test_rowid_column);
  g_test_add_func ("/nsys-parallel/text-time", test_text_time);
  return g_test_run ();
}
