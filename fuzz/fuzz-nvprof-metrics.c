/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: nvprof's `--metrics` / `--events` results, text and
 * CSV, read through the nvprof log reader into profiled launches, then
 * gauged as the loader gauges them.  A value read is finite and a level
 * is 0–10. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-gauges.h"
#include "ws-nvprof-log.h"
#include "ws-nvprof-metrics.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsNcuResults) metrics = NULL;
  GPtrArray *results;

  results = ws_nvprof_log_parse ("fuzz_metrics.txt", text, strlen (text), &metrics, &error);
  if (results == NULL)
    {
      if (metrics != NULL || error == NULL)
        __builtin_trap ();
      return 0;
    }
  g_ptr_array_unref (results);
  if (metrics == NULL)
    return 0;
  for (guint i = 0; i < metrics->metrics->len; i++)
    {
      const WsNcuMetric *m = g_ptr_array_index (metrics->metrics, i);

      for (guint l = 0; l < m->n_alloc; l++)
        if (isinf (m->values[l]) || (g_str_equal (m->base_unit, "level") && !isnan (m->values[l]) &&
                                     (m->values[l] < 0 || m->values[l] > 10)))
          __builtin_trap ();
    }
  ws_gauges_compute_all (metrics);
  for (guint l = 0; l < ws_ncu_results_n_launches (metrics); l++)
    {
      const WsGauges *g = ws_ncu_results_gauges (metrics, l);

      for (int k = 0; k < WS_N_GAUGES; k++)
        g_free (ws_gauge_format_value (&g->gauge[k]));
    }
  return 0;
}
