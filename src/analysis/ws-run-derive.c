/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-run-derive.h"
#include "ws-run-slice.h"
#include "ws-stats-build.h"

/**
 * ws_run_derive_pids:
 *
 * The events of the processes @pids of @run (ws_run_select_pids()), with
 * their summaries.
 *
 * Returns: (transfer full): the new run
 */
WsRun *
ws_run_derive_pids (const WsRun *run, const guint32 *pids, guint n_pids)
{
  WsRun *derived = ws_run_select_pids (run, pids, n_pids);

  ws_stats_set_summaries (derived);
  return derived;
}

/**
 * ws_run_derive_slice:
 *
 * The events of @run inside the spans (ws_run_slice()), with their
 * summaries.
 *
 * Returns: (transfer full): the new run
 */
WsRun *
ws_run_derive_slice (const WsRun *run, const gint64 *starts, const gint64 *ends, guint n_spans,
                     const WsLaunchTimes *times)
{
  WsRun *derived = ws_run_slice (run, starts, ends, n_spans, times);

  ws_stats_set_summaries (derived);
  return derived;
}
