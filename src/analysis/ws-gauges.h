/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-verdict.h"

G_BEGIN_DECLS

typedef struct _WsNcuResults WsNcuResults;

/* The gauges of one profiled launch (FORMATS.md, "Gauges: which metric
 * feeds which"), in the order the CSV of `warpscope-cli gauges` lists them. */
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

/* The command-line workflow's thresholds (FORMATS.md), in % of peak. */
#define WS_VERDICT_BUSY 60.0 /* SM or DRAM at or above: busy */
#define WS_VERDICT_IDLE 40.0 /* the other one below: idle */
#define WS_VERDICT_L1_HIT 50.0
#define WS_VERDICT_L2_HIT 60.0

/* Nsight Compute's speed-of-light rule. */
#define WS_SOL_HIGH 80.0 /* SM or memory at or above: high throughput */
#define WS_SOL_LOW 60.0  /* both below: a latency issue */
#define WS_SOL_GAP 10.0  /* points between SM and memory: one dominates */

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

void ws_gauges_compute (const WsNcuResults *results, guint launch, WsGauges *gauges);
void ws_gauges_clear (WsGauges *gauges);

const char *ws_gauge_label (WsGaugeKind kind);
const char *ws_gauge_csv_column (WsGaugeKind kind);
double ws_gauge_fraction (const WsGauge *gauge);
char *ws_gauge_format_value (const WsGauge *gauge);
char *ws_gauge_not_collected_text (const WsGauge *gauge);

const char *ws_verdict_id (WsVerdict verdict);
const char *ws_sol_verdict_id (WsSolVerdict sol);
const char *ws_sol_verdict_label (WsSolVerdict sol);

G_END_DECLS
