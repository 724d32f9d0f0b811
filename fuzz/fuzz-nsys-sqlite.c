/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the nsys SQLite reader on mutated exports, and the
 * summaries of what loads. */
#include "config.h"

#include <glib/gstdio.h>

#include "fuzz-util.h"
#include "ws-nsys-reader.h"
#include "ws-stats-build.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  const char *path = fuzz_write_input (data, size, ".sqlite");
  GError *error = NULL;
  WsRun *run;

  if (path == NULL)
    return 0;
  run = ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  if (run != NULL)
    {
      ws_stats_set_summaries (run);
      ws_run_unref (run);
    }
  g_clear_error (&error);
  g_unlink (path);
  return 0;
}
