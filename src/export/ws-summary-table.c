/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-summary-writer"
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ws-atomic-file.h"
#include "ws-format.h"
#include "ws-summary-table.h"

static const char *const time_headers[][10] = {
  [WS_SUMMARY_KERN_SUM] = { "Time (%)", "Total Time (ns)", "Instances", "Avg (ns)", "Med (ns)",
                            "Min (ns)", "Max (ns)", "StdDev (ns)", "Name", NULL },
  [WS_SUMMARY_NVTX_SUM] = { "Time (%)", "Total Time (ns)", "Instances", "Avg (ns)", "Med (ns)",
                            "Min (ns)", "Max (ns)", "StdDev (ns)", "Style", "Range" },
  [WS_SUMMARY_API_SUM] = { "Time (%)", "Total Time (ns)", "Num Calls", "Avg (ns)", "Med (ns)",
                           "Min (ns)", "Max (ns)", "StdDev (ns)", "Name", NULL },
  [WS_SUMMARY_MEM_TIME_SUM] = { "Time (%)", "Total Time (ns)", "Count", "Avg (ns)", "Med (ns)",
                                "Min (ns)", "Max (ns)", "StdDev (ns)", "Operation", NULL },
  [WS_SUMMARY_MEM_SIZE_SUM] = { "Total (MB)", "Count", "Avg (MB)", "Med (MB)", "Min (MB)",
                                "Max (MB)", "StdDev (MB)", "Operation", NULL },
  [WS_SUMMARY_OSRT_SUM] = { "Time (%)", "Total Time (ns)", "Num Calls", "Avg (ns)", "Med (ns)",
                            "Min (ns)", "Max (ns)", "StdDev (ns)", "Name", NULL },
};

/**
 * ws_summary_table_new:
 * @grouping: thousands separators (the console form)
 *
 * Returns: (transfer full): the cells of @summary as nsys prints them.
 */
WsSummaryTable *
ws_summary_table_new (const WsSummary *summary, gboolean grouping)
{
  WsSummaryTable *self = g_new0 (WsSummaryTable, 1);
  const char *const *headers = time_headers[summary->kind];

  self->headers = headers;
  while (self->n_columns < 10 && headers[self->n_columns] != NULL)
    {
      const char *h = headers[self->n_columns];

      self->numeric[self->n_columns] = !g_str_equal (h, "Name") && !g_str_equal (h, "Style") &&
                                       !g_str_equal (h, "Range") && !g_str_equal (h, "Operation");
      self->n_columns++;
    }
  self->cells = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < summary->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);
      GPtrArray *c = self->cells;

      if (summary->kind == WS_SUMMARY_MEM_SIZE_SUM)
        {
          /* MB = bytes / 10^6, three decimals. */
          g_ptr_array_add (c, ws_table_fixed_cell ((double) row->total / 1e6, 3, grouping));
          g_ptr_array_add (c, ws_table_int_cell (row->count, grouping));
          g_ptr_array_add (c, ws_table_fixed_cell (row->avg / 1e6, 3, grouping));
          g_ptr_array_add (c, ws_table_fixed_cell (row->med / 1e6, 3, grouping));
          g_ptr_array_add (c, ws_table_fixed_cell ((double) row->min / 1e6, 3, grouping));
          g_ptr_array_add (c, ws_table_fixed_cell ((double) row->max / 1e6, 3, grouping));
          g_ptr_array_add (c, ws_table_fixed_cell (row->stddev / 1e6, 3, grouping));
          g_ptr_array_add (c, g_strdup (row->name));
          continue;
        }

      g_ptr_array_add (c, ws_table_fixed_cell (row->percent, 1, grouping));
      g_ptr_array_add (c, ws_table_int_cell (row->total, grouping));
      g_ptr_array_add (c, ws_table_int_cell (row->count, grouping));
      g_ptr_array_add (c, ws_table_fixed_cell (row->avg, 1, grouping));
      g_ptr_array_add (c, ws_table_fixed_cell (row->med, 1, grouping));
      g_ptr_array_add (c, ws_table_int_cell (row->min, grouping));
      g_ptr_array_add (c, ws_table_int_cell (row->max, grouping));
      g_ptr_array_add (c, ws_table_fixed_cell (row->stddev, 1, grouping));
      if (summary->kind == WS_SUMMARY_NVTX_SUM)
        g_ptr_array_add (c, g_strdup (row->style != NULL ? row->style : ""));
      g_ptr_array_add (c, g_strdup (row->name));
    }
  return self;
}

void
ws_summary_table_free (WsSummaryTable *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->cells, g_ptr_array_unref);
  g_free (self);
}

void
ws_summary_table_write (const WsSummary *summary, WsOutputFormat format, GString *out)
{
  g_autoptr (WsSummaryTable) table = ws_summary_table_new (summary, format != WS_FORMAT_CSV);

  ws_table_write (table->n_columns, table->headers, table->numeric, table->cells, format, out);
}

/**
 * ws_summary_table_base_name:
 *
 * Returns: (transfer full): the run's first file name without its
 * extension: the `<base>` of nsys's `<base>_<report>.csv`.
 */
char *
ws_summary_table_base_name (const WsRun *run)
{
  g_autofree char *base = g_strdup (ws_run_display_name (run));
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  if (base[0] == '\0')
    return g_strdup ("run");
  return g_steal_pointer (&base);
}

/**
 * ws_summary_table_write_csv_dir:
 * @base: (nullable): the file name prefix; the run's base name by default
 *
 * Writes each summary the run has as `<base>_<report>.csv` in @dir, exactly
 * as `nsys stats --format csv --output <dir>/<base>` names and writes them.
 *
 * Returns: (transfer full) (element-type filename): the files written, or
 * %NULL with @error set.
 */
GPtrArray *
ws_summary_table_write_csv_dir (const WsRun *run, const char *dir, const char *base, GError **error)
{
  g_autoptr (GPtrArray) written = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *prefix = base != NULL ? g_strdup (base) : ws_summary_table_base_name (run);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", dir,
                   g_strerror (saved));
      return NULL;
    }
  for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
    {
      g_autoptr (WsSummary) summary = ws_stats_summary (run, kind, WS_NAME_DEMANGLED);
      g_autoptr (GString) out = NULL;
      g_autofree char *name = NULL;
      char *path;

      if (summary == NULL)
        continue;
      out = g_string_new (NULL);
      ws_summary_table_write (summary, WS_FORMAT_CSV, out);
      name = g_strdup_printf ("%s_%s.csv", prefix, ws_summary_kind_to_string (kind));
      path = g_build_filename (dir, name, NULL);
      g_ptr_array_add (written, path);
      if (!ws_atomic_file_save (path, out->str, out->len, WS_ATOMIC_FILE_DEFAULT, error))
        return NULL;
    }
  return g_steal_pointer (&written);
}
