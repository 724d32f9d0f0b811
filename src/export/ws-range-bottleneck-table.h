/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-range-bottleneck.h"
#include "ws-table-writer.h"

G_BEGIN_DECLS

void ws_range_bottleneck_table_write (GArray *rows, WsOutputFormat format, guint top, GString *out);

G_END_DECLS
