/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-range-bottleneck"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-format.h"
#include "ws-ncu-kernels.h"
#include "ws-range-bottleneck.h"

/* The roll-up's column of a launch's verdict. */
WsRollupClass
ws_rollup_class (WsVerdict verdict)
{
  switch (verdict)
    {
      case WS_VERDICT_COMPUTE:
        return WS_ROLLUP_COMPUTE;
      case WS_VERDICT_MEMORY:
        return WS_ROLLUP_MEMORY;
      case WS_VERDICT_LATENCY:
        return WS_ROLLUP_LATENCY;
      case WS_VERDICT_MIXED:
        return WS_ROLLUP_MIXED;
      case WS_VERDICT_UNKNOWN:
      case WS_VERDICT_NONE:
      case WS_N_VERDICTS:
      default:
        return WS_ROLLUP_UNPROFILED;
    }
}

static void
row_clear (gpointer data)
{
  WsRangeBottleneck *row = data;

  g_free (row->name);
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const WsRangeBottleneck *x = a, *y = b;

  if (x->gpu_ns != y->gpu_ns)
    return x->gpu_ns > y->gpu_ns ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/**
 * ws_range_bottleneck_compute:
 *
 * @kernels_of: the kernels launched inside a range
 *
 * Per NVTX range name (and domain and style, as nvtx_sum groups them):
 * the GPU time of the kernels launched inside its instances, split by the
 * verdict of the profiled launch that stands for each kernel
 * (ws_ncu_kernel_launches()).  The classes of a row add up to its GPU
 * time.  Safe on a worker thread.
 *
 * Returns: (transfer full) (element-type WsRangeBottleneck): rows, most
 * GPU time first
 */
GArray *
ws_range_bottleneck_compute (const WsRun *run, WsRangeKernelsFunc kernels_of, gpointer user_data)
{
  const WsNvtxRanges *nv = &run->nvtx;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (WsRangeBottleneck));
  g_autoptr (GHashTable) index = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  g_autofree gint32 *launches = ws_ncu_kernel_launches (run);

  g_array_set_clear_func (rows, row_clear);
  for (gsize r = 0; r < nv->n; r++)
    {
      gint64 key =
        ((gint64) nv->name[r] << 17) | ((gint64) nv->domain[r] << 1) | (nv->style[r] & 1);
      gpointer found = g_hash_table_lookup (index, &key);
      WsRangeBottleneck *row;
      g_autoptr (GArray) kernels = NULL;

      if (found == NULL)
        {
          WsRangeBottleneck fresh = { 0 };

          fresh.name = g_strdup_printf ("%s:%s", ws_run_nvtx_domain_name (run, nv->domain[r]),
                                        ws_run_string (run, nv->name[r]));
          fresh.name_id = nv->name[r];
          g_array_append_val (rows, fresh);
          found = GUINT_TO_POINTER (rows->len);
          g_hash_table_insert (index, g_memdup2 (&key, sizeof key), found);
        }
      row = &g_array_index (rows, WsRangeBottleneck, GPOINTER_TO_UINT (found) - 1);
      row->ranges++;
      kernels = kernels_of (r, user_data);
      for (guint i = 0; i < kernels->len; i++)
        {
          guint32 k = g_array_index (kernels, guint32, i);
          gint64 d = run->kernels.end[k] - run->kernels.start[k];
          WsRollupClass c =
            launches[k] >= 0
              ? ws_rollup_class (ws_ncu_results_gauges (run->ncu, (guint) launches[k])->verdict)
              : WS_ROLLUP_UNPROFILED;

          row->ns[c] = ws_time_add (row->ns[c], d);
          row->gpu_ns = ws_time_add (row->gpu_ns, d);
          row->kernels++;
        }
    }
  g_array_sort (rows, compare_rows);
  return rows;
}

const char *
ws_rollup_class_id (WsRollupClass klass)
{
  static const char *const ids[WS_N_ROLLUP] = { "compute", "memory", "latency", "mixed",
                                                "unprofiled" };

  g_return_val_if_fail (klass < WS_N_ROLLUP, "");
  return ids[klass];
}

const char *
ws_rollup_class_label (WsRollupClass klass)
{
  static const char *const labels[WS_N_ROLLUP] = { N_ ("compute-bound"), N_ ("memory-bound"),
                                                   N_ ("latency-bound"), N_ ("mixed"),
                                                   N_ ("not profiled") };

  g_return_val_if_fail (klass < WS_N_ROLLUP, "");
  return _ (labels[klass]);
}

/**
 * ws_range_bottleneck_text:
 *
 * Returns: (transfer full): "61% memory-bound, 30% compute-bound, 9% not
 * profiled": the classes of @row, largest first, in whole percent of its
 * GPU time; "" without GPU time
 */
char *
ws_range_bottleneck_text (const WsRangeBottleneck *row)
{
  GString *text = g_string_new (NULL);
  gboolean done[WS_N_ROLLUP] = { FALSE };

  if (row->gpu_ns <= 0)
    return g_string_free (text, FALSE);
  for (int n = 0; n < WS_N_ROLLUP; n++)
    {
      int best = -1;

      for (int c = 0; c < WS_N_ROLLUP; c++)
        if (!done[c] && row->ns[c] > 0 && (best < 0 || row->ns[c] > row->ns[best]))
          best = c;
      if (best < 0)
        break;
      done[best] = TRUE;
      if (text->len > 0)
        g_string_append (text, ", ");
      /* TRANSLATORS: "61% memory-bound" */
      g_string_append_printf (text, _ ("%.0f%% %s"), 100.0 * row->ns[best] / row->gpu_ns,
                              ws_rollup_class_label ((WsRollupClass) best));
    }
  return g_string_free (text, FALSE);
}
