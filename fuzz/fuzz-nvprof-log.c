/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the nvprof console log and `--csv` summary reader
 * (writing what it read back as tables), and the GPU trace reader. */
#include "config.h"

#include "ws-nvprof-log.h"
#include "ws-nvprof-trace.h"
#include "ws-summary-table.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  GError *error = NULL;
  GPtrArray *results;

  results = ws_nvprof_log_parse ("fuzz_nvprof.txt", text, strlen (text), NULL, &error);
  if (results != NULL)
    {
      g_autoptr (GString) out = g_string_new (NULL);

      for (guint i = 0; i < results->len; i++)
        {
          WsNvprofResult *r = g_ptr_array_index (results, i);
          WsSummary *summaries[] = { r->kernels, r->memops, r->api };

          for (gsize s = 0; s < G_N_ELEMENTS (summaries); s++)
            if (summaries[s] != NULL)
              {
                ws_summary_table_write (summaries[s], WS_FORMAT_CSV, out);
                ws_summary_table_write (summaries[s], WS_FORMAT_TABLE, out);
              }
        }
      g_ptr_array_unref (results);
    }
  g_clear_error (&error);
  {
    WsRun *run = ws_nvprof_trace_parse ("fuzz_gpu_trace.csv", text, strlen (text), &error);

    if (run != NULL)
      ws_run_unref (run);
    g_clear_error (&error);
  }
  return 0;
}
