/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define WS_TYPE_CAPTURE_PROCESS (ws_capture_process_get_type ())
G_DECLARE_FINAL_TYPE (WsCaptureProcess, ws_capture_process, WS, CAPTURE_PROCESS, GObject)

WsCaptureProcess *ws_capture_process_new (char **argv, const char *cwd, char **envp,
                                          const char *stdout_path, guint grace_ms);
void ws_capture_process_set_tied (WsCaptureProcess *self, gboolean tied);
void ws_capture_process_run_async (WsCaptureProcess *self, GAsyncReadyCallback callback,
                                   gpointer user_data);
gboolean ws_capture_process_run_finish (WsCaptureProcess *self, GAsyncResult *result,
                                        int *exit_status, GError **error);
void ws_capture_process_terminate (WsCaptureProcess *self);
void ws_capture_process_kill (WsCaptureProcess *self);

gboolean ws_capture_line_is_problem (const char *line);

G_END_DECLS
