/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-capture-runner.h"
#include "ws-ssh-host.h"
#include "ws-test-runner.h"
#include "ws-test-sshd.h"
#include "ws-test-util.h"

/* Captures on a host: a real sshd on 127.0.0.1 (tests/ws-test-sshd.c)
 * whose sessions find the nsys and ncu stand-ins first on their PATH, the
 * runner connecting with `ssh -F` the test's own configuration.  The host
 * is this machine, so the test looks at the host's files directly. */

typedef struct
{
  WsTestSshd *sshd;
  WsTestCapture *capture; /* the targets, the settings, the runner, its log */
  char *remote_dir;       /* the folder for captures on the host */
  char *look_for;         /* on cancel_on, the host's processes with this go to seen */
  char *seen;
  guint64 kill_after; /* bytes of a copy after which the server is killed */
  guint transfers;
} Remote;

static void
remote_free (Remote *remote)
{
  ws_test_capture_free (remote->capture);
  ws_test_sshd_free (remote->sshd);
  ws_test_rmtree (remote->remote_dir);
  g_free (remote->remote_dir);
  g_free (remote->look_for);
  g_free (remote->seen);
  g_free (remote);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Remote, remote_free)

static void
cancel_cb (WsTestCapture *capture, const char *line)
{
  Remote *remote = capture->data;

  /* The tool has just started its program: let them settle first. */
  if (remote->look_for != NULL && remote->seen == NULL)
    {
      g_usleep (500 * 1000);
      remote->seen = ws_test_sshd_processes (remote->sshd, remote->look_for);
      g_test_message ("running there:\n%s", remote->seen);
    }
}

static void
transfer_cb (WsTestCapture *capture, guint64 done, guint64 total)
{
  Remote *remote = capture->data;

  remote->transfers++;
  if (remote->kill_after > 0 && done >= remote->kill_after && remote->sshd->pid != 0)
    ws_test_sshd_kill (remote->sshd);
}

/* @targets_text may name the folder for captures there as REMOTE and the
 * server's port as PORT. */
static Remote *
remote_new (gboolean key_known, const char *targets_text)
{
  Remote *remote = g_new0 (Remote, 1);
  g_autoptr (GString) text = g_string_new (targets_text);
  g_autofree char *port = NULL;

  remote->sshd = ws_test_sshd_start (key_known);
  remote->remote_dir = ws_test_tmpdir ();
  port = g_strdup_printf ("%u", remote->sshd->port);
  g_string_replace (text, "REMOTE", remote->remote_dir, 0);
  g_string_replace (text, "PORT", port, 0);
  remote->capture = ws_test_capture_new (text->str);
  remote->capture->settings->ssh_command = g_strdup (remote->sshd->ssh_command);
  remote->capture->settings->remote_dir = g_strdup (remote->remote_dir);
  remote->capture->on_cancel = cancel_cb;
  remote->capture->on_transfer = transfer_cb;
  remote->capture->data = remote;
  return remote;
}

static void
remote_run (Remote *remote)
{
  ws_test_capture_run (remote->capture, 120);
}

static const char *const kernel_files[] = { "barrier_heavy", "strided_read", "fma_heavy",
                                            "tiny",          "stream_copy",  "imbalanced" };

/* Two targets on the host, one named by a host of the settings, one by
 * user@127.0.0.1:PORT: each goes through the six steps there, in its
 * WORKDIR there with its ENVS, and its files come back whole into the
 * usual tree here, equal to what the stand-ins wrote from the real
 * fixtures; run.json says where it ran and what came back. */
static void
test_two_targets (void)
{
  g_autoptr (Remote) remote =
    remote_new (TRUE, "NAME\tCMD\tWORKDIR\tENVS\tHOST\n"
                      "first\techo \"hello $WS_GREETING\" > greeting.txt; echo out-line; echo "
                      "err-line >&2\tREMOTE\tWS_GREETING=world\tgpu1\n"
                      "second target\ttrue\t-\t-\troot@127.0.0.1:PORT\n");
  g_autofree char *kern_sum =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  /* Step 6 asks for mangled names: the stand-in prints what ncu printed
   * for a real report of the probe in that form. */
  g_autofree char *raw =
    ws_test_data ("tools", "ncu-2025.3.1_import_strided_read_mangled.csv", NULL);
  g_autofree char *greeting_path = g_build_filename (remote->remote_dir, "greeting.txt", NULL);
  g_autofree char *greeting = NULL;
  g_autoptr (WsSshHost) gpu1 =
    ws_ssh_host_new ("gpu1", remote->sshd->destination, remote->sshd->port);
  const char *folders[] = { "first", "second target" };
  const char *names[] = { "first", "second target" };

  /* The second target logs in as the user of the test. */
  {
    g_autofree char *user =
      g_strdup_printf ("%s@127.0.0.1:%u", remote->sshd->user, remote->sshd->port);

    ws_target_list_set (remote->capture->list, 1, WS_TARGET_HOST, user);
  }
  g_ptr_array_add (remote->capture->settings->hosts, ws_ssh_host_copy (gpu1));
  remote_run (remote);
  g_assert_no_error (remote->capture->error);
  g_assert_true (remote->capture->ok);
  g_assert_cmpuint (ws_capture_runner_get_n_failed (remote->capture->runner), ==, 0);
  g_assert_cmpfloat (ws_capture_runner_get_fraction (remote->capture->runner), ==, 1.0);
  g_assert_cmpuint (remote->transfers, >, 0);

  for (guint t = 0; t < 2; t++)
    {
      const char *dir = ws_capture_runner_get_target_dir (remote->capture->runner, t);
      g_autofree char *expected_dir =
        g_build_filename (remote->capture->dir, "out", "targets", folders[t], NULL);
      g_autofree char *csv_name = g_strconcat (folders[t], "_cuda_gpu_kern_sum.csv", NULL);
      g_autofree char *sqlite_name = g_strconcat (folders[t], ".sqlite", NULL);
      g_autofree char *rep_name = g_strconcat (folders[t], ".nsys-rep", NULL);
      g_autofree char *csv = g_build_filename (dir, "nsys", csv_name, NULL);
      g_autofree char *db = g_build_filename (dir, "nsys", sqlite_name, NULL);
      g_autofree char *rep = g_build_filename (dir, "nsys", rep_name, NULL);
      g_autofree char *on_host = g_build_filename (remote->remote_dir, "targets", folders[t], NULL);
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *manifest;
      JsonObject *where;
      JsonArray *files;

      g_assert_cmpstr (dir, ==, expected_dir);
      for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
        g_assert_cmpint (ws_capture_runner_get_step_state (remote->capture->runner, t, s), ==,
                         WS_CAPTURE_STEP_DONE);
      ws_test_assert_same_file (csv, kern_sum);
      ws_test_assert_same_file (db, sqlite);
      g_assert_true (g_file_test (rep, G_FILE_TEST_IS_REGULAR));
      for (guint k = 0; k < G_N_ELEMENTS (kernel_files); k++)
        {
          g_autofree char *raw_name = g_strconcat (kernel_files[k], "_ncu_raw.csv", NULL);
          g_autofree char *report_name = g_strconcat (kernel_files[k], ".ncu-rep", NULL);
          g_autofree char *raw_csv = g_build_filename (dir, "ncu", raw_name, NULL);
          g_autofree char *report = g_build_filename (dir, "ncu", report_name, NULL);

          ws_test_assert_same_file (raw_csv, raw);
          g_assert_true (g_file_test (report, G_FILE_TEST_IS_REGULAR));
        }
      /* The files were made on the host, in its folder for captures. */
      g_assert_true (g_file_test (on_host, G_FILE_TEST_IS_DIR));
      {
        g_autofree char *there = g_build_filename (on_host, "nsys", sqlite_name, NULL);

        ws_test_assert_same_file (there, sqlite);
      }

      manifest = ws_test_read_manifest (dir, parser);
      g_assert_cmpstr (json_object_get_string_member (manifest, "status"), ==, "done");
      g_assert_cmpstr (
        json_object_get_string_member (json_object_get_object_member (manifest, "target"), "name"),
        ==, names[t]);
      where = json_object_get_object_member (manifest, "remote");
      g_assert_nonnull (where);
      g_assert_cmpstr (json_object_get_string_member (where, "dir"), ==, on_host);
      g_assert_cmpstr (json_object_get_string_member (where, "workdir"), ==,
                       t == 0 ? remote->remote_dir : remote->sshd->home);
      g_assert_cmpstr (json_object_get_string_member (where, "host"), ==,
                       t == 0 ? "gpu1"
                              : ws_target_list_get (remote->capture->list, 1, WS_TARGET_HOST));
      g_assert_cmpint (json_object_get_int_member (where, "port"), ==, remote->sshd->port);
      /* The tools there, by their paths there: the stand-ins. */
      {
        JsonObject *tools = json_object_get_object_member (manifest, "tools");
        g_autofree char *stand_ins = ws_test_stand_ins ();
        g_autofree char *ncu = g_build_filename (stand_ins, "ncu", NULL);

        g_assert_cmpstr (
          json_object_get_string_member (json_object_get_object_member (tools, "ncu"), "path"), ==,
          ncu);
        g_assert_cmpstr (
          json_object_get_string_member (json_object_get_object_member (tools, "ncu"), "version"),
          ==, "2025.3.1.0");
      }
      /* Every file came back checked: 2 after step 3, 6 CSVs, then the
       * 7 reports; the checksums are those of the files there. */
      files = json_object_get_array_member (where, "files");
      g_assert_cmpuint (json_array_get_length (files), ==, 2 + 6 + 7);
      for (guint i = 0; i < json_array_get_length (files); i++)
        {
          JsonObject *file = json_array_get_object_element (files, i);
          g_autofree char *local =
            g_build_filename (dir, json_object_get_string_member (file, "path"), NULL);
          g_autofree char *sum = ws_test_file_sha256 (local);

          g_assert_cmpstr (json_object_get_string_member (file, "state"), ==, "copied");
          g_assert_cmpstr (json_object_get_string_member (file, "sha256"), ==, sum);
        }
      {
        g_autofree char *first = g_strconcat ("nsys/", csv_name, NULL);

        g_assert_cmpstr (
          json_object_get_string_member (json_array_get_object_element (files, 0), "path"), ==,
          first);
      }
    }

  /* The program ran in its WORKDIR there with its ENVS; its output came
   * line by line into the log; the commands are logged as ssh lines. */
  greeting = ws_test_read (greeting_path);
  g_assert_cmpstr (greeting, ==, "hello world\n");
  g_assert_true (ws_test_capture_log_has_prefix (remote->capture, "out-line"));
  g_assert_true (ws_test_capture_log_has_prefix (remote->capture, "err-line"));
  g_assert_true (ws_test_capture_log_has_prefix (remote->capture, "[STEP 6/6] 完成 second target"));
  g_assert_true (ws_test_capture_log_has_prefix (remote->capture, "$ ssh -F "));
}

/* Cancel while ncu runs there (the stand-in hangs, with the program it
 * started): when the run reports its end, nothing of it is left on the
 * host, as `ps` there lists it: every process of the run has the marker
 * in its environment (ENVS). */
static void
test_cancel_during_ncu (void)
{
  g_autofree char *marker = g_strdup_printf ("WS_MARK=%08x", g_random_int ());
  g_autofree char *text = g_strdup_printf ("ncu_hangs\techo ran\t-\tWS_NCU_MODE=hang,%s\twstest\n"
                                           "next\ttrue\t-\t-\twstest\n",
                                           marker);
  g_autoptr (Remote) remote = remote_new (TRUE, text);
  g_autofree char *left = NULL;

  remote->capture->settings->topn = 1;
  remote->capture->cancel_on = g_strdup ("==PROF== Connected to process");
  remote->look_for = g_strdup (marker);
  remote_run (remote);
  /* While ncu ran, its processes were there to be seen. */
  g_assert_nonnull (strstr (remote->seen, "stand-ins/ncu"));
  g_assert_nonnull (strstr (remote->seen, "sleep 600"));
  g_assert_error (remote->capture->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (ws_capture_runner_get_step_state (remote->capture->runner, 0, 5), ==,
                   WS_CAPTURE_STEP_FAILED);
  g_assert_cmpstr (ws_capture_runner_get_step_message (remote->capture->runner, 0, 5), ==,
                   "cancelled");
  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    g_assert_cmpint (ws_capture_runner_get_step_state (remote->capture->runner, 1, s), ==,
                     WS_CAPTURE_STEP_SKIPPED);
  left = ws_test_sshd_processes (remote->sshd, marker);
  g_assert_cmpstr (left, ==, "");
}

/* The server dies while the SQLite export comes back (at 1000 KiB/s,
 * killed after 1 MB): step 3 fails with a message that says what arrived,
 * and it stays: the kernel summary, and a .part of the export. */
static void
test_server_killed_mid_copy (void)
{
  g_autoptr (Remote) remote = remote_new (TRUE, "one\ttrue\t-\t-\twstest\n");
  g_autofree char *csv = NULL;
  g_autofree char *part = NULL;
  g_autofree char *db = NULL;
  g_autofree char *kern_sum =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *message;
  const char *dir;
  JsonObject *manifest;
  JsonArray *files;
  GStatBuf st;

  remote->capture->settings->topn = 1;
  remote->capture->settings->transfer_limit = 1000;
  remote->kill_after = 1000 * 1000;
  remote_run (remote);
  g_assert_true (remote->capture->ok);
  g_assert_cmpuint (ws_capture_runner_get_n_failed (remote->capture->runner), ==, 1);
  g_assert_cmpint (ws_capture_runner_get_step_state (remote->capture->runner, 0, 3), ==,
                   WS_CAPTURE_STEP_FAILED);
  message = ws_capture_runner_get_step_message (remote->capture->runner, 0, 3);
  g_test_message ("%s", message);
  g_assert_true (g_str_has_prefix (message, "copying back: the connection to wstest was lost"));
  g_assert_nonnull (strstr (message, "1 of 2 files copied; one.sqlite: "));
  g_assert_nonnull (strstr (message, "(kept in one.sqlite.part)"));

  dir = ws_capture_runner_get_target_dir (remote->capture->runner, 0);
  csv = g_build_filename (dir, "nsys", "one_cuda_gpu_kern_sum.csv", NULL);
  part = g_build_filename (dir, "nsys", "one.sqlite.part", NULL);
  db = g_build_filename (dir, "nsys", "one.sqlite", NULL);
  ws_test_assert_same_file (csv, kern_sum);
  g_assert_false (g_file_test (db, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_stat (part, &st), ==, 0);
  g_assert_cmpint (st.st_size, >=, 1000 * 1000);
  g_assert_cmpint (st.st_size, <, 5115904);

  manifest = ws_test_read_manifest (dir, parser);
  g_assert_cmpstr (json_object_get_string_member (manifest, "status"), ==, "failed");
  files =
    json_object_get_array_member (json_object_get_object_member (manifest, "remote"), "files");
  g_assert_cmpuint (json_array_get_length (files), ==, 2);
  g_assert_cmpstr (
    json_object_get_string_member (json_array_get_object_element (files, 0), "state"), ==,
    "copied");
  g_assert_cmpstr (
    json_object_get_string_member (json_array_get_object_element (files, 1), "state"), ==,
    "partial");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (files, 1), "size"),
                   ==, 5115904);
}

/* A host whose key is not known: its target fails at step 1 with what to
 * do, and nothing runs there; a target on this machine still runs;
 * known_hosts is left as it was. */
static void
test_unknown_host_key (void)
{
  g_autoptr (Remote) remote = remote_new (FALSE, "there\ttrue\t-\t-\twstest\n"
                                                 "here\ttrue\t-\t-\t-\n");
  g_autofree char *known = NULL;
  g_autofree char *on_host = g_build_filename (remote->remote_dir, "targets", NULL);
  const char *message;

  /* The target here runs with the stand-ins of the harness's settings. */
  remote->capture->settings->topn = 1;
  remote_run (remote);
  g_assert_true (remote->capture->ok);
  g_assert_cmpint (ws_capture_runner_get_step_state (remote->capture->runner, 0, 1), ==,
                   WS_CAPTURE_STEP_FAILED);
  message = ws_capture_runner_get_step_message (remote->capture->runner, 0, 1);
  g_assert_true (g_str_has_prefix (message, "wstest: the host key is not known"));
  g_assert_nonnull (strstr (message, "wstest true"));
  g_assert_true (ws_capture_runner_get_target_succeeded (remote->capture->runner, 1));
  g_assert_false (g_file_test (on_host, G_FILE_TEST_EXISTS));
  known = ws_test_read (remote->sshd->known_hosts);
  g_assert_cmpstr (known, ==, "");
}

/* ENVS values and a WORKDIR that a shell would take apart reach the
 * program there as the text they are. */
static void
test_hostile_envs (void)
{
  g_autofree char *marker = g_strdup_printf ("/tmp/pwned-%08x", g_random_int ());
  g_autofree char *text = g_strdup_printf (
    "hostile\tprintf '%%s|' \"$A\" \"$B\" \"$C\" \"$D\" > env.txt\tREMOTE/it's $(x)\t"
    "A=$(touch %s),B=it's \"quoted\" `touch %s`,C=柴犬 ✓,D=x;touch %s\twstest\n",
    marker, marker, marker);
  g_autoptr (Remote) remote = remote_new (TRUE, text);
  g_autofree char *odd = g_build_filename (remote->remote_dir, "it's $(x)", NULL);
  g_autofree char *env_path = g_build_filename (odd, "env.txt", NULL);
  g_autofree char *env = NULL;
  g_autofree char *expected = g_strdup_printf (
    "$(touch %s)|it's \"quoted\" `touch %s`|柴犬 ✓|x;touch %s|", marker, marker, marker);

  g_assert_cmpint (g_mkdir (odd, 0755), ==, 0);
  remote->capture->settings->topn = 1;
  remote_run (remote);
  g_assert_true (remote->capture->ok);
  g_assert_cmpuint (ws_capture_runner_get_n_failed (remote->capture->runner), ==, 0);
  env = ws_test_read (env_path);
  g_assert_cmpstr (env, ==, expected);
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
}

/* A WORKDIR that is not on the host fails step 1 with what `cd` said. */
static void
test_missing_workdir (void)
{
  g_autoptr (Remote) remote = remote_new (TRUE, "lost\ttrue\tREMOTE/no-such-dir\t-\twstest\n");
  const char *message;

  remote_run (remote);
  g_assert_true (remote->capture->ok);
  g_assert_cmpint (ws_capture_runner_get_step_state (remote->capture->runner, 0, 1), ==,
                   WS_CAPTURE_STEP_FAILED);
  message = ws_capture_runner_get_step_message (remote->capture->runner, 0, 1);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "no-such-dir"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture-remote/two-targets/output-tree-and-manifest", test_two_targets);
  g_test_add_func ("/capture-remote/cancel/during-ncu-leaves-no-remote-process",
                   test_cancel_during_ncu);
  g_test_add_func ("/capture-remote/copy/server-killed-keeps-what-arrived",
                   test_server_killed_mid_copy);
  g_test_add_func ("/capture-remote/host-key/unknown-stops-that-host", test_unknown_host_key);
  g_test_add_func ("/capture-remote/safety/hostile-envs-literal", test_hostile_envs);
  g_test_add_func ("/capture-remote/bad-input/missing-workdir", test_missing_workdir);

  return g_test_run ();
}
