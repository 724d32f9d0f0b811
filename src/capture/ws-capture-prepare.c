/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-prepare"
#include "config.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ws-capture-error.h"
#include "ws-capture-prepare.h"
#include "ws-file.h"
#include "ws-target-validate.h"
#include "ws-tool-find.h"

/* What a capture run checks and creates before a target's commands run:
 * the settings and targets checked, the tools found, the group folder,
 * and each target's folder with its plan. */

static char *
absolute_from (const char *base, const char *path)
{
  g_autoptr (GFile) file = g_path_is_absolute (path) ? g_file_new_for_path (path)
                                                     : g_file_new_build_filename (base, path, NULL);

  return g_file_get_path (file);
}

/**
 * ws_capture_prepare_targets:
 * @targets: (element-type WsCaptureTargetRun): the targets of the run
 * @targets_file: (nullable): the file they come from, for the messages
 *
 * Refuses the run before anything starts when a target lacks NAME or CMD,
 * a NAME is used twice, ENVS are not valid or WORKDIR is no folder; gives
 * each target its folder name, safe and unique in the group.
 *
 * Returns: %FALSE with @error set (WS_CAPTURE_ERROR_INVALID) when a
 *   target is not valid
 */
gboolean
ws_capture_prepare_targets (GPtrArray *targets, const char *targets_file, GError **error)
{
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (targets != NULL, FALSE);

  for (guint t = 0; t < targets->len; t++)
    {
      WsCaptureTargetRun *target = g_ptr_array_index (targets, t);
      g_autoptr (GError) local = NULL;
      g_auto (GStrv) envs = NULL;
      g_autofree char *safe = NULL;
      const char *where = targets_file != NULL ? targets_file : "targets";

      g_autofree char *trimmed = g_strstrip (g_strdup (target->name));

      if (trimmed[0] == '\0' || ws_target_value_is_empty (target->cmd))
        {
          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                       "%s:%u: a target needs a NAME and a CMD", where, target->line);
          return FALSE;
        }
      if (!g_hash_table_add (names, target->name))
        {
          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                       "%s:%u: NAME “%s” is used twice", where, target->line, target->name);
          return FALSE;
        }
      envs = ws_target_envs_parse (target->envs, &local);
      if (envs == NULL)
        {
          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID, "%s:%u: ENVS of “%s”: %s",
                       where, target->line, target->name, local->message);
          return FALSE;
        }
      /* A folder on a host is looked for there, by step 1. */
      if (target->host == NULL && !g_file_test (target->workdir, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                       "%s:%u: WORKDIR of “%s”: %s: no such folder", where, target->line,
                       target->name, target->workdir);
          return FALSE;
        }
      safe = ws_capture_safe_name (target->name);
      target->folder_name = ws_capture_unique_name (used, safe);
    }
  return TRUE;
}

/* The group is named as asked, or after the targets file without its
 * extension. */
static gboolean
choose_group (WsCaptureRunSetup *setup, GPtrArray *targets, const char *targets_file,
              const char *name, GError **error)
{
  g_autoptr (GStrvBuilder) folders = g_strv_builder_new ();
  g_auto (GStrv) names = NULL;
  g_autofree char *base = NULL;

  if (name != NULL)
    base = g_strdup (name);
  else if (targets_file != NULL)
    {
      char *dot;

      base = g_path_get_basename (targets_file);
      dot = strrchr (base, '.');
      if (dot != NULL && dot != base)
        *dot = '\0';
    }
  else
    base = g_strdup ("capture");
  for (guint t = 0; t < targets->len; t++)
    g_strv_builder_add (folders,
                        ((WsCaptureTargetRun *) g_ptr_array_index (targets, t))->folder_name);
  names = g_strv_builder_end (folders);
  return ws_capture_choose_group (setup->out_dir, base, (const char *const *) names, &setup->group,
                                  &setup->group_dir, error);
}

/**
 * ws_capture_check_log:
 * @targets_file: (nullable): the targets file of the run
 * @base_dir: the folder a relative GLOBAL_LOG starts from
 * @nsys: (nullable): @ncu: (nullable): the tools the run starts
 *
 * The log is written as the run goes, into the file it names: never into
 * what the run reads.  Refuses a GLOBAL_LOG that is the targets file, nsys
 * or ncu, by any name or link.
 *
 * Returns: %FALSE with @error set (WS_CAPTURE_ERROR_INVALID, naming the
 *   log) when it is one of them
 */
gboolean
ws_capture_check_log (const WsCaptureSettings *settings, const char *targets_file,
                      const char *base_dir, const char *nsys, const char *ncu, GError **error)
{
  g_autofree char *log = NULL;
  const char *inputs[] = { targets_file, nsys, ncu };

  g_return_val_if_fail (settings != NULL && base_dir != NULL, FALSE);

  if (settings->global_log == NULL)
    return TRUE;
  log = absolute_from (base_dir, settings->global_log);
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    if (inputs[i] != NULL && ws_file_same (log, inputs[i]))
      {
        g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                     _ ("%s: the log would overwrite an input of the capture (the targets file, "
                        "nsys or ncu); choose another file"),
                     settings->global_log);
        return FALSE;
      }
  return TRUE;
}

/**
 * ws_capture_prepare_run:
 * @setup: (out caller-allocates): zeroed; filled as far as it got, also on
 *   failure (ws_capture_run_setup_clear() frees it)
 * @targets: (element-type WsCaptureTargetRun): the targets of the run
 * @targets_file: (nullable): the file they come from
 * @base_dir: the folder a relative OUT_DIR or GLOBAL_LOG starts from
 *
 * Checks the settings and the targets, finds nsys and ncu (when a target
 * runs on this machine; a host's are found there), and creates the group
 * folder: what a run fixes before its first target.
 *
 * Returns: %FALSE with @error set (WS_CAPTURE_ERROR) when the run cannot
 *   start
 */
gboolean
ws_capture_prepare_run (WsCaptureRunSetup *setup, const WsCaptureSettings *settings,
                        GPtrArray *targets, const char *targets_file, const char *base_dir,
                        GError **error)
{
  gboolean any_here = FALSE;

  g_return_val_if_fail (setup != NULL && settings != NULL, FALSE);
  g_return_val_if_fail (targets != NULL && base_dir != NULL, FALSE);

  if (!ws_capture_settings_validate (settings, error) ||
      !ws_capture_prepare_targets (targets, targets_file, error))
    return FALSE;
  for (guint t = 0; t < targets->len; t++)
    any_here = any_here || ((WsCaptureTargetRun *) g_ptr_array_index (targets, t))->host == NULL;
  if (any_here)
    {
      setup->nsys = ws_tool_resolve ("nsys", settings->nsys_path, error);
      if (setup->nsys == NULL)
        return FALSE;
      setup->ncu = ws_tool_resolve ("ncu", settings->ncu_path, error);
      if (setup->ncu == NULL)
        return FALSE;
    }

  if (!ws_capture_check_log (settings, targets_file, base_dir, setup->nsys, setup->ncu, error))
    return FALSE;
  setup->out_dir = absolute_from (base_dir, settings->output_dir);
  if (!choose_group (setup, targets, targets_file, settings->group, error))
    return FALSE;
  setup->log_path = settings->global_log != NULL
                      ? absolute_from (base_dir, settings->global_log)
                      : g_build_filename (setup->group_dir, "capture.log", NULL);
  return TRUE;
}

void
ws_capture_run_setup_clear (WsCaptureRunSetup *setup)
{
  g_clear_pointer (&setup->nsys, g_free);
  g_clear_pointer (&setup->ncu, g_free);
  g_clear_pointer (&setup->out_dir, g_free);
  g_clear_pointer (&setup->group, g_free);
  g_clear_pointer (&setup->group_dir, g_free);
  g_clear_pointer (&setup->log_path, g_free);
}

/**
 * ws_capture_prepare_target:
 * @target: a target with its folder name (ws_capture_prepare_targets())
 * @group_dir: OUT/<group>
 * @nsys: the programs, resolved
 * @base_env: the environment the programs start from
 *
 * Step 1: makes the target's folder with its nsys and ncu folders, plans
 * its commands and makes room for their results.
 *
 * Returns: %FALSE with @error set when a folder cannot be made or the plan
 *   not made
 */
gboolean
ws_capture_prepare_target (WsCaptureTargetRun *target, const char *group_dir,
                           const WsCaptureSettings *settings, const char *nsys, const char *ncu,
                           const char *const *base_env, GError **error)
{
  WsCaptureTarget row;

  g_return_val_if_fail (target != NULL && target->folder_name != NULL, FALSE);
  g_return_val_if_fail (group_dir != NULL && settings != NULL, FALSE);

  row = (WsCaptureTarget){
    .name = target->name,
    .cmd = target->cmd,
    .workdir = target->workdir,
    .envs = target->envs,
  };
  target->dir = g_build_filename (group_dir, target->folder_name, NULL);
  /* Not -p: an existing folder is an earlier run, never overwritten. */
  if (g_mkdir (target->dir, 0777) != 0)
    {
      int saved = errno;

      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_IO, "%s: %s", target->dir,
                   saved == EEXIST ? "exists already (an earlier run)" : g_strerror (saved));
      g_clear_pointer (&target->dir, g_free);
      return FALSE;
    }
  target->plan = ws_capture_plan_new (&row, target->folder_name, group_dir, settings, nsys, ncu,
                                      base_env, error);
  if (target->plan == NULL)
    return FALSE;
  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    target->results[s] = g_array_new (FALSE, TRUE, sizeof (WsCaptureCommandResult));
  if (g_mkdir (target->plan->nsys_dir, 0777) != 0 || g_mkdir (target->plan->ncu_dir, 0777) != 0)
    {
      int saved = errno;

      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_IO, "%s: %s", target->dir,
                   g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}
