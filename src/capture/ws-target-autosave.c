/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-target-autosave"
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-atomic-file.h"
#include "ws-target-autosave.h"

/* Unsaved edits of a targets file, kept where a crash cannot take them:
 * one file per targets file, named after its absolute path. */

/**
 * ws_target_autosave_path:
 * @targets_path: (nullable): the targets file; %NULL for one not saved yet
 *
 * Returns: (transfer full): where unsaved edits of that file are kept:
 *   `$XDG_STATE_HOME/warpscope/autosave/<sha1 of the absolute path>.tsv`
 *   (of "untitled" for a file without a name)
 */
char *
ws_target_autosave_path (const char *targets_path)
{
  g_autofree char *absolute = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *name = NULL;

  if (targets_path != NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_path (targets_path);

      absolute = g_file_get_path (file);
    }
  hash =
    g_compute_checksum_for_string (G_CHECKSUM_SHA1, absolute != NULL ? absolute : "untitled", -1);
  name = g_strconcat (hash, ".tsv", NULL);
  return g_build_filename (g_get_user_state_dir (), "warpscope", "autosave", name, NULL);
}

/* Writes the list as it is now to its autosave file, atomically. */
gboolean
ws_target_autosave_write (WsTargetList *list, GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  gsize len;

  g_return_val_if_fail (WS_IS_TARGET_LIST (list), FALSE);

  path = ws_target_autosave_path (ws_target_list_get_path (list));
  dir = g_path_get_dirname (path);
  g_mkdir_with_parents (dir, 0700);
  data = ws_target_list_to_data (list, &len);
  return ws_atomic_file_save (path, data, len, WS_ATOMIC_FILE_DEFAULT, error);
}

/**
 * ws_target_autosave_find:
 * @mtime: (out) (optional): when it was written, in seconds since the epoch
 *
 * Looks for unsaved edits of @list's file.  An autosave equal to the list
 * as it is holds nothing: it is removed.
 *
 * Returns: (transfer full) (nullable): the autosaved text, when it differs
 *   from @list
 */
char *
ws_target_autosave_find (WsTargetList *list, gsize *len, gint64 *mtime)
{
  g_autofree char *path = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *current = NULL;
  gsize saved_len = 0, current_len = 0;
  GStatBuf st;

  g_return_val_if_fail (WS_IS_TARGET_LIST (list), NULL);

  path = ws_target_autosave_path (ws_target_list_get_path (list));
  if (!g_file_get_contents (path, &saved, &saved_len, NULL))
    return NULL;
  current = ws_target_list_to_data (list, &current_len);
  if (current_len == saved_len && memcmp (current, saved, saved_len) == 0)
    {
      g_unlink (path);
      return NULL;
    }
  if (mtime != NULL)
    *mtime = g_stat (path, &st) == 0 ? (gint64) st.st_mtime : 0;
  if (len != NULL)
    *len = saved_len;
  return g_steal_pointer (&saved);
}

void
ws_target_autosave_remove (const char *targets_path)
{
  g_autofree char *path = ws_target_autosave_path (targets_path);

  g_unlink (path);
}
