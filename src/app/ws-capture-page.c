/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-page"
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ws-capture-page-private.h"
#include "ws-capture-settings.h"
#include "ws-ssh-host.h"
#include "ws-target-autosave.h"

/* The launcher's page: a targets file in the editor, the capture panel
 * below it, the doctor and the settings.  Unsaved edits go to an
 * autosave file a few seconds after each change, and are offered back
 * when the file is opened again. */

#define AUTOSAVE_DELAY_S 2

G_DEFINE_FINAL_TYPE (WsCapturePage, ws_capture_page, GTK_TYPE_BOX)

enum
{
  OPEN_RESULTS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
ws_capture_page_show_message (WsCapturePage *self, GtkMessageType type, const char *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

void
ws_capture_page_hide_message (WsCapturePage *self)
{
  g_clear_pointer (&self->message, g_free);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
}

static void
info_bar_response_cb (WsCapturePage *self, int response, GtkInfoBar *bar)
{
  ws_capture_page_hide_message (self);
}

GtkWindow *
ws_capture_page_window_of (WsCapturePage *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));

  return GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL;
}

static void
remove_autosave (WsCapturePage *self)
{
  ws_target_autosave_remove (self->list != NULL ? ws_target_list_get_path (self->list) : NULL);
}

/* Writes the unsaved edits where a crash cannot take them. */
void
ws_capture_page_autosave_now (WsCapturePage *self)
{
  g_autoptr (GError) error = NULL;

  g_return_if_fail (WS_IS_CAPTURE_PAGE (self));

  g_clear_handle_id (&self->autosave_id, g_source_remove);
  if (self->list == NULL || !ws_target_list_get_modified (self->list))
    return;
  if (!ws_target_autosave_write (self->list, &error))
    g_warning ("autosave: %s", error->message);
}

static gboolean
autosave_cb (gpointer data)
{
  WsCapturePage *self = data;

  self->autosave_id = 0;
  ws_capture_page_autosave_now (self);
  return G_SOURCE_REMOVE;
}

static void
update_title (WsCapturePage *self)
{
  const char *path = self->list != NULL ? ws_target_list_get_path (self->list) : NULL;
  g_autofree char *text = NULL;

  if (path == NULL)
    text = g_strdup (_ ("New targets file, not saved"));
  else
    text = g_strdup (path);
  if (self->list != NULL && ws_target_list_get_modified (self->list))
    {
      g_autofree char *plain = g_steal_pointer (&text);

      /* Translators: a file name, then that it has unsaved changes */
      text = g_strdup_printf (_ ("%s (modified)"), plain);
    }
  gtk_label_set_text (self->file_label, text);
}

static void
list_changed_cb (WsCapturePage *self)
{
  update_title (self);
  if (self->autosave_id == 0)
    self->autosave_id = g_timeout_add_seconds (AUTOSAVE_DELAY_S, autosave_cb, self);
}

/* The hosts of the settings: what the HOST column may name. */
static void
update_hosts (WsCapturePage *self)
{
  g_autoptr (GVariant) value = NULL;
  g_autoptr (GPtrArray) hosts = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) names = NULL;

  if (self->settings != NULL)
    {
      value = g_settings_get_value (self->settings, "hosts");
      hosts = ws_ssh_hosts_from_variant (value);
      for (guint i = 0; i < hosts->len; i++)
        g_strv_builder_add (builder, ((WsSshHost *) g_ptr_array_index (hosts, i))->name);
    }
  names = g_strv_builder_end (builder);
  ws_targets_editor_set_hosts (self->editor, (const char *const *) names);
  if (self->list != NULL)
    ws_target_list_set_known_hosts (self->list, (const char *const *) names);
}

static void
set_list (WsCapturePage *self, WsTargetList *list)
{
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  g_set_object (&self->list, list);
  g_signal_connect_object (list, "changed", G_CALLBACK (list_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (list, "notify::modified", G_CALLBACK (update_title), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (list, "notify::path", G_CALLBACK (update_title), self,
                           G_CONNECT_SWAPPED);
  ws_targets_editor_set_list (self->editor, list);
  ws_capture_panel_set_list (self->panel, list);
  update_hosts (self);
  update_title (self);
}

GtkDialog *
ws_capture_page_ask (WsCapturePage *self, const char *primary, const char *secondary)
{
  GtkWidget *dialog = gtk_message_dialog_new (
    ws_capture_page_window_of (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
    GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s", primary);

  if (secondary != NULL)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  if (self->prompt != NULL)
    gtk_widget_destroy (GTK_WIDGET (self->prompt));
  self->prompt = GTK_DIALOG (dialog);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &self->prompt);
  return GTK_DIALOG (dialog);
}

typedef struct
{
  WsCapturePage *page;
  char *path;
  char *data;
  gsize len;
} Restore;

static void
restore_free (Restore *restore)
{
  g_object_unref (restore->page);
  g_free (restore->path);
  g_free (restore->data);
  g_free (restore);
}

static void
restore_response_cb (GtkDialog *dialog, int response, gpointer data)
{
  Restore *restore = data;
  WsCapturePage *self = restore->page;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (WsTargetList) list =
        ws_target_list_new_from_data (restore->data, restore->len, restore->path);

      ws_target_list_set_modified (list, TRUE);
      set_list (self, list);
    }
  else if (response == GTK_RESPONSE_REJECT)
    remove_autosave (self);
  gtk_widget_destroy (GTK_WIDGET (dialog));
  restore_free (restore);
}

/* Edits that were never saved (a crash, a kill) are offered back. */
static void
offer_autosave (WsCapturePage *self, const char *path)
{
  g_autofree char *when = NULL;
  g_autofree char *secondary = NULL;
  g_autofree char *saved = NULL;
  gint64 mtime = 0;
  gsize len = 0;
  Restore *restore;
  GtkDialog *dialog;

  saved = ws_target_autosave_find (self->list, &len, &mtime);
  if (saved == NULL)
    return;
  if (mtime != 0)
    {
      g_autoptr (GDateTime) time = g_date_time_new_from_unix_local (mtime);

      when = g_date_time_format (time, "%Y-%m-%d %H:%M");
    }
  secondary =
    g_strdup_printf (_ ("Edits of %s from %s were not saved. Restore them, or discard "
                        "them and keep the file as it is on disk?"),
                     path != NULL ? path : _ ("a new targets file"), when != NULL ? when : "?");
  dialog = ws_capture_page_ask (self, _ ("Restore Unsaved Edits?"), secondary);
  gtk_dialog_add_buttons (dialog, _ ("_Discard"), GTK_RESPONSE_REJECT, _ ("_Restore"),
                          GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (dialog, GTK_RESPONSE_ACCEPT);
  restore = g_new0 (Restore, 1);
  restore->page = g_object_ref (self);
  restore->path = g_strdup (path);
  restore->data = g_steal_pointer (&saved);
  restore->len = len;
  g_signal_connect (dialog, "response", G_CALLBACK (restore_response_cb), restore);
  gtk_widget_show (GTK_WIDGET (dialog));
}

/**
 * ws_capture_page_open:
 *
 * Opens a targets file in the editor, and offers its autosave when one
 * holds edits that were never saved.
 */
gboolean
ws_capture_page_open (WsCapturePage *self, const char *path, GError **error)
{
  g_autoptr (WsTargetList) list = NULL;

  g_return_val_if_fail (WS_IS_CAPTURE_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  self->loaded = TRUE;
  list = ws_target_list_new_from_file (path, error);
  if (list == NULL)
    return FALSE;
  set_list (self, list);
  ws_capture_page_hide_message (self);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "last-targets-file", path);
  offer_autosave (self, path);
  return TRUE;
}

/* Saves to @path atomically, with a backup; the autosave goes. */
gboolean
ws_capture_page_save_as (WsCapturePage *self, const char *path, GError **error)
{
  g_autofree char *old_path = NULL;

  g_return_val_if_fail (WS_IS_CAPTURE_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* Saved under a new name: the old name's autosave goes too. */
  old_path = g_strdup (ws_target_list_get_path (self->list));
  if (!ws_target_list_save (self->list, path, error))
    return FALSE;
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  ws_target_autosave_remove (old_path);
  remove_autosave (self);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "last-targets-file", path);
  ws_capture_page_hide_message (self);
  return TRUE;
}

gboolean
ws_capture_page_save (WsCapturePage *self, GError **error)
{
  const char *path;

  g_return_val_if_fail (WS_IS_CAPTURE_PAGE (self), FALSE);

  path = ws_target_list_get_path (self->list);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                           _ ("The targets file has no name yet: use Save As."));
      return FALSE;
    }
  return ws_capture_page_save_as (self, path, error);
}

static void
save_as_response_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  WsCapturePage *self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GError) error = NULL;

      if (path != NULL && !ws_capture_page_save_as (self, path, &error))
        ws_capture_page_show_message (self, GTK_MESSAGE_ERROR, error->message);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
save_as_clicked_cb (WsCapturePage *self)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_ ("Save the Targets File"), ws_capture_page_window_of (self),
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Save"), _ ("_Cancel"));
  const char *path = ws_target_list_get_path (self->list);

  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (dialog), TRUE);
  if (path != NULL)
    gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (dialog), path);
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "targets.tsv");
  g_signal_connect (dialog, "response", G_CALLBACK (save_as_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
save_clicked_cb (WsCapturePage *self)
{
  g_autoptr (GError) error = NULL;

  if (ws_target_list_get_path (self->list) == NULL)
    {
      save_as_clicked_cb (self);
      return;
    }
  if (!ws_capture_page_save (self, &error))
    ws_capture_page_show_message (self, GTK_MESSAGE_ERROR, error->message);
}

static void
open_response_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  WsCapturePage *self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GError) error = NULL;

      if (path != NULL && !ws_capture_page_open (self, path, &error))
        ws_capture_page_show_message (self, GTK_MESSAGE_ERROR, error->message);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
open_clicked_cb (WsCapturePage *self)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_ ("Open a Targets File"), ws_capture_page_window_of (self),
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), _ ("_Cancel"));
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _ ("Targets files (*.tsv)"));
  gtk_file_filter_add_pattern (filter, "*.tsv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _ ("All files"));
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  /* Unsaved edits of the current file stay in its autosave. */
  ws_capture_page_autosave_now (self);
  g_signal_connect (dialog, "response", G_CALLBACK (open_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
new_clicked_cb (WsCapturePage *self)
{
  g_autoptr (WsTargetList) list = ws_target_list_new ();

  ws_capture_page_autosave_now (self);
  set_list (self, list);
}

static void
open_results_cb (WsCapturePage *self, const char *dir)
{
  g_signal_emit (self, signals[OPEN_RESULTS], 0, dir);
}

static void
close_response_cb (GtkDialog *dialog, int response, gpointer data)
{
  WsCapturePage *self = data;
  GtkWidget *window = self->toplevel;
  gboolean close = FALSE;

  if (response == GTK_RESPONSE_ACCEPT && ws_target_list_get_modified (self->list))
    {
      g_autoptr (GError) error = NULL;

      if (ws_target_list_get_path (self->list) == NULL)
        {
          gtk_widget_destroy (GTK_WIDGET (dialog));
          save_as_clicked_cb (self);
          return;
        }
      close = ws_capture_page_save (self, &error);
      if (!close)
        ws_capture_page_show_message (self, GTK_MESSAGE_ERROR, error->message);
    }
  else if (response == GTK_RESPONSE_ACCEPT)
    close = TRUE; /* "Stop and Close" of a running capture */
  else if (response == GTK_RESPONSE_REJECT)
    {
      /* Closing without saving: the edits are given up knowingly. */
      g_clear_handle_id (&self->autosave_id, g_source_remove);
      remove_autosave (self);
      close = TRUE;
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
  if (close && window != NULL)
    {
      self->closing = TRUE;
      gtk_window_close (GTK_WINDOW (window));
    }
}

/* Closing the window with unsaved edits, or during a capture, asks. */
static gboolean
delete_event_cb (GtkWidget *window, GdkEvent *event, gpointer data)
{
  WsCapturePage *self = data;
  gboolean running = ws_capture_panel_is_running (self->panel);
  gboolean modified = self->list != NULL && ws_target_list_get_modified (self->list);
  GtkDialog *dialog;

  if (self->closing || (!running && !modified))
    return GDK_EVENT_PROPAGATE;

  if (modified)
    {
      const char *path = ws_target_list_get_path (self->list);
      g_autofree char *name = path != NULL ? g_path_get_basename (path) : NULL;
      g_autofree char *primary =
        name != NULL ? g_strdup_printf (_ ("Save the Changes to “%s” Before Closing?"), name)
                     : g_strdup (_ ("Save the New Targets File Before Closing?"));

      dialog = ws_capture_page_ask (
        self, primary,
        running ? _ ("A capture is running: closing stops it and everything it "
                     "started.")
                : _ ("Unsaved changes are lost when you close without saving."));
      gtk_dialog_add_buttons (dialog, _ ("Close _without Saving"), GTK_RESPONSE_REJECT,
                              _ ("_Cancel"), GTK_RESPONSE_CANCEL, _ ("_Save"), GTK_RESPONSE_ACCEPT,
                              NULL);
    }
  else
    {
      dialog = ws_capture_page_ask (
        self, _ ("Stop the Capture?"),
        _ ("A capture is running: closing the window stops it and everything it "
           "started."));
      gtk_dialog_add_buttons (dialog, _ ("_Cancel"), GTK_RESPONSE_CANCEL, _ ("_Stop and Close"),
                              GTK_RESPONSE_ACCEPT, NULL);
    }
  gtk_dialog_set_default_response (dialog, GTK_RESPONSE_CANCEL);
  g_signal_connect (dialog, "response", G_CALLBACK (close_response_cb), self);
  gtk_widget_show (GTK_WIDGET (dialog));
  return GDK_EVENT_STOP;
}

static void
hierarchy_changed_cb (WsCapturePage *self, GtkWidget *previous)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));

  if (self->toplevel != NULL)
    g_signal_handlers_disconnect_by_func (self->toplevel, delete_event_cb, self);
  self->toplevel = GTK_IS_WINDOW (toplevel) ? toplevel : NULL;
  if (self->toplevel != NULL)
    g_signal_connect_object (self->toplevel, "delete-event", G_CALLBACK (delete_event_cb), self, 0);
}

/* The last targets file opens when the page is first shown, not when a
 * window that only views a run is made. */
static void
map_cb (WsCapturePage *self)
{
  g_autofree char *last = NULL;
  g_autoptr (GError) error = NULL;

  if (self->loaded)
    return;
  self->loaded = TRUE;
  if (self->settings != NULL)
    last = g_settings_get_string (self->settings, "last-targets-file");
  if (last != NULL && last[0] != '\0' && g_file_test (last, G_FILE_TEST_IS_REGULAR))
    {
      if (!ws_capture_page_open (self, last, &error))
        ws_capture_page_show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  offer_autosave (self, NULL);
}

static void
ws_capture_page_dispose (GObject *object)
{
  WsCapturePage *self = WS_CAPTURE_PAGE (object);

  /* Edits not saved yet are kept for the next time. */
  if (self->autosave_id != 0)
    ws_capture_page_autosave_now (self);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->toplevel != NULL)
    g_signal_handlers_disconnect_by_func (self->toplevel, delete_event_cb, self);
  self->toplevel = NULL;
  if (self->prompt != NULL)
    gtk_widget_destroy (GTK_WIDGET (self->prompt));
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  g_clear_object (&self->list);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ws_capture_page_parent_class)->dispose (object);
}

static void
ws_capture_page_finalize (GObject *object)
{
  WsCapturePage *self = WS_CAPTURE_PAGE (object);

  g_free (self->message);

  G_OBJECT_CLASS (ws_capture_page_parent_class)->finalize (object);
}

static void
ws_capture_page_class_init (WsCapturePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_capture_page_dispose;
  object_class->finalize = ws_capture_page_finalize;

  /**
   * WsCapturePage::open-results:
   * @dir: a target's capture folder
   *
   * “Open Results” was clicked for a finished target.
   */
  signals[OPEN_RESULTS] =
    g_signal_new ("open-results", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (WS_TYPE_TARGETS_EDITOR);
  g_type_ensure (WS_TYPE_CAPTURE_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-capture-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsCapturePage, file_label);
  gtk_widget_class_bind_template_child (widget_class, WsCapturePage, info_bar);
  gtk_widget_class_bind_template_child (widget_class, WsCapturePage, info_label);
  gtk_widget_class_bind_template_child (widget_class, WsCapturePage, editor);
  gtk_widget_class_bind_template_child (widget_class, WsCapturePage, panel);
  gtk_widget_class_bind_template_callback (widget_class, new_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, save_as_clicked_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "doctor_clicked_cb",
                                                G_CALLBACK (ws_capture_page_doctor_clicked_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "settings_clicked_cb",
                                                G_CALLBACK (ws_capture_page_settings_clicked_cb));
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "run_requested_cb",
                                                G_CALLBACK (ws_capture_page_run_requested_cb));
  gtk_widget_class_bind_template_callback (widget_class, open_results_cb);
}

static void
ws_capture_page_init (WsCapturePage *self)
{
  g_autoptr (WsTargetList) list = ws_target_list_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = ws_capture_settings_open_gsettings ();
  if (self->settings != NULL)
    g_signal_connect_object (self->settings, "changed::hosts", G_CALLBACK (update_hosts), self,
                             G_CONNECT_SWAPPED);
  set_list (self, list);
  g_signal_connect (self, "hierarchy-changed", G_CALLBACK (hierarchy_changed_cb), NULL);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), NULL);
}

/**
 * ws_capture_page_get_list:
 *
 * Returns: (transfer none): the targets being edited
 */
WsTargetList *
ws_capture_page_get_list (WsCapturePage *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PAGE (self), NULL);
  return self->list;
}

/**
 * ws_capture_page_get_editor:
 *
 * Returns: (transfer none): the targets editor
 */
WsTargetsEditor *
ws_capture_page_get_editor (WsCapturePage *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PAGE (self), NULL);
  return self->editor;
}

/**
 * ws_capture_page_get_panel:
 *
 * Returns: (transfer none): the capture panel
 */
WsCapturePanel *
ws_capture_page_get_panel (WsCapturePage *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PAGE (self), NULL);
  return self->panel;
}

/**
 * ws_capture_page_get_prompt:
 *
 * Returns: (transfer none) (nullable): the question on show: restore an
 *   autosave, save before closing, run despite the doctor, the doctor
 */
GtkDialog *
ws_capture_page_get_prompt (WsCapturePage *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PAGE (self), NULL);
  return self->prompt;
}

/**
 * ws_capture_page_get_message:
 *
 * Returns: (transfer none) (nullable): the info bar's text while it shows
 */
const char *
ws_capture_page_get_message (WsCapturePage *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PAGE (self), NULL);
  return self->message;
}
