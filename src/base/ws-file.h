/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

G_BEGIN_DECLS

gboolean ws_file_check_regular (const char *path, const GStatBuf *st, GError **error);
gboolean ws_file_stat (const char *path, GStatBuf *st, GError **error);
int ws_file_open_regular (const char *path, GError **error);
gboolean ws_file_read_bounded (const char *path, gsize max_bytes, char **contents, gsize *len,
                               GError **error);
gboolean ws_file_check_not_empty (const char *path, const GStatBuf *st, GError **error);
gboolean ws_file_same (const char *a, const char *b);
gssize ws_file_read_head (const char *path, void *buf, gsize size, GError **error);

G_END_DECLS
