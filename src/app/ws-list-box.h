/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void ws_list_box_clear (GtkListBox *list);
guint ws_list_box_get_n_rows (GtkListBox *list);
char *ws_list_box_get_row_text (GtkListBox *list, guint index);

G_END_DECLS
