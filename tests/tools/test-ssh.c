/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ws-tool-process.h"
#include "ws-ssh-connection.h"
#include "ws-ssh-transfer.h"
#include "ws-ssh.h"
#include "ws-test-sshd.h"
#include "ws-test-util.h"
#include "ws-tools-error.h"

/* The ssh layer against a real OpenSSH server that each test starts on
 * 127.0.0.1 (tests/ws-test-sshd.c): quoting, host keys, the master
 * connection, and remote process groups that end with their command. */

static WsSshConnection *
connect_to (WsTestSshd *sshd, const char *spec)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSshHost) host = ws_ssh_host_parse (spec, &error);
  g_auto (GStrv) ssh = ws_ssh_command_argv (sshd->ssh_command, &error);
  WsSshConnection *connection;

  g_assert_no_error (error);
  connection = ws_ssh_connection_new (host, (const char *const *) ssh);
  ws_ssh_connection_open (connection, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ws_ssh_connection_is_open (connection));
  return connection;
}

/* The bytes of @text as `od -An -tx1 -v` prints them, spaces dropped. */
static char *
hex_of (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    g_string_append_printf (out, "%02x", *p);
  return g_string_free (out, FALSE);
}

static char *
without_spaces (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

/* Every hostile value reaches the program on the host as the bytes it is
 * here, through the login shell there (bash for root on Debian): as an
 * argument, and as the name of the folder it runs in. */
static void
test_quote_hostile_values (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autoptr (WsSshConnection) connection = connect_to (sshd, sshd->alias);
  g_autofree char *marker = g_strdup_printf ("/tmp/pwned-%08x", g_random_int ());
  g_autofree char *subst = g_strdup_printf ("$(touch %s)", marker);
  g_autofree char *backquote = g_strdup_printf ("`touch %s`", marker);
  g_autofree char *semicolon = g_strdup_printf ("x; touch %s", marker);
  g_autofree char *quotes = g_strdup_printf ("it's \"quoted\" '$(touch %s)' \\'", marker);
  g_autofree char *newline = g_strdup_printf ("line one\nline two\n$(touch %s)\n", marker);
  g_autofree char *dir = ws_test_tmpdir ();
  const char *const values[] = {
    subst,
    backquote,
    semicolon,
    quotes,
    newline,
    "柴犬推理 ünïcödé ✓",
    "\xff\xfe not UTF-8",
    "-n",
    "",
    " leading and trailing ",
    "*",
    "~",
    "$HOME",
    "a\\b",
    "'",
    "''",
    "\"",
    "!",
    "#comment",
    "%s%n",
    NULL,
  };

  for (guint i = 0; values[i] != NULL; i++)
    {
      const char *argv[] = {
        "sh", "-c", "printf %s \"$1\" | od -An -tx1 -v", "sh", values[i], NULL
      };
      g_autoptr (GError) error = NULL;
      g_autofree char *out = NULL;
      g_autofree char *got = NULL;
      g_autofree char *want = hex_of (values[i]);
      int status = -1;

      ws_ssh_connection_run (connection, argv, NULL, 30, NULL, &out, NULL, &status, &error);
      g_assert_no_error (error);
      g_assert_cmpint (status, ==, 0);
      got = without_spaces (out);
      g_test_message ("value %u: %s", i, want);
      g_assert_cmpstr (got, ==, want);
    }

  /* A folder whose name is hostile: the command runs in it. */
  {
    g_autofree char *name = g_strdup_printf ("it's \"odd\" $(touch %s) 柴犬 *", marker + 5);
    g_autofree char *odd = g_build_filename (dir, name, NULL);
    const char *argv[] = { "pwd", NULL };
    g_autoptr (GError) error = NULL;
    g_autofree char *out = NULL;
    g_autofree char *expected = NULL;
    int status = -1;

    g_assert_cmpint (g_mkdir (odd, 0755), ==, 0);
    ws_ssh_connection_run (connection, argv, odd, 30, NULL, &out, NULL, &status, &error);
    g_assert_no_error (error);
    expected = g_strconcat (odd, "\n", NULL);
    g_assert_cmpstr (out, ==, expected);
  }
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  ws_test_rmtree (dir);
}

/* The quoted forms themselves, written by hand: plain words stay bare,
 * everything else is single-quoted with ' as '\''. */
static void
test_quote_words (void)
{
  const struct
  {
    const char *word;
    const char *quoted;
  } cases[] = {
    { "nsys", "nsys" },
    { "--trace=cuda,nvtx", "--trace=cuda,nvtx" },
    { "/opt/a b/nsys", "'/opt/a b/nsys'" },
    { "", "''" },
    { "it's", "'it'\\''s'" },
    { "$(x)", "'$(x)'" },
    { "a\nb", "'a\nb'" },
    { "柴犬", "'柴犬'" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *quoted = ws_ssh_quote (cases[i].word);

      g_assert_cmpstr (quoted, ==, cases[i].quoted);
    }
}

static void
assert_open_fails (WsTestSshd *sshd, const char *spec, int code, const char *words)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSshHost) host = ws_ssh_host_parse (spec, &error);
  g_auto (GStrv) ssh = ws_ssh_command_argv (sshd->ssh_command, &error);
  g_autoptr (WsSshConnection) connection = ws_ssh_connection_new (host, (const char *const *) ssh);

  g_assert_false (ws_ssh_connection_open (connection, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, WS_TOOLS_ERROR, code);
  g_assert_nonnull (strstr (error->message, words));
  g_assert_false (ws_ssh_connection_is_open (connection));
}

/* An unknown host key stops with the command that shows it; the key is
 * not added to known_hosts. */
static void
test_unknown_host_key (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (FALSE);
  g_autofree char *verify = g_strdup_printf ("ssh -F %s -- %s true", sshd->config, sshd->alias);
  g_autofree char *known = NULL;

  assert_open_fails (sshd, sshd->alias, WS_TOOLS_ERROR_HOST_KEY, "the host key is not known");
  assert_open_fails (sshd, sshd->alias, WS_TOOLS_ERROR_HOST_KEY, verify);
  known = ws_test_read (sshd->known_hosts);
  g_assert_cmpstr (known, ==, "");
}

/* A key that changed stops too, and says so. */
static void
test_changed_host_key (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  ws_test_sshd_change_key (sshd);
  before = ws_test_read (sshd->known_hosts);
  assert_open_fails (sshd, sshd->alias, WS_TOOLS_ERROR_HOST_KEY, "has CHANGED");
  after = ws_test_read (sshd->known_hosts);
  g_assert_cmpstr (after, ==, before);
}

/* No server at the port; a login the server refuses. */
static void
test_cannot_connect (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autofree char *wrong_user = g_strdup_printf ("nobody-here@127.0.0.1:%u", sshd->port);
  g_autofree char *closed = NULL;

  assert_open_fails (sshd, wrong_user, WS_TOOLS_ERROR_CONNECTION, "did not let us in");
  ws_test_sshd_kill (sshd);
  closed = g_strdup_printf ("127.0.0.1:%u", sshd->port);
  assert_open_fails (sshd, closed, WS_TOOLS_ERROR_CONNECTION, "Connection refused");
}

typedef struct
{
  gboolean done;
  int status;
  GString *err;
} Remote;

static void
remote_line_cb (WsToolProcess *process, gboolean is_stderr, const char *line, gpointer data)
{
  Remote *remote = data;

  if (is_stderr)
    g_string_append_printf (remote->err, "%s\n", line);
}

static void
remote_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Remote *remote = data;

  ws_tool_process_run_finish (WS_TOOL_PROCESS (source), result, &remote->status, NULL);
  remote->done = TRUE;
}

/* A program on the host that starts two children, one deaf to SIGTERM;
 * the marker is in the command line of each. */
static WsToolProcess *
start_remote_sleepers (WsSshConnection *connection, const char *marker, Remote *remote)
{
  g_autofree char *script = g_strdup_printf (
    "sleep 4000.%s & (trap '' TERM; exec sleep 4001.%s) & echo started >&2; wait", marker, marker);
  const char *argv[] = { "sh", "-c", script, NULL };
  g_autofree char *token = ws_ssh_new_token ();
  WsSshRemoteCommand command = { .argv = argv, .token = token, .grace_ms = 500 };
  g_autofree char *line = ws_ssh_remote_command (&command);
  g_auto (GStrv) ssh = ws_ssh_connection_argv (connection, line);
  g_auto (GStrv) env = g_get_environ ();
  WsToolProcess *process = ws_tool_process_new (ssh, NULL, env, NULL, 500);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  remote->err = g_string_new (NULL);
  ws_tool_process_set_hold_stdin (process, TRUE);
  g_signal_connect (process, "line", G_CALLBACK (remote_line_cb), remote);
  ws_tool_process_run_async (process, remote_done_cb, remote);
  while (strstr (remote->err->str, "started") == NULL)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10 * 1000);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  return process;
}

static void
wait_until_gone (WsTestSshd *sshd, const char *marker, guint seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  for (;;)
    {
      g_autofree char *left = ws_test_sshd_processes (sshd, marker);

      if (left[0] == '\0')
        return;
      if (g_get_monotonic_time () > deadline)
        g_error ("still on the host after %u s:\n%s", seconds, left);
      g_usleep (100 * 1000);
    }
}

/* Cancel: the remote program and both children are gone once the local
 * command reports its end, the SIGTERM-deaf one after the grace period. */
static void
test_cancel_ends_remote_group (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autoptr (WsSshConnection) connection = connect_to (sshd, sshd->alias);
  g_autofree char *marker = g_strdup_printf ("%06u", g_random_int_range (0, 999999));
  Remote remote = { 0 };
  g_autoptr (WsToolProcess) process = start_remote_sleepers (connection, marker, &remote);
  g_autofree char *running = ws_test_sshd_processes (sshd, marker);
  g_autofree char *left = NULL;

  g_test_message ("running:\n%s", running);
  g_assert_nonnull (strstr (running, "sleep 4000."));
  g_assert_nonnull (strstr (running, "sleep 4001."));
  ws_tool_process_terminate (process);
  ws_test_wait_flag (&remote.done, 60, "the terminated remote command to end");
  left = ws_test_sshd_processes (sshd, marker);
  g_assert_cmpstr (left, ==, "");
  g_string_free (remote.err, TRUE);
}

/* This program dies (the local ssh is killed outright): the connection's
 * input closes and the host ends the group by itself. */
static void
test_local_death_ends_remote_group (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autoptr (WsSshConnection) connection = connect_to (sshd, sshd->alias);
  g_autofree char *marker = g_strdup_printf ("%06u", g_random_int_range (0, 999999));
  Remote remote = { 0 };
  g_autoptr (WsToolProcess) process = start_remote_sleepers (connection, marker, &remote);

  ws_tool_process_kill (process);
  ws_test_wait_flag (&remote.done, 60, "the killed local ssh to be reported");
  wait_until_gone (sshd, marker, 10);
  g_string_free (remote.err, TRUE);
}

/* A file of random bytes in @dir, as a capture's output on the host. */
static char *
make_remote_file (const char *dir, const char *name, gsize size)
{
  g_autofree guint32 *words = g_new (guint32, size / 4 + 1);
  char *path = g_build_filename (dir, name, NULL);

  for (gsize i = 0; i < size / 4 + 1; i++)
    words[i] = g_random_int ();
  g_assert_true (g_file_set_contents (path, (const char *) words, size, NULL));
  return path;
}

typedef struct
{
  WsTestSshd *sshd;
  guint64 kill_after;        /* bytes; 0: never */
  guint64 kill_client_after; /* bytes: kill the copy's own ssh once; 0: never */
  guint clients_killed;
  guint64 last_done;
  guint64 total;
  guint calls;
} Progress;

/* What CI once hung on: the copy's own ssh (`ssh … tail -c …`, a child
 * of this process) is gone, and the connection's master, which holds the
 * copy's pipes, sends nothing more (stopped here) and ends nothing.
 * Returns how many copies were so cut. */
static guint
kill_copy_client (void)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  g_autofree char *me = g_strdup_printf ("%d", (int) getpid ());
  const char *name;
  guint killed = 0;

  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *stat_path = g_build_filename ("/proc", name, "stat", NULL);
      g_autofree char *cmd_path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *stat = NULL;
      g_autofree char *cmd = NULL;
      g_auto (GStrv) fields = NULL;
      gsize len = 0;
      const char *after;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (stat_path, &stat, NULL, NULL) ||
          !g_file_get_contents (cmd_path, &cmd, &len, NULL))
        continue;
      /* "pid (comm) state ppid …": the fields after the command's name. */
      after = strrchr (stat, ')');
      if (after == NULL)
        continue;
      fields = g_strsplit (after + 2, " ", 3);
      if (g_strv_length (fields) < 2 || !g_str_equal (fields[1], me))
        continue;
      for (gsize i = 0; i + 1 < len; i++)
        if (cmd[i] == '\0')
          cmd[i] = ' ';
      if (!g_str_has_prefix (cmd, "ssh ") && strstr (cmd, "/ssh ") == NULL)
        continue;
      if (strstr (cmd, "ControlMaster=yes") != NULL)
        g_assert_cmpint (kill (atoi (name), SIGSTOP), ==, 0);
      else if (strstr (cmd, " tail -c ") != NULL && kill (atoi (name), SIGKILL) == 0)
        killed++;
    }
  return killed;
}

static void
progress_cb (guint64 done, guint64 total, guint file, gpointer data)
{
  Progress *progress = data;

  g_assert_cmpuint (done, >=, progress->last_done);
  g_assert_cmpuint (done, <=, total);
  progress->last_done = done;
  progress->total = total;
  progress->calls++;
  if (progress->kill_client_after > 0 && done >= progress->kill_client_after &&
      progress->clients_killed == 0)
    progress->clients_killed = kill_copy_client ();
  if (progress->kill_after > 0 && done >= progress->kill_after && progress->sshd->pid != 0)
    ws_test_sshd_kill (progress->sshd);
}

/* Two files come back whole; their checksums equal the originals' (as
 * GLib computes them here, not as the copy did); progress counts up to
 * the sum of their sizes. */
static void
test_fetch_files (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autoptr (WsSshConnection) connection = connect_to (sshd, sshd->alias);
  g_autofree char *remote_dir = ws_test_tmpdir ();
  g_autofree char *local_dir = ws_test_tmpdir ();
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *big = make_remote_file (remote_dir, "big file 柴犬.bin", 3 * 1024 * 1024 + 7);
  g_autofree char *local_sqlite = g_build_filename (local_dir, "probe.sqlite", NULL);
  g_autofree char *local_big = g_build_filename (local_dir, "big.bin", NULL);
  const char *remote[] = { sqlite, big, NULL };
  const char *local[] = { local_sqlite, local_big, NULL };
  g_autoptr (GPtrArray) fetched =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_fetched_free);
  g_autoptr (GError) error = NULL;
  Progress progress = { sshd };

  g_assert_true (ws_ssh_fetch_files (connection, remote, local, 0, NULL, progress_cb, &progress,
                                     fetched, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 2; i++)
    {
      WsSshFetched *file = g_ptr_array_index (fetched, i);
      g_autofree char *want = ws_test_file_sha256 (remote[i]);
      g_autofree char *got = ws_test_file_sha256 (local[i]);
      g_autofree char *part = g_strconcat (local[i], ".part", NULL);

      g_assert_cmpstr (got, ==, want);
      g_assert_cmpstr (file->sha256, ==, want);
      g_assert_true (file->done);
      g_assert_cmpint (file->resumed_from, ==, 0);
      g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
    }
  g_assert_cmpuint (progress.total, ==, 5115904 + 3 * 1024 * 1024 + 7);
  g_assert_cmpuint (progress.last_done, ==, progress.total);
  ws_test_rmtree (remote_dir);
  ws_test_rmtree (local_dir);
}

/* A .part that holds the file's first bytes is resumed from its end; one
 * whose bytes are wrong is copied again whole. */
static void
test_fetch_resumes (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autoptr (WsSshConnection) connection = connect_to (sshd, sshd->alias);
  g_autofree char *remote_dir = ws_test_tmpdir ();
  g_autofree char *local_dir = ws_test_tmpdir ();
  g_autofree char *big = make_remote_file (remote_dir, "big.bin", 2 * 1024 * 1024);
  g_autofree char *local_big = g_build_filename (local_dir, "big.bin", NULL);
  g_autofree char *part = g_strconcat (local_big, ".part", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *want = ws_test_file_sha256 (big);
  const char *remote[] = { big, NULL };
  const char *local[] = { local_big, NULL };
  gsize len;

  g_assert_true (g_file_get_contents (big, &contents, &len, NULL));
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr (GPtrArray) fetched =
        g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_fetched_free);
      g_autoptr (GError) error = NULL;
      g_autofree char *got = NULL;
      WsSshFetched *file;

      g_unlink (local_big);
      if (round == 1)
        contents[100] ^= 0x5a; /* a .part whose bytes are not the host's */
      g_assert_true (g_file_set_contents (part, contents, 1000 * 1000, NULL));
      g_assert_true (
        ws_ssh_fetch_files (connection, remote, local, 0, NULL, NULL, NULL, fetched, &error));
      g_assert_no_error (error);
      file = g_ptr_array_index (fetched, 0);
      got = ws_test_file_sha256 (local_big);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpint (file->resumed_from, ==, round == 0 ? 1000 * 1000 : 0);
      g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
    }
  ws_test_rmtree (remote_dir);
  ws_test_rmtree (local_dir);
}

/* The server dies in the middle of a copy (1 MB/s, killed after 1 MB):
 * the copy fails with a message that says what arrived, which stays; once
 * the server is back, the copy resumes where it stopped and ends checked. */
static void
test_fetch_server_killed (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autoptr (WsSshConnection) connection = connect_to (sshd, sshd->alias);
  g_autoptr (WsSshConnection) again = NULL;
  g_autofree char *remote_dir = ws_test_tmpdir ();
  g_autofree char *local_dir = ws_test_tmpdir ();
  g_autofree char *big = make_remote_file (remote_dir, "big.bin", 4 * 1000 * 1000);
  g_autofree char *local_big = g_build_filename (local_dir, "big.bin", NULL);
  g_autofree char *part = g_strconcat (local_big, ".part", NULL);
  g_autofree char *want = ws_test_file_sha256 (big);
  g_autofree char *got = NULL;
  g_autofree char *summary = NULL;
  const char *remote[] = { big, NULL };
  const char *local[] = { local_big, NULL };
  g_autoptr (GPtrArray) fetched =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_fetched_free);
  g_autoptr (GPtrArray) fetched_again =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_fetched_free);
  g_autoptr (GError) error = NULL;
  Progress progress = { sshd, 1000 * 1000 };
  WsSshFetched *file;
  gint64 kept;

  g_assert_false (ws_ssh_fetch_files (connection, remote, local, 1000 * 1000, NULL, progress_cb,
                                      &progress, fetched, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, "the connection to wstest was lost"));
  file = g_ptr_array_index (fetched, 0);
  g_assert_false (file->done);
  kept = file->arrived;
  g_assert_cmpint (kept, >=, 1000 * 1000);
  g_assert_cmpint (kept, <, 4 * 1000 * 1000);
  summary = ws_ssh_fetched_summary (fetched);
  g_test_message ("%s", summary);
  g_assert_true (g_str_has_prefix (summary, "0 of 1 files copied; big.bin: "));
  g_assert_nonnull (strstr (summary, "of 4.0\u00a0MB arrived (kept in big.bin.part)"));
  g_assert_false (g_file_test (local_big, G_FILE_TEST_EXISTS));
  {
    GStatBuf st;

    g_assert_cmpint (g_stat (part, &st), ==, 0);
    g_assert_cmpint (st.st_size, ==, kept);
  }
  g_assert_false (ws_ssh_connection_is_open (connection));

  ws_test_sshd_start_again (sshd);
  again = connect_to (sshd, sshd->alias);
  g_clear_error (&error);
  g_assert_true (
    ws_ssh_fetch_files (again, remote, local, 0, NULL, NULL, NULL, fetched_again, &error));
  g_assert_no_error (error);
  file = g_ptr_array_index (fetched_again, 0);
  g_assert_cmpint (file->resumed_from, ==, kept);
  got = ws_test_file_sha256 (local_big);
  g_assert_cmpstr (got, ==, want);
  ws_test_rmtree (remote_dir);
  ws_test_rmtree (local_dir);
}

/* The copy's own ssh dies while its connection's master lives on with the
 * copy's pipes (what hung CI once): the copy does not wait for an end of
 * file that never comes; it goes on over a new connection from what
 * arrived, and the file comes back whole and checked. */
static void
test_fetch_client_gone (void)
{
  g_autoptr (WsTestSshd) sshd = ws_test_sshd_start (TRUE);
  g_autoptr (WsSshConnection) connection = connect_to (sshd, sshd->alias);
  g_autofree char *remote_dir = ws_test_tmpdir ();
  g_autofree char *local_dir = ws_test_tmpdir ();
  g_autofree char *big = make_remote_file (remote_dir, "big.bin", 3 * 1000 * 1000);
  g_autofree char *local_big = g_build_filename (local_dir, "big.bin", NULL);
  g_autofree char *want = ws_test_file_sha256 (big);
  g_autofree char *got = NULL;
  const char *remote[] = { big, NULL };
  const char *local[] = { local_big, NULL };
  g_autoptr (GPtrArray) fetched =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_fetched_free);
  g_autoptr (GError) error = NULL;
  Progress progress = { sshd, 0, 1000 * 1000 };
  WsSshFetched *file;

  g_assert_true (ws_ssh_fetch_files (connection, remote, local, 1000 * 1000, NULL, progress_cb,
                                     &progress, fetched, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (progress.clients_killed, ==, 1);
  file = g_ptr_array_index (fetched, 0);
  g_assert_true (file->done);
  /* Went on from what had arrived, not from the start. */
  g_assert_cmpint (file->resumed_from, >=, 1000 * 1000);
  g_assert_cmpint (file->resumed_from, <, 3 * 1000 * 1000);
  got = ws_test_file_sha256 (local_big);
  g_assert_cmpstr (got, ==, want);
  g_assert_cmpuint (progress.last_done, ==, 3 * 1000 * 1000);
  ws_test_rmtree (remote_dir);
  ws_test_rmtree (local_dir);
}

/* Whatever made the host — a file, not the checks of capture and doctor —
 * the connection checks it again before ssh runs: an option as the
 * destination or a port out of range never reaches ssh; and in every ssh
 * command line the destination follows `--`. */
static void
test_connection_checks_host (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *marker = g_build_filename (dir, "pwned", NULL);
  g_autofree char *option = g_strdup_printf ("-oProxyCommand=touch %s", marker);
  const char *ssh[] = { "ssh", NULL };
  const struct
  {
    const char *destination;
    guint port;
  } hosts[] = { { option, 0 }, { "127.0.0.1", 70000 }, { "a;touch x", 0 } };

  for (gsize i = 0; i < G_N_ELEMENTS (hosts); i++)
    {
      g_autoptr (WsSshHost) host = ws_ssh_host_new ("sent", hosts[i].destination, hosts[i].port);
      g_autoptr (WsSshConnection) connection = ws_ssh_connection_new (host, ssh);
      g_autoptr (GError) error = NULL;

      g_assert_false (ws_ssh_connection_open (connection, NULL, &error));
      g_assert_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID);
      g_assert_true (g_str_has_prefix (error->message, "sent: "));
      g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
    }

  {
    g_autoptr (WsSshHost) host = ws_ssh_host_new ("h", "user@example.org", 2222);
    g_autoptr (WsSshConnection) connection = ws_ssh_connection_new (host, ssh);
    g_auto (GStrv) argv = ws_ssh_connection_argv (connection, "true");
    g_autofree char *display = ws_ssh_connection_display (connection);
    guint n = g_strv_length (argv);

    g_assert_cmpuint (n, >=, 3);
    g_assert_cmpstr (argv[n - 3], ==, "--");
    g_assert_cmpstr (argv[n - 2], ==, "user@example.org");
    g_assert_true (g_str_has_suffix (display, " -p 2222 -- user@example.org"));
  }
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ssh/quote/hostile-values-reach-the-host-literally", test_quote_hostile_values);
  g_test_add_func ("/ssh/quote/words", test_quote_words);
  g_test_add_func ("/ssh/connection/checks-the-host-before-ssh", test_connection_checks_host);
  g_test_add_func ("/ssh/connection/unknown-host-key-stops", test_unknown_host_key);
  g_test_add_func ("/ssh/connection/changed-host-key-stops", test_changed_host_key);
  g_test_add_func ("/ssh/connection/refused", test_cannot_connect);
  g_test_add_func ("/ssh/cancel/ends-the-remote-group", test_cancel_ends_remote_group);
  g_test_add_func ("/ssh/cancel/local-death-ends-the-remote-group",
                   test_local_death_ends_remote_group);
  g_test_add_func ("/ssh/fetch/files-checked", test_fetch_files);
  g_test_add_func ("/ssh/fetch/resumes-a-part", test_fetch_resumes);
  g_test_add_func ("/ssh/fetch/server-killed-mid-copy", test_fetch_server_killed);
  g_test_add_func ("/ssh/fetch/copy-client-gone-goes-on", test_fetch_client_gone);

  return g_test_run ();
}
