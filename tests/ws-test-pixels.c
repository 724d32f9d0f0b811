/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Colours read back from what a chart drew on an image surface. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "ws-test-pixels.h"

/* Whether the ARGB32 pixel at @px is @c, within one step per channel. */
gboolean
ws_test_argb_is_color (const guint8 *px, WsColor c)
{
  /* ARGB32 in native (little) endian: B, G, R, A. */
  return abs (px[2] - (int) round (c.r * 255)) <= 1 && abs (px[1] - (int) round (c.g * 255)) <= 1 &&
         abs (px[0] - (int) round (c.b * 255)) <= 1;
}

/* Whether the pixel (@x, @y) of the ARGB32 or RGB24 @surface is @c. */
gboolean
ws_test_pixel_is_color (cairo_surface_t *surface, int x, int y, WsColor c)
{
  return ws_test_argb_is_color (cairo_image_surface_get_data (surface) +
                                  y * cairo_image_surface_get_stride (surface) + x * 4,
                                c);
}
