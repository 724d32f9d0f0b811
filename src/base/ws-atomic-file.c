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

/* How an output path is written. */
typedef enum
{
  TARGET_REPLACE,  /* a regular file, or none yet: a temporary file renamed over it */
  TARGET_IN_PLACE, /* a FIFO, a device, a socket: written into, never replaced */
} TargetKind;

/* A new file's mode: the temporary file's, made 0666 less the umask. */
#define MODE_AS_CREATED ((mode_t) -1)

/* The name a chain of symbolic links ends at when its last file does not
 * exist yet: writing through a dangling link creates the file it names,
 * as a shell's redirection does. */
static char *
follow_dangling (const char *path)
{
  g_autofree char *current = g_strdup (path);

  for (int hops = 0; hops < 40; hops++)
    {
      g_autofree char *link = g_file_read_link (current, NULL);
      g_autofree char *dir = NULL;

      if (link == NULL)
        break;
      dir = g_path_get_dirname (current);
      g_free (current);
      current =
        g_path_is_absolute (link) ? g_steal_pointer (&link) : g_build_filename (dir, link, NULL);
    }
  return g_steal_pointer (&current);
}

/* Where and how @path is written: @target is the file itself, past any
 * symbolic link, so that a link keeps pointing at its file; @mode is the
 * mode a replacement gets: the old file's, or MODE_AS_CREATED.  (Never
 * umask(): it is process-wide, and exports run on worker threads.) */
static gboolean
resolve_target (const char *path, char **target, TargetKind *kind, mode_t *mode, GError **error)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      if (saved != ENOENT)
        return set_errno_error (error, saved, path, "cannot write");
      *target = follow_dangling (path);
      *kind = TARGET_REPLACE;
      *mode = MODE_AS_CREATED;
      return TRUE;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, "%s: is a folder, not a file", path);
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    {
      *target = g_strdup (path);
      *kind = TARGET_IN_PLACE;
      *mode = 0;
      return TRUE;
    }
  *target = realpath (path, NULL);
  if (*target == NULL)
    *target = g_strdup (path);
  *kind = TARGET_REPLACE;
  *mode = st.st_mode & 07777;
  return TRUE;
}

/**
 * ws_atomic_file_create_temp:
 * @path: the output the temporary file is for
 * @fd: (out) (optional): the temporary file, open for reading and writing;
 *   the caller closes it
 *
 * Makes the file an output is written to before ws_atomic_file_commit()
 * puts it in place: beside the file @path names (past symbolic links),
 * named `.FILE.XXXXXX`, when that is a regular file or does not exist;
 * in the temporary folder when @path is a FIFO or a device, which cannot
 * be replaced and get the bytes written into them instead.
 *
 * Returns: (transfer full): the temporary file's path, or %NULL with
 *   @error set (@path is a folder, or its folder is not writable)
 */
char *
ws_atomic_file_create_temp (const char *path, int *fd, GError **error)
{
  g_autofree char *target = NULL;
  g_autofree char *tmp = NULL;
  TargetKind kind;
  mode_t mode;
  int tmp_fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (!resolve_target (path, &target, &kind, &mode, error))
    return NULL;
  if (kind == TARGET_REPLACE)
    {
      g_autofree char *dir = g_path_get_dirname (target);
      g_autofree char *base = g_path_get_basename (target);

      tmp = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
    }
  else
    tmp = g_build_filename (g_get_tmp_dir (), "warpscope-out-XXXXXX", NULL);
  /* Beside the target, as the file will be; in the shared temporary
   * folder, for this user alone. */
  tmp_fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, kind == TARGET_REPLACE ? 0666 : 0600);
  if (tmp_fd < 0)
    {
      set_errno_error (error, errno, path, "cannot create a temporary file for it");
      return NULL;
    }
  if (fd != NULL)
    *fd = tmp_fd;
  else
    close (tmp_fd);
  return g_steal_pointer (&tmp);
}

/* Replaces FILE~ by a hard link to the current FILE, through a temporary
 * name, so that a crash leaves either the old backup or the new one. */
static gboolean
make_backup (const char *path, GError **error)
{
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  g_autofree char *dir = g_path_get_dirname (path);
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

/* Copies the finished @tmp into the FIFO or device @path. */
static gboolean
copy_into (const char *tmp, const char *path, GError **error)
{
  char buf[65536];
  int in = g_open (tmp, O_RDONLY | O_CLOEXEC, 0);
  int out;
  int saved = 0;

  if (in < 0)
    return set_errno_error (error, errno, path, "cannot write");
  out = g_open (path, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0);
  if (out < 0)
    {
      saved = errno;
      close (in);
      return set_errno_error (error, saved, path, "cannot write");
    }
  for (;;)
    {
      gssize n = read (in, buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 || (n > 0 && !write_all (out, buf, (gsize) n)))
        {
          saved = errno != 0 ? errno : EIO;
          break;
        }
      if (n == 0)
        break;
    }
  close (in);
  if (close (out) != 0 && saved == 0)
    saved = errno;
  if (saved != 0)
    return set_errno_error (error, saved, path, "cannot write");
  return TRUE;
}

/* Puts the finished @tmp in place of @target. */
static gboolean
put_in_place (const char *tmp, const char *path, const char *target, TargetKind kind, mode_t mode,
              GError **error)
{
  g_autofree char *dir = NULL;
  int fd;

  if (kind == TARGET_IN_PLACE)
    {
      gboolean ok = copy_into (tmp, path, error);

      g_unlink (tmp);
      return ok;
    }

  /* Flushed before the rename: a crash leaves the old file or the new. */
  fd = g_open (tmp, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0 || (mode != MODE_AS_CREATED && fchmod (fd, mode) != 0) || fsync (fd) != 0)
    {
      int saved = errno;

      if (fd >= 0)
        close (fd);
      g_unlink (tmp);
      return set_errno_error (error, saved, path, "cannot write");
    }
  close (fd);
  if (g_rename (tmp, target) != 0)
    {
      int saved = errno;

      g_unlink (tmp);
      return set_errno_error (error, saved, path, "cannot replace");
    }
  dir = g_path_get_dirname (target);
  fsync_dir (dir);
  return TRUE;
}

/**
 * ws_atomic_file_save:
 * @path: the file to write; a symbolic link is followed
 * @flags: %WS_ATOMIC_FILE_BACKUP to keep the previous version as `FILE~`
 *
 * Writes @data to a temporary file in the same folder, flushes it to disk,
 * and renames it over @path: a crash or a kill at any moment leaves either
 * the old file or the new one, never a part.  The file keeps the mode of
 * the one it replaces; a symbolic link keeps pointing at its file, which
 * gets the data.  A FIFO or a device is written into, never replaced
 * (ws_atomic_file_create_temp()).  A temporary file left by a killed
 * process is named `.FILE.XXXXXX` beside it.
 */
gboolean
ws_atomic_file_save (const char *path, const char *data, gsize len, WsAtomicFileFlags flags,
                     GError **error)
{
  g_autofree char *target = NULL;
  g_autofree char *tmp = NULL;
  TargetKind kind;
  mode_t mode;
  int fd = -1;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if (!resolve_target (path, &target, &kind, &mode, error))
    return FALSE;
  tmp = ws_atomic_file_create_temp (path, &fd, error);
  if (tmp == NULL)
    return FALSE;
  if (!write_all (fd, data, len))
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

  if (kind == TARGET_REPLACE && (flags & WS_ATOMIC_FILE_BACKUP) != 0 &&
      g_file_test (target, G_FILE_TEST_IS_REGULAR) && !make_backup (target, error))
    {
      g_unlink (tmp);
      return FALSE;
    }
  return put_in_place (tmp, path, target, kind, mode, error);
}

/**
 * ws_atomic_file_commit:
 * @tmp: a complete file made by ws_atomic_file_create_temp() for @path
 *
 * Puts @tmp in place of @path: renamed over it when @path is a regular
 * file or does not exist (past symbolic links, so that a link keeps
 * pointing at its file), copied into it when it is a FIFO or a device.
 * When that fails, removes @tmp, so that nothing half-done is left either
 * way.
 */
gboolean
ws_atomic_file_commit (const char *tmp, const char *path, GError **error)
{
  g_autofree char *target = NULL;
  TargetKind kind;
  mode_t mode;

  g_return_val_if_fail (tmp != NULL && path != NULL, FALSE);

  if (!resolve_target (path, &target, &kind, &mode, error))
    {
      g_unlink (tmp);
      return FALSE;
    }
  return put_in_place (tmp, path, target, kind, mode, error);
}
