/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-entry-chooser"
#include "config.h"

#include "ws-entry-chooser.h"

/* The "Choose…" buttons beside the path entries of Preferences, of the
 * capture settings and of the Compare dialog: a file chooser whose answer
 * fills the entry. */

static void
response_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  GtkEntry *entry = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));

      if (path != NULL)
        gtk_entry_set_text (entry, path);
    }
  g_object_unref (dialog);
  g_object_unref (entry);
}

/**
 * ws_entry_chooser_show:
 * @dialog: (transfer full): the chooser, set up
 *
 * Shows @dialog; the path the user accepts replaces the text of @entry.
 */
void
ws_entry_chooser_show (GtkFileChooserNative *dialog, GtkEntry *entry)
{
  g_return_if_fail (GTK_IS_FILE_CHOOSER_NATIVE (dialog));
  g_return_if_fail (GTK_IS_ENTRY (entry));

  g_signal_connect (dialog, "response", G_CALLBACK (response_cb), g_object_ref (entry));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}
