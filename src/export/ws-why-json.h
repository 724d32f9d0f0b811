/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-range-bottleneck.h"
#include "ws-why.h"

G_BEGIN_DECLS

void ws_why_json_add_members (JsonBuilder *builder, const WsNcuResults *results, const WsWhy *why);
JsonNode *ws_range_bottleneck_to_json (GArray *rows);

G_END_DECLS
