/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-capture-settings.h"
#include "ws-ssh-transfer.h"

G_BEGIN_DECLS

gboolean ws_capture_fetch_folder (const char *dir, const WsCaptureSettings *settings,
                                  GCancellable *cancellable, WsSshFetchProgress progress,
                                  gpointer user_data, char **summary, GError **error);
gboolean ws_capture_folder_is_remote (const char *dir);

G_END_DECLS
