/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-file"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "ws-error.h"
#include "ws-file.h"

/* What the readers ask of a file before they read it, with the messages
 * they give (WS_READER_ERROR): "PATH: what is wrong". */

/* Stats @path; a missing or unreachable file is WS_READER_ERROR_NOT_FOUND
 * with the system's words. */
gboolean
ws_file_stat (const char *path, GStatBuf *st, GError **error)
{
  g_return_val_if_fail (path != NULL && st != NULL, FALSE);

  if (g_stat (path, st) != 0)
    {
      int saved = errno;

      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_FOUND, "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

/* FALSE, with WS_READER_ERROR_EMPTY, when @st is that of an empty file. */
gboolean
ws_file_check_not_empty (const char *path, const GStatBuf *st, GError **error)
{
  g_return_val_if_fail (path != NULL && st != NULL, FALSE);

  if (st->st_size == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_EMPTY, "%s: the file is empty (0 bytes)",
                   path);
      return FALSE;
    }
  return TRUE;
}

/* Reads at most @size bytes from the start of @path into @buf.  Returns
 * how many, at least one, or -1 with @error set. */
gssize
ws_file_read_head (const char *path, void *buf, gsize size, GError **error)
{
  gssize got;
  int fd;

  g_return_val_if_fail (path != NULL && buf != NULL, -1);

  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_FOUND, "%s: %s", path,
                   g_strerror (saved));
      return -1;
    }
  got = read (fd, buf, size);
  close (fd);
  if (got <= 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "%s: cannot be read", path);
      return -1;
    }
  return got;
}

/**
 * ws_file_same:
 *
 * Returns: whether @a and @b are one file (the same device and inode),
 *   whatever their names, links included; %FALSE when either is missing
 */
gboolean
ws_file_same (const char *a, const char *b)
{
  GStatBuf sa, sb;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}
