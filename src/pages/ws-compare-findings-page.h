/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-run.h"

G_BEGIN_DECLS

#define WS_TYPE_COMPARE_FINDINGS_PAGE (ws_compare_findings_page_get_type ())

G_DECLARE_FINAL_TYPE (WsCompareFindingsPage, ws_compare_findings_page, WS, COMPARE_FINDINGS_PAGE,
                      GtkBox)

void ws_compare_findings_page_set_runs (WsCompareFindingsPage *self, WsRun *before, WsRun *after);
gboolean ws_compare_findings_page_is_busy (WsCompareFindingsPage *self);
GArray *ws_compare_findings_page_get_diff (WsCompareFindingsPage *self);
guint ws_compare_findings_page_get_n_rows (WsCompareFindingsPage *self);
char *ws_compare_findings_page_get_row_text (WsCompareFindingsPage *self, guint index);

G_END_DECLS
