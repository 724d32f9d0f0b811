/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-remote"
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ws-capture-error.h"
#include "ws-capture-log.h"
#include "ws-capture-remote.h"
#include "ws-tool-find.h"
#include "ws-tools-error.h"

/* A capture on another machine: the same plan, in paths of the host, its
 * commands run there over the run's ssh connection, and the files copied
 * back into the same folder here as they are finished.  The folder there
 * mirrors the one here: REMOTE_DIR/<group>/<NAME>/{nsys,ncu}. */

#define SCRIPT_TIMEOUT_S 120

/* Makes the folder for captures and the group folder there, and says
 * where they are: the group gets `-STAMP` (then `-STAMP-N`) when one of
 * the run's target folders is in it already, as here. */
static const char group_script[] =
  "r=$1 g=$2 s=$3\n"
  "shift 3\n"
  "case $r in \"~\") r=$HOME ;; \"~/\"*) r=$HOME/${r#\"~/\"} ;; esac\n"
  "mkdir -p -- \"$r\" && cd -- \"$r\" || exit 1\n"
  "pwd -P\n"
  "n=0 c=$g\n"
  "while :; do\n"
  "  t=0\n"
  "  for f in \"$@\"; do [ -e \"$c/$f\" ] && t=1; done\n"
  "  [ $t = 0 ] && break\n"
  "  n=$((n+1))\n"
  "  [ $n -gt 999 ] && { echo \"no free folder name for $g in $r\" >&2; exit 1; }\n"
  "  if [ $n = 1 ]; then c=$g-$s; else c=$g-$s-$n; fi\n"
  "done\n"
  "mkdir -p -- \"$c\" && cd -- \"$c\" && pwd -P && uname -n\n";

/* A target's folder there (an existing one is an earlier run: an error),
 * and its WORKDIR resolved: `~/`, or relative to the login folder. */
static const char target_script[] =
  "w=$1 d=$2\n"
  "case $w in \"\" | \"~\") w=$HOME ;; \"~/\"*) w=$HOME/${w#\"~/\"} ;; esac\n"
  "cd -- \"$w\" || exit 1\n"
  "pwd -P\n"
  "mkdir -- \"$d\" && mkdir -- \"$d/nsys\" \"$d/ncu\"\n";

WsCaptureHostRun *
ws_capture_host_run_new (const char *key)
{
  WsCaptureHostRun *run = g_new0 (WsCaptureHostRun, 1);

  run->key = g_strdup (key);
  run->warnings = g_ptr_array_new_with_free_func (g_free);
  return run;
}

/* Ends the master connection: every command over it ends too. */
void
ws_capture_host_run_close (WsCaptureHostRun *run)
{
  if (run != NULL && run->connection != NULL)
    ws_ssh_connection_close (run->connection);
}

void
ws_capture_host_run_free (WsCaptureHostRun *run)
{
  if (run == NULL)
    return;
  g_free (run->key);
  g_clear_pointer (&run->host, ws_ssh_host_free);
  g_clear_object (&run->connection);
  g_clear_error (&run->error);
  g_free (run->hostname);
  g_free (run->remote_dir);
  g_free (run->group_dir);
  g_free (run->nsys);
  g_free (run->ncu);
  g_clear_pointer (&run->info, ws_tool_info_free);
  g_clear_pointer (&run->settings, ws_capture_settings_free);
  g_ptr_array_unref (run->warnings);
  g_free (run);
}

typedef struct
{
  GPtrArray *runs;
  WsCaptureSettings *settings;
  char *group;
  char **folders;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_ptr_array_unref (data->runs);
  ws_capture_settings_free (data->settings);
  g_free (data->group);
  g_strfreev (data->folders);
  g_free (data);
}

/* Connects, makes the group folder, finds and asks the tools there. */
static gboolean
open_host (WsCaptureHostRun *run, OpenData *data, GCancellable *cancellable, GError **error)
{
  const WsCaptureSettings *settings = data->settings;
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autoptr (GStrvBuilder) args = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  g_auto (GStrv) ssh = NULL;
  g_auto (GStrv) lines = NULL;
  g_autofree char *out = NULL;
  const char *nsys;
  const char *ncu;

  run->host = ws_ssh_host_lookup (settings->hosts, run->key, error);
  if (run->host == NULL)
    return FALSE;
  if (settings->remote_dir != NULL)
    {
      g_free (run->host->remote_dir);
      run->host->remote_dir = g_strdup (settings->remote_dir);
    }
  ssh = ws_capture_settings_ssh_argv (settings, error);
  if (ssh == NULL)
    return FALSE;
  run->connection = ws_ssh_connection_new (run->host, (const char *const *) ssh);
  if (!ws_ssh_connection_open (run->connection, cancellable, error))
    return FALSE;

  g_strv_builder_add_many (args, ws_ssh_host_remote_dir (run->host), data->group, stamp, NULL);
  g_strv_builder_addv (args, (const char **) data->folders);
  argv = g_strv_builder_end (args);
  if (!ws_ssh_connection_script (run->connection, group_script, (const char *const *) argv,
                                 SCRIPT_TIMEOUT_S, cancellable, &out, error))
    {
      g_prefix_error (error, "the folder for captures (%s): ", ws_ssh_host_remote_dir (run->host));
      return FALSE;
    }
  lines = g_strsplit (out, "\n", -1);
  if (g_strv_length (lines) < 3)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_IO, "%s: %s: no folder for captures",
                   run->key, ws_ssh_host_remote_dir (run->host));
      return FALSE;
    }
  run->remote_dir = g_strdup (lines[0]);
  run->group_dir = g_strdup (lines[1]);
  run->hostname = g_strdup (lines[2]);

  /* The host's own paths first; those of the command line when the whole
   * run goes there (--host); otherwise found there. */
  nsys = run->host->nsys != NULL  ? run->host->nsys
         : settings->host != NULL ? settings->nsys_path
                                  : NULL;
  ncu = run->host->ncu != NULL   ? run->host->ncu
        : settings->host != NULL ? settings->ncu_path
                                 : NULL;
  run->nsys = ws_tool_resolve_on (run->connection, "nsys", nsys, error);
  if (run->nsys == NULL)
    return FALSE;
  run->ncu = ws_tool_resolve_on (run->connection, "ncu", ncu, error);
  if (run->ncu == NULL)
    return FALSE;
  run->info = ws_tool_probe (run->connection, run->nsys, run->ncu, cancellable);
  for (guint i = 0; i < run->info->warnings->len; i++)
    g_ptr_array_add (run->warnings, g_strdup (g_ptr_array_index (run->info->warnings, i)));
  run->settings = ws_capture_settings_copy (settings);
  ws_capture_settings_fit_ncu (run->settings, run->info->sets, run->info->sections, run->warnings);
  return TRUE;
}

static void
open_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  OpenData *data = task_data;

  for (guint i = 0; i < data->runs->len; i++)
    {
      WsCaptureHostRun *run = g_ptr_array_index (data->runs, i);

      if (run->connection != NULL || run->error != NULL)
        continue;
      if (!open_host (run, data, cancellable, &run->error))
        ws_capture_host_run_close (run);
    }
  g_task_return_boolean (task, TRUE);
}

/**
 * ws_capture_host_runs_open_async:
 * @runs: (element-type WsCaptureHostRun): the run's hosts; each is opened,
 *   or gets its error
 * @group: the run's group folder name here
 * @folders: the folder names of the run's targets
 *
 * Connects to each host on a worker thread, makes the folders for
 * captures there, and finds and asks its tools.
 */
void
ws_capture_host_runs_open_async (GPtrArray *runs, const WsCaptureSettings *settings,
                                 const char *group, const char *const *folders,
                                 GCancellable *cancellable, GAsyncReadyCallback callback,
                                 gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  OpenData *data = g_new0 (OpenData, 1);

  data->runs = g_ptr_array_ref (runs);
  data->settings = ws_capture_settings_copy (settings);
  data->group = g_strdup (group);
  data->folders = g_strdupv ((char **) folders);
  g_task_set_source_tag (task, ws_capture_host_runs_open_async);
  g_task_set_task_data (task, data, (GDestroyNotify) open_data_free);
  g_task_run_in_thread (task, open_thread);
}

void
ws_capture_host_runs_open_finish (GAsyncResult *result)
{
  g_return_if_fail (g_task_is_valid (result, NULL));
  g_task_propagate_boolean (G_TASK (result), NULL);
}

typedef struct
{
  WsCaptureTargetRun *target;
  WsCaptureHostRun *host;
  char *group_dir;
} PrepareData;

static void
prepare_data_free (PrepareData *data)
{
  g_free (data->group_dir);
  g_free (data);
}

static gboolean
make_local_folders (WsCaptureTargetRun *target, const char *group_dir, GError **error)
{
  const char *const subs[] = { "", "nsys", "ncu" };

  target->dir = g_build_filename (group_dir, target->folder_name, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (subs); i++)
    {
      g_autofree char *path = g_build_filename (target->dir, subs[i], NULL);

      /* Not -p: an existing folder is an earlier run, never overwritten. */
      if (g_mkdir (path, 0777) != 0)
        {
          int saved = errno;

          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_IO, "%s: %s", path,
                       saved == EEXIST ? "exists already (an earlier run)" : g_strerror (saved));
          if (i == 0)
            g_clear_pointer (&target->dir, g_free);
          return FALSE;
        }
    }
  return TRUE;
}

static void
prepare_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  PrepareData *data = task_data;
  WsCaptureTargetRun *target = data->target;
  WsCaptureHostRun *host = data->host;
  g_autofree char *remote_dir = g_build_filename (host->group_dir, target->folder_name, NULL);
  const char *args[] = { target->workdir, remote_dir, NULL };
  const char *const empty_env[] = { NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  WsCaptureTarget row;

  if (!make_local_folders (target, data->group_dir, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!ws_ssh_connection_script (host->connection, target_script, args, SCRIPT_TIMEOUT_S,
                                 cancellable, &out, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  target->remote_dir = g_steal_pointer (&remote_dir);
  target->remote_workdir = g_strdup (g_strstrip (out));
  row = (WsCaptureTarget){
    .name = target->name,
    .cmd = target->cmd,
    .workdir = target->remote_workdir,
    .envs = target->envs,
  };
  /* The plan in the host's paths; the programs there get only what ENVS
   * and the plan add to their environment. */
  target->plan = ws_capture_plan_new (&row, target->folder_name, host->group_dir, host->settings,
                                      host->nsys, host->ncu, empty_env, &error);
  if (target->plan == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    target->results[s] = g_array_new (FALSE, TRUE, sizeof (WsCaptureCommandResult));
  g_task_return_boolean (task, TRUE);
}

/**
 * ws_capture_remote_prepare_target_async:
 * @group_dir: the run's group folder here
 *
 * Step 1 of a target on a host: its folder here and there (with their
 * nsys and ncu folders), its WORKDIR there resolved, and its plan in the
 * host's paths.
 */
void
ws_capture_remote_prepare_target_async (WsCaptureTargetRun *target, WsCaptureHostRun *host,
                                        const char *group_dir, GCancellable *cancellable,
                                        GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  PrepareData *data = g_new0 (PrepareData, 1);

  g_return_if_fail (target != NULL && host != NULL && host->connection != NULL);

  data->target = target;
  data->host = host;
  data->group_dir = g_strdup (group_dir);
  g_task_set_source_tag (task, ws_capture_remote_prepare_target_async);
  g_task_set_task_data (task, data, (GDestroyNotify) prepare_data_free);
  g_task_run_in_thread (task, prepare_thread);
}

gboolean
ws_capture_remote_prepare_target_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * ws_capture_remote_process_new:
 * @local_env: the environment of ssh here
 * @token: (out) (transfer full): marks the wrapper's lines in its output
 *
 * Returns: (transfer full): the process that runs @command on the host,
 *   through the run's connection, in a process group of its own there
 */
WsToolProcess *
ws_capture_remote_process_new (WsCaptureHostRun *host, const WsCaptureCommand *command,
                               const char *const *local_env, guint grace_ms, char **token)
{
  g_auto (GStrv) stat_paths = ws_capture_command_stat_paths (command);
  WsSshRemoteCommand remote = { 0 };
  g_autofree char *line = NULL;
  g_auto (GStrv) argv = NULL;
  WsToolProcess *process;

  g_return_val_if_fail (host != NULL && host->connection != NULL && command != NULL, NULL);

  *token = ws_ssh_new_token ();
  remote.cwd = command->cwd;
  remote.stdout_path = command->stdout_path;
  remote.env = (const char *const *) command->env_added;
  remote.argv = (const char *const *) command->argv;
  remote.stat_paths = (const char *const *) stat_paths;
  remote.grace_ms = grace_ms;
  remote.token = *token;
  line = ws_ssh_remote_command (&remote);
  argv = ws_ssh_connection_argv (host->connection, line);
  process = ws_tool_process_new (argv, NULL, (char **) local_env, NULL, grace_ms);
  ws_tool_process_set_hold_stdin (process, TRUE);
  return process;
}

/**
 * ws_capture_remote_problem:
 * @end: what the wrapper said at the end
 * @ssh_said: (nullable): the last line ssh itself printed
 *
 * Returns: (transfer full) (nullable): why a command on a host failed, or
 *   %NULL when it succeeded: a lost connection, or as
 *   ws_capture_command_problem() judges, from the sizes there
 */
char *
ws_capture_remote_problem (WsCaptureHostRun *host, const WsCaptureCommand *command,
                           const WsSshRemoteEnd *end, const char *problem_line,
                           gboolean no_kernels_profiled, const char *ssh_said)
{
  g_return_val_if_fail (host != NULL && command != NULL && end != NULL, NULL);

  if (!end->ended)
    return ws_ssh_connection_lost (host->connection, ssh_said);
  return ws_capture_command_problem_sized (command, end->exit_status, problem_line,
                                           no_kernels_profiled, end->sizes);
}

/**
 * ws_capture_remote_local_path:
 *
 * Returns: (transfer full): where a file of the target's folder on the
 *   host goes in its folder here
 */
char *
ws_capture_remote_local_path (const WsCaptureTargetRun *target, const char *remote_path)
{
  gsize n;

  g_return_val_if_fail (target != NULL && target->remote_dir != NULL && target->dir != NULL, NULL);

  n = strlen (target->remote_dir);
  if (g_str_has_prefix (remote_path, target->remote_dir) && remote_path[n] == '/')
    return g_build_filename (target->dir, remote_path + n + 1, NULL);
  {
    g_autofree char *base = g_path_get_basename (remote_path);

    return g_build_filename (target->dir, base, NULL);
  }
}

static void
add (GPtrArray *files, const char *path)
{
  if (path != NULL)
    g_ptr_array_add (files, g_strdup (path));
}

/**
 * ws_capture_remote_step_files:
 * @step: 3 (the kernel summary and the SQLite export), 6 (the ncu CSVs),
 *   or 0 (none: the reports alone)
 * @reports: whether the reports follow: the .nsys-rep, then each .ncu-rep
 *
 * Returns: (transfer full) (element-type utf8): the host's paths of the
 *   files a step brings back, in the order they are copied
 */
GPtrArray *
ws_capture_remote_step_files (const WsCaptureTargetRun *target, guint step, gboolean reports)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  const WsCapturePlan *plan;

  g_return_val_if_fail (target != NULL, files);

  plan = target->plan;
  if (plan == NULL)
    return files;
  if (step == WS_CAPTURE_STEP_NSYS_STATS)
    {
      add (files, plan->kern_sum_csv);
      g_ptr_array_add (files, g_strconcat (plan->nsys_base, ".sqlite", NULL));
    }
  else if (step == WS_CAPTURE_STEP_NCU_EXPORT)
    for (guint i = 0; i < plan->steps[step]->len; i++)
      add (files, ((WsCaptureCommand *) g_ptr_array_index (plan->steps[step], i))->stdout_path);
  if (reports)
    {
      GPtrArray *profiles = plan->steps[WS_CAPTURE_STEP_NCU_PROFILE];

      g_ptr_array_add (files, g_strconcat (plan->nsys_base, ".nsys-rep", NULL));
      for (guint i = 0; i < profiles->len; i++)
        {
          const WsCaptureCommand *command = g_ptr_array_index (profiles, i);

          add (files, command->outputs != NULL ? command->outputs[0] : NULL);
        }
    }
  return files;
}

typedef struct
{
  WsCaptureTargetRun *target;
  GPtrArray *remote;
  GPtrArray *fetched;
  guint64 bytes_per_s;
  GMainContext *context;
  WsCaptureFetchProgress progress;
  gpointer progress_data;
  GCancellable *cancellable;
} FetchData;

static void
fetch_data_free (FetchData *data)
{
  g_ptr_array_unref (data->remote);
  g_ptr_array_unref (data->fetched);
  g_main_context_unref (data->context);
  g_clear_object (&data->cancellable);
  g_free (data);
}

typedef struct
{
  FetchData *data;
  GTask *task;
  guint64 done;
  guint64 total;
  char *file;
} Progress;

static gboolean
progress_idle (gpointer user_data)
{
  Progress *progress = user_data;
  FetchData *data = progress->data;

  /* Not once the copy was cancelled: the runner may be gone. */
  if (!g_cancellable_is_cancelled (data->cancellable))
    data->progress (progress->done, progress->total, progress->file, data->progress_data);
  return G_SOURCE_REMOVE;
}

static void
progress_free (Progress *progress)
{
  g_object_unref (progress->task);
  g_free (progress->file);
  g_free (progress);
}

static void
fetch_progress_cb (guint64 done, guint64 total, guint file, gpointer user_data)
{
  GTask *task = user_data;
  FetchData *data = g_task_get_task_data (task);
  Progress *progress;

  if (data->progress == NULL)
    return;
  progress = g_new0 (Progress, 1);
  progress->data = data;
  progress->task = g_object_ref (task);
  progress->done = done;
  progress->total = total;
  progress->file =
    file < data->remote->len ? g_path_get_basename (g_ptr_array_index (data->remote, file)) : NULL;
  g_main_context_invoke_full (data->context, G_PRIORITY_DEFAULT, progress_idle, progress,
                              (GDestroyNotify) progress_free);
}

static void
fetch_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  FetchData *data = task_data;
  g_autoptr (GPtrArray) local = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < data->remote->len; i++)
    g_ptr_array_add (
      local, ws_capture_remote_local_path (data->target, g_ptr_array_index (data->remote, i)));
  g_ptr_array_add (local, NULL);
  g_ptr_array_add (data->remote, NULL);
  if (!ws_ssh_fetch_files (data->target->remote->connection,
                           (const char *const *) data->remote->pdata,
                           (const char *const *) local->pdata, data->bytes_per_s, cancellable,
                           fetch_progress_cb, task, data->fetched, &error))
    {
      g_autofree char *summary = ws_ssh_fetched_summary (data->fetched);

      g_ptr_array_remove_index (data->remote, data->remote->len - 1);
      g_prefix_error (&error, "copying back: ");
      if (error->domain == WS_TOOLS_ERROR)
        {
          g_autofree char *message = g_strdup_printf ("%s; %s", error->message, summary);

          g_free (error->message);
          error->message = g_steal_pointer (&message);
        }
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_ptr_array_remove_index (data->remote, data->remote->len - 1);
  g_task_return_boolean (task, TRUE);
}

static void
fetch_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GTask *outer = user_data;
  FetchData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  /* What became of each file joins the target's record, here on its
   * context, whatever the outcome. */
  for (guint i = 0; i < data->fetched->len; i++)
    g_ptr_array_add (data->target->fetched, g_ptr_array_steal_index (data->fetched, i--));
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_task_return_error (outer, g_steal_pointer (&error));
  else
    g_task_return_boolean (outer, TRUE);
  g_object_unref (outer);
}

/**
 * ws_capture_remote_fetch_async:
 * @remote_paths: (element-type utf8): files of the target's folder on the
 *   host (ws_capture_remote_step_files()); those not there are left out
 * @progress: (nullable): bytes as they come, on the caller's context
 *
 * Copies files of a target back into its folder here, checked and
 * resumable (ws_ssh_fetch_files()), on a worker thread.  What became of
 * each file is added to the target's `fetched`.
 */
void
ws_capture_remote_fetch_async (WsCaptureTargetRun *target, GPtrArray *remote_paths,
                               guint64 bytes_per_s, GCancellable *cancellable,
                               WsCaptureFetchProgress progress, gpointer progress_data,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *outer = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr (GTask) task = NULL;
  FetchData *data = g_new0 (FetchData, 1);

  g_return_if_fail (target != NULL && target->remote != NULL);

  g_task_set_source_tag (outer, ws_capture_remote_fetch_async);
  data->target = target;
  data->remote = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < remote_paths->len; i++)
    g_ptr_array_add (data->remote, g_strdup (g_ptr_array_index (remote_paths, i)));
  data->fetched = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_fetched_free);
  data->bytes_per_s = bytes_per_s;
  data->context = g_main_context_ref_thread_default ();
  data->progress = progress;
  data->progress_data = progress_data;
  data->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  task = g_task_new (NULL, data->cancellable, fetch_done_cb, outer);
  g_task_set_source_tag (task, ws_capture_remote_fetch_async);
  g_task_set_task_data (task, data, (GDestroyNotify) fetch_data_free);
  g_task_run_in_thread (task, fetch_thread);
}

gboolean
ws_capture_remote_fetch_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
