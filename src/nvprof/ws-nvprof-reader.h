/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-load-options.h"
#include "ws-run.h"

G_BEGIN_DECLS

WsRun *ws_nvprof_reader_load (const char *path, WsLoadFlags flags, GCancellable *cancellable,
                              WsProgressFunc progress, gpointer progress_data, GError **error);

G_END_DECLS
