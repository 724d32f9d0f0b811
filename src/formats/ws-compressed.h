/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Compressed text inputs (a speedscope.json.xz, a collapsed.txt.gz),
 * known by their magic bytes, never by their name. */
typedef enum
{
  WS_COMPRESSION_NONE,
  WS_COMPRESSION_GZIP, /* RFC 1952: 1f 8b */
  WS_COMPRESSION_XZ,   /* .xz container: fd 37 7a 58 5a 00 */
} WsCompression;

WsCompression ws_compressed_sniff (const void *head, gsize len);
const char *ws_compression_to_string (WsCompression compression);
char *ws_compressed_inflate (const char *path, WsCompression compression, const void *data,
                             gsize len, gsize max_out, gboolean partial, gsize *out_len,
                             GError **error);

G_END_DECLS
