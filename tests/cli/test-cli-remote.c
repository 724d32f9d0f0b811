/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-test-runner.h"
#include "ws-test-sshd.h"
#include "ws-test-util.h"

/* warpscope-cli against a real sshd (tests/ws-test-sshd.c): capture
 * --host, fetch, and doctor --host, with WARPSCOPE_SSH naming the test's
 * ssh configuration as a user would name theirs. */

typedef struct
{
  WsTestSshd *sshd;
  char *dir;        /* targets.tsv and out/ */
  char *remote_dir; /* the folder for captures on the host */
  char *targets;
} Cli;

static void
cli_free (Cli *cli)
{
  ws_test_sshd_free (cli->sshd);
  ws_test_rmtree (cli->dir);
  ws_test_rmtree (cli->remote_dir);
  g_free (cli->dir);
  g_free (cli->remote_dir);
  g_free (cli->targets);
  g_free (cli);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Cli, cli_free)

static Cli *
cli_new (gboolean key_known, const char *targets_text)
{
  Cli *cli = g_new0 (Cli, 1);

  cli->sshd = ws_test_sshd_start (key_known);
  cli->dir = ws_test_tmpdir ();
  cli->remote_dir = ws_test_tmpdir ();
  cli->targets = g_build_filename (cli->dir, "targets.tsv", NULL);
  g_assert_true (g_file_set_contents (cli->targets, targets_text, -1, NULL));
  return cli;
}

/* Runs warpscope-cli ARGS… with WARPSCOPE_SSH set, in the test's folder. */
static void run_cli (Cli *cli, WsTestRun *run, const char *first, ...) G_GNUC_NULL_TERMINATED;

static void
run_cli (Cli *cli, WsTestRun *run, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *ssh = g_strdup_printf ("WARPSCOPE_SSH=%s", cli->sshd->ssh_command);
  va_list args;

  g_ptr_array_add (argv, g_strdup ("env"));
  g_ptr_array_add (argv, g_strdup ("-C"));
  g_ptr_array_add (argv, g_strdup (cli->dir));
  g_ptr_array_add (argv, g_strdup (ssh));
  g_ptr_array_add (argv, g_strdup (ws_test_cli ()));
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);
  ws_test_run_bounded ((const char *const *) argv->pdata, 180, run);
  g_test_message ("exit %d\nstdout:\n%s\nstderr:\n%s", run->status, run->out, run->err);
  g_assert_false (run->timed_out);
}

/* capture --host sends every target there, WORKDIR included; with
 * --leave-reports the reports stay there, and fetch brings them, checked,
 * into the folder, which run.json then says. */
static void
test_capture_host_then_fetch (void)
{
  g_autoptr (Cli) cli = cli_new (TRUE, "NAME\tCMD\tWORKDIR\tENVS\n"
                                       "on_host\techo \"ran in $(pwd)\"\t~\t-\n");
  g_autofree char *target = g_build_filename (cli->dir, "out", "targets", "on_host", NULL);
  g_autofree char *rep = g_build_filename (target, "nsys", "on_host.nsys-rep", NULL);
  g_autofree char *ncu_rep = g_build_filename (target, "ncu", "barrier_heavy.ncu-rep", NULL);
  g_autofree char *db = g_build_filename (target, "nsys", "on_host.sqlite", NULL);
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *ran_in = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonParser) again = json_parser_new ();
  JsonObject *remote;
  WsTestRun run = { 0 };

  /* `~` is the host's home (the server's sessions have one of their own),
   * not this one's. */
  ran_in = g_strdup_printf ("\nran in %s\n", cli->sshd->home);
  run_cli (cli, &run, "capture", "--targets", cli->targets, "--host", cli->sshd->alias,
           "--remote-dir", cli->remote_dir, "--topn", "1", "--leave-reports", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "[STEP 6/6] 完成 on_host"));
  g_assert_nonnull (strstr (run.out, "on_host: done: "));
  /* WORKDIR `~` is the home folder there; the program's output comes. */
  g_assert_nonnull (strstr (run.out, ran_in));
  ws_test_run_clear (&run);
  ws_test_assert_same_file (db, sqlite);
  g_assert_false (g_file_test (rep, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (ncu_rep, G_FILE_TEST_EXISTS));
  remote = json_object_get_object_member (ws_test_read_manifest (target, parser), "remote");
  g_assert_cmpstr (json_object_get_string_member (remote, "reports"), ==, "on host");

  run_cli (cli, &run, "fetch", target, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, ": 2 copied, 3 here already, 0 not on the host"));
  ws_test_run_clear (&run);
  g_assert_true (g_file_test (rep, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (ncu_rep, G_FILE_TEST_IS_REGULAR));
  {
    g_autofree char *there =
      g_build_filename (cli->remote_dir, "targets", "on_host", "nsys", "on_host.nsys-rep", NULL);

    ws_test_assert_same_file (rep, there);
  }
  remote = json_object_get_object_member (ws_test_read_manifest (target, again), "remote");
  g_assert_cmpstr (json_object_get_string_member (remote, "reports"), ==, "copied");

  /* Everything is here: nothing more to copy. */
  run_cli (cli, &run, "fetch", target, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, ": 0 copied, 5 here already"));
  ws_test_run_clear (&run);

  /* A folder that was not captured on a host is refused, with status 2. */
  run_cli (cli, &run, "fetch", cli->dir, NULL);
  g_assert_cmpint (run.status, ==, 2);
  ws_test_run_clear (&run);
}

/* A copy cut by the server's death resumes with fetch: the .part grows
 * to the whole file, which matches the host's checksum. */
static void
test_fetch_resumes_a_cut_copy (void)
{
  g_autoptr (Cli) cli = cli_new (TRUE, "cut\ttrue\t-\t-\n");
  g_autofree char *target = g_build_filename (cli->dir, "out", "targets", "cut", NULL);
  g_autofree char *db = g_build_filename (target, "nsys", "cut.sqlite", NULL);
  g_autofree char *part = g_strconcat (db, ".part", NULL);
  g_autofree char *sqlite = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *files;
  WsTestRun run = { 0 };
  GStatBuf st;
  gint64 kept;
  gboolean resumed = FALSE;

  /* The capture copies at 1000 KiB/s; the server goes after a second. */
  {
    g_autofree char *bwlimit = g_strdup ("1000");
    g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
    g_autofree char *ssh = g_strdup_printf ("WARPSCOPE_SSH=%s", cli->sshd->ssh_command);
    g_autoptr (GSubprocess) capture = NULL;
    g_autoptr (GError) error = NULL;
    gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

    g_ptr_array_add (argv, g_strdup ("env"));
    g_ptr_array_add (argv, g_strdup ("-C"));
    g_ptr_array_add (argv, g_strdup (cli->dir));
    g_ptr_array_add (argv, g_strdup (ssh));
    g_ptr_array_add (argv, g_strdup (ws_test_cli ()));
    g_ptr_array_add (argv, g_strdup ("capture"));
    g_ptr_array_add (argv, g_strdup ("--targets"));
    g_ptr_array_add (argv, g_strdup (cli->targets));
    g_ptr_array_add (argv, g_strdup ("--host"));
    g_ptr_array_add (argv, g_strdup (cli->sshd->alias));
    g_ptr_array_add (argv, g_strdup ("--remote-dir"));
    g_ptr_array_add (argv, g_strdup (cli->remote_dir));
    g_ptr_array_add (argv, g_strdup ("--topn"));
    g_ptr_array_add (argv, g_strdup ("1"));
    g_ptr_array_add (argv, g_strdup ("--bwlimit"));
    g_ptr_array_add (argv, g_strdup (bwlimit));
    g_ptr_array_add (argv, NULL);
    capture = g_subprocess_newv ((const char *const *) argv->pdata,
                                 G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
    g_assert_no_error (error);
    /* Kill the server once a megabyte of the export is here. */
    while (g_stat (part, &st) != 0 || st.st_size < 1000 * 1000)
      {
        g_assert_cmpint (g_get_monotonic_time (), <, deadline);
        g_usleep (20 * 1000);
      }
    ws_test_sshd_kill (cli->sshd);
    g_subprocess_wait (capture, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (g_subprocess_get_exit_status (capture), ==, 1);
  }
  g_assert_false (g_file_test (db, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_stat (part, &st), ==, 0);
  kept = st.st_size;
  g_assert_cmpint (kept, <, 5115904);

  ws_test_sshd_start_again (cli->sshd);
  run_cli (cli, &run, "fetch", target, NULL);
  g_assert_cmpint (run.status, ==, 0);
  ws_test_run_clear (&run);
  ws_test_assert_same_file (db, sqlite);
  g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
  files = json_object_get_array_member (
    json_object_get_object_member (ws_test_read_manifest (target, parser), "remote"), "files");
  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject *file = json_array_get_object_element (files, i);

      if (g_str_equal (json_object_get_string_member (file, "path"), "nsys/cut.sqlite"))
        {
          g_assert_cmpstr (json_object_get_string_member (file, "state"), ==, "copied");
          g_assert_cmpint (json_object_get_int_member (file, "resumed_from"), ==, kept);
          resumed = TRUE;
        }
    }
  g_assert_true (resumed);
}

/* doctor --host checks the host, the stand-ins found on its PATH; an
 * unknown host key is an error there, with status 1. */
static void
test_doctor_host (void)
{
  g_autoptr (Cli) cli = cli_new (TRUE, "");
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *nsys_line = g_strdup_printf ("[ok] nsys 2025.3.1.0 (%s/nsys)", stand_ins);
  g_autofree char *on = g_strdup_printf ("On %s:\n", cli->sshd->alias);
  WsTestRun run = { 0 };

  run_cli (cli, &run, "doctor", "--host", cli->sshd->alias, "--remote-dir", cli->remote_dir, NULL);
  g_assert_true (g_str_has_prefix (run.out, on));
  g_assert_nonnull (strstr (run.out, nsys_line));
  g_assert_nonnull (strstr (run.out, "[ok] Connected to wstest"));
  g_assert_nonnull (strstr (run.out, "free in "));
  ws_test_run_clear (&run);

  ws_test_sshd_forget_key (cli->sshd);
  run_cli (cli, &run, "doctor", "--host", cli->sshd->alias, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "[error] wstest: the host key is not known"));
  g_assert_nonnull (strstr (run.out, "fix, on wstest:"));
  ws_test_run_clear (&run);
}

/* Processes here whose command line holds @text. */
static guint
local_processes (const char *text)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%s/cmdline", name);
      g_autofree char *cmdline = NULL;
      gsize len = 0;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &cmdline, &len, NULL))
        continue;
      for (gsize i = 0; i + 1 < len; i++)
        if (cmdline[i] == '\0')
          cmdline[i] = ' ';
      n += strstr (cmdline, text) != NULL;
    }
  return n;
}

/* warpscope-cli dies (SIGKILL) while the program runs on the host:
 * nothing of the run is left there, and its connection goes too, here
 * (the ssh master) and there (sshd's session). */
static void
test_killed_leaves_nothing (void)
{
  g_autofree char *marker = g_strdup_printf ("WS_MARK=%08x", g_random_int ());
  g_autofree char *text = g_strdup_printf ("long\tsleep 300\t-\t%s\n", marker);
  g_autoptr (Cli) cli = cli_new (TRUE, text);
  g_autofree char *ssh = g_strdup_printf ("WARPSCOPE_SSH=%s", cli->sshd->ssh_command);
  const char *argv[] = { "env",
                         "-C",
                         cli->dir,
                         ssh,
                         ws_test_cli (),
                         "capture",
                         "--targets",
                         cli->targets,
                         "--host",
                         cli->sshd->alias,
                         "--remote-dir",
                         cli->remote_dir,
                         NULL };
  g_autoptr (GSubprocess) capture = NULL;
  g_autoptr (GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  capture = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  g_assert_no_error (error);
  for (;;)
    {
      g_autofree char *there = ws_test_sshd_processes (cli->sshd, marker);

      if (strstr (there, "sleep 300") != NULL)
        break;
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (100 * 1000);
    }
  g_assert_cmpuint (local_processes (cli->sshd->config), >, 0);
  g_subprocess_force_exit (capture);
  g_subprocess_wait (capture, NULL, NULL);

  /* Within the wrapper's grace period and a margin. */
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  for (;;)
    {
      g_autofree char *there = ws_test_sshd_processes (cli->sshd, marker);
      guint here = local_processes (cli->sshd->config);
      guint sessions = ws_test_sshd_sessions (cli->sshd);

      /* ps's own ssh is the one session then, and gone now. */
      if (there[0] == '\0' && here == 0 && sessions == 0)
        break;
      if (g_get_monotonic_time () > deadline)
        g_error ("left: %u here, %u sessions there, and\n%s", here, sessions, there);
      g_usleep (200 * 1000);
    }
}

/* A capture folder sent by someone else: its run.json names the host, and
 * nothing in it may run anything.  ssh is a stand-in that records its
 * arguments and then runs the real ssh, so that an option that reached
 * it would act (ProxyCommand runs its command before any connection). */
typedef struct
{
  char *dir;
  char *target;   /* the capture folder */
  char *recorded; /* what the stand-in ssh was called with, if it was */
  char *marker;   /* what `-oProxyCommand=touch MARKER` would make */
  char *ssh;      /* WARPSCOPE_SSH=the stand-in */
} Foreign;

static void
foreign_free (Foreign *foreign)
{
  ws_test_rmtree (foreign->dir);
  g_free (foreign->dir);
  g_free (foreign->target);
  g_free (foreign->recorded);
  g_free (foreign->marker);
  g_free (foreign->ssh);
  g_free (foreign);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Foreign, foreign_free)

static Foreign *
foreign_new (void)
{
  Foreign *foreign = g_new0 (Foreign, 1);
  g_autofree char *script = NULL;
  g_autofree char *stand_in = NULL;

  foreign->dir = ws_test_tmpdir ();
  foreign->target = g_build_filename (foreign->dir, "sent", NULL);
  foreign->recorded = g_build_filename (foreign->dir, "ssh-argv", NULL);
  foreign->marker = g_build_filename (foreign->dir, "pwned", NULL);
  stand_in = g_build_filename (foreign->dir, "ssh", NULL);
  script = g_strdup_printf ("#!/bin/sh\nprintf '[%%s] ' \"$@\" >> '%s'\necho >> '%s'\n"
                            "exec ssh -o BatchMode=yes -o ConnectTimeout=5 \"$@\"\n",
                            foreign->recorded, foreign->recorded);
  g_assert_true (g_file_set_contents (stand_in, script, -1, NULL));
  g_assert_cmpint (g_chmod (stand_in, 0755), ==, 0);
  foreign->ssh = g_strdup_printf ("WARPSCOPE_SSH=%s", stand_in);
  g_assert_cmpint (g_mkdir (foreign->target, 0755), ==, 0);
  return foreign;
}

/* Writes run.json with @remote as its "remote" member and runs fetch. */
static void
foreign_fetch (Foreign *foreign, const char *remote, WsTestRun *run)
{
  g_autofree char *manifest = g_build_filename (foreign->target, "run.json", NULL);
  g_autofree char *json =
    g_strdup_printf ("{\"outputs\": {\"sqlite\": \"nsys/sent.sqlite\"}, \"remote\": %s}", remote);
  const char *argv[] = { "env", foreign->ssh, ws_test_cli (), "fetch", foreign->target, NULL };

  g_assert_true (g_file_set_contents (manifest, json, -1, NULL));
  ws_test_run_bounded (argv, 120, run);
  g_test_message ("exit %d\nstdout:\n%s\nstderr:\n%s", run->status, run->out, run->err);
  g_assert_false (run->timed_out);
}

/* The last line of @text, without its newline. */
static char *
last_line (const char *text)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  const char *nl = strrchr (copy, '\n');

  return g_strdup (nl != NULL ? nl + 1 : copy);
}

/* A destination that reads as an option is refused with the file and the
 * field named; ssh never runs, its option never acts. */
static void
test_fetch_destination_option (void)
{
  g_autoptr (Foreign) foreign = foreign_new ();
  g_autofree char *remote = g_strdup_printf (
    "{\"host\": \"h\", \"destination\": \"-oProxyCommand=touch %s\", \"dir\": \"/tmp/x\"}",
    foreign->marker);
  g_autofree char *expected =
    g_strdup_printf ("%s/run.json: remote.destination: ", foreign->target);
  g_autofree char *line = NULL;
  WsTestRun run = { 0 };

  foreign_fetch (foreign, remote, &run);
  g_assert_cmpint (run.status, ==, 2);
  line = last_line (run.err);
  g_assert_true (g_str_has_prefix (line, expected) || strstr (line, expected) != NULL);
  g_assert_nonnull (strstr (line, "starts with “-”"));
  ws_test_run_clear (&run);
  g_assert_false (g_file_test (foreign->marker, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (foreign->recorded, G_FILE_TEST_EXISTS));
}

/* Ports out of 1–65535 (a negative one became -p 4294967291) are refused
 * with the file and the field named; ssh never runs. */
static void
test_fetch_port_range (void)
{
  const char *const ports[] = { "-5", "70000", "0", "\"22\"" };

  for (gsize i = 0; i < G_N_ELEMENTS (ports); i++)
    {
      g_autoptr (Foreign) foreign = foreign_new ();
      g_autofree char *remote = g_strdup_printf (
        "{\"host\": \"h\", \"destination\": \"127.0.0.1\", \"port\": %s, \"dir\": \"/tmp/x\"}",
        ports[i]);
      g_autofree char *expected = g_strdup_printf ("%s/run.json: remote.port: ", foreign->target);
      g_autofree char *line = NULL;
      WsTestRun run = { 0 };

      foreign_fetch (foreign, remote, &run);
      g_assert_cmpint (run.status, ==, 2);
      line = last_line (run.err);
      g_assert_nonnull (strstr (line, expected));
      ws_test_run_clear (&run);
      g_assert_false (g_file_test (foreign->recorded, G_FILE_TEST_EXISTS));
    }
}

/* A key file from run.json reaches ssh as -i's argument: one that reads
 * as an option, names no file, a folder, a device or another user's file
 * is refused with the file and the field named; ssh never runs. */
static void
test_fetch_identity (void)
{
  g_autoptr (Foreign) probe = foreign_new ();
  g_autofree char *option = g_strdup_printf ("-oProxyCommand=touch %s", probe->marker);
  const char *const identities[] = { option, "/nonexistent/key", "/tmp", "/dev/null",
                                     "/etc/passwd" };
  const char *const reasons[] = { "starts with “-”", "No such file", "not a regular file",
                                  "not a regular file", "belongs to another user" };

  for (gsize i = 0; i < G_N_ELEMENTS (identities); i++)
    {
      g_autoptr (Foreign) foreign = foreign_new ();
      g_autofree char *remote = NULL;
      g_autofree char *expected =
        g_strdup_printf ("%s/run.json: remote.identity: ", foreign->target);
      g_autofree char *line = NULL;
      WsTestRun run = { 0 };

      /* /etc/passwd is root's: only another user can be refused for it. */
      if (i == 4 && getuid () == 0)
        continue;
      remote = g_strdup_printf ("{\"host\": \"h\", \"destination\": \"127.0.0.1\", \"identity\": "
                                "\"%s\", \"dir\": \"/tmp/x\"}",
                                identities[i]);
      foreign_fetch (foreign, remote, &run);
      g_assert_cmpint (run.status, ==, 2);
      line = last_line (run.err);
      g_assert_nonnull (strstr (line, expected));
      g_assert_nonnull (strstr (line, reasons[i]));
      ws_test_run_clear (&run);
      g_assert_false (g_file_test (foreign->recorded, G_FILE_TEST_EXISTS));
    }
  g_assert_false (g_file_test (probe->marker, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-remote/capture/host-then-fetch-reports", test_capture_host_then_fetch);
  g_test_add_func ("/cli-remote/fetch/resumes-a-cut-copy", test_fetch_resumes_a_cut_copy);
  g_test_add_func ("/cli-remote/doctor/host", test_doctor_host);
  g_test_add_func ("/cli-remote/crash/leaves-nothing-here-or-there", test_killed_leaves_nothing);
  g_test_add_func ("/cli-remote/fetch/destination-option-never-runs",
                   test_fetch_destination_option);
  g_test_add_func ("/cli-remote/fetch/port-out-of-range-refused", test_fetch_port_range);
  g_test_add_func ("/cli-remote/fetch/identity-not-a-key-of-yours-refused", test_fetch_identity);

  return g_test_run ();
}
