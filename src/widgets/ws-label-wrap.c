/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-label-wrap.h"

/**
 * ws_label_wrap_names:
 * @label: a label whose text holds kernel names (or other long names)
 *
 * Wraps @label's text between words, and inside a word where a line cannot
 * hold it (a kernel's name has no spaces), without the hyphen Pango would
 * insert there: "Kernel2<cutlass_80_…>" must read as the kernel's name, not
 * as "Kernel2<cutlass_-" and "80_…".  Keeps the label's other attributes.
 */
void
ws_label_wrap_names (GtkLabel *label)
{
  PangoAttrList *current = gtk_label_get_attributes (label);
  PangoAttrList *attrs = current != NULL ? pango_attr_list_copy (current) : pango_attr_list_new ();

  g_return_if_fail (GTK_IS_LABEL (label));

  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (label, attrs);
  pango_attr_list_unref (attrs);
  gtk_label_set_line_wrap (label, TRUE);
  gtk_label_set_line_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
}
