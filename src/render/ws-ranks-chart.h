/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-palette.h"
#include "ws-rank-set.h"
#include "ws-ranks.h"

G_BEGIN_DECLS

/* The ranks view's heatmap: one row per rank, one column per step, each
 * cell coloured by the metric chosen; the straggler's row marked, a dot in
 * each step's cell of the rank that reached the synchronisation last, a
 * legend.  Ranks not read yet are grey rows, so that the view shows the
 * whole job from its first frame. */

typedef enum
{
  WS_RANKS_METRIC_STEP_TIME, /* the step's wall time */
  WS_RANKS_METRIC_GPU_BUSY,  /* the share of the step with the rank's GPU work running */
  WS_RANKS_METRIC_WAITING,   /* the time the rank waited for the others */
  WS_RANKS_METRIC_WORK,      /* the rank's own work: what makes the others wait */
  WS_RANKS_METRIC_HIDDEN,    /* the share of its NCCL kernels' time hidden under compute */
  WS_RANKS_N_METRICS,
} WsRanksMetric;

typedef struct
{
  guint n_rows;
  guint *ranks;       /* per row: the rank number */
  gboolean *measured; /* per row: whether its figures are there */
  guint n_cols;
  guint *steps;     /* per column: the step number */
  gboolean *warmup; /* per column: a warm-up step */
  double *values;   /* [WS_RANKS_N_METRICS][n_rows][n_cols]; NAN where none */
  double lo[WS_RANKS_N_METRICS], hi[WS_RANKS_N_METRICS]; /* over the steady cells */
  double median;        /* ns: step time, the median of the steady cells (every rank's) */
  double half;          /* ns: the step-time scale runs median ± half (WS_RANKS_CHART_MIN_HALF) */
  gint *last;           /* per column: the row that came last, or -1 */
  gint straggler;       /* the straggler's row, or -1 */
  char *title;          /* "ddp_probe.py — 4 ranks" */
  char *straggler_text; /* "Straggler: rank 3, +600 µs per step, in “extra work”", or NULL */
} WsRanksChartModel;

/* The step-time scale diverges from the median step time, symmetric, at
 * least this share of the median to each side: a 2% spread reads as
 * nearly neutral, not as the whole range of colours. */
#define WS_RANKS_CHART_MIN_HALF 0.10

typedef struct
{
  WsRanksMetric metric;
  gint hover_row, hover_col;       /* -1 for none */
  gint selected_row, selected_col; /* -1 for none */
  gboolean untitled;               /* without the title and straggler lines (a page has its own) */
} WsRanksChartState;

typedef struct
{
  gint row; /* -1 outside the cells */
  gint col;
} WsRanksHit;

WsRanksChartModel *ws_ranks_chart_model_new (const WsRanks *ranks, GPtrArray *figures);
void ws_ranks_chart_model_free (WsRanksChartModel *self);
double ws_ranks_chart_model_value (const WsRanksChartModel *self, WsRanksMetric metric, guint row,
                                   guint col);

void ws_ranks_chart_state_init (WsRanksChartState *state);
const char *ws_ranks_chart_metric_label (WsRanksMetric metric);
const char *ws_ranks_chart_metric_to_string (WsRanksMetric metric);
gboolean ws_ranks_chart_metric_from_string (const char *text, WsRanksMetric *metric);
char *ws_ranks_chart_format_value (WsRanksMetric metric, double value);
WsColor ws_ranks_chart_neutral (const WsPalette *palette);
WsColor ws_ranks_chart_cell_color (const WsRanksChartModel *model, WsRanksMetric metric,
                                   double value, const WsPalette *palette);
char *ws_ranks_chart_scale_text (const WsRanksChartModel *model);

double ws_ranks_chart_natural_height (const WsRanksChartModel *model, double width,
                                      gboolean untitled, const WsPalette *palette);
void ws_ranks_chart_draw (cairo_t *cr, double width, double height, const WsRanksChartModel *model,
                          const WsRanksChartState *state, const WsPalette *palette);
void ws_ranks_chart_hit (double width, double height, const WsRanksChartModel *model,
                         const WsRanksChartState *state, const WsPalette *palette, double x,
                         double y, WsRanksHit *hit);
gboolean ws_ranks_chart_cell_rect (double width, double height, const WsRanksChartModel *model,
                                   const WsRanksChartState *state, const WsPalette *palette,
                                   guint row, guint col, cairo_rectangle_t *rect);
gboolean ws_ranks_chart_render_to_file (const char *path, double width, double height,
                                        const WsRanksChartModel *model, WsRanksMetric metric,
                                        const WsPalette *palette, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRanksChartModel, ws_ranks_chart_model_free)

G_END_DECLS
