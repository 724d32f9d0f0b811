/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ssh-transfer"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-process-group.h"
#include "ws-tool-query.h"
#include "ws-ssh-transfer.h"
#include "ws-ssh.h"
#include "ws-tools-error.h"

/* Files come back through the same ssh command as everything else, over
 * the master connection: the host says each file's size and SHA-256
 * (`wc -c`, `sha256sum`), then `tail -c +N` sends the bytes from where a
 * `.part` file here stops, so that a copy cut by a lost connection
 * resumes.  A copy is renamed into place only once its size and checksum
 * match the host's; a `.part` that does not match is copied again once,
 * whole.  Nothing but the .part and the file itself is written here. */

#define CHUNK (256 * 1024)
#define PROGRESS_US (100 * 1000)
#define SUMS_TIMEOUT_S (3 * 3600)
/* No byte of a copy for this long, the connection still up: the copy has
 * stalled (seen once: a multiplexed session whose client went away while
 * the master kept its pipes open, so that no end of file ever came). */
#define STALL_S 120
/* The copy's ssh ended this long ago and its pipes are still open. */
#define CLIENT_GONE_S 5

static const char sums_script[] = "for f in \"$@\"; do\n"
                                  "  if [ -f \"$f\" ]; then\n"
                                  "    s=$(wc -c <\"$f\") && h=$(sha256sum <\"$f\") || exit 1\n"
                                  "    echo $s ${h%% *}\n"
                                  "  else echo - -; fi\n"
                                  "done\n";

void
ws_ssh_fetched_free (WsSshFetched *fetched)
{
  if (fetched == NULL)
    return;
  g_free (fetched->remote_path);
  g_free (fetched->local_path);
  g_free (fetched->sha256);
  g_free (fetched);
}

typedef struct
{
  WsSshConnection *connection;
  guint64 bytes_per_s;
  GCancellable *cancellable;
  WsSshFetchProgress progress;
  gpointer user_data;
  guint64 total;
  guint64 done; /* over all files, this session's and what .part files held */
  gint64 last_progress;
  guint file;
  gboolean stalled; /* the last copy stalled: worth one more try over a new connection */
} Fetch;

static void
report (Fetch *fetch, gboolean force)
{
  gint64 now = g_get_monotonic_time ();

  if (fetch->progress == NULL || (!force && now - fetch->last_progress < PROGRESS_US))
    return;
  fetch->last_progress = now;
  fetch->progress (fetch->done, fetch->total, fetch->file, fetch->user_data);
}

/* Asks the host for each file's size and checksum, in one command. */
static gboolean
ask_sums (Fetch *fetch, GPtrArray *fetched, GError **error)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;

  for (guint i = 0; i < fetched->len; i++)
    g_ptr_array_add (args, ((WsSshFetched *) g_ptr_array_index (fetched, i))->remote_path);
  g_ptr_array_add (args, NULL);
  if (!ws_ssh_connection_script (fetch->connection, sums_script, (const char *const *) args->pdata,
                                 SUMS_TIMEOUT_S, fetch->cancellable, &out, error))
    return FALSE;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; i < fetched->len; i++)
    {
      WsSshFetched *file = g_ptr_array_index (fetched, i);
      g_auto (GStrv) words = NULL;

      if (i >= g_strv_length (lines) ||
          g_strv_length (words = g_strsplit (g_strstrip (lines[i]), " ", -1)) != 2)
        {
          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_CONNECTION,
                       "%s: no size and checksum for %s (is sha256sum installed there?)",
                       ws_ssh_connection_get_name (fetch->connection), file->remote_path);
          return FALSE;
        }
      /* A file that is not there is left out: the caller judges. */
      if (g_str_equal (words[0], "-"))
        continue;
      file->size = g_ascii_strtoll (words[0], NULL, 10);
      file->sha256 = g_ascii_strdown (words[1], -1);
      fetch->total += (guint64) file->size;
    }
  return TRUE;
}

/* The checksum of a local file's first @len bytes. */
static GChecksum *
sum_local (const char *path, gint64 len, GError **error)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guchar *buffer = NULL;
  int fd;

  if (len == 0)
    return g_steal_pointer (&sum);
  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO, "%s: %s", path, g_strerror (saved));
      return NULL;
    }
  buffer = g_malloc (CHUNK);
  while (len > 0)
    {
      ssize_t n = read (fd, buffer, MIN (CHUNK, len));

      if (n <= 0)
        {
          int saved = n < 0 ? errno : EIO;

          close (fd);
          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO, "%s: %s", path,
                       g_strerror (saved));
          return NULL;
        }
      g_checksum_update (sum, buffer, n);
      len -= n;
    }
  close (fd);
  return g_steal_pointer (&sum);
}

static gint64
file_size (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 && S_ISREG (st.st_mode) ? (gint64) st.st_size : -1;
}

/* Waits as long as the bandwidth limit asks, a slice at a time. */
static void
throttle (Fetch *fetch, guint64 sent, gint64 started)
{
  gint64 due;

  if (fetch->bytes_per_s == 0)
    return;
  due = started + (gint64) (sent * G_USEC_PER_SEC / fetch->bytes_per_s);
  while (g_get_monotonic_time () < due && !g_cancellable_is_cancelled (fetch->cancellable))
    g_usleep (MIN (due - g_get_monotonic_time (), 50 * 1000));
}

typedef enum
{
  WAIT_READY,
  WAIT_STALLED,     /* no byte for STALL_S */
  WAIT_CLIENT_GONE, /* the copy's ssh ended, and no end of file came */
} Wait;

/* Whether @pid has ended; WNOWAIT leaves it to be reaped where it is
 * waited for. */
static gboolean
client_ended (GPid pid)
{
  siginfo_t info = { 0 };

  if (waitid (P_PID, (id_t) pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    return errno == ECHILD;
  return info.si_pid == pid;
}

/* Waits until @fd has bytes or its end to read, or @cancellable fires.
 * The copy's multiplexed ssh (@client) hands its pipes to the connection's
 * master: when it ends, the end of file comes from the master, and once
 * it did not come at all. */
static Wait
wait_readable (int fd, GPid client, GCancellable *cancellable)
{
  gint64 stall = g_get_monotonic_time () + (gint64) STALL_S * G_USEC_PER_SEC;
  gint64 gone = G_MAXINT64;
  GPollFD fds[2] = { { fd, G_IO_IN | G_IO_HUP | G_IO_ERR, 0 } };
  guint n = 1;
  Wait result = WAIT_READY;

  if (g_cancellable_make_pollfd (cancellable, &fds[1]))
    n = 2;
  for (;;)
    {
      int ready = g_poll (fds, n, 1000);
      gint64 now = g_get_monotonic_time ();

      if (ready > 0 || (ready < 0 && errno != EINTR))
        break;
      if (gone == G_MAXINT64 && client_ended (client))
        gone = now + (gint64) CLIENT_GONE_S * G_USEC_PER_SEC;
      if (now > gone)
        {
          result = WAIT_CLIENT_GONE;
          break;
        }
      if (now > stall)
        {
          result = WAIT_STALLED;
          break;
        }
    }
  if (n == 2)
    g_cancellable_release_fd (cancellable);
  return result;
}

/* Copies what the copy's ssh (@pid) writes to @out_fd into @part_fd until
 * its end, a stall or a write error (then @error is set). */
static void
copy_bytes (Fetch *fetch, WsSshFetched *file, GPid pid, int out_fd, GInputStream *in, int part_fd,
            GChecksum *sum, GError **error)
{
  g_autofree guchar *buffer = g_malloc (CHUNK);
  gint64 started = g_get_monotonic_time ();
  guint64 sent = 0;

  for (;;)
    {
      gssize n;
      Wait wait = wait_readable (out_fd, pid, fetch->cancellable);

      if (wait != WAIT_READY)
        {
          if (wait == WAIT_STALLED)
            g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_CONNECTION,
                         "%s: no data for %d s while copying %s: the connection stalled",
                         ws_ssh_connection_get_name (fetch->connection), STALL_S,
                         file->remote_path);
          else
            g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_CONNECTION,
                         "%s: ssh ended while copying %s, its end of file never came: the "
                         "connection stalled",
                         ws_ssh_connection_get_name (fetch->connection), file->remote_path);
          /* Its pipes end only with the connection. */
          ws_ssh_connection_close (fetch->connection);
          fetch->stalled = TRUE;
          return;
        }
      n = g_input_stream_read (in, buffer, CHUNK, fetch->cancellable, error);
      if (n <= 0)
        return;
      if (write (part_fd, buffer, n) != n)
        {
          int saved = errno;

          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO, "%s%s: %s", file->local_path,
                       WS_SSH_PART_SUFFIX, g_strerror (saved));
          return;
        }
      g_checksum_update (sum, buffer, n);
      file->arrived += n;
      fetch->done += n;
      sent += n;
      report (fetch, FALSE);
      throttle (fetch, sent, started);
    }
}

/* All that @fd gives until its end, as valid UTF-8; closes @fd. */
static char *
read_all_text (int fd)
{
  g_autoptr (GInputStream) in = g_unix_input_stream_new (fd, TRUE);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();

  g_output_stream_splice (mem, in, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE, NULL, NULL);
  g_output_stream_write (mem, "", 1, NULL, NULL);
  g_output_stream_close (mem, NULL, NULL);
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (mem));
  return g_utf8_make_valid (g_bytes_get_data (bytes, NULL), -1);
}

/* How the copy ended, from the error of the copy here (@local, taken) and
 * what ssh and the wrapper there said on standard error (@err_text). */
static gboolean
copy_ended (Fetch *fetch, WsSshFetched *file, const char *token, const char *err_text,
            GError *local, GError **error)
{
  g_auto (GStrv) lines = g_strsplit (err_text, "\n", -1);
  g_autoptr (GString) said = g_string_new (NULL);
  WsSshRemoteEnd end = { 0 };
  gboolean ok = TRUE;

  for (guint i = 0; lines[i] != NULL; i++)
    if (!ws_ssh_wrapper_line (token, lines[i], &end) && lines[i][0] != '\0')
      g_string_append_printf (said, "%s%s", said->len > 0 ? " " : "", lines[i]);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      ok = FALSE;
    }
  else if (!end.ended)
    {
      g_autofree char *lost = ws_ssh_connection_lost (fetch->connection, said->str);

      g_set_error_literal (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_CONNECTION, lost);
      ok = FALSE;
    }
  else if (end.exit_status != 0)
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO, "%s: tail %s: %s",
                   ws_ssh_connection_get_name (fetch->connection), file->remote_path,
                   said->len > 0 ? said->str : "failed");
      ok = FALSE;
    }
  ws_ssh_remote_end_clear (&end);
  return ok;
}

/* Sends the bytes of @file from @from on, appended to @part_fd. */
static gboolean
stream (Fetch *fetch, WsSshFetched *file, int part_fd, GChecksum *sum, GError **error)
{
  g_autofree char *token = ws_ssh_new_token ();
  g_autofree char *offset = g_strdup_printf ("+%" G_GINT64_FORMAT, file->arrived + 1);
  const char *argv[] = { "tail", "-c", offset, "--", file->remote_path, NULL };
  WsSshRemoteCommand command = { .argv = argv, .token = token, .grace_ms = 1000 };
  g_autofree char *remote = ws_ssh_remote_command (&command);
  g_auto (GStrv) ssh = ws_ssh_connection_argv (fetch->connection, remote);
  g_autoptr (GInputStream) in = NULL;
  GError *local = NULL;
  g_autofree char *err_text = NULL;
  int in_pipe[2] = { -1, -1 };
  int out_fd = -1, err_fd = -1;
  GPid pid = 0;
  int status = 0;

  /* The input stays open while the copy runs: the wrapper there ends
   * `tail` when it closes. */
  if (!g_unix_open_pipe (in_pipe, FD_CLOEXEC, error) ||
      !g_spawn_async_with_pipes_and_fds (NULL, (const char *const *) ssh, NULL,
                                         G_SPAWN_DO_NOT_REAP_CHILD, ws_process_group_child_setup,
                                         NULL, in_pipe[0], -1, -1, NULL, NULL, 0, &pid, NULL,
                                         &out_fd, &err_fd, error))
    {
      if (in_pipe[0] >= 0)
        close (in_pipe[0]);
      if (in_pipe[1] >= 0)
        close (in_pipe[1]);
      return FALSE;
    }
  close (in_pipe[0]);
  in = g_unix_input_stream_new (out_fd, TRUE);
  copy_bytes (fetch, file, pid, out_fd, in, part_fd, sum, &local);
  /* Ends the command there (input closed), then here. */
  close (in_pipe[1]);
  if (local != NULL)
    kill (-pid, SIGTERM);
  g_input_stream_close (in, NULL, NULL);
  err_text = read_all_text (err_fd);
  waitpid (pid, &status, 0);
  g_spawn_close_pid (pid);
  return copy_ended (fetch, file, token, err_text, local, error);
}

/* Copies one file, resuming its .part; TRUE once it is in place and checked. */
static gboolean
fetch_one (Fetch *fetch, WsSshFetched *file, GError **error)
{
  g_autofree char *part = g_strconcat (file->local_path, WS_SSH_PART_SUFFIX, NULL);
  g_autoptr (GChecksum) sum = NULL;
  gint64 have;
  int fd;

  /* Copied before (a run fetched again): nothing to do. */
  if (file_size (file->local_path) == file->size)
    {
      g_autoptr (GChecksum) whole = sum_local (file->local_path, file->size, NULL);

      if (whole != NULL && g_str_equal (g_checksum_get_string (whole), file->sha256))
        {
          file->arrived = file->size;
          file->resumed_from = file->size;
          fetch->done += file->size;
          file->done = TRUE;
          return TRUE;
        }
    }

  for (guint attempt = 0; attempt < 2; attempt++)
    {
      have = file_size (part);
      if (have > file->size || attempt > 0)
        {
          g_unlink (part);
          have = -1;
        }
      have = MAX (have, 0);
      sum = sum_local (part, have, error);
      if (sum == NULL)
        return FALSE;
      file->arrived = have;
      file->resumed_from = have;
      fetch->done += have;
      report (fetch, TRUE);

      fd = g_open (part, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (fd < 0)
        {
          int saved = errno;

          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO, "%s: %s", part,
                       g_strerror (saved));
          return FALSE;
        }
      if (have < file->size && !stream (fetch, file, fd, sum, error))
        {
          fsync (fd);
          close (fd);
          return FALSE;
        }
      if (fsync (fd) != 0 || close (fd) != 0)
        {
          int saved = errno;

          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO, "%s: %s", part,
                       g_strerror (saved));
          return FALSE;
        }
      if (file->arrived == file->size && g_str_equal (g_checksum_get_string (sum), file->sha256))
        {
          if (g_rename (part, file->local_path) != 0)
            {
              int saved = errno;

              g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO, "%s: %s", file->local_path,
                           g_strerror (saved));
              return FALSE;
            }
          file->done = TRUE;
          report (fetch, TRUE);
          return TRUE;
        }
      /* What arrived does not match: copied again, whole, once. */
      fetch->done -= file->arrived;
      g_clear_pointer (&sum, g_checksum_free);
    }
  g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO,
               "%s: the copy of %s does not match the host's size and SHA-256 (%" G_GINT64_FORMAT
               " bytes, %s) after two attempts",
               file->local_path, file->remote_path, file->size, file->sha256);
  return FALSE;
}

/**
 * ws_ssh_fetch_files:
 * @remote_paths: files on the host
 * @local_paths: where each goes here; the folders must exist
 * @bytes_per_s: a bandwidth limit; 0: none
 * @progress: (scope call) (nullable): bytes copied of all, as they come
 * @fetched: (element-type WsSshFetched): filled with what became of each
 *   file, also when a copy fails
 *
 * Copies files from the host, in order, each checked against the host's
 * size and SHA-256 before it takes its name here.  A file that is not on
 * the host is left out (its size stays -1).  Blocks: call it from a
 * worker thread.
 *
 * Returns: %FALSE with @error set at the first file that could not be
 *   copied; what arrived of it stays in its `.part`
 */
gboolean
ws_ssh_fetch_files (WsSshConnection *connection, const char *const *remote_paths,
                    const char *const *local_paths, guint64 bytes_per_s, GCancellable *cancellable,
                    WsSshFetchProgress progress, gpointer user_data, GPtrArray *fetched,
                    GError **error)
{
  Fetch fetch = { connection, bytes_per_s, cancellable, progress, user_data, 0, 0, 0, 0 };
  guint first = fetched->len;
  guint n;

  g_return_val_if_fail (WS_IS_SSH_CONNECTION (connection), FALSE);
  g_return_val_if_fail (remote_paths != NULL && local_paths != NULL && fetched != NULL, FALSE);

  n = g_strv_length ((char **) remote_paths);
  g_return_val_if_fail (g_strv_length ((char **) local_paths) == n, FALSE);
  if (n == 0)
    return TRUE;
  for (guint i = 0; i < n; i++)
    {
      WsSshFetched *file = g_new0 (WsSshFetched, 1);

      file->remote_path = g_strdup (remote_paths[i]);
      file->local_path = g_strdup (local_paths[i]);
      file->size = -1;
      g_ptr_array_add (fetched, file);
    }
  {
    g_autoptr (GPtrArray) batch = g_ptr_array_new ();

    for (guint i = first; i < fetched->len; i++)
      g_ptr_array_add (batch, g_ptr_array_index (fetched, i));
    if (!ask_sums (&fetch, batch, error))
      return FALSE;
  }
  for (guint i = first; i < fetched->len; i++)
    {
      WsSshFetched *file = g_ptr_array_index (fetched, i);

      fetch.file = i - first;
      fetch.stalled = FALSE;
      if (file->size < 0 || fetch_one (&fetch, file, error))
        continue;
      /* A stalled copy goes on once over a new connection, from what its
       * .part holds. */
      if (!fetch.stalled || g_cancellable_is_cancelled (cancellable) ||
          !ws_ssh_connection_open (connection, cancellable, NULL))
        return FALSE;
      g_debug ("%s: going on over a new connection", file->remote_path);
      g_clear_error (error);
      fetch.done -= file->arrived;
      if (!fetch_one (&fetch, file, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * ws_ssh_fetched_summary:
 *
 * Returns: (transfer full): what arrived, for the message of a copy that
 *   failed: `2 of 3 files copied; x.sqlite: 1.2 MB of 3.4 MB arrived (kept
 *   in x.sqlite.part)`
 */
char *
ws_ssh_fetched_summary (GPtrArray *fetched)
{
  GString *out = g_string_new (NULL);
  guint done = 0;
  guint there = 0;

  for (guint i = 0; i < fetched->len; i++)
    {
      WsSshFetched *file = g_ptr_array_index (fetched, i);

      done += file->done;
      there += file->size >= 0;
    }
  g_string_append_printf (out, "%u of %u files copied", done, there);
  for (guint i = 0; i < fetched->len; i++)
    {
      WsSshFetched *file = g_ptr_array_index (fetched, i);

      if (!file->done && file->arrived > 0 && file->size > 0)
        {
          g_autofree char *base = g_path_get_basename (file->local_path);
          g_autofree char *arrived = g_format_size ((guint64) file->arrived);
          g_autofree char *size = g_format_size ((guint64) file->size);

          g_string_append_printf (out, "; %s: %s of %s arrived (kept in %s%s)", base, arrived, size,
                                  base, WS_SSH_PART_SUFFIX);
        }
    }
  return g_string_free (out, FALSE);
}
