/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-lanes.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-test-util.h"

/* OS runtime calls (OSRT_API) as an event table of the run, and the
 * osrt_sum report against `nsys stats` 2025.3.2 on the GPT-2 capture. */

static char *
unpack (const char *dir, const char *folder, const char *name)
{
  g_autofree char *xz_name = g_strconcat (name, ".xz", NULL);
  g_autofree char *xz = ws_test_data (folder, xz_name, NULL);
  char *out = g_build_filename (dir, name, NULL);
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
  g_autofree char *path = unpack (dir, "gpt2", "GPT2__.sqlite");
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
  g_autofree char *path = unpack (dir, "gpt2", "GPT2__.sqlite");
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autofree char *count =
    ws_test_sqlite_text (path, "SELECT count(*) FROM OSRT_API WHERE eventClass = 27");
  g_autofree char *threads = ws_test_sqlite_text (
    path, "SELECT count(DISTINCT globalTid) FROM OSRT_API WHERE eventClass = 27");
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
  /* The threads that made OS runtime calls: as many as SQL finds. */
  g_assert_cmpint ((gint64) threads_with_calls, ==, g_ascii_strtoll (threads, NULL, 10));
  ws_test_rmtree (dir);
}

/* A gloo DDP rank (tests/data/multirank, rank 0 of 4, whose rank 3
 * is a straggler): gloo's all-reduce waits are CPU time in OS runtime
 * calls, so every thread that made one has a lane, under its process and
 * named as the thread is (pt_gloo_runloop, pt_autograd_0), holding its
 * calls in start order; the time in poll and pthread_cond_wait per thread
 * equals SQL over OSRT_API. */
static void
test_ddp_rank_lanes (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = unpack (dir, "multirank", "rank0.sqlite");
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autoptr (WsLanes) lanes = NULL;
  g_autofree char *n_threads = ws_test_sqlite_text (
    path, "SELECT count(DISTINCT globalTid) FROM OSRT_API WHERE eventClass = 27");
  g_autofree char *first_osrt =
    ws_test_sqlite_text (path, "SELECT min(start) FROM OSRT_API WHERE eventClass = 27");
  guint osrt_lanes = 0, gloo_lanes = 0;

  g_assert_no_error (error);
  lanes = ws_lanes_new (run);
  for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);
      const WsThread *thread;
      const WsLane *group;
      const char *name;
      g_autofree char *count_sql = NULL;
      g_autofree char *count = NULL;
      g_autofree char *wait_sql = NULL;
      g_autofree char *wait = NULL;
      gint64 waited = 0;

      if (lane->kind != WS_LANE_OSRT)
        continue;
      thread = &g_array_index (run->threads, WsThread, lane->thread);
      group = ws_lanes_get_lane (lanes, lane->group);
      g_assert_cmpint (group->kind, ==, WS_LANE_GROUP);
      g_assert_cmpuint (group->pid, ==, thread->pid);
      count_sql = g_strdup_printf ("SELECT count(*) FROM OSRT_API WHERE eventClass = 27 AND "
                                   "globalTid = %" G_GINT64_FORMAT,
                                   thread->global_tid);
      count = ws_test_sqlite_text (path, count_sql);
      g_assert_cmpuint (lane->tracks[0].n, ==, g_ascii_strtoull (count, NULL, 10));
      wait_sql = g_strdup_printf (
        "SELECT coalesce(sum(o.end - o.start), 0) FROM OSRT_API o JOIN StringIds s ON "
        "s.id = o.nameId WHERE o.eventClass = 27 AND o.globalTid = %" G_GINT64_FORMAT
        " AND s.value IN ('poll', 'pthread_cond_wait')",
        thread->global_tid);
      wait = ws_test_sqlite_text (path, wait_sql);
      for (gsize i = 0; i < lane->tracks[0].n; i++)
        {
          WsEventRef ref = lane->tracks[0].events[i];
          gsize k = ws_event_ref_index (ref);
          const char *call = ws_run_string (run, run->osrt.name[k]);

          g_assert_cmpint (ws_event_ref_kind (ref), ==, WS_EVENT_OSRT);
          g_assert_cmpuint (run->osrt.thread[k], ==, lane->thread);
          if (i > 0)
            g_assert_cmpint (ws_event_start (run, lane->tracks[0].events[i - 1]), <=,
                             run->osrt.start[k]);
          if (g_str_equal (call, "poll") || g_str_equal (call, "pthread_cond_wait"))
            waited += run->osrt.end[k] - run->osrt.start[k];
        }
      g_assert_cmpint (waited, ==, g_ascii_strtoll (wait, NULL, 10));
      name = thread->name != WS_STRING_NONE ? ws_run_string (run, thread->name) : "";
      gloo_lanes += g_str_equal (name, "pt_gloo_runloop");
      osrt_lanes++;
    }
  g_assert_cmpuint (osrt_lanes, ==, g_ascii_strtoull (n_threads, NULL, 10));
  /* gloo's two run loops, each 10 s in pthread_cond_wait. */
  g_assert_cmpuint (gloo_lanes, ==, 2);

  /* The timeline covers the whole capture: the first OS runtime call of
   * the program comes before its first CUDA call, and is the origin. */
  g_assert_cmpint (run->origin, <=, g_ascii_strtoll (first_osrt, NULL, 10));
  g_assert_cmpint (run->origin, <, run->api.start[0]);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/osrt/sum/equals-nsys-stats", test_osrt_sum_equals_nsys_stats);
  g_test_add_func ("/osrt/table", test_osrt_table);
  g_test_add_func ("/osrt/lanes/ddp-rank", test_ddp_rank_lanes);
  return g_test_run ();
}
