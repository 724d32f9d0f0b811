/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-timeline-view.h"

G_BEGIN_DECLS

void ws_lane_menu_popup (WsTimelineView *view, guint32 lane, WsEventRef target_event,
                         const GdkEvent *event);

G_END_DECLS
