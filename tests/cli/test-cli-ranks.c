/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-test-util.h"

/* `warpscope-cli ranks` and the job promises of the README's "A job's
 * ranks", over the four ranks of the DDP fixture (tests/data/multirank:
 * gloo, rank 3 the straggler with an "extra work" range in each step) and
 * copies of them changed with SQL. */

static char *tmp;
static char *base_dir;

static const char *
base (void)
{
  if (base_dir != NULL)
    return base_dir;
  base_dir = g_build_filename (tmp, "job", NULL);
  g_assert_cmpint (g_mkdir (base_dir, 0700), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

      g_free (ws_test_unxz (xz, base_dir));
    }
  return base_dir;
}

static void
copy_file (const char *from, const char *to)
{
  g_autoptr (GFile) src = g_file_new_for_path (from);
  g_autoptr (GFile) dest = g_file_new_for_path (to);
  g_autoptr (GError) error = NULL;

  g_file_copy (src, dest, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
}

/* A new folder @name holding a copy of the four ranks. */
static char *
job_copy (const char *name)
{
  char *dir = g_build_filename (tmp, name, NULL);

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *file = g_strdup_printf ("rank%u.sqlite", r);
      g_autofree char *from = g_build_filename (base (), file, NULL);
      g_autofree char *to = g_build_filename (dir, file, NULL);

      copy_file (from, to);
    }
  return dir;
}

static char *
rank_file (const char *dir, guint r)
{
  g_autofree char *file = g_strdup_printf ("rank%u.sqlite", r);

  return g_build_filename (dir, file, NULL);
}

static JsonObject *
parse_object (JsonParser *parser, const char *text)
{
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* ranks --format json holds, for every rank, the figures of the CSV's row,
 * and the straggler of its last line. */
static void
test_json_equals_csv (void)
{
  const char *csv_args[] = { "ranks", "--format", "csv", base (), NULL };
  const char *json_args[] = { "ranks", "--format", "json", base (), NULL };
  const char *const columns[] = { "rank",           "file",           "process", "gpu_time_ns",
                                  "kernel_ns",      "comm_ns",        "wait_ns", "idle_ns",
                                  "steps",          "step_median_ns", "method",  "comm_hidden_ns",
                                  "steady_idle_ns", "steady_span_ns" };
  g_autofree char *csv = ws_test_cli_expect (csv_args, 0, NULL);
  g_autofree char *json = ws_test_cli_expect (json_args, 0, NULL);
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root = parse_object (parser, json);
  JsonArray *ranks = json_object_get_array_member (root, "ranks");
  JsonObject *straggler;
  g_autofree char *line = NULL;

  g_assert_cmpuint (g_strv_length (lines), ==, 7);
  g_assert_cmpuint (json_array_get_length (ranks), ==, 4);
  for (guint r = 0; r < 4; r++)
    {
      JsonObject *rank = json_array_get_object_element (ranks, r);
      g_auto (GStrv) cells = g_strsplit (lines[r + 1], ",", -1);

      g_assert_cmpuint (g_strv_length (cells), ==, G_N_ELEMENTS (columns));
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        if (c == 10) /* the method is the job's, one member at the top */
          g_assert_cmpstr (json_object_get_string_member (root, columns[c]), ==, cells[c]);
        else if (c == 1 || c == 2)
          g_assert_cmpstr (json_object_get_string_member (rank, columns[c]), ==, cells[c]);
        else
          g_assert_cmpint (json_object_get_int_member (rank, columns[c]), ==,
                           g_ascii_strtoll (cells[c], NULL, 10));
    }
  straggler = json_object_get_object_member (root, "straggler");
  g_assert_nonnull (straggler);
  line = g_strdup_printf ("straggler: rank %" G_GINT64_FORMAT ", +%" G_GINT64_FORMAT
                          " ns per step, in %s",
                          json_object_get_int_member (straggler, "rank"),
                          json_object_get_int_member (straggler, "late_ns"),
                          json_object_get_string_member (straggler, "range"));
  g_assert_cmpstr (lines[5], ==, line);
  g_assert_cmpint (json_object_get_int_member (straggler, "rank"), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (straggler, "range"), ==, "extra work");
  g_assert_true (json_object_get_boolean_member (root, "clocks_aligned"));
}

/* A glob, given to the command unexpanded, opens the files it matches:
 * the same output as the four files named, or their folder. */
static void
test_glob (void)
{
  g_autofree char *glob = g_build_filename (base (), "rank*.sqlite", NULL);
  g_autofree char *r0 = rank_file (base (), 0);
  g_autofree char *r1 = rank_file (base (), 1);
  g_autofree char *r2 = rank_file (base (), 2);
  g_autofree char *r3 = rank_file (base (), 3);
  const char *glob_args[] = { "ranks", "--format", "csv", glob, NULL };
  const char *file_args[] = { "ranks", "--format", "csv", r0, r1, r2, r3, NULL };
  const char *dir_args[] = { "ranks", "--format", "csv", base (), NULL };
  g_autofree char *by_glob = ws_test_cli_expect (glob_args, 0, NULL);
  g_autofree char *by_files = ws_test_cli_expect (file_args, 0, NULL);
  g_autofree char *by_dir = ws_test_cli_expect (dir_args, 0, NULL);

  g_assert_cmpuint (ws_test_count_lines (by_glob), ==, 6);
  g_assert_cmpstr (by_glob, ==, by_files);
  g_assert_cmpstr (by_glob, ==, by_dir);
}

/* The CSV row of rank @r in @csv, or NULL. */
static char *
row_of (const char *csv, guint r)
{
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
  g_autofree char *prefix = g_strdup_printf ("%u,", r);

  for (guint i = 1; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strdup (lines[i]);
  return NULL;
}

/* --rank 0,2 keeps ranks 0 and 2, each with the figures it has in the
 * whole job (a rank's figures come from its export alone); --rank 0-3 is
 * the whole job; --rank 1-2 ranks 1 and 2. */
static void
test_rank_filter (void)
{
  const char *all_args[] = { "ranks", "--format", "csv", base (), NULL };
  const char *list_args[] = { "ranks", "--rank", "0,2", "--format", "csv", base (), NULL };
  const char *range_args[] = { "ranks", "--rank", "0-3", "--format", "csv", base (), NULL };
  const char *inner_args[] = { "ranks", "--rank", "1-2", "--format", "csv", base (), NULL };
  g_autofree char *all = ws_test_cli_expect (all_args, 0, NULL);
  g_autofree char *list = ws_test_cli_expect (list_args, 0, NULL);
  g_autofree char *range = ws_test_cli_expect (range_args, 0, NULL);
  g_autofree char *inner = ws_test_cli_expect (inner_args, 0, NULL);
  g_auto (GStrv) list_lines = g_strsplit (list, "\n", -1);
  g_auto (GStrv) inner_lines = g_strsplit (inner, "\n", -1);

  g_assert_cmpstr (range, ==, all);
  /* Header, two rows, the straggler line. */
  g_assert_cmpuint (ws_test_count_lines (list), ==, 4);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *in_all = row_of (all, r);
      g_autofree char *in_list = row_of (list, r);
      g_autofree char *in_inner = row_of (inner, r);

      g_assert_nonnull (in_all);
      if (r == 0 || r == 2)
        {
          g_assert_nonnull (in_list);
          g_assert_cmpstr (strchr (strchr (in_list, ',') + 1, ','), ==,
                           strchr (strchr (in_all, ',') + 1, ','));
        }
      else
        g_assert_null (in_list);
      if (r == 1 || r == 2)
        g_assert_nonnull (in_inner);
      else
        g_assert_null (in_inner);
    }
  g_assert_true (g_str_has_prefix (list_lines[1], "0,"));
  g_assert_true (g_str_has_prefix (list_lines[2], "2,"));
  g_assert_true (g_str_has_prefix (inner_lines[1], "1,"));
  g_assert_true (g_str_has_prefix (inner_lines[2], "2,"));
  /* Without rank 3 there is no straggler. */
  g_assert_cmpstr (list_lines[3], ==, "straggler: none");
}

/* An export without a session start (its TARGET_INFO_SESSION_START_TIME
 * emptied): the clocks are not aligned, every rank keeps its own clock
 * (offset 0), and info and ranks say so. */
static void
test_no_session_start (void)
{
  g_autofree char *dir = job_copy ("no-session-start");
  g_autofree char *r2 = rank_file (dir, 2);
  const char *info_args[] = { "info", dir, NULL };
  const char *json_args[] = { "ranks", "--format", "json", dir, NULL };
  const char *table_args[] = { "ranks", dir, NULL };
  g_autofree char *info = NULL;
  g_autofree char *json = NULL;
  g_autofree char *table = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *ranks, *notes;
  gboolean noted = FALSE;

  g_assert_cmpint (ws_test_sqlite_count (r2, "TARGET_INFO_SESSION_START_TIME"), >, 0);
  ws_test_sqlite_exec (r2, "DELETE FROM TARGET_INFO_SESSION_START_TIME");
  info = ws_test_cli_expect (info_args, 0, NULL);
  g_assert_nonnull (strstr (info, "clocks not aligned"));
  g_assert_nonnull (
    strstr (info, "records no session start: the clocks of the exports are not aligned"));
  g_assert_nonnull (strstr (info, "rank2.sqlite"));
  table = ws_test_cli_expect (table_args, 0, NULL);
  g_assert_nonnull (strstr (
    table, "rank2.sqlite records no session start: the clocks of the exports are not aligned"));

  json = ws_test_cli_expect (json_args, 0, NULL);
  root = parse_object (parser, json);
  g_assert_false (json_object_get_boolean_member (root, "clocks_aligned"));
  ranks = json_object_get_array_member (root, "ranks");
  g_assert_cmpuint (json_array_get_length (ranks), ==, 4);
  for (guint r = 0; r < 4; r++)
    g_assert_cmpint (
      json_object_get_int_member (json_array_get_object_element (ranks, r), "clock_offset_ns"), ==,
      0);
  notes = json_object_get_array_member (root, "notes");
  for (guint i = 0; i < json_array_get_length (notes); i++)
    noted |= strstr (json_array_get_string_element (notes, i), "not aligned") != NULL;
  g_assert_true (noted);
}

/* Five exports of a job whose environment says WORLD_SIZE=4 (rank 0
 * copied as rank4.sqlite) still open together, with a note saying so. */
static void
test_more_ranks_than_world_size (void)
{
  g_autofree char *dir = job_copy ("five-of-four");
  g_autofree char *r0 = rank_file (dir, 0);
  g_autofree char *r4 = rank_file (dir, 4);
  const char *args[] = { "ranks", "--format", "json", dir, NULL };
  const char *info_args[] = { "info", dir, NULL };
  g_autofree char *json = NULL;
  g_autofree char *info = NULL;
  g_autofree char *world = ws_test_sqlite_text (
    r0, "SELECT value FROM META_DATA_CAPTURE WHERE name LIKE 'PROCESS_%:ENVIRONMENT_VARIABLE'"
        " AND value LIKE 'WORLD_SIZE=%' LIMIT 1");
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *notes;
  gboolean noted = FALSE;

  /* The fixture records the size of its job. */
  g_assert_cmpstr (world, ==, "WORLD_SIZE=\"4\"");
  copy_file (r0, r4);
  json = ws_test_cli_expect (args, 0, NULL);
  root = parse_object (parser, json);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "ranks")), ==, 5);
  notes = json_object_get_array_member (root, "notes");
  for (guint i = 0; i < json_array_get_length (notes); i++)
    noted |= strstr (json_array_get_string_element (notes, i),
                     "The job had 4 ranks by its environment, yet 5 are open") != NULL;
  g_assert_true (noted);
  info = ws_test_cli_expect (info_args, 0, NULL);
  g_assert_nonnull (strstr (info, "Note: The job had 4 ranks by its environment, yet 5 are open: "
                                  "they do not all come from that job"));
}

/* Stretches rank 3's "extra work" by @extra ns in every step: each
 * timestamp of the export at or after the end of an "extra work" range
 * moves by @extra for each such end before it, so that the ranges (and the
 * steps holding them) grow by @extra and nothing else changes length. Its
 * waits and synchronisations stay as long as they were, so its own work
 * grows by @extra per step, and each of the three others waits @extra more
 * for it: the others lose 3 × @extra more per step. */
static void
stretch_extra_work (const char *db, gint64 extra)
{
  g_autofree char *tables = ws_test_sqlite_text (
    db, "SELECT group_concat(m.name, ' ') FROM sqlite_master m WHERE m.type = 'table'"
        " AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'start')"
        " AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'end')");
  g_auto (GStrv) names = g_strsplit (tables, " ", -1);
  g_autoptr (GString) sql =
    g_string_new ("CREATE TABLE ws_stretch AS SELECT n.end AS at FROM NVTX_EVENTS n"
                  " LEFT JOIN StringIds t ON t.id = n.textId"
                  " WHERE n.eventType = 59 AND coalesce(n.text, t.value) = 'extra work';");

  for (guint i = 0; names[i] != NULL; i++)
    g_string_append_printf (
      sql,
      "UPDATE \"%s\" SET"
      " start = start + %" G_GINT64_FORMAT " * (SELECT count(*) FROM ws_stretch WHERE at <= start),"
      " end = end + %" G_GINT64_FORMAT " * (SELECT count(*) FROM ws_stretch WHERE at <= end)"
      " WHERE start IS NOT NULL AND end IS NOT NULL;",
      names[i], extra, extra);
  g_string_append (sql, "DROP TABLE ws_stretch;");
  g_assert_nonnull (strstr (tables, "NVTX_EVENTS"));
  ws_test_sqlite_exec (db, sql->str);
}

/* The rank-imbalance finding of `diagnose --format json`. */
static JsonObject *
imbalance_finding (JsonParser *parser, const char *json)
{
  JsonObject *root = parse_object (parser, json);
  JsonArray *findings = json_object_get_array_member (root, "findings");

  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);

      if (g_strcmp0 (json_object_get_string_member (f, "id"), "rank-imbalance") == 0)
        return f;
    }
  g_assert_not_reached ();
}

typedef struct
{
  const char *name;
  gint64 extra;         /* ns added to rank 3's "extra work" per step */
  const char *severity; /* the README's band for what the others then lose */
} Band;

/* The README: the others' waiting for the straggler is severe from 20% of
 * their time, medium from 5%, minor below. The fixture's steps take about
 * 92 ms and rank 3 is about 0.6 ms late (the others lose about 1.8 ms, some
 * 0.7% of their 3 × 92 ms: minor). Stretching its extra work by E adds
 * 3E to what the others lose per step, E / 92 ms to the share: 10 ms makes
 * it about 11% (medium), 40 ms about 44% (severe). */
static void
test_imbalance_severity (gconstpointer data)
{
  const Band *band = data;
  g_autofree char *dir = job_copy (band->name);
  g_autofree char *r3 = rank_file (dir, 3);
  const char *args[] = { "diagnose", "--whole-run", "--format", "json", dir, NULL };
  const char *ranks_args[] = { "ranks", "--format", "json", dir, NULL };
  const char *base_args[] = { "ranks", "--format", "json", base (), NULL };
  g_autofree char *json = NULL;
  g_autofree char *ranks = NULL;
  g_autofree char *base_ranks = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonParser) ranks_parser = json_parser_new ();
  g_autoptr (JsonParser) base_parser = json_parser_new ();
  JsonObject *finding, *straggler, *base_straggler;
  double share;

  if (band->extra > 0)
    stretch_extra_work (r3, band->extra);
  json = ws_test_cli_expect (args, 0, NULL);
  finding = imbalance_finding (parser, json);
  g_assert_cmpstr (json_object_get_string_member (finding, "severity"), ==, band->severity);

  ranks = ws_test_cli_expect (ranks_args, 0, NULL);
  base_ranks = ws_test_cli_expect (base_args, 0, NULL);
  straggler = json_object_get_object_member (parse_object (ranks_parser, ranks), "straggler");
  base_straggler =
    json_object_get_object_member (parse_object (base_parser, base_ranks), "straggler");
  g_assert_cmpint (json_object_get_int_member (straggler, "rank"), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (straggler, "range"), ==, "extra work");
  /* Rank 3 is late by E more per step, and the others lose 3E more, each
   * to within 1 ms of noise. */
  g_assert_cmpint (llabs (json_object_get_int_member (straggler, "late_ns") -
                          json_object_get_int_member (base_straggler, "late_ns") - band->extra),
                   <, 1000000);
  g_assert_cmpint (llabs (json_object_get_int_member (straggler, "others_wait_ns") -
                          json_object_get_int_member (base_straggler, "others_wait_ns") -
                          3 * band->extra),
                   <, 3000000);
  share = json_object_get_double_member (straggler, "others_wait_share") * 100;
  if (g_str_equal (band->severity, "severe"))
    g_assert_cmpfloat (share, >=, 20);
  else if (g_str_equal (band->severity, "medium"))
    {
      g_assert_cmpfloat (share, >=, 5);
      g_assert_cmpfloat (share, <, 20);
    }
  else
    g_assert_cmpfloat (share, <, 5);
}

int
main (int argc, char **argv)
{
  static const Band minor = { "minor", 0, "minor" };
  static const Band medium = { "medium", 10000000, "medium" };
  static const Band severe = { "severe", 40000000, "severe" };
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();

  g_test_add_func ("/cli-ranks/json-equals-csv", test_json_equals_csv);
  g_test_add_func ("/cli-ranks/glob-equals-files", test_glob);
  g_test_add_func ("/cli-ranks/rank-list-and-range", test_rank_filter);
  g_test_add_func ("/cli-ranks/no-session-start-not-aligned-and-said", test_no_session_start);
  g_test_add_func ("/cli-ranks/more-ranks-than-world-size-noted", test_more_ranks_than_world_size);
  g_test_add_data_func ("/cli-ranks/imbalance-severity/minor", &minor, test_imbalance_severity);
  g_test_add_data_func ("/cli-ranks/imbalance-severity/medium", &medium, test_imbalance_severity);
  g_test_add_data_func ("/cli-ranks/imbalance-severity/severe", &severe, test_imbalance_severity);

  status = g_test_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  g_free (base_dir);
  return status;
}
