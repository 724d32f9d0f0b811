/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-json-depth"
#include "config.h"

#include <glib/gi18n.h>
#include "ws-error.h"
#include "ws-file.h"
#include "ws-json-depth.h"

/* Every JSON input passes here before json-glib sees it: one pass without
 * recursion that counts open brackets outside strings. */

/**
 * ws_json_check_depth:
 * @path: the file @data came from, for the message
 * @max_depth: the most arrays and objects open at once
 *
 * Returns: %FALSE with WS_BASE_ERROR_FORMAT when @data nests deeper than
 *   @max_depth
 */
gboolean
ws_json_check_depth (const char *path, const char *data, gsize len, guint max_depth, GError **error)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  g_return_val_if_fail (path != NULL && (data != NULL || len == 0), FALSE);

  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      switch (c)
        {
          case '"':
            in_string = TRUE;
            break;
          case '[':
          case '{':
            if (++depth > max_depth)
              {
                g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_FORMAT,
                             _ ("%1$s: JSON nested deeper than %2$u levels (at byte %3$llu)"), path,
                             max_depth, (unsigned long long) i);
                return FALSE;
              }
            break;
          case ']':
          case '}':
            if (depth > 0)
              depth--;
            break;
          default:
            break;
        }
    }
  return TRUE;
}

/**
 * ws_json_read_file:
 * @contents: (out) (transfer full): the file's bytes, NUL-terminated
 *
 * Reads a JSON file for json-glib: a regular file of at most @max_bytes
 * (ws_file_read_bounded()) nested at most WS_JSON_MAX_DEPTH deep.
 */
gboolean
ws_json_read_file (const char *path, gsize max_bytes, char **contents, gsize *len, GError **error)
{
  g_autofree char *data = NULL;
  gsize size = 0;

  if (!ws_file_read_bounded (path, max_bytes, &data, &size, error) ||
      !ws_json_check_depth (path, data, size, WS_JSON_MAX_DEPTH, error))
    return FALSE;
  *contents = g_steal_pointer (&data);
  if (len != NULL)
    *len = size;
  return TRUE;
}
