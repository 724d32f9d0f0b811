/* SPDX-License-Identifier: GPL-3.0-or-later */
/* posix_openpt(), grantpt(), unlockpt(), ptsname() */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ws-test-util.h"

/* Issue 46, item 3: every string read from a file passes one escaping
 * (ws_format_escape_control, ws_format_escape_terminal) before a
 * terminal.  Names here hold clear-screen (ESC [2J), a colour (ESC [31m),
 * a title-set (ESC ]0;…BEL), a BEL and a line break, written by SQL into
 * real exports and a real digest.  Text reports and messages never carry
 * them raw; CSV and collapsed stacks keep them exact in a pipe (they are
 * data) and escape them on a terminal. */

#define EVIL "evil\nline \033[31mRED\007\033]0;title\007\033[2J"

static char *tmp;

/* Whether @text holds ESC, BEL or another C0 control but line breaks and tabs. */
static gboolean
has_raw_control (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
      return TRUE;
  return FALSE;
}

/* A copy of the real probe export whose longest kernel is named EVIL
 * (its short and demangled names); @slower doubles that kernel's time. */
static char *
evil_export (const char *name, gboolean slower)
{
  g_autofree char *source = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *contents = NULL;
  char *copy = g_build_filename (tmp, name, NULL);
  g_autofree char *sql = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) len, NULL));
  sql = g_strdup_printf (
    "CREATE TEMP TABLE top AS SELECT shortName AS s, demangledName AS d"
    "  FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY shortName ORDER BY sum(end - start) DESC LIMIT 1;"
    "UPDATE StringIds SET value = '%s' WHERE id IN (SELECT s FROM top UNION SELECT d FROM top);"
    "%s",
    EVIL,
    slower ? "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = end + (end - start)"
             "  WHERE shortName = (SELECT s FROM top);"
           : "");
  ws_test_sqlite_exec (copy, sql);
  return copy;
}

static void
run (const char *const *args, char **out, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  ws_test_run ((const char *const *) argv->pdata, out, err);
}

/* The compare headline names the kernel that changed most: escaped, on
 * one line, as its table cell is. */
static void
test_compare_headline (void)
{
  g_autofree char *before = evil_export ("before.sqlite", FALSE);
  g_autofree char *after = evil_export ("after.sqlite", TRUE);
  const char *args[] = { "compare", before, after, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *first = NULL;

  run (args, &out, &err);
  g_assert_false (has_raw_control (out));
  g_assert_false (has_raw_control (err));
  first = g_strndup (out, strcspn (out, "\n"));
  g_test_message ("headline: %s", first);
  g_assert_nonnull (strstr (first, "\\x1b[31mRED\\x07"));
  g_assert_nonnull (strstr (out, "\\x1b[2J"));
}

/* A digest whose host, process, command and job hold escapes: ranks,
 * info, diagnose and steps print none of them raw. */
static void
test_digest_strings (void)
{
  g_autofree char *job = g_build_filename (tmp, "job", NULL);
  g_autofree char *digest = g_build_filename (job, "job.wsdigest", NULL);
  g_autofree char *r0 = NULL;
  g_autofree char *r1 = NULL;
  g_autofree char *made = NULL;
  g_autofree char *sql = NULL;
  const char *const commands[] = { "ranks", "info", "diagnose", "steps" };

  g_assert_cmpint (g_mkdir (job, 0700), ==, 0);
  r0 = ws_test_unxz ("multirank/rank0.sqlite.xz", job);
  r1 = ws_test_unxz ("multirank/rank1.sqlite.xz", job);
  {
    const char *args[] = { "digest", "-o", digest, r0, r1, NULL };

    made = ws_test_cli_expect (args, 0, NULL);
  }
  sql = g_strdup_printf ("UPDATE ranks SET host = '%s', process = '%s', command = '%s', job = '%s'",
                         EVIL, EVIL, EVIL, EVIL);
  ws_test_sqlite_exec (digest, sql);
  {
    g_autofree char *host = ws_test_sqlite_text (digest, "SELECT host FROM ranks LIMIT 1");

    g_assert_cmpstr (host, ==, EVIL);
  }
  for (gsize c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      const char *args[] = { commands[c], digest, NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      run (args, &out, &err);
      g_test_message ("%s:\n%s%s", commands[c], out, err);
      g_assert_false (has_raw_control (out));
      g_assert_false (has_raw_control (err));
    }
}

/* Standard output on a terminal: what @args prints there. */
static char *
run_on_terminal (const char *const *args)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GError) error = NULL;
  GString *said = g_string_new (NULL);
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  char buf[4096];
  ssize_t len;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_take_stdout_fd (launcher,
                                        open (ptsname (master), O_RDWR | O_NOCTTY | O_CLOEXEC));
  process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_clear_object (&launcher);
  /* The terminal reads end of file (EIO) once the program has ended. */
  while ((len = read (master, buf, sizeof buf)) > 0)
    g_string_append_len (said, buf, len);
  g_assert_true (g_subprocess_wait (process, NULL, NULL));
  close (master);
  return g_string_free (said, FALSE);
}

/* Collapsed stacks and CSV are data: exact in a pipe, escaped on a terminal. */
static void
test_data_formats_on_a_terminal (void)
{
  g_autofree char *stacks = g_build_filename (tmp, "evil.collapsed", NULL);
  g_autofree char *probe = evil_export ("csv.sqlite", FALSE);
  const char *flame[] = { "flame", stacks, NULL };
  const char *csv[] = { "stats", "--format", "csv", probe, NULL };
  const char *const *both[] = { flame, csv };

  g_assert_true (
    g_file_set_contents (stacks, "main;evil\033[2J\007frame;leaf 10\nmain;ok 5\n", -1, NULL));
  for (gsize i = 0; i < G_N_ELEMENTS (both); i++)
    {
      g_autofree char *piped = NULL;
      g_autofree char *err = NULL;
      g_autofree char *shown = NULL;

      run (both[i], &piped, &err);
      g_assert_nonnull (strstr (piped, "\033[2J"));
      shown = run_on_terminal (both[i]);
      g_test_message ("%s on a terminal:\n%s", both[i][0], shown);
      g_assert_null (strchr (shown, '\033'));
      g_assert_null (strchr (shown, '\007'));
      g_assert_nonnull (strstr (shown, "\\x1b[2J"));
    }
}

/* A target named with escapes: the capture's lines name it escaped; its
 * log keeps it exact. */
static void
test_capture_target_name (void)
{
  g_autofree char *targets = g_build_filename (tmp, "targets.tsv", NULL);
  g_autofree char *outdir = g_build_filename (tmp, "out", NULL);
  const char *args[] = { "capture", "--targets", targets, "-o", outdir, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  ws_test_use_stand_ins ();
  g_assert_true (g_file_set_contents (
    targets, "NAME\tCMD\tWORKDIR\tENVS\nev\033[2Jil\007\ttrue\t-\t-\n", -1, NULL));
  run (args, &out, &err);
  g_test_message ("stdout:\n%s\nstderr:\n%s", out, err);
  g_assert_nonnull (strstr (out, "ev\\x1b[2Jil\\x07"));
  g_assert_false (has_raw_control (out));
  g_assert_false (has_raw_control (err));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  g_test_add_func ("/terminal-escapes/compare-headline", test_compare_headline);
  g_test_add_func ("/terminal-escapes/digest-strings", test_digest_strings);
  g_test_add_func ("/terminal-escapes/data-formats-on-a-terminal", test_data_formats_on_a_terminal);
  g_test_add_func ("/terminal-escapes/capture-target-name", test_capture_target_name);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  return status;
}
