/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-test-util.h"

/* Issue 42: `warpscope-cli gate` on a real training export (6 steps, the
 * first warm-up) against itself and against a copy whose elementwise
 * kernels SQL made 10% longer: the exit status, the verdict of each
 * budget, the change against the one SQL computes, the JUnit file parsed
 * and counted, the Markdown; bad budgets refused in one line. */

#define EXPORT "v2025.3_h100_train_bf16.sqlite"
#define ELEMENTWISE "%elementwise%"

/* The JSON of a gate call: its budgets' verdicts by budget text. */
static JsonObject *
budget_of (JsonParser *parser, const char *text)
{
  JsonArray *budgets =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "budgets");

  for (guint i = 0; i < json_array_get_length (budgets); i++)
    {
      JsonObject *b = json_array_get_object_element (budgets, i);

      if (g_str_equal (json_object_get_string_member (b, "budget"), text))
        return b;
    }
  g_error ("no budget %s", text);
}

static JsonParser *
gate_json (const char *before, const char *after, int expected, const char *junit)
{
  const char *args[] = { "gate",
                         "--format",
                         "json",
                         "--budget",
                         "step=+3%",
                         "--budget",
                         "kernel:*elementwise*=+5%",
                         "--budget",
                         "kernel:*nvjet*=+5%",
                         "--budget",
                         "total-gpu=+3%",
                         "--junit",
                         junit,
                         before,
                         after,
                         NULL };
  g_autofree char *out = ws_test_cli_expect (args, expected, NULL);
  JsonParser *parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  return parser;
}

static const char *
verdict (JsonParser *parser, const char *text)
{
  return json_object_get_string_member (budget_of (parser, text), "verdict");
}

/* JUnit's elements, counted as GMarkup parses the file. */
typedef struct
{
  guint suites, cases, failures, errors;
} JunitCounts;

static void
junit_element (GMarkupParseContext *context, const char *name, const char **attribute_names,
               const char **attribute_values, gpointer data, GError **error)
{
  JunitCounts *c = data;

  c->suites += g_str_equal (name, "testsuite");
  c->cases += g_str_equal (name, "testcase");
  c->failures += g_str_equal (name, "failure");
  c->errors += g_str_equal (name, "error");
}

/* The JUnit file, parsed as XML: its test cases and failures counted. */
static void
assert_junit (const char *path, guint tests, guint failures)
{
  static const GMarkupParser parser = { junit_element, NULL, NULL, NULL, NULL };
  g_autofree char *xml = ws_test_read (path);
  JunitCounts counts = { 0 };
  g_autoptr (GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, &counts, NULL);
  g_autoptr (GError) error = NULL;
  const char *body;

  g_assert_nonnull (xml);
  g_assert_true (g_str_has_prefix (xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
  /* GMarkup reads elements, not the XML declaration. */
  body = strchr (xml, '\n') + 1;
  g_assert_true (g_markup_parse_context_parse (context, body, -1, &error));
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (counts.suites, ==, 1);
  g_assert_cmpuint (counts.cases, ==, tests);
  g_assert_cmpuint (counts.failures, ==, failures);
}

static void
assert_junit_at (const char *dir, guint tests, guint failures)
{
  g_autofree char *path = g_build_filename (dir, "gate.xml", NULL);

  assert_junit (path, tests, failures);
}

static void
test_same_and_slower (void)
{
  g_autofree char *path = ws_test_data ("nsys", EXPORT, NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *slower = g_build_filename (dir, "slower.sqlite", NULL);
  g_autofree char *junit = g_build_filename (dir, "gate.xml", NULL);
  g_autofree char *md = g_build_filename (dir, "gate.md", NULL);
  g_autoptr (JsonParser) same = NULL;
  g_autoptr (JsonParser) slow = NULL;
  g_autofree char *total_before = NULL, *total_after = NULL;
  double change, sql_change;

  /* The same run on both sides: every budget passes, exit 0. */
  same = gate_json (path, path, 0, junit);
  g_assert_cmpstr (verdict (same, "step=+3%"), ==, "pass");
  g_assert_cmpstr (verdict (same, "kernel:*elementwise*=+5%"), ==, "pass");
  g_assert_cmpfloat (json_object_get_double_member (budget_of (same, "total-gpu=+3%"), "change"),
                     ==, 0);
  g_assert_cmpint (json_object_get_int_member (budget_of (same, "step=+3%"), "n_before"), ==, 5);
  assert_junit (junit, 4, 0);

  /* Every elementwise kernel 10% longer, by SQL. */
  {
    g_autofree char *bytes = NULL;
    gsize len = 0;

    g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
    g_assert_true (g_file_set_contents (slower, bytes, (gssize) len, NULL));
  }
  ws_test_sqlite_exec (slower, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET \"end\" = start + "
                               "(\"end\" - start) * 11 / 10 WHERE demangledName IN (SELECT id FROM "
                               "StringIds WHERE value LIKE '" ELEMENTWISE "')");
  slow = gate_json (path, slower, 1, junit);
  g_assert_cmpstr (verdict (slow, "kernel:*elementwise*=+5%"), ==, "regression");
  g_assert_cmpstr (verdict (slow, "kernel:*nvjet*=+5%"), ==, "pass");
  g_assert_cmpstr (verdict (slow, "step=+3%"), ==, "pass");
  assert_junit (junit, 4, 1);
  /* The change is the kernels' +10%, as SQL sums them over the run. */
  total_before = ws_test_sqlite_text (
    path, "SELECT sum(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id "
          "= k.demangledName WHERE s.value LIKE '" ELEMENTWISE "'");
  total_after = ws_test_sqlite_text (
    slower, "SELECT sum(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
            "s.id = k.demangledName WHERE s.value LIKE '" ELEMENTWISE "'");
  sql_change = (g_ascii_strtod (total_after, NULL) / g_ascii_strtod (total_before, NULL) - 1) * 100;
  change = json_object_get_double_member (budget_of (slow, "kernel:*elementwise*=+5%"), "change");
  g_assert_cmpfloat_with_epsilon (change, sql_change, 0.2);
  g_assert_cmpfloat (
    json_object_get_double_member (budget_of (slow, "kernel:*elementwise*=+5%"), "low"), >, 0);

  /* The Markdown summary names the budget over. */
  {
    const char *args[] = { "gate", "--budget", "kernel:*elementwise*=+5%", "--markdown", md, path,
                           slower, NULL };
    g_autofree char *out = ws_test_cli_expect (args, 1, NULL);
    g_autofree char *text = ws_test_read (md);

    g_assert_nonnull (strstr (out, "OVER"));
    g_assert_nonnull (strstr (text, "| OVER | `kernel:*elementwise*=+5%` |"));
    g_assert_nonnull (strstr (text, "1 budgets: 1 over, 0 not judged."));
  }

  /* --report DIR: the three reports and the compare charts, real PNGs. */
  {
    g_autofree char *report = g_build_filename (dir, "report", NULL);
    const char *args[] = { "gate", "--budget", "kernel:*elementwise*=+5%", "--report", report, path,
                           slower, NULL };
    const char *files[] = { "gate.xml", "gate.md", "gate.json", "compare-kernels.png",
                            "compare-nvtx.png" };
    g_autofree char *out = ws_test_cli_expect (args, 1, NULL);

    for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
      {
        g_autofree char *file = g_build_filename (report, files[i], NULL);
        g_autofree char *head = NULL;
        gsize len = 0;

        g_assert_true (g_file_get_contents (file, &head, &len, NULL));
        if (g_str_has_suffix (files[i], ".png"))
          g_assert_cmpmem (head, 8, "\x89PNG\r\n\x1a\n", 8);
      }
    assert_junit_at (report, 1, 1);
  }
  ws_test_rmtree (dir);
}

/* A kernel that is not there cannot be judged (3); bad budgets are bad
 * input (2), in one line naming what is wrong. */
static void
test_cannot_judge_and_bad_budgets (void)
{
  g_autofree char *path = ws_test_data ("nsys", EXPORT, NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *file = g_build_filename (dir, "budgets.txt", NULL);
  const char *bad[] = { "kernel=+5%", "step:x=+5%", "frames=+5%", "step=+5 parsecs", "step" };

  {
    const char *args[] = { "gate", "--budget", "kernel:nosuchkernel=+1%", path, path, NULL };
    g_autofree char *out = ws_test_cli_expect (args, 3, NULL);

    g_assert_nonnull (strstr (out, "nothing matches nosuchkernel before"));
  }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *args[] = { "gate", "--budget", bad[i], path, path, NULL };
      g_autofree char *err = NULL;
      g_autofree char *out = ws_test_cli_expect (args, 2, &err);

      g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
      g_assert_nonnull (strstr (err, bad[i]));
    }
  /* A file's bad line is named by its number; a '#' inside a name is no comment. */
  g_assert_true (g_file_set_contents (
    file, "# budgets\nstep=+3%  # the step\nnvtx:ProfilerStep#*=+1%\ntotal-gpu=+3 furlongs\n", -1,
    NULL));
  {
    const char *args[] = { "gate", "--budgets", file, path, path, NULL };
    g_autofree char *err = NULL;
    g_autofree char *out = ws_test_cli_expect (args, 2, &err);
    g_autofree char *where = g_strdup_printf ("%s:4: total-gpu=+3 furlongs", file);

    g_assert_nonnull (strstr (err, where));
  }
  ws_test_rmtree (dir);
}

/* The real runs of tests/data/gate (tests/device/capture-gate.sh on an
 * H200): the budgets of docs/ci.md's example, five runs of the same code
 * before and each of the five others after, both ways round; the run with
 * its GELU 10% slower; the run with its `data` range 2 ms longer. */
#define REAL_BUDGETS                                                                               \
  "--budget", "step=+3%", "--budget", "nvtx:data=+1ms", "--budget", "nvtx:forward=+1ms",           \
    "--budget", "total-gpu=+3%", "--budget", "kernel:*gelu*=+5%", "--budget",                      \
    "kernel:*nvjet*=+5%", "--budget", "kernel:*layer_norm*=+5%", "--budget", "kernel:*add*=+5%"

/* The budgets over, as "budget budget …" of the JSON, and the exit status. */
static char *
real_gate (char **baseline, const char *after, int *status)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  const char *budgets[] = { REAL_BUDGETS };
  g_autoptr (GString) over = g_string_new (NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonArray *results;

  g_ptr_array_add (args, (gpointer) ws_test_cli ());
  g_ptr_array_add (args, "gate");
  g_ptr_array_add (args, "--format");
  g_ptr_array_add (args, "json");
  for (gsize i = 0; i < G_N_ELEMENTS (budgets); i++)
    g_ptr_array_add (args, (gpointer) budgets[i]);
  for (guint i = 1; baseline[i] != NULL; i++)
    {
      g_ptr_array_add (args, "--before");
      g_ptr_array_add (args, baseline[i]);
    }
  g_ptr_array_add (args, baseline[0]);
  g_ptr_array_add (args, (gpointer) after);
  g_ptr_array_add (args, NULL);
  *status = ws_test_run ((const char *const *) args->pdata, &out, NULL);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  results =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "budgets");
  for (guint i = 0; i < json_array_get_length (results); i++)
    {
      JsonObject *b = json_array_get_object_element (results, i);

      if (!g_str_equal (json_object_get_string_member (b, "verdict"), "pass"))
        g_string_append_printf (over, "%s%s", over->len > 0 ? " " : "",
                                json_object_get_string_member (b, "budget"));
    }
  return g_strdup (over->str);
}

static void
test_real_runs (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  char *runs[11] = { NULL };
  char *halves[2][6] = { { NULL }, { NULL } };
  g_autofree char *slow = ws_test_unxz ("gate/slow_kernel.sqlite.xz", dir);
  g_autofree char *long_data = ws_test_unxz ("gate/long_data.sqlite.xz", dir);
  guint false_positives = 0;

  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *name = g_strdup_printf ("gate/same%02u.sqlite.xz", i + 1);

      runs[i] = ws_test_unxz (name, dir);
      halves[i / 5][i % 5] = runs[i];
    }
  for (guint h = 0; h < 2; h++)
    {
      int status;

      /* Each run of the other half, against this half: nothing over. */
      for (guint i = 0; i < 5; i++)
        {
          g_autofree char *over = real_gate (halves[h], halves[1 - h][i], &status);

          if (status != 0)
            {
              g_test_message ("false positive: %s against half %u: %s", halves[1 - h][i], h, over);
              false_positives++;
            }
        }
      {
        g_autofree char *over = real_gate (halves[h], slow, &status);

        g_assert_cmpint (status, ==, 1);
        g_assert_cmpstr (over, ==, "kernel:*gelu*=+5%");
      }
      {
        g_autofree char *over = real_gate (halves[h], long_data, &status);

        g_assert_cmpint (status, ==, 1);
        g_assert_cmpstr (over, ==, "step=+3% nvtx:data=+1ms");
      }
    }
  g_assert_cmpuint (false_positives, ==, 0);
  for (guint i = 0; i < 10; i++)
    g_free (runs[i]);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/gate/same-and-slower", test_same_and_slower);
  g_test_add_func ("/cli/gate/cannot-judge-and-bad-budgets", test_cannot_judge_and_bad_budgets);
  g_test_add_func ("/cli/gate/real-runs", test_real_runs);
  return g_test_run ();
}
