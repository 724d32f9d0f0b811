/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-load-options.h"
#include "ws-run.h"

G_BEGIN_DECLS

gboolean ws_nsys_reader_sniff (const char *path, GError **error);

WsRun *ws_nsys_reader_load (const char *path, WsLoadFlags flags, GCancellable *cancellable,
                            WsProgressFunc progress, gpointer progress_data, GError **error);
WsRun *ws_nsys_reader_probe (const char *path, GError **error);

G_END_DECLS
