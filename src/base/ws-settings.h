/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GSettings *ws_settings_new (void);
void ws_settings_add_recent (GSettings *settings, const char *key, const char *entry, guint max);

G_END_DECLS
