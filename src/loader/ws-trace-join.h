/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-run.h"

G_BEGIN_DECLS

WsRun *ws_trace_join (WsRun *export, WsRun *trace, const char *export_path, const char *trace_path);

G_END_DECLS
