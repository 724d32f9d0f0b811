/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-application.h"
#include "ws-window.h"

G_BEGIN_DECLS

WsApplication *ws_test_gui_init (int *argc, char ***argv);
int ws_test_gui_run (void);
void ws_test_gui_flush (void);
void ws_test_gui_iterate_until (gboolean (*done) (gpointer), gpointer data);
WsWindow *ws_test_gui_open (const char *const *paths);
WsWindow *ws_test_gui_wait_for_load (WsWindow *window);
WsWindow *ws_test_gui_open_and_load (const char *path);

/* X11's coordinates are 16-bit signed: no window or pixmap beyond this. */
#define WS_TEST_X11_MAX_EXTENT 32767

void ws_test_gui_assert_drawing (GtkWidget *toplevel, const char *step);

G_END_DECLS
