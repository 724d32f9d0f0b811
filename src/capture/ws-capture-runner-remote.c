/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-runner"
#include "config.h"

#include <string.h>

#include "ws-capture-error.h"
#include "ws-capture-remote.h"
#include "ws-capture-runner-private.h"
#include "ws-ssh-host.h"

/* The runner's part for targets on other machines: one master connection
 * per host for the run, step 1 there, each command there in a process
 * group of its own, and the files copied back as each step ends (the
 * kernel summary and the SQLite export after step 3, the ncu CSVs after
 * step 6, the reports last).  Every wait is asynchronous; what blocks
 * (ssh round trips, copies) runs on worker threads. */

static void
log_host (WsCaptureRunner *self, WsCaptureHostRun *run)
{
  g_autofree char *where = NULL;

  if (run->error != NULL)
    {
      ws_capture_runner_log_info (self, 0, "host %s: %s", run->key, run->error->message);
      return;
    }
  where = ws_ssh_host_describe (run->host);
  ws_capture_runner_log_info (self, 0, "host %s (%s): captures in %s", where, run->hostname,
                              run->group_dir);
  ws_capture_runner_log_info (self, 0, "  nsys %s: %s",
                              run->info->nsys_version != NULL ? run->info->nsys_version : "?",
                              run->nsys);
  ws_capture_runner_log_info (self, 0, "  ncu %s: %s",
                              run->info->ncu_version != NULL ? run->info->ncu_version : "?",
                              run->ncu);
  for (guint i = 0; i < run->info->gpus->len; i++)
    ws_capture_runner_log_info (self, 0, "  GPU %u: %s", i,
                                (char *) g_ptr_array_index (run->info->gpus, i));
  for (guint i = 0; i < run->warnings->len; i++)
    ws_capture_runner_log_info (self, 0, "  warning: %s",
                                (char *) g_ptr_array_index (run->warnings, i));
}

static void
hosts_opened_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsCaptureRunner) self = data;

  ws_capture_host_runs_open_finish (result);
  if (self->hosts == NULL)
    return;
  for (guint i = 0; i < self->hosts->len; i++)
    log_host (self, g_ptr_array_index (self->hosts, i));
  ws_capture_runner_next_target (self);
}

/**
 * ws_capture_runner_open_hosts:
 *
 * Connects to the hosts of the run's targets, one master connection each,
 * then starts the first target.  A host that cannot be reached fails its
 * targets at step 1, with the reason; the others run.
 */
void
ws_capture_runner_open_hosts (WsCaptureRunner *self)
{
  g_autoptr (GStrvBuilder) folders = g_strv_builder_new ();
  g_auto (GStrv) folder_names = NULL;

  for (guint t = 0; t < self->targets->len; t++)
    {
      WsCaptureTargetRun *target = g_ptr_array_index (self->targets, t);

      g_strv_builder_add (folders, target->folder_name);
      if (target->host == NULL)
        continue;
      if (self->hosts == NULL)
        self->hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_capture_host_run_free);
      for (guint h = 0; h < self->hosts->len && target->remote == NULL; h++)
        if (g_str_equal (((WsCaptureHostRun *) g_ptr_array_index (self->hosts, h))->key,
                         target->host))
          target->remote = g_ptr_array_index (self->hosts, h);
      if (target->remote == NULL)
        {
          target->remote = ws_capture_host_run_new (target->host);
          g_ptr_array_add (self->hosts, target->remote);
        }
    }
  if (self->hosts == NULL)
    {
      ws_capture_runner_next_target (self);
      return;
    }
  folder_names = g_strv_builder_end (folders);
  self->remote_cancellable = g_cancellable_new ();
  if (self->cancelled)
    g_cancellable_cancel (self->remote_cancellable);
  for (guint h = 0; h < self->hosts->len; h++)
    ws_capture_runner_log_info (self, 0, "connecting to %s…",
                                ((WsCaptureHostRun *) g_ptr_array_index (self->hosts, h))->key);
  ws_capture_host_runs_open_async (self->hosts, self->asked, self->setup.group,
                                   (const char *const *) folder_names, self->remote_cancellable,
                                   hosts_opened_cb, g_object_ref (self));
}

static void
prepared_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsCaptureRunner) self = data;
  WsCaptureTargetRun *target = ws_capture_runner_current (self);
  g_autoptr (GError) error = NULL;

  if (!ws_capture_remote_prepare_target_finish (result, &error))
    {
      ws_capture_runner_step_done (
        self, FALSE,
        g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? "cancelled" : error->message);
      return;
    }
  ws_capture_runner_log_info (self, 1, "on %s: %s (WORKDIR %s)", target->remote->key,
                              target->remote_dir, target->remote_workdir);
  ws_capture_runner_write_manifest (self, target);
  ws_capture_runner_step_done (self, TRUE, target->dir);
}

/**
 * ws_capture_runner_remote_prepare:
 *
 * Step 1 of the current target when it runs on a host.
 *
 * Returns: %FALSE when the target runs here (nothing done)
 */
gboolean
ws_capture_runner_remote_prepare (WsCaptureRunner *self)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);

  if (target->host == NULL)
    return FALSE;
  if (target->remote == NULL || target->remote->error != NULL)
    {
      ws_capture_runner_step_done (self, FALSE,
                                   target->remote != NULL ? target->remote->error->message
                                                          : "the host was not reached");
      return TRUE;
    }
  if (!ws_ssh_connection_is_open (target->remote->connection))
    {
      g_autofree char *lost = ws_ssh_connection_lost (target->remote->connection, NULL);

      ws_capture_runner_step_done (self, FALSE, lost);
      return TRUE;
    }
  ws_capture_remote_prepare_target_async (target, target->remote, self->setup.group_dir,
                                          self->remote_cancellable, prepared_cb,
                                          g_object_ref (self));
  return TRUE;
}

/**
 * ws_capture_runner_remote_process:
 * @line: (out) (transfer full): the command line for the log, which redoes
 *   it from a terminal here
 *
 * Returns: (transfer full): the process that runs @command on the current
 *   target's host
 */
WsToolProcess *
ws_capture_runner_remote_process (WsCaptureRunner *self, const WsCaptureCommand *command,
                                  char **line)
{
  WsCaptureHostRun *host = ws_capture_runner_current (self)->remote;
  g_autofree char *inner = ws_capture_command_line (command);
  g_autofree char *quoted = NULL;
  g_autofree char *ssh = ws_ssh_connection_display (host->connection);

  g_clear_pointer (&self->token, g_free);
  g_clear_pointer (&self->ssh_said, g_free);
  ws_ssh_remote_end_clear (&self->remote_end);
  /* The command as the host runs it, without the log's "$ ". */
  quoted = ws_ssh_quote (g_str_has_prefix (inner, "$ ") ? inner + 2 : inner);
  *line = g_strdup_printf ("$ %s %s", ssh, quoted);
  return ws_capture_remote_process_new (host, command, (const char *const *) self->base_env,
                                        self->grace_ms, &self->token);
}

/**
 * ws_capture_runner_remote_line:
 *
 * Returns: %TRUE when the line is the remote wrapper's, not for the log
 */
gboolean
ws_capture_runner_remote_line (WsCaptureRunner *self, gboolean is_stderr, const char *line)
{
  if (!is_stderr || self->token == NULL)
    return FALSE;
  if (ws_ssh_wrapper_line (self->token, line, &self->remote_end))
    return TRUE;
  g_free (self->ssh_said);
  self->ssh_said = g_strdup (line);
  return FALSE;
}

/**
 * ws_capture_runner_remote_problem:
 *
 * Judges the command that just ended on the current target's host, and
 * sets its exit status to the one there.
 *
 * Returns: (transfer full) (nullable): why it failed, or %NULL
 */
char *
ws_capture_runner_remote_problem (WsCaptureRunner *self, const WsCaptureCommand *command)
{
  WsCaptureHostRun *host = ws_capture_runner_current (self)->remote;
  char *problem =
    ws_capture_remote_problem (host, command, &self->remote_end, self->output.problem_line,
                               self->output.no_kernels_profiled, self->ssh_said);

  self->exit_status = self->remote_end.ended ? self->remote_end.exit_status : -1;
  g_clear_pointer (&self->token, g_free);
  return problem;
}

static void
transfer_cb (guint64 done, guint64 total, const char *file, gpointer data)
{
  ws_capture_runner_emit_transfer (data, done, total, file);
}

/* Logs each file a copy brought back, from @first on. */
static void
log_fetched (WsCaptureRunner *self, guint step, WsCaptureTargetRun *target, guint first)
{
  for (guint i = first; i < target->fetched->len; i++)
    {
      WsSshFetched *file = g_ptr_array_index (target->fetched, i);
      g_autofree char *base = g_path_get_basename (file->local_path);
      g_autofree char *size = file->size >= 0 ? g_format_size ((guint64) file->size) : NULL;

      if (file->size < 0)
        ws_capture_runner_log_info (self, step, "not on the host: %s", file->remote_path);
      else if (file->done && file->resumed_from > 0 && file->resumed_from < file->size)
        ws_capture_runner_log_info (self, step,
                                    "copied %s (%s, resumed at %" G_GINT64_FORMAT
                                    " bytes), SHA-256 %.12s… checked",
                                    base, size, file->resumed_from, file->sha256);
      else if (file->done)
        ws_capture_runner_log_info (self, step, "copied %s (%s), SHA-256 %.12s… checked", base,
                                    size, file->sha256);
    }
}

typedef struct
{
  WsCaptureRunner *runner;
  char *detail;
  guint first; /* the first of the target's fetched files this copy adds */
  gboolean reports_only;
} Fetching;

static void
fetching_free (Fetching *fetching)
{
  g_object_unref (fetching->runner);
  g_free (fetching->detail);
  g_free (fetching);
}

static void
fetched_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Fetching *fetching = data;
  WsCaptureRunner *self = fetching->runner;
  WsCaptureTargetRun *target = ws_capture_runner_current (self);
  g_autoptr (GError) error = NULL;
  gboolean ok = ws_capture_remote_fetch_finish (result, &error);

  log_fetched (self, fetching->reports_only ? 0 : self->step, target, fetching->first);
  if (fetching->reports_only)
    {
      if (!ok)
        ws_capture_runner_log_info (self, 0, "warning: %s", error->message);
      ws_capture_runner_target_done (self);
    }
  else if (!ok)
    ws_capture_runner_step_done (
      self, FALSE,
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? "cancelled" : error->message);
  else
    ws_capture_runner_step_done (self, TRUE, fetching->detail);
  fetching_free (fetching);
}

static void
start_fetch (WsCaptureRunner *self, GPtrArray *files, const char *detail, gboolean reports_only)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);
  Fetching *fetching = g_new0 (Fetching, 1);
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (files, i));

      g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", base);
    }
  ws_capture_runner_log_info (self, reports_only ? 0 : self->step, "copying back from %s: %s",
                              target->remote->key, names->str);
  g_string_free (names, TRUE);
  fetching->runner = g_object_ref (self);
  fetching->detail = g_strdup (detail);
  fetching->first = target->fetched->len;
  fetching->reports_only = reports_only;
  ws_capture_remote_fetch_async (target, files, (guint64) self->settings->transfer_limit * 1024,
                                 self->remote_cancellable, transfer_cb, self, fetched_cb, fetching);
}

/**
 * ws_capture_runner_remote_fetch_step:
 *
 * At the end of a step of a target on a host, copies back what the step
 * made: the kernel summary and SQLite export after step 3, the ncu CSVs
 * after step 6 (then the reports, unless they stay on the host).  The
 * step ends once they are here and checked, or fails with what arrived.
 *
 * Returns: %TRUE when a copy started (it ends the step)
 */
gboolean
ws_capture_runner_remote_fetch_step (WsCaptureRunner *self, gboolean ok, const char *detail)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);
  g_autoptr (GPtrArray) files = NULL;

  if (!ok || target->remote == NULL || self->cancelled ||
      (self->step != WS_CAPTURE_STEP_NSYS_STATS && self->step != WS_CAPTURE_STEP_NCU_EXPORT))
    return FALSE;
  files = ws_capture_remote_step_files (
    target, self->step, self->step == WS_CAPTURE_STEP_NCU_EXPORT && !self->settings->leave_reports);
  if (files->len == 0)
    return FALSE;
  start_fetch (self, files, detail, FALSE);
  return TRUE;
}

static gboolean
fetched_already (WsCaptureTargetRun *target, const char *remote_path)
{
  for (guint i = 0; i < target->fetched->len; i++)
    {
      WsSshFetched *file = g_ptr_array_index (target->fetched, i);

      if (file->done && g_str_equal (file->remote_path, remote_path))
        return TRUE;
    }
  return FALSE;
}

/**
 * ws_capture_runner_remote_fetch_reports:
 *
 * At the end of a target on a host that did not reach the end of step 6,
 * copies back the reports it made (best effort: a failure is a warning).
 *
 * Returns: %TRUE when a copy started (it ends the target)
 */
gboolean
ws_capture_runner_remote_fetch_reports (WsCaptureRunner *self)
{
  WsCaptureTargetRun *target = ws_capture_runner_current (self);
  g_autoptr (GPtrArray) all = NULL;
  g_autoptr (GPtrArray) files = NULL;

  if (target->remote == NULL || target->remote_dir == NULL || self->cancelled ||
      self->settings->leave_reports || target->remote->connection == NULL ||
      !ws_ssh_connection_is_open (target->remote->connection))
    return FALSE;
  all = ws_capture_remote_step_files (target, 0, TRUE);
  files = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < all->len; i++)
    if (!fetched_already (target, g_ptr_array_index (all, i)))
      g_ptr_array_add (files, g_strdup (g_ptr_array_index (all, i)));
  if (files->len == 0)
    return FALSE;
  start_fetch (self, files, NULL, TRUE);
  return TRUE;
}

/* Ends each host's master connection. */
void
ws_capture_runner_close_hosts (WsCaptureRunner *self)
{
  for (guint i = 0; self->hosts != NULL && i < self->hosts->len; i++)
    ws_capture_host_run_close (g_ptr_array_index (self->hosts, i));
}
