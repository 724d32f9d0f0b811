/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-log"
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-capture-log.h"
#include "ws-tool-process.h"
#include "ws-ssh.h"
#include "ws-tool-process.h"

/* The words of a capture's log, and what the tools' output says about why
 * a step failed. */

/**
 * ws_capture_step_line:
 * @detail: (nullable): what the step does, or why it failed
 *
 * The `[STEP x/6]` line of the existing workflow, with its words as it
 * wrote them (开始 start, 完成 done, 失败 failed; 跳过 skipped is ours), so
 * that scripts reading the log keep working.  Not translated: the window
 * translates its own copy.
 *
 * Returns: (transfer full): the line, without a line end
 */
char *
ws_capture_step_line (guint step, WsCaptureStepState state, const char *name, const char *detail)
{
  const char *word;

  switch (state)
    {
      case WS_CAPTURE_STEP_RUNNING:
        word = "开始";
        break;
      case WS_CAPTURE_STEP_DONE:
        word = "完成";
        break;
      case WS_CAPTURE_STEP_FAILED:
        word = "失败";
        break;
      case WS_CAPTURE_STEP_SKIPPED:
        word = "跳过";
        break;
      case WS_CAPTURE_STEP_WAITING:
      default:
        g_return_val_if_reached (NULL);
    }
  if (detail != NULL && detail[0] != '\0')
    return g_strdup_printf ("[STEP %u/%d] %s %s: %s", step, WS_CAPTURE_N_STEPS, word, name, detail);
  return g_strdup_printf ("[STEP %u/%d] %s %s", step, WS_CAPTURE_N_STEPS, word, name);
}

/**
 * ws_capture_command_line:
 *
 * Returns: (transfer full): the command as a shell line that redoes it,
 *   for the log: `$ cd DIR && A=1 nsys profile …`, each word quoted (by
 *   ws_ssh_quote()) only where a shell needs it
 */
char *
ws_capture_command_line (const WsCaptureCommand *command)
{
  g_autofree char *quoted = ws_ssh_join ((const char *const *) command->argv);
  g_autofree char *cwd = ws_ssh_quote (command->cwd);
  GString *text = g_string_new ("$ cd ");

  g_string_append (text, cwd);
  g_string_append (text, " &&");
  for (guint i = 0; command->env_added != NULL && command->env_added[i] != NULL; i++)
    {
      const char *eq = strchr (command->env_added[i], '=');
      g_autofree char *value = ws_ssh_quote (eq + 1);

      g_string_append_printf (text, " %.*s=%s", (int) (eq - command->env_added[i]),
                              command->env_added[i], value);
    }
  g_string_append_printf (text, " %s", quoted);
  return g_string_free (text, FALSE);
}

/* Takes in a line of a running command's output. */
void
ws_capture_output_watch_line (WsCaptureOutputWatch *watch, const char *line)
{
  g_return_if_fail (watch != NULL && line != NULL);

  /* The first ==ERROR== line names the cause; without one, the last line
   * that looks like a problem. */
  if (ws_tool_process_line_is_problem (line) &&
      (watch->problem_line == NULL || !g_str_has_prefix (watch->problem_line, "==ERROR==")))
    {
      g_free (watch->problem_line);
      watch->problem_line = g_strdup (line);
    }
  if (strstr (line, "No kernels were profiled") != NULL)
    watch->no_kernels_profiled = TRUE;
}

/* Forgets what the last command said, for the next one. */
void
ws_capture_output_watch_clear (WsCaptureOutputWatch *watch)
{
  g_return_if_fail (watch != NULL);

  g_clear_pointer (&watch->problem_line, g_free);
  watch->no_kernels_profiled = FALSE;
}

/**
 * ws_capture_judge_output:
 * @size: the file's size; -1 when it is missing or not a file
 * @qdstrm_exists: for a report of nsys: whether its .qdstrm is there
 * @no_kernels_profiled: ncu said "No kernels were profiled"
 *
 * Returns: (transfer full) (nullable): why a file a step must leave is
 *   missing, or %NULL when it is there and not empty
 */
char *
ws_capture_judge_output (const char *path, gint64 size, gboolean qdstrm_exists,
                         gboolean no_kernels_profiled)
{
  if (size > 0)
    return NULL;
  if (g_str_has_suffix (path, ".nsys-rep") && qdstrm_exists)
    {
      g_autofree char *base = g_strndup (path, strlen (path) - strlen (".nsys-rep"));

      return g_strdup_printf ("nsys wrote %s.qdstrm but no report: it could not import the "
                              "capture (QdstrmImporter missing or failing)",
                              base);
    }
  if (g_str_has_suffix (path, ".ncu-rep") && no_kernels_profiled)
    return g_strdup_printf ("ncu profiled no kernel (no launch matched the regex): no %s", path);
  if (size == 0)
    return g_strdup_printf ("%s is empty", path);
  return g_strdup_printf ("%s was not written", path);
}

/* The .qdstrm that nsys leaves beside BASE.nsys-rep when it cannot import. */
char *
ws_capture_qdstrm_of (const char *report)
{
  g_autofree char *base = NULL;

  if (!g_str_has_suffix (report, ".nsys-rep"))
    return NULL;
  base = g_strndup (report, strlen (report) - strlen (".nsys-rep"));
  return g_strconcat (base, ".qdstrm", NULL);
}

/**
 * ws_capture_check_output:
 * @no_kernels_profiled: ncu said "No kernels were profiled"
 *
 * Returns: (transfer full) (nullable): why a file a step must leave is
 *   missing, or %NULL when it is there and not empty
 */
char *
ws_capture_check_output (const char *path, gboolean no_kernels_profiled)
{
  g_autofree char *qdstrm = ws_capture_qdstrm_of (path);
  GStatBuf st;
  gint64 size = g_stat (path, &st) == 0 && S_ISREG (st.st_mode) ? (gint64) st.st_size : -1;

  return ws_capture_judge_output (
    path, size, qdstrm != NULL && g_file_test (qdstrm, G_FILE_TEST_EXISTS), no_kernels_profiled);
}

/* The first line of a failed command's redirected output that is an
 * error: ncu's --import may print its errors where the CSV would go. */
char *
ws_capture_problem_in_file (const char *path)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  gsize len = 0;

  if (path == NULL || !g_file_get_contents (path, &contents, &len, NULL) || len > 1024 * 1024)
    return NULL;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strstrip (lines[i]);

      if (g_str_has_prefix (line, "==ERROR==") || g_str_has_prefix (line, "ERROR"))
        return g_utf8_make_valid (line, -1);
    }
  return NULL;
}

/**
 * ws_capture_command_problem:
 * @exit_status: -1: ended by a signal, or did not start
 * @problem_line: (nullable): the line of its output that best says why it
 *   failed
 * @no_kernels_profiled: ncu said "No kernels were profiled"
 *
 * Judges a finished command: it failed when it did not exit with 0, or
 * when a file it must leave is missing or empty.
 *
 * Returns: (transfer full) (nullable): why the command failed, or %NULL
 *   when it succeeded
 */
char *
ws_capture_command_problem (const WsCaptureCommand *command, int exit_status,
                            const char *problem_line, gboolean no_kernels_profiled)
{
  g_return_val_if_fail (command != NULL, NULL);

  if (exit_status != 0)
    {
      g_autofree char *status = exit_status < 0 ? g_strdup ("ended by a signal")
                                                : g_strdup_printf ("exit status %d", exit_status);
      g_autofree char *in_file =
        problem_line == NULL ? ws_capture_problem_in_file (command->stdout_path) : NULL;

      if (problem_line == NULL)
        problem_line = in_file;
      return problem_line != NULL ? g_strdup_printf ("%s: %s", status, problem_line)
                                  : g_steal_pointer (&status);
    }
  for (guint i = 0; command->outputs != NULL && command->outputs[i] != NULL; i++)
    {
      char *message = ws_capture_check_output (command->outputs[i], no_kernels_profiled);

      if (message != NULL)
        return message;
    }
  return NULL;
}

/**
 * ws_capture_command_stat_paths:
 *
 * Returns: (transfer full): the files whose sizes judge @command where it
 *   ran: its outputs, then the .qdstrm of each nsys report among them
 */
char **
ws_capture_command_stat_paths (const WsCaptureCommand *command)
{
  g_autoptr (GStrvBuilder) paths = g_strv_builder_new ();

  g_return_val_if_fail (command != NULL, NULL);

  if (command->outputs != NULL)
    g_strv_builder_addv (paths, (const char **) command->outputs);
  for (guint i = 0; command->outputs != NULL && command->outputs[i] != NULL; i++)
    {
      g_autofree char *qdstrm = ws_capture_qdstrm_of (command->outputs[i]);

      if (qdstrm != NULL)
        g_strv_builder_add (paths, qdstrm);
    }
  return g_strv_builder_end (paths);
}

/**
 * ws_capture_command_problem_sized:
 * @sizes: (element-type gint64) (nullable): the sizes of
 *   ws_capture_command_stat_paths() where the command ran, -1 for missing
 *
 * ws_capture_command_problem() for a command that ran on another machine,
 * whose files are judged by the sizes reported there; the errors in its
 * redirected output came through its standard error.
 */
char *
ws_capture_command_problem_sized (const WsCaptureCommand *command, int exit_status,
                                  const char *problem_line, gboolean no_kernels_profiled,
                                  GArray *sizes)
{
  guint n_outputs;
  guint next_qdstrm;

  g_return_val_if_fail (command != NULL, NULL);

  if (exit_status != 0)
    {
      g_autofree char *status = exit_status < 0 ? g_strdup ("ended by a signal")
                                                : g_strdup_printf ("exit status %d", exit_status);

      return problem_line != NULL ? g_strdup_printf ("%s: %s", status, problem_line)
                                  : g_steal_pointer (&status);
    }
  n_outputs = command->outputs != NULL ? g_strv_length (command->outputs) : 0;
  /* The .qdstrm files follow the outputs, in the order of their reports. */
  next_qdstrm = n_outputs;
  for (guint i = 0; i < n_outputs; i++)
    {
      gint64 size = sizes != NULL && i < sizes->len ? g_array_index (sizes, gint64, i) : -1;
      gboolean qdstrm = FALSE;
      char *message;

      if (g_str_has_suffix (command->outputs[i], ".nsys-rep"))
        {
          qdstrm = sizes != NULL && next_qdstrm < sizes->len &&
                   g_array_index (sizes, gint64, next_qdstrm) >= 0;
          next_qdstrm++;
        }
      message = ws_capture_judge_output (command->outputs[i], size, qdstrm, no_kernels_profiled);
      if (message != NULL)
        return message;
    }
  return NULL;
}
