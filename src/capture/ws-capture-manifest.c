/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-manifest"
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-atomic-file.h"
#include "ws-capture-manifest.h"
#include "ws-capture-remote.h"

/* The run.json of a capture folder. */

/**
 * ws_capture_manifest_time:
 * @usec: µs since the epoch
 *
 * Returns: (transfer full): the time in ISO 8601, local with its offset
 */
char *
ws_capture_manifest_time (gint64 usec)
{
  g_autoptr (GDateTime) utc = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);
  g_autoptr (GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;

  return local != NULL ? g_date_time_format_iso8601 (local) : g_strdup ("");
}

static void
add_time (JsonBuilder *builder, const char *name, gint64 usec)
{
  json_builder_set_member_name (builder, name);
  if (usec == 0)
    json_builder_add_null_value (builder);
  else
    {
      g_autofree char *text = ws_capture_manifest_time (usec);

      json_builder_add_string_value (builder, text);
    }
}

static void
add_string (JsonBuilder *builder, const char *name, const char *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_strv (JsonBuilder *builder, const char *name, char **values)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    json_builder_add_string_value (builder, values[i]);
  json_builder_end_array (builder);
}

/* Paths inside the capture folder are written relative to it, so that the
 * folder can be moved or copied to another machine whole. */
static char *
relative (const WsCaptureTargetRun *target, const char *path)
{
  const char *dirs[] = { target->dir, target->remote_dir };

  /* A target on a host: its plan's paths are the host's. */
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      gsize n = dirs[i] != NULL ? strlen (dirs[i]) : 0;

      if (n > 0 && path != NULL && g_str_has_prefix (path, dirs[i]) && path[n] == '/')
        return g_strdup (path + n + 1);
    }
  return g_strdup (path);
}

/* Where a target on a host ran, and what came back of it. */
static void
add_remote (JsonBuilder *builder, const WsCaptureTargetRun *target, const WsCaptureRunInfo *info)
{
  const WsCaptureHostRun *run = target->remote;

  json_builder_set_member_name (builder, "remote");
  if (run == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }
  json_builder_begin_object (builder);
  add_string (builder, "host", run->key);
  add_string (builder, "destination", run->host != NULL ? run->host->destination : NULL);
  json_builder_set_member_name (builder, "port");
  if (run->host != NULL && run->host->port != 0)
    json_builder_add_int_value (builder, run->host->port);
  else
    json_builder_add_null_value (builder);
  add_string (builder, "identity", run->host != NULL ? run->host->identity : NULL);
  add_string (builder, "hostname", run->hostname);
  add_string (builder, "dir", target->remote_dir);
  add_string (builder, "workdir", target->remote_workdir);
  add_string (builder, "workstation", g_get_host_name ());
  add_string (builder, "reports",
              info->settings != NULL && info->settings->leave_reports ? "on host" : "copied");
  json_builder_set_member_name (builder, "files");
  json_builder_begin_array (builder);
  for (guint i = 0; target->fetched != NULL && i < target->fetched->len; i++)
    {
      const WsSshFetched *file = g_ptr_array_index (target->fetched, i);
      g_autofree char *path = relative (target, file->remote_path);

      json_builder_begin_object (builder);
      add_string (builder, "path", path);
      add_string (builder, "remote", file->remote_path);
      json_builder_set_member_name (builder, "size");
      if (file->size >= 0)
        json_builder_add_int_value (builder, file->size);
      else
        json_builder_add_null_value (builder);
      add_string (builder, "sha256", file->sha256);
      json_builder_set_member_name (builder, "resumed_from");
      json_builder_add_int_value (builder, file->resumed_from);
      add_string (builder, "state", file->size < 0 ? "missing" : file->done ? "copied" : "partial");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
add_tool (JsonBuilder *builder, const char *name, const char *path, const char *version)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  add_string (builder, "path", path);
  add_string (builder, "version", version);
  json_builder_end_object (builder);
}

static void
add_steps (JsonBuilder *builder, const WsCaptureTargetRun *target)
{
  json_builder_set_member_name (builder, "steps");
  json_builder_begin_array (builder);
  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    {
      GPtrArray *commands = target->plan != NULL ? target->plan->steps[s] : NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "step");
      json_builder_add_int_value (builder, s);
      add_string (builder, "name", ws_capture_step_title (s));
      add_string (builder, "state", ws_capture_step_state_nick (target->states[s]));
      add_string (builder, "message", target->messages[s]);
      add_time (builder, "started", target->step_started[s]);
      add_time (builder, "finished", target->step_finished[s]);
      json_builder_set_member_name (builder, "commands");
      json_builder_begin_array (builder);
      for (guint c = 0; commands != NULL && c < commands->len; c++)
        {
          const WsCaptureCommand *command = g_ptr_array_index (commands, c);
          const WsCaptureCommandResult *result =
            target->results[s] != NULL && c < target->results[s]->len
              ? &g_array_index (target->results[s], WsCaptureCommandResult, c)
              : NULL;
          g_autofree char *stdout_path = relative (target, command->stdout_path);

          json_builder_begin_object (builder);
          add_strv (builder, "argv", command->argv);
          add_string (builder, "cwd", command->cwd);
          add_strv (builder, "env", command->env_added);
          add_string (builder, "stdout", stdout_path);
          add_string (builder, "kernel", command->kernel);
          add_time (builder, "started", result != NULL ? result->started : 0);
          add_time (builder, "finished", result != NULL ? result->finished : 0);
          json_builder_set_member_name (builder, "exit_status");
          if (result != NULL && result->started != 0 && result->exit_status >= 0)
            json_builder_add_int_value (builder, result->exit_status);
          else
            json_builder_add_null_value (builder);
          add_string (builder, "message", result != NULL ? result->message : NULL);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_outputs (JsonBuilder *builder, const WsCaptureTargetRun *target)
{
  WsCapturePlan *plan = target->plan;
  g_autofree char *rep = NULL, *sqlite = NULL, *csv = NULL;
  GPtrArray *exports;

  json_builder_set_member_name (builder, "outputs");
  json_builder_begin_object (builder);
  if (plan != NULL)
    {
      g_autofree char *rep_path = g_strconcat (plan->nsys_base, ".nsys-rep", NULL);
      g_autofree char *sqlite_path = g_strconcat (plan->nsys_base, ".sqlite", NULL);

      rep = relative (target, rep_path);
      sqlite = relative (target, sqlite_path);
      csv = relative (target, plan->kern_sum_csv);
    }
  add_string (builder, "nsys_rep", rep);
  add_string (builder, "sqlite", sqlite);
  add_string (builder, "kern_sum_csv", csv);
  json_builder_set_member_name (builder, "ncu");
  json_builder_begin_array (builder);
  exports = plan != NULL ? plan->steps[WS_CAPTURE_STEP_NCU_EXPORT] : NULL;
  for (guint i = 0; exports != NULL && i < exports->len; i++)
    {
      const WsCaptureCommand *command = g_ptr_array_index (exports, i);
      g_autofree char *report = relative (target, command->argv[2]);
      g_autofree char *raw = relative (target, command->stdout_path);

      json_builder_begin_object (builder);
      add_string (builder, "kernel", command->kernel);
      add_string (builder, "report", report);
      add_string (builder, "raw_csv", raw);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

/* The kernels step 4 picked, each with the nsys kernel its ncu report is
 * made for. */
static void
add_kernels (JsonBuilder *builder, GPtrArray *kernels)
{
  json_builder_set_member_name (builder, "kernels");
  json_builder_begin_array (builder);
  for (guint i = 0; kernels != NULL && i < kernels->len; i++)
    {
      const WsCaptureKernel *kernel = g_ptr_array_index (kernels, i);

      json_builder_begin_object (builder);
      add_string (builder, "name", kernel->name);
      add_string (builder, "display", kernel->display);
      add_string (builder, "file", kernel->file);
      json_builder_set_member_name (builder, "total_ns");
      json_builder_add_int_value (builder, kernel->total);
      /* Which nsys kernel the ncu report is made for: its reader joins the
       * two by these. */
      add_string (builder, "mangled", kernel->mangled);
      add_string (builder, "grid", kernel->grid);
      add_string (builder, "block", kernel->block);
      if (kernel->skip > 0)
        {
          json_builder_set_member_name (builder, "launch_skip");
          json_builder_add_int_value (builder, kernel->skip);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/**
 * ws_capture_manifest_write:
 * @status: "running", "done", "failed" or "cancelled"
 *
 * Writes `run.json` in the target's folder (atomically, so that a reader
 * never sees half of one): the target's row, each step's state, times and
 * command lines with their exit statuses, the tools and their versions,
 * the GPUs, the settings, the kernels picked, and the output files,
 * relative to the folder so that it can be moved whole.
 */
gboolean
ws_capture_manifest_write (const WsCaptureTargetRun *target, const char *status,
                           const WsCaptureRunInfo *info, GError **error)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  gsize len;

  g_return_val_if_fail (target != NULL && status != NULL && info != NULL, FALSE);

  if (target->dir == NULL || !g_file_test (target->dir, G_FILE_TEST_IS_DIR))
    return TRUE;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "warpscope");
  json_builder_begin_object (builder);
  add_string (builder, "version", PACKAGE_VERSION);
  json_builder_set_member_name (builder, "manifest");
  json_builder_add_int_value (builder, 1);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "target");
  json_builder_begin_object (builder);
  add_string (builder, "name", target->name);
  add_string (builder, "cmd", target->cmd);
  add_string (builder, "workdir", target->workdir_cell);
  add_string (builder, "envs", target->envs);
  add_string (builder, "workdir_resolved", target->workdir);
  add_string (builder, "targets_file", info->targets_file);
  json_builder_set_member_name (builder, "line");
  json_builder_add_int_value (builder, target->line);
  json_builder_end_object (builder);

  add_string (builder, "folder", target->folder_name);
  add_string (builder, "group", info->group);
  add_string (builder, "status", status);
  add_time (builder, "started", target->started);
  add_time (builder, "finished", target->finished);
  add_string (builder, "host",
              target->remote != NULL && target->remote->hostname != NULL ? target->remote->hostname
                                                                         : g_get_host_name ());
  add_remote (builder, target, info);

  json_builder_set_member_name (builder, "tools");
  json_builder_begin_object (builder);
  add_tool (builder, "nsys", info->nsys, info->nsys_version);
  add_tool (builder, "ncu", info->ncu, info->ncu_version);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "gpus");
  json_builder_begin_array (builder);
  for (guint i = 0; info->gpus != NULL && i < info->gpus->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (info->gpus, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "settings");
  json_builder_begin_object (builder);
  if (info->settings != NULL)
    ws_capture_settings_to_json (info->settings, builder);
  json_builder_end_object (builder);

  add_kernels (builder, target->plan != NULL ? target->plan->kernels : NULL);

  /* What step 4 left out of the top N, and their share of the GPU time:
   * communication kernels, which ncu cannot replay alone. */
  if (target->plan != NULL && target->plan->left_out != NULL)
    {
      json_builder_set_member_name (builder, "kernels_total_ns");
      json_builder_add_int_value (builder, target->plan->kernels_total);
      json_builder_set_member_name (builder, "left_out");
      json_builder_begin_array (builder);
      for (guint i = 0; i < target->plan->left_out->len; i++)
        {
          const WsCaptureKernel *kernel = g_ptr_array_index (target->plan->left_out, i);

          json_builder_begin_object (builder);
          add_string (builder, "name", kernel->name);
          add_string (builder, "reason", "communication");
          json_builder_set_member_name (builder, "total_ns");
          json_builder_add_int_value (builder, kernel->total);
          json_builder_set_member_name (builder, "share_pct");
          json_builder_add_double_value (builder, 100.0 * (double) kernel->total /
                                                    (double) MAX (target->plan->kernels_total, 1));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }

  add_steps (builder, target);
  add_outputs (builder, target);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, &len);
  path = g_build_filename (target->dir, "run.json", NULL);
  return ws_atomic_file_save (path, text, len, WS_ATOMIC_FILE_DEFAULT, error);
}
