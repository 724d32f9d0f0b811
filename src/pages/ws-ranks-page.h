/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-ranks-view.h"
#include "ws-ranks.h"
#include "ws-run.h"

G_BEGIN_DECLS

#define WS_TYPE_RANKS_PAGE (ws_ranks_page_get_type ())
G_DECLARE_FINAL_TYPE (WsRanksPage, ws_ranks_page, WS, RANKS_PAGE, GtkBox)

void ws_ranks_page_begin (WsRanksPage *self, WsRanks *ranks);
void ws_ranks_page_add_figures (WsRanksPage *self, guint index, WsRankFigures *figures);
void ws_ranks_page_set_progress (WsRanksPage *self, double fraction, const char *text);
void ws_ranks_page_set_run (WsRanksPage *self, WsRun *run);
WsRanks *ws_ranks_page_get_ranks (WsRanksPage *self);
WsRankFigures *ws_ranks_page_get_figures (WsRanksPage *self, guint index);
WsRanksView *ws_ranks_page_get_view (WsRanksPage *self);
GtkTreeModel *ws_ranks_page_get_table (WsRanksPage *self);
GtkTreeView *ws_ranks_page_get_tree (WsRanksPage *self);
GtkButton *ws_ranks_page_get_peers_button (WsRanksPage *self);
const char *ws_ranks_page_get_summary (WsRanksPage *self);

G_END_DECLS
