/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef void (*WsDrawFunc) (cairo_t *cr, double width, double height, gpointer user_data);

gboolean ws_surface_kind_for_path (const char *path, const char **kind);
gboolean ws_render_to_file (const char *path, double width, double height, WsDrawFunc draw,
                            gpointer user_data, GError **error);
cairo_t *ws_measure_context (void);

G_END_DECLS
