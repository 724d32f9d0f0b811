/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-load-options.h"
#include "ws-ncu-results.h"
#include "ws-run.h"

G_BEGIN_DECLS

WsRun *ws_run_load (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
                    WsProgressFunc progress, gpointer progress_data, GError **error);

void ws_run_load_async (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
                        WsProgressFunc progress, gpointer progress_data,
                        GDestroyNotify progress_notify, GAsyncReadyCallback callback,
                        gpointer user_data);
WsRun *ws_run_load_finish (GAsyncResult *result, GError **error);
WsNcuResults *ws_run_load_ncu (const char *const *paths, GPtrArray *warnings,
                               GCancellable *cancellable, GError **error);

G_END_DECLS
