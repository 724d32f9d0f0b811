/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-runner"
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>

#include "ws-capture-error.h"
#include "ws-capture-manifest.h"
#include "ws-capture-prepare.h"
#include "ws-capture-runner.h"
#include "ws-capture-remote.h"
#include "ws-capture-runner-private.h"
#include "ws-tool-query.h"
#include "ws-tool-process.h"
#include "ws-tool-query.h"

/* Runs the targets one after the other, each through the six steps, on the
 * main context of the caller: every wait is asynchronous, so a window
 * stays responsive and a command line program needs only a main loop.
 * Each command is a WsToolProcess: a process group of its own, ended
 * whole when it exits or when the run is cancelled. */

G_DEFINE_FINAL_TYPE (WsCaptureRunner, ws_capture_runner, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  LOG,
  STEP_CHANGED,
  TARGET_FINISHED,
  TRANSFER,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void run_step (WsCaptureRunner *self);
static void start_target (WsCaptureRunner *self);

static void
ws_capture_runner_dispose (GObject *object)
{
  WsCaptureRunner *self = WS_CAPTURE_RUNNER (object);

  if (self->context != NULL)
    ws_capture_runner_watchdog_stop (self);
  /* Nothing outlives the runner: no time for a grace period here. */
  if (self->process != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->process, self);
      ws_tool_process_kill (self->process);
    }
  g_clear_object (&self->process);
  if (self->remote_cancellable != NULL)
    g_cancellable_cancel (self->remote_cancellable);
  ws_capture_runner_close_hosts (self);

  G_OBJECT_CLASS (ws_capture_runner_parent_class)->dispose (object);
}

static void
ws_capture_runner_finalize (GObject *object)
{
  WsCaptureRunner *self = WS_CAPTURE_RUNNER (object);

  g_clear_pointer (&self->settings, ws_capture_settings_free);
  g_free (self->targets_file);
  g_free (self->base_dir);
  g_strfreev (self->base_env);
  g_ptr_array_unref (self->targets);
  ws_capture_run_setup_clear (&self->setup);
  if (self->log != NULL)
    fclose (self->log);
  g_free (self->nsys_version);
  g_free (self->ncu_version);
  g_clear_pointer (&self->gpus, g_ptr_array_unref);
  g_clear_pointer (&self->stall_message, g_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  ws_capture_output_watch_clear (&self->output);
  g_clear_pointer (&self->hosts, g_ptr_array_unref);
  g_clear_pointer (&self->asked, ws_capture_settings_free);
  g_clear_object (&self->remote_cancellable);
  g_free (self->token);
  ws_ssh_remote_end_clear (&self->remote_end);
  g_free (self->ssh_said);

  G_OBJECT_CLASS (ws_capture_runner_parent_class)->finalize (object);
}

static void
ws_capture_runner_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsCaptureRunner *self = WS_CAPTURE_RUNNER (object);

  switch (prop_id)
    {
      case PROP_FRACTION:
        g_value_set_double (value, self->fraction);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_capture_runner_class_init (WsCaptureRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_capture_runner_dispose;
  object_class->finalize = ws_capture_runner_finalize;
  object_class->get_property = ws_capture_runner_get_property;

  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsCaptureRunner::log:
   * @target: the target's index, or G_MAXUINT for the run as a whole
   * @step: 1 to 6, or 0 outside the steps
   * @kind: a #WsCaptureLogKind
   * @line: the line as the log file gets it
   *
   * One line of the log, as it comes.
   */
  signals[LOG] =
    g_signal_new ("log", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_STRING);

  /**
   * WsCaptureRunner::step-changed:
   * @state: a #WsCaptureStepState
   * @detail: (nullable): what the step does, or why it failed or was skipped
   */
  signals[STEP_CHANGED] =
    g_signal_new ("step-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_STRING);

  /**
   * WsCaptureRunner::target-finished:
   * @success: whether every step succeeded
   * @dir: (nullable): the target's capture folder
   */
  signals[TARGET_FINISHED] =
    g_signal_new ("target-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_BOOLEAN, G_TYPE_STRING);

  /**
   * WsCaptureRunner::transfer:
   * @target: the target whose files are copied back from its host
   * @done: bytes copied so far, of the files of this copy
   * @total: bytes of those files
   * @file: (nullable): the file being copied
   *
   * The progress of a copy from a host, at most ten times a second.
   */
  signals[TRANSFER] =
    g_signal_new ("transfer", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_STRING);
}

void
ws_capture_runner_emit_transfer (WsCaptureRunner *self, guint64 done, guint64 total,
                                 const char *file)
{
  g_signal_emit (self, signals[TRANSFER], 0, self->current, done, total, file);
}

static void
ws_capture_runner_init (WsCaptureRunner *self)
{
  self->targets = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_capture_target_run_free);
  self->grace_ms = WS_CAPTURE_GRACE_MS;
}

/**
 * ws_capture_runner_new:
 * @rows: (array length=n_rows): the rows of @list to capture, in order
 * @settings: copied
 * @base_dir: the folder a relative OUT_DIR or GLOBAL_LOG starts from
 *
 * Copies what it needs of @list: editing the list during a run changes
 * nothing of the run.
 *
 * Returns: (transfer full): a runner, ready for ws_capture_runner_run_async()
 */
WsCaptureRunner *
ws_capture_runner_new (WsTargetList *list, const guint *rows, guint n_rows,
                       const WsCaptureSettings *settings, const char *base_dir)
{
  WsCaptureRunner *self;
  guint n;

  g_return_val_if_fail (WS_IS_TARGET_LIST (list), NULL);
  g_return_val_if_fail (rows != NULL || n_rows == 0, NULL);
  g_return_val_if_fail (settings != NULL && base_dir != NULL, NULL);

  self = g_object_new (WS_TYPE_CAPTURE_RUNNER, NULL);
  self->settings = ws_capture_settings_copy (settings);
  self->targets_file = g_strdup (ws_target_list_get_path (list));
  self->base_dir = g_strdup (base_dir);
  n = ws_target_list_get_n_targets (list);
  for (guint i = 0; i < n_rows; i++)
    {
      WsCaptureTargetRun *target;

      g_return_val_if_fail (rows[i] < n, self);
      target = ws_capture_target_run_new (list, rows[i]);
      /* --host sends every target there; WORKDIR is then a folder there. */
      if (settings->host != NULL)
        {
          g_free (target->host);
          target->host = ws_ssh_host_is_local (settings->host) ? NULL : g_strdup (settings->host);
          if (target->host != NULL)
            {
              g_free (target->workdir);
              target->workdir = ws_target_value_is_empty (target->workdir_cell)
                                  ? g_strdup ("")
                                  : g_strstrip (g_strdup (target->workdir_cell));
            }
        }
      g_ptr_array_add (self->targets, target);
    }
  return self;
}

/* Milliseconds between SIGTERM and SIGKILL; tests shorten it. */
void
ws_capture_runner_set_grace (WsCaptureRunner *self, guint grace_ms)
{
  g_return_if_fail (WS_IS_CAPTURE_RUNNER (self));
  self->grace_ms = grace_ms;
}

/**
 * ws_capture_runner_set_kernel_lookup:
 * @lookup: (nullable): reads the mangled name, grid and block of each
 *   picked kernel from the nsys export
 *
 * With it, step 4 records which nsys kernel each ncu report is made for,
 * so that a reader joins them by construction (run.json "kernels").
 */
void
ws_capture_runner_set_kernel_lookup (WsCaptureRunner *self, WsCaptureKernelLookup lookup)
{
  g_return_if_fail (WS_IS_CAPTURE_RUNNER (self));
  self->lookup = lookup;
}

WsCaptureTargetRun *
ws_capture_runner_current (WsCaptureRunner *self)
{
  return g_ptr_array_index (self->targets, self->current);
}

static void
log_line (WsCaptureRunner *self, guint target, guint step, WsCaptureLogKind kind, const char *line)
{
  if (self->log != NULL)
    {
      fputs (line, self->log);
      fputc ('\n', self->log);
      fflush (self->log);
    }
  g_signal_emit (self, signals[LOG], 0, target, step, (guint) kind, line);
}

void
ws_capture_runner_log_info (WsCaptureRunner *self, guint step, const char *format, ...)
{
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);
  log_line (self, self->in_target ? self->current : G_MAXUINT, step, WS_CAPTURE_LOG_INFO, line);
}

static void
update_fraction (WsCaptureRunner *self)
{
  double units = (double) self->targets->len * WS_CAPTURE_N_STEPS;
  double done = 0;
  double fraction;

  for (guint i = 0; i < self->targets->len; i++)
    done += ws_capture_target_run_steps_done (g_ptr_array_index (self->targets, i),
                                              i == self->current ? self->step : 0, self->command);
  fraction = units > 0 ? CLAMP (done / units, 0, 1) : 1;
  if (fraction != self->fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
}

static void
set_state (WsCaptureRunner *self, guint t, guint step, WsCaptureStepState state, const char *detail)
{
  WsCaptureTargetRun *target = g_ptr_array_index (self->targets, t);

  ws_capture_target_run_set_state (target, step, state, detail);
  if (state != WS_CAPTURE_STEP_WAITING)
    {
      g_autofree char *line = ws_capture_step_line (step, state, target->name, detail);

      log_line (self, t, step, WS_CAPTURE_LOG_STEP, line);
    }
  g_signal_emit (self, signals[STEP_CHANGED], 0, t, step, (guint) state, detail);
  update_fraction (self);
}

void
ws_capture_runner_write_manifest (WsCaptureRunner *self, WsCaptureTargetRun *target)
{
  WsCaptureRunInfo info = {
    .targets_file = self->targets_file,
    .group = self->setup.group,
    .nsys = self->setup.nsys,
    .nsys_version = self->nsys_version,
    .ncu = self->setup.ncu,
    .ncu_version = self->ncu_version,
    .gpus = self->gpus,
    .settings = self->settings,
  };
  g_autoptr (GError) error = NULL;

  /* A target on a host: the tools, GPUs and settings there. */
  if (target->remote != NULL && target->remote->info != NULL)
    {
      info.nsys = target->remote->nsys;
      info.nsys_version = target->remote->info->nsys_version;
      info.ncu = target->remote->ncu;
      info.ncu_version = target->remote->info->ncu_version;
      info.gpus = target->remote->info->gpus;
      info.settings = target->remote->settings;
    }

  if (!ws_capture_manifest_write (target, ws_capture_target_run_status (target, self->cancelled),
                                  &info, &error))
    ws_capture_runner_log_info (self, 0, "warning: %s", error->message);
}

/* ---- finishing --------------------------------------------------------- */

static void
disconnect_cancellable (WsCaptureRunner *self)
{
  if (self->cancellable != NULL && self->cancel_id != 0)
    g_cancellable_disconnect (self->cancellable, self->cancel_id);
  self->cancel_id = 0;
  g_clear_object (&self->cancellable);
}

static void
finish_run (WsCaptureRunner *self)
{
  g_autoptr (GTask) task = g_steal_pointer (&self->task);
  guint n_done = self->targets->len - self->n_failed;

  self->current = self->targets->len;
  update_fraction (self);
  if (self->cancelled)
    ws_capture_runner_log_info (self, 0, "== cancelled: %u of %u targets done ==", n_done,
                                self->targets->len);
  else
    ws_capture_runner_log_info (self, 0, "== finished: %u of %u targets done, %u failed ==", n_done,
                                self->targets->len, self->n_failed);
  if (self->log != NULL)
    {
      fclose (self->log);
      self->log = NULL;
    }
  disconnect_cancellable (self);
  ws_capture_runner_close_hosts (self);

  if (self->cancelled)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "the capture was cancelled");
  else
    g_task_return_boolean (task, TRUE);
}

/* After a cancel: the targets not started are skipped, and count as
 * failed. */
static void
skip_rest (WsCaptureRunner *self)
{
  for (guint t = self->current; t < self->targets->len; t++)
    {
      for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
        set_state (self, t, s, WS_CAPTURE_STEP_SKIPPED, "cancelled");
      self->n_failed++;
    }
  self->current = self->targets->len;
}

/* Starts the target at self->current, or ends the run when none is left
 * or it was cancelled. */
void
ws_capture_runner_next_target (WsCaptureRunner *self)
{
  if (self->cancelled)
    skip_rest (self);
  if (self->current >= self->targets->len)
    finish_run (self);
  else
    start_target (self);
}

/* A target's end: what a host still has of it comes back first. */
static void
finish_target (WsCaptureRunner *self)
{
  if (!ws_capture_runner_remote_fetch_reports (self))
    ws_capture_runner_target_done (self);
}

void
ws_capture_runner_target_done (WsCaptureRunner *self)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);
  gboolean ok = TRUE;

  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    ok = ok && target->states[s] == WS_CAPTURE_STEP_DONE;
  target->finished_ok = ok;
  target->finished = g_get_real_time ();
  if (!ok)
    self->n_failed++;
  ws_capture_runner_write_manifest (self, target);
  ws_capture_runner_log_info (self, 0, "== %s %s: %s ==", target->name, ok ? "done" : "failed",
                              target->dir != NULL ? target->dir : "(no folder)");
  g_signal_emit (self, signals[TARGET_FINISHED], 0, self->current, ok, target->dir);
  self->in_target = FALSE;

  self->current++;
  ws_capture_runner_next_target (self);
}

static gboolean
run_step_idle (gpointer data)
{
  run_step (data);
  return G_SOURCE_REMOVE;
}

/* The next step runs from the main loop, not from inside this one's
 * callback: no recursion however many targets fail at once. */
static void
next_step (WsCaptureRunner *self)
{
  GSource *source = g_idle_source_new ();

  self->step++;
  g_source_set_callback (source, run_step_idle, g_object_ref (self), g_object_unref);
  g_source_attach (source, self->context);
  g_source_unref (source);
}

/* A step's end: on a host, its files come back first. */
void
ws_capture_runner_step_finished (WsCaptureRunner *self, gboolean ok, const char *detail)
{
  if (!ws_capture_runner_remote_fetch_step (self, ok, detail))
    ws_capture_runner_step_done (self, ok, detail);
}

void
ws_capture_runner_step_done (WsCaptureRunner *self, gboolean ok, const char *detail)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);
  guint step = self->step;
  gboolean go_on;

  set_state (self, self->current, step, ok ? WS_CAPTURE_STEP_DONE : WS_CAPTURE_STEP_FAILED, detail);

  /* Without kernels there is nothing for ncu, whatever the settings say. */
  go_on = ok || (self->settings->continue_on_error && !self->cancelled &&
                 step != WS_CAPTURE_STEP_PREPARE && step != WS_CAPTURE_STEP_TOP_KERNELS);
  if (self->cancelled && step < WS_CAPTURE_N_STEPS)
    go_on = FALSE;

  if (target->plan != NULL)
    ws_capture_runner_write_manifest (self, target);
  if (go_on && step < WS_CAPTURE_N_STEPS)
    {
      next_step (self);
      return;
    }
  for (guint s = step + 1; s <= WS_CAPTURE_N_STEPS; s++)
    set_state (self, self->current, s, WS_CAPTURE_STEP_SKIPPED,
               self->cancelled ? "cancelled" : "an earlier step failed");
  finish_target (self);
}

/* ---- commands ---------------------------------------------------------- */

static void run_command (WsCaptureRunner *self);

static const WsCaptureCommand *
command_of (WsCaptureRunner *self)
{
  return g_ptr_array_index (ws_capture_runner_current (self)->plan->steps[self->step],
                            self->command);
}

static WsCaptureCommandResult *
result_of (WsCaptureRunner *self)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);

  return &g_array_index (target->results[self->step], WsCaptureCommandResult, self->command);
}

static void
command_finished (WsCaptureRunner *self)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);
  const WsCaptureCommand *command = command_of (self);
  WsCaptureCommandResult *result = result_of (self);
  GPtrArray *commands = target->plan->steps[self->step];
  guint n_failed;

  result->finished = g_get_real_time ();
  if (self->cancelled)
    result->message = g_strdup ("cancelled");
  else if (self->stall_message != NULL)
    result->message = g_steal_pointer (&self->stall_message);
  else if (target->remote != NULL)
    result->message = ws_capture_runner_remote_problem (self, command);
  else
    result->message = ws_capture_command_problem (
      command, self->exit_status, self->output.problem_line, self->output.no_kernels_profiled);
  result->exit_status = self->exit_status;

  if (result->message != NULL && (self->cancelled || !self->settings->continue_on_error))
    {
      g_autofree char *detail = commands->len > 1 && !self->cancelled
                                  ? g_strdup_printf ("%s (%s)", result->message, command->kernel)
                                  : g_strdup (result->message);

      ws_capture_runner_step_finished (self, FALSE, detail);
      return;
    }
  if (result->message != NULL)
    ws_capture_runner_log_info (self, self->step, "%s: %s",
                                command->kernel != NULL ? command->kernel : target->name,
                                result->message);

  self->command++;
  update_fraction (self);
  if (self->command < commands->len)
    {
      run_command (self);
      return;
    }
  n_failed = ws_capture_target_run_n_failed (target, self->step, commands->len);
  if (n_failed > 0)
    {
      if (commands->len == 1)
        ws_capture_runner_step_finished (self, FALSE, result->message);
      else
        {
          g_autofree char *detail =
            g_strdup_printf ("%u of %u commands failed", n_failed, commands->len);

          ws_capture_runner_step_finished (self, FALSE, detail);
        }
      return;
    }
  ws_capture_runner_step_finished (self, TRUE, ws_capture_step_title (self->step));
}

static void
process_line_cb (WsToolProcess *process, gboolean is_stderr, const char *line, gpointer data)
{
  WsCaptureRunner *self = data;

  ws_capture_runner_watchdog_feed (self);
  if (ws_capture_runner_remote_line (self, is_stderr, line))
    return;
  ws_capture_output_watch_line (&self->output, line);
  log_line (self, self->current, self->step,
            is_stderr ? WS_CAPTURE_LOG_STDERR : WS_CAPTURE_LOG_STDOUT, line);
}

static void
process_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsCaptureRunner) self = data;
  g_autoptr (WsToolProcess) process = NULL;
  g_autoptr (GError) error = NULL;
  int status = -1;

  /* A process the runner let go of (dispose) is not its business. */
  if (self->process != WS_TOOL_PROCESS (source))
    return;
  process = g_steal_pointer (&self->process);
  ws_capture_runner_watchdog_stop (self);
  g_signal_handlers_disconnect_by_data (process, self);
  if (!ws_tool_process_run_finish (process, result, &status, &error))
    {
      g_free (self->output.problem_line);
      self->output.problem_line = g_strdup (error->message);
      status = -1;
    }
  self->exit_status = status;
  command_finished (self);
}

static void
run_command (WsCaptureRunner *self)
{
  const WsCaptureCommand *command = command_of (self);
  WsCaptureCommandResult *result = result_of (self);
  g_autofree char *line = NULL;

  ws_capture_output_watch_clear (&self->output);
  self->exit_status = -1;
  if (self->cancelled)
    {
      command_finished (self);
      return;
    }

  if (ws_capture_runner_current (self)->remote != NULL)
    self->process = ws_capture_runner_remote_process (self, command, &line);
  else
    {
      line = ws_capture_command_line (command);
      self->process = ws_tool_process_new (command->argv, command->cwd, command->envp,
                                           command->stdout_path, self->grace_ms);
    }
  log_line (self, self->current, self->step, WS_CAPTURE_LOG_COMMAND, line);
  result->started = g_get_real_time ();
  result->exit_status = -1;
  g_signal_connect (self->process, "line", G_CALLBACK (process_line_cb), self);
  ws_tool_process_run_async (self->process, process_done_cb, g_object_ref (self));
  ws_capture_runner_watchdog_start (self);
}

/* ---- steps ------------------------------------------------------------- */

static void
run_step (WsCaptureRunner *self)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);
  guint step = self->step;
  g_autoptr (GError) error = NULL;
  gboolean ok;

  if (self->cancelled)
    {
      set_state (self, self->current, step, WS_CAPTURE_STEP_FAILED, "cancelled");
      for (guint s = step + 1; s <= WS_CAPTURE_N_STEPS; s++)
        set_state (self, self->current, s, WS_CAPTURE_STEP_SKIPPED, "cancelled");
      finish_target (self);
      return;
    }

  set_state (self, self->current, step, WS_CAPTURE_STEP_RUNNING, ws_capture_step_title (step));
  switch (step)
    {
      case WS_CAPTURE_STEP_PREPARE:
        /* On a host, step 1 runs there, on a worker thread. */
        if (ws_capture_runner_remote_prepare (self))
          return;
        ok = ws_capture_prepare_target (target, self->setup.group_dir, self->settings,
                                        self->setup.nsys, self->setup.ncu,
                                        (const char *const *) self->base_env, &error);
        if (ok)
          ws_capture_runner_write_manifest (self, target);
        ws_capture_runner_step_finished (self, ok, ok ? target->dir : error->message);
        return;

      case WS_CAPTURE_STEP_TOP_KERNELS:
        ws_capture_runner_pick_kernels (self, target);
        return;

      default:
        g_array_set_size (target->results[step], target->plan->steps[step]->len);
        self->command = 0;
        if (target->plan->steps[step]->len == 0)
          {
            ws_capture_runner_step_finished (self, FALSE, "nothing to run");
            return;
          }
        run_command (self);
    }
}

static void
start_target (WsCaptureRunner *self)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);

  target->started = g_get_real_time ();
  self->in_target = TRUE;
  ws_capture_runner_log_info (self, 0, "== %s (%u/%u): %s ==", target->name, self->current + 1,
                              self->targets->len, target->cmd);
  self->step = WS_CAPTURE_STEP_PREPARE;
  run_step (self);
}

/* ---- start ------------------------------------------------------------- */

static void
cancel_now (WsCaptureRunner *self)
{
  if (self->cancelled || self->task == NULL)
    return;
  self->cancelled = TRUE;
  ws_capture_runner_log_info (self, self->step,
                              "cancelling: SIGTERM to the running command's process group");
  if (self->process != NULL)
    ws_tool_process_terminate (self->process);
  if (self->remote_cancellable != NULL)
    g_cancellable_cancel (self->remote_cancellable);
}

static gboolean
cancel_idle (gpointer data)
{
  cancel_now (data);
  return G_SOURCE_REMOVE;
}

static void
cancelled_cb (GCancellable *cancellable, gpointer data)
{
  WsCaptureRunner *self = data;

  /* May come from another thread: act on the runner's own context. */
  g_main_context_invoke_full (self->context, G_PRIORITY_HIGH, cancel_idle, g_object_ref (self),
                              g_object_unref);
}

static void
probe_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsCaptureRunner) self = data;
  g_autoptr (WsToolInfo) info = ws_tool_probe_finish (result, NULL);
  g_autoptr (GPtrArray) fitted = g_ptr_array_new_with_free_func (g_free);

  /* Cancelled while the tools were asked (the tool was killed). */
  if (info == NULL)
    {
      cancel_now (self);
      ws_capture_runner_next_target (self);
      return;
    }
  self->nsys_version = g_strdup (info->nsys_version);
  self->ncu_version = g_strdup (info->ncu_version);
  self->gpus = g_ptr_array_ref (info->gpus);
  ws_capture_runner_log_info (self, 0, "nsys %s: %s",
                              self->nsys_version != NULL ? self->nsys_version : "?",
                              self->setup.nsys);
  ws_capture_runner_log_info (self, 0, "ncu %s: %s",
                              self->ncu_version != NULL ? self->ncu_version : "?", self->setup.ncu);
  for (guint i = 0; i < info->gpus->len; i++)
    ws_capture_runner_log_info (self, 0, "GPU %u: %s", i,
                                (char *) g_ptr_array_index (info->gpus, i));
  for (guint i = 0; i < info->warnings->len; i++)
    ws_capture_runner_log_info (self, 0, "warning: %s",
                                (char *) g_ptr_array_index (info->warnings, i));
  ws_capture_settings_fit_ncu (self->settings, info->sets, info->sections, fitted);
  for (guint i = 0; i < fitted->len; i++)
    ws_capture_runner_log_info (self, 0, "warning: %s", (char *) g_ptr_array_index (fitted, i));

  ws_capture_runner_open_hosts (self);
}

/**
 * ws_capture_runner_run_async:
 *
 * Checks the targets and settings, finds nsys and ncu, creates the group
 * folder and the log, then runs each target through the six steps.
 * Cancelling @cancellable stops the command running (its whole process
 * group) and skips the rest; the run finishes once no process of it is
 * left.
 */
void
ws_capture_runner_run_async (WsCaptureRunner *self, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GError) error = NULL;

  g_return_if_fail (WS_IS_CAPTURE_RUNNER (self));
  g_return_if_fail (self->task == NULL && self->context == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_capture_runner_run_async);
  self->context = g_main_context_ref_thread_default ();
  if (self->base_env == NULL)
    self->base_env = g_get_environ ();

  if (!ws_capture_prepare_run (&self->setup, self->settings, self->targets, self->targets_file,
                               self->base_dir, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* GLOBAL_LOG is rewritten each run, as the workflow did. */
  self->log = g_fopen (self->setup.log_path, "we");
  if (self->log == NULL)
    {
      int saved = errno;

      g_task_return_new_error (task, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_IO, "%s: %s",
                               self->setup.log_path, g_strerror (saved));
      return;
    }

  self->task = g_steal_pointer (&task);
  if (cancellable != NULL)
    {
      self->cancellable = g_object_ref (cancellable);
      self->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), self, NULL);
    }

  {
    g_autofree char *started = ws_capture_manifest_time (g_get_real_time ());

    ws_capture_runner_log_info (self, 0, "== warpscope capture %s: %u targets → %s ==", started,
                                self->targets->len, self->setup.group_dir);
  }
  if (self->targets_file != NULL)
    ws_capture_runner_log_info (self, 0, "targets: %s", self->targets_file);

  /* This machine's tools when a target runs here; then the hosts. */
  self->asked = ws_capture_settings_copy (self->settings);
  if (self->setup.nsys != NULL)
    ws_tool_probe_async (self->setup.nsys, self->setup.ncu, self->cancellable, probe_done,
                         g_object_ref (self));
  else
    ws_capture_runner_open_hosts (self);
}

/**
 * ws_capture_runner_run_finish:
 *
 * Returns: %TRUE when the run went through (ws_capture_runner_get_n_failed()
 *   says whether each target succeeded); %FALSE with @error when it could
 *   not start (WS_CAPTURE_ERROR) or was cancelled (G_IO_ERROR_CANCELLED)
 */
gboolean
ws_capture_runner_run_finish (WsCaptureRunner *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * ws_capture_runner_kill:
 *
 * Kills the running command's process group at once, without a grace
 * period, and cancels the run: for a program about to exit, which has no
 * time left to wait.
 */
void
ws_capture_runner_kill (WsCaptureRunner *self)
{
  g_return_if_fail (WS_IS_CAPTURE_RUNNER (self));

  cancel_now (self);
  if (self->process != NULL)
    ws_tool_process_kill (self->process);
}

gboolean
ws_capture_runner_is_running (WsCaptureRunner *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_RUNNER (self), FALSE);
  return self->task != NULL;
}
