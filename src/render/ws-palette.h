/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double r, g, b, a;
} WsColor;

/* The colours every chart draws with.  Widgets fill it from the GTK theme
 * (so the dark theme works); exports and tests use the built-in ones. */
typedef struct
{
  WsColor background;
  WsColor foreground;
  WsColor dim; /* secondary text, axes */
  WsColor grid;
  WsColor accent;    /* selection */
  WsColor bar;       /* bars without a verdict */
  WsColor bar_other; /* the folded "others" bar */
  WsColor compute;   /* verdict colours */
  WsColor memory;
  WsColor latency;
  WsColor mixed;
  WsColor unknown;
  WsColor not_profiled; /* kernels that ran but ncu did not profile */
  WsColor faster;       /* comparison */
  WsColor slower;
  gboolean dark;
  char font[64]; /* Pango font description, e.g. "Cantarell 11" */
} WsPalette;

void ws_palette_init_light (WsPalette *palette);
void ws_palette_init_dark (WsPalette *palette);
WsColor ws_color_from_argb (guint32 argb);
WsColor ws_color_mix (WsColor a, WsColor b, double t);
void ws_color_set (cairo_t *cr, WsColor color);
void ws_color_set_alpha (cairo_t *cr, WsColor color, double alpha);

G_END_DECLS
