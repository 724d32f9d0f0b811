/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-preferences"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-preferences-window.h"

/* Edits the settings of org.warpscope.Warpscope; every control is bound to
 * its key, so changes apply at once and survive a restart.  The capture
 * settings (tool paths, output folder, …) have their own dialog on the
 * Capture page. */
struct _WsPreferencesWindow
{
  GtkDialog parent_instance;

  GSettings *settings;

  /* Template widgets */
  GtkGrid *grid;
  GtkSpinButton *top_n_spin;
  GtkComboBoxText *name_form_combo;
};

G_DEFINE_FINAL_TYPE (WsPreferencesWindow, ws_preferences_window, GTK_TYPE_DIALOG)

static void
ws_preferences_window_dispose (GObject *object)
{
  WsPreferencesWindow *self = WS_PREFERENCES_WINDOW (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (ws_preferences_window_parent_class)->dispose (object);
}

static void
ws_preferences_window_class_init (WsPreferencesWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_preferences_window_dispose;
  gtk_widget_class_set_template_from_resource (
    widget_class, "/org/warpscope/Warpscope/ui/ws-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, grid);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, top_n_spin);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, name_form_combo);
}

static void
ws_preferences_window_init (WsPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * ws_preferences_window_new:
 * @settings: (nullable): the settings to edit; without them (no schema
 *   installed) the controls are insensitive
 *
 * Returns: (transfer full): the window
 */
WsPreferencesWindow *
ws_preferences_window_new (GtkWindow *parent, GSettings *settings)
{
  WsPreferencesWindow *self = g_object_new (WS_TYPE_PREFERENCES_WINDOW, "transient-for", parent,
                                            "use-header-bar", TRUE, NULL);

  if (settings == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->grid), FALSE);
      return self;
    }
  self->settings = g_object_ref (settings);
  g_settings_bind (settings, "top-n", self->top_n_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "name-form", self->name_form_combo, "active-id",
                   G_SETTINGS_BIND_DEFAULT);
  return self;
}

/**
 * ws_preferences_window_get_grid:
 *
 * Returns: (transfer none): the grid of controls, for other parts to add to
 */
GtkGrid *
ws_preferences_window_get_grid (WsPreferencesWindow *self)
{
  return self->grid;
}
