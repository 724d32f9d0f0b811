/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <unistd.h>

/* Writes a fuzz input to a file in memory (/dev/shm where there is one):
 * the readers open files, as the app does.  The path is reused for every
 * input of the process.  Returns NULL when the file cannot be written. */
static inline const char *
fuzz_write_input (const guint8 *data, size_t size, const char *suffix)
{
  static char *path;

  if (path == NULL)
    path =
      g_strdup_printf ("%s/warpscope-fuzz-%d%s",
                       g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir (),
                       (int) getpid (), suffix);
  if (!g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    return NULL;
  return path;
}
