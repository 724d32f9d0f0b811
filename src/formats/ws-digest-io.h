/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-digest.h"

G_BEGIN_DECLS

/* A job digest's file (`.wsdigest`, docs/digest.md): an SQLite database
 * that formats alone reads and writes. */

/* What to read of a digest besides what the Ranks page and the merged
 * summaries need. */
typedef enum
{
  WS_DIGEST_READ_DEFAULT = 0,
  /* Each rank's summary rows and sketches (the bulk of the file): what
   * merging a choice of ranks needs.  Read anyway from a digest that does
   * not keep the job's merged summaries. */
  WS_DIGEST_READ_RANK_SUMMARIES = 1 << 0,
} WsDigestRead;

gboolean ws_digest_sniff (const char *path);
WsDigest *ws_digest_read_file (const char *path, WsDigestRead what, GCancellable *cancellable,
                               GError **error);
gboolean ws_digest_write_file (const WsDigest *digest, const char *path, GError **error);

GBytes *ws_digest_rank_to_bytes (WsDigestRank *rank, GError **error);
WsDigestRank *ws_digest_rank_from_bytes (GBytes *bytes, GError **error);
GBytes *ws_digest_ranks_to_bytes (GPtrArray *ranks, GError **error);
GPtrArray *ws_digest_ranks_from_bytes (GBytes *bytes, GError **error);

G_END_DECLS
