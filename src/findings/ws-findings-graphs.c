/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include "ws-findings-private.h"
#include "ws-hash.h"

/* What the checks that know CUDA graphs share: which calls launch,
 * capture and instantiate graphs, and which call launched each replay.
 * The checks are in ws-findings-recapture.c and ws-findings-replay-gaps.c;
 * definitions in docs/NOTES.md, "Findings", and docs/cuda-graphs.md. */

/**
 * ws_findings_graph_calls:
 *
 * Returns: (transfer full): per API call of the run, its WsGraphCall (0,
 *   WS_GRAPH_CALL_NONE, for those after a cancellation)
 */
guint8 *
ws_findings_graph_calls (WsFindingsCtx *ctx)
{
  const WsRun *run = ctx->run;
  guint8 *kinds = g_new0 (guint8, MAX (run->api.n, 1));
  g_autoptr (GHashTable) by_name = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; run->api.name != NULL && i < run->api.n; i++)
    {
      gpointer key = GUINT_TO_POINTER (run->api.name[i] + 1);
      gpointer kind;

      if (ws_findings_stop (ctx, i))
        break;
      if (!g_hash_table_lookup_extended (by_name, key, NULL, &kind))
        {
          kind = GUINT_TO_POINTER (ws_graph_call_kind (ws_run_string (run, run->api.name[i])));
          g_hash_table_insert (by_name, key, kind);
        }
      kinds[i] = (guint8) GPOINTER_TO_UINT (kind);
    }
  return kinds;
}

/**
 * ws_findings_replay_launches:
 * @kinds: ws_findings_graph_calls()
 *
 * The call that launched each replay: the graph launch of the replay's
 * process with the replay's correlation id.
 *
 * Returns: (transfer full): per replay, its launch call's index in
 *   run->api, or -1 where the run has none
 */
gssize *
ws_findings_replay_launches (WsFindingsCtx *ctx, const guint8 *kinds)
{
  const WsRun *run = ctx->run;
  g_autoptr (GHashTable) calls = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  gssize *launch = g_new (gssize, MAX (run->replays.n, 1));

  for (gsize i = 0; run->api.correlation != NULL && i < run->api.n; i++)
    if (kinds[i] == WS_GRAPH_CALL_LAUNCH)
      {
        gint64 *key = g_new (gint64, 1);

        *key = ((gint64) ws_run_index_api_pid (ctx->index, i) << 32) | run->api.correlation[i];
        g_hash_table_insert (calls, key, GSIZE_TO_POINTER (i + 1));
      }
  for (gsize r = 0; r < run->replays.n; r++)
    {
      gint64 key =
        ((gint64) ws_run_replay_stream (run, r)->pid << 32) | run->replays.correlation[r];

      launch[r] = (gssize) GPOINTER_TO_SIZE (g_hash_table_lookup (calls, &key)) - 1;
    }
  return launch;
}
