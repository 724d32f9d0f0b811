/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauges"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-gauge.h"

void
ws_gauges_clear (WsGauges *gauges)
{
  g_clear_pointer (&gauges->verdict_reason, g_free);
  g_clear_pointer (&gauges->sol_reason, g_free);
}

const char *
ws_gauge_label (WsGaugeKind kind)
{
  static const char *const labels[WS_N_GAUGES] = {
    N_ ("Duration"),  N_ ("SM"),      N_ ("Memory"),           N_ ("DRAM"),
    N_ ("Tensor"),    N_ ("FP32"),    N_ ("L1 hit"),           N_ ("L2 hit"),
    N_ ("Occupancy"), N_ ("Barrier"), N_ ("Short scoreboard"), N_ ("Long scoreboard"),
  };

  g_return_val_if_fail (kind < WS_N_GAUGES, "");
  return _ (labels[kind]);
}

/* The column of `warpscope-cli gauges --format csv`. */
const char *
ws_gauge_csv_column (WsGaugeKind kind)
{
  static const char *const columns[WS_N_GAUGES] = {
    "duration_ns",
    "sm_pct",
    "memory_pct",
    "dram_pct",
    "tensor_pct",
    "fp32_pct",
    "l1_hit_pct",
    "l2_hit_pct",
    "occupancy_pct",
    "stall_barrier",
    "stall_short_scoreboard",
    "stall_long_scoreboard",
  };

  g_return_val_if_fail (kind < WS_N_GAUGES, "");
  return columns[kind];
}

/* How full a % gauge is, in [0, 1]; NaN for gauges that are not % or not collected. */
double
ws_gauge_fraction (const WsGauge *gauge)
{
  if (!gauge->collected || !g_str_equal (gauge->unit, "%"))
    return NAN;
  return CLAMP (gauge->value / 100.0, 0.0, 1.0);
}

/**
 * ws_gauge_format_value:
 *
 * Returns: (transfer full) (nullable): the value for people ("97.8%",
 * "381.79 µs", "12.67"), or %NULL when not collected
 */
char *
ws_gauge_format_value (const WsGauge *gauge)
{
  if (!gauge->collected)
    return NULL;
  if (g_str_equal (gauge->unit, "ns"))
    return ws_format_duration (gauge->value);
  if (g_str_equal (gauge->unit, "%"))
    {
      g_autofree char *num = ws_format_fixed_string (gauge->value, 1);

      return g_strdup_printf ("%s%%", num);
    }
  return ws_format_fixed_string (gauge->value, 2);
}

/**
 * ws_gauge_not_collected_text:
 *
 * Returns: (transfer full): what to show instead of a value: "not
 * collected (--section SpeedOfLight)", or why the GPU has no such thing
 */
char *
ws_gauge_not_collected_text (const WsGauge *gauge)
{
  if (gauge->absent != NULL)
    return g_strdup (gauge->absent);
  return g_strdup_printf (_ ("not collected (%s)"), gauge->collect);
}
