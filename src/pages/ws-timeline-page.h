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
void ws_timeline_page_show_time (WsTimelinePage *self, gint64 start, gint64 end);
void ws_timeline_page_show_rank_step (WsTimelinePage *self, guint32 pid, gint64 start, gint64 end);
WsTimelineView *ws_timeline_page_get_view (WsTimelinePage *self);
gboolean ws_timeline_page_is_ready (WsTimelinePage *self);
gboolean ws_timeline_page_has_projection (WsTimelinePage *self);
const char *ws_timeline_page_get_side_title (WsTimelinePage *self);
const char *ws_timeline_page_get_details_text (WsTimelinePage *self);
GtkWidget *ws_timeline_page_get_flame_button (WsTimelinePage *self);
GtkTreeModel *ws_timeline_page_get_side_model (WsTimelinePage *self);
void ws_timeline_page_set_group_ops (WsTimelinePage *self, gboolean group);

GArray *ws_timeline_page_get_rollup (WsTimelinePage *self);

char *ws_timeline_page_range_text (const WsRun *run, gint rank, guint32 pid, gint64 start,
                                   gint64 end, WsSummary **summary);

G_END_DECLS
