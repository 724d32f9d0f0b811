/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-progress.h"
#include "ws-run.h"

G_BEGIN_DECLS

WsRun *ws_kineto_reader_load (const char *path, GCancellable *cancellable, WsProgressFunc progress,
                              gpointer progress_data, GError **error);
WsRun *ws_kineto_reader_load_stream (GInputStream *stream, const char *path,
                                     GCancellable *cancellable, GError **error);

WsRun *ws_kineto_reader_probe (const char *path, GCancellable *cancellable, GError **error);

G_END_DECLS
