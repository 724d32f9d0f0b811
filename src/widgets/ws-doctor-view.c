/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-doctor-view"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-doctor-view.h"
#include "ws-doctor.h"

/* The doctor's checks: an icon for each, what was found, and the fix in
 * monospace, selectable for copying into a terminal; the checks of a host
 * under its name. */

struct _WsDoctorView
{
  GtkGrid parent_instance;
};

G_DEFINE_FINAL_TYPE (WsDoctorView, ws_doctor_view, GTK_TYPE_GRID)

static const char *
level_icon (WsDoctorLevel level)
{
  switch (level)
    {
      case WS_DOCTOR_OK:
        return "emblem-ok-symbolic";
      case WS_DOCTOR_WARNING:
        return "dialog-warning-symbolic";
      case WS_DOCTOR_ERROR:
      default:
        return "dialog-error-symbolic";
    }
}

static GtkWidget *
text (const char *string, gboolean monospace)
{
  GtkWidget *label = gtk_label_new (string);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 70);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* Copyable, but no Tab stop and no caret (see ws-application.c). */
  gtk_widget_set_can_focus (label, FALSE);
  if (monospace)
    gtk_style_context_add_class (gtk_widget_get_style_context (label), "monospace");
  return label;
}

static void
ws_doctor_view_class_init (WsDoctorViewClass *klass)
{
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "wsdoctorview");
}

static void
ws_doctor_view_init (WsDoctorView *self)
{
  gtk_grid_set_row_spacing (GTK_GRID (self), 6);
  gtk_grid_set_column_spacing (GTK_GRID (self), 12);
}

/**
 * ws_doctor_view_new:
 * @checks: (element-type WsDoctorCheck): from ws_doctor_run()
 *
 * Returns: (transfer floating): the view, shown
 */
GtkWidget *
ws_doctor_view_new (GPtrArray *checks)
{
  GtkGrid *grid = g_object_new (WS_TYPE_DOCTOR_VIEW, NULL);
  const char *heading = NULL;
  int top = 0;

  g_return_val_if_fail (checks != NULL, GTK_WIDGET (grid));

  for (guint i = 0; i < checks->len; i++)
    {
      const WsDoctorCheck *check = g_ptr_array_index (checks, i);
      GtkWidget *icon =
        gtk_image_new_from_icon_name (level_icon (check->level), GTK_ICON_SIZE_BUTTON);

      if (check->host != NULL && g_strcmp0 (check->host, heading) != 0)
        {
          g_autofree char *on = g_strdup_printf (_ ("On %s:"), check->host);
          GtkWidget *label = text (on, FALSE);

          gtk_style_context_add_class (gtk_widget_get_style_context (label), "ws-heading");
          gtk_widget_set_margin_top (label, top > 0 ? 6 : 0);
          gtk_grid_attach (grid, label, 0, top++, 2, 1);
        }
      heading = check->host;
      gtk_widget_set_valign (icon, GTK_ALIGN_START);
      gtk_grid_attach (grid, icon, 0, top, 1, 1);
      gtk_grid_attach (grid, text (check->summary, FALSE), 1, top++, 1, 1);
      if (check->fix != NULL)
        gtk_grid_attach (grid, text (check->fix, TRUE), 1, top++, 1, 1);
    }
  gtk_widget_show_all (GTK_WIDGET (grid));
  return GTK_WIDGET (grid);
}
