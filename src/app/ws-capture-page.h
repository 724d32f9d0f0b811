/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-capture-panel.h"
#include "ws-target-list.h"
#include "ws-targets-editor.h"

G_BEGIN_DECLS

#define WS_TYPE_CAPTURE_PAGE (ws_capture_page_get_type ())

G_DECLARE_FINAL_TYPE (WsCapturePage, ws_capture_page, WS, CAPTURE_PAGE, GtkBox)

/* The answers of the page's questions (ws_capture_page_get_prompt()):
 * ACCEPT restores the autosave, saves before closing, or runs despite
 * the doctor; REJECT discards the autosave or closes without saving;
 * CANCEL keeps things as they are. */

gboolean ws_capture_page_open (WsCapturePage *self, const char *path, GError **error);
gboolean ws_capture_page_save (WsCapturePage *self, GError **error);
gboolean ws_capture_page_save_as (WsCapturePage *self, const char *path, GError **error);
void ws_capture_page_autosave_now (WsCapturePage *self);

WsTargetList *ws_capture_page_get_list (WsCapturePage *self);
WsTargetsEditor *ws_capture_page_get_editor (WsCapturePage *self);
WsCapturePanel *ws_capture_page_get_panel (WsCapturePage *self);
GtkDialog *ws_capture_page_get_prompt (WsCapturePage *self);
const char *ws_capture_page_get_message (WsCapturePage *self);

G_END_DECLS
