/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "ws-digest-export.h"

/* Where a digest may send us (docs/NOTES.md, "What a digest may open"):
 * the folder the user chose, and the digest's own folder, each with what
 * lies below it.  A digest is a file like any other input: a rank path of
 * /etc/shadow, or ../../ out of its folder, or a link beside it that
 * leads out, is never opened. */

/* @path with its links resolved, or %NULL when it does not exist. */
static char *
resolved (const char *path)
{
  char *real = realpath (path, NULL);
  char *copy;

  if (real == NULL)
    return NULL;
  copy = g_strdup (real);
  free (real);
  return copy;
}

/* Whether the resolved @path lies in the resolved folder @root or below it. */
static gboolean
within (const char *path, const char *root)
{
  gsize n = strlen (root);

  if (root[0] == '\0' || strncmp (path, root, n) != 0)
    return FALSE;
  return path[n] == '/' || (n == 1 && root[0] == '/');
}

typedef struct
{
  char *path;
  const char *root; /* resolved; the folder @path must stay in */
} Candidate;

/**
 * ws_digest_export_find:
 * @folder: (nullable): a folder the user pointed to
 * @refused: (out) (optional) (nullable): where an export was found but lay
 *   outside the folders a digest may name: one line naming it, or %NULL
 *
 * Where a rank's export is now: under @folder (at its path relative to the
 * digest, or by its name), beside the digest at that relative path, or
 * where it was when the digest was made; always in @folder or the
 * digest's folder, or below one of them, with links resolved.  A file
 * found anywhere else is not opened, and @refused says so.
 *
 * Returns: (transfer full) (nullable): the path, resolved, or %NULL when it
 * is in none of these places
 */
char *
ws_digest_export_find (const WsDigest *digest, const WsDigestRank *rank, const char *folder,
                       char **refused)
{
  g_autofree char *folder_root = NULL;
  g_autofree char *digest_dir = NULL;
  g_autofree char *digest_root = NULL;
  Candidate candidates[4];
  guint n = 0;
  char *found = NULL;

  if (refused != NULL)
    *refused = NULL;
  g_return_val_if_fail (digest != NULL && rank != NULL, NULL);
  folder_root = folder != NULL ? resolved (folder) : NULL;
  digest_dir = digest->path != NULL ? g_path_get_dirname (digest->path) : NULL;
  digest_root = digest_dir != NULL ? resolved (digest_dir) : NULL;

  if (folder_root != NULL)
    {
      g_autofree char *base = g_path_get_basename (rank->file);

      candidates[n++] = (Candidate){ g_build_filename (folder, rank->file, NULL), folder_root };
      candidates[n++] = (Candidate){ g_build_filename (folder, base, NULL), folder_root };
    }
  if (digest_root != NULL)
    candidates[n++] = (Candidate){ g_build_filename (digest_dir, rank->file, NULL), digest_root };
  /* Where it was: allowed where the user's folder or the digest's is. */
  candidates[n++] = (Candidate){ g_strdup (rank->path), NULL };

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *real = NULL;

      if (found == NULL && g_file_test (candidates[i].path, G_FILE_TEST_IS_REGULAR) &&
          (real = resolved (candidates[i].path)) != NULL)
        {
          gboolean ok = candidates[i].root != NULL
                          ? within (real, candidates[i].root)
                          : (folder_root != NULL && within (real, folder_root)) ||
                              (digest_root != NULL && within (real, digest_root));

          if (ok)
            found = g_steal_pointer (&real);
          else if (refused != NULL && *refused == NULL && folder_root != NULL)
            *refused = g_strdup_printf (
              /* TRANSLATORS: a digest, a rank, the file it names; the export is not opened */
              _ ("%s: rank %u's export %s lies outside the digest's folder and the folder you "
                 "chose: not opened"),
              digest->path != NULL ? digest->path : "", rank->rank.rank, candidates[i].path);
          else if (refused != NULL && *refused == NULL)
            *refused = g_strdup_printf (
              /* TRANSLATORS: a digest, a rank, the file it names; the export is not opened */
              _ ("%s: rank %u's export %s lies outside the digest's folder: not opened"),
              digest->path != NULL ? digest->path : "", rank->rank.rank, candidates[i].path);
        }
      g_free (candidates[i].path);
    }
  if (found != NULL && refused != NULL)
    g_clear_pointer (refused, g_free);
  return found;
}
