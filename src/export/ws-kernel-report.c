/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kernel-report"
#include "config.h"

#include "ws-kernel-report.h"

/* A grid or block as the report's SQL prints it: printf('%4d %4d %4d'). */
static char *
dims_cell (const guint32 *dims)
{
  return g_strdup_printf ("%4u %4u %4u", dims[0], dims[1], dims[2]);
}

/**
 * ws_kern_gb_sum_write:
 * @rows: (element-type WsKernGbRow): from ws_kern_gb_sum() of @names
 *
 * Writes `nsys stats --report cuda_gpu_kern_gb_sum`: cuda_gpu_kern_sum's
 * columns with GridXYZ and BlockXYZ before the name, with the same
 * rounding (docs/formats.md, "cuda_gpu_kern_gb_sum").
 */
void
ws_kern_gb_sum_write (const WsKernelNames *names, GArray *rows, WsOutputFormat format, GString *out)
{
  static const char *const headers[] = {
    "Time (%)", "Total Time (ns)", "Instances", "Avg (ns)", "Med (ns)", "Min (ns)",
    "Max (ns)", "StdDev (ns)",     "GridXYZ",   "BlockXYZ", "Name",
  };
  static const gboolean numeric[] = { TRUE, TRUE, TRUE, TRUE, TRUE, TRUE,
                                      TRUE, TRUE, TRUE, TRUE, FALSE };
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  gboolean g = format != WS_FORMAT_CSV;

  for (guint i = 0; i < rows->len; i++)
    {
      const WsKernGbRow *row = &g_array_index (rows, WsKernGbRow, i);

      g_ptr_array_add (cells, ws_table_fixed_cell (row->percent, 1, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->stats.total, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->stats.count, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->stats.avg, 1, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->stats.med, 1, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->stats.min, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->stats.max, g));
      g_ptr_array_add (cells, ws_table_fixed_cell (row->stats.stddev, 1, g));
      g_ptr_array_add (cells, dims_cell (row->grid));
      g_ptr_array_add (cells, dims_cell (row->block));
      g_ptr_array_add (cells, g_strdup (ws_kernel_names_get (names, row->kernel)));
    }
  ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, format, out);
}

/* The five statistics of one of a launch's times: the mean, median and
 * deviation with one decimal, the extremes whole.  With no value (no
 * launch had a queue time) the first four are empty and the deviation
 * 0.0, as nsys prints them. */
static void
add_stats (GPtrArray *cells, const WsGroupStats *stats, gboolean grouping)
{
  if (stats->count == 0)
    {
      for (int i = 0; i < 4; i++)
        g_ptr_array_add (cells, g_strdup (""));
      g_ptr_array_add (cells, ws_table_fixed_cell (0.0, 1, grouping));
      return;
    }
  g_ptr_array_add (cells, ws_table_fixed_cell (stats->avg, 1, grouping));
  g_ptr_array_add (cells, ws_table_fixed_cell (stats->med, 1, grouping));
  g_ptr_array_add (cells, ws_table_int_cell (stats->min, grouping));
  g_ptr_array_add (cells, ws_table_int_cell (stats->max, grouping));
  g_ptr_array_add (cells, ws_table_fixed_cell (stats->stddev, 1, grouping));
}

/**
 * ws_kern_exec_sum_write:
 * @rows: (element-type WsKernExecRow): from ws_kern_exec_sum() of @names
 *
 * Writes `nsys stats --report cuda_kern_exec_sum`: with %WS_FORMAT_CSV
 * byte for byte what nsys 2025.3 prints.
 */
void
ws_kern_exec_sum_write (const WsKernelNames *names, GArray *rows, WsOutputFormat format,
                        GString *out)
{
  static const char *const headers[] = {
    "PID",          "TID",          "DevId",        "Count",        "QCount",    "TAvg (ns)",
    "TMed (ns)",    "TMin (ns)",    "TMax (ns)",    "TStdDev (ns)", "AAvg (ns)", "AMed (ns)",
    "AMin (ns)",    "AMax (ns)",    "AStdDev (ns)", "QAvg (ns)",    "QMed (ns)", "QMin (ns)",
    "QMax (ns)",    "QStdDev (ns)", "KAvg (ns)",    "KMed (ns)",    "KMin (ns)", "KMax (ns)",
    "KStdDev (ns)", "API Name",     "Kernel Name",
  };
  gboolean numeric[G_N_ELEMENTS (headers)];
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  gboolean g = format != WS_FORMAT_CSV;

  for (guint c = 0; c < G_N_ELEMENTS (headers); c++)
    numeric[c] = c < G_N_ELEMENTS (headers) - 2;
  for (guint i = 0; i < rows->len; i++)
    {
      const WsKernExecRow *row = &g_array_index (rows, WsKernExecRow, i);

      /* Ids, not quantities: never grouped in thousands. */
      g_ptr_array_add (cells, g_strdup_printf ("%u", row->pid));
      g_ptr_array_add (cells, g_strdup_printf ("%u", row->tid));
      g_ptr_array_add (cells, g_strdup_printf ("%d", row->device));
      g_ptr_array_add (cells, ws_table_int_cell (row->total.count, g));
      g_ptr_array_add (cells, ws_table_int_cell (row->queue.count, g));
      add_stats (cells, &row->total, g);
      add_stats (cells, &row->api_time, g);
      add_stats (cells, &row->queue, g);
      add_stats (cells, &row->kernel_time, g);
      g_ptr_array_add (cells, g_strdup (row->api));
      g_ptr_array_add (cells, g_strdup (ws_kernel_names_get (names, row->kernel)));
    }
  ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, format, out);
}
