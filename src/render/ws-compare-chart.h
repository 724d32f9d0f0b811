/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-comparison.h"
#include "ws-palette.h"

G_BEGIN_DECLS

typedef struct
{
  int hover; /* row index, or -1 */
  int selected;
  guint top_n;       /* rows before the rest is folded; 0 for 20 */
  const char *title; /* drawn first, or NULL */
  gboolean ranges;   /* NVTX ranges side by side instead of kernel deltas */
} WsCompareState;

double ws_compare_chart_natural_height (cairo_t *cr, const WsComparison *cmp,
                                        const WsCompareState *state, const WsPalette *palette);
void ws_compare_chart_draw (cairo_t *cr, double width, double height, const WsComparison *cmp,
                            const WsCompareState *state, const WsPalette *palette);
int ws_compare_chart_hit (cairo_t *cr, double width, const WsComparison *cmp,
                          const WsCompareState *state, const WsPalette *palette, double x,
                          double y);
gboolean ws_compare_chart_bar_rect (cairo_t *cr, double width, const WsComparison *cmp,
                                    const WsCompareState *state, const WsPalette *palette,
                                    guint row, gboolean after, cairo_rectangle_t *rect);
const WsDelta *ws_compare_chart_row (const WsComparison *cmp, const WsCompareState *state,
                                     guint row);
guint ws_compare_chart_n_rows (const WsComparison *cmp, const WsCompareState *state);

G_END_DECLS
