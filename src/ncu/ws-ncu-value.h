/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <math.h>

#include "ws-ncu-results.h"

G_BEGIN_DECLS

/* One number of a profiled launch and the metric it came from: what the
 * kernel analyses (stalls, roofline, memory, occupancy, bottleneck) keep,
 * so that every figure can name its source. */
typedef struct
{
  double value;       /* in the metric's base unit; NaN when not collected */
  const char *metric; /* static or owned by the results; NULL when not collected */
} WsNcuValue;

#define WS_NCU_VALUE_NONE ((WsNcuValue){ NAN, NULL })

/* A NULL-terminated list of metrics for ws_ncu_value_first(). */
#define WS_NCU_METRICS(...) ((const char *const[]){ __VA_ARGS__, NULL })

WsNcuValue ws_ncu_value (const WsNcuResults *results, guint launch, const char *metric);
WsNcuValue ws_ncu_value_first (const WsNcuResults *results, guint launch,
                               const char *const *metrics);
gboolean ws_ncu_value_collected (WsNcuValue value);
WsNcuValue ws_ncu_value_make (double value, const char *metric);
double ws_ncu_launch_compute_capability (const WsNcuResults *results, guint launch);

G_END_DECLS
