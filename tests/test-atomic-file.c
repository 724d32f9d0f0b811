/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-atomic-file.h"
#include "ws-test-util.h"

static void
test_replaces_and_keeps_backup (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "targets.tsv", NULL);
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  g_assert_true (ws_atomic_file_save (path, "one\n", 4, WS_ATOMIC_FILE_BACKUP, &error));
  g_assert_no_error (error);
  /* Nothing to back up the first time. */
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));

  g_assert_cmpint (g_chmod (path, 0640), ==, 0);
  g_assert_true (ws_atomic_file_save (path, "two\n", 4, WS_ATOMIC_FILE_BACKUP, &error));
  g_assert_no_error (error);
  contents = ws_test_read (path);
  g_assert_cmpstr (contents, ==, "two\n");
  g_free (contents);
  contents = ws_test_read (backup);
  g_assert_cmpstr (contents, ==, "one\n");
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0640);

  /* Without the flag, the backup stays as it was. */
  g_assert_true (ws_atomic_file_save (path, "three\n", 6, WS_ATOMIC_FILE_DEFAULT, &error));
  g_free (contents);
  contents = ws_test_read (backup);
  g_assert_cmpstr (contents, ==, "one\n");
  ws_test_rmtree (dir);
}

/* Saving through a symbolic link replaces the file it names, not the link. */
static void
test_follows_link (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *real = g_build_filename (dir, "real.tsv", NULL);
  g_autofree char *link = g_build_filename (dir, "link.tsv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (real, "old", -1, NULL));
  g_assert_cmpint (symlink ("real.tsv", link), ==, 0);
  g_assert_true (ws_atomic_file_save (link, "new", 3, WS_ATOMIC_FILE_BACKUP, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  contents = ws_test_read (real);
  g_assert_cmpstr (contents, ==, "new");
  ws_test_rmtree (dir);
}

static void
test_error_names_file (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "missing", "targets.tsv", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_false (ws_atomic_file_save (path, "x", 1, WS_ATOMIC_FILE_DEFAULT, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_true (g_str_has_prefix (error->message, path));
  ws_test_rmtree (dir);
}

#define BIG (4 * 1024 * 1024)

static char *
big_contents (char fill)
{
  char *data = g_malloc (BIG);

  memset (data, fill, BIG);
  /* Different ends and beginnings, so that a file made of parts of both
   * is told from either. */
  memcpy (data, fill == 'a' ? "AAAA" : "BBBB", 4);
  memcpy (data + BIG - 4, fill == 'a' ? "aEND" : "bEND", 4);
  return data;
}

/* A process killed with SIGKILL at random moments while it saves a large
 * file over and over leaves the old or the new file, never a part of one;
 * the same holds for the backup. */
static void
test_kill_never_partial (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "big.tsv", NULL);
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  g_autofree char *a = big_contents ('a');
  g_autofree char *b = big_contents ('b');
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261121);
  g_autoptr (GError) error = NULL;
  guint seen_a = 0, seen_b = 0;

  g_assert_true (ws_atomic_file_save (path, a, BIG, WS_ATOMIC_FILE_DEFAULT, &error));
  for (guint round = 0; round < 30; round++)
    {
      g_autofree char *head = NULL;
      gboolean on_disk_a;
      GStatBuf before, now;
      pid_t child;
      int status;

      g_assert_true (g_file_get_contents (path, &head, NULL, NULL));
      on_disk_a = head[0] == 'A';
      g_assert_cmpint (g_stat (path, &before), ==, 0);

      child = fork ();
      g_assert_cmpint (child, >=, 0);
      if (child == 0)
        {
          /* The first save writes the version that is not on disk. */
          for (guint i = 0;; i++)
            ws_atomic_file_save (path, (i % 2 == 0) == on_disk_a ? b : a, BIG,
                                 WS_ATOMIC_FILE_BACKUP, NULL);
        }
      if (round % 2 == 1)
        {
          /* Every other round, kill only once a save went through, so that
           * both versions are seen whatever the disk's speed. */
          gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

          while (g_stat (path, &now) == 0 && now.st_ino == before.st_ino &&
                 g_get_monotonic_time () < deadline)
            g_usleep (200);
        }
      g_usleep (g_rand_int_range (rand, 0, 20000));
      g_assert_cmpint (kill (child, SIGKILL), ==, 0);
      g_assert_cmpint (waitpid (child, &status, 0), ==, child);
      g_assert_true (WIFSIGNALED (status));

      for (guint f = 0; f < 2; f++)
        {
          const char *file = f == 0 ? path : backup;
          g_autofree char *contents = NULL;
          gsize len = 0;

          if (f == 1 && !g_file_test (backup, G_FILE_TEST_EXISTS))
            continue;
          g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
          g_assert_cmpuint (len, ==, BIG);
          if (memcmp (contents, a, BIG) == 0)
            seen_a += f == 0;
          else if (memcmp (contents, b, BIG) == 0)
            seen_b += f == 0;
          else
            g_assert_not_reached ();
        }
    }
  /* The kills fell at different moments: both versions were seen. */
  g_test_message ("old %u times, new %u times", seen_a, seen_b);
  g_assert_cmpuint (seen_a, >, 0);
  g_assert_cmpuint (seen_b, >, 0);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/atomic-file/save/replaces-and-keeps-backup", test_replaces_and_keeps_backup);
  g_test_add_func ("/atomic-file/save/follows-symbolic-link", test_follows_link);
  g_test_add_func ("/atomic-file/save/error-names-file", test_error_names_file);
  g_test_add_func ("/atomic-file/kill/never-partial", test_kill_never_partial);

  return g_test_run ();
}
