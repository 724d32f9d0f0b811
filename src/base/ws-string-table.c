/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-strings"
#include "config.h"

#include <string.h>

#include "ws-string-table.h"

struct _WsStringTable
{
  GStringChunk *chunk;
  GPtrArray *by_id;    /* id -> const char * inside chunk */
  GHashTable *by_text; /* const char * -> GUINT_TO_POINTER (id + 1) */
  gsize bytes;
};

WsStringTable *
ws_string_table_new (void)
{
  WsStringTable *self = g_new0 (WsStringTable, 1);

  self->chunk = g_string_chunk_new (4096);
  self->by_id = g_ptr_array_new ();
  self->by_text = g_hash_table_new (g_str_hash, g_str_equal);
  return self;
}

void
ws_string_table_free (WsStringTable *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->by_text, g_hash_table_unref);
  g_clear_pointer (&self->by_id, g_ptr_array_unref);
  g_clear_pointer (&self->chunk, g_string_chunk_free);
  g_free (self);
}

guint32
ws_string_table_intern_len (WsStringTable *self, const char *str, gssize len)
{
  g_autofree char *copy = NULL;
  const char *key;
  gpointer found;
  char *stored;
  guint32 id;

  g_return_val_if_fail (self != NULL, WS_STRING_NONE);

  if (str == NULL)
    return WS_STRING_NONE;

  if (len >= 0)
    key = copy = g_strndup (str, len);
  else
    key = str;

  found = g_hash_table_lookup (self->by_text, key);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  /* Ids must stay below WS_STRING_NONE and fit the pointer trick above. */
  if (self->by_id->len >= G_MAXUINT32 - 1)
    return WS_STRING_NONE;

  stored = g_string_chunk_insert (self->chunk, key);
  id = self->by_id->len;
  g_ptr_array_add (self->by_id, stored);
  g_hash_table_insert (self->by_text, stored, GUINT_TO_POINTER (id + 1));
  self->bytes += strlen (stored) + 1;
  return id;
}

guint32
ws_string_table_intern (WsStringTable *self, const char *str)
{
  return ws_string_table_intern_len (self, str, -1);
}

/**
 * ws_string_table_get:
 *
 * Returns: (transfer none) (nullable): the string of @id, or %NULL for
 * %WS_STRING_NONE or an id out of range.
 */
const char *
ws_string_table_get (const WsStringTable *self, guint32 id)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (id >= self->by_id->len)
    return NULL;
  return g_ptr_array_index (self->by_id, id);
}

guint
ws_string_table_size (const WsStringTable *self)
{
  return self->by_id->len;
}

gsize
ws_string_table_memory (const WsStringTable *self)
{
  /* The chunk, the id array and about four words per hash entry. */
  return self->bytes + self->by_id->len * (sizeof (gpointer) * 5);
}
