/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <signal.h>
#include <string.h>

#include "ws-test-util.h"
#include "ws-test-watchdog.h"

/* The children: each runs only when this program runs itself with
 * WS_TEST_TRAP_SELF set, so that the suite never counts them. */
static void
child_skips (void)
{
  if (g_test_subprocess ())
    {
      ws_test_child_skip ("no such locale here");
      return;
    }
  ws_test_trap_child (60);
}

static void
child_passes (void)
{
  if (g_test_subprocess ())
    return;
  ws_test_trap_child (60);
}

static void
child_fails (void)
{
  if (g_test_subprocess ())
    {
      g_test_fail ();
      return;
    }
  ws_test_trap_child (60);
}

/* A child that hangs with a child of its own (what test-ssh did once in
 * CI): the watchdog ends it and names both. */
static void
child_hangs (void)
{
  const char *argv[] = { "sleep", "30.5", NULL };
  GPid pid;

  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL,
                                G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
                                  G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                NULL, NULL, &pid, NULL));
  ws_test_watchdog_arm (1, "waiting for sleep");
  g_usleep (60 * G_USEC_PER_SEC);
}

/* Runs this very program on one of the children and returns its TAP. */
static char *
run_self (const char *path, int *status, int *signal, char **err)
{
  const char *self = g_getenv ("WS_TEST_TRAP_BINARY");
  const char *argv[] = { self, "--tap", "-p", path, NULL };
  WsTestRun run;
  char *out;

  g_assert_nonnull (self);
  g_setenv ("WS_TEST_TRAP_SELF", "1", TRUE);
  ws_test_run_bounded (argv, 120, &run);
  g_unsetenv ("WS_TEST_TRAP_SELF");
  g_assert_false (run.timed_out);
  *status = run.status;
  *signal = run.signal;
  out = g_steal_pointer (&run.out);
  if (err != NULL)
    *err = g_steal_pointer (&run.err);
  ws_test_run_clear (&run);
  return out;
}

/* GLib's trap took a child's skip (exit 77) for a failure: the zh_CN test
 * failed on a machine without the locale instead of skipping. */
static void
test_child_skip_is_parent_skip (void)
{
  int status, signal;
  g_autofree char *skipped = run_self ("/trap/child/skips", &status, &signal, NULL);
  g_autofree char *passed = NULL;
  g_autofree char *failed = NULL;

  g_assert_nonnull (strstr (skipped, "\nok 1 /trap/child/skips # SKIP no such locale here"));
  g_assert_null (strstr (skipped, "not ok"));
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (signal, ==, 0);

  passed = run_self ("/trap/child/passes", &status, &signal, NULL);
  g_assert_nonnull (strstr (passed, "\nok 1 /trap/child/passes\n"));
  g_assert_null (strstr (passed, "# SKIP"));
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (signal, ==, 0);

  /* A failed trap assertion aborts the parent: a signal, or a status. */
  failed = run_self ("/trap/child/fails", &status, &signal, NULL);
  g_assert_null (strstr (failed, "# SKIP"));
  g_assert_null (strstr (failed, "\nok 1 /trap/child/fails"));
  g_assert_true (status > 0 || signal != 0);
}

/* The watchdog turns a hang into an abort within its bound, and says
 * which test, what it waited for and which process it waited on. */
static void
test_watchdog_names_the_hang (void)
{
  int status, signal;
  g_autofree char *err = NULL;
  g_autofree char *scale = g_strdup (g_getenv ("WS_TEST_TIME_SCALE"));
  gint64 started = g_get_monotonic_time ();
  g_autofree char *out = NULL;

  /* The child's bound is its own 1 s, whatever the pass stretches. */
  g_setenv ("WS_TEST_TIME_SCALE", "1", TRUE);
  out = run_self ("/trap/child/hangs", &status, &signal, &err);
  if (scale != NULL)
    g_setenv ("WS_TEST_TIME_SCALE", scale, TRUE);
  else
    g_unsetenv ("WS_TEST_TIME_SCALE");

  g_test_message ("%s", err);
  /* Within its 1 s and the 60 s the child would sleep. */
  g_assert_cmpint (g_get_monotonic_time () - started, <, 30 * G_USEC_PER_SEC);
  g_assert_cmpint (signal, ==, SIGABRT);
  g_assert_nonnull (strstr (err, "watchdog: /trap/child/hangs: waiting for sleep is still going "
                                 "after 1 s"));
  g_assert_nonnull (strstr (err, "sleep 30.5"));
  g_assert_null (strstr (out, "\nok 1"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("WS_TEST_TRAP_SELF") != NULL)
    {
      g_test_add_func ("/trap/child/skips", child_skips);
      g_test_add_func ("/trap/child/passes", child_passes);
      g_test_add_func ("/trap/child/fails", child_fails);
      g_test_add_func ("/trap/child/hangs", child_hangs);
      return g_test_run ();
    }
  g_setenv ("WS_TEST_TRAP_BINARY", argv[0], TRUE);
  g_test_add_func ("/trap/child-skip-is-parent-skip", test_child_skip_is_parent_skip);
  g_test_add_func ("/trap/watchdog-names-the-hang", test_watchdog_names_the_hang);
  return g_test_run ();
}
