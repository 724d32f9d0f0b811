/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-digest.h"

G_BEGIN_DECLS

/* A job digest's file (`.wsdigest`, docs/digest.md): an SQLite database
 * that formats alone reads and writes. */

gboolean ws_digest_sniff (const char *path);
WsDigest *ws_digest_read_file (const char *path, GCancellable *cancellable, GError **error);
gboolean ws_digest_write_file (const WsDigest *digest, const char *path, GError **error);

GBytes *ws_digest_rank_to_bytes (WsDigestRank *rank, GError **error);
WsDigestRank *ws_digest_rank_from_bytes (GBytes *bytes, GError **error);

G_END_DECLS
