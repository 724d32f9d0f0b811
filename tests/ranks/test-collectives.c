/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-test-util.h"

/* Who the others wait for, by NCCL collective (issue 30, item 2), on the
 * real two-GPU NCCL job (tests/data/multirank-nccl).  The truths are SQL
 * written here over the two exports, not our code: the n-th NCCL kernel
 * of a stream is the n-th collective of that stream's communicator on
 * both ranks (in this job both ranks run their communicators on streams
 * 17 and 7); rank 1's clock is aligned on rank 0's by the median offset
 * of the collectives' ends; a rank's arrival is its kernel's start, and
 * its waiting is its kernel's time before the other's arrival. */

/* Per-step waiting agrees with SQL to the nanosecond but for rounding in
 * the median; this bounds it. */

/* Planted in rank 1's `data` range of every step: 30 ms, more than rank 1
 * waits for rank 0 in any steady step of the real job (17.7 ms). */
#define PLANTED_NS 30000000

static char *tmp;
static char *db[2];

/* One rank's NCCL kernels numbered per stream, with the step whose range
 * holds the launch call. */
static char *
calls_sql (const char *table, const char *schema)
{
  return g_strdup_printf (
    "CREATE TABLE %1$s AS SELECT k.streamId AS stream, ROW_NUMBER () OVER (PARTITION BY k.streamId "
    "ORDER BY k.start) AS n, k.start AS s, k.end AS e, (SELECT CAST (substr (v.text, 6) AS "
    "INTEGER) FROM %2$s.CUPTI_ACTIVITY_KIND_RUNTIME a JOIN %2$s.NVTX_EVENTS v ON v.text LIKE 'step "
    "%%' AND v.start <= a.start AND a.start < v.end WHERE a.correlationId = k.correlationId) AS "
    "step FROM %2$s.CUPTI_ACTIVITY_KIND_KERNEL k JOIN %2$s.StringIds i ON i.id = k.demangledName "
    "WHERE i.value LIKE 'nccl%%';",
    table, schema);
}

/* The truth database: the matched collectives (m) and the alignment (off). */
static char *
make_truth (const char *db0, const char *db1, const char *name)
{
  g_autofree char *path = g_build_filename (tmp, name, NULL);
  g_autofree char *c0 = calls_sql ("c0", "r0");
  g_autofree char *c1 = calls_sql ("c1", "r1");
  g_autofree char *sql = g_strdup_printf (
    "ATTACH '%s' AS r0; ATTACH '%s' AS r1; %s %s "
    "CREATE TABLE m AS SELECT c0.stream, c0.n, c0.s AS s0, c0.e AS e0, c0.step AS step0, c1.s AS "
    "s1, c1.e AS e1, c1.step AS step1 FROM c0 JOIN c1 USING (stream, n);"
    "CREATE TABLE off AS SELECT d FROM (SELECT e0 - e1 AS d FROM m ORDER BY d) LIMIT 1 OFFSET "
    "(SELECT (COUNT (*) - 1) / 2 FROM m);"
    "CREATE TABLE w AS SELECT m.*, s1 + d AS a1, MAX (0, MIN (e0, s1 + d) - s0) AS wait0, "
    "MAX (0, MIN (e1 + d, s0) - (s1 + d)) AS wait1 FROM m, off;",
    db0, db1, c0, c1);

  ws_test_sqlite_exec (path, sql);
  return g_steal_pointer (&path);
}

static gint64
sql_int (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

static JsonObject *
ranks_json (const char *db0, const char *db1, JsonParser *parser)
{
  const char *argv[] = { ws_test_cli (), "ranks", "--format", "json", db0, db1, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* The rank that arrives last most often at the matched collectives, by
 * SQL: with @per_step, the rank each steady step (1 on) waits for most
 * (its last arrivals cost the other the most waiting in the step), the
 * rank that is so in most steps; else the rank last at most collectives. */
static guint
sql_last_most (const char *truth, gboolean per_step)
{
  gint64 last0, last1;

  if (per_step)
    {
      const char *steps = "(SELECT s, SUM (c0) AS c0, SUM (c1) AS c1 FROM (SELECT step0 AS s, CASE "
                          "WHEN s0 > a1 THEN wait1 ELSE 0 END AS c0, 0 AS c1 FROM w UNION ALL "
                          "SELECT step1, 0, CASE WHEN a1 > s0 THEN wait0 ELSE 0 END FROM w) WHERE "
                          "s >= 1 GROUP BY s)";
      g_autofree char *sql0 = g_strdup_printf ("SELECT SUM (c0 > c1) FROM %s", steps);
      g_autofree char *sql1 = g_strdup_printf ("SELECT SUM (c1 > c0) FROM %s", steps);

      last0 = sql_int (truth, sql0);
      last1 = sql_int (truth, sql1);
    }
  else
    {
      last1 = sql_int (truth, "SELECT SUM (a1 > s0) FROM w");
      last0 = sql_int (truth, "SELECT SUM (s0 > a1) FROM w");
    }
  g_test_message ("rank 0 last in %" G_GINT64_FORMAT ", rank 1 last in %" G_GINT64_FORMAT " %s",
                  last0, last1, per_step ? "steady steps" : "collectives");
  g_assert_cmpint (last0, !=, last1);
  return last0 > last1 ? 0 : 1;
}

/* Each rank's waiting, per step and in all: one figure (docs/NOTES.md,
 * "What a straggler costs"), its loss, which test-straggler-cost checks
 * against SQL over these exports; here, that the table's total is its
 * steps' losses and the per-step waits are those losses.  The arrival
 * waits of @truth (each rank from its arrival to the last one) were the
 * figure before issue 40: they overlap the rank's compute. */
static void
assert_waits (JsonObject *root, const char *truth)
{
  JsonArray *ranks = json_object_get_array_member (root, "ranks");
  JsonArray *steps = json_object_get_array_member (root, "steps");

  for (guint r = 0; r < 2; r++)
    {
      JsonObject *rank = json_array_get_object_element (ranks, r);
      JsonArray *per_step = json_object_get_array_member (rank, "per_step");
      gint64 sum = 0;

      g_assert_cmpint (json_object_get_int_member (rank, "rank"), ==, r);
      for (guint i = 0; i < json_array_get_length (per_step); i++)
        {
          JsonObject *mine = json_array_get_object_element (per_step, i);
          gint64 wait = json_object_get_int_member (mine, "wait_ns");

          g_assert_cmpint (wait, <=,
                           json_object_get_int_member (mine, "wall_ns") -
                             json_object_get_int_member (mine, "work_ns"));
          sum += wait;
          for (guint k = 0; k < json_array_get_length (steps); k++)
            {
              JsonObject *step = json_array_get_object_element (steps, k);
              JsonObject *waits = json_object_get_object_member (step, "waits_for_last_ns");
              g_autofree char *key = g_strdup_printf ("%u", r);

              if (json_object_get_int_member (step, "step") ==
                  json_object_get_int_member (mine, "step"))
                g_assert_cmpint (json_object_get_int_member (waits, key), ==, wait);
            }
        }
      g_assert_cmpint (json_object_get_int_member (rank, "wait_ns"), ==, sum);
    }
  g_assert_cmpint (
    json_object_get_int_member (json_array_get_object_element (ranks, 1), "collective_offset_ns"),
    ==, sql_int (truth, "SELECT d FROM off"));
}

static void
unpack (void)
{
  for (guint r = 0; r < 2 && db[r] == NULL; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank-nccl/rank%u.sqlite.xz", r);

      db[r] = ws_test_unxz (xz, tmp);
      g_assert_nonnull (db[r]);
    }
}

/* The straggler `ranks` names is the rank SQL finds arriving last most
 * often; each rank's waiting, in all and per step, is SQL's; the method
 * says NCCL, and every matched collective counts. */
static void
test_nccl_against_sql (void)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *truth = NULL;
  JsonObject *root, *straggler;
  guint expected;

  unpack ();
  truth = make_truth (db[0], db[1], "truth.sqlite");
  root = ranks_json (db[0], db[1], parser);
  g_assert_cmpstr (json_object_get_string_member (root, "method"), ==, "nccl");
  g_assert_cmpint (json_object_get_int_member (root, "collectives_matched"), ==,
                   sql_int (truth, "SELECT COUNT (*) FROM m"));
  /* The kernels' ends agree to microseconds once aligned. */
  g_assert_cmpint (sql_int (truth, "SELECT COUNT (*) FROM m, off WHERE ABS (e0 - e1 - d) > 50000"),
                   <=, 2);
  expected = sql_last_most (truth, TRUE);
  g_assert_cmpuint (sql_last_most (truth, FALSE), ==, expected);
  straggler = json_object_get_object_member (root, "straggler");
  g_assert_nonnull (straggler);
  g_assert_cmpint (json_object_get_int_member (straggler, "rank"), ==, expected);
  g_assert_cmpstr (json_object_get_string_member (straggler, "method"), ==, "nccl");
  assert_waits (root, truth);
}

/* A planted straggler, made by SQL on copies: rank 1's `data` stretched by
 * 30 ms in every step (its later events shifted), and rank 0's first
 * collective after its own `data` stretched by as much (it waits there),
 * so that the collectives still end together.  Rank 0 was the straggler;
 * now rank 1 is, in `data`. */
static void
test_planted_straggler_flips (void)
{
  g_autoptr (JsonParser) before_parser = json_parser_new ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *copy0 = g_build_filename (tmp, "planted0.sqlite", NULL);
  g_autofree char *copy1 = g_build_filename (tmp, "planted1.sqlite", NULL);
  g_autofree char *truth = NULL;
  g_autofree char *tables0 = NULL, *tables1 = NULL;
  g_auto (GStrv) names0 = NULL, names1 = NULL;
  const char *tables_sql =
    "SELECT group_concat (name) FROM sqlite_master t WHERE type = 'table' AND EXISTS (SELECT 1 "
    "FROM pragma_table_info (t.name) WHERE name = 'start') AND EXISTS (SELECT 1 FROM "
    "pragma_table_info (t.name) WHERE name = 'end')";
  JsonObject *root, *straggler;
  gint64 before;

  unpack ();
  before = json_object_get_int_member (
    json_object_get_object_member (ranks_json (db[0], db[1], before_parser), "straggler"), "rank");
  {
    g_autoptr (GFile) from0 = g_file_new_for_path (db[0]);
    g_autoptr (GFile) to0 = g_file_new_for_path (copy0);
    g_autoptr (GFile) from1 = g_file_new_for_path (db[1]);
    g_autoptr (GFile) to1 = g_file_new_for_path (copy1);

    g_assert_true (g_file_copy (from0, to0, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, NULL));
    g_assert_true (g_file_copy (from1, to1, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, NULL));
  }
  tables0 = ws_test_sqlite_text (copy0, tables_sql);
  tables1 = ws_test_sqlite_text (copy1, tables_sql);
  names0 = g_strsplit (tables0, ",", -1);
  names1 = g_strsplit (tables1, ",", -1);

  /* Rank 1: every event after a `data` range's end moves 30 ms later per
   * such end; a range that holds one (the step, `data` itself) grows. */
  ws_test_sqlite_exec (copy1,
                       "CREATE TABLE planted_marks AS SELECT end AS t FROM NVTX_EVENTS WHERE "
                       "text = 'data'");
  for (guint i = 0; names1[i] != NULL; i++)
    {
      g_autofree char *sql = g_strdup_printf (
        "UPDATE %1$s SET start = start + %2$d * (SELECT COUNT (*) FROM planted_marks WHERE t <= "
        "%1$s.start), end = end + %2$d * (SELECT COUNT (*) FROM planted_marks WHERE t <= "
        "%1$s.end) WHERE end IS NOT NULL",
        names1[i], PLANTED_NS);

      ws_test_sqlite_exec (copy1, sql);
    }
  /* Rank 0: it now waits 30 ms more in its first collective after each
   * `data`; that kernel keeps its start and ends 30 ms later, and all
   * after it moves. */
  ws_test_sqlite_exec (
    copy0, "CREATE TABLE planted_marks AS SELECT (SELECT MIN (k.start) FROM "
           "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds i ON i.id = k.demangledName WHERE i.value "
           "LIKE 'nccl%' AND k.start > d.end) AS t FROM NVTX_EVENTS d WHERE d.text = 'data'");
  for (guint i = 0; names0[i] != NULL; i++)
    {
      g_autofree char *sql = g_strdup_printf (
        "UPDATE %1$s SET start = start + %2$d * (SELECT COUNT (*) FROM planted_marks WHERE t < "
        "%1$s.start), end = end + %2$d * (SELECT COUNT (*) FROM planted_marks WHERE t < %1$s.end) "
        "WHERE end IS NOT NULL",
        names0[i], PLANTED_NS);

      ws_test_sqlite_exec (copy0, sql);
    }

  truth = make_truth (copy0, copy1, "planted-truth.sqlite");
  root = ranks_json (copy0, copy1, parser);
  g_assert_cmpstr (json_object_get_string_member (root, "method"), ==, "nccl");
  g_assert_cmpuint (sql_last_most (truth, TRUE), ==, 1);
  straggler = json_object_get_object_member (root, "straggler");
  g_assert_nonnull (straggler);
  g_test_message ("straggler before: rank %" G_GINT64_FORMAT "; planted: rank %" G_GINT64_FORMAT
                  " in %s",
                  before, json_object_get_int_member (straggler, "rank"),
                  json_object_get_string_member (straggler, "range"));
  g_assert_cmpint (json_object_get_int_member (straggler, "rank"), ==, 1);
  g_assert_cmpint (before, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (straggler, "range"), ==, "data");
  assert_waits (root, truth);
}

/* A digest of the job keeps the calls: `ranks` on it names the same
 * straggler, by the same method, with the same waiting. */
static void
test_digest_same_answer (void)
{
  g_autoptr (JsonParser) exports_parser = json_parser_new ();
  g_autoptr (JsonParser) digest_parser = json_parser_new ();
  g_autofree char *digest = g_build_filename (tmp, "job.wsdigest", NULL);
  const char *argv[] = { ws_test_cli (), "digest", "-o", digest, NULL, NULL, NULL };
  const char *ranks[] = { ws_test_cli (), "ranks", "--format", "json", digest, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *a, *b;
  JsonArray *ra, *rb;

  unpack ();
  argv[4] = db[0];
  argv[5] = db[1];
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  a = ranks_json (db[0], db[1], exports_parser);
  g_assert_cmpint (ws_test_run (ranks, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (digest_parser, out, -1, &error));
  g_assert_no_error (error);
  b = json_node_get_object (json_parser_get_root (digest_parser));
  g_assert_cmpstr (json_object_get_string_member (b, "method"), ==, "nccl");
  g_assert_cmpint (json_object_get_int_member (b, "collectives_matched"), ==,
                   json_object_get_int_member (a, "collectives_matched"));
  g_assert_cmpint (
    json_object_get_int_member (json_object_get_object_member (b, "straggler"), "rank"), ==,
    json_object_get_int_member (json_object_get_object_member (a, "straggler"), "rank"));
  ra = json_object_get_array_member (a, "ranks");
  rb = json_object_get_array_member (b, "ranks");
  for (guint r = 0; r < 2; r++)
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (rb, r), "wait_ns"),
                     ==,
                     json_object_get_int_member (json_array_get_object_element (ra, r), "wait_ns"));
}

/* The table says the method, in the header and on the straggler line. */
static void
test_table_says_method (void)
{
  const char *argv[] = { ws_test_cli (), "ranks", NULL, NULL, NULL };
  g_autofree char *out = NULL, *err = NULL;

  unpack ();
  argv[2] = db[0];
  argv[3] = db[1];
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "\nMethod: NCCL collectives ("));
  g_assert_nonnull (strstr (out, "steady steps, by NCCL collectives)"));
  g_assert_null (strstr (out, "not measured"));
}

/* Gloo ranks whose exports have no OS runtime trace: nothing measures
 * their waiting, and every output says so instead of "0 ns". */
static void
test_host_waiting_not_measured (void)
{
  g_autofree char *dir = g_build_filename (tmp, "gloo", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  char *files[2];

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

      files[r] = ws_test_unxz (xz, dir);
      g_assert_nonnull (files[r]);
      ws_test_sqlite_exec (files[r], "DROP TABLE OSRT_API");
    }
  {
    const char *argv[] = { ws_test_cli (), "ranks", "--format", "csv", files[0], files[1], NULL };

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
    lines = g_strsplit (out, "\n", -1);
    for (guint r = 0; r < 2; r++)
      {
        g_auto (GStrv) cells = g_strsplit (lines[r + 1], ",", -1);

        g_assert_cmpuint (g_strv_length (cells), ==, 14);
        g_assert_cmpstr (cells[6], ==, ""); /* wait_ns */
        g_assert_cmpstr (cells[10], ==, "host");
      }
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { ws_test_cli (), "ranks", "--format", "json", files[0], files[1], NULL };
    JsonObject *root;

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
    g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
    g_assert_no_error (error);
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpstr (json_object_get_string_member (root, "method"), ==, "host");
    g_assert_true (json_object_get_null_member (
      json_array_get_object_element (json_object_get_array_member (root, "ranks"), 0), "wait_ns"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { ws_test_cli (), "ranks", files[0], files[1], NULL };

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
    g_assert_nonnull (strstr (out, "\nMethod: host waits"));
    g_assert_nonnull (strstr (out, " not measured "));
    g_assert_nonnull (strstr (out, "by host waits"));
  }
  for (guint r = 0; r < 2; r++)
    g_free (files[r]);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();

  g_test_add_func ("/collectives/nccl/straggler-and-waiting-equal-sql", test_nccl_against_sql);
  g_test_add_func ("/collectives/nccl/planted-straggler-flips", test_planted_straggler_flips);
  g_test_add_func ("/collectives/nccl/table-says-method", test_table_says_method);
  g_test_add_func ("/collectives/nccl/digest-same-answer", test_digest_same_answer);
  g_test_add_func ("/collectives/host/waiting-not-measured", test_host_waiting_not_measured);

  status = g_test_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  for (guint r = 0; r < 2; r++)
    g_free (db[r]);
  return status;
}
