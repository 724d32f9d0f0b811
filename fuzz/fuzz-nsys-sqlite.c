/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the nsys SQLite reader on mutated exports, and the
 * summaries of what loads.  The input is written to a file in memory
 * (/dev/shm) because the reader opens files, as the app does. */
#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "ws-nsys-reader.h"
#include "ws-stats.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  static char *path;
  GError *error = NULL;
  WsRun *run;

  if (path == NULL)
    path =
      g_strdup_printf ("%s/warpscope-fuzz-%d.sqlite",
                       g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir (),
                       (int) getpid ());
  if (!g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    return 0;
  run = ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  if (run != NULL)
    {
      ws_run_compute_summaries (run);
      ws_run_unref (run);
    }
  g_clear_error (&error);
  g_unlink (path);
  return 0;
}
