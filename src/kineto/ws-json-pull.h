/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A pull tokenizer of JSON over a GInputStream: one token at a time, read
 * through a small buffer, so that a file of any size is read without a
 * tree of it in memory.  Object keys come as %WS_JSON_KEY; strings are
 * unescaped, numbers are given as written (a reader converts them exactly). */
typedef enum
{
  WS_JSON_ERROR,
  WS_JSON_END, /* the document ended */
  WS_JSON_BEGIN_OBJECT,
  WS_JSON_END_OBJECT,
  WS_JSON_BEGIN_ARRAY,
  WS_JSON_END_ARRAY,
  WS_JSON_KEY,
  WS_JSON_STRING,
  WS_JSON_NUMBER,
  WS_JSON_TRUE,
  WS_JSON_FALSE,
  WS_JSON_NULL,
} WsJsonToken;

typedef struct _WsJsonPull WsJsonPull;

WsJsonPull *ws_json_pull_new (GInputStream *stream, const char *path, guint max_depth);
void ws_json_pull_free (WsJsonPull *self);
WsJsonPull *ws_json_pull_fork (const WsJsonPull *self, GInputStream *stream, guint64 offset,
                               gboolean at_element);

WsJsonToken ws_json_pull_next (WsJsonPull *self, GError **error);
gboolean ws_json_pull_skip (WsJsonPull *self, WsJsonToken token, GError **error);
const char *ws_json_pull_text (const WsJsonPull *self);
gsize ws_json_pull_text_len (const WsJsonPull *self);
guint ws_json_pull_depth (const WsJsonPull *self);
guint64 ws_json_pull_offset (const WsJsonPull *self);
gboolean ws_json_pull_fail (WsJsonPull *self, GError **error, const char *format, ...)
  G_GNUC_PRINTF (3, 4);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsJsonPull, ws_json_pull_free)

G_END_DECLS
