/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the ncu CSV reader (raw and details pages, preambles,
 * units rows), the gauges and verdicts computed from what loads, and the
 * run made of them. */
#include "config.h"

#include <glib/gstdio.h>

#include "fuzz-util.h"
#include "ws-gauges.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  const char *path = fuzz_write_input (data, size, "_ncu_raw.csv");
  GError *error = NULL;
  WsNcuResults *results;

  if (path == NULL)
    return 0;
  ws_ncu_reader_sniff ((const char *) data, MIN (size, 1024));
  results = ws_ncu_reader_load_file (path, &error);
  if (results != NULL)
    {
      WsRun *run;

      ws_gauges_compute_all (results);
      run = ws_run_new_from_ncu (results);

      for (guint i = 0; i < ws_ncu_results_n_launches (results); i++)
        ws_ncu_match_verdict_for (results, ws_ncu_results_launch (results, i)->kernel);
      ws_run_unref (run);
      ws_ncu_results_unref (results);
    }
  g_clear_error (&error);
  g_unlink (path);
  return 0;
}
