/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-finding.h"
#include "ws-run.h"
#include "ws-timeline-view.h"

G_BEGIN_DECLS

#define WS_TYPE_TIMELINE_PAGE (ws_timeline_page_get_type ())

G_DECLARE_FINAL_TYPE (WsTimelinePage, ws_timeline_page, WS, TIMELINE_PAGE, GtkBox)

/* The timeline opens on at most this many steady steps (docs/NOTES.md,
 * "The timeline"). */
#define WS_TIMELINE_FIRST_STEPS 5

/* Process groups start open when they ran GPU work, unless a job has more
 * ranks than this (then each rank is one row, its GPU activity in its
 * header). */
#define WS_TIMELINE_OPEN_RANKS 8

void ws_timeline_page_set_run (WsTimelinePage *self, WsRun *run);
void ws_timeline_page_show_finding (WsTimelinePage *self, WsFinding *finding);
void ws_timeline_page_set_path (WsTimelinePage *self, WsTimelinePath *path);
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
