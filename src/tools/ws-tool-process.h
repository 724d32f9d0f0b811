/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define WS_TYPE_TOOL_PROCESS (ws_tool_process_get_type ())
G_DECLARE_FINAL_TYPE (WsToolProcess, ws_tool_process, WS, TOOL_PROCESS, GObject)

WsToolProcess *ws_tool_process_new (char **argv, const char *cwd, char **envp,
                                    const char *stdout_path, guint grace_ms);
void ws_tool_process_set_tied (WsToolProcess *self, gboolean tied);
void ws_tool_process_set_hold_stdin (WsToolProcess *self, gboolean hold);
void ws_tool_process_run_async (WsToolProcess *self, GAsyncReadyCallback callback,
                                gpointer user_data);
gboolean ws_tool_process_run_finish (WsToolProcess *self, GAsyncResult *result, int *exit_status,
                                     GError **error);
void ws_tool_process_terminate (WsToolProcess *self);
void ws_tool_process_kill (WsToolProcess *self);
gboolean ws_tool_process_run_sync (WsToolProcess *self, guint timeout_s, GCancellable *cancellable,
                                   char **out, char **err, int *exit_status, GError **error);

gboolean ws_tool_process_line_is_problem (const char *line);

G_END_DECLS
