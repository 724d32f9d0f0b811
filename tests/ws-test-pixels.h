/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-palette.h"

G_BEGIN_DECLS

gboolean ws_test_argb_is_color (const guint8 *px, WsColor c);
gboolean ws_test_pixel_is_color (cairo_surface_t *surface, int x, int y, WsColor c);

G_END_DECLS
