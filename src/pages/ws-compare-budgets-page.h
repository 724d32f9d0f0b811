/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-run.h"
#include "ws-steps.h"

G_BEGIN_DECLS

#define WS_TYPE_COMPARE_BUDGETS_PAGE (ws_compare_budgets_page_get_type ())

G_DECLARE_FINAL_TYPE (WsCompareBudgetsPage, ws_compare_budgets_page, WS, COMPARE_BUDGETS_PAGE,
                      GtkBox)

void ws_compare_budgets_page_set_runs (WsCompareBudgetsPage *self, WsRun *before,
                                       WsSteps *before_steps, WsRun *after, WsSteps *after_steps);
void ws_compare_budgets_page_set_file (WsCompareBudgetsPage *self, const char *path);
gboolean ws_compare_budgets_page_is_busy (WsCompareBudgetsPage *self);
guint ws_compare_budgets_page_get_n_rows (WsCompareBudgetsPage *self);
char *ws_compare_budgets_page_get_row_text (WsCompareBudgetsPage *self, guint index);
const char *ws_compare_budgets_page_get_summary (WsCompareBudgetsPage *self);

G_END_DECLS
