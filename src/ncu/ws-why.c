/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-why"
#include "config.h"

#include "ws-why.h"

/**
 * ws_why_compute:
 *
 * Returns: (transfer full): the stalls, roofline, memory workload,
 * occupancy, bottleneck and hints of @launch
 */
WsWhy *
ws_why_compute (const WsNcuResults *results, guint launch)
{
  WsWhy *why;

  g_return_val_if_fail (results != NULL, NULL);
  g_return_val_if_fail (launch < ws_ncu_results_n_launches (results), NULL);

  why = g_new0 (WsWhy, 1);
  why->launch = launch;
  why->stalls = ws_stalls_compute (results, launch);
  why->roofline = ws_roofline_compute (results, launch);
  ws_memory_workload_compute (results, launch, &why->memory);
  ws_occupancy_compute (results, launch, &why->occupancy);
  ws_bottleneck_compute (results, launch, why->stalls, &why->bottleneck);
  why->hints = ws_hints_compute (results, launch, &why->memory, &why->occupancy, why->roofline);
  return why;
}

void
ws_why_free (WsWhy *why)
{
  if (why == NULL)
    return;
  ws_stalls_free (why->stalls);
  ws_roofline_free (why->roofline);
  ws_occupancy_clear (&why->occupancy);
  ws_bottleneck_clear (&why->bottleneck);
  g_ptr_array_unref (why->hints);
  g_free (why);
}
