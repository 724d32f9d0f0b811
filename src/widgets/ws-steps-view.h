/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-steps-chart.h"

G_BEGIN_DECLS

#define WS_TYPE_STEPS_VIEW (ws_steps_view_get_type ())

G_DECLARE_FINAL_TYPE (WsStepsView, ws_steps_view, WS, STEPS_VIEW, GtkDrawingArea)

GtkWidget *ws_steps_view_new (void);
void ws_steps_view_set_steps (WsStepsView *self, WsRun *run, WsSteps *steps);
int ws_steps_view_get_selected (WsStepsView *self);
void ws_steps_view_select (WsStepsView *self, int step);

G_END_DECLS
