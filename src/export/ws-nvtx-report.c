/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvtx-report"
#include "config.h"

#include "ws-format.h"
#include "ws-nvtx-report.h"

static char *
fixed (double value, gboolean grouping)
{
  GString *out = g_string_new (NULL);

  ws_format_fixed (out, value, 1, grouping);
  return g_string_free (out, FALSE);
}

static char *
integer (gint64 value, gboolean grouping)
{
  GString *out = g_string_new (NULL);

  ws_format_int (out, value, grouping);
  return g_string_free (out, FALSE);
}

/**
 * ws_nvtx_proj_sum_write:
 * @rows: (element-type WsNvtxProjRow): from ws_nvtx_gpu_proj_sum()
 *
 * Writes `nsys stats --report nvtx_gpu_proj_sum`: with %WS_FORMAT_CSV
 * byte for byte what nsys 2025.3 prints.
 */
void
ws_nvtx_proj_sum_write (GArray *rows, WsOutputFormat format, GString *out)
{
  static const char *const headers[] = {
    "Range",
    "Style",
    "Total Proj Time (ns)",
    "Total Range Time (ns)",
    "Range Instances",
    "Proj Avg (ns)",
    "Proj Med (ns)",
    "Proj Min (ns)",
    "Proj Max (ns)",
    "Proj StdDev (ns)",
    "Total GPU Ops",
    "Avg GPU Ops",
    "Avg Range Lvl",
    "Avg Num Child",
  };
  static const gboolean numeric[] = { FALSE, FALSE, TRUE, TRUE, TRUE, TRUE, TRUE,
                                      TRUE,  TRUE,  TRUE, TRUE, TRUE, TRUE, TRUE };
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  gboolean g = format != WS_FORMAT_CSV;

  for (guint i = 0; i < rows->len; i++)
    {
      const WsNvtxProjRow *row = &g_array_index (rows, WsNvtxProjRow, i);

      g_ptr_array_add (cells, g_strdup (row->name));
      g_ptr_array_add (cells, g_strdup (row->style));
      g_ptr_array_add (cells, integer (row->proj_total, g));
      g_ptr_array_add (cells, integer (row->range_total, g));
      g_ptr_array_add (cells, integer (row->instances, g));
      g_ptr_array_add (cells, fixed (row->proj_avg, g));
      g_ptr_array_add (cells, fixed (row->proj_med, g));
      g_ptr_array_add (cells, integer (row->proj_min, g));
      g_ptr_array_add (cells, integer (row->proj_max, g));
      g_ptr_array_add (cells, fixed (row->proj_stddev, g));
      g_ptr_array_add (cells, integer (row->ops, g));
      g_ptr_array_add (cells, fixed (row->avg_ops, g));
      g_ptr_array_add (cells, fixed (row->avg_level, g));
      g_ptr_array_add (cells, fixed (row->avg_children, g));
    }
  ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, format, out);
}

/**
 * ws_nvtx_kern_sum_write:
 * @rows: (element-type WsNvtxKernRow): from ws_nvtx_kern_sum() of @run
 *
 * Writes `nsys stats --report nvtx_kern_sum`: with %WS_FORMAT_CSV byte for
 * byte what nsys 2025.3 prints.
 */
void
ws_nvtx_kern_sum_write (const WsRun *run, GArray *rows, WsOutputFormat format, GString *out)
{
  static const char *const headers[] = {
    "NVTX Range", "Style",           "PID",         "TID",      "NVTX Inst",
    "Kern Inst",  "Total Time (ns)", "Avg (ns)",    "Med (ns)", "Min (ns)",
    "Max (ns)",   "StdDev (ns)",     "Kernel Name",
  };
  static const gboolean numeric[] = { FALSE, FALSE, TRUE, TRUE, TRUE, TRUE, TRUE,
                                      TRUE,  TRUE,  TRUE, TRUE, TRUE, FALSE };
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  gboolean g = format != WS_FORMAT_CSV;

  for (guint i = 0; i < rows->len; i++)
    {
      const WsNvtxKernRow *row = &g_array_index (rows, WsNvtxKernRow, i);

      g_ptr_array_add (cells, g_strdup (row->range != NULL ? row->range : ""));
      g_ptr_array_add (cells, g_strdup (row->style != NULL ? row->style : ""));
      /* The process and thread are those of the launch call: none when it
       * is unknown. */
      g_ptr_array_add (cells, row->has_thread ? g_strdup_printf ("%u", row->pid) : g_strdup (""));
      g_ptr_array_add (cells, row->has_thread ? g_strdup_printf ("%u", row->tid) : g_strdup (""));
      g_ptr_array_add (cells, integer (row->ranges, g));
      g_ptr_array_add (cells, integer (row->kernels, g));
      g_ptr_array_add (cells, integer (row->total, g));
      g_ptr_array_add (cells, fixed (row->avg, g));
      g_ptr_array_add (cells, fixed (row->med, g));
      g_ptr_array_add (cells, integer (row->min, g));
      g_ptr_array_add (cells, integer (row->max, g));
      g_ptr_array_add (cells, fixed (row->stddev, g));
      g_ptr_array_add (cells, g_strdup (ws_run_string (run, row->kernel)));
    }
  ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, format, out);
}
