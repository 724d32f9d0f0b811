/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

WsRun *ws_nvprof_trace_parse (const char *path, const char *text, gsize len, GError **error);
WsRun *ws_nvprof_trace_read (const char *path, GError **error);

G_END_DECLS
