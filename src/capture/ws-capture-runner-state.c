/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-runner"
#include "config.h"

#include "ws-capture-runner-private.h"

/* What a view or the command line asks of a run: its targets, their
 * steps' states and messages, its progress and files. */

guint
ws_capture_runner_get_n_targets (WsCaptureRunner *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), 0);
  return self->targets->len;
}

const char *
ws_capture_runner_get_target_name (WsCaptureRunner *self, guint target)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), NULL);
  g_return_val_if_fail (target < self->targets->len, NULL);
  return ((WsCaptureTargetRun *) g_ptr_array_index (self->targets, target))->name;
}

/**
 * ws_capture_runner_get_target_dir:
 *
 * Returns: (transfer none) (nullable): the target's capture folder, once
 *   step 1 made it
 */
const char *
ws_capture_runner_get_target_dir (WsCaptureRunner *self, guint target)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), NULL);
  g_return_val_if_fail (target < self->targets->len, NULL);
  return ((WsCaptureTargetRun *) g_ptr_array_index (self->targets, target))->dir;
}

WsCaptureStepState
ws_capture_runner_get_step_state (WsCaptureRunner *self, guint target, guint step)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), WS_CAPTURE_STEP_WAITING);
  g_return_val_if_fail (target < self->targets->len, WS_CAPTURE_STEP_WAITING);
  g_return_val_if_fail (step >= 1 && step <= WS_CAPTURE_N_STEPS, WS_CAPTURE_STEP_WAITING);
  return ((WsCaptureTargetRun *) g_ptr_array_index (self->targets, target))->states[step];
}

/**
 * ws_capture_runner_get_step_message:
 *
 * Returns: (transfer none) (nullable): what the step did, or why it failed
 */
const char *
ws_capture_runner_get_step_message (WsCaptureRunner *self, guint target, guint step)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), NULL);
  g_return_val_if_fail (target < self->targets->len, NULL);
  g_return_val_if_fail (step >= 1 && step <= WS_CAPTURE_N_STEPS, NULL);
  return ((WsCaptureTargetRun *) g_ptr_array_index (self->targets, target))->messages[step];
}

gboolean
ws_capture_runner_get_target_succeeded (WsCaptureRunner *self, guint target)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), FALSE);
  g_return_val_if_fail (target < self->targets->len, FALSE);
  return ((WsCaptureTargetRun *) g_ptr_array_index (self->targets, target))->finished_ok;
}

guint
ws_capture_runner_get_n_failed (WsCaptureRunner *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), 0);
  return self->n_failed;
}

double
ws_capture_runner_get_fraction (WsCaptureRunner *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), 0);
  return self->fraction;
}

/**
 * ws_capture_runner_get_group_dir:
 *
 * Returns: (transfer none) (nullable): OUT/<group>, once the run started
 */
const char *
ws_capture_runner_get_group_dir (WsCaptureRunner *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), NULL);
  return self->setup.group_dir;
}

/**
 * ws_capture_runner_get_log_path:
 *
 * Returns: (transfer none) (nullable): the log file, once the run started
 */
const char *
ws_capture_runner_get_log_path (WsCaptureRunner *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), NULL);
  return self->setup.log_path;
}
