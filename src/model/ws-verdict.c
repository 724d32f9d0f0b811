/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-verdict"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-verdict.h"

/* A verdict for scripts: not translated. */
const char *
ws_verdict_id (WsVerdict verdict)
{
  switch (verdict)
    {
      case WS_VERDICT_COMPUTE:
        return "Compute";
      case WS_VERDICT_MEMORY:
        return "Memory";
      case WS_VERDICT_LATENCY:
        return "Latency";
      case WS_VERDICT_MIXED:
        return "Mixed";
      case WS_VERDICT_UNKNOWN:
        return "Unknown";
      case WS_VERDICT_NONE:
      case WS_N_VERDICTS:
      default:
        return "";
    }
}

/* A verdict as pages, tables and exports show it, translated ("Memory",
 * "Not profiled"). */
const char *
ws_verdict_label (WsVerdict verdict)
{
  switch (verdict)
    {
      case WS_VERDICT_COMPUTE:
        return C_ ("verdict", "Compute");
      case WS_VERDICT_MEMORY:
        return C_ ("verdict", "Memory");
      case WS_VERDICT_LATENCY:
        return C_ ("verdict", "Latency");
      case WS_VERDICT_MIXED:
        return C_ ("verdict", "Mixed");
      case WS_VERDICT_UNKNOWN:
        return C_ ("verdict", "Unknown");
      case WS_VERDICT_NONE:
      case WS_N_VERDICTS:
      default:
        return C_ ("verdict", "Not profiled");
    }
}

const char *
ws_sol_verdict_id (WsSolVerdict sol)
{
  static const char *const ids[WS_N_SOL_VERDICTS] = {
    "unknown",           "high-throughput",  "latency",  "small-grid",
    "compute-dominated", "memory-dominated", "balanced",
  };

  g_return_val_if_fail (sol < WS_N_SOL_VERDICTS, "");
  return ids[sol];
}

const char *
ws_sol_verdict_label (WsSolVerdict sol)
{
  static const char *const labels[WS_N_SOL_VERDICTS] = {
    N_ ("Unknown"),           N_ ("High throughput"),  N_ ("Latency"),  N_ ("Small grid"),
    N_ ("Compute-dominated"), N_ ("Memory-dominated"), N_ ("Balanced"),
  };

  g_return_val_if_fail (sol < WS_N_SOL_VERDICTS, "");
  return _ (labels[sol]);
}
