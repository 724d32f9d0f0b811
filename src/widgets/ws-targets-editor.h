/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-target-list.h"

G_BEGIN_DECLS

#define WS_TYPE_TARGETS_EDITOR (ws_targets_editor_get_type ())

G_DECLARE_FINAL_TYPE (WsTargetsEditor, ws_targets_editor, WS, TARGETS_EDITOR, GtkBox)

GtkWidget *ws_targets_editor_new (void);
void ws_targets_editor_set_list (WsTargetsEditor *self, WsTargetList *list);
WsTargetList *ws_targets_editor_get_list (WsTargetsEditor *self);
int ws_targets_editor_get_selected (WsTargetsEditor *self);
void ws_targets_editor_select (WsTargetsEditor *self, int row);
void ws_targets_editor_edit (WsTargetsEditor *self, guint row, WsTargetColumn column);
guint ws_targets_editor_get_n_problems (WsTargetsEditor *self);
char *ws_targets_editor_get_problem (WsTargetsEditor *self, guint row, WsTargetColumn column);
GtkTreeView *ws_targets_editor_get_view (WsTargetsEditor *self);
void ws_targets_editor_set_hosts (WsTargetsEditor *self, const char *const *names);

G_END_DECLS
