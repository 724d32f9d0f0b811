/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-test-capture.h"
#include "ws-test-util.h"

/**
 * ws_test_unpack_capture:
 * @archive: a .tar.xz of tests/data/captures (made by `warpscope-cli
 *   capture` on a GPU machine)
 * @folder: the target's folder inside it
 * @tmpdir: (out): the new temporary folder it is unpacked into, for the
 *   caller to remove
 *
 * Unpacks @archive with the real tar and xz.
 *
 * Returns: (transfer full): the path of @folder
 */
char *
ws_test_unpack_capture (const char *archive, const char *folder, char **tmpdir)
{
  g_autofree char *path = ws_test_data ("captures", archive, NULL);
  g_autofree char *tar = g_find_program_in_path ("tar");
  const char *argv[] = { tar, "-xJf", path, "-C", NULL, NULL };

  g_assert_nonnull (tar);
  *tmpdir = ws_test_tmpdir ();
  argv[4] = *tmpdir;
  g_assert_cmpint (ws_test_run (argv, NULL, NULL), ==, 0);
  return g_build_filename (*tmpdir, folder, NULL);
}
