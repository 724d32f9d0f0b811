/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WS_TYPE_PREFERENCES_WINDOW (ws_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (WsPreferencesWindow, ws_preferences_window, WS, PREFERENCES_WINDOW, GtkDialog)

WsPreferencesWindow *ws_preferences_window_new (GtkWindow *parent, GSettings *settings);
GtkEntry *ws_preferences_window_get_entry (WsPreferencesWindow *self, const char *key);
const char *ws_preferences_window_get_recent_text (WsPreferencesWindow *self);
GtkButton *ws_preferences_window_get_clear_button (WsPreferencesWindow *self);

G_END_DECLS
