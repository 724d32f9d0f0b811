/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-file"
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-error.h"
#include "ws-file.h"

/* What the readers ask of a file before they read it, with the messages
 * they give (WS_BASE_ERROR): "PATH: what is wrong". */

/* What to say of @path when @mode is neither a regular file nor a
 * folder, or NULL. */
static char *
special_kind (const char *path, mode_t mode)
{
  if (S_ISFIFO (mode))
    return g_strdup_printf (_ ("%s: a FIFO (a pipe), not a file Warpscope reads"), path);
  if (S_ISCHR (mode))
    return g_strdup_printf (_ ("%s: a character device, not a file Warpscope reads"), path);
  if (S_ISBLK (mode))
    return g_strdup_printf (_ ("%s: a block device, not a file Warpscope reads"), path);
  if (S_ISSOCK (mode))
    return g_strdup_printf (_ ("%s: a socket, not a file Warpscope reads"), path);
  if (!S_ISREG (mode) && !S_ISDIR (mode))
    return g_strdup_printf (_ ("%s: neither a file nor a folder Warpscope reads"), path);
  return NULL;
}

/* FALSE, with WS_BASE_ERROR_FORMAT, when @st is that of a FIFO, a device
 * or a socket: reading one may never end (/dev/zero) or never start (a
 * FIFO without a writer), and its size says nothing. */
gboolean
ws_file_check_regular (const char *path, const GStatBuf *st, GError **error)
{
  g_autofree char *message = NULL;

  g_return_val_if_fail (path != NULL && st != NULL, FALSE);

  message = special_kind (path, st->st_mode);
  if (message == NULL)
    return TRUE;
  g_set_error_literal (error, WS_BASE_ERROR, WS_BASE_ERROR_FORMAT, message);
  return FALSE;
}

/* Stats @path; a missing or unreachable file is WS_BASE_ERROR_NOT_FOUND
 * with the system's words, a FIFO, device or socket
 * WS_BASE_ERROR_FORMAT (ws_file_check_regular()). */
gboolean
ws_file_stat (const char *path, GStatBuf *st, GError **error)
{
  g_return_val_if_fail (path != NULL && st != NULL, FALSE);

  if (g_stat (path, st) != 0)
    {
      int saved = errno;

      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_NOT_FOUND, "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  return ws_file_check_regular (path, st, error);
}

/* Opens @path for reading without ever waiting: O_NONBLOCK lets a FIFO
 * open at once, and what was opened is checked to be a regular file. */
int
ws_file_open_regular (const char *path, GError **error)
{
  GStatBuf st;
  int fd;

  g_return_val_if_fail (path != NULL, -1);

  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_NOT_FOUND, "%s: %s", path,
                   g_strerror (saved));
      return -1;
    }
  if (fstat (fd, &st) != 0 || !ws_file_check_regular (path, &st, error) ||
      fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) != 0)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_FAILED, "%s: cannot be read", path);
      close (fd);
      return -1;
    }
  return fd;
}

/**
 * ws_file_read_bounded:
 * @max_bytes: the most the file may hold
 * @contents: (out) (transfer full): the bytes, NUL-terminated
 *
 * Reads a whole regular file of at most @max_bytes: a FIFO or a device
 * is refused before it is read, a larger file
 * (WS_BASE_ERROR_TOO_LARGE) too, and a file that grows while it is read
 * stops at the bound.
 */
gboolean
ws_file_read_bounded (const char *path, gsize max_bytes, char **contents, gsize *len,
                      GError **error)
{
  g_autofree char *data = NULL;
  gsize size = 0, capacity;
  GStatBuf st;
  int fd;

  g_return_val_if_fail (path != NULL && contents != NULL, FALSE);

  fd = ws_file_open_regular (path, error);
  if (fd < 0)
    return FALSE;
  if (fstat (fd, &st) == 0 && (guint64) st.st_size > max_bytes)
    {
      close (fd);
      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_TOO_LARGE,
                   _ ("%1$s: larger than %2$llu MiB"), path,
                   (unsigned long long) (max_bytes >> 20));
      return FALSE;
    }
  capacity = MIN ((gsize) st.st_size, max_bytes) + 1;
  data = g_malloc (capacity + 1);
  for (;;)
    {
      gssize got;

      if (size == capacity)
        {
          if (capacity > max_bytes)
            {
              close (fd);
              g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_TOO_LARGE,
                           _ ("%1$s: larger than %2$llu MiB"), path,
                           (unsigned long long) (max_bytes >> 20));
              return FALSE;
            }
          capacity = MIN (capacity * 2, max_bytes + 1);
          data = g_realloc (data, capacity + 1);
        }
      got = read (fd, data + size, capacity - size);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved = errno;

          close (fd);
          g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_FAILED, "%s: %s", path,
                       g_strerror (saved));
          return FALSE;
        }
      if (got == 0)
        break;
      size += (gsize) got;
    }
  close (fd);
  data[size] = '\0';
  *contents = g_steal_pointer (&data);
  if (len != NULL)
    *len = size;
  return TRUE;
}

/* FALSE, with WS_BASE_ERROR_EMPTY, when @st is that of an empty file. */
gboolean
ws_file_check_not_empty (const char *path, const GStatBuf *st, GError **error)
{
  g_return_val_if_fail (path != NULL && st != NULL, FALSE);

  if (st->st_size == 0)
    {
      char byte;
      int fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
      gboolean has_bytes = fd >= 0 && read (fd, &byte, 1) == 1;

      if (fd >= 0)
        close (fd);
      /* /proc and /sys files say 0 bytes and still have some. */
      if (has_bytes)
        g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_EMPTY,
                     "%s: its size reads 0 bytes though it has some (a /proc or /sys file?); "
                     "copy it to a file first",
                     path);
      else
        g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_EMPTY, "%s: the file is empty (0 bytes)",
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

  fd = ws_file_open_regular (path, error);
  if (fd < 0)
    return -1;
  got = read (fd, buf, size);
  close (fd);
  if (got <= 0)
    {
      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_FAILED, "%s: cannot be read", path);
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
