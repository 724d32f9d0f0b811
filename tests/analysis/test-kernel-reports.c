/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <sqlite3.h>

#include "ws-format.h"
#include "ws-kern-exec-sum.h"
#include "ws-test-util.h"

/* The kernel reports of `stats` (cuda_kern_exec_sum, cuda_gpu_kern_gb_sum
 * and the :base and :mangled arguments of every kernel report) against
 * what nsys stats 2025.3.2 printed for the H200 CUDA-graph captures of
 * issue 39 (tests/data/captures/h200_graphs_capture.tar.xz, the truth/
 * folder of each target), and against SQL written here over the exports. */

static char *graphs_tmp;

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

/* cuda_gpu_kern_sum (@shape FALSE) or cuda_gpu_kern_gb_sum as SQL over
 * the kernel table: GROUP BY the name in @column (and the grid and the
 * block), rows by total, largest first, then instances, then name. */
static char *
kernel_sum_expected (const char *db, const char *column, gboolean shape)
{
  const char *keys = shape ? "g1, g2, g3, g4, g5, g6, g7" : "g1";
  g_autoptr (GString) sql = g_string_new (NULL);
  g_autofree char *body = NULL;

  g_string_append_printf (sql,
                          "WITH base AS (SELECT s.value AS g1, k.gridX AS g2, k.gridY AS g3,"
                          " k.gridZ AS g4, k.blockX AS g5, k.blockY AS g6, k.blockZ AS g7,"
                          " k.end - k.start AS d FROM CUPTI_ACTIVITY_KIND_KERNEL k"
                          " JOIN StringIds s ON s.id = %s)",
                          column);
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
 * name in @column, by mean total time, largest first. */
static char *
exec_sum_expected (const char *db, const char *column)
{
  static const char *const values[] = { "tt", "aa", "qq", "kk" };
  const char *keys = "g1, g2, g3, g4, g5";
  g_autoptr (GString) sql = g_string_new (NULL);
  g_autofree char *body = NULL;

  g_string_append_printf (
    sql,
    "WITH base AS (SELECT (r.globalTid >> 24) & 16777215 AS g1, r.globalTid & 16777215 AS g2,"
    " k.deviceId AS g3, CASE WHEN substr(a.value, -6, 2) = '_v' THEN substr(a.value, 1,"
    " length(a.value) - 6) ELSE a.value END AS g4, s.value AS g5,"
    " max(r.end, k.end) - r.start AS tt, r.end - r.start AS aa,"
    " CASE WHEN k.start >= r.end THEN k.start - r.end END AS qq, k.end - k.start AS kk"
    " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
    " ON r.correlationId = k.correlationId AND k.globalPid = (r.globalTid & 0xFFFFFFFFFF000000)"
    " JOIN StringIds a ON a.id = r.nameId JOIN StringIds s ON s.id = %s)",
    column);
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

/* The byte-for-byte check of cuda_gpu_kern_gb_sum against nsys stats's own
 * CSV: the capture has none yet.  Once truth/<target>_cuda_gpu_kern_gb_sum.csv
 * is added (nsys stats --report cuda_gpu_kern_gb_sum --format csv over the
 * same export), this compares without a change. */
static void
test_gb_sum_equals_nsys (gconstpointer data)
{
  const Capture *c = data;
  g_autofree char *db = capture_db (c);
  g_autofree char *truth_path = capture_truth (c, "cuda_gpu_kern_gb_sum");
  g_autofree char *truth = NULL;
  g_autofree char *ours = NULL;

  if (!g_file_test (truth_path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no nsys stats CSV of cuda_gpu_kern_gb_sum in the capture yet "
                   "(truth/<target>_cuda_gpu_kern_gb_sum.csv); the SQL check stands in");
      return;
    }
  truth = ws_test_read (truth_path);
  ours = stats_csv (db, "cuda_gpu_kern_gb_sum", NULL);
  assert_same_text (ours, truth);
}

/* cuda_gpu_kern_gb_sum, cuda_kern_exec_sum and cuda_gpu_kern_sum with
 * each name argument equal the SQL above over @db. */
static void
check_equal_sql (const char *db)
{
  for (gsize f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      g_autofree char *gb = g_strconcat ("cuda_gpu_kern_gb_sum", forms[f].argument, NULL);
      g_autofree char *exec = g_strconcat ("cuda_kern_exec_sum", forms[f].argument, NULL);
      g_autofree char *kern = g_strconcat ("cuda_gpu_kern_sum", forms[f].argument, NULL);
      g_autofree char *gb_ours = stats_csv (db, gb, NULL);
      g_autofree char *gb_sql = kernel_sum_expected (db, forms[f].column, TRUE);
      g_autofree char *exec_ours = stats_csv (db, exec, NULL);
      g_autofree char *exec_sql = exec_sum_expected (db, forms[f].column);
      g_autofree char *kern_ours = stats_csv (db, kern, NULL);
      g_autofree char *kern_sql = kernel_sum_expected (db, forms[f].column, FALSE);

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
      g_autofree char *sql = exec_sum_expected (db, forms[0].column);

      assert_same_text (sql, truth);
    }
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

/* What the reports' arguments refuse, each in one line with status 2;
 * :nvtx-name says why it is not there yet. */
static void
test_arguments_refused (void)
{
  static const struct
  {
    const char *report;
    const char *says;
  } cases[] = {
    { "cuda_gpu_kern_sum:nvtx-name", "not implemented yet" },
    { "cuda_kern_exec_sum:nvtx-name:base", "not implemented yet" },
    { "cuda_gpu_kern_gb_sum:nvtx-name", "not implemented yet" },
    { "nvtx_kern_sum:nvtx-name", "it takes base or mangled" },
    { "cuda_gpu_kern_sum:base:mangled", "exclude each other" },
    { "cuda_gpu_kern_sum:short", "it takes base or mangled" },
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

/* The console form: nsys's title line with the report as asked for, and
 * the same rows as the CSV. */
static void
test_table_form (void)
{
  g_autofree char *db = capture_db (&captures[1]);
  const char *args[] = { "stats", "--report", "cuda_kern_exec_sum,cuda_gpu_kern_gb_sum:base", db,
                         NULL };
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
  g_autofree char *exec = stats_csv (db, "cuda_kern_exec_sum", NULL);
  g_autofree char *gb = stats_csv (db, "cuda_gpu_kern_gb_sum:base", NULL);

  g_assert_true (
    g_str_has_prefix (out, " ** CUDA Kernel Launch & Exec Time Summary (cuda_kern_exec_sum):\n\n"));
  g_assert_nonnull (
    strstr (out, "\n ** CUDA GPU Kernel/Grid/Block Summary (cuda_gpu_kern_gb_sum:base):\n\n"));
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
#define ADD_GB(path, i) g_test_add_data_func (path, &captures[i], test_gb_sum_equals_nsys)
#define ADD_SQL(path, i) g_test_add_data_func (path, &captures[i], test_capture_equals_sql)
#define ADD_FIXTURE(path, name) g_test_add_data_func (path, name, test_fixture_equals_sql)

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  graphs_tmp = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/node/decode_eager", 0);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/node/decode_graph", 1);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/node/decode_compile", 2);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/node/decode_recapture", 3);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/graph/decode_graph", 4);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/graph/decode_compile", 5);
  ADD_EXEC ("/kernel-reports/exec-sum/equals-nsys/graph/decode_recapture", 6);
  /* Skipped until the capture holds nsys's CSVs of cuda_gpu_kern_gb_sum. */
  ADD_GB ("/kernel-reports/gb-sum/equals-nsys/node/decode_eager", 0);
  ADD_GB ("/kernel-reports/gb-sum/equals-nsys/node/decode_graph", 1);
  ADD_GB ("/kernel-reports/gb-sum/equals-nsys/node/decode_compile", 2);
  ADD_GB ("/kernel-reports/gb-sum/equals-nsys/node/decode_recapture", 3);
  ADD_GB ("/kernel-reports/gb-sum/equals-nsys/graph/decode_graph", 4);
  ADD_GB ("/kernel-reports/gb-sum/equals-nsys/graph/decode_compile", 5);
  ADD_GB ("/kernel-reports/gb-sum/equals-nsys/graph/decode_recapture", 6);
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
  status = g_test_run ();
  ws_test_rmtree (graphs_tmp);
  g_free (graphs_tmp);
  return status;
}
