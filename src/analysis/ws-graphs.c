/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-graphs"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-graphs.h"
#include "ws-limits.h"

/**
 * ws_graph_summary_compute:
 * @out: (out caller-allocates): the run's CUDA graph figures
 */
void
ws_graph_summary_compute (const WsRun *run, WsGraphSummary *out)
{
  g_autoptr (GHashTable) graphs = g_hash_table_new (NULL, NULL);

  g_return_if_fail (run != NULL && out != NULL);

  *out = (WsGraphSummary){ 0 };
  out->replays = (guint) run->replays.n;
  for (gsize i = 0; i < run->replays.n; i++)
    {
      gint64 span = run->replays.end[i] - run->replays.start[i];

      g_hash_table_add (graphs, GUINT_TO_POINTER (run->replays.graph[i] + 1));
      out->replay_ns = ws_time_add (out->replay_ns, span);
      if (run->replays.nodes[i] == 0)
        {
          out->traced_whole++;
          out->traced_whole_ns = ws_time_add (out->traced_whole_ns, span);
        }
    }
  out->graphs = g_hash_table_size (graphs);
  for (gsize k = 0; run->kernels.replay != NULL && k < run->kernels.n; k++)
    if (run->kernels.replay[k] != WS_REPLAY_NONE)
      out->kernels_inside++;
}

static char *
grouped (gint64 value)
{
  GString *out = g_string_new (NULL);

  ws_format_int (out, value, TRUE);
  return g_string_free (out, FALSE);
}

/**
 * ws_graph_summary_describe:
 *
 * Returns: (transfer full) (nullable): one line on the run's CUDA graphs,
 *   or %NULL when it has none: "40 CUDA graph replays of 1 graph, 15.2 ms
 *   on the GPU; 3,640 kernels ran inside them"
 */
char *
ws_graph_summary_describe (const WsGraphSummary *summary)
{
  g_autofree char *replays = NULL, *graphs = NULL, *time = NULL, *kernels = NULL;
  g_autofree char *head = NULL;

  g_return_val_if_fail (summary != NULL, NULL);

  if (summary->replays == 0)
    return NULL;
  replays = grouped (summary->replays);
  graphs = grouped (summary->graphs);
  time = ws_format_duration ((double) summary->replay_ns);
  /* TRANSLATORS: "40 CUDA graph replays of 1 graph, 15.2 ms on the GPU" */
  head = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%s CUDA graph replays of %s graph, %s on the GPU",
                 "%s CUDA graph replays of %s graphs, %s on the GPU", summary->graphs),
    replays, graphs, time);
  if (summary->traced_whole == summary->replays)
    /* TRANSLATORS: after "40 CUDA graph replays of 1 graph, 15.2 ms on the GPU" */
    return g_strdup_printf (_ ("%s; traced whole (nsys --cuda-graph-trace=graph): their kernels "
                               "were not recorded"),
                            head);
  kernels = grouped ((gint64) summary->kernels_inside);
  /* TRANSLATORS: after "40 CUDA graph replays of 1 graph, 15.2 ms on the GPU" */
  return g_strdup_printf (_ ("%s; %s kernels ran inside them"), head, kernels);
}

/**
 * ws_graph_summary_stats_note:
 *
 * Where a kernel total differs from `nsys stats` because of replays
 * traced whole, says so with the numbers.
 *
 * Returns: (transfer full) (nullable): the note, or %NULL when every
 *   replay's kernels are in the kernel table (or there is no replay)
 */
char *
ws_graph_summary_stats_note (const WsGraphSummary *summary)
{
  g_autofree char *replays = NULL, *time = NULL;

  g_return_val_if_fail (summary != NULL, NULL);

  if (summary->traced_whole == 0)
    return NULL;
  replays = grouped (summary->traced_whole);
  time = ws_format_duration ((double) summary->traced_whole_ns);
  /* TRANSLATORS: "40 CUDA graph replays (15.2 ms of GPU work) are not in …" */
  return g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE,
                 "%s CUDA graph replay (%s of GPU work) is not in these kernel figures, nor in "
                 "nsys stats: nsys traced it whole. Capture with --cuda-graph-trace=node to see "
                 "its kernels.",
                 "%s CUDA graph replays (%s of GPU work) are not in these kernel figures, nor in "
                 "nsys stats: nsys traced them whole. Capture with --cuda-graph-trace=node to see "
                 "their kernels.",
                 summary->traced_whole),
    replays, time);
}

/**
 * ws_graphs_count_inside:
 * @instances: (element-type gsize): kernel indices
 *
 * Returns: how many of @instances ran inside a CUDA graph replay
 */
gsize
ws_graphs_count_inside (const WsRun *run, GArray *instances)
{
  gsize n = 0;

  g_return_val_if_fail (run != NULL && instances != NULL, 0);

  for (guint i = 0; i < instances->len; i++)
    if (ws_run_kernel_in_graph (run, g_array_index (instances, gsize, i)))
      n++;
  return n;
}
