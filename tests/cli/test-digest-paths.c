/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "ws-test-util.h"

/* Issue 46, item 4: a digest names its ranks' exports, and a digest is a
 * file from anywhere.  The commands that look at the exports compare their
 * first MiB with the digest's checksum; they open only what lies in the
 * digest's folder or below it.  A rank path of an outside file, a relative
 * path climbing out, or a link beside the digest that leads out is refused
 * in one line and never opened: inotify watches the outside file while
 * each command runs (a command that answers says the refusal; one
 * refused for another reason, such as a digest without steps, says that
 * alone).  The outside file is rank 1's real export with its first MiB
 * changed: read, it would be said to differ, as the same file placed
 * inside is. */

static char *tmp;
static char *job;     /* the digest's folder: rank0.sqlite, rank1.sqlite, the digest */
static char *outside; /* beside it: rank1.sqlite, changed */
static char *digest;

static const char *const commands[] = { "steps", "flame", "gauges", "rollup", "ranks", "diagnose" };

static void
make_job (void)
{
  g_autofree char *changed = NULL;
  g_autofree char *r0 = NULL;
  g_autofree char *r1 = NULL;
  g_autofree char *out = NULL;

  tmp = ws_test_tmpdir ();
  job = g_build_filename (tmp, "job", NULL);
  outside = g_build_filename (tmp, "outside", NULL);
  digest = g_build_filename (job, "job.wsdigest", NULL);
  g_assert_cmpint (g_mkdir (job, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (outside, 0700), ==, 0);
  r0 = ws_test_unxz ("multirank/rank0.sqlite.xz", job);
  r1 = ws_test_unxz ("multirank/rank1.sqlite.xz", job);
  {
    const char *args[] = { "digest", "-o", digest, r0, r1, NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  changed = ws_test_unxz ("multirank/rank1.sqlite.xz", outside);
  ws_test_sqlite_exec (changed, "PRAGMA user_version = 7");
}

/* A copy of the digest, in the job's folder, whose rank 1 names @file
 * (relative to the digest) and @path (where it was). */
static char *
digest_naming (const char *name, const char *file, const char *path)
{
  g_autofree char *contents = NULL;
  g_autofree char *sql =
    g_strdup_printf ("UPDATE ranks SET file = '%s', path = '%s' WHERE rank = 1", file, path);
  char *copy = g_build_filename (job, name, NULL);
  gsize len;

  g_assert_true (g_file_get_contents (digest, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) len, NULL));
  ws_test_sqlite_exec (copy, sql);
  return copy;
}

/* Whether @watch saw @file opened since the last call. */
static gboolean
opened (int watch)
{
  char buf[4096] __attribute__ ((aligned (__alignof__(struct inotify_event))));
  ssize_t len = read (watch, buf, sizeof buf);

  if (len < 0)
    g_assert_cmpint (errno, ==, EAGAIN);
  return len > 0;
}

/* Each command on @path: @watched is never opened; where the command
 * answers, one line says rank 1's export lies outside, and nothing says
 * it was read. */
static void
assert_refused_everywhere (const char *path, const char *watched)
{
  int watch = inotify_init1 (IN_CLOEXEC | IN_NONBLOCK);

  g_assert_cmpint (watch, >=, 0);
  g_assert_cmpint (inotify_add_watch (watch, watched, IN_OPEN | IN_ACCESS), >=, 0);
  for (gsize c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      const char *argv[] = { ws_test_cli (), commands[c], path, NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *line = g_strdup_printf ("%s: rank 1's export ", path);
      int status = ws_test_run (argv, &out, &err);
      const char *at = strstr (err, line);

      g_test_message ("%s: exit %d: %s", commands[c], status, err);
      g_assert_false (opened (watch));
      g_assert_null (strstr (err, "first MiB differs"));
      g_assert_null (strstr (err, "changed since the digest was made"));
      if (status == 2)
        {
          g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
          continue;
        }
      g_assert_cmpint (status, ==, 0);
      g_assert_nonnull (at);
      g_assert_nonnull (strstr (at, "lies outside the digest's folder: not opened\n"));
      g_assert_null (strstr (at + 1, line));
    }
  close (watch);
}

static void
test_absolute_path_outside (void)
{
  g_autofree char *elsewhere = g_build_filename (outside, "rank1.sqlite", NULL);
  g_autofree char *evil = digest_naming ("absolute.wsdigest", "gone.sqlite", elsewhere);

  assert_refused_everywhere (evil, elsewhere);
}

static void
test_system_file (void)
{
  g_autofree char *evil =
    digest_naming ("passwd.wsdigest", "../../../../../../../../etc/passwd", "/etc/passwd");

  assert_refused_everywhere (evil, "/etc/passwd");
}

static void
test_relative_path_climbing_out (void)
{
  g_autofree char *evil =
    digest_naming ("climb.wsdigest", "../outside/rank1.sqlite", "/nonexistent");
  g_autofree char *target = g_build_filename (outside, "rank1.sqlite", NULL);

  assert_refused_everywhere (evil, target);
}

static void
test_link_leading_out (void)
{
  g_autofree char *link = g_build_filename (job, "link.sqlite", NULL);
  g_autofree char *target = g_build_filename (outside, "rank1.sqlite", NULL);
  g_autofree char *evil = NULL;

  g_assert_cmpint (symlink (target, link), ==, 0);
  evil = digest_naming ("link.wsdigest", "link.sqlite", link);
  assert_refused_everywhere (evil, target);
}

/* The same changed file inside the digest's folder is read, and said to
 * have changed: the checks above would have seen a read. */
static void
test_inside_is_read (void)
{
  g_autofree char *sub = g_build_filename (job, "sub", NULL);
  g_autofree char *inside = g_build_filename (sub, "rank1.sqlite", NULL);
  g_autofree char *source = g_build_filename (outside, "rank1.sqlite", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *good = NULL;
  guint said = 0;
  gsize len;

  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (inside, contents, (gssize) len, NULL));
  good = digest_naming ("inside.wsdigest", "sub/rank1.sqlite", inside);
  for (gsize c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      const char *argv[] = { ws_test_cli (), commands[c], good, NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      if (ws_test_run (argv, &out, &err) != 0)
        continue;
      said++;
      g_assert_nonnull (strstr (err, "its first MiB differs"));
      g_assert_null (strstr (err, "lies outside"));
    }
  /* ranks and diagnose answer on this digest. */
  g_assert_cmpuint (said, ==, 2);
}

/* A digest copied away from its job: every rank's export lies outside
 * its folder; one line says so for all of them. */
static void
test_digest_away_from_its_job (void)
{
  g_autofree char *folder = g_build_filename (tmp, "away", NULL);
  g_autofree char *away = g_build_filename (folder, "away.wsdigest", NULL);
  g_autofree char *contents = NULL;
  const char *argv[] = { ws_test_cli (), "ranks", away, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gsize len;

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_true (g_file_get_contents (digest, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (away, contents, (gssize) len, NULL));
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
  g_assert_nonnull (strstr (err, "2 exports it names lie outside its folder and were not opened"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  make_job ();
  g_test_add_func ("/digest-paths/absolute-path-outside-is-refused", test_absolute_path_outside);
  g_test_add_func ("/digest-paths/etc-passwd-is-refused", test_system_file);
  g_test_add_func ("/digest-paths/relative-path-climbing-out-is-refused",
                   test_relative_path_climbing_out);
  g_test_add_func ("/digest-paths/link-leading-out-is-refused", test_link_leading_out);
  g_test_add_func ("/digest-paths/inside-the-folder-is-read", test_inside_is_read);
  g_test_add_func ("/digest-paths/away-from-its-job-one-line", test_digest_away_from_its_job);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  return status;
}
