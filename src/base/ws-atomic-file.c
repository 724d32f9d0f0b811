/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-atomic-file"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-atomic-file.h"

static gboolean
set_errno_error (GError **error, int saved, const char *path, const char *what)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s: %s", path, what,
               g_strerror (saved));
  return FALSE;
}

static gboolean
write_all (int fd, const char *data, gsize len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, MIN (len, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static void
fsync_dir (const char *dir)
{
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
}

/* Replaces FILE~ by a hard link to the current FILE, through a temporary
 * name, so that a crash leaves either the old backup or the new one. */
static gboolean
make_backup (const char *path, const char *dir, GError **error)
{
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *link_tmp = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  for (int attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *name = g_strdup_printf (".%s~.%08x", base, g_random_int ());

      g_free (link_tmp);
      link_tmp = g_build_filename (dir, name, NULL);
      if (link (path, link_tmp) == 0)
        {
          int saved;

          if (rename (link_tmp, backup) == 0)
            return TRUE;
          saved = errno;
          g_unlink (link_tmp);
          return set_errno_error (error, saved, backup, "cannot write the backup");
        }
      if (errno != EEXIST)
        break;
    }

  /* No hard links here (some network and FUSE file systems): copy. */
  if (!g_file_get_contents (path, &contents, &len, error))
    return FALSE;
  return ws_atomic_file_save (backup, contents, len, WS_ATOMIC_FILE_DEFAULT, error);
}

/**
 * ws_atomic_file_save:
 * @path: the file to write; a symbolic link is followed
 * @flags: %WS_ATOMIC_FILE_BACKUP to keep the previous version as `FILE~`
 *
 * Writes @data to a temporary file in the same folder, flushes it to disk,
 * and renames it over @path: a crash or a kill at any moment leaves either
 * the old file or the new one, never a part.  The file keeps the mode of
 * the one it replaces.  A temporary file left by a killed process is named
 * `.FILE.XXXXXX` beside it.
 */
gboolean
ws_atomic_file_save (const char *path, const char *data, gsize len, WsAtomicFileFlags flags,
                     GError **error)
{
  g_autofree char *target = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp = NULL;
  GStatBuf st;
  gboolean exists;
  mode_t mode;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  /* Renaming over a link would replace the link, not the file it names. */
  target = realpath (path, NULL);
  if (target == NULL)
    target = g_strdup (path);
  exists = g_stat (target, &st) == 0;
  if (exists && !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, "%s: not a regular file", path);
      return FALSE;
    }
  if (exists)
    mode = st.st_mode & 07777;
  else
    {
      mode_t mask = umask (0);

      umask (mask);
      mode = 0666 & ~mask;
    }

  dir = g_path_get_dirname (target);
  base = g_path_get_basename (target);
  tmp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    return set_errno_error (error, errno, path, "cannot create a temporary file beside it");

  if (!write_all (fd, data, len) || fchmod (fd, mode) != 0 || fsync (fd) != 0)
    {
      int saved = errno;

      close (fd);
      g_unlink (tmp);
      return set_errno_error (error, saved != 0 ? saved : EIO, path, "cannot write");
    }
  if (close (fd) != 0)
    {
      int saved = errno;

      g_unlink (tmp);
      return set_errno_error (error, saved, path, "cannot write");
    }

  if (exists && (flags & WS_ATOMIC_FILE_BACKUP) != 0 && !make_backup (target, dir, error))
    {
      g_unlink (tmp);
      return FALSE;
    }

  if (g_rename (tmp, target) != 0)
    {
      int saved = errno;

      g_unlink (tmp);
      return set_errno_error (error, saved, path, "cannot replace");
    }
  fsync_dir (dir);
  return TRUE;
}

/**
 * ws_atomic_file_commit:
 * @tmp: a complete file written beside @path
 *
 * Renames @tmp to @path; when that fails, removes @tmp, so that nothing
 * half-done is left either way.
 */
gboolean
ws_atomic_file_commit (const char *tmp, const char *path, GError **error)
{
  g_return_val_if_fail (tmp != NULL && path != NULL, FALSE);

  if (g_rename (tmp, path) != 0)
    {
      int saved = errno;

      g_unlink (tmp);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}
