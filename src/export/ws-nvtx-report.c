/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvtx-report"
#include "config.h"

#include "ws-format.h"
#include "ws-nvtx-report.h"
#include "ws-summary-table.h"

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
      g_ptr_array_add (cells, ws_table_int_cell (row->proj_total, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->range_total, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->instances, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->proj_avg, 1, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->proj_med, 1, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->proj_min, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->proj_max, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->proj_stddev, 1, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->ops, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->avg_ops, 1, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->avg_level, 1, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->avg_children, 1, g));
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
      g_ptr_array_add (cells, ws_table_int_cell (row->ranges, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->kernels, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->total, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->avg, 1, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->med, 1, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->min, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->max, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->stddev, 1, g));
      g_ptr_array_add (cells, g_strdup (ws_run_string (run, row->kernel)));
    }
  ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, format, out);
}
