/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-flame.h"
#include "ws-palette.h"

G_BEGIN_DECLS

typedef enum
{
  WS_FLAME_LAYOUT_ICICLE, /* the root at the top, callees below */
  WS_FLAME_LAYOUT_FLAME,  /* the root at the bottom, callees above */
} WsFlameLayout;

/* What the widget changes: the drawing itself is a function of this. */
typedef struct
{
  WsFlameLayout layout;
  guint32 zoom;            /* the node that spans the width; 0 (the root) for all */
  guint32 hover;           /* WS_FLAME_NO_NODE for none */
  const gboolean *matches; /* one per node where a search matched, or NULL */
  double match_share;      /* the search's share of the samples, for the header */
  const char *title;       /* the header's first words, or NULL */
} WsFlameState;

#define WS_FLAME_ROW_HEIGHT 18.0
#define WS_FLAME_HEADER_HEIGHT 28.0

void ws_flame_state_init (WsFlameState *view);
void ws_flame_chart_draw (cairo_t *cr, double width, double height, const WsFlameGraph *graph,
                          const WsFlameState *view, const WsPalette *palette);
double ws_flame_chart_natural_height (const WsFlameGraph *graph);
guint32 ws_flame_chart_node_at (const WsFlameGraph *graph, const WsFlameState *view, double width,
                                double height, double x, double y);
WsColor ws_flame_color (const WsFlameGraph *graph, guint32 node, const WsPalette *palette);

void ws_flame_functions_draw (cairo_t *cr, double width, double height, const WsFlameGraph *graph,
                              guint top, const char *title, const WsPalette *palette);
double ws_flame_functions_natural_height (const WsFlameGraph *graph, guint top);

G_END_DECLS
