/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ssh-connection"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-tool-process.h"
#include "ws-process-group.h"
#include "ws-tool-query.h"
#include "ws-ssh-connection.h"
#include "ws-ssh.h"
#include "ws-tools-error.h"

/* One master connection to a host through the system's OpenSSH client
 * (ControlMaster), which every command and file transfer of a run then
 * shares: one authentication, and commands start in milliseconds.  The
 * control socket lives in the user's runtime folder.  The master is a
 * child in a process group of its own; host keys are checked by ssh as
 * its configuration says, and BatchMode keeps it from ever asking.  Its
 * own session is `cat` there, reading an input this object holds: when
 * this program ends, however, that input closes, the session ends, and
 * the master leaves once the commands over it are done (they end for the
 * same reason), so no connection outlives the program. */

#define OPEN_TIMEOUT_US (90 * G_USEC_PER_SEC)
#define POLL_US (50 * 1000)
/* A unix socket's path must fit in sun_path (108 bytes). */
#define MAX_SOCKET_PATH 100

struct _WsSshConnection
{
  GObject parent_instance;

  WsSshHost *host;
  char **ssh_argv;
  char *control_dir; /* made by us when not the runtime folder's */
  char *control_path;
  char *log_path; /* the master's standard error */

  GMutex lock;
  GPid master;   /* 0: none */
  int master_in; /* the write end of the master session's input; -1: none */
  gboolean open;
};

G_DEFINE_FINAL_TYPE (WsSshConnection, ws_ssh_connection, G_TYPE_OBJECT)

static void
stop_master (WsSshConnection *self, gboolean gently)
{
  GPid pid;

  g_mutex_lock (&self->lock);
  pid = self->master;
  self->master = 0;
  self->open = FALSE;
  if (self->master_in >= 0)
    close (self->master_in);
  self->master_in = -1;
  g_mutex_unlock (&self->lock);
  if (pid > 1)
    {
      /* ssh closes the connection and removes its socket on SIGTERM. */
      kill (-pid, gently ? SIGTERM : SIGKILL);
      for (guint i = 0; gently && i < 40; i++)
        {
          if (waitpid (pid, NULL, WNOHANG) == pid)
            {
              pid = 0;
              break;
            }
          g_usleep (25 * 1000);
        }
      if (pid != 0)
        {
          kill (-pid, SIGKILL);
          waitpid (pid, NULL, 0);
        }
    }
  if (self->control_path != NULL)
    g_unlink (self->control_path);
  if (self->log_path != NULL)
    g_unlink (self->log_path);
}

static void
ws_ssh_connection_dispose (GObject *object)
{
  WsSshConnection *self = WS_SSH_CONNECTION (object);

  stop_master (self, FALSE);
  if (self->control_dir != NULL)
    g_rmdir (self->control_dir);

  G_OBJECT_CLASS (ws_ssh_connection_parent_class)->dispose (object);
}

static void
ws_ssh_connection_finalize (GObject *object)
{
  WsSshConnection *self = WS_SSH_CONNECTION (object);

  ws_ssh_host_free (self->host);
  g_strfreev (self->ssh_argv);
  g_free (self->control_dir);
  g_free (self->control_path);
  g_free (self->log_path);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (ws_ssh_connection_parent_class)->finalize (object);
}

static void
ws_ssh_connection_class_init (WsSshConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_ssh_connection_dispose;
  object_class->finalize = ws_ssh_connection_finalize;
}

static void
ws_ssh_connection_init (WsSshConnection *self)
{
  g_mutex_init (&self->lock);
  self->master_in = -1;
}

/**
 * ws_ssh_connection_new:
 * @ssh_argv: the ssh command (ws_ssh_command_argv())
 *
 * Returns: (transfer full): a connection to @host, not open yet
 */
WsSshConnection *
ws_ssh_connection_new (const WsSshHost *host, const char *const *ssh_argv)
{
  WsSshConnection *self;

  g_return_val_if_fail (host != NULL && host->destination != NULL, NULL);
  g_return_val_if_fail (ssh_argv != NULL && ssh_argv[0] != NULL, NULL);

  self = g_object_new (WS_TYPE_SSH_CONNECTION, NULL);
  self->host = ws_ssh_host_copy (host);
  self->ssh_argv = g_strdupv ((char **) ssh_argv);
  return self;
}

const WsSshHost *
ws_ssh_connection_get_host (WsSshConnection *self)
{
  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), NULL);
  return self->host;
}

/* The host as the user named it. */
const char *
ws_ssh_connection_get_name (WsSshConnection *self)
{
  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), NULL);
  return self->host->name != NULL ? self->host->name : self->host->destination;
}

/* The options every ssh of this host gets after the user's command. */
static void
add_host_options (WsSshConnection *self, GStrvBuilder *argv)
{
  if (self->host->port != 0)
    {
      g_autofree char *port = g_strdup_printf ("%u", self->host->port);

      g_strv_builder_add_many (argv, "-p", port, NULL);
    }
  if (self->host->identity != NULL && self->host->identity[0] != '\0')
    g_strv_builder_add_many (argv, "-i", self->host->identity, "-o", "IdentitiesOnly=yes", NULL);
}

static char *
control_option (WsSshConnection *self)
{
  g_autoptr (GString) path = g_string_new (self->control_path);

  /* ssh expands %-tokens in ControlPath. */
  g_string_replace (path, "%", "%%", 0);
  return g_strconcat ("ControlPath=", path->str, NULL);
}

/**
 * ws_ssh_connection_argv:
 * @remote_command: what the host's login shell runs
 *
 * Returns: (transfer full): the ssh command line that runs @remote_command
 *   through the master connection
 */
char **
ws_ssh_connection_argv (WsSshConnection *self, const char *remote_command)
{
  g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();
  g_autofree char *control = NULL;

  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), NULL);
  g_return_val_if_fail (remote_command != NULL, NULL);

  control = control_option (self);
  g_strv_builder_addv (argv, (const char **) self->ssh_argv);
  g_strv_builder_add_many (argv, "-o", "BatchMode=yes", "-o", "ControlMaster=no", "-o", control,
                           NULL);
  add_host_options (self, argv);
  g_strv_builder_add_many (argv, "--", self->host->destination, remote_command, NULL);
  return g_strv_builder_end (argv);
}

/* The ssh command line that reaches the host as a user types it (ssh by
 * its name when PATH finds it), with @last after the destination. */
static char *
typed_command (WsSshConnection *self, const char *last)
{
  g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();
  g_auto (GStrv) words = NULL;
  g_autofree char *name = g_path_get_basename (self->ssh_argv[0]);
  g_autofree char *found = g_find_program_in_path (name);

  g_strv_builder_add (argv, g_strcmp0 (found, self->ssh_argv[0]) == 0 ? name : self->ssh_argv[0]);
  g_strv_builder_addv (argv, (const char **) self->ssh_argv + 1);
  add_host_options (self, argv);
  g_strv_builder_add_many (argv, "--", self->host->destination, NULL);
  if (last != NULL)
    g_strv_builder_add (argv, last);
  words = g_strv_builder_end (argv);
  return ws_ssh_join ((const char *const *) words);
}

/**
 * ws_ssh_connection_verify_command:
 *
 * Returns: (transfer full): the command a user runs in a terminal to
 *   connect as Warpscope does, and see (and accept) the host's key
 */
char *
ws_ssh_connection_verify_command (WsSshConnection *self)
{
  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), NULL);
  return typed_command (self, "true");
}

/**
 * ws_ssh_connection_display:
 *
 * Returns: (transfer full): the ssh command line that reaches the host,
 *   as a user would type it: for the log's command lines
 */
char *
ws_ssh_connection_display (WsSshConnection *self)
{
  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), NULL);
  return typed_command (self, NULL);
}

static gboolean
choose_control_path (WsSshConnection *self, GError **error)
{
  static gint counter;
  g_autofree char *dir = g_build_filename (g_get_user_runtime_dir (), "warpscope", NULL);
  g_autofree char *name =
    g_strdup_printf ("ssh-%d-%d", (int) getpid (), g_atomic_int_add (&counter, 1) + 1);

  /* Opened again (a copy that stalled): a new socket, the old one gone. */
  g_clear_pointer (&self->control_path, g_free);
  g_clear_pointer (&self->log_path, g_free);
  if (self->control_dir == NULL && g_mkdir_with_parents (dir, 0700) == 0 &&
      strlen (dir) + strlen (name) + 2 < MAX_SOCKET_PATH)
    {
      self->control_path = g_build_filename (dir, name, NULL);
      self->log_path = g_strconcat (self->control_path, ".log", NULL);
      return TRUE;
    }
  if (self->control_dir == NULL)
    self->control_dir = g_dir_make_tmp ("warpscope-ssh-XXXXXX", error);
  if (self->control_dir == NULL)
    return FALSE;
  self->control_path = g_build_filename (self->control_dir, "c", NULL);
  self->log_path = g_build_filename (self->control_dir, "log", NULL);
  return TRUE;
}

static gboolean
is_socket (const char *path)
{
  GStatBuf st;

  return g_lstat (path, &st) == 0 && S_ISSOCK (st.st_mode);
}

static void
master_child_setup (gpointer data)
{
  ws_process_group_child_setup (data);
}

/**
 * ws_ssh_connection_open:
 *
 * Starts the master connection and waits until it is in (its control
 * socket appears), or until ssh gives up: an unknown or changed host key
 * (WS_TOOLS_ERROR_HOST_KEY), a refused login or no connection
 * (WS_TOOLS_ERROR_CONNECTION), each with ssh's words and what to do.
 * Blocks: call it from a worker thread.
 */
gboolean
ws_ssh_connection_open (WsSshConnection *self, GCancellable *cancellable, GError **error)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  g_autofree char *control = NULL;
  gint64 deadline = g_get_monotonic_time () + OPEN_TIMEOUT_US;
  int in_pipe[2] = { -1, -1 };
  int log_fd;
  GPid pid = 0;
  gboolean spawned;

  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), FALSE);
  g_return_val_if_fail (self->master == 0, FALSE);

  /* Whoever made the host (a file included), nothing but a host reaches
   * ssh: the last check before any ssh runs. */
  if (!ws_ssh_destination_check (self->host->destination, error) ||
      !ws_ssh_port_check (self->host->port, error))
    {
      g_prefix_error (error, "%s: ", ws_ssh_connection_get_name (self));
      return FALSE;
    }
  if (!choose_control_path (self, error))
    return FALSE;
  g_unlink (self->control_path);
  log_fd = g_open (self->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (log_fd < 0)
    {
      int saved = errno;

      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO, "%s: %s", self->log_path,
                   g_strerror (saved));
      return FALSE;
    }

  control = control_option (self);
  g_strv_builder_addv (builder, (const char **) self->ssh_argv);
  g_strv_builder_add_many (builder, "-o", "BatchMode=yes", "-o", "ControlMaster=yes", "-o", control,
                           "-o", "ControlPersist=no", "-o", "ServerAliveInterval=15", "-o",
                           "ServerAliveCountMax=4", "-T", NULL);
  add_host_options (self, builder);
  g_strv_builder_add_many (builder, "--", self->host->destination, "exec cat >/dev/null", NULL);
  argv = g_strv_builder_end (builder);

  if (!g_unix_open_pipe (in_pipe, FD_CLOEXEC, error))
    {
      close (log_fd);
      return FALSE;
    }
  spawned = g_spawn_async_with_pipes_and_fds (
    NULL, (const char *const *) argv, NULL,
    G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
    master_child_setup, NULL, in_pipe[0], -1, log_fd, NULL, NULL, 0, &pid, NULL, NULL, NULL, error);
  close (log_fd);
  close (in_pipe[0]);
  if (!spawned)
    {
      close (in_pipe[1]);
      g_prefix_error (error, "%s: cannot run %s: ", ws_ssh_connection_get_name (self),
                      self->ssh_argv[0]);
      return FALSE;
    }
  g_mutex_lock (&self->lock);
  self->master = pid;
  self->master_in = in_pipe[1];
  g_mutex_unlock (&self->lock);

  for (;;)
    {
      int status = 0;

      if (is_socket (self->control_path))
        break;
      if (waitpid (pid, &status, WNOHANG) == pid)
        {
          g_autofree char *said = NULL;
          g_autofree char *verify = ws_ssh_connection_verify_command (self);
          g_autofree char *message = NULL;
          int code = WS_TOOLS_ERROR_CONNECTION;

          g_mutex_lock (&self->lock);
          self->master = 0;
          g_mutex_unlock (&self->lock);
          g_file_get_contents (self->log_path, &said, NULL, NULL);
          message = ws_ssh_problem (ws_ssh_connection_get_name (self), said, verify, &code);
          g_set_error_literal (error, WS_TOOLS_ERROR, code, message);
          stop_master (self, FALSE);
          return FALSE;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          stop_master (self, FALSE);
          return FALSE;
        }
      if (g_get_monotonic_time () > deadline)
        {
          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_CONNECTION,
                       "%s: no connection within %d s", ws_ssh_connection_get_name (self),
                       (int) (OPEN_TIMEOUT_US / G_USEC_PER_SEC));
          stop_master (self, FALSE);
          return FALSE;
        }
      g_usleep (POLL_US);
    }
  g_mutex_lock (&self->lock);
  self->open = TRUE;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

/**
 * ws_ssh_connection_is_open:
 *
 * Returns: whether the master connection is up
 */
gboolean
ws_ssh_connection_is_open (WsSshConnection *self)
{
  gboolean open;

  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), FALSE);

  g_mutex_lock (&self->lock);
  if (self->open && self->master > 1 && waitpid (self->master, NULL, WNOHANG) == self->master)
    {
      self->master = 0;
      self->open = FALSE;
      if (self->master_in >= 0)
        close (self->master_in);
      self->master_in = -1;
    }
  open = self->open;
  g_mutex_unlock (&self->lock);
  return open;
}

/* Ends the master connection; every command still using it ends too. */
void
ws_ssh_connection_close (WsSshConnection *self)
{
  g_return_if_fail (WS_IS_SSH_CONNECTION (self));
  stop_master (self, TRUE);
}

/**
 * ws_ssh_connection_lost:
 * @ssh_stderr: (nullable): what ssh said when it gave up
 *
 * Returns: (transfer full): the message for a command whose connection
 *   ended before the command did
 */
char *
ws_ssh_connection_lost (WsSshConnection *self, const char *ssh_stderr)
{
  g_autofree char *said = NULL;
  g_autofree char *last = NULL;

  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), NULL);

  if (ssh_stderr != NULL)
    {
      g_auto (GStrv) lines = g_strsplit (ssh_stderr, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        if (g_strstrip (lines[i])[0] != '\0')
          {
            g_free (last);
            last = g_strdup (lines[i]);
          }
    }
  if (last == NULL && self->log_path != NULL &&
      g_file_get_contents (self->log_path, &said, NULL, NULL))
    last = g_strstrip (g_strdup (said));
  if (last != NULL && last[0] != '\0')
    return g_strdup_printf ("the connection to %s was lost (ssh: %s)",
                            ws_ssh_connection_get_name (self), last);
  return g_strdup_printf ("the connection to %s was lost", ws_ssh_connection_get_name (self));
}

/* Takes the wrapper's lines out of a remote command's standard error. */
static char *
program_stderr (const char *token, const char *err, WsSshRemoteEnd *end)
{
  g_auto (GStrv) lines = g_strsplit (err != NULL ? err : "", "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    if (!ws_ssh_wrapper_line (token, lines[i], end) && lines[i][0] != '\0')
      {
        g_string_append (out, lines[i]);
        g_string_append_c (out, '\n');
      }
  return g_string_free (out, FALSE);
}

/**
 * ws_ssh_connection_run:
 * @argv: the program to run on the host and its arguments
 * @cwd: (nullable): the folder it runs in there
 * @out: (out) (optional): its standard output
 * @err: (out) (optional): its standard error
 * @exit_status: (out) (optional): its exit status there
 *
 * Runs a short command on the host, in a process group of its own there,
 * and waits for it.  Blocks: call it from a worker thread.
 *
 * Returns: %TRUE when the command ran to its end; %FALSE with @error set
 *   when it did not (the connection lost: WS_TOOLS_ERROR_CONNECTION, a
 *   timeout, cancelled)
 */
gboolean
ws_ssh_connection_run (WsSshConnection *self, const char *const *argv, const char *cwd,
                       guint timeout_s, GCancellable *cancellable, char **out, char **err,
                       int *exit_status, GError **error)
{
  g_autofree char *token = ws_ssh_new_token ();
  g_autofree char *remote = NULL;
  g_auto (GStrv) ssh = NULL;
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (WsToolProcess) process = NULL;
  g_autofree char *raw_err = NULL;
  g_autofree char *own_err = NULL;
  g_autofree char *raw_out = NULL;
  WsSshRemoteEnd end = { 0 };
  WsSshRemoteCommand command = { 0 };
  int status = -1;

  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);

  command.cwd = cwd;
  command.argv = argv;
  command.token = token;
  command.grace_ms = 1000;
  remote = ws_ssh_remote_command (&command);
  ssh = ws_ssh_connection_argv (self, remote);
  process = ws_tool_process_new (ssh, NULL, env, NULL, 1000);
  ws_tool_process_set_hold_stdin (process, TRUE);
  if (!ws_tool_process_run_sync (process, timeout_s, cancellable, &raw_out, &raw_err, &status,
                                 error))
    return FALSE;
  own_err = program_stderr (token, raw_err, &end);
  if (!end.ended)
    {
      g_autofree char *message = ws_ssh_connection_lost (self, own_err);

      g_set_error_literal (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_CONNECTION, message);
      ws_ssh_remote_end_clear (&end);
      return FALSE;
    }
  if (out != NULL)
    *out = g_steal_pointer (&raw_out);
  if (err != NULL)
    *err = g_steal_pointer (&own_err);
  if (exit_status != NULL)
    *exit_status = end.exit_status;
  ws_ssh_remote_end_clear (&end);
  return TRUE;
}

/**
 * ws_ssh_connection_script:
 * @script: a POSIX sh script, run as `sh -c SCRIPT warpscope ARGS…` on the host
 * @out: (out) (optional): what it printed on standard output
 *
 * Returns: %TRUE when the script exited with 0; %FALSE with @error set to
 *   what it printed on standard error otherwise
 */
gboolean
ws_ssh_connection_script (WsSshConnection *self, const char *script, const char *const *args,
                          guint timeout_s, GCancellable *cancellable, char **out, GError **error)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  g_autofree char *stdout_text = NULL;
  g_autofree char *stderr_text = NULL;
  int status = -1;

  g_return_val_if_fail (WS_IS_SSH_CONNECTION (self), FALSE);
  g_return_val_if_fail (script != NULL, FALSE);

  g_strv_builder_add_many (builder, "sh", "-c", script, "warpscope", NULL);
  if (args != NULL)
    g_strv_builder_addv (builder, (const char **) args);
  argv = g_strv_builder_end (builder);
  if (!ws_ssh_connection_run (self, (const char *const *) argv, NULL, timeout_s, cancellable,
                              &stdout_text, &stderr_text, &status, error))
    return FALSE;
  if (status != 0)
    {
      g_strdelimit (stderr_text, "\n", ' ');
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_IO, "%s: %s",
                   ws_ssh_connection_get_name (self),
                   g_strstrip (stderr_text)[0] != '\0' ? stderr_text : "a command failed there");
      return FALSE;
    }
  if (out != NULL)
    *out = g_steal_pointer (&stdout_text);
  return TRUE;
}
