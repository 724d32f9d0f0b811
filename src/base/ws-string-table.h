/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An id that names no string. */
#define WS_STRING_NONE G_MAXUINT32

/* One interned table of strings: every name in a run is an id into it.
 * Equal strings always get the same id, so grouping by id is grouping by name. */
typedef struct _WsStringTable WsStringTable;

WsStringTable *ws_string_table_new (void);
void ws_string_table_free (WsStringTable *self);

guint32 ws_string_table_intern (WsStringTable *self, const char *str);
guint32 ws_string_table_intern_len (WsStringTable *self, const char *str, gssize len);
const char *ws_string_table_get (const WsStringTable *self, guint32 id);
guint ws_string_table_size (const WsStringTable *self);
gsize ws_string_table_memory (const WsStringTable *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsStringTable, ws_string_table_free)

G_END_DECLS
