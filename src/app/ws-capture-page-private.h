/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-capture-page.h"

G_BEGIN_DECLS

/* Shared by ws-capture-page.c (the targets file: open, save, autosave)
 * and ws-capture-page-run.c (doctor, settings, run). */

struct _WsCapturePage
{
  GtkBox parent_instance;

  WsTargetList *list;
  GSettings *settings;
  GtkWidget *toplevel; /* whose closing asks first */
  guint autosave_id;
  GCancellable *cancellable;
  GtkDialog *prompt;
  char *message;
  gboolean loaded;  /* the last targets file was opened on first show */
  gboolean closing; /* the user said yes: let the window go */

  /* Template widgets */
  GtkLabel *file_label;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  WsTargetsEditor *editor;
  WsCapturePanel *panel;
};

void ws_capture_page_show_message (WsCapturePage *self, GtkMessageType type, const char *message);
void ws_capture_page_hide_message (WsCapturePage *self);
GtkWindow *ws_capture_page_window_of (WsCapturePage *self);
GtkDialog *ws_capture_page_ask (WsCapturePage *self, const char *primary, const char *secondary);

/* ws-capture-page-run.c */
void ws_capture_page_run_requested_cb (WsCapturePage *self);
void ws_capture_page_doctor_clicked_cb (WsCapturePage *self);
void ws_capture_page_settings_clicked_cb (WsCapturePage *self);

G_END_DECLS
