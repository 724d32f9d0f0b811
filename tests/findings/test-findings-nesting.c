/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-name-pattern.h"
#include "ws-test-util.h"

/* Where a finding's kernels are (issue 40, item 3): numbered NVTX ranges
 * ("decode 0" … "decode 39", "ProfilerStep#2") are one entry named by
 * their pattern, each range is under the range that holds it, and the
 * counts are the finding's unit, per range instance.  Checked against SQL
 * written here over the eager decode loop of issue 39's H200 capture
 * (tests/data/captures/h200_graphs_capture.tar.xz), and against the JSON
 * of a PyTorch profiler trace. */

/* The short kernels (docs/NOTES.md, "Launch overhead") launched in the
 * finding's time ranges, each with its launch call's thread and start. */
#define SHORT_IN_RANGE                                                                             \
  "WITH short AS (SELECT r.start AS rs, r.globalTid AS tid FROM CUPTI_ACTIVITY_KIND_KERNEL k "     \
  "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "                       \
  "AND r.globalTid >> 24 = k.globalPid >> 24 "                                                     \
  "WHERE (k.end - k.start < 5000 OR k.end - k.start < r.end - r.start) "                           \
  "AND r.start BETWEEN %" G_GINT64_FORMAT " AND %" G_GINT64_FORMAT "), "                           \
  "nv AS (SELECT n.rowid AS id, n.start, n.end, n.globalTid AS tid, "                              \
  "coalesce(n.text, s.value) AS name FROM NVTX_EVENTS n LEFT JOIN StringIds s "                    \
  "ON s.id = n.textId WHERE n.end IS NOT NULL) "

static JsonObject *
finding_of (JsonNode *root, const char *id)
{
  JsonArray *findings = json_object_get_array_member (json_node_get_object (root), "findings");

  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);

      if (g_str_equal (json_object_get_string_member (f, "id"), id))
        return f;
    }
  g_error ("no finding %s", id);
  return NULL;
}

static JsonNode *
diagnose_json (const char *path)
{
  const char *args[] = { "diagnose", "--format", "json", path, NULL };
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);

  return json_from_string (out, NULL);
}

/* The entry of @name in @nvtx, and its index. */
static JsonObject *
entry_of (JsonArray *nvtx, const char *name, guint *index)
{
  for (guint i = 0; i < json_array_get_length (nvtx); i++)
    {
      JsonObject *e = json_array_get_object_element (nvtx, i);

      if (g_str_equal (json_object_get_string_member (e, "name"), name))
        {
          *index = i;
          return e;
        }
    }
  g_error ("no NVTX entry %s", name);
  return NULL;
}

static gint64
sql_count (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  return g_ascii_strtoll (text, NULL, 10);
}

static void
test_sql (void)
{
  g_autofree char *dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_autofree char *path =
    g_build_filename (dir, "node", "decode_eager", "nsys", "decode_eager.sqlite", NULL);
  g_autoptr (JsonNode) root = diagnose_json (path);
  JsonObject *finding = finding_of (root, "launch-overhead");
  JsonArray *ranges = json_object_get_array_member (finding, "ranges");
  JsonArray *nvtx = json_object_get_array_member (finding, "nvtx");
  JsonArray *range = json_array_get_array_element (ranges, 0);
  gint64 from = json_array_get_int_element (range, 0), to = json_array_get_int_element (range, 1);
  const char *names[] = { "decode N", "forward", "sample" };
  const char *likes[] = { "decode %", "forward", "sample" };
  const guint depths[] = { 0, 1, 1 };
  guint index[3];
  gint64 total;

  /* One loop: every short kernel of the finding is in that range. */
  g_assert_cmpuint (json_array_get_length (ranges), ==, 1);
  {
    g_autofree char *sql = g_strdup_printf (SHORT_IN_RANGE "SELECT count(*) FROM short", from, to);

    total = sql_count (path, sql);
  }
  g_assert_cmpint (total, >, 1000);
  /* Three entries: the loop's ranges by their pattern, the two phases
   * under it; never "decode 1" with "forward" hung below it. */
  g_assert_cmpuint (json_array_get_length (nvtx), ==, 3);
  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      JsonObject *e = entry_of (nvtx, names[n], &index[n]);
      g_autofree char *events_sql = g_strdup_printf (
        SHORT_IN_RANGE "SELECT count(*) FROM short x WHERE EXISTS (SELECT 1 FROM nv WHERE "
                       "nv.tid = x.tid AND nv.name LIKE '%s' AND x.rs BETWEEN nv.start AND nv.end)",
        from, to, likes[n]);
      g_autofree char *instances_sql = g_strdup_printf (
        SHORT_IN_RANGE "SELECT count(DISTINCT nv.id) FROM short x JOIN nv ON nv.tid = x.tid AND "
                       "nv.name LIKE '%s' AND x.rs BETWEEN nv.start AND nv.end",
        from, to, likes[n]);

      g_assert_cmpint (json_object_get_int_member (e, "depth"), ==, depths[n]);
      g_assert_cmpint (json_object_get_int_member (e, "events"), ==, sql_count (path, events_sql));
      g_assert_cmpint (json_object_get_int_member (e, "instances"), ==,
                       sql_count (path, instances_sql));
    }
  /* Every short kernel is inside a decode range; the phases come after
   * the range that holds them. */
  g_assert_cmpint (json_object_get_int_member (entry_of (nvtx, "decode N", &index[0]), "events"),
                   ==, total);
  g_assert_cmpuint (index[0], <, index[1]);
  g_assert_cmpuint (index[0], <, index[2]);

  /* The summary names the innermost range holding the most of them, by
   * SQL "forward" (more than "sample", and "decode N" holds none of its
   * own); the text names the unit and the count per decode range. */
  {
    g_autofree char *forward = g_strdup_printf (
      SHORT_IN_RANGE "SELECT count(*) FROM short x WHERE EXISTS (SELECT 1 FROM nv WHERE "
                     "nv.tid = x.tid AND nv.name = 'forward' AND x.rs BETWEEN nv.start AND nv.end)",
      from, to);
    g_autofree char *sample = g_strdup_printf (
      SHORT_IN_RANGE "SELECT count(*) FROM short x WHERE EXISTS (SELECT 1 FROM nv WHERE "
                     "nv.tid = x.tid AND nv.name = 'sample' AND x.rs BETWEEN nv.start AND nv.end)",
      from, to);
    gint64 in_forward = sql_count (path, forward), in_sample = sql_count (path, sample);
    const char *summary = json_object_get_string_member (finding, "summary");
    const char *args[] = { "diagnose", path, NULL };
    g_autofree char *text = ws_test_cli_expect (args, 0, NULL);
    g_autofree char *line = NULL;
    GString *count = g_string_new (NULL);

    g_assert_cmpint (in_forward + in_sample, ==, total);
    g_assert_cmpint (in_forward, >, in_sample);
    g_assert_nonnull (strstr (summary, "most of them inside “decode N” › “forward”"));
    g_string_printf (count, "%" G_GINT64_FORMAT, in_forward);
    /* 3,248: thousands grouped. */
    g_string_insert_c (count, (gssize) count->len - 3, ',');
    line = g_strdup_printf (
      "“forward”: %s kernels in %" G_GINT64_FORMAT " ranges", count->str,
      (gint64) json_object_get_int_member (entry_of (nvtx, "forward", &index[1]), "instances"));
    g_string_free (count, TRUE);
    g_test_message ("%s", line);
    g_assert_nonnull (strstr (text, line));
    g_assert_nonnull (strstr (text, " per “decode N”"));
  }
  ws_test_rmtree (dir);
}

/* A PyTorch profiler trace: "forward" under "ProfilerStep#N", counted in
 * the ProfilerStep ranges of the trace's JSON that hold it. */
static void
test_kineto (void)
{
  g_autofree char *path = ws_test_data ("kineto", "captures", "lm_train_rank0.json.gz", NULL);
  g_autoptr (JsonNode) root = diagnose_json (path);
  JsonArray *nvtx = json_object_get_array_member (finding_of (root, "launch-overhead"), "nvtx");
  guint step_at = 0, forward_at = 0;
  JsonObject *step = entry_of (nvtx, "ProfilerStep#N", &step_at);
  JsonObject *forward = entry_of (nvtx, "forward", &forward_at);
  g_autofree char *python = g_find_program_in_path ("python3");
  const char *cmd[] = { python, "-c",
                        "import gzip, json, sys\n"
                        "t = json.load(gzip.open(sys.argv[1]))\n"
                        "print(sum(1 for e in t['traceEvents'] if e.get('ph') == 'X' and "
                        "str(e.get('name', '')).startswith('ProfilerStep#')))\n",
                        path, NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_nonnull (python);
  g_assert_cmpint (ws_test_run (cmd, &out, &err), ==, 0);
  g_assert_cmpint (json_object_get_int_member (step, "depth"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (forward, "depth"), ==, 1);
  g_assert_cmpuint (step_at, <, forward_at);
  /* Each "forward" range is in its own step: never more forward ranges
   * than the trace has steps, nor more kernels than the steps hold. */
  g_assert_cmpint (json_object_get_int_member (forward, "instances"), <=,
                   g_ascii_strtoll (out, NULL, 10));
  g_assert_cmpint (json_object_get_int_member (forward, "events"), <=,
                   json_object_get_int_member (step, "events"));
  for (guint i = 0; i < json_array_get_length (nvtx); i++)
    g_assert_false (ws_name_is_numbered (
      json_object_get_string_member (json_array_get_object_element (nvtx, i), "name")));
}

static void
test_pattern (void)
{
  const char *cases[][2] = {
    { "iter 24999", "iter N" },
    { "ProfilerStep#2", "ProfilerStep#N" },
    { "layer.mlp", "layer.mlp" },
    { "a1b22c333", "aNbNcN" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *pattern = ws_name_pattern (cases[i][0]);

      g_assert_cmpstr (pattern, ==, cases[i][1]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/findings-nesting/pattern", test_pattern);
  g_test_add_func ("/findings-nesting/decode-loop-against-sql", test_sql);
  g_test_add_func ("/findings-nesting/pytorch-trace", test_kineto);
  return g_test_run ();
}
