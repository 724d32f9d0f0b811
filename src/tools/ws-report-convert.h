/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-input.h"
#include "ws-load-options.h"

G_BEGIN_DECLS

void ws_report_convert_set_tools (const char *nsys, const char *ncu);
char *ws_report_convert_cache_dir (void);
char *ws_report_convert_cache_path (const char *report, WsInputKind kind, GError **error);
char *ws_report_convert (const char *report, WsInputKind kind, GCancellable *cancellable,
                         WsProgressFunc progress, gpointer progress_data, GError **error);

G_END_DECLS
