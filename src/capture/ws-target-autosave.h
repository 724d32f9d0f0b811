/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-target-list.h"

G_BEGIN_DECLS

char *ws_target_autosave_path (const char *targets_path);
gboolean ws_target_autosave_write (WsTargetList *list, GError **error);
char *ws_target_autosave_find (WsTargetList *list, gsize *len, gint64 *mtime);
void ws_target_autosave_remove (const char *targets_path);

G_END_DECLS
