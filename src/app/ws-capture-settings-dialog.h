/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WS_TYPE_CAPTURE_SETTINGS_DIALOG (ws_capture_settings_dialog_get_type ())

G_DECLARE_FINAL_TYPE (WsCaptureSettingsDialog, ws_capture_settings_dialog, WS,
                      CAPTURE_SETTINGS_DIALOG, GtkDialog)

WsCaptureSettingsDialog *ws_capture_settings_dialog_new (GtkWindow *parent, GSettings *settings);
void ws_capture_settings_dialog_show_page (WsCaptureSettingsDialog *self, const char *page);
GtkWidget *ws_capture_settings_dialog_get_widget (WsCaptureSettingsDialog *self, const char *name);

G_END_DECLS
