/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Each tool runs in a process group of its own, so that cancelling reaches
 * everything it started and nothing else (ws-tool-process.c). */
void ws_process_group_child_setup (gpointer data);
void ws_process_group_child_setup_tied (gpointer data);
gboolean ws_process_group_alive (GPid pgid);

G_END_DECLS
