/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-ssh-host.h"

G_BEGIN_DECLS

#define WS_TYPE_SSH_CONNECTION (ws_ssh_connection_get_type ())
G_DECLARE_FINAL_TYPE (WsSshConnection, ws_ssh_connection, WS, SSH_CONNECTION, GObject)

WsSshConnection *ws_ssh_connection_new (const WsSshHost *host, const char *const *ssh_argv);
gboolean ws_ssh_connection_open (WsSshConnection *self, GCancellable *cancellable, GError **error);
void ws_ssh_connection_close (WsSshConnection *self);
gboolean ws_ssh_connection_is_open (WsSshConnection *self);
const WsSshHost *ws_ssh_connection_get_host (WsSshConnection *self);
const char *ws_ssh_connection_get_name (WsSshConnection *self);
char **ws_ssh_connection_argv (WsSshConnection *self, const char *remote_command);
char *ws_ssh_connection_verify_command (WsSshConnection *self);
char *ws_ssh_connection_display (WsSshConnection *self);
char *ws_ssh_connection_lost (WsSshConnection *self, const char *ssh_stderr);
gboolean ws_ssh_connection_run (WsSshConnection *self, const char *const *argv, const char *cwd,
                                guint timeout_s, GCancellable *cancellable, char **out, char **err,
                                int *exit_status, GError **error);
gboolean ws_ssh_connection_script (WsSshConnection *self, const char *script,
                                   const char *const *args, guint timeout_s,
                                   GCancellable *cancellable, char **out, GError **error);

G_END_DECLS
