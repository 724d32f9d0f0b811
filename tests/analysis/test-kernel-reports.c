/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <sqlite3.h>

#include "ws-format.h"
#include "ws-kern-exec-sum.h"
#include "ws-test-util.h"

/* The kernel reports of `stats` (cuda_kern_exec_sum, cuda_gpu_kern_gb_sum
 * and the :nvtx-name, :base and :mangled arguments of the kernel reports)
 * against what nsys stats 2025.3.2 printed for the H200 CUDA-graph
 * captures of issue 39 (tests/data/captures/h200_graphs_capture.tar.xz,
 * the truth/ folder of each target), what nsys stats 2025.3.1 printed with
 * each argument for four exports (nsys_stats_report_args.tar.xz), and
 * against SQL written here over the exports. */

static char *graphs_tmp;
static char *truths_tmp; /* nsys_stats_report_args.tar.xz, and the GPT-2 export */

typedef struct
{
  const char *mode; /* nsys --cuda-graph-trace: node or graph */
  const char *target;
} Capture;

static const Capture captures[] = {
  { "node", "decode_eager" },      { "node", "decode_graph" },  { "node", "decode_compile" },
  { "node", "decode_recapture" },  { "graph", "decode_graph" }, { "graph", "decode_compile" },
  { "graph", "decode_recapture" },
};

/* The name forms of the reports' arguments, and the column nsys groups by
 * for each: a kernel without a mangled name has its demangled one. */
static const struct
{
  const char *argument;
  const char *option;
  const char *column;
} forms[] = {
  { "", "demangled", "k.demangledName" },
  { ":base", "short", "k.shortName" },
  { ":mangled", "mangled", "coalesce(k.mangledName, k.demangledName)" },
};

static char *
capture_db (const Capture *c)
{
  g_autofree char *file = g_strdup_printf ("%s.sqlite", c->target);

  return g_build_filename (graphs_tmp, c->mode, c->target, "nsys", file, NULL);
}

static char *
capture_truth (const Capture *c, const char *report)
{
  g_autofree char *file = g_strdup_printf ("%s_%s.csv", c->target, report);

  return g_build_filename (graphs_tmp, c->mode, c->target, "truth", file, NULL);
}

/* `warpscope-cli stats --report @report --format csv @db [@more]`, which
 * must succeed and say nothing on standard error. */
static char *
stats_csv (const char *db, const char *report, const char *more)
{
  const char *argv[] = { ws_test_cli (), "stats", "--report", report, "--format",
                         "csv",          db,      more,       NULL };
  g_autofree char *err = NULL;
  char *out = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  return out;
}

/* Byte for byte; on a difference, the first line that differs. */
static void
assert_same_text (const char *ours, const char *theirs)
{
  g_auto (GStrv) a = NULL;
  g_auto (GStrv) b = NULL;

  if (g_str_equal (ours, theirs))
    return;
  a = g_strsplit (ours, "\n", -1);
  b = g_strsplit (theirs, "\n", -1);
  for (guint i = 0; a[i] != NULL && b[i] != NULL; i++)
    if (!g_str_equal (a[i], b[i]))
      {
        g_test_message ("line %u differs", i + 1);
        g_assert_cmpstr (a[i], ==, b[i]);
      }
  g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
}

/* The rows of @sql over @db as CSV lines, as nsys writes them: REAL
 * columns with one decimal, rounded as nsys rounds them (ws_format_fixed():
 * SQLite 3.40's own round() rounds 99513.95 up, nsys down), NULL empty,
 * text quoted where it must be. */
static char *
sql_csv (const char *db, const char *sql)
{
  sqlite3 *conn = NULL;
  sqlite3_stmt *stmt = NULL;
  GString *out = g_string_new (NULL);
  int rc;

  g_assert_cmpint (sqlite3_open_v2 (db, &conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  if (sqlite3_prepare_v2 (conn, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sqlite3_errmsg (conn), sql);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      for (int c = 0; c < sqlite3_column_count (stmt); c++)
        {
          if (c > 0)
            g_string_append_c (out, ',');
          if (sqlite3_column_type (stmt, c) == SQLITE_FLOAT)
            ws_format_fixed (out, sqlite3_column_double (stmt, c), 1, FALSE);
          else if (sqlite3_column_type (stmt, c) != SQLITE_NULL)
            ws_csv_append_field (out, (const char *) sqlite3_column_text (stmt, c));
        }
      g_string_append_c (out, '\n');
    }
  g_assert_cmpint (rc, ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
  sqlite3_close (conn);
  return g_string_free (out, FALSE);
}

/* Three tables over the rows of `base`, grouped by @keys, for value column
 * @v: s_V (count of values, total, mean, extremes), m_V (the median, the
 * mean of the two middle values for an even count: a window function)
 * and d_V (the sum of squared deviations from the mean, for the sample
 * standard deviation).  NULL values are not counted, as SQL aggregates
 * leave them. */
static void
append_value_tables (GString *sql, const char *v, const char *keys)
{
  g_string_append_printf (
    sql,
    ", s_%1$s AS (SELECT %2$s, count(%1$s) AS n, sum(%1$s) AS total, avg(%1$s) AS mean,"
    " min(%1$s) AS lo, max(%1$s) AS hi FROM base GROUP BY %2$s)"
    ", m_%1$s AS (SELECT %2$s, avg(%1$s) AS med FROM (SELECT %2$s, %1$s, row_number() OVER"
    " (PARTITION BY %2$s ORDER BY %1$s) AS i, count(*) OVER (PARTITION BY %2$s) AS c FROM base"
    " WHERE %1$s IS NOT NULL) WHERE i IN ((c + 1) / 2, (c + 2) / 2) GROUP BY %2$s)"
    ", d_%1$s AS (SELECT %2$s, sum((b.%1$s - s.mean) * (b.%1$s - s.mean)) AS ss FROM base b"
    " JOIN s_%1$s s USING (%2$s) WHERE b.%1$s IS NOT NULL GROUP BY %2$s)",
    v, keys);
}

/* The five columns of value @v: mean, median, extremes (NULL, so empty,
 * where the group has no value), sample standard deviation (0.0 below two
 * values). */
static void
append_value_columns (GString *sql, const char *v)
{
  g_string_append_printf (sql,
                          ", s_%1$s.mean, m_%1$s.med, s_%1$s.lo, s_%1$s.hi,"
                          " CASE WHEN s_%1$s.n > 1 THEN sqrt(d_%1$s.ss / (s_%1$s.n - 1))"
                          " ELSE 0.0 END",
                          v);
}

/* The name kernel k (its name's string s) is grouped under: with @nvtx
 * (:nvtx-name), after the innermost NVTX range around its launch call and
 * a slash: of the ranges of the calling thread (the kernel's process, its
 * correlation id) that hold the call wholly, the one that starts last, of
 * any domain, the domain not printed; a kernel no range holds keeps its
 * name. */
static char *
name_sql (gboolean nvtx)
{
  if (!nvtx)
    return g_strdup ("s.value");
  return g_strdup (
    "coalesce((SELECT coalesce(n.text, t.value) FROM CUPTI_ACTIVITY_KIND_RUNTIME c"
    " JOIN NVTX_EVENTS n ON n.globalTid = c.globalTid LEFT JOIN StringIds t ON t.id = n.textId"
    " WHERE c.correlationId = k.correlationId"
    " AND (c.globalTid & 0xFFFFFFFFFF000000) = k.globalPid"
    " AND n.eventType IN (59, 60, 70, 71) AND n.start <= c.start AND n.end >= c.end"
    " ORDER BY n.start DESC, n.end LIMIT 1) || '/', '') || s.value");
}

/* cuda_gpu_kern_sum (@shape FALSE) or cuda_gpu_kern_gb_sum as SQL over
 * the kernel table: GROUP BY the name in @column (with @nvtx, after its
 * NVTX range; and the grid and the block), rows by total, largest first,
 * then instances, then name. */
static char *
kernel_sum_expected (const char *db, const char *column, gboolean shape, gboolean nvtx)
{
  const char *keys = shape ? "g1, g2, g3, g4, g5, g6, g7" : "g1";
  g_autoptr (GString) sql = g_string_new (NULL);
  g_autofree char *name = name_sql (nvtx);
  g_autofree char *body = NULL;

  g_string_append_printf (sql,
                          "WITH base AS (SELECT %s AS g1, k.gridX AS g2, k.gridY AS g3,"
                          " k.gridZ AS g4, k.blockX AS g5, k.blockY AS g6, k.blockZ AS g7,"
                          " k.end - k.start AS d FROM CUPTI_ACTIVITY_KIND_KERNEL k"
                          " JOIN StringIds s ON s.id = %s)",
                          name, column);
  append_value_tables (sql, "d", keys);
  g_string_append (sql, " SELECT s_d.total * 100.0 / (SELECT sum(total) FROM s_d), s_d.total,"
                        " s_d.n");
  append_value_columns (sql, "d");
  if (shape)
    g_string_append (sql, ", printf('%4d %4d %4d', g2, g3, g4), printf('%4d %4d %4d', g5, g6, g7)");
  g_string_append_printf (sql,
                          ", g1 FROM s_d JOIN m_d USING (%1$s) JOIN d_d USING (%1$s)"
                          " ORDER BY s_d.total DESC, s_d.n, %1$s",
                          keys);
  body = sql_csv (db, sql->str);
  return g_strdup_printf ("Time (%%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),"
                          "Max (ns),StdDev (ns),%sName\n%s",
                          shape ? "GridXYZ,BlockXYZ," : "", body);
}

/* cuda_kern_exec_sum as SQL: each kernel joined to the API call of its
 * process with its correlation id, grouped by process, thread, device,
 * call name (a suffix of six characters from "_v" dropped) and kernel
 * name in @column (with @nvtx, after its NVTX range), by mean total time,
 * largest first. */
static char *
exec_sum_expected (const char *db, const char *column, gboolean nvtx)
{
  static const char *const values[] = { "tt", "aa", "qq", "kk" };
  const char *keys = "g1, g2, g3, g4, g5";
  g_autoptr (GString) sql = g_string_new (NULL);
  g_autofree char *name = name_sql (nvtx);
  g_autofree char *body = NULL;

  g_string_append_printf (
    sql,
    "WITH base AS (SELECT (r.globalTid >> 24) & 16777215 AS g1, r.globalTid & 16777215 AS g2,"
    " k.deviceId AS g3, CASE WHEN substr(a.value, -6, 2) = '_v' THEN substr(a.value, 1,"
    " length(a.value) - 6) ELSE a.value END AS g4, %s AS g5,"
    " max(r.end, k.end) - r.start AS tt, r.end - r.start AS aa,"
    " CASE WHEN k.start >= r.end THEN k.start - r.end END AS qq, k.end - k.start AS kk"
    " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
    " ON r.correlationId = k.correlationId AND k.globalPid = (r.globalTid & 0xFFFFFFFFFF000000)"
    " JOIN StringIds a ON a.id = r.nameId JOIN StringIds s ON s.id = %s)",
    name, column);
  for (gsize v = 0; v < G_N_ELEMENTS (values); v++)
    append_value_tables (sql, values[v], keys);
  g_string_append (sql, " SELECT g1, g2, g3, s_tt.n, s_qq.n");
  for (gsize v = 0; v < G_N_ELEMENTS (values); v++)
    append_value_columns (sql, values[v]);
  g_string_append_printf (sql,
                          ", g4, g5 FROM s_tt JOIN s_aa USING (%1$s) JOIN s_qq USING (%1$s)"
                          " JOIN s_kk USING (%1$s)",
                          keys);
  for (gsize v = 0; v < G_N_ELEMENTS (values); v++)
    g_string_append_printf (sql, " LEFT JOIN m_%1$s USING (%2$s) LEFT JOIN d_%1$s USING (%2$s)",
                            values[v], keys);
  g_string_append_printf (sql, " ORDER BY s_tt.mean DESC, %s", keys);
  body = sql_csv (db, sql->str);
  return g_strdup_printf (
    "PID,TID,DevId,Count,QCount,TAvg (ns),TMed (ns),TMin (ns),TMax (ns),TStdDev (ns),AAvg (ns),"
    "AMed (ns),AMin (ns),AMax (ns),AStdDev (ns),QAvg (ns),QMed (ns),QMin (ns),QMax (ns),QStdDev "
    "(ns),KAvg (ns),KMed (ns),KMin (ns),KMax (ns),KStdDev (ns),API Name,Kernel Name\n%s",
    body);
}

/* cuda_kern_exec_sum equals nsys stats's CSV of the same export byte for
 * byte, rows in nsys's order (no two rows share a mean). */
static void
test_exec_sum_equals_nsys (gconstpointer data)
{
  const Capture *c = data;
  g_autofree char *db = capture_db (c);
  g_autofree char *truth_path = capture_truth (c, "cuda_kern_exec_sum");
  g_autofree char *truth = ws_test_read (truth_path);
  g_autofree char *ours = stats_csv (db, "cuda_kern_exec_sum", NULL);

  assert_same_text (ours, truth);
}

/* The SQL of :nvtx-name scans every range for each kernel: over 16,782
 * ranges and 3,442 kernels (v2026.2_nsysai_h100_2gpu) that is seconds a
 * query, and many minutes under valgrind.  Exports with more ranges are
 * compared without it. */
#define MAX_NVTX_FOR_SQL 1000

/* cuda_gpu_kern_gb_sum, cuda_kern_exec_sum and cuda_gpu_kern_sum with
 * each name argument, alone and after :nvtx-name, equal the SQL above over
 * @db.  Without NVTX ranges in the export, :nvtx-name changes no name. */
static void
check_equal_sql (const char *db)
{
  /* -1 without the table */
  gint64 n_ranges = ws_test_sqlite_count (db, "NVTX_EVENTS");

  for (gsize f = 0; f < G_N_ELEMENTS (forms); f++)
    for (int nvtx = 0; nvtx < 2; nvtx++)
      {
        const char *nvtx_arg = nvtx ? ":nvtx-name" : "";
        gboolean sql_nvtx = nvtx && n_ranges >= 0;

        if (nvtx && n_ranges > MAX_NVTX_FOR_SQL)
          {
            g_test_message ("%s: %" G_GINT64_FORMAT " NVTX events, :nvtx-name not compared", db,
                            n_ranges);
            continue;
          }
        g_autofree char *gb =
          g_strconcat ("cuda_gpu_kern_gb_sum", nvtx_arg, forms[f].argument, NULL);
        g_autofree char *exec =
          g_strconcat ("cuda_kern_exec_sum", nvtx_arg, forms[f].argument, NULL);
        g_autofree char *kern =
          g_strconcat ("cuda_gpu_kern_sum", nvtx_arg, forms[f].argument, NULL);
        g_autofree char *gb_ours = stats_csv (db, gb, NULL);
        g_autofree char *gb_sql = kernel_sum_expected (db, forms[f].column, TRUE, sql_nvtx);
        g_autofree char *exec_ours = stats_csv (db, exec, NULL);
        g_autofree char *exec_sql = exec_sum_expected (db, forms[f].column, sql_nvtx);
        g_autofree char *kern_ours = stats_csv (db, kern, NULL);
        g_autofree char *kern_sql = kernel_sum_expected (db, forms[f].column, FALSE, sql_nvtx);

        g_test_message ("%s: %s, %s, %s", db, gb, exec, kern);
        g_assert_cmpuint (ws_test_count_lines (gb_sql), >, 1);
        assert_same_text (gb_ours, gb_sql);
        g_assert_cmpuint (ws_test_count_lines (exec_sql), >, 1);
        assert_same_text (exec_ours, exec_sql);
        assert_same_text (kern_ours, kern_sql);
      }
}

static void
test_capture_equals_sql (gconstpointer data)
{
  g_autofree char *db = capture_db (data);

  check_equal_sql (db);
}

static void
test_fixture_equals_sql (gconstpointer data)
{
  g_autofree char *db = ws_test_data ("nsys", (const char *) data, NULL);

  check_equal_sql (db);
}

/* The SQL of cuda_kern_exec_sum is right: over every capture it gives
 * nsys's own CSV. */
static void
test_exec_sql_equals_nsys (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (captures); i++)
    {
      g_autofree char *db = capture_db (&captures[i]);
      g_autofree char *truth_path = capture_truth (&captures[i], "cuda_kern_exec_sum");
      g_autofree char *truth = ws_test_read (truth_path);
      g_autofree char *sql = exec_sum_expected (db, forms[0].column, FALSE);

      assert_same_text (sql, truth);
    }
}

/* The exports of nsys_stats_report_args.tar.xz: truths/<export>/ holds
 * <export>_<report>.csv, nsys stats --report <report> --format csv, the
 * report's arguments after "_" ("cuda_gpu_kern_sum_nvtx-name.csv"). */
typedef struct
{
  const char *name;
  const Capture *capture; /* where it is an H200 capture */
  const char *fixture;    /* where it is one of tests/data/nsys/ */
} Export;

static const Export exports[] = {
  { "decode_compile", &captures[2], NULL }, /* node/decode_compile */
  { "decode_graph", &captures[4], NULL },   /* graph/decode_graph */
  { "gpt2", NULL, NULL },                   /* tests/data/gpt2/GPT2__.sqlite.xz */
  { "probe", NULL, "v2025.3_h100_probe.sqlite" },
};

/* The reports of each export's truths, in three checks. */
static const char *const gb_reports[] = {
  "cuda_gpu_kern_gb_sum",
  "cuda_gpu_kern_gb_sum:base",
  "cuda_gpu_kern_gb_sum:nvtx-name",
  NULL,
};
static const char *const nvtx_name_reports[] = {
  "cuda_gpu_kern_sum:nvtx-name",
  "cuda_kern_exec_sum:nvtx-name",
  NULL,
};
static const char *const argument_reports[] = {
  "cuda_gpu_kern_sum:base",
  "cuda_gpu_kern_sum:mangled",
  "cuda_kern_exec_sum:base",
  "nvtx_kern_sum:base",
  NULL,
};
static const char *const *const truth_groups[] = { gb_reports, nvtx_name_reports,
                                                   argument_reports };

static char *
export_db (const Export *e)
{
  if (e->capture != NULL)
    return capture_db (e->capture);
  if (e->fixture != NULL)
    return ws_test_data ("nsys", e->fixture, NULL);
  return g_build_filename (truths_tmp, "GPT2__.sqlite", NULL);
}

/* The file nsys wrote for @report ("cuda_gpu_kern_sum:nvtx-name") of @e. */
static char *
export_truth (const Export *e, const char *report)
{
  g_autofree char *args = g_strdelimit (g_strdup (report), ":", '_');
  g_autofree char *file = g_strdup_printf ("%s_%s.csv", e->name, args);

  return g_build_filename (truths_tmp, "truths", e->name, file, NULL);
}

/* @reports of @e equal nsys's CSVs byte for byte, rows in nsys's order.
 * Where nsys's ORDER BY leaves rows tied (cuda_kern_exec_sum sorts by the
 * mean total time alone: 22 rows of GPT-2's :nvtx-name share their mean
 * with another), Warpscope's tie-break (process, thread, device, call,
 * kernel name) gives nsys's order on these files; the lines are not
 * compared sorted. */
static void
check_truths (const Export *e, const char *const *reports)
{
  g_autofree char *db = export_db (e);

  for (gsize i = 0; reports[i] != NULL; i++)
    {
      g_autofree char *path = export_truth (e, reports[i]);
      g_autofree char *truth = ws_test_read (path);
      g_autofree char *ours = stats_csv (db, reports[i], NULL);

      g_test_message ("%s: %s", e->name, reports[i]);
      g_assert_cmpuint (ws_test_count_lines (truth), >, 1);
      assert_same_text (ours, truth);
    }
}

static void
test_gb_sum_equals_nsys (gconstpointer data)
{
  check_truths (data, gb_reports);
}

static void
test_nvtx_name_equals_nsys (gconstpointer data)
{
  check_truths (data, nvtx_name_reports);
}

static void
test_arguments_equal_nsys (gconstpointer data)
{
  check_truths (data, argument_reports);
}

/* Every CSV of the truths is one that a check above compares, and every
 * one they compare is there: 9 reports of 4 exports. */
static void
test_every_truth_compared (void)
{
  g_autofree char *dir = g_build_filename (truths_tmp, "truths", NULL);
  guint n_files = 0, n_compared = 0;

  for (gsize e = 0; e < G_N_ELEMENTS (exports); e++)
    {
      g_autofree char *sub = g_build_filename (dir, exports[e].name, NULL);
      g_autoptr (GDir) listing = g_dir_open (sub, 0, NULL);
      const char *name;

      g_assert_nonnull (listing);
      while ((name = g_dir_read_name (listing)) != NULL)
        {
          gboolean found = FALSE;

          if (!g_str_has_suffix (name, ".csv"))
            continue;
          n_files++;
          for (gsize g = 0; g < G_N_ELEMENTS (truth_groups) && !found; g++)
            for (gsize r = 0; truth_groups[g][r] != NULL && !found; r++)
              {
                g_autofree char *path = export_truth (&exports[e], truth_groups[g][r]);
                g_autofree char *base = g_path_get_basename (path);

                found = g_str_equal (base, name);
              }
          g_test_message ("%s/%s", exports[e].name, name);
          g_assert_true (found);
        }
      for (gsize g = 0; g < G_N_ELEMENTS (truth_groups); g++)
        for (gsize r = 0; truth_groups[g][r] != NULL; r++)
          n_compared++;
    }
  g_assert_cmpuint (n_files, ==, n_compared);
  g_assert_cmpuint (n_files, ==, 36);
}

/* The SQL of :nvtx-name (name_sql()) is right: over the exports of the
 * truths it gives nsys's CSVs.  Not over GPT-2's 16,164 ranges
 * (MAX_NVTX_FOR_SQL), which the checks above compare with nsys alone. */
static void
test_nvtx_name_sql_equals_nsys (void)
{
  for (gsize e = 0; e < G_N_ELEMENTS (exports); e++)
    {
      g_autofree char *db = export_db (&exports[e]);
      g_autofree char *kern_path = export_truth (&exports[e], "cuda_gpu_kern_sum:nvtx-name");
      g_autofree char *gb_path = export_truth (&exports[e], "cuda_gpu_kern_gb_sum:nvtx-name");
      g_autofree char *exec_path = export_truth (&exports[e], "cuda_kern_exec_sum:nvtx-name");
      g_autofree char *kern_truth = NULL, *gb_truth = NULL, *exec_truth = NULL;
      g_autofree char *kern_sql = NULL, *gb_sql = NULL, *exec_sql = NULL;

      if (ws_test_sqlite_count (db, "NVTX_EVENTS") > MAX_NVTX_FOR_SQL)
        continue;
      g_test_message ("%s", exports[e].name);
      kern_truth = ws_test_read (kern_path);
      kern_sql = kernel_sum_expected (db, forms[0].column, FALSE, TRUE);
      assert_same_text (kern_sql, kern_truth);
      gb_truth = ws_test_read (gb_path);
      gb_sql = kernel_sum_expected (db, forms[0].column, TRUE, TRUE);
      assert_same_text (gb_sql, gb_truth);
      exec_truth = ws_test_read (exec_path);
      exec_sql = exec_sum_expected (db, forms[0].column, TRUE);
      assert_same_text (exec_sql, exec_truth);
    }
}

/* cuda_gpu_kern_sum's rows of one total come by instances, fewest first,
 * as its SQL orders them (ORDER BY 2 DESC, 3, "Name"), not by name: with
 * :nvtx-name:base, v2026.2_nsysai_h100_2gpu has rows of equal totals, one
 * kernel of 4,672 ns under "aten::bmm, op_id = 314569" and two of 2,336 ns
 * on average under "aten::add, op_id = 317470". */
static void
test_kern_sum_ties_by_instances (void)
{
  g_autofree char *db = ws_test_data ("nsys", "v2026.2_nsysai_h100_2gpu.sqlite", NULL);
  g_autofree char *csv = stats_csv (db, "cuda_gpu_kern_sum:nvtx-name:base", NULL);
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
  gint64 last_total = G_MAXINT64, last_count = 0;
  guint ties = 0;

  g_assert_cmpuint (g_strv_length (lines), >, 2);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], ",", 4);
      gint64 total = g_ascii_strtoll (fields[1], NULL, 10);
      gint64 count = g_ascii_strtoll (fields[2], NULL, 10);

      g_assert_cmpint (total, <=, last_total);
      if (total == last_total)
        {
          g_assert_cmpint (count, >=, last_count);
          ties += count != last_count;
        }
      last_total = total;
      last_count = count;
    }
  g_assert_cmpuint (ties, >, 0);
}

/* R:base is R --name short, R:mangled R --name mangled, for the four
 * reports of kernels by name. */
static void
test_arguments_equal_name_option (void)
{
  static const char *const reports[] = { "cuda_gpu_kern_sum", "cuda_gpu_kern_gb_sum",
                                         "cuda_kern_exec_sum", "nvtx_kern_sum" };
  g_autofree char *db = capture_db (&captures[1]);

  for (gsize r = 0; r < G_N_ELEMENTS (reports); r++)
    for (gsize f = 1; f < G_N_ELEMENTS (forms); f++)
      {
        g_autofree char *with_argument = g_strconcat (reports[r], forms[f].argument, NULL);
        g_autofree char *name_option = g_strdup_printf ("--name=%s", forms[f].option);
        g_autofree char *a = stats_csv (db, with_argument, NULL);
        g_autofree char *b = stats_csv (db, reports[r], name_option);

        g_test_message ("%s", with_argument);
        g_assert_cmpuint (ws_test_count_lines (a), >, 1);
        assert_same_text (a, b);
      }
}

/* Several forms in one run (a load that reads every name form) give what
 * each gives alone. */
static void
test_forms_in_one_run (void)
{
  static const char *const reports[] = {
    "cuda_gpu_kern_sum",  "cuda_gpu_kern_sum:base",  "cuda_gpu_kern_sum:mangled",
    "nvtx_kern_sum:base", "cuda_kern_exec_sum:base",
  };
  g_autofree char *db = capture_db (&captures[1]);
  g_autofree char *all = g_strjoinv (",", (char **) reports);
  g_autofree char *together = stats_csv (db, all, NULL);
  g_autoptr (GString) apart = g_string_new (NULL);

  for (gsize r = 0; r < G_N_ELEMENTS (reports); r++)
    {
      g_autofree char *one = stats_csv (db, reports[r], NULL);

      if (r > 0)
        g_string_append_c (apart, '\n');
      g_string_append (apart, one);
    }
  assert_same_text (together, apart->str);
}

/* The 2021.2 export has no mangled names: :mangled says so on standard
 * error, once, and groups by the demangled ones, as nsys falls back. */
static void
test_missing_mangled_falls_back (void)
{
  g_autofree char *db = ws_test_data ("nsys", "v2021.2_mordred.sqlite", NULL);
  const char *argv[] = {
    ws_test_cli (), "stats", "--report", "cuda_kern_exec_sum:mangled,cuda_gpu_kern_gb_sum:mangled",
    "--format",     "csv",   db,         NULL
  };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *exec = stats_csv (db, "cuda_kern_exec_sum", NULL);
  g_autofree char *gb = stats_csv (db, "cuda_gpu_kern_gb_sum", NULL);
  g_autofree char *expected = g_strconcat (exec, "\n", gb, NULL);

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
  g_assert_nonnull (strstr (err, "no mangled kernel names; demangled names are shown"));
  assert_same_text (out, expected);
}

/* What the reports' arguments refuse, each in one line with status 2. */
static void
test_arguments_refused (void)
{
  static const struct
  {
    const char *report;
    const char *says;
  } cases[] = {
    { "nvtx_kern_sum:nvtx-name", "it takes base or mangled" },
    { "cuda_gpu_kern_sum:base:mangled", "exclude each other" },
    { "cuda_gpu_kern_sum:nvtx-name:mangled:base", "exclude each other" },
    { "cuda_gpu_kern_sum:short", "it takes nvtx-name, and base or mangled" },
    { "cuda_kern_exec_sum:nvtx", "it takes nvtx-name, and base or mangled" },
    { "nvtx_gpu_proj_sum:nvtx-name", "takes no argument" },
    { "nvtx_sum:base", "takes no argument" },
    { "cuda_api_sum:mangled", "takes no argument" },
    { "cuda_gpu_kern_gb_sums", "unknown report" },
  };
  g_autofree char *db = capture_db (&captures[0]);

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "stats", "--report", cases[i].report, db, NULL };
      g_autofree char *err = NULL;
      g_autofree char *out = ws_test_cli_expect (args, 2, &err);

      g_test_message ("%s: %s", cases[i].report, err);
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
      g_assert_nonnull (strstr (err, cases[i].says));
    }
}

/* The console form: nsys's title line with the report as asked for (its
 * arguments in nsys's order, report[:nvtx-name][:base|:mangled]), and the
 * same rows as the CSV. */
static void
test_table_form (void)
{
  g_autofree char *db = capture_db (&captures[1]);
  const char *args[] = { "stats", "--report",
                         "cuda_kern_exec_sum,cuda_gpu_kern_gb_sum:base:nvtx-name", db, NULL };
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
  g_autofree char *exec = stats_csv (db, "cuda_kern_exec_sum", NULL);
  g_autofree char *gb = stats_csv (db, "cuda_gpu_kern_gb_sum:base:nvtx-name", NULL);
  g_autofree char *gb_in_order = stats_csv (db, "cuda_gpu_kern_gb_sum:nvtx-name:base", NULL);

  assert_same_text (gb, gb_in_order);
  g_assert_true (
    g_str_has_prefix (out, " ** CUDA Kernel Launch & Exec Time Summary (cuda_kern_exec_sum):\n\n"));
  g_assert_nonnull (strstr (
    out, "\n ** CUDA GPU Kernel/Grid/Block Summary (cuda_gpu_kern_gb_sum:nvtx-name:base):\n\n"));
  /* Header, rule and rows, a blank line after each report. */
  g_assert_cmpuint (ws_test_count_lines (out), ==,
                    ws_test_count_lines (exec) + 1 + ws_test_count_lines (gb) + 1 + 2 * 3 + 1);
}

/* nsys's SQL drops six characters from "_v" on; cuda_api_sum's rule wants
 * four digits after it. */
static void
test_api_name_rule (void)
{
  static const char *const cases[][2] = {
    { "cudaLaunchKernel_v7000", "cudaLaunchKernel" },
    { "cudaGraphLaunch_v10000", "cudaGraphLaunch_v10000" },
    { "cudaLaunchKernelExC_v11060", "cudaLaunchKernelExC_v11060" },
    { "cuLaunchKernel", "cuLaunchKernel" },
    { "cuGetProcAddress_v2", "cuGetProcAddress_v2" },
    { "cuFoo_vabcd", "cuFoo" },
    { "_v", "_v" },
    { "", "" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = ws_kern_exec_api_name (cases[i][0]);

      g_assert_cmpstr (name, ==, cases[i][1]);
    }
}

/* Each check of one capture or fixture, under a literal path, as
 * tests/check-promises.py reads them. */
#define ADD_EXEC(path, i) g_test_add_data_func (path, &captures[i], test_exec_sum_equals_nsys)
#define ADD_TRUTHS(path, i, func) g_test_add_data_func (path, &exports[i], func)
#define ADD_SQL(path, i) g_test_add_data_func (path, &captures[i], test_capture_equals_sql)
#define ADD_FIXTURE(path, name) g_test_add_data_func (path, name, test_fixture_equals_sql)

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  graphs_tmp = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  truths_tmp = ws_test_unpack ("captures/nsys_stats_report_args.tar.xz");
  g_free (ws_test_unxz ("gpt2/GPT2__.sqlite.xz", truths_tmp));
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/node/decode_eager", 0);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/node/decode_graph", 1);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/node/decode_compile", 2);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/node/decode_recapture", 3);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/graph/decode_graph", 4);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/graph/decode_compile", 5);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/graph/decode_recapture", 6);
  /* nsys stats 2025.3.1 with each argument (nsys_stats_report_args.tar.xz). */
  ADD_TRUTHS ("/kernel-reports/gb-sum/equals-nsys/decode_compile", 0, test_gb_sum_equals_nsys);
  ADD_TRUTHS ("/kernel-reports/gb-sum/equals-nsys/decode_graph", 1, test_gb_sum_equals_nsys);
  ADD_TRUTHS ("/kernel-reports/gb-sum/equals-nsys/gpt2", 2, test_gb_sum_equals_nsys);
  ADD_TRUTHS ("/kernel-reports/gb-sum/equals-nsys/probe", 3, test_gb_sum_equals_nsys);
  ADD_TRUTHS ("/kernel-reports/nvtx-name/equals-nsys/decode_compile", 0,
              test_nvtx_name_equals_nsys);
  ADD_TRUTHS ("/kernel-reports/nvtx-name/equals-nsys/decode_graph", 1, test_nvtx_name_equals_nsys);
  ADD_TRUTHS ("/kernel-reports/nvtx-name/equals-nsys/gpt2", 2, test_nvtx_name_equals_nsys);
  ADD_TRUTHS ("/kernel-reports/nvtx-name/equals-nsys/probe", 3, test_nvtx_name_equals_nsys);
  ADD_TRUTHS ("/kernel-reports/arguments/equal-nsys/decode_compile", 0, test_arguments_equal_nsys);
  ADD_TRUTHS ("/kernel-reports/arguments/equal-nsys/decode_graph", 1, test_arguments_equal_nsys);
  ADD_TRUTHS ("/kernel-reports/arguments/equal-nsys/gpt2", 2, test_arguments_equal_nsys);
  ADD_TRUTHS ("/kernel-reports/arguments/equal-nsys/probe", 3, test_arguments_equal_nsys);
  g_test_add_func ("/kernel-reports/truths/every-file-compared", test_every_truth_compared);
  g_test_add_func ("/kernel-reports/nvtx-name/sql-equals-nsys", test_nvtx_name_sql_equals_nsys);
  ADD_SQL ("/kernel-reports/equal-sql/node/decode_eager", 0);
  ADD_SQL ("/kernel-reports/equal-sql/node/decode_graph", 1);
  ADD_SQL ("/kernel-reports/equal-sql/node/decode_compile", 2);
  ADD_SQL ("/kernel-reports/equal-sql/node/decode_recapture", 3);
  ADD_SQL ("/kernel-reports/equal-sql/graph/decode_graph", 4);
  ADD_SQL ("/kernel-reports/equal-sql/graph/decode_compile", 5);
  ADD_SQL ("/kernel-reports/equal-sql/graph/decode_recapture", 6);
  /* Fixtures of other versions: several processes, each launch under two
   * calls (2022.2), several GPUs (2024.5, 2026.2). */
  ADD_FIXTURE ("/kernel-reports/equal-sql/v2022.2_pipit_saxpy_mpi.sqlite",
               "v2022.2_pipit_saxpy_mpi.sqlite");
  ADD_FIXTURE ("/kernel-reports/equal-sql/v2024.5_pipit_cloverleaf_4gpu.sqlite",
               "v2024.5_pipit_cloverleaf_4gpu.sqlite");
  ADD_FIXTURE ("/kernel-reports/equal-sql/v2025.3_h100_train_bf16.sqlite",
               "v2025.3_h100_train_bf16.sqlite");
  ADD_FIXTURE ("/kernel-reports/equal-sql/v2026.2_nsysai_h100_2gpu.sqlite",
               "v2026.2_nsysai_h100_2gpu.sqlite");
  g_test_add_func ("/kernel-reports/exec-sum/sql-equals-nsys", test_exec_sql_equals_nsys);
  g_test_add_func ("/kernel-reports/exec-sum/api-name-rule", test_api_name_rule);
  g_test_add_func ("/kernel-reports/arguments/equal-name-option", test_arguments_equal_name_option);
  g_test_add_func ("/kernel-reports/arguments/forms-in-one-run", test_forms_in_one_run);
  g_test_add_func ("/kernel-reports/arguments/missing-mangled-falls-back",
                   test_missing_mangled_falls_back);
  g_test_add_func ("/kernel-reports/arguments/refused", test_arguments_refused);
  g_test_add_func ("/kernel-reports/table-form", test_table_form);
  g_test_add_func ("/kernel-reports/kern-sum/ties-by-instances", test_kern_sum_ties_by_instances);
  status = g_test_run ();
  ws_test_rmtree (graphs_tmp);
  g_free (graphs_tmp);
  ws_test_rmtree (truths_tmp);
  g_free (truths_tmp);
  return status;
}
