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

static const char *const fixtures[] = {
  "v2021.2_mordred.sqlite",          "v2022.2_pipit_saxpy_mpi.sqlite",
  "v2022.4_rodinia_gaussian.sqlite", "v2024.5_pipit_cloverleaf_4gpu.sqlite",
  "v2025.3_h100_probe.sqlite",       "v2025.3_h100_torch_train.sqlite",
  "v2025.3_h100_train_bf16.sqlite",  "v2025.3_h100_train_fp32.sqlite",
  "v2026.1_nsysai_mock.sqlite",      "v2026.2_nsysai_h100_2gpu.sqlite",
  "v2026.2_nsysai_mfu_after.sqlite", "v2026.2_nsysai_mfu_before.sqlite",
};

static const char *const event_tables[] = {
  "CUPTI_ACTIVITY_KIND_KERNEL",
  "CUPTI_ACTIVITY_KIND_MEMCPY",
  "CUPTI_ACTIVITY_KIND_MEMSET",
  "CUPTI_ACTIVITY_KIND_RUNTIME",
  "NVTX_EVENTS",
  "OSRT_API",
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

/* Each lane: its kernels counted and its busy time summed by SQL. */
static void
check_lanes (const char *path, const WsOverview *overview)
{
  double bin_ns = MAX ((double) (overview->end - overview->start) / WS_OVERVIEW_BINS, 1.0);

  g_assert_cmpint (overview->lanes->len, ==,
                   sql_int (path, "SELECT count(*) FROM (SELECT DISTINCT (globalPid >> 24) & "
                                  "16777215, deviceId, streamId FROM CUPTI_ACTIVITY_KIND_KERNEL)"));
  for (guint i = 0; i < overview->lanes->len; i++)
    {
      const WsOverviewLane *lane = &g_array_index (overview->lanes, WsOverviewLane, i);
      g_autofree char *where = g_strdup_printf (
        "FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE (globalPid >> 24) & 16777215 = %u AND deviceId = "
        "%d AND streamId = %d",
        lane->pid, lane->device_id, lane->stream_id);
      g_autofree char *count = g_strdup_printf ("SELECT count(*) %s", where);
      g_autofree char *busy = g_strdup_printf ("SELECT sum(end - start) %s", where);
      double drawn = 0;

      g_assert_cmpfloat (lane->kernels, ==, (double) sql_int (path, count));
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
  for (gsize f = 0; f < G_N_ELEMENTS (fixtures); f++)
    {
      g_autofree char *path = ws_test_data ("nsys", fixtures[f], NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsOverview) overview = ws_nsys_overview_read (path, NULL, NULL, &error);

      g_test_message ("%s", fixtures[f]);
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

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/overview/exact-on-every-fixture", test_exact);
  g_test_add_func ("/overview/sampled-as-sql-reads-the-same-rows", test_sampled);
  g_test_add_func ("/overview/bad-input", test_bad_input);
  return g_test_run ();
}
