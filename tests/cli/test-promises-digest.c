/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include "ws-test-util.h"

/* `warpscope-cli digest` as the README, the man page and docs/digest.md
 * promise it: -j N, the default output name, the 1,000-row cap, an export
 * lost twice given up. */

static char *tmp;
static char *job_dir;

static const char *
job (void)
{
  if (job_dir != NULL)
    return job_dir;
  job_dir = g_build_filename (tmp, "run42", NULL);
  g_assert_cmpint (g_mkdir (job_dir, 0700), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

      g_free (ws_test_unxz (xz, job_dir));
    }
  return job_dir;
}

/* Runs warpscope-cli with @args in the folder @cwd; returns its output. */
static char *
cli_in (const char *cwd, const char *const *args, int expected_status)
{
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  if (cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, cwd);
  process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (process) ||
      g_subprocess_get_exit_status (process) != expected_status)
    g_error ("warpscope-cli %s: exit status %d, expected %d; stderr: %s", args[0],
             g_subprocess_get_exit_status (process), expected_status, err);
  return g_steal_pointer (&out);
}

/* Without -o the digest is named after the job's folder (run42 →
 * run42.wsdigest) and written in the current folder, never beside the
 * exports; given files, after the folder that holds them. */
static void
test_default_name (void)
{
  g_autofree char *here = g_build_filename (tmp, "here", NULL);
  g_autofree char *there = g_build_filename (tmp, "there", NULL);
  g_autofree char *expected = g_build_filename (here, "run42.wsdigest", NULL);
  g_autofree char *expected_there = g_build_filename (there, "run42.wsdigest", NULL);
  g_autofree char *beside = g_build_filename (job (), "run42.wsdigest", NULL);
  g_autofree char *r0 = g_build_filename (job (), "rank0.sqlite", NULL);
  g_autofree char *r1 = g_build_filename (job (), "rank1.sqlite", NULL);
  const char *dir_args[] = { "digest", job (), NULL };
  const char *file_args[] = { "digest", r0, r1, NULL };
  g_autoptr (GPtrArray) listed = NULL;

  g_assert_cmpint (g_mkdir (here, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (there, 0700), ==, 0);
  g_free (cli_in (here, dir_args, 0));
  g_assert_true (g_file_test (expected, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (beside, G_FILE_TEST_EXISTS));
  /* Four ranks in it, one row each. */
  g_assert_cmpint (ws_test_sqlite_count (expected, "ranks"), ==, 4);
  listed = ws_test_list_dir (here);
  g_assert_cmpuint (listed->len, ==, 1);

  g_free (cli_in (there, file_args, 0));
  g_assert_true (g_file_test (expected_there, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (ws_test_sqlite_count (expected_there, "ranks"), ==, 2);
  g_assert_false (g_file_test (beside, G_FILE_TEST_EXISTS));
}

/* @csv (ranks --format csv of a digest in @dir) with each file named as
 * the exports name it: a digest keeps them relative to its own folder. */
static char *
files_resolved (const char *csv, const char *dir)
{
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) cells = g_strsplit (lines[i], ",", 3);

      if (i > 0 && g_ascii_isdigit (lines[i][0]) && g_strv_length (cells) == 3 &&
          !g_path_is_absolute (cells[1]))
        {
          g_autofree char *path = g_build_filename (dir, cells[1], NULL);

          g_string_append_printf (out, "%s,%s,%s", cells[0], path, cells[2]);
        }
      else
        g_string_append (out, lines[i]);
      if (lines[i + 1] != NULL)
        g_string_append_c (out, '\n');
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* -j 1 and -j 3 make digests that read as the exports read: `ranks
 * --format csv` of each equals that of the exports themselves (the files
 * kept relative to the digest's folder). */
static void
test_threads (void)
{
  g_autofree char *one = g_build_filename (tmp, "one.wsdigest", NULL);
  g_autofree char *three = g_build_filename (tmp, "three.wsdigest", NULL);
  const char *one_args[] = { "digest", "-j", "1", "-o", one, job (), NULL };
  const char *three_args[] = { "digest", "-j", "3", "-o", three, job (), NULL };
  const char *bad_args[] = { "digest", "-j", "-2", "-o", three, job (), NULL };
  const char *exports_args[] = { "ranks", "--format", "csv", job (), NULL };
  const char *one_ranks[] = { "ranks", "--format", "csv", one, NULL };
  const char *three_ranks[] = { "ranks", "--format", "csv", three, NULL };
  g_autofree char *exports = NULL;
  g_autofree char *by_one = NULL;
  g_autofree char *by_three = NULL;
  g_autofree char *resolved_one = NULL;
  g_autofree char *resolved_three = NULL;

  g_free (cli_in (NULL, one_args, 0));
  g_free (cli_in (NULL, three_args, 0));
  exports = cli_in (NULL, exports_args, 0);
  by_one = cli_in (NULL, one_ranks, 0);
  by_three = cli_in (NULL, three_ranks, 0);
  g_assert_nonnull (strstr (by_one, "\n0,run42/rank0.sqlite,"));
  resolved_one = files_resolved (by_one, tmp);
  resolved_three = files_resolved (by_three, tmp);
  g_assert_cmpuint (ws_test_count_lines (exports), ==, 6);
  g_assert_cmpstr (resolved_one, ==, exports);
  g_assert_cmpstr (resolved_three, ==, exports);
  g_free (cli_in (NULL, bad_args, 2));
}

/* An export of more than 1,000 kernel names: rank 0 with 1,200 kernels
 * of names of their own added (SQL). The digest keeps the 1,000 largest
 * rows of its kernel summary and counts the rest in summary_left_out; the
 * kept and the left-out totals add up to SQL's sum of kernel durations. */
static void
test_row_cap (void)
{
  g_autofree char *dir = g_build_filename (tmp, "wide", NULL);
  g_autofree char *src = g_build_filename (job (), "rank0.sqlite", NULL);
  g_autofree char *db = g_build_filename (dir, "rank0.sqlite", NULL);
  g_autofree char *out = g_build_filename (tmp, "wide.wsdigest", NULL);
  g_autoptr (GFile) from = g_file_new_for_path (src);
  g_autoptr (GFile) to = g_file_new_for_path (db);
  g_autoptr (GError) error = NULL;
  const char *args[] = { "digest", "-o", out, db, NULL };
  g_autofree char *names = NULL;
  g_autofree char *total = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *left = NULL;
  g_autofree char *left_total = NULL;
  g_autofree char *kept_total = NULL;
  g_autofree char *smallest_kept = NULL;
  g_autofree char *largest_left = NULL;
  g_autofree char *before = NULL;
  gint64 n_names;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  before = ws_test_sqlite_text (db, "SELECT count(DISTINCT demangledName) FROM "
                                    "CUPTI_ACTIVITY_KIND_KERNEL");
  g_assert_nonnull (before);
  /* Each planted kernel copies the first one, with a name of its own, a
   * correlation id no launch has, and a duration of i ns. */
  ws_test_sqlite_exec (
    db,
    "CREATE TABLE ws_seq AS WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s"
    " WHERE i < 1200) SELECT i FROM s;"
    "INSERT INTO StringIds (id, value) SELECT 900000000 + i, 'planted_kernel_' || i FROM ws_seq;"
    "CREATE TABLE ws_k AS SELECT k.*, s.i AS ws_i FROM (SELECT * FROM"
    " CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 1) k CROSS JOIN ws_seq s;"
    "UPDATE ws_k SET demangledName = 900000000 + ws_i, shortName = 900000000 + ws_i,"
    " mangledName = 900000000 + ws_i, correlationId = -ws_i, end = start + ws_i;"
    "ALTER TABLE ws_k DROP COLUMN ws_i;"
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM ws_k;"
    "DROP TABLE ws_k; DROP TABLE ws_seq;");
  names = ws_test_sqlite_text (db, "SELECT count(DISTINCT demangledName) FROM "
                                   "CUPTI_ACTIVITY_KIND_KERNEL");
  total = ws_test_sqlite_text (db, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  n_names = g_ascii_strtoll (names, NULL, 10);
  /* The export's own names and the 1,200 planted. */
  g_assert_cmpint (n_names, ==, g_ascii_strtoll (before, NULL, 10) + 1200);

  g_free (cli_in (NULL, args, 0));
  kept = ws_test_sqlite_text (
    out, "SELECT count(*) FROM summary_rows WHERE report = 'cuda_gpu_kern_sum'");
  left = ws_test_sqlite_text (
    out, "SELECT rows FROM summary_left_out WHERE report = 'cuda_gpu_kern_sum'");
  left_total = ws_test_sqlite_text (
    out, "SELECT total FROM summary_left_out WHERE report = 'cuda_gpu_kern_sum'");
  kept_total = ws_test_sqlite_text (
    out, "SELECT sum(total) FROM summary_rows WHERE report = 'cuda_gpu_kern_sum'");
  g_assert_cmpstr (kept, ==, "1000");
  g_assert_nonnull (left);
  g_assert_cmpint (g_ascii_strtoll (left, NULL, 10), ==, n_names - 1000);
  g_assert_cmpint (g_ascii_strtoll (kept_total, NULL, 10) + g_ascii_strtoll (left_total, NULL, 10),
                   ==, g_ascii_strtoll (total, NULL, 10));
  /* The largest are kept: the 1,000th total by name (SQL) is the smallest
   * kept, and no name left out has more. */
  smallest_kept = ws_test_sqlite_text (
    out, "SELECT min(total) FROM summary_rows WHERE report = 'cuda_gpu_kern_sum'");
  largest_left = ws_test_sqlite_text (
    db, "SELECT t FROM (SELECT sum(end - start) AS t FROM CUPTI_ACTIVITY_KIND_KERNEL"
        " GROUP BY demangledName ORDER BY t DESC LIMIT 1 OFFSET 1000)");
  g_assert_cmpint (g_ascii_strtoll (smallest_kept, NULL, 10), >=,
                   g_ascii_strtoll (largest_left, NULL, 10));
}

/* The export of the "takes" line @line, or NULL: "warpscope-cli: digest:
 * process 1 (pid 123) takes j/rank2.sqlite". */
static const char *
taken (const char *line, int process, gint64 *pid)
{
  g_autofree char *prefix = g_strdup_printf ("warpscope-cli: digest: process %d (pid ", process);
  const char *takes;

  if (!g_str_has_prefix (line, prefix) || (takes = strstr (line, ") takes ")) == NULL)
    return NULL;
  *pid = g_ascii_strtoll (line + strlen (prefix), NULL, 10);
  return takes + strlen (") takes ");
}

/* One run of three MPI processes in which process 1 is killed as it takes
 * its first export, and process 2 as it takes that export again (the
 * coordinator hands a lost export to a waiting process before its own
 * thread, and by then process 2 waits: the other exports take about a
 * second, the loss is seen after --mpi-timeout 2 s). Returns whether both
 * kills came before the export was done and process 0's exit status
 * (@status) is known; @lost is set to the export's path. */
static gboolean
lose_twice (const char *out, char **lost, char **err_out, int *status)
{
  g_autofree char *status_file = g_strconcat (out, ".status", NULL);
  g_autofree char *status_env = g_strconcat ("WS_STATUS_FILE=", status_file, NULL);
  g_autofree char *status_text = NULL;
  g_autofree char *launcher = g_find_program_in_path ("mpirun");
  g_autofree char *timeout = g_find_program_in_path ("timeout");
  const char *argv[] = { timeout, "-k", "5", "60", launcher, "--oversubscribe", "-x",
                         "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1", "-x", status_env,
                         "--allow-run-as-root", "--enable-recovery", "-n", "3", "sh", "-c",
                         /* Process 0's own exit status, which mpirun's
                          * recovery mode does not pass on. */
                         "if [ \"$OMPI_COMM_WORLD_RANK\" = 0 ]; then \"$0\" \"$@\";"
                         " echo $? > \"$WS_STATUS_FILE\"; else exec \"$0\" \"$@\"; fi",
                         ws_test_cli (), "digest", "--mpi", "-v", "--mpi-timeout", "2", "-o", out,
                         job (), NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GDataInputStream) lines = NULL;
  g_autoptr (GString) err = g_string_new (NULL);
  g_autofree char *file = NULL;
  guint kills = 0;
  gboolean in_time = TRUE;
  char *line;

  g_assert_nonnull (launcher);
  process = g_subprocess_newv (
    argv, G_SUBPROCESS_FLAGS_STDERR_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (process));
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, NULL)) != NULL)
    {
      gint64 pid = 0;
      const char *what = taken (line, kills == 0 ? 1 : 2, &pid);

      g_string_append_printf (err, "%s\n", line);
      if (what != NULL && kills < 2 && (kills == 0 || g_str_equal (what, file)))
        {
          if (kills == 0)
            file = g_strdup (what);
          g_assert_cmpint (kill ((pid_t) pid, SIGKILL), ==, 0);
          kills++;
        }
      /* Too late: the export was done before a signal came, or process 0
       * took it again. */
      if (file != NULL && strstr (line, " done with ") != NULL && g_str_has_suffix (line, file))
        in_time = FALSE;
      g_free (line);
    }
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  /* Open MPI 4.1's recovery mode now and then keeps mpirun from ending
   * after a process was killed: timeout ends it, and what process 0 did
   * is in its status file, or the run proves nothing. */
  *status = g_file_get_contents (status_file, &status_text, NULL, NULL)
              ? (int) g_ascii_strtoll (status_text, NULL, 10)
              : -1;
  g_remove (status_file);
  *err_out = g_string_free (g_steal_pointer (&err), FALSE);
  *lost = g_steal_pointer (&file);
  return in_time && kills == 2 && *status >= 0;
}

/* docs/digest.md: "an export lost twice is given up and becomes a row
 * with its error", listed, exit status 1; the other exports are
 * digested. */
static void
test_lost_twice (void)
{
  g_autofree char *out = g_build_filename (tmp, "lost.wsdigest", NULL);
  g_autofree char *lost = NULL;
  g_autofree char *err = NULL;
  g_autofree char *where = NULL;
  g_autofree char *why = NULL;
  g_autofree char *good = NULL;
  int status = 0;
  guint attempt;

  for (attempt = 0; attempt < 5; attempt++)
    {
      g_clear_pointer (&lost, g_free);
      g_clear_pointer (&err, g_free);
      g_remove (out);
      if (lose_twice (out, &lost, &err, &status))
        break;
      g_test_message ("attempt %u proves nothing (status %d):\n%s", attempt, status, err);
    }
  g_assert_cmpuint (attempt, <, 5);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "stopped answering while digesting"));
  where = g_strdup_printf ("SELECT error FROM ranks WHERE path LIKE '%%/%s' OR file LIKE '%%%s'",
                           strrchr (lost, '/') + 1, strrchr (lost, '/') + 1);
  why = ws_test_sqlite_text (out, where);
  g_assert_nonnull (why);
  g_assert_true (g_str_has_prefix (why, lost));
  g_assert_nonnull (strstr (why, ": not digested: MPI process 2 (pid "));
  g_assert_nonnull (strstr (why, "stopped answering while digesting it, the second process to"));
  good = ws_test_sqlite_text (out, "SELECT count(*) FROM ranks WHERE error IS NULL OR error = ''");
  g_assert_cmpstr (good, ==, "3");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();

  g_test_add_func ("/promises-digest/default-name-in-current-folder", test_default_name);
  g_test_add_func ("/promises-digest/threads-j-read-as-the-exports", test_threads);
  g_test_add_func ("/promises-digest/thousand-row-cap-counts-the-rest", test_row_cap);
  g_test_add_func ("/promises-digest/mpi/export-lost-twice-given-up", test_lost_twice);

  status = g_test_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  g_free (job_dir);
  return status;
}
