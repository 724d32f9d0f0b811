/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-range-bottleneck"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-range-bottleneck-table.h"

static void
write_csv (GArray *rows, GString *out)
{
  g_string_append (out, "range,gpu_ns");
  for (int c = 0; c < WS_N_ROLLUP; c++)
    g_string_append_printf (out, ",%s_ns", ws_rollup_class_id ((WsRollupClass) c));
  g_string_append_c (out, '\n');
  for (guint i = 0; i < rows->len; i++)
    {
      const WsRangeBottleneck *row = &g_array_index (rows, WsRangeBottleneck, i);

      ws_csv_append_field (out, row->name);
      g_string_append_printf (out, ",%" G_GINT64_FORMAT, row->gpu_ns);
      for (int c = 0; c < WS_N_ROLLUP; c++)
        g_string_append_printf (out, ",%" G_GINT64_FORMAT, row->ns[c]);
      g_string_append_c (out, '\n');
    }
}

static char *
share (gint64 part, gint64 whole)
{
  g_autofree char *num = whole > 0 ? ws_format_fixed_string (100.0 * part / whole, 1) : NULL;

  return num != NULL ? g_strdup_printf ("%s%%", num) : g_strdup ("");
}

/**
 * ws_range_bottleneck_table_write:
 * @top: rows to write at most, 0 for all; ranges without GPU time are
 *   left out of the table and Markdown forms
 *
 * Writes the roll-up as CSV (range,gpu_ns,compute_ns,memory_ns,
 * latency_ns,mixed_ns,unprofiled_ns: the range as nvtx_sum names it,
 * times in ns), as an aligned table or as Markdown (shares of each
 * range's GPU time).
 */
void
ws_range_bottleneck_table_write (GArray *rows, WsOutputFormat format, guint top, GString *out)
{
  const char *headers[WS_N_ROLLUP + 3];
  gboolean numeric[WS_N_ROLLUP + 3] = { FALSE };
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  guint n = 0;

  if (format == WS_FORMAT_CSV)
    {
      write_csv (rows, out);
      return;
    }
  headers[0] = _ ("Range");
  headers[1] = _ ("GPU time");
  numeric[1] = TRUE;
  for (int c = 0; c < WS_N_ROLLUP; c++)
    {
      headers[2 + c] = ws_rollup_class_label ((WsRollupClass) c);
      numeric[2 + c] = TRUE;
    }
  headers[WS_N_ROLLUP + 2] = _ ("Bottleneck");
  for (guint i = 0; i < rows->len && (top == 0 || n < top); i++)
    {
      const WsRangeBottleneck *row = &g_array_index (rows, WsRangeBottleneck, i);

      if (row->gpu_ns <= 0)
        continue;
      g_ptr_array_add (cells, g_strdup (row->name[0] == ':' ? row->name + 1 : row->name));
      g_ptr_array_add (cells, ws_format_duration ((double) row->gpu_ns));
      for (int c = 0; c < WS_N_ROLLUP; c++)
        g_ptr_array_add (cells, share (row->ns[c], row->gpu_ns));
      g_ptr_array_add (cells, ws_range_bottleneck_text (row));
      n++;
    }
  ws_table_write (WS_N_ROLLUP + 3, headers, numeric, cells, format, out);
}
