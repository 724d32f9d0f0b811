/* SPDX-License-Identifier: GPL-3.0-or-later */
/* posix_openpt(), grantpt(), unlockpt(), ptsname() */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "ws-test-util.h"

/* `warpscope-cli digest` for real: with threads and under a real mpirun
 * (three processes on this machine, --oversubscribe), with a corrupt
 * export among good ones, an MPI process killed mid-run, and runs
 * interrupted before they could finish. */

static char *tmp;
static char *job_dir;
static char *serial; /* the digest of job_dir made with threads */

static const char *
cli (void)
{
  return ws_test_cli ();
}

/* Every mpirun below passes -x ASAN_OPTIONS=detect_leaks=0: Open MPI's
 * allocations in MPI_Init are its own, and ASan's fast unwinder cannot
 * tell them from ours (the threads' digest keeps its leak check). */
static char *
mpirun (void)
{
  return g_find_program_in_path ("mpirun");
}

/* Every table of a digest as text, in a fixed order, without what differs
 * from one run to the next (when and how it was made, seconds taken). */
static char *
dump (const char *path)
{
  static const char *const queries[] = {
    "SELECT key, value FROM digest WHERE key NOT IN ('created', 'method', 'seconds', 'host')"
    " ORDER BY key",
    "SELECT * FROM notes ORDER BY idx",
    "SELECT id, rank, file, path, size, mtime_ns, checksum, error, pid, process, host, job, gpus,"
    " numbered_by, session_start_ns, clock_offset_ns, world_size, command, env,"
    " thread_rank_name, origin_ns, end_ns, events, gpu_time_ns, kernel_ns, comm_ns,"
    " comm_hidden_ns, wait_ns, idle_ns, wait_source, step_pattern, steady_steps,"
    " step_median_ns, wait_median_ns, work_median_ns, scope, series_start_ns, series_bin_ns,"
    " hex (gpu_busy), hex (comm) FROM ranks ORDER BY id",
    "SELECT * FROM steps ORDER BY rank_id, idx",
    "SELECT * FROM ranges ORDER BY rank_id, idx",
    "SELECT * FROM collectives ORDER BY rank_id, idx",
    "SELECT rank_id, report, idx, name, style, count, total, min, max, avg, med, stddev,"
    " hex (sketch) FROM summary_rows ORDER BY rank_id, report, idx",
    "SELECT * FROM summary_left_out ORDER BY rank_id, report",
    "SELECT * FROM findings ORDER BY rank_id, idx",
    "SELECT * FROM finding_evidence ORDER BY rank_id, finding, idx",
    "SELECT * FROM finding_nvtx ORDER BY rank_id, finding, idx",
    "SELECT * FROM finding_ranges ORDER BY rank_id, finding, idx",
    "SELECT * FROM finding_notes ORDER BY rank_id, finding, idx",
  };
  GString *out = g_string_new (NULL);
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  for (gsize q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      sqlite3_stmt *stmt = NULL;

      g_assert_cmpint (sqlite3_prepare_v2 (db, queries[q], -1, &stmt, NULL), ==, SQLITE_OK);
      g_string_append_printf (out, "== %s\n", queries[q]);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          for (int c = 0; c < sqlite3_column_count (stmt); c++)
            {
              const char *v = (const char *) sqlite3_column_text (stmt, c);

              g_string_append_printf (out, "%s%s", c > 0 ? "|" : "", v != NULL ? v : "NULL");
            }
          g_string_append_c (out, '\n');
        }
      sqlite3_finalize (stmt);
    }
  sqlite3_close (db);
  return g_string_free (out, FALSE);
}

/* The part of a dump() from @header to the next table's. */
static char *
section (const char *dump_text, const char *header)
{
  const char *from = strstr (dump_text, header);
  const char *to;

  g_assert_nonnull (from);
  to = strstr (from + 3, "\n== ");
  return to != NULL ? g_strndup (from, to - from) : g_strdup (from);
}

static void
run_ok (const char *const *argv, WsTestRun *run)
{
  ws_test_run_bounded (argv, 300, run);
  if (run->status != 0)
    g_printerr ("%s\n%s\n", run->out, run->err);
  g_assert_cmpint (run->status, ==, 0);
}

static void
unpack (void)
{
  const char *argv[] = { cli (), "digest", "-o", NULL, NULL, NULL };
  WsTestRun run;

  job_dir = g_build_filename (tmp, "job", NULL);
  g_assert_cmpint (g_mkdir (job_dir, 0700), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);
      g_autofree char *path = ws_test_unxz (xz, job_dir);
    }
  serial = g_build_filename (tmp, "serial.wsdigest", NULL);
  argv[3] = serial;
  argv[4] = job_dir;
  run_ok (argv, &run);
  g_assert_nonnull (strstr (run.out, "4 of 4 exports digested"));
  ws_test_run_clear (&run);
}

static char *
output_of (const char *const *argv)
{
  WsTestRun run;
  char *out;

  run_ok (argv, &run);
  out = g_steal_pointer (&run.out);
  ws_test_run_clear (&run);
  return out;
}

/* ranks, stats --rank and diagnose read the digest as they read the
 * exports: the same tables, nsys stats' own CSV, the same findings. */
static void
test_commands_read_digest (void)
{
  g_autofree char *r0 = g_build_filename (job_dir, "rank0.sqlite", NULL);
  g_autofree char *r1 = g_build_filename (job_dir, "rank1.sqlite", NULL);
  g_autofree char *r2 = g_build_filename (job_dir, "rank2.sqlite", NULL);
  g_autofree char *r3 = g_build_filename (job_dir, "rank3.sqlite", NULL);
  const char *ranks_exports[] = { cli (), "ranks", r0, r1, r2, r3, NULL };
  const char *ranks_digest[] = { cli (), "ranks", serial, NULL };
  const char *stats_digest[] = { cli (), "stats", "--format", "csv", "--rank", "3", serial, NULL };
  const char *diagnose_digest[] = { cli (), "diagnose", "--rank", "3", serial, NULL };
  const char *diagnose_export[] = { cli (), "diagnose", r3, NULL };
  g_autofree char *a = output_of (ranks_exports);
  g_autofree char *b = output_of (ranks_digest);
  g_autofree char *csv = output_of (stats_digest);
  g_autofree char *truth_path = ws_test_data ("multirank", "rank3_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *truth = ws_test_read (truth_path);
  g_autofree char *d = output_of (diagnose_digest);
  g_autofree char *e = output_of (diagnose_export);

  g_assert_cmpstr (b, ==, a);
  g_assert_nonnull (strstr (b, "Straggler: rank 3"));
  g_assert_cmpstr (csv, ==, truth);
  g_assert_cmpstr (d, ==, e);
}

static gboolean
have_mpi (void)
{
  g_autofree char *path = mpirun ();

  if (!HAVE_MPI || path == NULL)
    {
      g_test_skip ("built without MPI, or no mpirun");
      return FALSE;
    }
  return TRUE;
}

/* mpirun -n 3 --mpi: the same digest, row for row, as with threads. */
static void
test_mpi_equals_serial (void)
{
  g_autofree char *out = g_build_filename (tmp, "mpi3.wsdigest", NULL);
  g_autofree char *launcher = mpirun ();
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  WsTestRun run;

  if (!have_mpi ())
    return;
  {
    const char *argv[] = { launcher,
                           "--oversubscribe",
                           "-x",
                           "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1",
                           "--allow-run-as-root",
                           "-n",
                           "3",
                           cli (),
                           "digest",
                           "--mpi",
                           "-v",
                           "-o",
                           out,
                           job_dir,
                           NULL };

    run_ok (argv, &run);
  }
  g_assert_nonnull (strstr (run.out, "4 of 4 exports digested"));
  g_assert_nonnull (strstr (run.out, "(mpi 3 processes)"));
  /* Each process took some: process 0 on its thread, and the others. */
  g_assert_nonnull (strstr (run.err, "process 0 (pid"));
  g_assert_nonnull (strstr (run.err, "process 1 (pid"));
  g_assert_nonnull (strstr (run.err, "process 2 (pid"));
  ws_test_run_clear (&run);
  a = dump (serial);
  b = dump (out);
  g_assert_cmpstr (b, ==, a);
}

/* An MPI process killed while it digests an export: the others redo it,
 * and the digest is whole (mpirun --enable-recovery lets them run on). */
static gboolean
kill_one_worker (const char *out, char **err_out)
{
  g_autofree char *launcher = mpirun ();
  g_autofree char *timeout = g_find_program_in_path ("timeout");
  /* Open MPI 4.1's recovery mode now and then keeps mpirun from ending
   * after a process was killed (about one run in three under load): a
   * run that outlives 60 s is ended and counts as one that proves
   * nothing, as a kill that came too late does. */
  const char *argv[] = { timeout,
                         "-k",
                         "5",
                         "60",
                         launcher,
                         "--oversubscribe",
                         "-x",
                         "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1",
                         "--allow-run-as-root",
                         "--enable-recovery",
                         "-n",
                         "3",
                         cli (),
                         "digest",
                         "--mpi",
                         "-v",
                         "--mpi-timeout",
                         "2",
                         "-o",
                         out,
                         job_dir,
                         NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) process = g_subprocess_newv (
    argv, G_SUBPROCESS_FLAGS_STDERR_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  g_autoptr (GDataInputStream) lines = NULL;
  g_autoptr (GString) err = g_string_new (NULL);
  g_autofree char *victim_file = NULL;
  gint64 victim = 0;
  gboolean in_time = TRUE;
  char *line;

  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (process));
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, NULL)) != NULL)
    {
      const char *takes = strstr (line, "process 1 (pid ");

      g_string_append_printf (err, "%s\n", line);
      if (victim == 0 && takes != NULL && strstr (line, ") takes ") != NULL)
        {
          victim = g_ascii_strtoll (takes + strlen ("process 1 (pid "), NULL, 10);
          victim_file = g_strdup (strstr (line, ") takes ") + strlen (") takes "));
          g_assert_cmpint (kill ((pid_t) victim, SIGKILL), ==, 0);
        }
      /* Too late: it had finished that export before the signal came. */
      if (victim_file != NULL && strstr (line, "process 1 (pid") != NULL &&
          strstr (line, "done with") != NULL)
        in_time = FALSE;
      g_free (line);
    }
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  if (g_subprocess_get_exit_status (process) == 124 ||
      g_subprocess_get_exit_status (process) == 137)
    {
      g_test_message ("mpirun did not end within 60 s after the kill; again");
      *err_out = g_string_free (g_steal_pointer (&err), FALSE);
      return FALSE;
    }
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  g_assert_cmpint (victim, >, 0);
  *err_out = g_string_free (g_steal_pointer (&err), FALSE);
  return in_time;
}

static void
test_mpi_process_killed (void)
{
  g_autofree char *out = g_build_filename (tmp, "killed.wsdigest", NULL);
  g_autofree char *err = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  gboolean in_time = FALSE;

  if (!have_mpi ())
    return;
  /* The kill races the export's reading (a few tenths of a second): when
   * it lands after, the run proves nothing, and goes again. */
  for (guint attempt = 0; attempt < 6 && !in_time; attempt++)
    {
      g_clear_pointer (&err, g_free);
      in_time = kill_one_worker (out, &err);
    }
  g_assert_true (in_time);
  g_assert_nonnull (strstr (err, "MPI process 1 (pid"));
  g_assert_nonnull (strstr (err, "stopped answering while digesting"));
  a = dump (serial);
  b = dump (out);
  /* Whole: what the threads made, and a note on the process lost. */
  g_assert_nonnull (strstr (b, "stopped answering while digesting"));
  {
    g_autofree char *ranks_a = section (a, "== SELECT id, rank");
    g_autofree char *ranks_b = section (b, "== SELECT id, rank");
    g_autofree char *findings_a = section (a, "== SELECT * FROM findings");
    g_autofree char *findings_b = section (b, "== SELECT * FROM findings");

    g_assert_cmpstr (ranks_b, ==, ranks_a);
    g_assert_cmpstr (findings_b, ==, findings_a);
  }
}

static GPtrArray *
leftovers (const char *dir, const char *name)
{
  g_autoptr (GPtrArray) all = ws_test_list_dir (dir);
  g_autofree char *prefix = g_strdup_printf (".%s.", name);
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < all->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (all, i), prefix))
      g_ptr_array_add (found, g_strdup (g_ptr_array_index (all, i)));
  return found;
}

/* Without --enable-recovery, mpirun ends every process when one dies:
 * nothing is written, the digest already there stays as it was. */
static void
test_mpi_aborted_writes_nothing (void)
{
  g_autofree char *dir = g_build_filename (tmp, "aborted", NULL);
  g_autofree char *out = g_build_filename (dir, "job.wsdigest", NULL);
  g_autofree char *launcher = mpirun ();
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr (GPtrArray) left = NULL;
  const char *argv[] = { launcher,
                         "--oversubscribe",
                         "-x",
                         "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1",
                         "--allow-run-as-root",
                         "-n",
                         "3",
                         cli (),
                         "digest",
                         "--mpi",
                         "-v",
                         "-o",
                         out,
                         job_dir,
                         NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GDataInputStream) lines = NULL;
  gboolean killed = FALSE;
  char *line;

  if (!have_mpi ())
    return;
  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (out, "an older digest", -1, NULL));
  before = ws_test_file_sha256 (out);
  process = g_subprocess_newv (
    argv, G_SUBPROCESS_FLAGS_STDERR_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (process));
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, NULL)) != NULL)
    {
      const char *takes = strstr (line, "process 2 (pid ");

      if (!killed && takes != NULL && strstr (line, ") takes ") != NULL)
        {
          gint64 pid = g_ascii_strtoll (takes + strlen ("process 2 (pid "), NULL, 10);

          g_assert_cmpint (kill ((pid_t) pid, SIGKILL), ==, 0);
          killed = TRUE;
        }
      g_free (line);
    }
  g_subprocess_wait (process, NULL, &error);
  g_assert_true (killed);
  g_assert_false (g_subprocess_get_if_exited (process) &&
                  g_subprocess_get_exit_status (process) == 0);
  after = ws_test_file_sha256 (out);
  g_assert_cmpstr (after, ==, before);
  left = leftovers (dir, "job.wsdigest");
  g_assert_cmpuint (left->len, ==, 0);
}

/* When a run of `digest --threads 1` gets its SIGINT: each an event of
 * the run, not a delay. */
typedef enum
{
  AT_ONCE,      /* as soon as it is started, before its handlers may be */
  AFTER_ONE,    /* once it says it digested its first export */
  AT_TEMPORARY, /* once its temporary digest appears beside the output */
} Moment;

/* Waits for @fd to be readable; the bound is only for a program that died
 * before the event, which otherwise comes within a second or two. */
static void
wait_readable (int fd, const char *what)
{
  struct pollfd p = { fd, POLLIN, 0 };
  int n;

  do
    n = poll (&p, 1, 120 * 1000);
  while (n < 0 && errno == EINTR);
  if (n == 0)
    g_error ("no %s within 120 s", what);
  g_assert_cmpint (n, ==, 1);
}

/* Runs `digest` into @out (in @dir, holding an older file of that name),
 * sends SIGINT at @when and returns whether the older file stayed.  Its
 * stderr is a pseudo-terminal: `digest` shows its progress ("Digested
 * rank3.sqlite 25%") only on one. */
static gboolean
interrupt_at (const char *dir, const char *out, Moment when)
{
  const char *argv[] = { cli (), "digest", "--threads", "1", "-o", out, job_dir, NULL };
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) said = g_string_new (NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr (GPtrArray) left = NULL;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  int watch = inotify_init1 (IN_CLOEXEC);
  gboolean sent = FALSE;
  char buf[4096] __attribute__ ((aligned (__alignof__(struct inotify_event))));
  ssize_t len;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  g_assert_cmpint (watch, >=, 0);
  g_assert_cmpint (inotify_add_watch (watch, dir, IN_CREATE), >=, 0);
  g_assert_true (g_file_set_contents (out, "an older digest", -1, NULL));
  before = ws_test_file_sha256 (out);
  g_subprocess_launcher_take_stderr_fd (launcher,
                                        open (ptsname (master), O_RDWR | O_NOCTTY | O_CLOEXEC));
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  /* The launcher holds the terminal's other end: gone with it, the
   * terminal reads end of file (EIO) once the program has ended. */
  g_clear_object (&launcher);

  if (when == AT_ONCE)
    {
      g_subprocess_send_signal (process, SIGINT);
      sent = TRUE;
    }
  while (!sent && when == AFTER_ONE)
    {
      wait_readable (master, "progress line");
      len = read (master, buf, sizeof buf - 1);
      if (len <= 0)
        break;
      buf[len] = '\0';
      g_string_append (said, buf);
      if (strstr (said->str, "Digested ") != NULL && strchr (strstr (said->str, "Digested "), '%'))
        {
          g_subprocess_send_signal (process, SIGINT);
          sent = TRUE;
        }
    }
  while (!sent && when == AT_TEMPORARY)
    {
      g_autofree char *prefix = g_strdup_printf (".%s.", strrchr (out, '/') + 1);

      wait_readable (watch, "temporary digest");
      len = read (watch, buf, sizeof buf);
      g_assert_cmpint (len, >, 0);
      for (char *p = buf; p < buf + len && !sent;)
        {
          const struct inotify_event *e = (const struct inotify_event *) (gpointer) p;

          if (e->len > 0 && g_str_has_prefix (e->name, prefix))
            {
              g_subprocess_send_signal (process, SIGINT);
              sent = TRUE;
            }
          p += sizeof (struct inotify_event) + e->len;
        }
    }
  g_assert_true (sent);
  /* Read the terminal to its end, so that the program never waits on it. */
  while ((len = read (master, buf, sizeof buf)) > 0 || (len < 0 && errno == EINTR))
    ;
  close (master);
  close (watch);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);

  after = ws_test_file_sha256 (out);
  left = leftovers (dir, "job.wsdigest");
  g_assert_cmpuint (left->len, ==, 0);
  if (g_strcmp0 (after, before) == 0)
    {
      /* Interrupted: exit status 1 (or, before the handlers were set, the
       * signal's own end), nothing written. */
      if (g_subprocess_get_if_exited (process))
        g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
      else
        g_assert_cmpint (g_subprocess_get_term_sig (process), ==, SIGINT);
      return TRUE;
    }
  {
    g_autofree char *text = dump (out);

    g_assert_true (g_subprocess_get_if_exited (process));
    g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
    g_assert_nonnull (strstr (text, "rank3.sqlite"));
  }
  return FALSE;
}

/* Ctrl+C during a run with threads: the digest there before stays, or the
 * new one is there whole; no temporary file is left.  Started, or after
 * its first of four exports (the three others take far longer than the
 * signal takes to be handled), the run is interrupted; once it writes, it
 * finishes. */
static void
test_threads_interrupted (void)
{
  g_autofree char *dir = g_build_filename (tmp, "interrupted", NULL);
  g_autofree char *out = g_build_filename (dir, "job.wsdigest", NULL);

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  g_assert_true (interrupt_at (dir, out, AT_ONCE));
  g_assert_true (interrupt_at (dir, out, AFTER_ONE));
  g_assert_false (interrupt_at (dir, out, AT_TEMPORARY));
}

/* A truncated export and a text file named .sqlite among good ones: the
 * digest of the good ones is written, the bad ones are rows with their
 * error and are listed; exit status 1. */
static void
test_corrupt_export (void)
{
  g_autofree char *dir = g_build_filename (tmp, "corrupt", NULL);
  g_autofree char *out = g_build_filename (tmp, "corrupt.wsdigest", NULL);
  g_autofree char *bad = g_build_filename (dir, "rank2.sqlite", NULL);
  g_autofree char *text = g_build_filename (dir, "rank3.sqlite", NULL);
  const char *argv[] = { cli (), "digest", "-o", out, dir, NULL };
  g_autofree char *errors = NULL;
  g_autofree char *data = NULL;
  WsTestRun run;
  gsize len;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *from = g_strdup_printf ("%s/rank%u.sqlite", job_dir, r);
      g_autofree char *to = g_strdup_printf ("%s/rank%u.sqlite", dir, r);

      g_assert_cmpint (symlink (from, to), ==, 0);
    }
  {
    g_autofree char *from = g_build_filename (job_dir, "rank2.sqlite", NULL);

    g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  }
  g_assert_true (g_file_set_contents (bad, data, (gssize) len / 4, NULL));
  g_assert_true (g_file_set_contents (text, "not an export\n", -1, NULL));
  ws_test_run_bounded (argv, 300, &run);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "2 of 4 exports digested"));
  g_assert_nonnull (strstr (run.err, bad));
  g_assert_nonnull (strstr (run.err, text));
  ws_test_run_clear (&run);
  errors = ws_test_sqlite_text (out, "SELECT count(*) FROM ranks WHERE error IS NOT NULL");
  g_assert_cmpstr (errors, ==, "2");
  {
    /* The two good ranks open; what the digest lacks is said. */
    const char *ranks[] = { cli (), "ranks", "--format", "csv", out, NULL };

    ws_test_run_bounded (ranks, 60, &run);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\n0,"));
    g_assert_nonnull (strstr (run.out, "\n1,"));
    g_assert_null (strstr (run.out, "\n2,"));
    g_assert_nonnull (strstr (run.err, "not in the digest"));
    ws_test_run_clear (&run);
  }
}

/* One line, exit status 2, nothing written. */
static void
test_bad_input (void)
{
  g_autofree char *empty = g_build_filename (tmp, "empty", NULL);
  g_autofree char *missing = g_build_filename (tmp, "no-such-folder", NULL);
  g_autofree char *out = g_build_filename (tmp, "bad.wsdigest", NULL);
  struct
  {
    const char *args[3];
    const char *says;
  } cases[] = {
    { { missing, NULL }, "no-such-folder" },
    { { empty, NULL }, "no nsys export" },
    { { "-o", "digest.txt", NULL }, "ends in .wsdigest" },
  };

  g_assert_cmpint (g_mkdir (empty, 0700), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) argv = g_ptr_array_new ();
      WsTestRun run;

      g_ptr_array_add (argv, (gpointer) cli ());
      g_ptr_array_add (argv, "digest");
      if (g_strcmp0 (cases[i].args[0], "-o") != 0)
        {
          g_ptr_array_add (argv, "-o");
          g_ptr_array_add (argv, out);
        }
      for (guint a = 0; cases[i].args[a] != NULL; a++)
        g_ptr_array_add (argv, (gpointer) cases[i].args[a]);
      if (g_strcmp0 (cases[i].args[0], "-o") == 0)
        g_ptr_array_add (argv, job_dir);
      g_ptr_array_add (argv, NULL);
      ws_test_run_bounded ((const char *const *) argv->pdata, 60, &run);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_nonnull (strstr (run.err, cases[i].says));
      {
        g_auto (GStrv) lines = g_strsplit (g_strstrip (run.err), "\n", -1);

        g_assert_cmpuint (g_strv_length (lines), ==, 1);
      }
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      ws_test_run_clear (&run);
    }
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  unpack ();
  g_test_add_func ("/cli-digest/threads/ranks-stats-diagnose-read-it", test_commands_read_digest);
  g_test_add_func ("/cli-digest/mpi/three-processes-equal-threads", test_mpi_equals_serial);
  g_test_add_func ("/cli-digest/mpi/process-killed-mid-run-is-redone", test_mpi_process_killed);
  g_test_add_func ("/cli-digest/mpi/aborted-job-writes-nothing", test_mpi_aborted_writes_nothing);
  g_test_add_func ("/cli-digest/threads/interrupted-writes-nothing-half-done",
                   test_threads_interrupted);
  g_test_add_func ("/cli-digest/faults/corrupt-export-listed", test_corrupt_export);
  g_test_add_func ("/cli-digest/bad-input/one-line-exit-2", test_bad_input);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  g_free (job_dir);
  g_free (serial);
  return status;
}
