/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-steps-view.h"

G_BEGIN_DECLS

#define WS_TYPE_STEPS_PAGE (ws_steps_page_get_type ())

G_DECLARE_FINAL_TYPE (WsStepsPage, ws_steps_page, WS, STEPS_PAGE, GtkBox)

void ws_steps_page_set_straggler (WsStepsPage *self, gint rank);
void ws_steps_page_set_steps (WsStepsPage *self, WsRun *run, WsSteps *steps);
WsStepsView *ws_steps_page_get_view (WsStepsPage *self);
GtkTreeModel *ws_steps_page_get_model (WsStepsPage *self);
gboolean ws_steps_page_is_empty (WsStepsPage *self);

G_END_DECLS
