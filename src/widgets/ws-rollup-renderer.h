/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A table cell drawing a range's GPU time split by bottleneck
 * (ws_rollup_bar_draw()): the shares are properties "compute", "memory",
 * "latency", "mixed" and "unprofiled", bound to columns of the model. */
#define WS_TYPE_ROLLUP_RENDERER (ws_rollup_renderer_get_type ())
G_DECLARE_FINAL_TYPE (WsRollupRenderer, ws_rollup_renderer, WS, ROLLUP_RENDERER, GtkCellRenderer)

GtkCellRenderer *ws_rollup_renderer_new (void);

G_END_DECLS
