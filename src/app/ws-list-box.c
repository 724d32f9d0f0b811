/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-list-box"
#include "config.h"

#include "ws-list-box.h"

/* What the pages that list their items as rows of a GtkListBox (the
 * compare window's tabs) share: emptying the list, and a row's text as
 * their tests read it. */

/* Removes and destroys every row of @list. */
void
ws_list_box_clear (GtkListBox *list)
{
  g_autoptr (GList) children = NULL;

  g_return_if_fail (GTK_IS_LIST_BOX (list));

  children = gtk_container_get_children (GTK_CONTAINER (list));
  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
}

guint
ws_list_box_get_n_rows (GtkListBox *list)
{
  g_autoptr (GList) children = NULL;

  g_return_val_if_fail (GTK_IS_LIST_BOX (list), 0);

  children = gtk_container_get_children (GTK_CONTAINER (list));
  return g_list_length (children);
}

static void
collect_text (GtkWidget *widget, GString *out)
{
  if (GTK_IS_LABEL (widget))
    {
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, gtk_label_get_text (GTK_LABEL (widget)));
    }
  else if (GTK_IS_CONTAINER (widget))
    {
      g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (widget));

      for (GList *l = children; l != NULL; l = l->next)
        collect_text (l->data, out);
    }
}

/**
 * ws_list_box_get_row_text:
 *
 * Returns: (transfer full) (nullable): the labels of row @index, one a
 * line, in the order shown; %NULL when there is no such row
 */
char *
ws_list_box_get_row_text (GtkListBox *list, guint index)
{
  GtkListBoxRow *row;
  GString *out;

  g_return_val_if_fail (GTK_IS_LIST_BOX (list), NULL);

  row = gtk_list_box_get_row_at_index (list, (int) index);
  if (row == NULL)
    return NULL;
  out = g_string_new (NULL);
  collect_text (GTK_WIDGET (row), out);
  return g_string_free (out, FALSE);
}
