/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-finding.h"
#include "ws-run.h"

G_BEGIN_DECLS

#define WS_TYPE_FINDINGS_PAGE (ws_findings_page_get_type ())

G_DECLARE_FINAL_TYPE (WsFindingsPage, ws_findings_page, WS, FINDINGS_PAGE, GtkBox)

void ws_findings_page_set_run (WsFindingsPage *self, WsRun *run);
void ws_findings_page_set_waiting (WsFindingsPage *self);
void ws_findings_page_set_scope (WsFindingsPage *self, const char *text);
const char *ws_findings_page_get_scope (WsFindingsPage *self);
WsRun *ws_findings_page_get_run (WsFindingsPage *self);
gboolean ws_findings_page_is_busy (WsFindingsPage *self);
GPtrArray *ws_findings_page_get_findings (WsFindingsPage *self);
void ws_findings_page_select (WsFindingsPage *self, guint index);
WsFinding *ws_findings_page_get_selected (WsFindingsPage *self);
char *ws_findings_page_get_row_text (WsFindingsPage *self, guint index);
char *ws_findings_page_get_details_text (WsFindingsPage *self);
void ws_findings_page_activate_selected (WsFindingsPage *self);

G_END_DECLS
