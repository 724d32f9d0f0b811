/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-comparison.h"
#include "ws-timeline-view.h"

G_BEGIN_DECLS

#define WS_TYPE_COMPARE_TIMELINES (ws_compare_timelines_get_type ())

G_DECLARE_FINAL_TYPE (WsCompareTimelines, ws_compare_timelines, WS, COMPARE_TIMELINES, GtkBox)

void ws_compare_timelines_set_comparison (WsCompareTimelines *self, WsComparison *cmp);
gboolean ws_compare_timelines_is_ready (WsCompareTimelines *self);
gboolean ws_compare_timelines_align (WsCompareTimelines *self, const char *name, guint instance);
WsTimelineView *ws_compare_timelines_get_view (WsCompareTimelines *self, gboolean after);
const char *ws_compare_timelines_get_status (WsCompareTimelines *self);

G_END_DECLS
