/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

#include "ws-palette.h"

G_BEGIN_DECLS

typedef enum
{
  WS_ALIGN_LEFT,
  WS_ALIGN_CENTER,
  WS_ALIGN_RIGHT,
} WsAlign;

PangoFontDescription *ws_text_font (const WsPalette *palette, double scale, gboolean bold);
PangoLayout *ws_text_layout (cairo_t *cr, const WsPalette *palette, double scale, gboolean bold);
void ws_text_size (PangoLayout *layout, const char *text, double *width, double *height);
double ws_text_draw (cairo_t *cr, PangoLayout *layout, const char *text, double x, double y,
                     double max_width, WsAlign align);
double ws_text_draw_name (cairo_t *cr, PangoLayout *layout, const char *name, double x, double y,
                          double max_width, WsAlign align);
double ws_text_line_height (PangoLayout *layout);
double ws_text_wrapped_height (PangoLayout *layout, const char *text, double width);
double ws_text_draw_wrapped (cairo_t *cr, PangoLayout *layout, const char *text, double x, double y,
                             double width);

gboolean ws_text_have_fonts (void);

G_END_DECLS
