/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-test-util.h"

/* OS runtime calls (OSRT_API) as an event table of the run, and the
 * osrt_sum report against `nsys stats` 2025.3.2 on the GPT-2 capture. */

static char *
unpack_gpt2 (const char *dir)
{
  g_autofree char *xz = ws_test_data ("gpt2", "GPT2__.sqlite.xz", NULL);
  char *out = g_build_filename (dir, "GPT2__.sqlite", NULL);
  g_autofree char *cmd = g_strdup_printf ("xz -dc '%s' > '%s'", xz, out);
  const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
  g_autofree char *o = NULL, *e = NULL;

  g_assert_cmpint (ws_test_run (argv, &o, &e), ==, 0);
  return out;
}

static void
test_osrt_sum_equals_nsys_stats (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = unpack_gpt2 (dir);
  g_autofree char *truth_path = ws_test_data ("gpt2", "GPT2___osrt_sum.csv", NULL);
  g_autofree char *truth = ws_test_read (truth_path);
  const char *argv[] = { ws_test_cli (), "stats", "--report", "osrt_sum",
                         "--format",     "csv",   path,       NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, truth);
  ws_test_rmtree (dir);
}

static void
test_osrt_table (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = unpack_gpt2 (dir);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autofree char *count =
    ws_test_sqlite_text (path, "SELECT count(*) FROM OSRT_API WHERE eventClass = 27");
  g_autofree char *poll_ns = ws_test_sqlite_text (
    path, "SELECT sum(o.end - o.start) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId "
          "WHERE o.eventClass = 27 AND s.value = 'poll'");
  gint64 poll = 0;
  guint threads_with_calls = 0;
  g_autofree gboolean *seen = NULL;

  g_assert_no_error (error);
  g_assert_true (run->has_osrt_table);
  g_assert_cmpint ((gint64) run->osrt.n, ==, g_ascii_strtoll (count, NULL, 10));
  seen = g_new0 (gboolean, run->threads->len);
  for (gsize i = 0; i < run->osrt.n; i++)
    {
      g_assert_cmpint (run->osrt.end[i], >=, run->osrt.start[i]);
      if (i > 0)
        g_assert_cmpint (run->osrt.start[i], >=, run->osrt.start[i - 1]);
      if (g_str_equal (ws_run_string (run, run->osrt.name[i]), "poll"))
        poll += run->osrt.end[i] - run->osrt.start[i];
      g_assert_cmpuint (run->osrt.thread[i], <, run->threads->len);
      threads_with_calls += !seen[run->osrt.thread[i]];
      seen[run->osrt.thread[i]] = TRUE;
    }
  /* 4,835,618,469 ns in poll: the SQL above, and the first row of nsys's
   * own osrt_sum. */
  g_assert_cmpint (poll, ==, g_ascii_strtoll (poll_ns, NULL, 10));
  g_assert_cmpint (poll, ==, 4835618469);
  g_assert_cmpuint (threads_with_calls, >, 1);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/osrt/sum/equals-nsys-stats", test_osrt_sum_equals_nsys_stats);
  g_test_add_func ("/osrt/table", test_osrt_table);
  return g_test_run ();
}
