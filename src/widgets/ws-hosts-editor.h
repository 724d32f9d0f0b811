/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WS_TYPE_HOSTS_EDITOR (ws_hosts_editor_get_type ())

G_DECLARE_FINAL_TYPE (WsHostsEditor, ws_hosts_editor, WS, HOSTS_EDITOR, GtkBox)

GtkWidget *ws_hosts_editor_new (void);
void ws_hosts_editor_set_hosts (WsHostsEditor *self, GPtrArray *hosts);
GPtrArray *ws_hosts_editor_get_hosts (WsHostsEditor *self);
gboolean ws_hosts_editor_is_valid (WsHostsEditor *self);
int ws_hosts_editor_get_selected (WsHostsEditor *self);
void ws_hosts_editor_select (WsHostsEditor *self, int index);
void ws_hosts_editor_add (WsHostsEditor *self);
void ws_hosts_editor_show_checks (WsHostsEditor *self, GPtrArray *checks, const char *message);
GtkWidget *ws_hosts_editor_get_widget (WsHostsEditor *self, const char *name);

G_END_DECLS
