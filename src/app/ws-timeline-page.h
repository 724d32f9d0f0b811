/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-finding.h"
#include "ws-run.h"
#include "ws-timeline-view.h"

G_BEGIN_DECLS

#define WS_TYPE_TIMELINE_PAGE (ws_timeline_page_get_type ())

G_DECLARE_FINAL_TYPE (WsTimelinePage, ws_timeline_page, WS, TIMELINE_PAGE, GtkBox)

void ws_timeline_page_set_run (WsTimelinePage *self, WsRun *run);
void ws_timeline_page_show_finding (WsTimelinePage *self, WsFinding *finding);
WsTimelineView *ws_timeline_page_get_view (WsTimelinePage *self);
gboolean ws_timeline_page_is_ready (WsTimelinePage *self);
gboolean ws_timeline_page_has_projection (WsTimelinePage *self);
const char *ws_timeline_page_get_side_title (WsTimelinePage *self);
const char *ws_timeline_page_get_details_text (WsTimelinePage *self);
GtkWidget *ws_timeline_page_get_flame_button (WsTimelinePage *self);
GtkTreeModel *ws_timeline_page_get_side_model (WsTimelinePage *self);

GArray *ws_timeline_page_get_rollup (WsTimelinePage *self);

G_END_DECLS
