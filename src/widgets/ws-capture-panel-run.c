/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-panel"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-capture-panel-private.h"
#include "ws-nsys-kernel-identity.h"

/* The capture panel's run: the live log, the runner's signals turned into
 * step states, progress and log lines, and Run and Cancel. */

/* Lines the log keeps: past them, the oldest tenth goes. */
#define MAX_LOG_LINES 50000

/* The log follows its end until the user scrolls up to read, and again
 * once they scroll back down.  Growth of the text alone (upper) does not
 * change this: layout catches up later than the lines come. */
void
ws_capture_panel_log_scrolled_cb (WsCapturePanel *self, GtkAdjustment *adjustment)
{
  self->log_follow =
    gtk_adjustment_get_value (adjustment) >=
    gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 4;
}

/* Appends a line to the log view. */
void
ws_capture_panel_append_log (WsCapturePanel *self, const char *line)
{
  GtkTextIter end;

  g_return_if_fail (WS_IS_CAPTURE_PANEL (self));

  gtk_text_buffer_get_end_iter (self->log, &end);
  gtk_text_buffer_insert (self->log, &end, line, -1);
  gtk_text_buffer_get_end_iter (self->log, &end);
  gtk_text_buffer_insert (self->log, &end, "\n", 1);
  if (++self->log_lines > MAX_LOG_LINES)
    {
      GtkTextIter start, cut;

      gtk_text_buffer_get_start_iter (self->log, &start);
      gtk_text_buffer_get_iter_at_line (self->log, &cut, MAX_LOG_LINES / 10);
      gtk_text_buffer_delete (self->log, &start, &cut);
      self->log_lines -= MAX_LOG_LINES / 10;
    }
  if (self->log_follow)
    gtk_text_view_scroll_to_mark (self->log_view, self->log_end, 0, TRUE, 0, 1.0);
}

/**
 * ws_capture_panel_get_log:
 *
 * Returns: (transfer full): the log view's text
 */
char *
ws_capture_panel_get_log (WsCapturePanel *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (WS_IS_CAPTURE_PANEL (self), NULL);

  gtk_text_buffer_get_bounds (self->log, &start, &end);
  return gtk_text_buffer_get_text (self->log, &start, &end, FALSE);
}

/* The runner's lines, except its [STEP x/6] lines: those come translated
 * from ::step-changed. */
static void
runner_log_cb (WsCaptureRunner *runner, guint target, guint step, guint kind, const char *line,
               gpointer data)
{
  WsCapturePanel *self = data;

  if (kind != WS_CAPTURE_LOG_STEP)
    ws_capture_panel_append_log (self, line);
}

static char *
translated_step_line (guint step, WsCaptureStepState state, const char *name, const char *detail)
{
  g_autofree char *number = g_strdup_printf ("%u/%d", step, WS_CAPTURE_N_STEPS);

  switch (state)
    {
      case WS_CAPTURE_STEP_RUNNING:
        /* Translators: [STEP 2/6] started NAME: the step's name */
        return g_strdup_printf (_ ("[STEP %s] started %s: %s"), number, name,
                                ws_capture_step_name (step));
      case WS_CAPTURE_STEP_DONE:
        return g_strdup_printf (_ ("[STEP %s] done %s: %s"), number, name,
                                ws_capture_step_name (step));
      case WS_CAPTURE_STEP_FAILED:
        return g_strdup_printf (_ ("[STEP %s] failed %s: %s"), number, name,
                                detail != NULL ? detail : "");
      case WS_CAPTURE_STEP_SKIPPED:
        return g_strdup_printf (_ ("[STEP %s] skipped %s"), number, name);
      case WS_CAPTURE_STEP_WAITING:
      default:
        return NULL;
    }
}

static void
runner_step_cb (WsCaptureRunner *runner, guint target, guint step, guint state_value,
                const char *detail, gpointer data)
{
  WsCapturePanel *self = data;
  const char *name = g_ptr_array_index (self->run_names, target);
  WsCaptureStepState state = state_value;
  TargetState *target_state = ws_capture_panel_state_for (self, name);
  g_autofree char *line = translated_step_line (step, state, name, detail);
  Row *row;

  target_state->states[step] = state;
  g_free (target_state->messages[step]);
  target_state->messages[step] = g_strdup (detail);
  if (state == WS_CAPTURE_STEP_SKIPPED && g_strcmp0 (detail, "cancelled") == 0)
    target_state->cancelled = TRUE;
  if (line != NULL && state != WS_CAPTURE_STEP_SKIPPED)
    ws_capture_panel_append_log (self, line);
  row = ws_capture_panel_row_for (self, name);
  if (row != NULL)
    ws_capture_panel_show_state (self, row);
}

static void
runner_target_finished_cb (WsCaptureRunner *runner, guint target, gboolean success, const char *dir,
                           gpointer data)
{
  WsCapturePanel *self = data;
  const char *name = g_ptr_array_index (self->run_names, target);
  TargetState *state = ws_capture_panel_state_for (self, name);
  Row *row;

  state->finished = TRUE;
  state->succeeded = success;
  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    if (state->states[s] == WS_CAPTURE_STEP_FAILED &&
        g_strcmp0 (state->messages[s], "cancelled") == 0)
      state->cancelled = TRUE;
  g_free (state->dir);
  state->dir = g_strdup (dir);
  row = ws_capture_panel_row_for (self, name);
  if (row != NULL)
    ws_capture_panel_show_state (self, row);
}

/* A copy from a host: its own bar, in bytes, while it runs. */
static void
runner_transfer_cb (WsCaptureRunner *runner, guint target, guint64 done, guint64 total,
                    const char *file, gpointer data)
{
  WsCapturePanel *self = data;
  g_autofree char *done_text = g_format_size (done);
  g_autofree char *total_text = g_format_size (total);
  g_autofree char *text = NULL;

  if (total == 0 || done >= total)
    {
      gtk_widget_hide (GTK_WIDGET (self->transfer));
      return;
    }
  /* Translators: copying FILE: 1.2 MB of 5.1 MB */
  text =
    g_strdup_printf (_ ("copying %s: %s of %s"), file != NULL ? file : "", done_text, total_text);
  gtk_progress_bar_set_fraction (self->transfer, (double) done / total);
  gtk_progress_bar_set_text (self->transfer, text);
  gtk_widget_show (GTK_WIDGET (self->transfer));
}

static void
runner_fraction_cb (WsCapturePanel *self)
{
  double fraction = ws_capture_runner_get_fraction (self->runner);
  g_autofree char *text = g_strdup_printf ("%.0f%%", fraction * 100);

  gtk_progress_bar_set_fraction (self->progress, fraction);
  gtk_progress_bar_set_text (self->progress, text);
}

static void
run_finished_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsCapturePanel) self = data;
  g_autoptr (GError) error = NULL;
  gboolean ok = ws_capture_runner_run_finish (WS_CAPTURE_RUNNER (source), result, &error);
  g_autofree char *text = NULL;

  if (self->runner != WS_CAPTURE_RUNNER (source))
    return;
  if (!ok && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      ws_capture_panel_append_log (self, _ ("The capture was cancelled."));
      gtk_progress_bar_set_text (self->progress, _ ("Cancelled"));
    }
  else if (!ok)
    {
      ws_capture_panel_append_log (self, error->message);
      gtk_progress_bar_set_text (self->progress, _ ("Not started"));
    }
  else
    {
      guint n = ws_capture_runner_get_n_targets (self->runner);
      guint failed = ws_capture_runner_get_n_failed (self->runner);
      g_autofree char *done = g_strdup_printf ("%u", n - failed);
      g_autofree char *all = g_strdup_printf ("%u", n);

      text = g_strdup_printf (_ ("%s of %s targets captured"), done, all);
      gtk_progress_bar_set_text (self->progress, text);
      ok = failed == 0;
    }
  g_clear_object (&self->cancellable);
  gtk_widget_hide (GTK_WIDGET (self->transfer));
  if (self->list_changed)
    ws_capture_panel_rebuild (self);
  ws_capture_panel_update_buttons (self);
  g_signal_emit_by_name (self, "finished", ok);
}

/**
 * ws_capture_panel_run:
 * @rows: (array length=n_rows): the list's rows to capture
 * @base_dir: the folder a relative output folder starts from
 *
 * Starts a capture of @rows; the step states, the progress and the log
 * follow it.  ::finished tells its end.
 */
void
ws_capture_panel_run (WsCapturePanel *self, const guint *rows, guint n_rows,
                      const WsCaptureSettings *settings, const char *base_dir)
{
  g_return_if_fail (WS_IS_CAPTURE_PANEL (self));
  g_return_if_fail (self->list != NULL);
  g_return_if_fail (!ws_capture_panel_is_running (self));

  if (self->runner != NULL)
    g_signal_handlers_disconnect_by_data (self->runner, self);
  g_clear_object (&self->runner);
  g_ptr_array_set_size (self->run_names, 0);
  for (guint i = 0; i < n_rows; i++)
    {
      const char *name = ws_target_list_get (self->list, rows[i], WS_TARGET_NAME);

      g_ptr_array_add (self->run_names, g_strdup (name));
      g_hash_table_remove (self->states, name);
    }
  for (guint i = 0; i < self->rows->len; i++)
    ws_capture_panel_show_state (self, g_ptr_array_index (self->rows, i));

  gtk_text_buffer_set_text (self->log, "", 0);
  self->log_lines = 0;
  self->log_follow = TRUE;
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_progress_bar_set_text (self->progress, _ ("Starting…"));

  self->runner = ws_capture_runner_new (self->list, rows, n_rows, settings, base_dir);
  ws_capture_runner_set_kernel_lookup (self->runner, ws_nsys_kernel_identities);
  g_signal_connect (self->runner, "log", G_CALLBACK (runner_log_cb), self);
  g_signal_connect (self->runner, "step-changed", G_CALLBACK (runner_step_cb), self);
  g_signal_connect (self->runner, "target-finished", G_CALLBACK (runner_target_finished_cb), self);
  g_signal_connect (self->runner, "transfer", G_CALLBACK (runner_transfer_cb), self);
  g_signal_connect_swapped (self->runner, "notify::fraction", G_CALLBACK (runner_fraction_cb),
                            self);
  self->cancellable = g_cancellable_new ();
  ws_capture_runner_run_async (self->runner, self->cancellable, run_finished_cb,
                               g_object_ref (self));
  ws_capture_panel_update_buttons (self);
}

void
ws_capture_panel_cancel (WsCapturePanel *self)
{
  g_return_if_fail (WS_IS_CAPTURE_PANEL (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

gboolean
ws_capture_panel_is_running (WsCapturePanel *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PANEL (self), FALSE);
  return self->runner != NULL && ws_capture_runner_is_running (self->runner);
}

/**
 * ws_capture_panel_get_runner:
 *
 * Returns: (transfer none) (nullable): the runner of the last run
 */
WsCaptureRunner *
ws_capture_panel_get_runner (WsCapturePanel *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PANEL (self), NULL);
  return self->runner;
}
