/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-test-util.h"

#define PROBE "v2025.3_h100_probe.sqlite"

static JsonObject *
finding_of (JsonArray *findings, const char *id)
{
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *finding = json_array_get_object_element (findings, i);

      if (g_strcmp0 (json_object_get_string_member (finding, "id"), id) == 0)
        return finding;
    }
  g_error ("no finding “%s”", id);
  return NULL;
}

/* `diagnose --format json`: {"findings":[{"id", "severity", "title",
 * "summary", "evidence", "ranges"}, …]} with the probe's seven findings. */
static void
test_diagnose_json (void)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  const char *argv[] = { ws_test_cli (), "diagnose", "--format", "json", path, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *findings;
  JsonObject *alloc, *imbalance;
  static const char *const severities[] = { "severe", "medium", "minor" };
  guint last = 0;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  findings =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings");
  g_assert_cmpuint (json_array_get_length (findings), ==, 7);

  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *finding = json_array_get_object_element (findings, i);
      JsonArray *ranges = json_object_get_array_member (finding, "ranges");
      const char *severity = json_object_get_string_member (finding, "severity");
      guint rank = G_N_ELEMENTS (severities);

      for (guint r = 0; r < G_N_ELEMENTS (severities); r++)
        if (g_strcmp0 (severity, severities[r]) == 0)
          rank = r;
      /* A known severity, most severe first. */
      g_assert_cmpuint (rank, <, G_N_ELEMENTS (severities));
      g_assert_cmpuint (rank, >=, last);
      last = rank;
      g_assert_nonnull (json_object_get_string_member (finding, "title"));
      g_assert_nonnull (json_object_get_string_member (finding, "summary"));
      g_assert_true (JSON_NODE_HOLDS_OBJECT (json_object_get_member (finding, "evidence")));
      g_assert_cmpuint (json_array_get_length (ranges), >, 0);
      for (guint r = 0; r < json_array_get_length (ranges); r++)
        {
          JsonArray *pair = json_array_get_array_element (ranges, r);

          g_assert_cmpuint (json_array_get_length (pair), ==, 2);
          g_assert_cmpint (json_array_get_int_element (pair, 0), <=,
                           json_array_get_int_element (pair, 1));
        }
    }

  /* The numbers of probe.cu, as test-findings checks them against SQL. */
  alloc = json_object_get_object_member (finding_of (findings, "alloc-in-loop"), "evidence");
  g_assert_cmpint (json_object_get_int_member (alloc, "cudaMalloc"), ==, 20);
  g_assert_cmpint (json_object_get_int_member (alloc, "cudaFree"), ==, 20);
  imbalance = json_object_get_object_member (finding_of (findings, "load-imbalance"), "evidence");
  g_assert_cmpint (json_object_get_int_member (imbalance, "shortest_ns"), ==, 6016);
  g_assert_cmpint (json_object_get_int_member (imbalance, "longest_ns"), ==, 37601);
  g_assert_cmpstr (json_object_get_string_member (finding_of (findings, "gpu-idle"), "severity"),
                   ==, "minor");
  g_assert_cmpstr (
    json_object_get_string_member (finding_of (findings, "small-transfers"), "severity"), ==,
    "severe");
}

/* A run without findings prints an empty list and exits 0. */
static void
test_diagnose_clean_run (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2022.4_rodinia_gaussian.sqlite", NULL);
  const char *json_argv[] = { ws_test_cli (), "diagnose", "--format", "json", path, NULL };
  const char *text_argv[] = { ws_test_cli (), "diagnose", path, NULL };
  g_autofree char *out = NULL, *err = NULL, *text = NULL, *text_err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (ws_test_run (json_argv, &out, &err), ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                      json_node_get_object (json_parser_get_root (parser)), "findings")),
                    ==, 0);
  g_assert_cmpint (ws_test_run (text_argv, &text, &text_err), ==, 0);
  g_assert_nonnull (strstr (text, "No findings"));
}

static void
test_diagnose_text_and_markdown (void)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  const char *text_argv[] = { ws_test_cli (), "diagnose", path, NULL };
  const char *md_argv[] = { ws_test_cli (), "diagnose", "--format", "md", path, NULL };
  g_autofree char *text = NULL, *md = NULL, *err = NULL, *md_err = NULL;

  g_assert_cmpint (ws_test_run (text_argv, &text, &err), ==, 0);
  g_assert_nonnull (strstr (text, "[Severe] Memory allocation inside a loop (alloc-in-loop)"));
  g_assert_nonnull (strstr (text, "频繁内存分配示例"));
  g_assert_nonnull (strstr (text, "Usual fix:"));
  g_assert_cmpint (ws_test_run (md_argv, &md, &md_err), ==, 0);
  g_assert_nonnull (strstr (md, "### Severe: Memory allocation inside a loop"));
  g_assert_nonnull (strstr (md, "| cudaMalloc | 20 |"));
  g_assert_nonnull (strstr (md, "### Minor: The GPU sits idle"));
}

/* The GPT-2 capture: step 0 is 2.6 s of cuDNN and cuBLAS set-up.  By
 * default the checks look at steps 1-5 and say so in one line, the set-up
 * and what it would raise; --whole-run looks at everything, where the
 * set-up makes the GPU idle 94% of the time. */
static void
test_diagnose_steady_state (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *dir = ws_test_unpack_gpt2 (&tmp);
  g_autofree char *db = g_build_filename (dir, "nsys", "GPT2__.sqlite", NULL);
  const char *argv[] = { ws_test_cli (), "diagnose", db, NULL };
  const char *whole_argv[] = { ws_test_cli (), "diagnose", "--whole-run", db, NULL };
  const char *json_argv[] = { ws_test_cli (), "diagnose", "--format", "json", db, NULL };
  g_autofree char *out = NULL, *err = NULL, *whole = NULL, *whole_err = NULL;
  g_autofree char *json = NULL, *json_err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root, *scope;
  JsonArray *findings;

  /* The sentences unwrapped: a terminal as wide as COLUMNS allows. */
  g_setenv ("COLUMNS", "10000", TRUE);
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_cmpint (ws_test_run (whole_argv, &whole, &whole_err), ==, 0);
  g_unsetenv ("COLUMNS");
  g_assert_true (g_str_has_prefix (
    out, "Steady state: steps 1–5 of “训练步 N” (5 of 6; 126 ms). Set-up before step 1 ("));
  g_assert_nonnull (strstr (out, "is left out; there: The GPU sits idle (Severe)"));
  /* Over steps 1-5 the GPU idles 17%: minor, not the set-up's severe. */
  g_assert_nonnull (strstr (out, "\n[Minor] The GPU sits idle (gpu-idle)\n"));
  g_assert_null (strstr (out, "[Severe] The GPU sits idle"));

  g_assert_true (g_str_has_prefix (whole, "[Severe] The GPU sits idle (gpu-idle)\n  GPU 0 is idle "
                                          "94.3% of the time"));
  g_assert_null (strstr (whole, "Steady state:"));

  g_assert_cmpint (ws_test_run (json_argv, &json, &json_err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  scope = json_object_get_object_member (root, "scope");
  g_assert_cmpstr (json_object_get_string_member (scope, "kind"), ==, "steady-state");
  g_assert_cmpint (json_object_get_int_member (scope, "steady_steps"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (scope, "warmup_steps"), ==, 1);
  findings = json_object_get_array_member (root, "findings");
  g_assert_cmpstr (json_object_get_string_member (finding_of (findings, "gpu-idle"), "severity"),
                   ==, "minor");
  ws_test_rmtree (tmp);
}

static void
test_diagnose_bad_input (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *bad = g_build_filename (dir, "bad.sqlite", NULL);
  g_autofree char *probe = ws_test_data ("nsys", PROBE, NULL);
  const char *bad_argv[] = { ws_test_cli (), "diagnose", bad, NULL };
  const char *format_argv[] = { ws_test_cli (), "diagnose", "--format", "csv", probe, NULL };
  const char *none_argv[] = { ws_test_cli (), "diagnose", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_true (g_file_set_contents (bad, "not a database\n", -1, NULL));
  g_assert_cmpint (ws_test_run (bad_argv, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, bad));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ws_test_run (format_argv, &out, &err), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ws_test_run (none_argv, &out, &err), ==, 2);
  ws_test_rmtree (dir);
}

/* `export --chrome-trace OUT.json` and `OUT.json.gz`: a trace with one
 * kernel event per kernel row. */
static void
test_export_chrome_trace (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *json = g_build_filename (dir, "probe.json", NULL);
  g_autofree char *gz = g_build_filename (dir, "probe.json.gz", NULL);
  const char *argv[] = { ws_test_cli (), "export", "--chrome-trace", json, source, NULL };
  const char *gz_argv[] = { ws_test_cli (), "export", "--chrome-trace", gz, source, NULL };
  g_autofree char *out = NULL, *err = NULL, *gz_out = NULL, *gz_err = NULL;
  g_autoptr (GPtrArray) names = NULL;
  guchar magic[2] = { 0 };
  g_autofree char *gz_data = NULL;
  gsize gz_len = 0;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpuint (ws_test_trace_count (json, "kernel"), ==,
                    ws_test_sqlite_count (source, "CUPTI_ACTIVITY_KIND_KERNEL"));

  g_assert_cmpint (ws_test_run (gz_argv, &gz_out, &gz_err), ==, 0);
  g_assert_true (g_file_get_contents (gz, &gz_data, &gz_len, NULL));
  g_assert_cmpuint (gz_len, >, 2);
  memcpy (magic, gz_data, 2);
  /* The gzip magic number. */
  g_assert_cmpuint (magic[0], ==, 0x1f);
  g_assert_cmpuint (magic[1], ==, 0x8b);

  /* Nothing else was left in the folder. */
  names = ws_test_list_dir (dir);
  g_assert_cmpuint (names->len, ==, 2);
  ws_test_rmtree (dir);
}

static void
test_export_failures (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *bad = g_build_filename (dir, "bad.sqlite", NULL);
  g_autofree char *out_path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *unwritable = g_build_filename (dir, "missing", "out.json", NULL);
  const char *nothing_argv[] = { ws_test_cli (), "export", source, NULL };
  const char *bad_argv[] = { ws_test_cli (), "export", "--chrome-trace", out_path, bad, NULL };
  const char *write_argv[] = {
    ws_test_cli (), "export", "--chrome-trace", unwritable, source, NULL
  };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GPtrArray) names = NULL;

  /* No format asked for: bad input. */
  g_assert_cmpint (ws_test_run (nothing_argv, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--chrome-trace"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* An input that is no export: bad input, and no output file. */
  g_assert_true (g_file_set_contents (bad, "not a database\n", -1, NULL));
  g_assert_cmpint (ws_test_run (bad_argv, &out, &err), ==, 2);
  g_assert_false (g_file_test (out_path, G_FILE_TEST_EXISTS));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* An output into a folder that does not exist: refused before any
   * work, naming the file and its folder (issue 46, item 5). */
  g_assert_cmpint (ws_test_run (write_argv, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, unwritable));
  g_assert_nonnull (strstr (err, "does not exist"));
  names = ws_test_list_dir (dir);
  g_assert_cmpuint (names->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "bad.sqlite");
  ws_test_rmtree (dir);
}

/* The union of the kernels, copies and memsets on @device in @db, by SQL:
 * its busy time and its span from the first start to the last end. */
static void
sql_device_busy (const char *db, int device, gint64 *busy, gint64 *span)
{
  g_autofree char *sql = g_strdup_printf (
    "WITH ev AS (SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = %d "
    "UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE deviceId = %d "
    "UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE deviceId = %d), "
    "o AS (SELECT start, end, max(end) OVER (ORDER BY start, end ROWS BETWEEN UNBOUNDED "
    "PRECEDING AND 1 PRECEDING) AS prev FROM ev) "
    "SELECT sum(max(end - max(start, coalesce(prev, start)), 0)) || ' ' || "
    "((SELECT max(end) FROM ev) - (SELECT min(start) FROM ev)) FROM o",
    device, device, device);
  g_autofree char *text = ws_test_sqlite_text (db, sql);
  char *space;

  g_assert_nonnull (text);
  space = strchr (text, ' ');
  *busy = g_ascii_strtoll (text, NULL, 10);
  *span = g_ascii_strtoll (space + 1, NULL, 10);
}

static JsonObject *
diagnose_json (JsonParser *parser, const char *const *argv)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* The real two-GPU NCCL job: rank 0 on device 0, rank 1 on device 1, each
 * export listing device 1 first.  `diagnose` names each GPU by its own id
 * with that GPU's idle share, the union of its kernels and memory
 * operations by SQL over the rank's export; `--rank 1` speaks of GPU 1
 * alone, never of a GPU the rank did not use. */
static void
test_diagnose_rank_gpus (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *nsys = g_build_filename (dir, "nsys", NULL);
  char *db[2] = { NULL, NULL };
  gint64 busy[2], span[2];

  g_assert_cmpint (g_mkdir (nsys, 0755), ==, 0);
  for (int r = 0; r < 2; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank-nccl/rank%d.sqlite.xz", r);

      db[r] = ws_test_unxz (xz, nsys);
      /* Each rank ran on the device of its number, and on no other. */
      {
        g_autofree char *devices = ws_test_sqlite_text (
          db[r], "SELECT group_concat(DISTINCT deviceId) FROM CUPTI_ACTIVITY_KIND_KERNEL");
        g_autofree char *want = g_strdup_printf ("%d", r);

        g_assert_cmpstr (devices, ==, want);
      }
      sql_device_busy (db[r], r, &busy[r], &span[r]);
      g_test_message ("rank %d: device %d busy %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " ns", r,
                      r, busy[r], span[r]);
    }

  /* `info` lists each GPU under its own id, with its own bus. */
  {
    const char *argv[] = { ws_test_cli (), "info", nsys, NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
    for (int d = 0; d < 2; d++)
      {
        g_autofree char *sql =
          g_strdup_printf ("SELECT busLocation FROM TARGET_INFO_GPU WHERE id = %d", d);
        g_autofree char *bus = ws_test_sqlite_text (db[1], sql);
        g_autofree char *line = g_strdup_printf ("  GPU %d: ", d);
        const char *at = strstr (out, line);
        g_autofree char *row = NULL;

        g_assert_nonnull (at);
        row = g_strndup (at, strcspn (at, "\n"));
        g_test_message ("%s", row);
        g_assert_nonnull (strstr (row, bus));
      }
  }

  /* The job: the GPU the finding names is the idler one, by its own id;
   * each GPU's share is its own. */
  {
    const char *argv[] = {
      ws_test_cli (), "diagnose", "--whole-run", "--format", "json", nsys, NULL
    };
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *root = diagnose_json (parser, argv);
    JsonObject *idle = json_object_get_object_member (
      finding_of (json_object_get_array_member (root, "findings"), "gpu-idle"), "evidence");
    int named = (int) json_object_get_int_member (idle, "device");
    double share[2];
    g_autofree char *summary_start = g_strdup_printf ("GPU %d is idle", named);

    for (int r = 0; r < 2; r++)
      {
        g_autofree char *key = g_strdup_printf ("gpu%d_idle_pct", r);

        share[r] = 100.0 * (double) (span[r] - busy[r]) / (double) span[r];
        g_assert_cmpfloat_with_epsilon (json_object_get_double_member (idle, key), share[r], 1e-9);
      }
    g_assert_cmpint (named, ==, share[1] > share[0] ? 1 : 0);
    g_assert_cmpint (json_object_get_int_member (idle, "busy_ns"), ==, busy[named]);
    g_assert_cmpint (json_object_get_int_member (idle, "span_ns"), ==, span[named]);
    g_assert_true (g_str_has_prefix (
      json_object_get_string_member (
        finding_of (json_object_get_array_member (root, "findings"), "gpu-idle"), "summary"),
      summary_start));
  }

  /* Rank 1 alone: GPU 1, its figures, no word of GPU 0. */
  {
    const char *argv[] = { ws_test_cli (), "diagnose", "--whole-run", "--rank", "1",
                           "--format",     "json",     nsys,          NULL };
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *root = diagnose_json (parser, argv);
    JsonObject *finding = finding_of (json_object_get_array_member (root, "findings"), "gpu-idle");
    JsonObject *idle = json_object_get_object_member (finding, "evidence");

    g_assert_cmpint (json_object_get_int_member (idle, "device"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (idle, "busy_ns"), ==, busy[1]);
    g_assert_cmpint (json_object_get_int_member (idle, "span_ns"), ==, span[1]);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (idle, "idle_pct"),
                                    100.0 * (double) (span[1] - busy[1]) / (double) span[1], 1e-9);
    g_assert_false (json_object_has_member (idle, "gpu0_idle_pct"));
    g_assert_true (
      g_str_has_prefix (json_object_get_string_member (finding, "summary"), "GPU 1 is idle"));
  }

  /* Over the steady state, as by default: still GPU 1 alone, and the
   * job's digest says the same of rank 1 as its export. */
  {
    g_autofree char *digest = g_build_filename (dir, "job.wsdigest", NULL);
    const char *digest_argv[] = { ws_test_cli (), "digest", "-j", "1", "-o", digest, nsys, NULL };
    const char *from_digest[] = { ws_test_cli (), "diagnose", "--rank", "1",
                                  "--format",     "json",     digest,   NULL };
    const char *from_export[] = { ws_test_cli (), "diagnose", "--rank", "1",
                                  "--format",     "json",     nsys,     NULL };
    g_autoptr (JsonParser) digest_parser = json_parser_new ();
    g_autoptr (JsonParser) export_parser = json_parser_new ();
    g_autofree char *out = NULL, *err = NULL;
    JsonObject *a, *b;

    g_assert_cmpint (ws_test_run (digest_argv, &out, &err), ==, 0);
    a = json_object_get_object_member (
      finding_of (
        json_object_get_array_member (diagnose_json (digest_parser, from_digest), "findings"),
        "gpu-idle"),
      "evidence");
    b = json_object_get_object_member (
      finding_of (
        json_object_get_array_member (diagnose_json (export_parser, from_export), "findings"),
        "gpu-idle"),
      "evidence");
    g_assert_cmpint (json_object_get_int_member (a, "device"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (b, "device"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (a, "idle_ns"), ==,
                     json_object_get_int_member (b, "idle_ns"));
    g_assert_false (json_object_has_member (a, "gpu0_idle_pct"));
  }
  {
    const char *argv[] = {
      ws_test_cli (), "diagnose", "--rank", "1", "--format", "json", nsys, NULL
    };
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *root = diagnose_json (parser, argv);
    JsonArray *findings = json_object_get_array_member (root, "findings");

    for (guint i = 0; i < json_array_get_length (findings); i++)
      {
        JsonObject *finding = json_array_get_object_element (findings, i);
        JsonObject *evidence = json_object_get_object_member (finding, "evidence");

        g_assert_false (json_object_has_member (evidence, "gpu0_idle_pct"));
        if (g_str_equal (json_object_get_string_member (finding, "id"), "gpu-idle"))
          g_assert_cmpint (json_object_get_int_member (evidence, "device"), ==, 1);
      }
  }
  g_free (db[0]);
  g_free (db[1]);
  ws_test_rmtree (dir);
}

/* The widest line of @text in terminal columns, counted here: a CJK
 * character takes two. */
static guint
widest_line (const char *text)
{
  guint widest = 0, col = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\n')
        {
          widest = MAX (widest, col);
          col = 0;
          continue;
        }
      col += g_unichar_iswide (c) ? 2 : 1;
    }
  return MAX (widest, col);
}

/* @text without any space or line end: a wrapped text is its words. */
static char *
squeezed (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

/* Prose of `diagnose` and `compare --format table` wraps at $COLUMNS (it
 * ran to 233 columns): no line is wider, and each finding's summary, rule
 * and fix (from the JSON) is still there word for word. */
static void
test_prose_wrapped_at_columns (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *fp32 = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *bf16 = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  const char *text_argv[] = { ws_test_cli (), "diagnose", path, NULL };
  const char *json_argv[] = { ws_test_cli (), "diagnose", "--format", "json", path, NULL };
  const char *compare_argv[] = { ws_test_cli (), "compare", "--format", "table", fp32, bf16, NULL };
  g_autofree char *text = NULL, *json = NULL, *compare = NULL, *flat = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *findings;

  g_setenv ("COLUMNS", "120", TRUE);
  g_assert_cmpint (ws_test_run (text_argv, &text, NULL), ==, 0);
  g_assert_cmpint (ws_test_run (json_argv, &json, NULL), ==, 0);
  g_assert_cmpint (ws_test_run (compare_argv, &compare, NULL), ==, 0);
  g_setenv ("COLUMNS", "80", TRUE);
  {
    g_autofree char *narrow = NULL;

    g_assert_cmpint (ws_test_run (text_argv, &narrow, NULL), ==, 0);
    g_assert_cmpuint (widest_line (narrow), <=, 80);
  }
  g_unsetenv ("COLUMNS");

  g_assert_cmpuint (widest_line (text), <=, 120);
  g_assert_cmpuint (widest_line (compare), <=, 120);
  flat = squeezed (text);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  findings =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings");
  g_assert_cmpuint (json_array_get_length (findings), >, 0);
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);
      const char *members[] = { "summary", "rule", "fix" };

      for (gsize m = 0; m < G_N_ELEMENTS (members); m++)
        {
          g_autofree char *words = squeezed (json_object_get_string_member (f, members[m]));

          g_assert_nonnull (strstr (flat, words));
        }
    }
}

/* The PyTorch profiler's trace of a loop that replays a CUDA graph each
 * step: each of a replay's 91 kernels carries the correlation of its one
 * cudaGraphLaunch (about 300 µs there), which used to be charged to every
 * one of them, with graphs as the advice.  Now the replays' kernels are
 * left out (test-findings-graphs counts them from the JSON) and the host
 * gaps between replays are a finding of their own, in JSON and in text. */
static void
test_diagnose_kineto_graphs (void)
{
  g_autofree char *path =
    ws_test_data ("kineto", "captures", "graphs", "decode_graph.json.gz", NULL);
  const char *json_args[] = { "diagnose", "--format", "json", path, NULL };
  const char *text_args[] = { "diagnose", path, NULL };
  g_autofree char *out = ws_test_cli_expect (json_args, 0, NULL);
  g_autofree char *text = ws_test_cli_expect (text_args, 0, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *findings;
  JsonObject *launch, *evidence, *gaps;

  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  findings =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings");
  launch = finding_of (findings, "launch-overhead");
  evidence = json_object_get_object_member (launch, "evidence");
  g_assert_cmpint (json_object_get_int_member (evidence, "graph_kernels"), ==, 40 * 91);
  g_assert_cmpint (json_object_get_int_member (evidence, "median_launch_ns"), <, 10000);
  g_assert_null (
    strstr (json_object_get_string_member (launch, "fix"), "capture the sequence in a CUDA graph"));
  gaps = json_object_get_object_member (finding_of (findings, "replay-gaps"), "evidence");
  g_assert_cmpint (json_object_get_int_member (gaps, "replays"), ==, 40);
  g_assert_cmpint (json_object_get_int_member (gaps, "pairs"), ==, 39);
  g_assert_nonnull (strstr (text, "Host gaps between CUDA graph replays (replay-gaps)"));
  g_assert_nonnull (strstr (text, "Kernels in CUDA graph replays (left out)"));
}

/* A loop that captures and instantiates its graph every step, in text. */
static void
test_diagnose_recapture (void)
{
  g_autofree char *dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_autofree char *path =
    g_build_filename (dir, "graph", "decode_recapture", "nsys", "decode_recapture.sqlite", NULL);
  const char *args[] = { "diagnose", path, NULL };
  g_autofree char *text = ws_test_cli_expect (args, 0, NULL);

  g_assert_nonnull (strstr (text, "[Severe] CUDA graph re-captured every step (graph-recapture)"));
  g_assert_nonnull (strstr (text, "19 of 19 steps of “decode N” capture and instantiate"));
  g_assert_nonnull (strstr (text, "Capture the graph once"));
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/diagnose/json", test_diagnose_json);
  g_test_add_func ("/cli/diagnose/clean-run-prints-no-findings", test_diagnose_clean_run);
  g_test_add_func ("/cli/diagnose/text-and-markdown", test_diagnose_text_and_markdown);
  g_test_add_func ("/cli/diagnose/bad-input", test_diagnose_bad_input);
  g_test_add_func ("/cli/prose-wrapped-at-columns", test_prose_wrapped_at_columns);
  g_test_add_func ("/cli/diagnose/gpt2/steady-state-by-default", test_diagnose_steady_state);
  g_test_add_func ("/cli/diagnose/nccl-job/each-rank-its-own-gpu", test_diagnose_rank_gpus);
  g_test_add_func ("/cli/diagnose/graphs/kineto-one-launch-per-replay",
                   test_diagnose_kineto_graphs);
  g_test_add_func ("/cli/diagnose/graphs/recapture", test_diagnose_recapture);
  g_test_add_func ("/cli/export/chrome-trace", test_export_chrome_trace);
  g_test_add_func ("/cli/export/failures", test_export_failures);

  return g_test_run ();
}
