/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "ws-test-util.h"

/* `warpscope-cli capture` and `doctor` as a user runs them: a real
 * process, with the stand-ins first on PATH. */

static char **
stand_in_env (const char *const *extra)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *path = g_strconcat (stand_ins, ":", g_getenv ("PATH"), NULL);
  char **env = g_get_environ ();

  env = g_environ_setenv (env, "PATH", path, TRUE);
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    {
      const char *eq = strchr (extra[i], '=');
      g_autofree char *name = g_strndup (extra[i], eq - extra[i]);

      env = g_environ_setenv (env, name, eq + 1, TRUE);
    }
  return env;
}

static int
run_cli (const char *cwd, char **env, const char *const *args, char **out, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (cwd, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static char *
write_targets (const char *dir, const char *text)
{
  char *path = g_build_filename (dir, "targets.tsv", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* Two targets: exit status 0, the [STEP x/6] lines of both in order on
 * standard output with the programs' own output among them, and the
 * output tree with its manifests. */
static void
test_two_targets (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *targets = write_targets (dir, "NAME\tCMD\tWORKDIR\tENVS\n"
                                                 "alpha\techo \"alpha says $WORD\"\t-\tWORD=hi\n"
                                                 "beta\techo beta runs\t.\t-\n");
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *args[] = { "capture", "--targets", "targets.tsv", "--topn", "2", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  guint next = 0;
  const char *const names[] = { "alpha", "beta" };
  const char *const files[] = {
    "out/targets/alpha/run.json",
    "out/targets/alpha/nsys/alpha.nsys-rep",
    "out/targets/alpha/nsys/alpha.sqlite",
    "out/targets/alpha/nsys/alpha_cuda_gpu_kern_sum.csv",
    "out/targets/alpha/ncu/barrier_heavy.ncu-rep",
    "out/targets/alpha/ncu/barrier_heavy_ncu_raw.csv",
    "out/targets/alpha/ncu/strided_read.ncu-rep",
    "out/targets/alpha/ncu/strided_read_ncu_raw.csv",
    "out/targets/beta/run.json",
    "out/targets/beta/nsys/beta.sqlite",
    "out/targets/beta/ncu/strided_read_ncu_raw.csv",
    "out/targets/capture.log",
  };

  g_assert_cmpint (run_cli (dir, env, args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\nalpha says hi\n"));
  g_assert_nonnull (strstr (out, "\nbeta runs\n"));

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "[STEP "))
      {
        guint step = next / 2 % 6 + 1;
        const char *word = next % 2 == 0 ? "开始" : "完成";
        g_autofree char *expected =
          g_strdup_printf ("[STEP %u/6] %s %s", step, word, names[next / 12]);

        g_assert_true (g_str_has_prefix (lines[i], expected));
        next++;
      }
  g_assert_cmpuint (next, ==, 24);

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i], NULL);

      g_test_message ("%s", files[i]);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    }
  g_assert_nonnull (strstr (out, "alpha: done: "));

  /* run.json names the nsys kernel each ncu report was made for: mangled
   * name, grid and block as the export has them (the stand-in's nsys
   * writes the probe's export), checked here with SQLite. */
  {
    g_autofree char *manifest_path = g_build_filename (dir, "out/targets/alpha/run.json", NULL);
    g_autofree char *db = g_build_filename (dir, "out/targets/alpha/nsys/alpha.sqlite", NULL);
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonArray *kernels;

    g_assert_true (json_parser_load_from_file (parser, manifest_path, NULL));
    kernels = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                            "kernels");
    g_assert_cmpuint (json_array_get_length (kernels), ==, 2);
    for (guint i = 0; i < 2; i++)
      {
        JsonObject *k = json_array_get_object_element (kernels, i);
        const char *name = json_object_get_string_member (k, "name");
        g_autofree char *where = g_strdup_printf (
          "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName"
          " WHERE s.value = '%s'",
          name);
        g_autofree char *q_mangled = g_strdup_printf (
          "SELECT (SELECT value FROM StringIds WHERE id = k.mangledName) %s LIMIT 1", where);
        g_autofree char *q_config = g_strdup_printf (
          "SELECT '(' || gridX || ', ' || gridY || ', ' || gridZ || ')|(' || blockX || ', ' ||"
          " blockY || ', ' || blockZ || ')' %s GROUP BY 1 ORDER BY count(*) DESC LIMIT 1",
          where);
        g_autofree char *mangled = ws_test_sqlite_text (db, q_mangled);
        g_autofree char *config = ws_test_sqlite_text (db, q_config);
        g_autofree char *recorded =
          g_strdup_printf ("%s|%s", json_object_get_string_member (k, "grid"),
                           json_object_get_string_member (k, "block"));

        g_assert_nonnull (mangled);
        g_assert_true (g_str_has_prefix (mangled, "_Z"));
        g_assert_cmpstr (json_object_get_string_member (k, "mangled"), ==, mangled);
        g_assert_cmpstr (recorded, ==, config);
        g_assert_cmpstr (json_object_get_string_member (k, "display"), ==,
                         i == 0 ? "barrier_heavy" : "strided_read");
      }
  }
  ws_test_rmtree (dir);
}

/* One target fails (ERR_NVGPUCTRPERM): exit status 1, the failed step's
 * line with ncu's own error, and the other target still done. */
static void
test_failed_target (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *targets = write_targets (dir, "counters\ttrue\t-\tWS_NCU_MODE=perm\n"
                                                 "fine\ttrue\t-\t-\n");
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *args[] = { "capture", "--targets", targets, "--topn", "1", "--out", "o", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run_cli (dir, env, args, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "[STEP 5/6] 失败 counters: exit status 1: ==ERROR== "
                                 "ERR_NVGPUCTRPERM"));
  g_assert_nonnull (strstr (out, "[STEP 6/6] 跳过 counters"));
  g_assert_nonnull (strstr (out, "counters: failed at step 5/6: "));
  g_assert_nonnull (strstr (out, "fine: done: "));
  ws_test_rmtree (dir);
}

/* Bad input: exit status 2 before anything runs, each problem named with
 * the file and line. */
static void
test_bad_input (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *invalid = ws_test_data ("targets", "invalid_rows.tsv", NULL);
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *invalid_args[] = { "capture", "--targets", invalid, NULL };
  const char *only_args[] = { "capture", "--targets", invalid, "--only", "nobody", NULL };
  const char *no_targets[] = { "capture", NULL };
  const char *bad_topn[] = { "capture", "--targets", invalid, "--topn", "0", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *line = g_strdup_printf ("%s:3: CMD of “missing_cmd”", invalid);
  g_autofree char *out_dir = g_build_filename (dir, "out", NULL);

  g_assert_cmpint (run_cli (dir, env, invalid_args, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, line));
  g_assert_nonnull (strstr (err, "“NOEQUALS” is not NAME=VALUE"));
  g_assert_false (g_file_test (out_dir, G_FILE_TEST_EXISTS));
  g_free (out);
  g_free (err);

  g_assert_cmpint (run_cli (dir, env, only_args, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "no target named “nobody”"));
  g_free (out);
  g_free (err);

  g_assert_cmpint (run_cli (dir, env, no_targets, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "TARGETS_TSV"));
  g_free (out);
  g_free (err);

  g_assert_cmpint (run_cli (dir, env, bad_topn, &out, &err), ==, 2);
  ws_test_rmtree (dir);
}

/* The workflow's variables are read; options win over them. */
static void
test_environment (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *targets = write_targets (dir, "one\ttrue\t-\t-\ntwo\ttrue\t-\t-\n");
  const char *extra[] = { "TARGETS_TSV=targets.tsv", "OUT_DIR=captures", "TOPN=1", "NCU_SET=basic",
                          NULL };
  g_auto (GStrv) env = stand_in_env (extra);
  const char *args[] = { "capture", "--only", "two", "--ncu-set", "detailed", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *csv =
    g_build_filename (dir, "captures", "targets", "two", "ncu", "barrier_heavy_ncu_raw.csv", NULL);
  g_autofree char *second =
    g_build_filename (dir, "captures", "targets", "two", "ncu", "strided_read.ncu-rep", NULL);
  g_autofree char *one = g_build_filename (dir, "captures", "targets", "one", NULL);

  g_assert_cmpint (run_cli (dir, env, args, &out, &err), ==, 0);
  g_assert_true (g_file_test (csv, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (second, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (one, G_FILE_TEST_EXISTS));
  g_assert_nonnull (strstr (out, " --set detailed "));
  ws_test_rmtree (dir);
}

typedef struct
{
  GString *out;
  gboolean started;
  gboolean eof;
} Reading;

static void
read_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Reading *reading = data;
  g_autofree char *line =
    g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source), result, NULL, NULL);

  if (line == NULL)
    {
      reading->eof = TRUE;
      return;
    }
  g_string_append_printf (reading->out, "%s\n", line);
  if (g_str_equal (line, "started"))
    reading->started = TRUE;
  g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (source), G_PRIORITY_DEFAULT, NULL,
                                       read_cb, reading);
}

/* Ctrl+C (SIGINT to the command line program only, as a terminal sends it
 * to the foreground group) cancels the capture: the tools, in groups of
 * their own, are ended; exit status 1. */
static void
test_interrupt (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *pids_path = g_build_filename (dir, "pids", NULL);
  g_autofree char *text = g_strdup_printf (
    "waits\techo $$ >> pids; (trap '' TERM; exec sleep 300) & echo $! >> pids; echo started; "
    "wait\t-\tWS_STANDIN_PIDS=%s\n",
    pids_path);
  g_autofree char *targets = write_targets (dir, text);
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *argv[] = { ws_test_cli (), "capture", "--targets", targets, NULL };
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr (GSubprocess) cli = NULL;
  g_autoptr (GDataInputStream) stream = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *pids = NULL;
  g_auto (GStrv) pid_lines = NULL;
  Reading reading = { g_string_new (NULL), FALSE, FALSE };
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  g_subprocess_launcher_set_environ (launcher, env);
  g_subprocess_launcher_set_cwd (launcher, dir);
  cli = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  stream = g_data_input_stream_new (g_subprocess_get_stdout_pipe (cli));
  g_data_input_stream_read_line_async (stream, G_PRIORITY_DEFAULT, NULL, read_cb, &reading);
  while (!reading.started && !reading.eof)
    {
      g_main_context_iteration (NULL, TRUE);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  g_assert_true (reading.started);
  g_subprocess_send_signal (cli, SIGINT);
  g_subprocess_wait (cli, NULL, &error);
  g_assert_no_error (error);
  while (!reading.eof)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (g_subprocess_get_if_exited (cli));
  g_assert_cmpint (g_subprocess_get_exit_status (cli), ==, 1);
  g_assert_nonnull (strstr (reading.out->str, "[STEP 2/6] 失败 waits: cancelled"));

  pids = ws_test_read (pids_path);
  pid_lines = g_strsplit (pids, "\n", -1);
  /* The nsys stand-in, the program's shell and the sleep that ignores
   * SIGTERM. */
  g_assert_cmpuint (g_strv_length (pid_lines), ==, 4);
  for (guint i = 0; pid_lines[i] != NULL; i++)
    if (pid_lines[i][0] != '\0')
      g_assert_false (ws_test_process_alive ((GPid) g_ascii_strtoll (pid_lines[i], NULL, 10)));
  g_string_free (reading.out, TRUE);
  ws_test_rmtree (dir);
}

static char *
fake_proc (const char *dir, const char *paranoid, const char *params)
{
  char *root = g_build_filename (dir, "proc", NULL);
  g_autofree char *kernel = g_build_filename (root, "sys", "kernel", NULL);
  g_autofree char *nvidia = g_build_filename (root, "driver", "nvidia", NULL);
  g_autofree char *paranoid_path = g_build_filename (kernel, "perf_event_paranoid", NULL);
  g_autofree char *params_path = g_build_filename (nvidia, "params", NULL);

  g_assert_cmpint (g_mkdir_with_parents (kernel, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (nvidia, 0755), ==, 0);
  g_assert_true (g_file_set_contents (paranoid_path, paranoid, -1, NULL));
  if (params != NULL)
    g_assert_true (g_file_set_contents (params_path, params, -1, NULL));
  return root;
}

/* The doctor: the versions the real tools print, and each problem with its
 * exact fix; exit status 1 when a capture would fail. */
static void
test_doctor (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *root =
    fake_proc (dir, "4\n", "ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 1\n");
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *args[] = { "doctor", "--proc-root", root, "--ncu-set", "speed-of-light", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *nsys_line = g_strdup_printf ("[ok] nsys 2025.3.1.0 (%s/nsys)", stand_ins);
  int status = run_cli (dir, env, args, &out, &err);

  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, nsys_line));
  g_assert_nonnull (strstr (out, "[ok] ncu 2025.3.1.0"));
  g_assert_nonnull (strstr (out, "[warning] ncu has no set “speed-of-light”; it offers basic, "
                                 "detailed, full, nvlink, pmsampling, roofline"));
  g_assert_nonnull (strstr (out, "[warning] kernel.perf_event_paranoid is 4"));
  g_assert_nonnull (strstr (out, "      sudo sysctl -w kernel.perf_event_paranoid=2\n"));
  if (geteuid () == 0)
    {
      g_assert_nonnull (strstr (out, "[ok] GPU counters are for administrators only "
                                     "(RmProfilingAdminOnly: 1); this runs as root"));
      g_assert_cmpint (status, ==, 0);
    }
  else
    {
      g_assert_nonnull (strstr (out, "[error] GPU counters are for administrators only"));
      g_assert_nonnull (strstr (out, "options nvidia NVreg_RestrictProfilingToAdminUsers=0"));
      g_assert_cmpint (status, ==, 1);
    }
  ws_test_rmtree (dir);
}

/* No nsys anywhere: an error with where it looked and how to fix it. */
static void
test_doctor_missing_tools (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *root = fake_proc (dir, "2\n", "RmProfilingAdminOnly: 0\n");
  const char *env[] = { "PATH=/nonexistent", "LC_ALL=C.UTF-8", "LANGUAGE=C", NULL };
  const char *args[] = { "doctor", "--proc-root", root, "--nsys", "/nonexistent/nsys", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run_cli (dir, (char **) env, args, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "[error] /nonexistent/nsys: no such program"));
  g_assert_nonnull (strstr (out, "[error] ncu: not found on PATH"));
  g_assert_nonnull (strstr (out, "https://developer.nvidia.com/nsight-compute"));
  g_assert_nonnull (strstr (out, "[ok] kernel.perf_event_paranoid is 2"));
  g_assert_nonnull (strstr (out, "[ok] Every user may read GPU counters"));
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/capture/two-targets", test_two_targets);
  g_test_add_func ("/cli/capture/failed-target-exits-1", test_failed_target);
  g_test_add_func ("/cli/capture/bad-input-exits-2", test_bad_input);
  g_test_add_func ("/cli/capture/environment-then-options", test_environment);
  g_test_add_func ("/cli/capture/ctrl-c-ends-every-process", test_interrupt);
  g_test_add_func ("/cli/doctor/problems-and-fixes", test_doctor);
  g_test_add_func ("/cli/doctor/missing-tools", test_doctor_missing_tools);

  return g_test_run ();
}
