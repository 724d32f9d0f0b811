/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-tool-find"
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "ws-tool-find.h"
#include "ws-tools-error.h"

typedef struct
{
  char *version; /* the folder's version, for ordering */
  char *path;
} Candidate;

static void
candidate_free (Candidate *candidate)
{
  g_free (candidate->version);
  g_free (candidate->path);
  g_free (candidate);
}

/* Compares versions such as "2025.3.2" and "2023.10.1" number by number. */
static int
compare_versions (const char *a, const char *b)
{
  while (*a != '\0' || *b != '\0')
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          guint64 na = g_ascii_strtoull (a, (char **) &a, 10);
          guint64 nb = g_ascii_strtoull (b, (char **) &b, 10);

          if (na != nb)
            return na < nb ? -1 : 1;
          continue;
        }
      if (*a != *b)
        return (guchar) *a < (guchar) *b ? -1 : 1;
      a++;
      b++;
    }
  return 0;
}

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  const Candidate *ca = *(Candidate **) a;
  const Candidate *cb = *(Candidate **) b;

  /* Newest first. */
  return compare_versions (cb->version, ca->version);
}

static gboolean
is_program (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (path, G_FILE_TEST_IS_DIR);
}

static void
add_if_program (GPtrArray *candidates, const char *version, const char *path)
{
  Candidate *candidate;

  if (!is_program (path))
    return;
  candidate = g_new0 (Candidate, 1);
  candidate->version = g_strdup (version);
  candidate->path = g_strdup (path);
  g_ptr_array_add (candidates, candidate);
}

/* Install folders named PREFIX* in @parent, holding @sub either directly
 * (`nsight-systems-2023.4/bin/nsys`) or under a version folder
 * (`nsight-systems/2025.3.2/bin/nsys`). */
static void
collect (GPtrArray *candidates, const char *parent, const char *prefix, const char *sub)
{
  g_autoptr (GDir) dir = g_dir_open (parent, 0, NULL);
  const char *entry;

  if (dir == NULL)
    return;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *folder = NULL;
      g_autofree char *direct = NULL;
      g_autoptr (GDir) inner = NULL;
      const char *version = entry + strlen (prefix);
      const char *child;

      if (!g_str_has_prefix (entry, prefix))
        continue;
      while (*version != '\0' && !g_ascii_isdigit (*version))
        version++;
      folder = g_build_filename (parent, entry, NULL);
      direct = g_build_filename (folder, sub, NULL);
      add_if_program (candidates, version, direct);

      inner = g_dir_open (folder, 0, NULL);
      while (inner != NULL && (child = g_dir_read_name (inner)) != NULL)
        if (g_ascii_isdigit (child[0]))
          {
            g_autofree char *path = g_build_filename (folder, child, sub, NULL);

            add_if_program (candidates, child, path);
          }
    }
}

static char *
best (GPtrArray *candidates)
{
  if (candidates->len == 0)
    return NULL;
  g_ptr_array_sort (candidates, compare_candidates);
  return g_strdup (((Candidate *) g_ptr_array_index (candidates, 0))->path);
}

/* The version in a candidate's path: what follows @prefix in the folder
 * named after it (`cuda-12.4`, `nsight-systems-2023.4`), or the folder
 * below it (`nsight-systems/2025.3.2/bin/nsys`). */
static char *
path_version (const char *path, const char *prefix)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    if (g_str_has_prefix (parts[i], prefix))
      {
        const char *version = parts[i] + strlen (prefix);

        while (*version != '\0' && !g_ascii_isdigit (*version))
          version++;
        if (*version == '\0' && parts[i + 1] != NULL && g_ascii_isdigit (parts[i + 1][0]))
          version = parts[i + 1];
        return g_strdup (version);
      }
  return g_strdup ("");
}

/**
 * ws_tool_newest:
 * @paths: (element-type utf8): candidates of one kind, found elsewhere
 *   (on a host)
 * @prefix: the install folders' prefix: "cuda-", "nsight-systems",
 *   "nsight-compute"
 *
 * Returns: (transfer full) (nullable): the candidate of the newest
 *   version, compared as ws_tool_find_in() compares them
 */
char *
ws_tool_newest (GPtrArray *paths, const char *prefix)
{
  g_autoptr (GPtrArray) candidates =
    g_ptr_array_new_with_free_func ((GDestroyNotify) candidate_free);

  for (guint i = 0; i < paths->len; i++)
    {
      Candidate *candidate = g_new0 (Candidate, 1);

      candidate->path = g_strdup (g_ptr_array_index (paths, i));
      candidate->version = path_version (candidate->path, prefix);
      g_ptr_array_add (candidates, candidate);
    }
  return best (candidates);
}

/* The first folder of @path_env (a PATH value) that holds the program. */
static char *
find_on_path (const char *name, const char *path_env)
{
  g_auto (GStrv) dirs = NULL;

  if (path_env == NULL)
    return NULL;
  dirs = g_strsplit (path_env, G_SEARCHPATH_SEPARATOR_S, -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *path = NULL;

      if (dirs[i][0] == '\0')
        continue;
      path = g_build_filename (dirs[i], name, NULL);
      if (is_program (path))
        return g_steal_pointer (&path);
    }
  return NULL;
}

/**
 * ws_tool_find_in:
 * @name: "nsys" or "ncu"
 * @path_env: (nullable): a PATH value
 * @root: (nullable): prefix of the install folders, for tests; NULL is "/"
 *
 * Looks for the program on @path_env, then in /usr/local/cuda/bin and
 * /usr/local/cuda-*\/bin, then in the Nsight install folders
 * (/opt/nvidia/nsight-systems*, /opt/nvidia/nsight-compute*); among
 * several versions the newest wins.
 *
 * Returns: (transfer full) (nullable): the program's path
 */
char *
ws_tool_find_in (const char *name, const char *path_env, const char *root)
{
  g_autoptr (GPtrArray) candidates =
    g_ptr_array_new_with_free_func ((GDestroyNotify) candidate_free);
  g_autofree char *usr_local = NULL;
  g_autofree char *cuda = NULL;
  g_autofree char *opt = NULL;
  g_autofree char *sub = NULL;
  char *found;

  g_return_val_if_fail (name != NULL, NULL);

  if (root == NULL)
    root = "/";
  if ((found = find_on_path (name, path_env)) != NULL)
    return found;

  cuda = g_build_filename (root, "usr", "local", "cuda", "bin", name, NULL);
  if (is_program (cuda))
    return g_steal_pointer (&cuda);
  usr_local = g_build_filename (root, "usr", "local", NULL);
  sub = g_build_filename ("bin", name, NULL);
  collect (candidates, usr_local, "cuda-", sub);
  if ((found = best (candidates)) != NULL)
    return found;

  opt = g_build_filename (root, "opt", "nvidia", NULL);
  if (g_str_equal (name, "nsys"))
    collect (candidates, opt, "nsight-systems", sub);
  else if (g_str_equal (name, "ncu"))
    collect (candidates, opt, "nsight-compute", name);
  return best (candidates);
}

/**
 * ws_tool_find:
 *
 * Where WARPSCOPE_TOOL_PATH is set (folders separated as in PATH), nsys
 * and ncu are looked for in its folders only: not on PATH, not in the
 * install folders.  Tests set it to hide the tools a machine has
 * installed; empty, it finds none.
 *
 * Returns: (transfer full) (nullable): nsys or ncu as
 *   ws_tool_find_in() finds it on this machine
 */
char *
ws_tool_find (const char *name)
{
  const char *only = g_getenv (WS_TOOL_PATH_ENV);

  if (only != NULL)
    return find_on_path (name, only);
  return ws_tool_find_in (name, g_getenv ("PATH"), NULL);
}

/**
 * ws_tool_resolve:
 * @configured: (nullable): a path or a program name from the settings
 *
 * Returns: (transfer full): the program to run: @configured when set
 *   (looked up on PATH when it has no `/`), otherwise what
 *   ws_tool_find() finds; %NULL with @error naming where it
 *   looked
 */
char *
ws_tool_resolve (const char *name, const char *configured, GError **error)
{
  char *path;

  if (configured != NULL && configured[0] != '\0')
    {
      path = strchr (configured, '/') != NULL ? g_strdup (configured)
                                              : g_find_program_in_path (configured);
      if (path == NULL || !is_program (path))
        {
          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING,
                       "%s: no such program (the %s path in the settings)", configured, name);
          g_free (path);
          return NULL;
        }
      return path;
    }
  path = ws_tool_find (name);
  if (path == NULL && g_getenv (WS_TOOL_PATH_ENV) != NULL)
    g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING, "%s: not found in %s (%s)",
                 name, WS_TOOL_PATH_ENV, g_getenv (WS_TOOL_PATH_ENV));
  else if (path == NULL)
    g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING,
                 "%s: not found on PATH, in /usr/local/cuda/bin or in /opt/nvidia/%s*", name,
                 g_str_equal (name, "nsys") ? "nsight-systems" : "nsight-compute");
  return path;
}
