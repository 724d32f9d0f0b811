/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* What a run holds of CUDA graphs, as every page and command says it
 * (docs/cuda-graphs.md). */
typedef struct
{
  guint replays;          /* graph launches */
  guint graphs;           /* distinct executable graphs (an unknown id counts once) */
  guint traced_whole;     /* replays recorded without their kernels (graph-level trace) */
  gint64 traced_whole_ns; /* their summed spans */
  gint64 replay_ns;       /* the summed spans of all replays */
  gsize kernels_inside;   /* kernels of the run that ran inside a replay */
} WsGraphSummary;

void ws_graph_summary_compute (const WsRun *run, WsGraphSummary *out);
char *ws_graph_summary_describe (const WsGraphSummary *summary);
char *ws_graph_summary_stats_note (const WsGraphSummary *summary);
gsize ws_graphs_count_inside (const WsRun *run, GArray *instances);

G_END_DECLS
