/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-gauges-view.h"
#include "ws-why-view.h"
#include "ws-run.h"

G_BEGIN_DECLS

#define WS_TYPE_GAUGES_PAGE (ws_gauges_page_get_type ())

G_DECLARE_FINAL_TYPE (WsGaugesPage, ws_gauges_page, WS, GAUGES_PAGE, GtkBox)

void ws_gauges_page_set_run (WsGaugesPage *self, WsRun *run);
gboolean ws_gauges_page_is_empty (WsGaugesPage *self);
WsGaugesView *ws_gauges_page_get_overview (WsGaugesPage *self);
WsGaugesView *ws_gauges_page_get_panel (WsGaugesPage *self);
const char *ws_gauges_page_get_details_text (WsGaugesPage *self);
const char *ws_gauges_page_get_unmatched_text (WsGaugesPage *self);
GtkStack *ws_gauges_page_get_why_stack (WsGaugesPage *self);
const WsWhy *ws_gauges_page_get_why (WsGaugesPage *self);
const char *ws_gauges_page_get_why_text (WsGaugesPage *self);
WsWhyView *ws_gauges_page_get_why_view (WsGaugesPage *self, WsWhyChart chart);

G_END_DECLS
