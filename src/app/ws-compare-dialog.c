/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-dialog"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-compare-dialog.h"
#include "ws-entry-chooser.h"

/* Chooses BEFORE and AFTER: each a file (an export, a CSV) or a folder (a
 * capture), typed or chosen. */
struct _WsCompareDialog
{
  GtkDialog parent_instance;

  GtkEntry *entries[2];
};

G_DEFINE_FINAL_TYPE (WsCompareDialog, ws_compare_dialog, GTK_TYPE_DIALOG)

static void
update_response (WsCompareDialog *self)
{
  gboolean ready = gtk_entry_get_text_length (self->entries[0]) > 0 &&
                   gtk_entry_get_text_length (self->entries[1]) > 0;

  gtk_dialog_set_response_sensitive (GTK_DIALOG (self), GTK_RESPONSE_ACCEPT, ready);
}

static void
choose (WsCompareDialog *self, GtkEntry *entry, gboolean folder)
{
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (
    folder ? _ ("Choose a Capture Folder") : _ ("Choose a Run"), GTK_WINDOW (self),
    folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER : GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Choose"),
    _ ("_Cancel"));

  ws_entry_chooser_show (chooser, entry);
}

static void
file_clicked_cb (GtkButton *button, WsCompareDialog *self)
{
  choose (self, g_object_get_data (G_OBJECT (button), "entry"), FALSE);
}

static void
folder_clicked_cb (GtkButton *button, WsCompareDialog *self)
{
  choose (self, g_object_get_data (G_OBJECT (button), "entry"), TRUE);
}

static void
ws_compare_dialog_class_init (WsCompareDialogClass *klass)
{
}

static void
ws_compare_dialog_init (WsCompareDialog *self)
{
  GtkWidget *grid = gtk_grid_new ();
  const char *labels[2] = { _ ("Before"), _ ("After") };

  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  g_object_set (grid, "margin", 18, NULL);
  for (int side = 0; side < 2; side++)
    {
      GtkWidget *label = gtk_label_new (labels[side]);
      GtkWidget *entry = gtk_entry_new ();
      GtkWidget *file = gtk_button_new_with_mnemonic (_ ("_File…"));
      GtkWidget *folder = gtk_button_new_with_mnemonic (_ ("F_older…"));

      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_entry_set_placeholder_text (GTK_ENTRY (entry),
                                      _ ("An nsys export, stats or ncu CSV, or a capture folder"));
      gtk_entry_set_width_chars (GTK_ENTRY (entry), 52);
      gtk_widget_set_hexpand (entry, TRUE);
      self->entries[side] = GTK_ENTRY (entry);
      g_object_set_data (G_OBJECT (file), "entry", entry);
      g_object_set_data (G_OBJECT (folder), "entry", entry);
      g_signal_connect (file, "clicked", G_CALLBACK (file_clicked_cb), self);
      g_signal_connect (folder, "clicked", G_CALLBACK (folder_clicked_cb), self);
      g_signal_connect_swapped (entry, "changed", G_CALLBACK (update_response), self);
      gtk_grid_attach (GTK_GRID (grid), label, 0, side, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), entry, 1, side, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), file, 2, side, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), folder, 3, side, 1, 1);
    }
  gtk_widget_show_all (grid);
  gtk_container_add (GTK_CONTAINER (gtk_dialog_get_content_area (GTK_DIALOG (self))), grid);
  gtk_dialog_add_buttons (GTK_DIALOG (self), _ ("_Cancel"), GTK_RESPONSE_CANCEL, _ ("C_ompare"),
                          GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (self), GTK_RESPONSE_ACCEPT);
  gtk_style_context_add_class (gtk_widget_get_style_context (gtk_dialog_get_widget_for_response (
                                 GTK_DIALOG (self), GTK_RESPONSE_ACCEPT)),
                               "suggested-action");
  update_response (self);
}

/**
 * ws_compare_dialog_new:
 * @before: (nullable): the run to put first (the window's own)
 *
 * Returns: (transfer full): the dialog
 */
WsCompareDialog *
ws_compare_dialog_new (GtkWindow *parent, const char *before)
{
  WsCompareDialog *self =
    g_object_new (WS_TYPE_COMPARE_DIALOG, "transient-for", parent, "modal", TRUE, "use-header-bar",
                  TRUE, "title", _ ("Compare Two Runs"), NULL);

  if (before != NULL)
    gtk_entry_set_text (self->entries[0], before);
  return self;
}

/**
 * ws_compare_dialog_get_path:
 *
 * Returns: (transfer full): the path typed or chosen for one side
 */
char *
ws_compare_dialog_get_path (WsCompareDialog *self, gboolean after)
{
  return g_strstrip (g_strdup (gtk_entry_get_text (self->entries[after ? 1 : 0])));
}

void
ws_compare_dialog_set_path (WsCompareDialog *self, gboolean after, const char *path)
{
  gtk_entry_set_text (self->entries[after ? 1 : 0], path);
}
