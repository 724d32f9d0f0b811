/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-capture-runner.h"
#include "ws-target-list.h"

G_BEGIN_DECLS

#define WS_TYPE_CAPTURE_PANEL (ws_capture_panel_get_type ())

G_DECLARE_FINAL_TYPE (WsCapturePanel, ws_capture_panel, WS, CAPTURE_PANEL, GtkBox)

GtkWidget *ws_capture_panel_new (void);
void ws_capture_panel_set_list (WsCapturePanel *self, WsTargetList *list);
GArray *ws_capture_panel_get_checked (WsCapturePanel *self);
void ws_capture_panel_set_checked (WsCapturePanel *self, guint row, gboolean checked);
void ws_capture_panel_run (WsCapturePanel *self, const guint *rows, guint n_rows,
                           const WsCaptureSettings *settings, const char *base_dir);
void ws_capture_panel_cancel (WsCapturePanel *self);
gboolean ws_capture_panel_is_running (WsCapturePanel *self);
WsCaptureRunner *ws_capture_panel_get_runner (WsCapturePanel *self);
char *ws_capture_panel_get_log (WsCapturePanel *self);
void ws_capture_panel_append_log (WsCapturePanel *self, const char *line);
WsCaptureStepState ws_capture_panel_get_step_state (WsCapturePanel *self, guint target, guint step);
GtkWidget *ws_capture_panel_get_open_button (WsCapturePanel *self, guint target);
GtkWidget *ws_capture_panel_get_run_button (WsCapturePanel *self);
GtkWidget *ws_capture_panel_get_cancel_button (WsCapturePanel *self);
double ws_capture_panel_get_fraction (WsCapturePanel *self);

const char *ws_capture_step_name (guint step);

G_END_DECLS
