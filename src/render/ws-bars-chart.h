/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-ncu-match.h"
#include "ws-palette.h"
#include "ws-stats.h"
#include "ws-verdict.h"

G_BEGIN_DECLS

typedef enum
{
  WS_BARS_SORT_TOTAL,
  WS_BARS_SORT_AVG,
  WS_BARS_SORT_INSTANCES,
  WS_BARS_SORT_NAME,
} WsBarsSort;

/* One bar of the kernel duration chart. */
typedef struct
{
  char *label;     /* shortened name for the chart */
  char *name;      /* the full name, for tooltips */
  guint32 name_id; /* the kernel name's string id, or WS_STRING_NONE */
  gint64 count;
  gint64 total; /* ns */
  gint64 min;
  gint64 max;
  double avg;
  double med;
  double stddev;
  double share; /* % of all kernel time */
  WsVerdict verdict;
  gboolean is_other;
  guint n_folded; /* kernels folded into "others" */
} WsBar;

typedef struct
{
  GArray *bars; /* WsBar, in display order */
  WsBarsSort sort;
  double max_value; /* the largest bar's value, for scaling */
  gboolean has_verdicts;
  guint n_kernels; /* kernels after filtering, before folding */
} WsBarsModel;

typedef WsVerdict (*WsVerdictFunc) (const char *kernel_name, gpointer user_data);

/* What the widget varies; everything else comes from the model. */
typedef struct
{
  int hover;         /* bar index, or -1 */
  int selected;      /* bar index, or -1 */
  const char *title; /* drawn above the bars, or NULL */
} WsBarsState;

/* Bars drawn at most, "others" aside: at about 50 px a bar, a chart of
 * them stays within WS_CHART_MAX_HEIGHT. */
#define WS_BARS_MAX_SHOWN 300

WsColor ws_bars_not_profiled_color (const WsPalette *palette);
WsBarsModel *ws_bars_model_new (const WsSummary *summary, guint top_n, WsBarsSort sort,
                                const char *filter, WsVerdictFunc verdict_func,
                                gpointer verdict_data);
WsBarsModel *ws_bars_model_copy (const WsBarsModel *self);
void ws_bars_model_free (WsBarsModel *self);
const WsBar *ws_bars_model_get (const WsBarsModel *self, guint index);
double ws_bar_value (const WsBar *bar, WsBarsSort sort);
char *ws_bar_value_label (const WsBar *bar, WsBarsSort sort);

double ws_bars_chart_natural_height (cairo_t *cr, const WsBarsModel *model,
                                     const WsBarsState *state, const WsPalette *palette);
void ws_bars_chart_draw (cairo_t *cr, double width, double height, const WsBarsModel *model,
                         const WsBarsState *state, const WsPalette *palette);
int ws_bars_chart_hit (cairo_t *cr, double width, const WsBarsModel *model,
                       const WsBarsState *state, const WsPalette *palette, double x, double y);
gboolean ws_bars_chart_bar_rect (cairo_t *cr, double width, const WsBarsModel *model,
                                 const WsBarsState *state, const WsPalette *palette, guint index,
                                 cairo_rectangle_t *rect);

gboolean ws_bars_chart_render_to_file (const char *path, double width, double height,
                                       const WsBarsModel *model, const char *title,
                                       const WsPalette *palette, GError **error);

WsColor ws_verdict_color (const WsPalette *palette, WsVerdict verdict);
char *ws_kernel_verdict_text (const WsKernelVerdict *verdict);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsBarsModel, ws_bars_model_free)

G_END_DECLS
