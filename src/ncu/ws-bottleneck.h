/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-gauge.h"
#include "ws-ncu-value.h"
#include "ws-stalls.h"

G_BEGIN_DECLS

/* A sharper verdict than the workflow's (ws-gauges.h keeps that one as it
 * is): the unit that limits a profiled launch, or latency, or too little
 * work, with the numbers that decided it.  The rules are
 * docs/why-slow.md's, "The bottleneck". */

typedef enum
{
  WS_BOTTLENECK_UNKNOWN,
  WS_BOTTLENECK_COMPUTE, /* a compute pipe or instruction issue */
  WS_BOTTLENECK_MEMORY,  /* L1/shared, L2 or DRAM */
  WS_BOTTLENECK_LATENCY, /* low throughput everywhere */
  WS_BOTTLENECK_WORK,    /* too little work: waves < 1, or a tail */
  WS_BOTTLENECK_MIXED,   /* a compute and a memory unit both near their peak */
  WS_N_BOTTLENECKS,
} WsBottleneckKind;

/* The units whose throughput (% of peak) the rules compare. */
typedef enum
{
  WS_LIMIT_TENSOR,
  WS_LIMIT_FMA,
  WS_LIMIT_ALU,
  WS_LIMIT_FP64,
  WS_LIMIT_XU,
  WS_LIMIT_ISSUE,
  WS_LIMIT_SM, /* the SM as a whole, where no pipe was collected */
  WS_LIMIT_L1,
  WS_LIMIT_L2,
  WS_LIMIT_DRAM,
  WS_N_LIMITS,
} WsLimitUnit;

#define WS_LIMIT_FIRST_MEMORY WS_LIMIT_L1

/* The thresholds: Nsight Compute's speed-of-light figures. */
#define WS_BOTTLENECK_BUSY 60.0 /* % of peak: a unit this busy limits */
#define WS_BOTTLENECK_GAP 10.0  /* points: a compute and a memory unit closer are mixed */
#define WS_BOTTLENECK_TAIL 0.5  /* the last wave at most this full is a tail */

typedef struct
{
  WsBottleneckKind kind;
  const char *rule;              /* static id of the rule that decided */
  int unit;                      /* the WsLimitUnit that limits, or -1 */
  int other;                     /* mixed: the unit of the other side, or -1 */
  WsNcuValue units[WS_N_LIMITS]; /* % of peak */
  WsNcuValue sm;                 /* speed of light: SM and memory, % */
  WsNcuValue memory;
  WsNcuValue shared; /* % of peak: shared-memory wavefronts, inside L1 */
  WsNcuValue waves;  /* per SM */
  char *top_stall;   /* the largest stall reason, or NULL */
  double top_stall_value;
  const char *top_stall_unit;
  const char *top_stall_collect; /* static: what collects stall reasons, when none is */
  char *reason;                  /* the numbers that decided it */
} WsBottleneck;

void ws_bottleneck_compute (const WsNcuResults *results, guint launch, const WsStalls *stalls,
                            WsBottleneck *bottleneck);
void ws_bottleneck_compute_with (const WsNcuResults *results, guint launch, const WsStalls *stalls,
                                 const WsGauges *gauges, WsBottleneck *bottleneck);
WsVerdict ws_bottleneck_verdict (WsBottleneckKind kind);
void ws_bottleneck_clear (WsBottleneck *bottleneck);

const char *ws_bottleneck_id (WsBottleneckKind kind);
const char *ws_bottleneck_label (WsBottleneckKind kind);
const char *ws_limit_unit_id (WsLimitUnit unit);
const char *ws_limit_unit_label (WsLimitUnit unit);
char *ws_bottleneck_headline (const WsBottleneck *bottleneck);

G_END_DECLS
