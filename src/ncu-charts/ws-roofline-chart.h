/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-palette.h"
#include "ws-run.h"
#include "ws-why.h"

G_BEGIN_DECLS

/* A roofline chart: FLOP/s against FLOPs per byte on log axes, under the
 * device's compute ceilings and memory bandwidths.  For one launch, a
 * point per memory level (L1, L2, DRAM: the hierarchical view); for a
 * run, a point per profiled kernel against DRAM, sized by its GPU time. */

typedef struct
{
  char *label;
  double intensity[WS_N_LEVELS]; /* FLOP/byte; NaN where not collected */
  double flops;                  /* FLOP/s */
  double weight;                 /* the run view: GPU ns; the size of the point */
  WsBottleneckKind kind;
  guint launch;
} WsRooflinePoint;

typedef struct
{
  double peak[WS_N_PRECISIONS];  /* FLOP/s; NaN */
  double bandwidth[WS_N_LEVELS]; /* byte/s; NaN */
  const char *tensor_source;     /* the tensor ceiling's input type, static */
  GArray *points;                /* WsRooflinePoint */
  gboolean hierarchical;         /* one launch: its L1, L2 and DRAM points */
  guint unplaced;                /* kernels without FLOPs or traffic, not drawn */
  char *title;
  char *subtitle;
} WsRooflineModel;

WsRooflineModel *ws_roofline_model_new_launch (const WsNcuResults *results, const WsWhy *why);
WsRooflineModel *ws_roofline_model_new_run (const WsRun *run);
void ws_roofline_model_free (WsRooflineModel *model);
void ws_roofline_chart_draw (cairo_t *cr, double width, double height, const WsRooflineModel *model,
                             const WsPalette *palette);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRooflineModel, ws_roofline_model_free)

G_END_DECLS
