/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: PyTorch profiler (Kineto) traces: the sniff of the
 * table of inputs, the pull tokenizer and the reader, from memory and
 * from a file (where a gzip head is inflated). */
#include "config.h"

#include <gio/gio.h>

#include "fuzz-util.h"
#include "ws-input.h"
#include "ws-kineto-reader.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  GError *error = NULL;
  GInputStream *in = g_memory_input_stream_new_from_data (data, (gssize) size, NULL);
  WsRun *run = ws_kineto_reader_load_stream (in, "fuzz.json", NULL, &error);
  const char *path;

  g_clear_pointer (&run, ws_run_unref);
  g_clear_error (&error);
  g_object_unref (in);

  path = fuzz_write_input (data, size, ".json");
  if (path != NULL && ws_input_detect (path, NULL) == WS_INPUT_KINETO)
    {
      run = ws_kineto_reader_load (path, NULL, NULL, NULL, &error);
      g_clear_pointer (&run, ws_run_unref);
      g_clear_error (&error);
    }
  return 0;
}
