/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-run.h"
#include "ws-stats.h"

G_BEGIN_DECLS

#define WS_TYPE_SUMMARIES_PAGE (ws_summaries_page_get_type ())

G_DECLARE_FINAL_TYPE (WsSummariesPage, ws_summaries_page, WS, SUMMARIES_PAGE, GtkBox)

void ws_summaries_page_set_run (WsSummariesPage *self, WsRun *run);
void ws_summaries_page_set_rank (WsSummariesPage *self, gint rank);
gboolean ws_summaries_page_is_busy (WsSummariesPage *self);
GtkTreeView *ws_summaries_page_get_view (WsSummariesPage *self, WsSummaryKind kind);
void ws_summaries_page_show (WsSummariesPage *self, WsSummaryKind kind);
char *ws_summaries_page_copy_csv (WsSummariesPage *self);
void ws_summaries_page_set_group_ops (WsSummariesPage *self, gboolean group);
gboolean ws_summaries_page_can_group_ops (WsSummariesPage *self);

G_END_DECLS
