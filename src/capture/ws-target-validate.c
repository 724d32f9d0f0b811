/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-target-validate"
#include "config.h"

#include <string.h>

#include "ws-capture-error.h"
#include "ws-ssh-host.h"
#include "ws-target-validate.h"

/* What is wrong with a targets list, cell by cell, read through the
 * list's getters: the list keeps any text, and the editor, the capture
 * page and the CLI ask here what of it can run. */

void
ws_target_problem_free (WsTargetProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->message);
  g_free (problem);
}

static void
add_problem (GPtrArray *problems, guint row, WsTargetColumn column, char *message)
{
  WsTargetProblem *problem = g_new0 (WsTargetProblem, 1);

  problem->row = row;
  problem->column = column;
  problem->message = message;
  g_ptr_array_add (problems, problem);
}

static gboolean
valid_env_name (const char *name)
{
  if (!g_ascii_isalpha (name[0]) && name[0] != '_')
    return FALSE;
  for (const char *p = name + 1; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

/**
 * ws_target_envs_parse:
 * @envs: an ENVS cell: `A=1,B=2`, empty or `-`
 *
 * Splits ENVS into variables.  Each pair is `NAME=VALUE` with NAME a shell
 * variable name; the value is everything after the first `=` (`A=1=2`
 * gives A the value `1=2`) and is never interpreted: it reaches the
 * program through the environment, not through a shell.  Spaces around a
 * pair are dropped.
 *
 * Returns: (transfer full): `NAME=VALUE` strings (possibly none), or %NULL
 *   with @error set naming the pair that is wrong
 */
char **
ws_target_envs_parse (const char *envs, GError **error)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) pairs = NULL;

  if (ws_target_value_is_empty (envs))
    return g_strv_builder_end (builder);

  /* Every wrong pair is named, not only the first. */
  pairs = g_strsplit (envs, ",", -1);
  for (guint i = 0; pairs[i] != NULL; i++)
    {
      g_autofree char *pair = g_strstrip (g_strdup (pairs[i]));
      const char *eq = strchr (pair, '=');
      g_autofree char *name = NULL;

      if (pair[0] == '\0')
        g_ptr_array_add (problems, g_strdup_printf ("pair %u is empty", i + 1));
      else if (eq == NULL)
        g_ptr_array_add (problems, g_strdup_printf ("“%s” is not NAME=VALUE", pair));
      else if (eq == pair)
        g_ptr_array_add (problems, g_strdup_printf ("“%s” has no variable name before “=”", pair));
      else if (!valid_env_name (name = g_strndup (pair, eq - pair)))
        g_ptr_array_add (problems,
                         g_strdup_printf ("“%s” is not a variable name (letters, digits and _, "
                                          "not first a digit)",
                                          name));
      else
        g_strv_builder_add (builder, pair);
    }
  if (problems->len > 0)
    {
      g_ptr_array_add (problems, NULL);
      g_autofree char *message = g_strjoinv ("; ", (char **) problems->pdata);

      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "%s (pairs are NAME=VALUE, separated by commas)", message);
      return NULL;
    }
  return g_strv_builder_end (builder);
}

/**
 * ws_target_list_resolve_workdir:
 *
 * Returns: (transfer full): the absolute folder the row's CMD runs in:
 *   WORKDIR relative to the targets file's folder (`~/` is the home
 *   folder), or that folder itself when WORKDIR is empty or `-`.  For a
 *   row with a HOST, a folder there: WORKDIR as written (absolute, `~/…`,
 *   or relative to the login folder there), "" for the login folder.
 */
char *
ws_target_list_resolve_workdir (WsTargetList *self, guint row)
{
  g_autofree char *base = NULL;
  g_autofree char *workdir = NULL;
  g_autoptr (GFile) file = NULL;
  const char *value;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), NULL);

  value = ws_target_list_get (self, row, WS_TARGET_WORKDIR);
  if (ws_target_list_is_remote (self, row))
    return ws_target_value_is_empty (value) ? g_strdup ("") : g_strstrip (g_strdup (value));
  base = ws_target_list_get_base_dir (self);
  if (ws_target_value_is_empty (value))
    return g_steal_pointer (&base);
  workdir = g_strstrip (g_strdup (value));
  if (g_str_equal (workdir, "~") || g_str_has_prefix (workdir, "~/"))
    {
      g_autofree char *rest = g_strdup (workdir + 1);

      g_free (workdir);
      workdir = g_strconcat (g_get_home_dir (), rest, NULL);
    }
  file = g_path_is_absolute (workdir) ? g_file_new_for_path (workdir)
                                      : g_file_new_build_filename (base, workdir, NULL);
  return g_file_get_path (file);
}

static void
validate_row (WsTargetList *self, guint row, guint n, GPtrArray *problems)
{
  const char *name = ws_target_list_get (self, row, WS_TARGET_NAME);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) envs = NULL;
  g_autofree char *trimmed = NULL;
  guint n_columns;

  g_assert (name != NULL);
  trimmed = g_strstrip (g_strdup (name));

  if (trimmed[0] == '\0')
    add_problem (problems, row, WS_TARGET_NAME, g_strdup ("empty: every target needs a name"));
  else
    for (guint other = 0; other < n; other++)
      if (other != row && g_str_equal (ws_target_list_get (self, other, WS_TARGET_NAME), name))
        {
          add_problem (problems, row, WS_TARGET_NAME,
                       g_strdup_printf ("“%s” is also the name on line %u: names must be unique",
                                        name, ws_target_list_get_line (self, other)));
          break;
        }

  if (ws_target_value_is_empty (ws_target_list_get (self, row, WS_TARGET_CMD)))
    add_problem (problems, row, WS_TARGET_CMD, g_strdup ("empty: nothing to run"));

  /* A folder on another machine is looked for when the capture starts. */
  if (!ws_target_value_is_empty (ws_target_list_get (self, row, WS_TARGET_WORKDIR)) &&
      !ws_target_list_is_remote (self, row))
    {
      g_autofree char *dir = ws_target_list_resolve_workdir (self, row);

      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        add_problem (problems, row, WS_TARGET_WORKDIR, g_strdup_printf ("%s: no such folder", dir));
    }

  envs = ws_target_envs_parse (ws_target_list_get (self, row, WS_TARGET_ENVS), &error);
  if (envs == NULL)
    add_problem (problems, row, WS_TARGET_ENVS, g_strdup (error->message));
  g_clear_error (&error);

  n_columns = ws_target_list_get_n_columns (self, row);
  if (n_columns > WS_TARGET_N_COLUMNS)
    add_problem (problems, row, WS_TARGET_HOST,
                 g_strdup_printf ("the line has %u TAB-separated columns; a row has 4 or 5 "
                                  "(NAME, CMD, WORKDIR, ENVS, HOST)",
                                  n_columns));
  else if (!ws_host_value_valid (ws_target_list_get (self, row, WS_TARGET_HOST),
                                 ws_target_list_get_known_hosts (self), &error))
    add_problem (problems, row, WS_TARGET_HOST, g_strdup (error->message));
}

/**
 * ws_host_value_valid:
 * @known: (nullable): the host names of the settings
 *
 * Whether a HOST cell can be run: empty or `-` (this machine), a host of
 * the settings, or an ssh destination (`[user@]host[:port]`, a Host
 * alias).
 */
gboolean
ws_host_value_valid (const char *value, const char *const *known, GError **error)
{
  g_autofree char *name = NULL;
  g_autoptr (WsSshHost) host = NULL;

  if (ws_target_value_is_empty (value))
    return TRUE;
  name = g_strstrip (g_strdup (value));
  if (known != NULL && g_strv_contains (known, name))
    return TRUE;
  host = ws_ssh_host_parse (name, error);
  return host != NULL;
}

/**
 * ws_target_list_validate_row:
 *
 * Returns: (transfer full) (element-type WsTargetProblem): what is wrong
 *   with the row's cells, in column order; empty when nothing is
 */
GPtrArray *
ws_target_list_validate_row (WsTargetList *self, guint row)
{
  GPtrArray *problems = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_target_problem_free);
  guint n;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), problems);

  n = ws_target_list_get_n_targets (self);
  g_return_val_if_fail (row < n, problems);
  validate_row (self, row, n, problems);
  return problems;
}

/**
 * ws_target_list_validate:
 *
 * Checks every row: NAME not empty and unique, CMD not empty, WORKDIR an
 * existing folder (relative to the file's folder; not checked for a row
 * that runs on another host), ENVS of the form `A=1,B=2`, HOST empty,
 * `-`, a known host or an ssh destination.
 *
 * Returns: (transfer full) (element-type WsTargetProblem): the problems, by
 *   row then column
 */
GPtrArray *
ws_target_list_validate (WsTargetList *self)
{
  GPtrArray *problems = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_target_problem_free);
  guint n;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), problems);

  n = ws_target_list_get_n_targets (self);
  for (guint row = 0; row < n; row++)
    validate_row (self, row, n, problems);
  return problems;
}

/**
 * ws_target_list_format_problem:
 *
 * Returns: (transfer full): one line naming the file, the line, the column
 *   and the target: `targets.tsv:3: CMD of “missing_cmd”: empty: …`
 */
char *
ws_target_list_format_problem (WsTargetList *self, const WsTargetProblem *problem)
{
  const char *path;
  const char *name;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), NULL);
  g_return_val_if_fail (problem != NULL, NULL);

  path = ws_target_list_get_path (self);
  name = ws_target_list_get (self, problem->row, WS_TARGET_NAME);
  if (name == NULL || name[0] == '\0')
    return g_strdup_printf ("%s:%u: %s: %s", path != NULL ? path : "targets.tsv",
                            ws_target_list_get_line (self, problem->row),
                            ws_target_column_name (problem->column), problem->message);
  return g_strdup_printf ("%s:%u: %s of “%s”: %s", path != NULL ? path : "targets.tsv",
                          ws_target_list_get_line (self, problem->row),
                          ws_target_column_name (problem->column), name, problem->message);
}
