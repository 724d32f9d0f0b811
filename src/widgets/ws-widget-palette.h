/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-palette.h"

G_BEGIN_DECLS

void ws_widget_palette (GtkWidget *widget, WsPalette *palette);
cairo_t *ws_widget_measure_context (GtkWidget *widget);

G_END_DECLS
