/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* A run in the Trace Event Format that Perfetto and chrome://tracing read
 * (docs/formats.md, "Chrome trace JSON"), written one event at a time. */

/* GPUs are processes of their own, numbered above any real pid (pids are
 * 24 bits in nsys's globalTid); their streams are threads numbered the same
 * way, so that they never meet a real thread id. */
#define WS_CHROME_TRACE_GPU_BASE (1 << 24)

gboolean ws_chrome_trace_write (const WsRun *run, GOutputStream *out, GCancellable *cancellable,
                                GError **error);
gboolean ws_chrome_trace_write_file (const WsRun *run, const char *path, GCancellable *cancellable,
                                     GError **error);
void ws_chrome_trace_write_file_async (WsRun *run, const char *path, GCancellable *cancellable,
                                       GAsyncReadyCallback callback, gpointer user_data);
gboolean ws_chrome_trace_write_file_finish (GAsyncResult *result, GError **error);

G_END_DECLS
