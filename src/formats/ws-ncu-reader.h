/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-ncu-results.h"

G_BEGIN_DECLS

gboolean ws_ncu_reader_sniff (const char *head, gsize len);
WsNcuResults *ws_ncu_reader_load (const char *const *paths, GCancellable *cancellable,
                                  GError **error);
WsNcuResults *ws_ncu_reader_load_file (const char *path, GError **error);
const char *ws_ncu_reader_alias (const char *section, const char *name);

G_END_DECLS
