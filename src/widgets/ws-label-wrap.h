/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void ws_label_wrap_names (GtkLabel *label);

G_END_DECLS
