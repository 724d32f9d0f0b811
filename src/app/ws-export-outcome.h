/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

char *ws_export_outcome (const char *path, const GError *error, GtkMessageType *type);

G_END_DECLS
