/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-test-sshd.h"
#include "ws-test-watchdog.h"

/* The longest test with an sshd takes 25 s here, 70 s under valgrind. */
#define WS_TEST_SSHD_WATCHDOG_S 240
#include "ws-test-util.h"

/* Debian's sshd, started by the test as the user running it (root in CI),
 * with StrictModes off so that its files may live in /tmp.  Its sessions
 * get PATH with the nsys and ncu stand-ins first, and a HOME of their own
 * (SetEnv): the user's shell startup files, which may take a lock that a
 * killed session would leave behind (pyenv's rehash), stay out.  A guard
 * process holds a pipe from the test: when the test ends, normally or by
 * an abort, the pipe closes and the guard kills sshd and every process
 * under it (the sessions, which sshd puts in sessions of their own, and
 * what they run): all stopped first, from the top, then all killed, so
 * that none of them sees another die and tells the client, as none would
 * on a host that crashes. */

#define SSHD "/usr/sbin/sshd"

static const char guard_script[] =
  "read -r _\n"
  "tree() {\n"
  "  kill -STOP \"$1\" 2>/dev/null\n"
  "  echo \"$1\"\n"
  "  for c in $(ps -eo pid=,ppid= | awk -v p=\"$1\" '$2 == p { print $1 }'); do tree \"$c\"; done\n"
  "}\n"
  "for p in $(tree \"$1\"); do kill -KILL \"$p\" 2>/dev/null; done\n";

static void
keygen (const char *path)
{
  const char *argv[] = { "ssh-keygen",     "-q", "-t", "ed25519", "-N", "", "-C",
                         "warpscope-test", "-f", path, NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static guint
free_port (void)
{
  struct sockaddr_in addr = { 0 };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  guint port;

  g_assert_cmpint (fd, >=, 0);
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &addr, &len), ==, 0);
  port = ntohs (addr.sin_port);
  close (fd);
  return port;
}

static gboolean
port_open (guint port)
{
  struct sockaddr_in addr = { 0 };
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  gboolean open;

  addr.sin_family = AF_INET;
  addr.sin_port = htons (port);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  open = connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0;
  close (fd);
  return open;
}

static void
write_file (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* The line of known_hosts for the server's current key. */
static void
write_known_hosts (WsTestSshd *sshd, gboolean known)
{
  g_autofree char *pub_path = g_build_filename (sshd->dir, "host_ed25519.pub", NULL);
  g_autofree char *pub = NULL;
  g_autofree char *line = NULL;
  g_auto (GStrv) words = NULL;

  if (!known)
    {
      g_assert_true (g_file_set_contents (sshd->known_hosts, "", 0, NULL));
      return;
    }
  g_assert_true (g_file_get_contents (pub_path, &pub, NULL, NULL));
  words = g_strsplit (g_strstrip (pub), " ", 3);
  line = g_strdup_printf ("[127.0.0.1]:%u %s %s\n", sshd->port, words[0], words[1]);
  g_assert_true (g_file_set_contents (sshd->known_hosts, line, -1, NULL));
}

/* The server and its guard outlive a signal to the test's process group
 * (meson's or timeout's on a timeout): sessions of their own. */
static void
guard_setup (gpointer data)
{
  setsid ();
}

static void
start_guard (WsTestSshd *sshd)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *pid = g_strdup_printf ("%d", (int) sshd->pid);
  const char *argv[] = { "/bin/sh", "-c", guard_script, "guard", pid, NULL };
  int fds[2];

  g_assert_true (g_unix_open_pipe (fds, FD_CLOEXEC, &error));
  g_spawn_async_with_pipes_and_fds (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, guard_setup, NULL,
                                    fds[0], -1, -1, NULL, NULL, 0, &sshd->guard, NULL, NULL, NULL,
                                    &error);
  g_assert_no_error (error);
  close (fds[0]);
  sshd->guard_fd = fds[1];
}

static void
spawn_sshd (WsTestSshd *sshd)
{
  g_autofree char *config = g_build_filename (sshd->dir, "sshd_config", NULL);
  const char *argv[] = { SSHD, "-D", "-e", "-f", config, NULL };
  g_autoptr (GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  int log_fd;

  /* As root, sshd wants its privilege separation folder. */
  if (geteuid () == 0)
    g_mkdir_with_parents ("/run/sshd", 0755);
  log_fd = g_open (sshd->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  g_assert_cmpint (log_fd, >=, 0);
  g_spawn_async_with_pipes_and_fds (
    NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL, guard_setup, NULL,
    -1, log_fd, log_fd, NULL, NULL, 0, &sshd->pid, NULL, NULL, NULL, &error);
  close (log_fd);
  g_assert_no_error (error);
  start_guard (sshd);
  while (!port_open (sshd->port))
    {
      int status;

      if (waitpid (sshd->pid, &status, WNOHANG) == sshd->pid)
        {
          g_autofree char *log = ws_test_read (sshd->log);

          sshd->pid = 0;
          g_error ("sshd did not start: %s", log);
        }
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (20 * 1000);
    }
}

/**
 * ws_test_sshd_start:
 * @key_known: whether the client's known_hosts holds the server's key
 *
 * Returns: (transfer full): a running server
 */
WsTestSshd *
ws_test_sshd_start (gboolean key_known)
{
  WsTestSshd *sshd = g_new0 (WsTestSshd, 1);
  g_autofree char *host_key = NULL;
  g_autofree char *client_key = NULL;
  g_autofree char *client_pub = NULL;
  g_autofree char *pub = NULL;
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *sshd_config = NULL;
  g_autofree char *ssh_config = NULL;

  g_assert_true (g_file_test (SSHD, G_FILE_TEST_IS_EXECUTABLE));
  /* Real connections: a hang fails in minutes and says where it was. */
  ws_test_watchdog_arm (WS_TEST_SSHD_WATCHDOG_S, "a test with its own sshd");
  sshd->dir = ws_test_tmpdir ();
  sshd->port = free_port ();
  sshd->user = g_strdup (g_get_user_name ());
  sshd->alias = g_strdup ("wstest");
  sshd->destination = g_strdup_printf ("%s@127.0.0.1", sshd->user);
  sshd->config = g_build_filename (sshd->dir, "ssh_config", NULL);
  sshd->known_hosts = g_build_filename (sshd->dir, "known_hosts", NULL);
  sshd->log = g_build_filename (sshd->dir, "sshd.log", NULL);
  sshd->ssh_command = g_strdup_printf ("ssh -F %s", sshd->config);
  sshd->remote_path =
    g_strdup_printf ("%s:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", stand_ins);
  sshd->guard_fd = -1;
  sshd->home = g_build_filename (sshd->dir, "home", NULL);

  host_key = g_build_filename (sshd->dir, "host_ed25519", NULL);
  client_key = g_build_filename (sshd->dir, "client_ed25519", NULL);
  client_pub = g_build_filename (sshd->dir, "client_ed25519.pub", NULL);
  g_assert_cmpint (g_mkdir (sshd->home, 0700), ==, 0);
  keygen (host_key);
  keygen (client_key);
  g_assert_true (g_file_get_contents (client_pub, &pub, NULL, NULL));
  write_file (sshd->dir, "authorized_keys", pub);

  sshd_config = g_strdup_printf ("Port %u\n"
                                 "ListenAddress 127.0.0.1\n"
                                 "HostKey %s\n"
                                 "PidFile none\n"
                                 "AuthorizedKeysFile %s/authorized_keys\n"
                                 "StrictModes no\n"
                                 "UsePAM no\n"
                                 "PasswordAuthentication no\n"
                                 "KbdInteractiveAuthentication no\n"
                                 "PubkeyAuthentication yes\n"
                                 "PermitRootLogin prohibit-password\n"
                                 "SetEnv PATH=%s HOME=%s\n"
                                 "LogLevel INFO\n",
                                 sshd->port, host_key, sshd->dir, sshd->remote_path, sshd->home);
  write_file (sshd->dir, "sshd_config", sshd_config);
  ssh_config = g_strdup_printf ("Host %s\n"
                                "  HostName 127.0.0.1\n"
                                "  Port %u\n"
                                "Host *\n"
                                "  User %s\n"
                                "  IdentityFile %s\n"
                                "  IdentitiesOnly yes\n"
                                "  UserKnownHostsFile %s\n"
                                "  GlobalKnownHostsFile /dev/null\n"
                                "  StrictHostKeyChecking yes\n"
                                "  UpdateHostKeys no\n"
                                "  LogLevel ERROR\n",
                                sshd->alias, sshd->port, sshd->user, client_key, sshd->known_hosts);
  write_file (sshd->dir, "ssh_config", ssh_config);
  write_known_hosts (sshd, key_known);
  spawn_sshd (sshd);
  return sshd;
}

/* Starts the server again after ws_test_sshd_kill(): same port, same keys. */
void
ws_test_sshd_start_again (WsTestSshd *sshd)
{
  g_assert_cmpint (sshd->pid, ==, 0);
  spawn_sshd (sshd);
}

/* Waits for @pid to end, failing the test after 60 s rather than
 * hanging until meson's timeout. */
static void
reap (GPid pid, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (waitpid (pid, NULL, WNOHANG) == 0)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("%s (pid %d) still runs 60 s after it was told to end", what, (int) pid);
      g_usleep (10 * 1000);
    }
}

/* Kills the server and every session it has, as a crash or a power cut
 * of the host would end them. */
void
ws_test_sshd_kill (WsTestSshd *sshd)
{
  if (sshd->guard_fd >= 0)
    close (sshd->guard_fd);
  sshd->guard_fd = -1;
  if (sshd->guard != 0)
    reap (sshd->guard, "the server's guard");
  sshd->guard = 0;
  if (sshd->pid != 0)
    reap (sshd->pid, "the server");
  sshd->pid = 0;
}

void
ws_test_sshd_free (WsTestSshd *sshd)
{
  if (sshd == NULL)
    return;
  ws_test_sshd_kill (sshd);
  ws_test_watchdog_disarm ();
  ws_test_rmtree (sshd->dir);
  g_free (sshd->dir);
  g_free (sshd->user);
  g_free (sshd->alias);
  g_free (sshd->destination);
  g_free (sshd->config);
  g_free (sshd->known_hosts);
  g_free (sshd->ssh_command);
  g_free (sshd->log);
  g_free (sshd->remote_path);
  g_free (sshd->home);
  g_free (sshd);
}

/* The client no longer knows the server's key. */
void
ws_test_sshd_forget_key (WsTestSshd *sshd)
{
  write_known_hosts (sshd, FALSE);
}

/* The client knows another key for the server: as after a reinstall, or
 * a man in the middle. */
void
ws_test_sshd_change_key (WsTestSshd *sshd)
{
  g_autofree char *other = g_build_filename (sshd->dir, "other_ed25519", NULL);
  g_autofree char *pub_path = g_strconcat (other, ".pub", NULL);
  g_autofree char *pub = NULL;
  g_autofree char *line = NULL;
  g_auto (GStrv) words = NULL;

  keygen (other);
  g_assert_true (g_file_get_contents (pub_path, &pub, NULL, NULL));
  words = g_strsplit (g_strstrip (pub), " ", 3);
  line = g_strdup_printf ("[127.0.0.1]:%u %s %s\n", sshd->port, words[0], words[1]);
  g_assert_true (g_file_set_contents (sshd->known_hosts, line, -1, NULL));
}

/**
 * ws_test_sshd_run:
 *
 * Runs @remote_command on the server through a connection of its own,
 * as the test's independent look at the host.
 *
 * Returns: (transfer full): its standard output
 */
char *
ws_test_sshd_run (WsTestSshd *sshd, const char *remote_command, int *exit_status)
{
  const char *argv[] = { "ssh",           "-F",        sshd->config,   "-o",
                         "BatchMode=yes", sshd->alias, remote_command, NULL };
  WsTestRun run = { 0 };
  char *out;

  ws_test_run_bounded (argv, 60, &run);
  g_assert_false (run.timed_out);
  if (exit_status != NULL)
    *exit_status = run.status;
  else if (run.status != 0)
    g_error ("ssh %s: exit status %d: %s", remote_command, run.status, run.err);
  out = g_steal_pointer (&run.out);
  ws_test_run_clear (&run);
  return out;
}

static GPid
parent_of (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *paren;

  if (!g_file_get_contents (path, &stat, NULL, NULL) || (paren = strrchr (stat, ')')) == NULL)
    return 0;
  /* ") S PPID …" */
  return (GPid) g_ascii_strtoll (paren + 4, NULL, 10);
}

/**
 * ws_test_sshd_sessions:
 *
 * Returns: how many processes run under the server (its connections and
 *   what they run), as /proc here says
 */
guint
ws_test_sshd_sessions (WsTestSshd *sshd)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (proc);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      GPid pid = (GPid) g_ascii_strtoll (name, NULL, 10);

      for (GPid up = pid > 0 ? parent_of (pid) : 0; up > 1; up = parent_of (up))
        if (up == sshd->pid)
          {
            n++;
            break;
          }
    }
  return n;
}

/**
 * ws_test_sshd_processes:
 *
 * Lists the processes of the host whose command line or environment holds
 * @marker, as `ps` there shows them.
 *
 * Returns: (transfer full): the lines of `ps -eww e -o pid=,args=`, or ""
 */
char *
ws_test_sshd_processes (WsTestSshd *sshd, const char *marker)
{
  g_autofree char *all = ws_test_sshd_run (sshd, "ps -eww e -o pid=,args=", NULL);
  g_auto (GStrv) lines = g_strsplit (all, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], marker) != NULL)
      g_string_append_printf (out, "%s\n", lines[i]);
  return g_string_free (out, FALSE);
}
