/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-gauge.h"
#include "ws-ncu-results.h"

G_BEGIN_DECLS

/* The gauges' bands (the command-line workflow's thresholds, docs/formats.md,
 * "Gauge bands"), in % of peak; a launch's verdict is ws_bottleneck_compute()'s. */
#define WS_VERDICT_BUSY 60.0 /* SM or DRAM at or above: busy */
#define WS_VERDICT_IDLE 40.0 /* the other one below: idle */
#define WS_VERDICT_L1_HIT 50.0
#define WS_VERDICT_L2_HIT 60.0

/* Nsight Compute's speed-of-light rule. */
#define WS_SOL_HIGH 80.0 /* SM or memory at or above: high throughput */
#define WS_SOL_LOW 60.0  /* both below: a latency issue */
#define WS_SOL_GAP 10.0  /* points between SM and memory: one dominates */

void ws_gauges_compute (const WsNcuResults *results, guint launch, WsGauges *gauges);
void ws_gauges_compute_all (WsNcuResults *results);

G_END_DECLS
