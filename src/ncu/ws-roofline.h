/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ncu-results.h"

G_BEGIN_DECLS

/* The roofline of a profiled launch: achieved FLOP/s by precision against
 * the device's ceilings, and the bytes moved at each level of the memory
 * hierarchy.  The arithmetic is docs/why-slow.md's, "Roofline". */

typedef enum
{
  WS_PRECISION_FP64,
  WS_PRECISION_FP32,
  WS_PRECISION_FP16, /* FP16 and BF16 on the FMA pipes (HFMA2, HADD2, HMUL2) */
  WS_PRECISION_TENSOR,
  WS_N_PRECISIONS,
} WsPrecision;

typedef enum
{
  WS_LEVEL_L1,
  WS_LEVEL_L2,
  WS_LEVEL_DRAM,
  WS_N_LEVELS,
} WsMemoryLevel;

/* A figure with the metrics and arithmetic behind it. */
typedef struct
{
  double value; /* FLOP/s or byte/s; NaN when not collected */
  char
    *source; /* "2 × ffma + fadd + fmul per cycle × smsp__cycles_elapsed.avg.per_second", or NULL */
} WsRoofValue;

typedef struct
{
  WsRoofValue achieved[WS_N_PRECISIONS]; /* FLOP/s */
  WsRoofValue peak[WS_N_PRECISIONS];     /* FLOP/s: the device's ceiling at the profiled clock */
  WsRoofValue traffic[WS_N_LEVELS];      /* byte/s moved */
  WsRoofValue bandwidth[WS_N_LEVELS];    /* byte/s: the level's ceiling */
  const char *tensor_source;             /* "bf16": the input type of most tensor work, or NULL */
  char *tensor_path;       /* "hmma" (mma.sync) or "hgmma" (wgmma): the path it took, or NULL */
  double tensor_path_peak; /* FLOP/s of that path at the profiled clock; NaN */
  double duration;         /* ns; NaN */
} WsRoofline;

WsRoofline *ws_roofline_compute (const WsNcuResults *results, guint launch);
void ws_roofline_free (WsRoofline *roofline);

double ws_roofline_flops (const WsRoofline *roofline);
double ws_roofline_intensity (const WsRoofline *roofline, WsMemoryLevel level);
WsPrecision ws_roofline_main_precision (const WsRoofline *roofline);
double ws_roofline_ridge (const WsRoofline *roofline, WsPrecision precision, WsMemoryLevel level);

const char *ws_precision_id (WsPrecision precision);
const char *ws_precision_label (WsPrecision precision);
const char *ws_memory_level_id (WsMemoryLevel level);
const char *ws_memory_level_label (WsMemoryLevel level);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRoofline, ws_roofline_free)

G_END_DECLS
