/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ncu-value"
#include "config.h"

#include <math.h>

#include "ws-ncu-value.h"

/**
 * ws_ncu_value:
 *
 * Returns: @metric's value for @launch with @metric as its source, or
 * %WS_NCU_VALUE_NONE when the launch has no number for it.  @metric must
 * outlive the value (a static string, or a name owned by @results).
 */
WsNcuValue
ws_ncu_value (const WsNcuResults *results, guint launch, const char *metric)
{
  double value;

  if (!ws_ncu_results_value (results, launch, metric, &value, NULL) || !isfinite (value))
    return WS_NCU_VALUE_NONE;
  return ws_ncu_value_make (value, metric);
}

/**
 * ws_ncu_value_first:
 * @metrics: a %NULL-terminated list, in order of preference
 *
 * Returns: the value of the first metric of @metrics that @launch has
 */
WsNcuValue
ws_ncu_value_first (const WsNcuResults *results, guint launch, const char *const *metrics)
{
  for (gsize i = 0; metrics[i] != NULL; i++)
    {
      WsNcuValue v = ws_ncu_value (results, launch, metrics[i]);

      if (ws_ncu_value_collected (v))
        return v;
    }
  return WS_NCU_VALUE_NONE;
}

gboolean
ws_ncu_value_collected (WsNcuValue value)
{
  return value.metric != NULL;
}

WsNcuValue
ws_ncu_value_make (double value, const char *metric)
{
  WsNcuValue v = { value, metric };

  return v;
}

/* The launch's compute capability (9.0 for an H100), from the CC column
 * or the device attributes; NaN where the file has neither. */
double
ws_ncu_launch_compute_capability (const WsNcuResults *results, guint launch)
{
  const WsNcuLaunch *l = ws_ncu_results_launch (results, launch);
  double major, minor;

  if (l->cc != NULL)
    return g_ascii_strtod (l->cc, NULL);
  if (ws_ncu_results_value (results, launch, "device__attribute_compute_capability_major", &major,
                            NULL) &&
      ws_ncu_results_value (results, launch, "device__attribute_compute_capability_minor", &minor,
                            NULL))
    return major + minor / 10.0;
  return NAN;
}
