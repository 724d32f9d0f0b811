/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-compare-gauges-view.h"
#include "ws-comparison.h"

G_BEGIN_DECLS

#define WS_TYPE_COMPARE_GAUGES_PAGE (ws_compare_gauges_page_get_type ())

G_DECLARE_FINAL_TYPE (WsCompareGaugesPage, ws_compare_gauges_page, WS, COMPARE_GAUGES_PAGE, GtkBox)

void ws_compare_gauges_page_set_comparison (WsCompareGaugesPage *self, WsComparison *cmp);
gboolean ws_compare_gauges_page_is_empty (WsCompareGaugesPage *self);
const char *ws_compare_gauges_page_get_empty_text (WsCompareGaugesPage *self);
guint ws_compare_gauges_page_get_n_kernels (WsCompareGaugesPage *self);
void ws_compare_gauges_page_select (WsCompareGaugesPage *self, guint index);
const char *ws_compare_gauges_page_get_selected_key (WsCompareGaugesPage *self);
char *ws_compare_gauges_page_get_row_text (WsCompareGaugesPage *self, guint index);
WsCompareGaugesView *ws_compare_gauges_page_get_view (WsCompareGaugesPage *self);

G_END_DECLS
