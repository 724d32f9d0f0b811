/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sqlite3.h>

#include "ws-nsys-overview.h"
#include "ws-test-util.h"

/* The first frame of a big export (docs/first-frame.md), against SQL
 * written here: every figure of a small export's overview is exact, and a
 * sampled overview of a real export is within its stated error. */

static const char *const event_tables[] = {
  "CUPTI_ACTIVITY_KIND_KERNEL",
  "CUPTI_ACTIVITY_KIND_MEMCPY",
  "CUPTI_ACTIVITY_KIND_MEMSET",
  "CUPTI_ACTIVITY_KIND_RUNTIME",
  "NVTX_EVENTS",
  "OSRT_API",
  "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
};

static gboolean
has_table (const char *path, const char *table)
{
  g_autofree char *sql =
    g_strdup_printf ("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '%s'", table);
  g_autofree char *found = ws_test_sqlite_text (path, sql);

  return found != NULL;
}

static gint64
sql_int (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* The span: the earliest start and latest end of every event table. */
static void
check_span (const char *path, const WsOverview *overview)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  for (gsize t = 0; t < G_N_ELEMENTS (event_tables); t++)
    {
      g_autofree char *min = NULL, *max = NULL;
      g_autofree char *min_sql = NULL, *max_sql = NULL;

      if (!has_table (path, event_tables[t]))
        continue;
      min_sql = g_strdup_printf ("SELECT min(start) FROM %s", event_tables[t]);
      max_sql = g_strdup_printf ("SELECT max(coalesce(end, start)) FROM %s", event_tables[t]);
      min = ws_test_sqlite_text (path, min_sql);
      max = ws_test_sqlite_text (path, max_sql);
      if (min != NULL)
        lo = MIN (lo, g_ascii_strtoll (min, NULL, 10));
      if (max != NULL)
        hi = MAX (hi, g_ascii_strtoll (max, NULL, 10));
    }
  g_assert_cmpint (overview->start, ==, lo);
  g_assert_cmpint (overview->end, ==, hi);
}

/* Each lane: its kernels and graph replays (recorded whole) counted, and
 * their busy time summed, by SQL. */
static void
check_lanes (const char *path, const WsOverview *overview)
{
  double bin_ns = MAX ((double) (overview->end - overview->start) / WS_OVERVIEW_BINS, 1.0);
  gboolean graphs = has_table (path, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
  g_autofree char *lanes = g_strdup_printf (
    "SELECT count(*) FROM (SELECT DISTINCT (globalPid >> 24) & 16777215, deviceId, streamId FROM "
    "CUPTI_ACTIVITY_KIND_KERNEL%s)",
    graphs ? " UNION SELECT (globalPid >> 24) & 16777215, deviceId, streamId FROM "
             "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"
           : "");

  g_assert_cmpint (overview->lanes->len, ==, sql_int (path, lanes));
  for (guint i = 0; i < overview->lanes->len; i++)
    {
      const WsOverviewLane *lane = &g_array_index (overview->lanes, WsOverviewLane, i);
      g_autofree char *where = g_strdup_printf (
        "WHERE (globalPid >> 24) & 16777215 = %u AND deviceId = %d AND streamId = %d", lane->pid,
        lane->device_id, lane->stream_id);
      g_autofree char *count =
        g_strdup_printf ("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL %s", where);
      g_autofree char *busy = g_strdup_printf (
        "SELECT (SELECT coalesce(sum(end - start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL %s)%s%s%s",
        where,
        graphs ? " + (SELECT coalesce(sum(end - start), 0) FROM "
                 "CUPTI_ACTIVITY_KIND_GRAPH_TRACE "
               : "",
        graphs ? where : "", graphs ? ")" : "");
      g_autofree char *replays =
        g_strdup_printf ("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE %s", where);
      double drawn = 0;

      g_assert_cmpfloat (lane->kernels, ==, (double) sql_int (path, count));
      g_assert_cmpfloat (lane->replays, ==, graphs ? (double) sql_int (path, replays) : 0);
      for (guint b = 0; b < WS_OVERVIEW_BINS; b++)
        drawn += lane->busy[b] * bin_ns;
      /* Floats of 24 bits per bin: a relative error of 1e-4 at most. */
      g_assert_cmpfloat_with_epsilon (drawn / (double) sql_int (path, busy), 1.0, 1e-4);
    }
}

/* The biggest kernels: SQL's GROUP BY of the same name column. */
static void
check_kernels (const char *path, const WsOverview *overview)
{
  g_autofree char *name = NULL;
  g_autofree char *query = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint i = 0;

  name = ws_test_sqlite_text (
    path, "SELECT name FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') "
          "WHERE name IN ('demangledName', 'shortName') ORDER BY name = 'shortName' LIMIT 1");
  g_assert_nonnull (name);
  {
    g_autofree char *distinct =
      g_strdup_printf ("SELECT min(24, count(DISTINCT %s)) FROM CUPTI_ACTIVITY_KIND_KERNEL", name);

    /* The 24 biggest, or every name when fewer. */
    g_assert_cmpint (overview->kernels->len, ==, sql_int (path, distinct));
  }
  query = g_strdup_printf ("SELECT count(*), sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                           "GROUP BY %s ORDER BY 2 DESC, %s LIMIT %u",
                           name, name, overview->kernels->len);
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const WsOverviewKernel *kernel = &g_array_index (overview->kernels, WsOverviewKernel, i++);

      g_assert_cmpfloat (kernel->launches, ==, (double) sqlite3_column_int64 (stmt, 0));
      g_assert_cmpint (kernel->sampled, ==, sqlite3_column_int64 (stmt, 0));
      g_assert_cmpfloat (kernel->total_ns, ==, (double) sqlite3_column_int64 (stmt, 1));
      g_assert_cmpstr (kernel->name, !=, "");
    }
  g_assert_cmpuint (i, ==, overview->kernels->len);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

/* A small export is read whole: every figure is exact. */
static void
test_exact (void)
{
  for (gsize f = 0; ws_test_nsys_exports[f] != NULL; f++)
    {
      g_autofree char *path = ws_test_data ("nsys", ws_test_nsys_exports[f], NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsOverview) overview = ws_nsys_overview_read (path, NULL, NULL, &error);

      g_test_message ("%s", ws_test_nsys_exports[f]);
      g_assert_no_error (error);
      check_span (path, overview);
      if (!has_table (path, "CUPTI_ACTIVITY_KIND_KERNEL"))
        {
          g_assert_cmpint (overview->rows, ==, 0);
          g_assert_cmpuint (overview->lanes->len, ==, 0);
          continue;
        }
      g_assert_cmpint (overview->rows, ==,
                       ws_test_sqlite_count (path, "CUPTI_ACTIVITY_KIND_KERNEL"));
      g_assert_true (ws_overview_is_exact (overview));
      g_assert_cmpint (overview->rows_read, ==, overview->rows);
      check_lanes (path, overview);
      check_kernels (path, overview);
    }
}

/* A real export read by its sample alone, as a big one is: 64 runs of
 * consecutive rows, one row in 8 (Rodinia's Gaussian: two kernels, 4,095
 * launches each).  SQL here reads the same rowid ranges, so each kernel's
 * launches and total are known exactly: the sample's, scaled by rows /
 * rows read. */
static void
test_sampled (void)
{
  const WsOverviewSampling sampling = { 0, 8, 64 };
  g_autofree char *path = ws_test_data ("nsys", "v2022.4_rodinia_gaussian.sqlite", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsOverview) overview = ws_nsys_overview_read (path, &sampling, NULL, &error);
  gint64 lo = sql_int (path, "SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  gint64 hi = sql_int (path, "SELECT max(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  gint64 rows = hi - lo + 1, per_window = rows / 8 / 64;
  g_autoptr (GString) ranges = g_string_new ("0");
  g_autofree char *query = NULL;
  double scale;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint i = 0;

  g_assert_no_error (error);
  g_assert_false (ws_overview_is_exact (overview));
  g_assert_cmpint (rows, ==, ws_test_sqlite_count (path, "CUPTI_ACTIVITY_KIND_KERNEL"));
  g_assert_cmpint (overview->rows, ==, rows);
  g_assert_cmpint (overview->rows_read, ==, 64 * per_window);
  for (gint64 w = 0; w < 64; w++)
    {
      gint64 from = lo + (gint64) ((double) rows * w / 64);

      g_string_append_printf (
        ranges, " OR (rowid >= %" G_GINT64_FORMAT " AND rowid < %" G_GINT64_FORMAT ")", from,
        from + per_window);
    }
  query = g_strdup_printf ("SELECT count(*), sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                           "WHERE %s GROUP BY demangledName ORDER BY 2 DESC, demangledName",
                           ranges->str);
  scale = (double) rows / (double) overview->rows_read;
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const WsOverviewKernel *kernel = &g_array_index (overview->kernels, WsOverviewKernel, i++);

      g_assert_cmpint (kernel->sampled, ==, sqlite3_column_int64 (stmt, 0));
      g_assert_cmpfloat (kernel->launches, ==, (double) sqlite3_column_int64 (stmt, 0) * scale);
      g_assert_cmpfloat (kernel->total_ns, ==, (double) sqlite3_column_int64 (stmt, 1) * scale);
    }
  g_assert_cmpuint (i, ==, overview->kernels->len);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

/* What is not an export gets one line naming the file; an export without
 * kernels gets an empty overview over its other events' span. */
static void
test_bad_input (void)
{
  g_autofree char *readme = ws_test_data ("THIRD-PARTY.md", NULL);
  g_autofree char *probe = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *copy = ws_test_copy_to_tmp (probe, "no-kernels.sqlite");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsOverview) text = ws_nsys_overview_read (readme, NULL, NULL, &error);
  g_autoptr (WsOverview) bare = NULL;

  g_assert_null (text);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, readme));
  g_assert_null (strchr (error->message, '\n'));
  g_clear_error (&error);

  ws_test_sqlite_exec (copy, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL");
  bare = ws_nsys_overview_read (copy, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (bare->rows, ==, 0);
  g_assert_cmpuint (bare->lanes->len, ==, 0);
  g_assert_cmpuint (bare->kernels->len, ==, 0);
  check_span (copy, bare);
  g_unlink (copy);
}

/* The graph-level traces of issue 39 (nsys --cuda-graph-trace=graph):
 * the replays, rows of CUPTI_ACTIVITY_KIND_GRAPH_TRACE whose kernels are
 * in no table, count in the span and in their lane's busy share as
 * kernels do (stream 7 of decode_graph: 40 replays, about 15 ms of GPU
 * work that no kernel row holds). */
static void
test_graph_replays (void)
{
  static const char *const targets[] = { "decode_graph", "decode_compile", "decode_recapture" };
  g_autofree char *dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");

  for (gsize t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autofree char *name = g_strdup_printf ("%s.sqlite", targets[t]);
      g_autofree char *path = g_build_filename (dir, "graph", targets[t], "nsys", name, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsOverview) overview = ws_nsys_overview_read (path, NULL, NULL, &error);

      g_test_message ("graph/%s", targets[t]);
      g_assert_no_error (error);
      g_assert_true (ws_overview_is_exact (overview));
      g_assert_cmpint (overview->replays, ==,
                       ws_test_sqlite_count (path, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"));
      g_assert_cmpint (overview->replays_read, ==, overview->replays);
      check_span (path, overview);
      check_lanes (path, overview);
      check_kernels (path, overview);
      if (g_str_equal (targets[t], "decode_graph"))
        {
          g_assert_cmpint (overview->replays, ==, 40);
          g_assert_cmpint (sql_int (path, "SELECT sum(end - start) FROM "
                                          "CUPTI_ACTIVITY_KIND_GRAPH_TRACE WHERE streamId = 7"),
                           >, 15000000);
        }
    }
  ws_test_rmtree (dir);
}

static const char *const span_tables[] = {
  "CUPTI_ACTIVITY_KIND_MEMCPY",
  "CUPTI_ACTIVITY_KIND_MEMSET",
  "CUPTI_ACTIVITY_KIND_RUNTIME",
  "NVTX_EVENTS",
  "OSRT_API",
};

/* A copy of @path whose event tables hold their rows out of time order,
 * shuffled, as nsys 2025.6 may export them. */
static char *
shuffled_copy (const char *path)
{
  char *copy = ws_test_copy_to_tmp (path, "shuffled.sqlite");

  for (gsize t = 0; t < G_N_ELEMENTS (event_tables); t++)
    {
      g_autofree char *sql = NULL;

      if (!has_table (copy, event_tables[t]))
        continue;
      /* A fixed shuffle, so that the sample below is the same each run:
       * rowid × 2654435761 mod a prime above any rowid is a permutation
       * that spreads neighbours over the whole table. */
      sql = g_strdup_printf ("CREATE TABLE shuffled AS SELECT * FROM %s ORDER BY "
                             "(rowid * 2654435761) %% 4294967311; "
                             "DROP TABLE %s; ALTER TABLE shuffled RENAME TO %s",
                             event_tables[t], event_tables[t], event_tables[t]);
      ws_test_sqlite_exec (copy, sql);
    }
  /* Not in time order any more: the first row is not the earliest. */
  g_assert_cmpint (sql_int (copy, "SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = 1"),
                   >, sql_int (copy, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  return copy;
}

/* Rows out of time order (nsys 2025.6+: "It cannot be assumed that rows
 * will be continue to be exported in any particular order"): the first
 * and last rows no longer hold a table's extremes.  The first frame sees
 * that the rows it reads are out of order and takes the span from a scan:
 * SQL's min(start) and max(end), whatever the order.  Every table of more
 * than 2,048 rows (fewer are read whole) is scanned; the kernel and graph
 * tables, small enough to be sampled whole, give theirs exactly. */
static void
test_unordered_rows (void)
{
  g_autofree char *dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_autofree char *path =
    g_build_filename (dir, "graph", "decode_graph", "nsys", "decode_graph.sqlite", NULL);
  g_autofree char *copy = shuffled_copy (path);
  g_autofree char *copy_dir = g_path_get_dirname (copy);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsOverview) overview = ws_nsys_overview_read (copy, NULL, NULL, &error);
  guint big = 0;

  g_assert_no_error (error);
  for (gsize t = 0; t < G_N_ELEMENTS (span_tables); t++)
    if (has_table (copy, span_tables[t]) && ws_test_sqlite_count (copy, span_tables[t]) > 2048)
      big++;
  /* CUDA API calls (4,524) and OS runtime calls (9,714). */
  g_assert_cmpuint (big, ==, 2);
  g_assert_cmpuint (overview->scanned, ==, big);
  g_assert_true (ws_overview_is_exact (overview));
  check_span (copy, overview);
  check_lanes (copy, overview);
  check_kernels (copy, overview);
  ws_test_rmtree (copy_dir);
  ws_test_rmtree (dir);
}

/* The same rows out of order, sampled as a big table is (runs of rows in
 * 16 windows, one row in 8): the runs no longer hold stretches of time,
 * they are a sample of rows like any other.  The span is still SQL's; the
 * rows read are those SQL reads in the same rowid ranges, the kernels'
 * figures theirs scaled by rows / rows read, and the busy lane's share
 * stands for the whole table: stream 7's estimate is within a quarter of
 * its busy time by SQL (kernels and replays), not an eighth of it as
 * the runs' own time would make it. */
static void
test_unordered_sampled (void)
{
  const WsOverviewSampling sampling = { 0, 8, 16 };
  g_autofree char *dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_autofree char *path =
    g_build_filename (dir, "graph", "decode_graph", "nsys", "decode_graph.sqlite", NULL);
  g_autofree char *copy = shuffled_copy (path);
  g_autofree char *copy_dir = g_path_get_dirname (copy);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsOverview) overview = ws_nsys_overview_read (copy, &sampling, NULL, &error);
  gint64 rows = ws_test_sqlite_count (copy, "CUPTI_ACTIVITY_KIND_KERNEL");
  gint64 per_window = rows / 8 / 16;
  g_autoptr (GString) ranges = g_string_new ("0");
  g_autofree char *sampled = NULL;
  double bin_ns, drawn = 0, busy;
  const WsOverviewLane *lane = NULL;

  g_assert_no_error (error);
  g_assert_false (ws_overview_is_exact (overview));
  check_span (copy, overview);
  for (gint64 w = 0; w < 16; w++)
    {
      gint64 from = 1 + (gint64) ((double) rows * w / 16);

      g_string_append_printf (
        ranges, " OR (rowid >= %" G_GINT64_FORMAT " AND rowid < %" G_GINT64_FORMAT ")", from,
        from + per_window);
    }
  sampled =
    g_strdup_printf ("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE %s", ranges->str);
  g_assert_cmpint (overview->rows, ==, rows);
  g_assert_cmpint (overview->rows_read, ==, sql_int (copy, sampled));
  g_assert_cmpint (overview->replays_read, ==, 16);

  bin_ns = MAX ((double) (overview->end - overview->start) / WS_OVERVIEW_BINS, 1.0);
  for (guint i = 0; i < overview->lanes->len; i++)
    if (g_array_index (overview->lanes, WsOverviewLane, i).stream_id == 7)
      lane = &g_array_index (overview->lanes, WsOverviewLane, i);
  g_assert_nonnull (lane);
  for (guint b = 0; b < WS_OVERVIEW_BINS; b++)
    drawn += lane->busy[b] * bin_ns;
  busy =
    (double) sql_int (copy, "SELECT (SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "
                            "streamId = 7) + (SELECT sum(end - start) FROM "
                            "CUPTI_ACTIVITY_KIND_GRAPH_TRACE WHERE streamId = 7)");
  g_test_message ("stream 7: %.0f ns drawn, %.0f ns by SQL", drawn, busy);
  g_assert_cmpfloat (drawn, >, 0.75 * busy);
  g_assert_cmpfloat (drawn, <, 1.25 * busy);
  ws_test_rmtree (copy_dir);
  ws_test_rmtree (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/overview/exact-on-every-fixture", test_exact);
  g_test_add_func ("/overview/sampled-as-sql-reads-the-same-rows", test_sampled);
  g_test_add_func ("/overview/bad-input", test_bad_input);
  g_test_add_func ("/overview/graph-replays/count-in-lane-and-span", test_graph_replays);
  g_test_add_func ("/overview/unordered-rows/span-is-sql-min-max", test_unordered_rows);
  g_test_add_func ("/overview/unordered-rows/sampled-rows-stand-for-the-table",
                   test_unordered_sampled);
  return g_test_run ();
}
