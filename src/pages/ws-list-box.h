/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Rows a list makes at most (a GtkListBox is one window as tall as all of
 * them); ws_list_box_add_more() counts the others. */
#define WS_LIST_BOX_MAX_ROWS 200

void ws_list_box_clear (GtkListBox *list);
guint ws_list_box_get_n_rows (GtkListBox *list);
void ws_list_box_add_more (GtkListBox *list, const char *text);
char *ws_list_box_get_row_text (GtkListBox *list, guint index);

G_END_DECLS
