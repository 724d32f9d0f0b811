/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WS_TYPE_COMPARE_DIALOG (ws_compare_dialog_get_type ())

G_DECLARE_FINAL_TYPE (WsCompareDialog, ws_compare_dialog, WS, COMPARE_DIALOG, GtkDialog)

WsCompareDialog *ws_compare_dialog_new (GtkWindow *parent, const char *before);
char *ws_compare_dialog_get_path (WsCompareDialog *self, gboolean after);
void ws_compare_dialog_set_path (WsCompareDialog *self, gboolean after, const char *path);

G_END_DECLS
