/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-tool-query"
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "ws-tool-process.h"
#include "ws-tool-query.h"
#include "ws-ssh-connection.h"
#include "ws-tools-error.h"

/**
 * ws_tool_run:
 * @out: (out) (optional): standard output, as valid UTF-8
 * @err: (out) (optional): standard error, as valid UTF-8
 * @exit_status: (out) (optional): the exit status, -1 for a signal
 *
 * Runs a short command (a version query, a list) in a process group of its
 * own, waiting at most @timeout_s seconds; a command still running then,
 * or when @cancellable is cancelled, is stopped with its group.  Blocks the
 * calling thread: call it from a worker thread in a window.
 */
gboolean
ws_tool_run (const char *const *argv, guint timeout_s, GCancellable *cancellable, char **out,
             char **err, int *exit_status, GError **error)
{
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (WsToolProcess) process = NULL;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);

  process = ws_tool_process_new ((char **) argv, NULL, env, NULL, 0);
  return ws_tool_process_run_sync (process, timeout_s, cancellable, out, err, exit_status, error);
}

/**
 * ws_tool_run_on:
 * @ssh: (nullable): the host to run on; %NULL for this machine
 *
 * ws_tool_run(), here or on a host.
 */
gboolean
ws_tool_run_on (WsSshConnection *ssh, const char *const *argv, guint timeout_s,
                GCancellable *cancellable, char **out, char **err, int *exit_status, GError **error)
{
  if (ssh == NULL)
    return ws_tool_run (argv, timeout_s, cancellable, out, err, exit_status, error);
  return ws_ssh_connection_run (ssh, argv, NULL, timeout_s, cancellable, out, err, exit_status,
                                error);
}

char *
ws_tool_version (const char *path, GCancellable *cancellable, GError **error)
{
  return ws_tool_version_on (NULL, path, cancellable, error);
}

/**
 * ws_tool_version_on:
 * @ssh: (nullable): the host @path is on; %NULL for this machine
 *
 * Asks `PATH --version`: nsys prints "NVIDIA Nsight Systems version
 * 2025.3.1.0", ncu a banner whose last line is "Version 2025.3.1.0 (build
 * 36398880) (public-release)".
 *
 * Returns: (transfer full): the version ("2025.3.1.0"), or %NULL with
 *   @error set when the program does not run or says no version
 */
char *
ws_tool_version_on (WsSshConnection *ssh, const char *path, GCancellable *cancellable,
                    GError **error)
{
  const char *argv[] = { path, "--version", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  int status = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!ws_tool_run_on (ssh, argv, 30, cancellable, &out, &err, &status, error))
    return NULL;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) words = g_strsplit_set (g_strstrip (lines[i]), " \t", -1);

      for (guint w = 0; words[w] != NULL && words[w + 1] != NULL; w++)
        if (g_ascii_strcasecmp (words[w], "version") == 0 && g_ascii_isdigit (words[w + 1][0]))
          return g_strdup (words[w + 1]);
    }
  g_strdelimit (err, "\r\n", ' ');
  g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING,
               "%s: “--version” printed no version (exit status %d) %s", path, status,
               g_strstrip (err));
  return NULL;
}

GPtrArray *
ws_tool_list (const char *ncu, const char *what, GCancellable *cancellable, GError **error)
{
  return ws_tool_list_on (NULL, ncu, what, cancellable, error);
}

/**
 * ws_tool_list_on:
 * @ssh: (nullable): the host @ncu is on; %NULL for this machine
 * @what: "sets" or "sections"
 *
 * Reads the identifiers of `ncu --list-sets` or `ncu --list-sections`:
 * a table framed by dashed lines whose first column is the identifier;
 * a long cell wraps onto lines with an empty first column.
 *
 * Returns: (transfer full) (element-type utf8): the identifiers in ncu's
 *   order, or %NULL with @error set
 */
GPtrArray *
ws_tool_list_on (WsSshConnection *ssh, const char *ncu, const char *what, GCancellable *cancellable,
                 GError **error)
{
  g_autofree char *option = g_strconcat ("--list-", what, NULL);
  const char *argv[] = { ncu, option, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) lines = NULL;
  guint dashes = 0;
  gsize width = 0;
  int status = 0;

  g_return_val_if_fail (ncu != NULL && what != NULL, NULL);

  if (!ws_tool_run_on (ssh, argv, 30, cancellable, &out, &err, &status, error))
    return NULL;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      g_autofree char *id = NULL;

      if (g_str_has_prefix (line, "---"))
        {
          if (dashes++ == 0)
            width = strspn (line, "-");
          continue;
        }
      /* Rows come after the second dashed line (the header's lower frame). */
      if (dashes < 2 || line[0] == ' ' || line[0] == '\0')
        continue;
      id = g_strstrip (g_strndup (line, width));
      if (id[0] != '\0')
        g_ptr_array_add (ids, g_steal_pointer (&id));
    }
  if (status != 0 || ids->len == 0)
    {
      g_strdelimit (err, "\r\n", ' ');
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING,
                   "%s %s: no list (exit status %d) %s", ncu, option, status, g_strstrip (err));
      return NULL;
    }
  return g_steal_pointer (&ids);
}

GPtrArray *
ws_tool_query_gpus (GCancellable *cancellable)
{
  return ws_tool_query_gpus_on (NULL, cancellable);
}

/**
 * ws_tool_query_gpus_on:
 * @ssh: (nullable): the host to ask; %NULL for this machine
 *
 * Returns: (transfer full) (element-type utf8): "NAME, DRIVER" for each GPU
 *   nvidia-smi lists; empty when there is no nvidia-smi or it fails
 */
GPtrArray *
ws_tool_query_gpus_on (WsSshConnection *ssh, GCancellable *cancellable)
{
  GPtrArray *gpus = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *smi =
    ssh == NULL ? g_find_program_in_path ("nvidia-smi") : g_strdup ("nvidia-smi");
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  int status = -1;

  if (smi == NULL)
    return gpus;
  {
    const char *argv[] = { smi, "--query-gpu=name,driver_version", "--format=csv,noheader", NULL };

    if (!ws_tool_run_on (ssh, argv, 30, cancellable, &out, NULL, &status, NULL) || status != 0)
      return gpus;
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_strstrip (lines[i])[0] != '\0')
      g_ptr_array_add (gpus, g_strdup (lines[i]));
  return gpus;
}

void
ws_tool_info_free (WsToolInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->nsys_version);
  g_free (info->ncu_version);
  g_clear_pointer (&info->gpus, g_ptr_array_unref);
  g_clear_pointer (&info->sets, g_ptr_array_unref);
  g_clear_pointer (&info->sections, g_ptr_array_unref);
  g_clear_pointer (&info->warnings, g_ptr_array_unref);
  g_free (info);
}

/**
 * ws_tool_probe:
 * @ssh: (nullable): the host the tools are on; %NULL for this machine
 *
 * Asks nsys and ncu their versions, ncu its sets and sections, and
 * nvidia-smi the GPUs.  Blocks: call it from a worker thread.
 *
 * Returns: (transfer full): what they said
 */
WsToolInfo *
ws_tool_probe (WsSshConnection *ssh, const char *nsys, const char *ncu, GCancellable *cancellable)
{
  WsToolInfo *info = g_new0 (WsToolInfo, 1);
  g_autoptr (GError) error = NULL;

  info->warnings = g_ptr_array_new_with_free_func (g_free);
  info->nsys_version = ws_tool_version_on (ssh, nsys, cancellable, &error);
  if (info->nsys_version == NULL)
    g_ptr_array_add (info->warnings, g_strdup (error->message));
  g_clear_error (&error);
  info->ncu_version = ws_tool_version_on (ssh, ncu, cancellable, &error);
  if (info->ncu_version == NULL)
    g_ptr_array_add (info->warnings, g_strdup (error->message));
  info->sets = ws_tool_list_on (ssh, ncu, "sets", cancellable, NULL);
  info->sections = ws_tool_list_on (ssh, ncu, "sections", cancellable, NULL);
  info->gpus = ws_tool_query_gpus_on (ssh, cancellable);
  return info;
}

static void
probe_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  char **tools = data;

  g_autoptr (WsToolInfo) info = ws_tool_probe (NULL, tools[0], tools[1], cancellable);

  /* Each question stopped at once: what was said is incomplete. */
  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_pointer (task, g_steal_pointer (&info), (GDestroyNotify) ws_tool_info_free);
}

/**
 * ws_tool_probe_async:
 *
 * Asks nsys and ncu their versions, ncu its sets and sections, and
 * nvidia-smi the GPUs, on a worker thread.
 */
void
ws_tool_probe_async (const char *nsys, const char *ncu, GCancellable *cancellable,
                     GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  char **tools = g_new0 (char *, 3);

  g_return_if_fail (nsys != NULL && ncu != NULL);

  tools[0] = g_strdup (nsys);
  tools[1] = g_strdup (ncu);
  g_task_set_source_tag (task, ws_tool_probe_async);
  g_task_set_task_data (task, tools, (GDestroyNotify) g_strfreev);
  g_task_run_in_thread (task, probe_thread);
}

/**
 * ws_tool_probe_finish:
 *
 * Returns: (transfer full): what the tools said; %NULL only when cancelled
 */
WsToolInfo *
ws_tool_probe_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
