/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A hang becomes a failure that says where. A test that waits on real
 * processes (sshd, ssh, a stand-in tool) arms the watchdog; if it is still
 * armed when its time is up, the watchdog prints the test, what it was
 * doing and every process below this one with its state and what it waits
 * in, then aborts: minutes, not meson's timeout, and a log to read.
 *
 * WS_TEST_TIME_SCALE (a whole number, 1 by default) stretches every bound
 * for slow builds (AddressSanitizer, valgrind). */

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ws-test-watchdog.h"

static GMutex lock;
static GCond changed;
static GThread *thread;
static gint64 due;      /* monotonic µs; 0 when disarmed */
static char *what;      /* what the armed test does */
static char *test_path; /* the test that armed it */
static guint armed_s;

static guint
time_scale (void)
{
  const char *value = g_getenv ("WS_TEST_TIME_SCALE");
  guint64 scale = 1;

  if (value != NULL && g_ascii_string_to_unsigned (value, 10, 1, 100, &scale, NULL))
    return (guint) scale;
  return 1;
}

static char *
proc_text (const char *pid, const char *name)
{
  g_autofree char *path = g_build_filename ("/proc", pid, name, NULL);
  char *text = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &text, &len, NULL))
    return g_strdup ("?");
  /* cmdline separates its words with NULs. */
  for (gsize i = 0; i + 1 < len; i++)
    if (text[i] == '\0')
      text[i] = ' ';
  return g_strchomp (text);
}

/* The parent pid and state of /proc/@pid/stat ("pid (comm) S ppid …"). */
static gboolean
proc_parent (const char *pid, int *ppid, char *state)
{
  g_autofree char *stat = proc_text (pid, "stat");
  const char *end = strrchr (stat, ')');

  if (end == NULL || sscanf (end + 1, " %c %d", state, ppid) != 2)
    return FALSE;
  return TRUE;
}

static gboolean
descends_from (int pid, int ancestor)
{
  for (guint depth = 0; pid > 1 && depth < 64; depth++)
    {
      g_autofree char *name = g_strdup_printf ("%d", pid);
      char state;
      int ppid;

      if (pid == ancestor)
        return TRUE;
      if (!proc_parent (name, &ppid, &state))
        return FALSE;
      pid = ppid;
    }
  return pid == ancestor;
}

static void
print_processes (void)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  g_autoptr (GDir) tasks = g_dir_open ("/proc/self/task", 0, NULL);
  const char *name;
  int self = (int) getpid ();

  while (tasks != NULL && (name = g_dir_read_name (tasks)) != NULL)
    {
      g_autofree char *task = g_build_filename ("self/task", name, NULL);
      g_autofree char *wchan = proc_text (task, "wchan");
      g_autofree char *comm = proc_text (task, "comm");

      g_printerr ("watchdog:   thread %s (%s) waits in %s\n", name, comm, wchan);
    }
  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      int pid = atoi (name);
      int ppid;
      char state;

      if (pid <= 0 || pid == self || !proc_parent (name, &ppid, &state) ||
          !descends_from (ppid, self))
        continue;
      {
        g_autofree char *cmdline = proc_text (name, "cmdline");
        g_autofree char *wchan = proc_text (name, "wchan");

        g_printerr ("watchdog:   %d (parent %d, %c, waits in %s): %.300s\n", pid, ppid, state,
                    wchan, cmdline);
      }
    }
}

static gpointer
watch (gpointer data)
{
  g_mutex_lock (&lock);
  for (;;)
    {
      if (due == 0)
        {
          g_cond_wait (&changed, &lock);
          continue;
        }
      if (g_cond_wait_until (&changed, &lock, due))
        continue;
      if (due != 0 && g_get_monotonic_time () >= due)
        break;
    }
  g_printerr ("watchdog: %s: %s is still going after %u s; the processes below this test:\n",
              test_path, what, armed_s);
  print_processes ();
  abort ();
  return data;
}

/**
 * ws_test_watchdog_arm:
 * @seconds: how long the test may take (times WS_TEST_TIME_SCALE)
 * @what: what it does, for the message
 *
 * Arms (or arms again) the watchdog for the running test.
 */
void
ws_test_watchdog_arm (guint seconds, const char *what_)
{
  g_mutex_lock (&lock);
  if (thread == NULL)
    thread = g_thread_new ("ws-watchdog", watch, NULL);
  armed_s = seconds * time_scale ();
  due = g_get_monotonic_time () + (gint64) armed_s * G_USEC_PER_SEC;
  g_free (what);
  what = g_strdup (what_);
  g_free (test_path);
  test_path = g_strdup (g_test_get_path ());
  g_cond_signal (&changed);
  g_mutex_unlock (&lock);
}

void
ws_test_watchdog_disarm (void)
{
  g_mutex_lock (&lock);
  due = 0;
  g_cond_signal (&changed);
  g_mutex_unlock (&lock);
}
