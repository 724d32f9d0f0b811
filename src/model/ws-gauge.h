/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-verdict.h"

G_BEGIN_DECLS

/* The gauges of one profiled launch (docs/formats.md, "Metric sources"), in
 * the order the CSV of `warpscope-cli gauges` lists them. */
typedef enum
{
  WS_GAUGE_DURATION,
  WS_GAUGE_SM,
  WS_GAUGE_MEMORY,
  WS_GAUGE_DRAM,
  WS_GAUGE_TENSOR,
  WS_GAUGE_FP32,
  WS_GAUGE_L1_HIT,
  WS_GAUGE_L2_HIT,
  WS_GAUGE_OCCUPANCY,
  WS_GAUGE_STALL_BARRIER,
  WS_GAUGE_STALL_SHORT_SCOREBOARD,
  WS_GAUGE_STALL_LONG_SCOREBOARD,
  WS_N_GAUGES,
} WsGaugeKind;

typedef struct
{
  gboolean collected;
  double value;        /* ns for Duration, % for utilisations and hit rates, see @unit for stalls */
  const char *unit;    /* static: "ns", "%", or "warps/issue" (stalls as ratios) */
  const char *metric;  /* the raw metric that fed it; NULL when not collected */
  const char *column;  /* the details page's name for it ("Duration"), or NULL */
  const char *collect; /* static: the ncu section or set that collects it */
  const char
    *absent; /* static, translated: why the hardware has none ("no Tensor Cores…"), or NULL */
  const char *note; /* static, translated: how an nvprof metric became the gauge ("a 0–10 level
                       ×10"), or NULL */
} WsGauge;

typedef struct
{
  WsGauge gauge[WS_N_GAUGES];
  double issue_cycles; /* warp cycles per issued instruction, the sum the stalls share; NaN */
  double waves;        /* launch__waves_per_multiprocessor; NaN where absent */
  WsVerdict verdict;   /* the command-line workflow's rule */
  char *verdict_reason;
  WsSolVerdict sol; /* Nsight Compute's speed-of-light rule */
  char *sol_reason;
} WsGauges;

void ws_gauges_clear (WsGauges *gauges);

const char *ws_gauge_label (WsGaugeKind kind);
const char *ws_gauge_csv_column (WsGaugeKind kind);
double ws_gauge_fraction (const WsGauge *gauge);
char *ws_gauge_format_value (const WsGauge *gauge);
char *ws_gauge_not_collected_text (const WsGauge *gauge);

G_END_DECLS
