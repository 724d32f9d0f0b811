/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-capture-error.h"
#include "ws-capture-runner.h"
#include "ws-test-runner.h"
#include "ws-test-util.h"
#include "ws-tools-error.h"

/* Each test runs real captures through the runner: the target programs are
 * real shell commands, nsys and ncu the stand-ins of tests/stand-ins, which
 * replay the real files of tests/data. */

static char *out_path (WsTestCapture *capture, const char *first, ...) G_GNUC_NULL_TERMINATED;

static char *
out_path (WsTestCapture *capture, const char *first, ...)
{
  va_list args;
  char *path;

  va_start (args, first);
  path = ws_test_build_path_valist (capture->dir, "out", first, args);
  va_end (args);
  return path;
}

static const char *const kernel_files[] = { "barrier_heavy", "strided_read", "fma_heavy",
                                            "tiny",          "stream_copy",  "imbalanced" };

/* Two targets through the six steps: the output tree of docs/formats.md ("The
 * six steps"), each file as the stand-ins wrote it from the real fixtures, the
 * run.json manifests, and the [STEP x/6] lines in the log file in order. */
static void
test_two_targets (void)
{
  g_autoptr (WsTestCapture) capture =
    ws_test_capture_new ("NAME\tCMD\tWORKDIR\tENVS\n"
                         "first\techo \"hello $WS_GREETING\" > greeting.txt; echo out-line; echo "
                         "err-line >&2\t-\tWS_GREETING=world\n"
                         "# a comment between the rows\n"
                         "second target\ttrue\tsub\t-\n");
  g_autofree char *sub = g_build_filename (capture->dir, "sub", NULL);
  g_autofree char *greeting_path = g_build_filename (capture->dir, "greeting.txt", NULL);
  g_autofree char *greeting = NULL;
  g_autofree char *log_text = NULL;
  g_autofree char *kern_sum =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  /* Step 6 asks for mangled names: the stand-in prints what ncu printed
   * for a real report of the probe in that form. */
  g_autofree char *raw =
    ws_test_data ("tools", "ncu-2025.3.1_import_strided_read_mangled.csv", NULL);
  g_autofree char *group = NULL;
  g_autoptr (GPtrArray) expected_steps = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) log_lines = NULL;
  guint next_step = 0;
  const char *names[] = { "first", "second target" };
  const char *folders[] = { "first", "second target" };

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  ws_test_capture_run (capture, 60);
  g_assert_no_error (capture->error);
  g_assert_true (capture->ok);
  g_assert_cmpuint (ws_capture_runner_get_n_failed (capture->runner), ==, 0);
  g_assert_cmpfloat (ws_capture_runner_get_fraction (capture->runner), ==, 1.0);

  /* The group is named after the targets file. */
  group = out_path (capture, "targets", NULL);
  g_assert_cmpstr (ws_capture_runner_get_group_dir (capture->runner), ==, group);

  for (guint t = 0; t < 2; t++)
    {
      g_autofree char *dir = out_path (capture, "targets", folders[t], NULL);
      g_autofree char *rep_name = g_strconcat (folders[t], ".nsys-rep", NULL);
      g_autofree char *sqlite_name = g_strconcat (folders[t], ".sqlite", NULL);
      g_autofree char *csv_name = g_strconcat (folders[t], "_cuda_gpu_kern_sum.csv", NULL);
      g_autofree char *rep = g_build_filename (dir, "nsys", rep_name, NULL);
      g_autofree char *db = g_build_filename (dir, "nsys", sqlite_name, NULL);
      g_autofree char *csv = g_build_filename (dir, "nsys", csv_name, NULL);
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *manifest;
      JsonArray *ncu_outputs;

      g_assert_cmpstr (ws_capture_runner_get_target_dir (capture->runner, t), ==, dir);
      g_assert_true (ws_capture_runner_get_target_succeeded (capture->runner, t));
      for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
        g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, t, s), ==,
                         WS_CAPTURE_STEP_DONE);
      g_assert_true (g_file_test (rep, G_FILE_TEST_IS_REGULAR));
      ws_test_assert_same_file (db, sqlite);
      ws_test_assert_same_file (csv, kern_sum);
      for (guint k = 0; k < G_N_ELEMENTS (kernel_files); k++)
        {
          g_autofree char *report_name = g_strconcat (kernel_files[k], ".ncu-rep", NULL);
          g_autofree char *raw_name = g_strconcat (kernel_files[k], "_ncu_raw.csv", NULL);
          g_autofree char *report = g_build_filename (dir, "ncu", report_name, NULL);
          g_autofree char *raw_csv = g_build_filename (dir, "ncu", raw_name, NULL);

          g_assert_true (g_file_test (report, G_FILE_TEST_IS_REGULAR));
          ws_test_assert_same_file (raw_csv, raw);
        }

      manifest = ws_test_read_manifest (dir, parser);
      g_assert_cmpstr (json_object_get_string_member (manifest, "status"), ==, "done");
      g_assert_cmpstr (
        json_object_get_string_member (json_object_get_object_member (manifest, "target"), "name"),
        ==, names[t]);
      g_assert_cmpint (
        json_object_get_int_member (json_object_get_object_member (manifest, "target"), "line"), ==,
        t == 0 ? 2 : 4);
      g_assert_cmpstr (
        json_object_get_string_member (
          json_object_get_object_member (json_object_get_object_member (manifest, "tools"), "ncu"),
          "version"),
        ==, "2025.3.1.0");
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (manifest, "kernels")),
                        ==, 6);
      for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
        {
          JsonObject *step = ws_test_manifest_step (manifest, s);

          g_assert_cmpint (json_object_get_int_member (step, "step"), ==, s);
          g_assert_cmpstr (json_object_get_string_member (step, "state"), ==, "done");
          g_assert_false (json_object_get_null_member (step, "started"));
        }
      {
        JsonArray *commands =
          json_object_get_array_member (ws_test_manifest_step (manifest, 2), "commands");
        JsonObject *command = json_array_get_object_element (commands, 0);
        JsonArray *argv = json_object_get_array_member (command, "argv");
        JsonArray *env = json_object_get_array_member (command, "env");

        g_assert_cmpstr (json_array_get_string_element (argv, 0), ==, capture->settings->nsys_path);
        g_assert_cmpstr (json_array_get_string_element (argv, 1), ==, "profile");
        g_assert_cmpint (json_object_get_int_member (command, "exit_status"), ==, 0);
        if (t == 0)
          {
            g_assert_cmpuint (json_array_get_length (env), ==, 1);
            g_assert_cmpstr (json_array_get_string_element (env, 0), ==, "WS_GREETING=world");
          }
      }
      ncu_outputs =
        json_object_get_array_member (json_object_get_object_member (manifest, "outputs"), "ncu");
      g_assert_cmpuint (json_array_get_length (ncu_outputs), ==, 6);
      g_assert_cmpstr (
        json_object_get_string_member (json_array_get_object_element (ncu_outputs, 0), "raw_csv"),
        ==, "ncu/barrier_heavy_ncu_raw.csv");
    }

  /* The program ran in its WORKDIR with its ENVS. */
  greeting = ws_test_read (greeting_path);
  g_assert_cmpstr (greeting, ==, "hello world\n");

  /* The tools' output reached the log, line by line. */
  g_assert_true (ws_test_capture_log_has (capture, "out-line"));
  g_assert_true (ws_test_capture_log_has (capture, "err-line"));

  /* The log file holds the [STEP x/6] lines of both targets in order. */
  log_text = ws_test_read (ws_capture_runner_get_log_path (capture->runner));
  g_assert_nonnull (log_text);
  log_lines = g_strsplit (log_text, "\n", -1);
  for (guint t = 0; t < 2; t++)
    for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
      {
        g_ptr_array_add (expected_steps, g_strdup_printf ("[STEP %u/6] 开始 %s", s, names[t]));
        g_ptr_array_add (expected_steps, g_strdup_printf ("[STEP %u/6] 完成 %s", s, names[t]));
      }
  for (guint i = 0; log_lines[i] != NULL; i++)
    if (g_str_has_prefix (log_lines[i], "[STEP "))
      {
        g_assert_cmpuint (next_step, <, expected_steps->len);
        g_assert_true (
          g_str_has_prefix (log_lines[i], g_ptr_array_index (expected_steps, next_step)));
        next_step++;
      }
  g_assert_cmpuint (next_step, ==, expected_steps->len);
}

/* A line reaches the log while the program still runs: this program waits
 * for a file that the test creates only when it has seen the line. */
static void
test_output_streams (void)
{
  g_autoptr (WsTestCapture) capture = ws_test_capture_new (
    "stream\techo ready; n=0; while [ ! -e go ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n+1)); "
    "done; [ -e go ] && echo saw-go\t-\t-\n");

  capture->touch_on = g_strdup ("ready");
  capture->touch_path = g_build_filename (capture->dir, "go", NULL);
  capture->settings->topn = 1;
  ws_test_capture_run (capture, 60);
  g_assert_true (capture->ok);
  g_assert_true (ws_test_capture_log_has (capture, "saw-go"));
  g_assert_cmpuint (ws_capture_runner_get_n_failed (capture->runner), ==, 0);
}

typedef struct
{
  const char *name;
  guint failed_step;
  const char *message; /* part of the failed step's message */
} Failure;

/* Each way the tools fail: the step that fails says why, the later steps
 * are skipped, and the next target still runs. */
static void
test_failure_modes (void)
{
  g_autoptr (WsTestCapture) capture =
    ws_test_capture_new ("NAME\tCMD\tWORKDIR\tENVS\n"
                         "qdstrm\ttrue\t-\tWS_NSYS_MODE=qdstrm\n"
                         "program_fails\techo failing; exit 3\t-\t-\n"
                         "no_kernel_data\ttrue\t-\tWS_NSYS_MODE=nokernels\n"
                         "empty_summary\ttrue\t-\tWS_NSYS_MODE=emptycsv\n"
                         "counters\ttrue\t-\tWS_NCU_MODE=perm\n"
                         "regex_matches_nothing\ttrue\t-\tWS_NCU_MODE=nokernels\n"
                         "import_fails\ttrue\t-\tWS_NCU_MODE=importfail\n"
                         "good\ttrue\t-\t-\n");
  const Failure failures[] = {
    { "qdstrm", 2, "qdstrm.qdstrm but no report" },
    { "program_fails", 2, "exit status 3" },
    { "no_kernel_data", 4, "no kernel summary" },
    { "empty_summary", 4, "lists no kernels" },
    { "counters", 5, "ERR_NVGPUCTRPERM" },
    { "regex_matches_nothing", 5, "ncu profiled no kernel" },
    { "import_fails", 6, "==ERROR== Could not open report file" },
  };

  capture->settings->topn = 2;
  ws_test_capture_run (capture, 60);
  g_assert_true (capture->ok);
  g_assert_cmpuint (ws_capture_runner_get_n_failed (capture->runner), ==, G_N_ELEMENTS (failures));

  for (guint t = 0; t < G_N_ELEMENTS (failures); t++)
    {
      const Failure *f = &failures[t];
      const char *message = ws_capture_runner_get_step_message (capture->runner, t, f->failed_step);
      g_autofree char *failed_line = NULL;
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *manifest;

      g_test_message ("%s: step %u: %s", f->name, f->failed_step, message);
      g_assert_cmpstr (ws_capture_runner_get_target_name (capture->runner, t), ==, f->name);
      g_assert_false (ws_capture_runner_get_target_succeeded (capture->runner, t));
      for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
        g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, t, s), ==,
                         s < f->failed_step    ? WS_CAPTURE_STEP_DONE
                         : s == f->failed_step ? WS_CAPTURE_STEP_FAILED
                                               : WS_CAPTURE_STEP_SKIPPED);
      g_assert_nonnull (strstr (message, f->message));

      failed_line = g_strdup_printf ("[STEP %u/6] 失败 %s: ", f->failed_step, f->name);
      g_assert_true (ws_test_capture_log_has_prefix (capture, failed_line));

      manifest =
        ws_test_read_manifest (ws_capture_runner_get_target_dir (capture->runner, t), parser);
      g_assert_cmpstr (json_object_get_string_member (manifest, "status"), ==, "failed");
      g_assert_cmpstr (
        json_object_get_string_member (ws_test_manifest_step (manifest, f->failed_step), "state"),
        ==, "failed");
    }
  g_assert_true (ws_capture_runner_get_target_succeeded (capture->runner, 7));
}

/* With CONTINUE_ON_ERROR a failed step does not stop the target: ncu's
 * export still runs after the failed profile (and fails in turn). */
static void
test_continue_on_error (void)
{
  g_autoptr (WsTestCapture) capture = ws_test_capture_new ("counters\ttrue\t-\tWS_NCU_MODE=perm\n"
                                                           "good\ttrue\t-\t-\n");

  capture->settings->topn = 2;
  capture->settings->continue_on_error = TRUE;
  ws_test_capture_run (capture, 60);
  g_assert_true (capture->ok);
  g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, 0, 5), ==,
                   WS_CAPTURE_STEP_FAILED);
  g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, 0, 6), ==,
                   WS_CAPTURE_STEP_FAILED);
  g_assert_cmpstr (ws_capture_runner_get_step_message (capture->runner, 0, 6), ==,
                   "2 of 2 commands failed");
  g_assert_true (ws_capture_runner_get_target_succeeded (capture->runner, 1));
}

static GArray *
read_pids (const char *path)
{
  g_autofree char *text = ws_test_read (path);
  g_auto (GStrv) lines = NULL;
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (GPid));

  g_assert_nonnull (text);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      {
        GPid pid = (GPid) g_ascii_strtoll (lines[i], NULL, 10);

        g_array_append_val (pids, pid);
      }
  return pids;
}

static void
assert_all_gone (GArray *pids)
{
  for (guint i = 0; i < pids->len; i++)
    {
      GPid pid = g_array_index (pids, GPid, i);

      g_test_message ("pid %d alive: %d", (int) pid, ws_test_process_alive (pid));
      g_assert_false (ws_test_process_alive (pid));
    }
}

/* Cancel in the middle of a program that started children, one of which
 * ignores SIGTERM: when the run reports its end, no process of it is
 * left, the SIGTERM-proof one killed after the grace period; the next
 * target is skipped. */
static void
test_cancel_leaves_nothing (void)
{
  g_autoptr (WsTestCapture) capture = NULL;
  g_autofree char *pids_path = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GArray) pids = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *manifest;
  g_autofree char *dir = ws_test_tmpdir ();

  pids_path = g_build_filename (dir, "pids", NULL);
  text = g_strdup_printf ("NAME\tCMD\tWORKDIR\tENVS\n"
                          "hangs\techo $$ >> pids; sleep 300 & echo $! >> pids; "
                          "(trap '' TERM; exec sleep 300) & echo $! >> pids; "
                          "echo started; wait\t%s\tWS_STANDIN_PIDS=%s\n"
                          "next\ttrue\t-\t-\n",
                          dir, pids_path);
  capture = ws_test_capture_new (text);
  capture->cancel_on = g_strdup ("started");
  ws_test_capture_run (capture, 60);

  g_assert_false (capture->ok);
  g_assert_error (capture->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  pids = read_pids (pids_path);
  /* The nsys stand-in, the program's shell and its two children. */
  g_assert_cmpuint (pids->len, ==, 4);
  assert_all_gone (pids);

  g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, 0, 2), ==,
                   WS_CAPTURE_STEP_FAILED);
  g_assert_cmpstr (ws_capture_runner_get_step_message (capture->runner, 0, 2), ==, "cancelled");
  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, 1, s), ==,
                     WS_CAPTURE_STEP_SKIPPED);
  g_assert_cmpuint (ws_capture_runner_get_n_failed (capture->runner), ==, 2);
  manifest = ws_test_read_manifest (ws_capture_runner_get_target_dir (capture->runner, 0), parser);
  g_assert_cmpstr (json_object_get_string_member (manifest, "status"), ==, "cancelled");
  g_assert_true (ws_test_capture_log_has (capture, "[STEP 2/6] 失败 hangs: cancelled"));
  ws_test_rmtree (dir);
}

/* The tool itself hangs (WS_NCU_MODE=hang): cancelling during step 5 ends
 * it and the program it started. */
static void
test_cancel_hanging_tool (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *pids_path = g_build_filename (dir, "pids", NULL);
  g_autofree char *text =
    g_strdup_printf ("ncu_hangs\techo $$ >> %s; echo \"running "
                     "$WS_NCU_MODE\"\t-\tWS_NCU_MODE=hang,WS_STANDIN_PIDS=%s\n",
                     pids_path, pids_path);
  g_autoptr (WsTestCapture) capture = ws_test_capture_new (text);
  g_autoptr (GArray) pids = NULL;

  capture->settings->topn = 1;
  /* Only ncu prints this: the cancel comes during step 5. */
  capture->cancel_on = g_strdup ("==PROF== Connected to process");
  ws_test_capture_run (capture, 60);
  g_assert_error (capture->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, 0, 5), ==,
                   WS_CAPTURE_STEP_FAILED);
  pids = read_pids (pids_path);
  g_assert_cmpuint (pids->len, >=, 4);
  assert_all_gone (pids);
  ws_test_rmtree (dir);
}

/* ncu waits forever for an NCCL kernel's peers (WS_NCU_MODE=stall prints
 * the warning ncu printed and then nothing): the watchdog ends its process
 * group after the stall timeout, step 5 fails saying so, and the capture
 * goes on with the next target, which succeeds. */
static void
test_ncu_stall_watchdog (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *pids_path = g_build_filename (dir, "pids", NULL);
  g_autofree char *text =
    g_strdup_printf ("NAME\tCMD\tWORKDIR\tENVS\n"
                     "nccl_job\ttrue\t-\tWS_NCU_MODE=stall,WS_STANDIN_PIDS=%s\n"
                     "next\ttrue\t-\t-\n",
                     pids_path);
  g_autoptr (WsTestCapture) capture = ws_test_capture_new (text);
  g_autoptr (GArray) pids = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *warning_path = ws_test_data ("tools", "ncu-2025.3.1_launch_stall.txt", NULL);
  g_autofree char *warning = NULL;
  JsonObject *manifest, *step;
  const char *message;
  gint64 started;

  capture->settings->topn = 1;
  capture->stall_ms = 1000;
  started = g_get_monotonic_time ();
  ws_test_capture_run (capture, 60);
  g_test_message ("the run took %.2f s",
                  (double) (g_get_monotonic_time () - started) / G_USEC_PER_SEC);
  /* Not the stand-in's 600 s sleep. */
  g_assert_cmpint (g_get_monotonic_time () - started, <, 30 * G_USEC_PER_SEC);
  g_assert_no_error (capture->error);

  warning = ws_test_read (warning_path);
  g_strchomp (warning);
  g_assert_true (ws_test_capture_log_has (capture, warning));

  g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, 0, 5), ==,
                   WS_CAPTURE_STEP_FAILED);
  message = ws_capture_runner_get_step_message (capture->runner, 0, 5);
  g_assert_true (g_str_has_prefix (message, "stalled: ncu printed nothing for 1 s"));
  g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, 0, 6), ==,
                   WS_CAPTURE_STEP_SKIPPED);
  manifest = ws_test_read_manifest (ws_capture_runner_get_target_dir (capture->runner, 0), parser);
  step = ws_test_manifest_step (manifest, 5);
  g_assert_cmpstr (json_object_get_string_member (step, "state"), ==, "failed");
  g_assert_true (strstr (json_object_get_string_member (step, "message"), "stalled") != NULL);

  /* Every ncu of the run, its group included: step 5's never answered. */
  pids = read_pids (pids_path);
  g_assert_cmpuint (pids->len, >=, 1);
  for (guint i = 0; i < pids->len; i++)
    g_assert_false (ws_test_group_alive (g_array_index (pids, GPid, i)));
  assert_all_gone (pids);

  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, 1, s), ==,
                     WS_CAPTURE_STEP_DONE);
  g_assert_cmpuint (ws_capture_runner_get_n_failed (capture->runner), ==, 1);
  ws_test_rmtree (dir);
}

static gboolean
cancel_when_started (gpointer data)
{
  gpointer *watch = data; /* the file, and the capture */
  WsTestCapture *capture = watch[1];
  g_autofree char *text = ws_test_read (watch[0]);

  if (text != NULL && text[0] != '\0')
    g_cancellable_cancel (capture->cancellable);
  return G_SOURCE_CONTINUE;
}

/* nsys never answers its --version: cancelling while the runner asks the
 * tools kills it, and the run ends cancelled at once, not after the 30 s
 * a tool is given to answer. */
static void
test_cancel_while_probing (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *pids_path = g_build_filename (dir, "pids", NULL);
  g_autofree char *hung = g_build_filename (dir, "nsys", NULL);
  g_autofree char *script =
    g_strdup_printf ("#!/bin/sh\necho $$ >> '%s'\nexec sleep 300\n", pids_path);
  g_autoptr (WsTestCapture) capture = ws_test_capture_new ("probe\ttrue\t-\t-\n");
  gpointer watch[2];
  g_autoptr (GArray) pids = NULL;
  gint64 started;
  guint poll;

  watch[0] = pids_path;
  watch[1] = capture;
  g_assert_true (g_file_set_contents (hung, script, -1, NULL));
  g_assert_cmpint (g_chmod (hung, 0755), ==, 0);
  g_free (capture->settings->nsys_path);
  capture->settings->nsys_path = g_strdup (hung);
  /* Cancelled once nsys runs. */
  poll = g_timeout_add (10, cancel_when_started, watch);
  started = g_get_monotonic_time ();
  ws_test_capture_run (capture, 60);
  g_source_remove (poll);
  g_test_message ("the run ended %.2f s after it started",
                  (double) (g_get_monotonic_time () - started) / G_USEC_PER_SEC);
  g_assert_cmpint (g_get_monotonic_time () - started, <, 10 * G_USEC_PER_SEC);
  g_assert_false (capture->ok);
  g_assert_error (capture->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    g_assert_cmpint (ws_capture_runner_get_step_state (capture->runner, 0, s), ==,
                     WS_CAPTURE_STEP_SKIPPED);
  pids = read_pids (pids_path);
  g_assert_cmpuint (pids->len, ==, 1);
  assert_all_gone (pids);
  ws_test_rmtree (dir);
}

/* A program that leaves a child running behind it: the child goes when
 * the step ends, not when the capture does. */
static void
test_leftovers_killed (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *pids_path = g_build_filename (dir, "pids", NULL);
  g_autofree char *text =
    g_strdup_printf ("leaves_child\tsleep 300 > /dev/null 2>&1 & echo $! >> %s\t-\t-\n", pids_path);
  g_autoptr (WsTestCapture) capture = ws_test_capture_new (text);
  g_autoptr (GArray) pids = NULL;

  capture->settings->topn = 1;
  ws_test_capture_run (capture, 60);
  g_assert_true (capture->ok);
  g_assert_cmpuint (ws_capture_runner_get_n_failed (capture->runner), ==, 0);
  pids = read_pids (pids_path);
  /* nsys once, ncu once. */
  g_assert_cmpuint (pids->len, ==, 2);
  assert_all_gone (pids);
  ws_test_rmtree (dir);
}

/* ENVS reach the program as values, never as shell text; a NAME cannot
 * lead outside the output folder. */
static void
test_safety (void)
{
  g_autofree char *marker = g_strdup_printf ("/tmp/pwned-%08x", g_random_int ());
  g_autofree char *text =
    g_strdup_printf ("../../etc\techo \"$A\" > a.txt\t-\tA=$(touch %s)\n", marker);
  g_autoptr (WsTestCapture) capture = ws_test_capture_new (text);
  g_autofree char *a_path = g_build_filename (capture->dir, "a.txt", NULL);
  g_autofree char *a_text = NULL;
  g_autofree char *expected = g_strdup_printf ("$(touch %s)\n", marker);
  g_autofree char *group = NULL;
  g_autofree char *target_dir = NULL;
  g_autoptr (GPtrArray) top = NULL;
  g_autoptr (GPtrArray) groups = NULL;
  g_autoptr (GFile) out = NULL;
  g_autoptr (GFile) target = NULL;

  capture->settings->topn = 1;
  ws_test_capture_run (capture, 60);
  g_assert_true (capture->ok);
  g_assert_cmpuint (ws_capture_runner_get_n_failed (capture->runner), ==, 0);

  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  a_text = ws_test_read (a_path);
  g_assert_cmpstr (a_text, ==, expected);

  /* Only targets.tsv, a.txt and out/ in the folder; one target folder in
   * the group, a child of it. */
  top = ws_test_list_dir (capture->dir);
  g_assert_cmpuint (top->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (top, 0), ==, "a.txt");
  g_assert_cmpstr (g_ptr_array_index (top, 1), ==, "out");
  group = out_path (capture, "targets", NULL);
  groups = ws_test_list_dir (group);
  g_assert_cmpuint (groups->len, ==, 2); /* capture.log and the target */
  target_dir = g_strdup (ws_capture_runner_get_target_dir (capture->runner, 0));
  out = g_file_new_for_path (group);
  target = g_file_new_for_path (target_dir);
  {
    g_autoptr (GFile) parent = g_file_get_parent (target);

    g_assert_true (g_file_equal (parent, out));
  }
  /* One component, neither "." nor "..": "../../etc" is "_._.._etc". */
  {
    g_autofree char *component = g_path_get_basename (target_dir);

    g_assert_null (strchr (component, '/'));
    g_assert_cmpstr (component, !=, "..");
    g_assert_cmpstr (component, !=, ".");
    g_assert_cmpint (component[0], !=, '.');
  }
}

/* A second and a third run of the same targets go to new groups; the
 * first run's files stay as they were. */
static void
test_never_overwrites (void)
{
  g_autoptr (WsTestCapture) capture = ws_test_capture_new ("one\ttrue\t-\t-\n");
  g_autofree char *first_group = NULL;
  g_autofree char *first_manifest = NULL;
  g_autofree char *sum_before = NULL;
  g_autofree char *sum_after = NULL;
  g_autofree char *second_group = NULL;
  g_autoptr (GPtrArray) groups = NULL;

  capture->settings->topn = 1;
  ws_test_capture_run (capture, 60);
  g_assert_true (capture->ok);
  first_group = g_strdup (ws_capture_runner_get_group_dir (capture->runner));
  first_manifest = g_build_filename (first_group, "one", "run.json", NULL);
  sum_before = ws_test_file_sha256 (first_manifest);

  ws_test_capture_run (capture, 60);
  g_assert_true (capture->ok);
  second_group = g_strdup (ws_capture_runner_get_group_dir (capture->runner));
  g_assert_cmpstr (second_group, !=, first_group);
  g_assert_true (g_str_has_prefix (second_group, first_group));
  ws_test_capture_run (capture, 60);
  g_assert_true (capture->ok);
  g_assert_cmpstr (ws_capture_runner_get_group_dir (capture->runner), !=, second_group);
  g_assert_cmpstr (ws_capture_runner_get_group_dir (capture->runner), !=, first_group);

  sum_after = ws_test_file_sha256 (first_manifest);
  g_assert_cmpstr (sum_after, ==, sum_before);
  {
    g_autofree char *out = g_build_filename (capture->dir, "out", NULL);

    groups = ws_test_list_dir (out);
  }
  g_assert_cmpuint (groups->len, ==, 3);
}

/* GLOBAL_LOG is one file rewritten by each run. */
static void
test_global_log_rewritten (void)
{
  g_autoptr (WsTestCapture) capture = ws_test_capture_new ("one\ttrue\t-\t-\n");
  g_autofree char *log_path = g_build_filename (capture->dir, "global.log", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) runs = NULL;

  capture->settings->topn = 1;
  capture->settings->global_log = g_strdup ("global.log");
  ws_test_capture_run (capture, 60);
  ws_test_capture_run (capture, 60);
  g_assert_cmpstr (ws_capture_runner_get_log_path (capture->runner), ==, log_path);
  text = ws_test_read (log_path);
  runs = g_strsplit (text, "== warpscope capture", -1);
  g_assert_cmpuint (g_strv_length (runs), ==, 2);
}

/* `--set speed-of-light` is not in the real ncu's list: the run uses
 * `basic` and says so. */
static void
test_set_fallback (void)
{
  g_autoptr (WsTestCapture) capture = ws_test_capture_new ("one\ttrue\t-\t-\n");
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *manifest;
  JsonArray *argv;
  gboolean found = FALSE;

  capture->settings->topn = 1;
  g_free (capture->settings->ncu_set);
  capture->settings->ncu_set = g_strdup ("speed-of-light");
  ws_test_capture_run (capture, 60);
  g_assert_true (capture->ok);
  g_assert_true (ws_test_capture_log_has (
    capture, "warning: ncu has no set “speed-of-light” (ncu --list-sets); using “basic”"));
  manifest = ws_test_read_manifest (ws_capture_runner_get_target_dir (capture->runner, 0), parser);
  argv = json_object_get_array_member (
    json_array_get_object_element (
      json_object_get_array_member (ws_test_manifest_step (manifest, 5), "commands"), 0),
    "argv");
  for (guint i = 0; i + 1 < json_array_get_length (argv); i++)
    if (g_str_equal (json_array_get_string_element (argv, i), "--set"))
      {
        g_assert_cmpstr (json_array_get_string_element (argv, i + 1), ==, "basic");
        found = TRUE;
      }
  g_assert_true (found);
}

/* Bad input is refused before anything runs, with the file and line. */
static void
test_bad_input (void)
{
  g_autoptr (WsTestCapture) capture = ws_test_capture_new ("NAME\tCMD\tWORKDIR\tENVS\n"
                                                           "a\ttrue\tno-such-dir\t-\n");
  g_autofree char *out = g_build_filename (capture->dir, "out", NULL);
  g_autofree char *prefix = NULL;

  ws_test_capture_run (capture, 60);
  g_assert_false (capture->ok);
  g_assert_error (capture->error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID);
  prefix = g_strdup_printf ("%s:2: WORKDIR of “a”", capture->targets);
  g_assert_true (g_str_has_prefix (capture->error->message, prefix));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));

  ws_target_list_set (capture->list, 0, WS_TARGET_WORKDIR, "-");
  g_free (capture->settings->ncu_path);
  capture->settings->ncu_path = g_strdup ("/nonexistent/ncu");
  ws_test_capture_run (capture, 60);
  g_assert_error (capture->error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING);
  g_assert_true (g_str_has_prefix (capture->error->message, "/nonexistent/ncu"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture-runner/two-targets/output-tree-and-manifest", test_two_targets);
  g_test_add_func ("/capture-runner/output/streams-as-it-comes", test_output_streams);
  g_test_add_func ("/capture-runner/failures/each-mode-stops-its-target", test_failure_modes);
  g_test_add_func ("/capture-runner/failures/continue-on-error", test_continue_on_error);
  g_test_add_func ("/capture-runner/cancel/leaves-no-process", test_cancel_leaves_nothing);
  g_test_add_func ("/capture-runner/cancel/hanging-tool", test_cancel_hanging_tool);
  g_test_add_func ("/capture-runner/cancel/while-asking-the-tools", test_cancel_while_probing);
  g_test_add_func ("/capture-runner/watchdog/stalled-ncu-ended-capture-goes-on",
                   test_ncu_stall_watchdog);
  g_test_add_func ("/capture-runner/cleanup/leftover-children-killed", test_leftovers_killed);
  g_test_add_func ("/capture-runner/safety/envs-literal-and-name-contained", test_safety);
  g_test_add_func ("/capture-runner/output/earlier-runs-never-overwritten", test_never_overwrites);
  g_test_add_func ("/capture-runner/output/global-log-rewritten", test_global_log_rewritten);
  g_test_add_func ("/capture-runner/settings/missing-ncu-set-falls-back", test_set_fallback);
  g_test_add_func ("/capture-runner/bad-input/refused-before-running", test_bad_input);

  return g_test_run ();
}
