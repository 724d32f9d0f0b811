/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-preferences"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-entry-chooser.h"
#include "ws-preferences-window.h"
#include "ws-tool-find.h"

/* Edits the settings of org.warpscope.Warpscope; every control is bound to
 * its key, so changes apply at once and survive a restart.  The tools and
 * the output folder are here and in the Capture page's settings dialog
 * (the same keys); the rest of a capture's options only there. */
struct _WsPreferencesWindow
{
  GtkDialog parent_instance;

  GSettings *settings;

  /* Template widgets */
  GtkGrid *grid;
  GtkSpinButton *top_n_spin;
  GtkComboBoxText *name_form_combo;
  GtkEntry *nsys_entry;
  GtkEntry *ncu_entry;
  GtkEntry *output_entry;
  GtkButton *nsys_button;
  GtkButton *ncu_button;
  GtkButton *output_button;
  GtkLabel *recent_label;
  GtkButton *clear_recent_button;
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
update_recent (WsPreferencesWindow *self)
{
  g_auto (GStrv) runs = g_settings_get_strv (self->settings, "recent-runs");
  g_auto (GStrv) comparisons = g_settings_get_strv (self->settings, "recent-comparisons");
  guint n_runs = g_strv_length (runs), n_comparisons = g_strv_length (comparisons);
  g_autofree char *runs_text =
    g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u run", "%u runs", n_runs), n_runs);
  g_autofree char *comparisons_text = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%u comparison", "%u comparisons", n_comparisons), n_comparisons);
  /* TRANSLATORS: "4 runs and 1 comparison in the Open Recent menu" */
  g_autofree char *text =
    g_strdup_printf (_ ("%s and %s in the Open Recent menu"), runs_text, comparisons_text);

  gtk_label_set_text (self->recent_label, text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->clear_recent_button), n_runs + n_comparisons > 0);
}

static void
clear_recent_clicked_cb (WsPreferencesWindow *self)
{
  if (self->settings == NULL)
    return;
  g_settings_reset (self->settings, "recent-runs");
  g_settings_reset (self->settings, "recent-comparisons");
}

static void
choose_clicked_cb (WsPreferencesWindow *self, GtkButton *button)
{
  gboolean folder = button == self->output_button;
  GtkEntry *entry = button == self->nsys_button  ? self->nsys_entry
                    : button == self->ncu_button ? self->ncu_entry
                                                 : self->output_entry;
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
    folder                        ? _ ("Choose the Output Folder")
    : button == self->nsys_button ? _ ("Choose nsys")
                                  : _ ("Choose ncu"),
    GTK_WINDOW (self),
    folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER : GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Select"),
    NULL);
  const char *current = gtk_entry_get_text (entry);

  if (current[0] != '\0')
    gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (dialog), current);
  ws_entry_chooser_show (dialog, entry);
}

/* An empty path means "found on PATH": say where, or that it is not. */
static void
tool_placeholder (GtkEntry *entry, const char *name)
{
  g_autofree char *found = ws_tool_find (name);
  g_autofree char *text = found != NULL ? g_strdup_printf (_ ("found: %s"), found)
                                        : g_strdup (_ ("not found: choose it"));

  gtk_entry_set_placeholder_text (entry, text);
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
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, nsys_entry);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, ncu_entry);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, output_entry);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, nsys_button);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, ncu_button);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, output_button);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, recent_label);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, clear_recent_button);
  gtk_widget_class_bind_template_callback (widget_class, choose_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, clear_recent_clicked_cb);
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
  g_settings_bind (settings, "nsys-path", self->nsys_entry, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "ncu-path", self->ncu_entry, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "output-dir", self->output_entry, "text", G_SETTINGS_BIND_DEFAULT);
  tool_placeholder (self->nsys_entry, "nsys");
  tool_placeholder (self->ncu_entry, "ncu");
  g_signal_connect_object (settings, "changed::recent-runs", G_CALLBACK (update_recent), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::recent-comparisons", G_CALLBACK (update_recent),
                           self, G_CONNECT_SWAPPED);
  update_recent (self);
  return self;
}

/**
 * ws_preferences_window_get_entry:
 * @key: "nsys-path", "ncu-path" or "output-dir"
 *
 * Returns: (transfer none) (nullable): the entry bound to @key
 */
GtkEntry *
ws_preferences_window_get_entry (WsPreferencesWindow *self, const char *key)
{
  g_return_val_if_fail (WS_IS_PREFERENCES_WINDOW (self), NULL);

  if (g_strcmp0 (key, "nsys-path") == 0)
    return self->nsys_entry;
  if (g_strcmp0 (key, "ncu-path") == 0)
    return self->ncu_entry;
  if (g_strcmp0 (key, "output-dir") == 0)
    return self->output_entry;
  return NULL;
}

const char *
ws_preferences_window_get_recent_text (WsPreferencesWindow *self)
{
  g_return_val_if_fail (WS_IS_PREFERENCES_WINDOW (self), NULL);

  return gtk_label_get_text (self->recent_label);
}

GtkButton *
ws_preferences_window_get_clear_button (WsPreferencesWindow *self)
{
  g_return_val_if_fail (WS_IS_PREFERENCES_WINDOW (self), NULL);

  return self->clear_recent_button;
}
