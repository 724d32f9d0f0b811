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

/* A FIFO is written into, as a shell's `>` does: its reader gets the
 * bytes, and it stays a FIFO. */
static void
test_fifo_in_place (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *fifo = g_build_filename (dir, "out.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  g_autoptr (GPtrArray) listed = NULL;
  WsTestFifoReader *reader;
  GStatBuf st;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  reader = ws_test_fifo_reader_start (fifo);
  g_assert_true (ws_atomic_file_save (fifo, "through the pipe", 16, WS_ATOMIC_FILE_BACKUP, &error));
  g_assert_no_error (error);
  got = ws_test_fifo_reader_finish (reader, 30);
  g_assert_nonnull (got);
  g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got), "through the pipe", 16);
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  /* No backup of a FIFO, no temporary file left beside it. */
  listed = ws_test_list_dir (dir);
  g_assert_cmpuint (listed->len, ==, 1);
  ws_test_rmtree (dir);
}

/* A device is written into and stays a device; a full one says so, with
 * the device's name, and leaves nothing behind. */
static void
test_device_in_place (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *null = g_build_filename (dir, "null", NULL);
  g_autofree char *full = g_build_filename (dir, "full", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *tmp = NULL;
  g_autoptr (GPtrArray) listed = NULL;
  GStatBuf st;
  int fd = -1;

  if (!ws_test_make_device (null, 1, 3) || !ws_test_make_device (full, 1, 7))
    {
      g_test_skip ("cannot make device nodes here (not root)");
      ws_test_rmtree (dir);
      return;
    }
  g_assert_true (ws_atomic_file_save (null, "gone", 4, WS_ATOMIC_FILE_DEFAULT, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_lstat (null, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));

  g_assert_false (ws_atomic_file_save (full, "no room", 7, WS_ATOMIC_FILE_DEFAULT, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_true (g_str_has_prefix (error->message, full));
  g_clear_error (&error);
  g_assert_cmpint (g_lstat (full, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));

  /* The writers that stage a file of their own (Chrome trace, images,
   * digests) go through the same two calls. */
  tmp = ws_atomic_file_create_temp (full, &fd, &error);
  g_assert_no_error (error);
  g_assert_false (g_str_has_prefix (tmp, dir));
  g_assert_cmpint (write (fd, "x", 1), ==, 1);
  close (fd);
  g_assert_false (ws_atomic_file_commit (tmp, full, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_false (g_file_test (tmp, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_lstat (full, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  listed = ws_test_list_dir (dir);
  g_assert_cmpuint (listed->len, ==, 2);
  ws_test_rmtree (dir);
}

/* Through a link to a file not made yet, the file is made and the link
 * kept, as `>` does; a folder is refused with its name. */
static void
test_dangling_link_and_folder (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *real = g_build_filename (dir, "later.png", NULL);
  g_autofree char *link = g_build_filename (dir, "link.png", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  GStatBuf st;
  mode_t mask;

  g_assert_cmpint (symlink ("later.png", link), ==, 0);
  g_assert_true (ws_atomic_file_save (link, "made", 4, WS_ATOMIC_FILE_DEFAULT, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  contents = ws_test_read (real);
  g_assert_cmpstr (contents, ==, "made");
  /* A new file gets 0666 less the umask, as open() gives. */
  mask = umask (022);
  umask (mask);
  g_assert_cmpint (g_stat (real, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0666 & ~mask);

  g_assert_false (ws_atomic_file_save (dir, "x", 1, WS_ATOMIC_FILE_DEFAULT, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_assert_true (g_str_has_prefix (error->message, dir));
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
  g_test_add_func ("/atomic-file/save/fifo-written-in-place", test_fifo_in_place);
  g_test_add_func ("/atomic-file/save/device-written-in-place", test_device_in_place);
  g_test_add_func ("/atomic-file/save/dangling-link-and-folder", test_dangling_link_and_folder);
  g_test_add_func ("/atomic-file/kill/never-partial", test_kill_never_partial);

  return g_test_run ();
}
