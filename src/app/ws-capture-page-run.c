/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-capture-page-private.h"
#include "ws-capture-settings-dialog.h"
#include "ws-capture-settings.h"
#include "ws-doctor-view.h"
#include "ws-doctor.h"
#include "ws-ssh-host.h"
#include "ws-target-validate.h"

/* The capture page's Run, Doctor and Settings: the targets checked, the
 * doctor asked first (here and on each host), then the panel runs them. */

/* The settings of a run: GSettings, then the workflow's environment
 * variables over them. */
static WsCaptureSettings *
current_settings (WsCapturePage *self, GError **error)
{
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_auto (GStrv) env = g_get_environ ();

  if (self->settings != NULL)
    ws_capture_settings_load (settings, self->settings);
  if (!ws_capture_settings_apply_environment (settings, (const char *const *) env, NULL, error) ||
      !ws_capture_settings_validate (settings, error))
    return NULL;
  return g_steal_pointer (&settings);
}

/* A relative output folder starts from the targets file's folder. */
static char *
output_dir (WsCapturePage *self, const WsCaptureSettings *settings)
{
  g_autofree char *base = ws_target_list_get_base_dir (self->list);
  g_autoptr (GFile) file = g_path_is_absolute (settings->output_dir)
                             ? g_file_new_for_path (settings->output_dir)
                             : g_file_new_build_filename (base, settings->output_dir, NULL);

  return g_file_get_path (file);
}

static GtkDialog *
doctor_dialog (WsCapturePage *self, GPtrArray *checks, const char *title)
{
  GtkDialog *dialog = ws_capture_page_ask (self, title, NULL);
  GtkWidget *area = gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (dialog));

  gtk_container_add (GTK_CONTAINER (area), ws_doctor_view_new (checks));
  return dialog;
}

typedef struct
{
  WsCapturePage *page;
  GArray *rows;
  WsCaptureSettings *settings;
} RunRequest;

static void
run_request_free (RunRequest *request)
{
  g_object_unref (request->page);
  g_array_unref (request->rows);
  ws_capture_settings_free (request->settings);
  g_free (request);
}

static void
start_run (WsCapturePage *self, RunRequest *request)
{
  g_autofree char *base = ws_target_list_get_base_dir (self->list);

  ws_capture_page_hide_message (self);
  ws_capture_panel_run (self->panel, (const guint *) request->rows->data, request->rows->len,
                        request->settings, base);
}

static void
run_anyway_cb (GtkDialog *dialog, int response, gpointer data)
{
  RunRequest *request = data;

  if (response == GTK_RESPONSE_ACCEPT && !ws_capture_panel_is_running (request->page->panel))
    start_run (request->page, request);
  gtk_widget_destroy (GTK_WIDGET (dialog));
  run_request_free (request);
}

static void
run_doctor_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  RunRequest *request = data;
  WsCapturePage *self = request->page;
  g_autoptr (GPtrArray) checks = ws_doctor_run_finish (result, NULL);
  GtkDialog *dialog;

  if (checks == NULL || g_cancellable_is_cancelled (self->cancellable))
    {
      run_request_free (request);
      return;
    }
  g_clear_object (&self->cancellable);
  if (ws_doctor_worst (checks) < WS_DOCTOR_ERROR)
    {
      start_run (self, request);
      run_request_free (request);
      return;
    }
  /* A capture would fail: say why and what to do, and let the user
   * decide. */
  dialog = doctor_dialog (self, checks, _ ("This Machine Is Not Ready for a Capture"));
  gtk_dialog_add_buttons (dialog, _ ("_Cancel"), GTK_RESPONSE_CANCEL, _ ("_Run Anyway"),
                          GTK_RESPONSE_ACCEPT, NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (run_anyway_cb), request);
  gtk_widget_show (GTK_WIDGET (dialog));
}

/* The hosts the rows run on (each once), and whether one runs here. */
static GPtrArray *
hosts_of (WsCapturePage *self, const WsCaptureSettings *settings, GArray *rows, gboolean *here)
{
  GPtrArray *hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_host_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  *here = FALSE;
  for (guint i = 0; i < rows->len; i++)
    {
      guint row = g_array_index (rows, guint, i);
      g_autofree char *spec = NULL;
      WsSshHost *host;

      if (!ws_target_list_is_remote (self->list, row))
        {
          *here = TRUE;
          continue;
        }
      spec = g_strstrip (g_strdup (ws_target_list_get (self->list, row, WS_TARGET_HOST)));
      if (!g_hash_table_add (seen, g_strdup (spec)))
        continue;
      host = ws_ssh_host_lookup (settings->hosts, spec, NULL);
      if (host != NULL)
        g_ptr_array_add (hosts, host);
    }
  return hosts;
}

/* Run: the checked targets must be valid; the doctor looks at the
 * machines they run on first. */
void
ws_capture_page_run_requested_cb (WsCapturePage *self)
{
  g_autoptr (GArray) rows = ws_capture_panel_get_checked (self->panel);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsCaptureSettings) settings = NULL;
  g_autoptr (GPtrArray) hosts = NULL;
  g_autofree char *out = NULL;
  gboolean here = FALSE;
  RunRequest *request;

  if (ws_capture_panel_is_running (self->panel) || self->cancellable != NULL)
    return;
  if (rows->len == 0)
    {
      ws_capture_page_show_message (self, GTK_MESSAGE_WARNING, _ ("Check the targets to capture."));
      return;
    }
  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr (GPtrArray) problems =
        ws_target_list_validate_row (self->list, g_array_index (rows, guint, i));

      if (problems->len > 0)
        {
          g_autofree char *problem =
            ws_target_list_format_problem (self->list, g_ptr_array_index (problems, 0));
          g_autofree char *text =
            g_strdup_printf (_ ("Fix the targets first (the red cells): %s"), problem);

          ws_capture_page_show_message (self, GTK_MESSAGE_ERROR, text);
          return;
        }
    }
  settings = current_settings (self, &error);
  if (settings == NULL)
    {
      ws_capture_page_show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }

  out = output_dir (self, settings);
  hosts = hosts_of (self, settings, rows, &here);
  request = g_new0 (RunRequest, 1);
  request->page = g_object_ref (self);
  request->rows = g_array_ref (rows);
  request->settings = g_steal_pointer (&settings);
  self->cancellable = g_cancellable_new ();
  ws_capture_page_show_message (self, GTK_MESSAGE_INFO,
                                hosts->len > 0 ? _ ("Checking the machines…")
                                               : _ ("Checking this machine…"));
  ws_doctor_run_hosts_async (request->settings, here ? out : NULL, NULL, hosts, self->cancellable,
                             run_doctor_done_cb, request);
}

static void
doctor_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsCapturePage) self = data;
  g_autoptr (GPtrArray) checks = ws_doctor_run_finish (result, NULL);
  GtkDialog *dialog;

  if (checks == NULL || self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;
  g_clear_object (&self->cancellable);
  ws_capture_page_hide_message (self);
  dialog = doctor_dialog (self, checks, _ ("Doctor"));
  gtk_dialog_add_button (dialog, _ ("_Close"), GTK_RESPONSE_CLOSE);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_widget_show (GTK_WIDGET (dialog));
}

/* The doctor of this machine, and of the hosts the checked targets run on. */
void
ws_capture_page_doctor_clicked_cb (WsCapturePage *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsCaptureSettings) settings = current_settings (self, &error);
  g_autoptr (GArray) rows = ws_capture_panel_get_checked (self->panel);
  g_autoptr (GPtrArray) hosts = NULL;
  g_autofree char *out = NULL;
  gboolean here;

  if (settings == NULL)
    {
      ws_capture_page_show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  if (self->cancellable != NULL)
    return;
  out = output_dir (self, settings);
  hosts = hosts_of (self, settings, rows, &here);
  self->cancellable = g_cancellable_new ();
  ws_capture_page_show_message (self, GTK_MESSAGE_INFO,
                                hosts->len > 0 ? _ ("Checking the machines…")
                                               : _ ("Checking this machine…"));
  ws_doctor_run_hosts_async (settings, here || hosts->len == 0 ? out : NULL, NULL, hosts,
                             self->cancellable, doctor_done_cb, g_object_ref (self));
}

void
ws_capture_page_settings_clicked_cb (WsCapturePage *self)
{
  WsCaptureSettingsDialog *dialog =
    ws_capture_settings_dialog_new (ws_capture_page_window_of (self), self->settings);

  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}
