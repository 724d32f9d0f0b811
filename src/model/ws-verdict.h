/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The verdict of a profiled launch: the class of its bottleneck
 * (ws_bottleneck_compute(), ws_bottleneck_verdict() in analysis), which
 * every page, command and export shows. */
typedef enum
{
  WS_VERDICT_NONE = -1, /* no ncu data */
  WS_VERDICT_COMPUTE,
  WS_VERDICT_MEMORY,
  WS_VERDICT_LATENCY, /* latency-bound, or too little work */
  WS_VERDICT_MIXED,
  WS_VERDICT_UNKNOWN,
  WS_N_VERDICTS,
} WsVerdict;

/* Nsight Compute's speed-of-light verdict (docs/formats.md, "Speed-of-light
 * rule"). */
typedef enum
{
  WS_SOL_UNKNOWN,
  WS_SOL_HIGH_THROUGHPUT,
  WS_SOL_LATENCY,
  WS_SOL_SMALL_GRID,
  WS_SOL_COMPUTE_DOMINATED,
  WS_SOL_MEMORY_DOMINATED,
  WS_SOL_BALANCED,
  WS_N_SOL_VERDICTS,
} WsSolVerdict;

const char *ws_verdict_id (WsVerdict verdict);
const char *ws_verdict_label (WsVerdict verdict);
const char *ws_sol_verdict_id (WsSolVerdict sol);
const char *ws_sol_verdict_label (WsSolVerdict sol);

G_END_DECLS
