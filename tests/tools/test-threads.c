/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Work on worker threads: what the main context owns is released on it,
 * and a cancelled worker stops, lets go of what it holds and kills the
 * tool it waits for. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-tool-query.h"
#include "ws-doctor.h"
#include "ws-findings.h"
#include "ws-run-loader.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

static GThread *main_thread;

typedef struct
{
  guint notified;          /* progress_notify calls */
  guint notified_off_main; /* of them, on another thread than the main one */
  gboolean done;
  gboolean notified_before_done;
} Load;

static void
progress_cb (double fraction, const char *what, gpointer data)
{
}

static void
notify_cb (gpointer data)
{
  Load *load = data;

  load->notified++;
  if (g_thread_self () != main_thread)
    load->notified_off_main++;
}

static void
loaded_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Load *load = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load_finish (result, &error);

  g_assert_no_error (error);
  load->notified_before_done = load->notified == 1;
  load->done = TRUE;
}

/* The window gives its progress data (itself) to the loader: it must come
 * back on the main thread, before the load's callback, however GLib drops
 * the task's references (the worker's may go last). */
static void
test_load_progress_data_released_on_main (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2021.2_mordred.sqlite", NULL);
  const char *paths[] = { path, NULL };
  guint off_main = 0, loads = 50;

  for (guint i = 0; i < loads; i++)
    {
      Load load = { 0 };

      ws_run_load_async (paths, WS_LOAD_ALL, NULL, progress_cb, &load, notify_cb, loaded_cb, &load);
      /* Polled: before, the notification could come on the worker, with
       * nothing to wake the main loop. */
      while (!load.done || g_atomic_int_get ((int *) &load.notified) == 0)
        {
          g_main_context_iteration (NULL, FALSE);
          g_usleep (100);
        }
      /* What the worker may still hold goes now; nothing more is notified. */
      for (int spin = 0; spin < 20; spin++)
        {
          g_usleep (500);
          while (g_main_context_pending (NULL))
            g_main_context_iteration (NULL, FALSE);
        }
      g_assert_cmpuint (load.notified, ==, 1);
      g_assert_true (load.notified_before_done);
      off_main += load.notified_off_main;
    }
  g_test_message ("%u loads: progress data released off the main thread %u times", loads, off_main);
  g_assert_cmpuint (off_main, ==, 0);
}

typedef struct
{
  gboolean done;
  GError *error;
} Findings;

static void
findings_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Findings *f = data;
  g_autoptr (GPtrArray) findings = ws_findings_compute_finish (result, &f->error);

  f->done = TRUE;
}

/* Cancelled, the findings' worker stops and lets the run go.  Before,
 * the task returned at once but its worker computed everything, holding
 * the run.  No clock tells it here: the run's kernel start times are taken
 * away while the cancelled tasks run (NULL with their count kept), so a
 * worker that read a kernel would crash the test; and the run is let go
 * (its count of references back to the test's one) before the next task. */
static void
test_findings_cancel_stops_worker (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2026.2_nsysai_mfu_after.sqlite");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  Findings f = { 0 };
  gint64 *starts;
  guint rounds = 20;

  /* Cancelled beforehand, the synchronous form computes nothing. */
  g_cancellable_cancel (cancellable);
  g_assert_null (ws_findings_compute_cancellable (run, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* Not cancelled, the findings read the kernels: there are some. */
  {
    g_autoptr (GPtrArray) findings = ws_findings_compute (run);

    g_autofree char *path = ws_test_data ("nsys", "v2026.2_nsysai_mfu_after.sqlite", NULL);

    g_assert_cmpint ((gint64) run->kernels.n, ==,
                     ws_test_sqlite_count (path, "CUPTI_ACTIVITY_KIND_KERNEL"));
    g_assert_cmpuint (findings->len, >, 0);
  }

  starts = run->kernels.start;
  run->kernels.start = NULL;
  for (guint i = 0; i < rounds; i++)
    {
      g_autoptr (GCancellable) cancel = g_cancellable_new ();

      memset (&f, 0, sizeof f);
      g_cancellable_cancel (cancel);
      ws_findings_compute_async (run, cancel, findings_cb, &f);
      ws_test_wait_flag (&f.done, 60, "the cancelled findings");
      g_assert_error (f.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&f.error);
      /* The worker's reference to the run is the task's: it goes when the
       * worker is done with it, an event waited for (the test's own time
       * bound is meson's). */
      while (g_atomic_int_get ((int *) &run->ref_count) > 1)
        g_usleep (200);
    }
  run->kernels.start = starts;
}

/* A tool that never answers: it writes its process id, then sleeps. */
static char *
hanging_tool (const char *dir, const char *name, const char *pids)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\necho $$ >> '%s'\nexec sleep 300\n", pids);

  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

static GPid
first_pid (const char *path)
{
  g_autofree char *text = NULL;

  while (!g_file_get_contents (path, &text, NULL, NULL) || text[0] == '\0')
    {
      g_clear_pointer (&text, g_free);
      g_usleep (10000);
    }
  return (GPid) g_ascii_strtoll (text, NULL, 10);
}

typedef struct
{
  gboolean done;
  GError *error;
  gpointer result;
} Async;

static void
doctor_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Async *a = data;

  a->result = ws_doctor_run_finish (result, &a->error);
  a->done = TRUE;
}

static void
probe_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Async *a = data;

  a->result = ws_tool_probe_finish (result, &a->error);
  a->done = TRUE;
}

/* Cancels once the tool runs, then waits for the answer: it must come
 * well before the 30 s a tool is given to answer, and the tool be gone. */
static double
cancel_when_asked (GCancellable *cancellable, const char *pids, Async *a)
{
  GPid pid = first_pid (pids);
  gint64 cancelled_at;

  g_cancellable_cancel (cancellable);
  cancelled_at = g_get_monotonic_time ();
  while (!a->done)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
      g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <, 10 * G_USEC_PER_SEC);
    }
  g_assert_false (ws_test_process_alive (pid));
  return (double) (g_get_monotonic_time () - cancelled_at) / G_USEC_PER_SEC;
}

/* The doctor asks nsys its version: cancelled meanwhile, it kills nsys and
 * answers G_IO_ERROR_CANCELLED. */
static void
test_doctor_cancel_kills_tool (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *pids = g_build_filename (dir, "pids", NULL);
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  Async a = { 0 };
  double waited;

  settings->nsys_path = hanging_tool (dir, "nsys", pids);
  settings->ncu_path = hanging_tool (dir, "ncu", pids);
  ws_doctor_run_async (settings, dir, NULL, cancellable, doctor_cb, &a);
  waited = cancel_when_asked (cancellable, pids, &a);
  g_test_message ("the doctor answered %.2f s after the cancel", waited);
  g_assert_null (a.result);
  g_assert_error (a.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&a.error);
  ws_test_rmtree (dir);
}

/* The runner's probe of the tools: likewise. */
static void
test_probe_cancel_kills_tool (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *pids = g_build_filename (dir, "pids", NULL);
  g_autofree char *nsys = hanging_tool (dir, "nsys", pids);
  g_autofree char *ncu = hanging_tool (dir, "ncu", pids);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  Async a = { 0 };
  double waited;

  ws_tool_probe_async (nsys, ncu, cancellable, probe_cb, &a);
  waited = cancel_when_asked (cancellable, pids, &a);
  g_test_message ("the probe answered %.2f s after the cancel", waited);
  g_assert_null (a.result);
  g_assert_error (a.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&a.error);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  main_thread = g_thread_self ();
  g_test_add_func ("/threads/load/progress-data-released-on-main-context",
                   test_load_progress_data_released_on_main);
  g_test_add_func ("/threads/findings/cancel-stops-worker", test_findings_cancel_stops_worker);
  g_test_add_func ("/threads/doctor/cancel-kills-tool", test_doctor_cancel_kills_tool);
  g_test_add_func ("/threads/tools/probe-cancel-kills-tool", test_probe_cancel_kills_tool);
  return g_test_run ();
}
