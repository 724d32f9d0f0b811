/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-palette"
#include "config.h"

#include "ws-palette.h"

static WsColor
rgb (guint32 hex)
{
  WsColor c = { ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0,
                1.0 };

  return c;
}

/* GNOME's palette (Adwaita): readable on white and on #242424. */
void
ws_palette_init_light (WsPalette *palette)
{
  palette->background = rgb (0xffffff);
  palette->foreground = rgb (0x241f31);
  palette->dim = rgb (0x5e5c64);
  palette->grid = rgb (0xdeddda);
  palette->accent = rgb (0x1c71d8);
  palette->bar = rgb (0x3584e4);
  palette->bar_other = rgb (0x9a9996);
  palette->compute = rgb (0xe66100);
  palette->memory = rgb (0x1c71d8);
  palette->latency = rgb (0x9141ac);
  palette->mixed = rgb (0x26a269);
  palette->unknown = rgb (0x9a9996);
  palette->not_profiled = rgb (0xc0bfbc);
  palette->faster = rgb (0x26a269);
  palette->slower = rgb (0xc01c28);
  palette->dark = FALSE;
  g_strlcpy (palette->font, "Sans 10", sizeof palette->font);
}

void
ws_palette_init_dark (WsPalette *palette)
{
  palette->background = rgb (0x242424);
  palette->foreground = rgb (0xf6f5f4);
  palette->dim = rgb (0xc0bfbc);
  palette->grid = rgb (0x3d3846);
  palette->accent = rgb (0x78aeed);
  palette->bar = rgb (0x62a0ea);
  palette->bar_other = rgb (0x77767b);
  palette->compute = rgb (0xffa348);
  palette->memory = rgb (0x62a0ea);
  palette->latency = rgb (0xc061cb);
  palette->mixed = rgb (0x57e389);
  palette->unknown = rgb (0x9a9996);
  /* A neutral grey: the faded blue it was (#527db1) read as Memory's
   * #62a0ea; this one keeps 3.4:1 against the background. */
  palette->not_profiled = rgb (0x77767b);
  palette->faster = rgb (0x57e389);
  palette->slower = rgb (0xf66151);
  palette->dark = TRUE;
  g_strlcpy (palette->font, "Sans 10", sizeof palette->font);
}

WsColor
ws_color_from_argb (guint32 argb)
{
  WsColor c = rgb (argb & 0xffffff);

  return c;
}

WsColor
ws_color_mix (WsColor a, WsColor b, double t)
{
  WsColor c = { a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t,
                a.a + (b.a - a.a) * t };

  return c;
}

void
ws_color_set (cairo_t *cr, WsColor color)
{
  cairo_set_source_rgba (cr, color.r, color.g, color.b, color.a);
}

void
ws_color_set_alpha (cairo_t *cr, WsColor color, double alpha)
{
  cairo_set_source_rgba (cr, color.r, color.g, color.b, color.a * alpha);
}
