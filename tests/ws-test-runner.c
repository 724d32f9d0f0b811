/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-test-runner.h"
#include "ws-test-util.h"

/* The harness of the runner's tests: a targets file, settings with the
 * stand-ins, the run driven on the default main context with a bound on
 * its time, and the log as it came. */

/**
 * ws_test_capture_new:
 *
 * Returns: (transfer full): a capture of @targets_text, not run yet
 */
WsTestCapture *
ws_test_capture_new (const char *targets_text)
{
  WsTestCapture *capture = g_new0 (WsTestCapture, 1);
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autoptr (GError) error = NULL;

  capture->dir = ws_test_tmpdir ();
  capture->targets = g_build_filename (capture->dir, "targets.tsv", NULL);
  g_assert_true (g_file_set_contents (capture->targets, targets_text, -1, NULL));
  capture->list = ws_target_list_new_from_file (capture->targets, &error);
  g_assert_no_error (error);
  capture->settings = ws_capture_settings_new ();
  capture->settings->nsys_path = g_build_filename (stand_ins, "nsys", NULL);
  capture->settings->ncu_path = g_build_filename (stand_ins, "ncu", NULL);
  capture->cancellable = g_cancellable_new ();
  capture->log = g_ptr_array_new_with_free_func (g_free);
  return capture;
}

void
ws_test_capture_free (WsTestCapture *capture)
{
  if (capture == NULL)
    return;
  g_clear_object (&capture->runner);
  g_clear_object (&capture->list);
  g_clear_object (&capture->cancellable);
  g_clear_pointer (&capture->settings, ws_capture_settings_free);
  g_clear_pointer (&capture->log, g_ptr_array_unref);
  g_clear_error (&capture->error);
  ws_test_rmtree (capture->dir);
  g_free (capture->dir);
  g_free (capture->targets);
  g_free (capture->cancel_on);
  g_free (capture->touch_on);
  g_free (capture->touch_path);
  g_free (capture);
}

static void
log_cb (WsCaptureRunner *runner, guint target, guint step, guint kind, const char *line,
        gpointer data)
{
  WsTestCapture *capture = data;

  g_ptr_array_add (capture->log, g_strdup (line));
  g_test_message ("%s", line);
  if (capture->cancel_on != NULL && g_str_has_prefix (line, capture->cancel_on))
    {
      if (capture->on_cancel != NULL)
        capture->on_cancel (capture, line);
      g_cancellable_cancel (capture->cancellable);
    }
  if (capture->touch_on != NULL && g_str_equal (line, capture->touch_on))
    g_assert_true (g_file_set_contents (capture->touch_path, "", 0, NULL));
}

static void
transfer_cb (WsCaptureRunner *runner, guint target, guint64 done, guint64 total, const char *file,
             gpointer data)
{
  WsTestCapture *capture = data;

  g_assert_cmpuint (done, <=, total);
  if (capture->on_transfer != NULL)
    capture->on_transfer (capture, done, total);
}

static void
finished_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsTestCapture *capture = data;

  capture->ok = ws_capture_runner_run_finish (WS_CAPTURE_RUNNER (source), result, &capture->error);
  capture->done = TRUE;
}

/* Runs every row of the targets file; fails the test after @timeout_s. */
void
ws_test_capture_run (WsTestCapture *capture, guint timeout_s)
{
  guint n = ws_target_list_get_n_targets (capture->list);
  g_autofree guint *rows = g_new0 (guint, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    rows[i] = i;
  g_clear_object (&capture->runner);
  capture->runner = ws_capture_runner_new (capture->list, rows, n, capture->settings, capture->dir);
  ws_capture_runner_set_grace (capture->runner, 500);
  if (capture->stall_ms > 0)
    ws_capture_runner_set_stall_timeout_ms (capture->runner, capture->stall_ms);
  g_signal_connect (capture->runner, "log", G_CALLBACK (log_cb), capture);
  g_signal_connect (capture->runner, "transfer", G_CALLBACK (transfer_cb), capture);
  capture->done = FALSE;
  g_clear_error (&capture->error);
  ws_capture_runner_run_async (capture->runner, capture->cancellable, finished_cb, capture);
  ws_test_wait_flag (&capture->done, timeout_s, "the capture to end");
}

gboolean
ws_test_capture_log_has (WsTestCapture *capture, const char *line)
{
  for (guint i = 0; i < capture->log->len; i++)
    if (g_str_equal (g_ptr_array_index (capture->log, i), line))
      return TRUE;
  return FALSE;
}

gboolean
ws_test_capture_log_has_prefix (WsTestCapture *capture, const char *prefix)
{
  for (guint i = 0; i < capture->log->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (capture->log, i), prefix))
      return TRUE;
  return FALSE;
}

/* The run.json of a target's folder, parsed by json-glib. */
JsonObject *
ws_test_read_manifest (const char *dir, JsonParser *parser)
{
  g_autofree char *path = g_build_filename (dir, "run.json", NULL);
  g_autoptr (GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

JsonObject *
ws_test_manifest_step (JsonObject *manifest, guint step)
{
  JsonArray *steps = json_object_get_array_member (manifest, "steps");

  return json_array_get_object_element (steps, step - 1);
}

/* Equal bytes, by checksums GLib computes here. */
void
ws_test_assert_same_file (const char *a, const char *b)
{
  g_autofree char *sum_a = ws_test_file_sha256 (a);
  g_autofree char *sum_b = ws_test_file_sha256 (b);

  g_assert_cmpstr (sum_a, ==, sum_b);
}
