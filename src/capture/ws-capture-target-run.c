/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-target-run"
#include "config.h"

#include "ws-capture-target-run.h"
#include "ws-ssh-transfer.h"
#include "ws-target-validate.h"

/* One target of a capture run: what it copied of its row, and what
 * became of each of its steps and commands. */

/**
 * ws_capture_target_run_new:
 *
 * Copies what a run needs of a row of @list: editing the list during a
 * run changes nothing of the run.
 *
 * Returns: (transfer full): the row's target, not started
 */
WsCaptureTargetRun *
ws_capture_target_run_new (WsTargetList *list, guint row)
{
  WsCaptureTargetRun *target;

  g_return_val_if_fail (WS_IS_TARGET_LIST (list), NULL);
  g_return_val_if_fail (row < ws_target_list_get_n_targets (list), NULL);

  target = g_new0 (WsCaptureTargetRun, 1);
  target->row = row;
  target->line = ws_target_list_get_line (list, row);
  target->name = g_strdup (ws_target_list_get (list, row, WS_TARGET_NAME));
  target->cmd = g_strdup (ws_target_list_get (list, row, WS_TARGET_CMD));
  target->workdir_cell = g_strdup (ws_target_list_get (list, row, WS_TARGET_WORKDIR));
  target->workdir = ws_target_list_resolve_workdir (list, row);
  target->envs = g_strdup (ws_target_list_get (list, row, WS_TARGET_ENVS));
  if (ws_target_list_is_remote (list, row))
    target->host = g_strstrip (g_strdup (ws_target_list_get (list, row, WS_TARGET_HOST)));
  target->fetched = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_fetched_free);
  return target;
}

/* Frees a target's run and its plan. */
void
ws_capture_target_run_free (WsCaptureTargetRun *target)
{
  if (target == NULL)
    return;
  g_free (target->name);
  g_free (target->cmd);
  g_free (target->workdir_cell);
  g_free (target->workdir);
  g_free (target->envs);
  g_free (target->folder_name);
  g_free (target->dir);
  g_free (target->host);
  g_free (target->remote_dir);
  g_free (target->remote_workdir);
  g_clear_pointer (&target->fetched, g_ptr_array_unref);
  g_clear_pointer (&target->plan, ws_capture_plan_free);
  for (guint i = 0; i <= WS_CAPTURE_N_STEPS; i++)
    {
      g_free (target->messages[i]);
      if (target->results[i] != NULL)
        {
          for (guint j = 0; j < target->results[i]->len; j++)
            g_free (g_array_index (target->results[i], WsCaptureCommandResult, j).message);
          g_array_unref (target->results[i]);
        }
    }
  g_free (target);
}

/**
 * ws_capture_target_run_set_state:
 * @step: 1 to 6
 * @detail: (nullable): what the step does, or why it failed or was skipped
 *
 * Records a step's state, with the times it started and ended.
 */
void
ws_capture_target_run_set_state (WsCaptureTargetRun *target, guint step, WsCaptureStepState state,
                                 const char *detail)
{
  g_return_if_fail (target != NULL && step >= 1 && step <= WS_CAPTURE_N_STEPS);

  target->states[step] = state;
  g_free (target->messages[step]);
  target->messages[step] = g_strdup (detail);
  if (state == WS_CAPTURE_STEP_RUNNING)
    target->step_started[step] = g_get_real_time ();
  else if (state != WS_CAPTURE_STEP_WAITING && target->step_started[step] != 0)
    target->step_finished[step] = g_get_real_time ();
}

/**
 * ws_capture_target_run_steps_done:
 * @step: the step running, or 0 when the target is not the one running
 * @command: the commands of @step done so far
 *
 * Returns: how many of the six steps are over, the running one counted by
 *   its share of commands done: for the run's progress
 */
double
ws_capture_target_run_steps_done (const WsCaptureTargetRun *target, guint step, guint command)
{
  double done = 0;

  g_return_val_if_fail (target != NULL, 0);

  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    if (target->states[s] >= WS_CAPTURE_STEP_DONE)
      done += 1;
    else if (target->states[s] == WS_CAPTURE_STEP_RUNNING && target->plan != NULL &&
             target->plan->steps[s]->len > 0 && s == step)
      done += (double) command / target->plan->steps[s]->len;
  return done;
}

/**
 * ws_capture_target_run_n_failed:
 * @n: how many of @step's commands to look at, from the first
 *
 * Returns: how many of them failed
 */
guint
ws_capture_target_run_n_failed (const WsCaptureTargetRun *target, guint step, guint n)
{
  guint n_failed = 0;

  g_return_val_if_fail (target != NULL && step >= 1 && step <= WS_CAPTURE_N_STEPS, 0);
  g_return_val_if_fail (target->results[step] != NULL && n <= target->results[step]->len, 0);

  for (guint c = 0; c < n; c++)
    n_failed += g_array_index (target->results[step], WsCaptureCommandResult, c).message != NULL;
  return n_failed;
}

/**
 * ws_capture_target_run_status:
 * @cancelled: whether the run was cancelled
 *
 * Returns: (transfer none): what run.json says of the target: `running`,
 *   `done`, `cancelled` (a step stopped by the cancel) or `failed`
 */
const char *
ws_capture_target_run_status (const WsCaptureTargetRun *target, gboolean cancelled)
{
  g_return_val_if_fail (target != NULL, NULL);

  if (target->finished == 0)
    return "running";
  if (target->finished_ok)
    return "done";
  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    if (target->states[s] == WS_CAPTURE_STEP_FAILED && cancelled &&
        g_strcmp0 (target->messages[s], "cancelled") == 0)
      return "cancelled";
  return "failed";
}
