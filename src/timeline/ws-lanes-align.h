/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-lanes.h"

G_BEGIN_DECLS

gint64 *ws_lanes_align_on_step (const WsLanes *lanes, guint step, gint64 *reference);
guint32 ws_lanes_align_rank_group (const WsLanes *lanes, guint32 pid);

G_END_DECLS
