/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  WS_ATOMIC_FILE_DEFAULT = 0,
  WS_ATOMIC_FILE_BACKUP = 1 << 0, /* keep the previous version as FILE~ */
} WsAtomicFileFlags;

gboolean ws_atomic_file_save (const char *path, const char *data, gsize len,
                              WsAtomicFileFlags flags, GError **error);
char *ws_atomic_file_create_temp (const char *path, int *fd, GError **error);
gboolean ws_atomic_file_commit (const char *tmp, const char *path, GError **error);

G_END_DECLS
