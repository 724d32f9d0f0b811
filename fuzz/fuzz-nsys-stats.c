/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the nsys stats CSV and console reader, and writing
 * what it read back in every format. */
#include "config.h"

#include "ws-nsys-stats-reader.h"
#include "ws-summary-table.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  GError *error = NULL;
  WsSummary *summary;

  if (!g_utf8_validate (text, -1, NULL))
    return 0;
  summary = ws_nsys_stats_parse ("fuzz_cuda_gpu_kern_sum.csv", text, strlen (text), &error);
  if (summary != NULL)
    {
      g_autoptr (GString) out = g_string_new (NULL);

      ws_summary_table_write (summary, WS_FORMAT_CSV, out);
      ws_summary_table_write (summary, WS_FORMAT_TABLE, out);
      ws_summary_table_write (summary, WS_FORMAT_MARKDOWN, out);
      ws_summary_unref (summary);
    }
  g_clear_error (&error);
  return 0;
}
