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

/* The rows of @list, not counting the one of ws_list_box_add_more(). */
guint
ws_list_box_get_n_rows (GtkListBox *list)
{
  g_autoptr (GList) children = NULL;
  guint n = 0;

  g_return_val_if_fail (GTK_IS_LIST_BOX (list), 0);

  children = gtk_container_get_children (GTK_CONTAINER (list));
  for (GList *l = children; l != NULL; l = l->next)
    n += g_object_get_data (l->data, "ws-more") == NULL;
  return n;
}

/**
 * ws_list_box_add_more:
 * @text: what was left out ("and 12 more kernels")
 *
 * Ends @list with a row that cannot be selected, saying what is not listed:
 * a GtkListBox makes every row it holds, so that lists stop at
 * %WS_LIST_BOX_MAX_ROWS rows.
 */
void
ws_list_box_add_more (GtkListBox *list, const char *text)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *label = gtk_label_new (text);

  g_return_if_fail (GTK_IS_LIST_BOX (list));

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  g_object_set (label, "margin", 8, NULL);
  gtk_style_context_add_class (gtk_widget_get_style_context (label), "ws-dim");
  gtk_container_add (GTK_CONTAINER (row), label);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  g_object_set_data (G_OBJECT (row), "ws-more", GINT_TO_POINTER (TRUE));
  gtk_widget_show_all (row);
  gtk_container_add (GTK_CONTAINER (list), row);
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
