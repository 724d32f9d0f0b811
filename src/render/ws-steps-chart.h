/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-palette.h"
#include "ws-steps.h"

G_BEGIN_DECLS

/* The steps of a loop as bars: one per step, its wall time split into the
 * time a kernel ran, a memory operation ran, and the GPU idled; warm-up
 * steps hatched; the steady median as a line.  The scale follows the
 * steady steps: a warm-up step many times longer is cut with its length
 * written on it, so that the steady ones stay readable. */
typedef struct
{
  int hover;    /* step index, or -1 */
  int selected; /* step index, or -1 */
} WsStepsState;

void ws_steps_chart_draw (cairo_t *cr, double width, double height, const WsRun *run,
                          const WsSteps *steps, const WsStepsState *state,
                          const WsPalette *palette);
int ws_steps_chart_hit (double width, double height, const WsSteps *steps, double x, double y);
char *ws_steps_chart_tooltip (const WsRun *run, const WsSteps *steps, guint step);
char *ws_steps_chart_summary (const WsSteps *steps);
guint ws_steps_chart_space_labels (const double *centers, const double *widths, guint n, double gap,
                                   gboolean *keep);
gboolean ws_steps_chart_render_to_file (const char *path, double width, double height,
                                        const WsRun *run, const WsSteps *steps,
                                        const WsPalette *palette, GError **error);

G_END_DECLS
