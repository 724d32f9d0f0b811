/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* X11 windows and pixmaps, and cairo's image surfaces, are at most this
 * many pixels a side. */
#define WS_SURFACE_MAX_EXTENT 32767

/* No chart is taller than this (logical px), so that it stays within
 * WS_SURFACE_MAX_EXTENT at a scale factor of 2: what would not fit is
 * counted in a line ("N more"). */
#define WS_CHART_MAX_HEIGHT 16000

typedef void (*WsDrawFunc) (cairo_t *cr, double width, double height, gpointer user_data);

gboolean ws_surface_kind_for_path (const char *path, const char **kind);
gboolean ws_render_to_file (const char *path, double width, double height, WsDrawFunc draw,
                            gpointer user_data, GError **error);
cairo_t *ws_measure_context (void);

G_END_DECLS
