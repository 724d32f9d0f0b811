/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ncu-results.h"
#include "ws-table-writer.h"

G_BEGIN_DECLS

void ws_gauges_table_write (const WsRun *run, WsOutputFormat format, guint width, GString *out);

G_END_DECLS
