/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauges"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-bars-chart.h"
#include "ws-gauges-table.h"
#include "ws-kernel-name.h"
#include "ws-ncu-match.h"

/**
 * ws_gauges_table_write:
 * @format: %WS_FORMAT_TABLE for terminals, %WS_FORMAT_MARKDOWN for documents
 * @width: for a table, the terminal's width the kernel names give way to
 *   (ws_table_fit_width()); Markdown keeps full names
 *
 * The gauges of each profiled launch as a table, then each launch's
 * verdict with its reason, what was not collected, and the launches that
 * match no kernel of the nsys run.
 */
void
ws_gauges_table_write (const WsRun *run, WsOutputFormat format, guint width, GString *out)
{
  const WsNcuResults *ncu = run->ncu;
  /* A column per gauge, in the order of WsGaugeKind. */
  guint n_columns = 2 + WS_N_GAUGES + 1;
  g_autofree const char **headers = g_new0 (const char *, n_columns);
  g_autofree gboolean *numeric = g_new0 (gboolean, n_columns);
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) missing = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) unmatched = ws_ncu_match_unmatched (ncu);

  headers[0] = _ ("ID");
  headers[1] = _ ("Kernel");
  numeric[0] = TRUE;
  for (int kind = 0; kind < WS_N_GAUGES; kind++)
    {
      headers[2 + kind] = ws_gauge_label ((WsGaugeKind) kind);
      numeric[2 + kind] = TRUE;
    }
  headers[n_columns - 1] = _ ("Verdict");

  for (guint i = 0; i < ws_ncu_results_n_launches (ncu); i++)
    {
      const WsGauges *gauges = ws_ncu_results_gauges (ncu, i);

      g_ptr_array_add (cells, g_strdup_printf ("%u", i));
      g_ptr_array_add (cells, g_strdup (ws_ncu_results_label (ncu, i)));
      for (int kind = 0; kind < WS_N_GAUGES; kind++)
        {
          const WsGauge *gauge = &gauges->gauge[kind];
          char *value = ws_gauge_format_value (gauge);

          if (value == NULL)
            {
              value = g_strdup ("-");
              g_hash_table_add (missing, (gpointer) ws_gauge_label ((WsGaugeKind) kind));
            }
          g_ptr_array_add (cells, value);
        }
      g_ptr_array_add (cells, g_strdup (ws_verdict_label (gauges->verdict)));
    }
  if (format == WS_FORMAT_TABLE)
    ws_table_fit_width (n_columns, headers, cells, 1, width);
  ws_table_write (n_columns, headers, numeric, cells, format, out);

  g_string_append_c (out, '\n');
  for (guint i = 0; i < ws_ncu_results_n_launches (ncu); i++)
    {
      const WsGauges *gauges = ws_ncu_results_gauges (ncu, i);

      if (format == WS_FORMAT_MARKDOWN)
        g_string_append (out, "- ");
      /* TRANSLATORS: "3  Compute: SM 87.65% ≥ 60% and DRAM 5.92% < 40%; SOL: High throughput: …" */
      g_string_append_printf (out, _ ("%u  %s: %s; speed of light: %s (%s)\n"), i,
                              ws_verdict_label (gauges->verdict), gauges->verdict_reason,
                              ws_sol_verdict_label (gauges->sol), gauges->sol_reason);
    }
  if (g_hash_table_size (missing) > 0)
    g_string_append_printf (out, "\n%s\n",
                            _ ("“-”: not collected; `--format json` says what would collect it."));
  if (unmatched->len > 0)
    {
      g_string_append_printf (out, "\n%s\n",
                              _ ("Profiled launches that match no kernel of the nsys run:"));
      for (guint j = 0; j < unmatched->len; j++)
        {
          guint i = g_array_index (unmatched, guint, j);
          g_autofree char *why = ws_ncu_unmatched_reason (run, ncu, i);

          g_string_append_printf (
            out, format == WS_FORMAT_MARKDOWN ? "- %u  %s (%s)\n" : "  %u  %s (%s)\n", i,
            ws_ncu_results_launch (ncu, i)->kernel, why);
        }
    }
}
