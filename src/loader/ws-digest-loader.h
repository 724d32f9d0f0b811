/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-digest-io.h"
#include "ws-digest.h"
#include "ws-progress.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* Making a job digest from its exports, and opening one as a run.
 *
 * Making one is three steps, so that MPI can spread the middle one over
 * processes (src/mpi): list the exports, largest first
 * (ws_digest_loader_list()); digest each alone (ws_digest_loader_digest_file(),
 * one rank, or one per process of an export of a whole job, whose result
 * travels as bytes between processes); put the ranks
 * together, number them and place them on one clock
 * (ws_digest_loader_finish()), then write the file (ws-digest-io.h).
 * ws_digest_loader_build() does it all with local threads. */

typedef enum
{
  WS_DIGEST_CHECK_STAT = 1 << 0,     /* size and modification time */
  WS_DIGEST_CHECK_CHECKSUM = 1 << 1, /* and the checksum of the first MiB */
} WsDigestCheck;

GPtrArray *ws_digest_loader_list (const char *const *paths, GError **error);
GPtrArray *ws_digest_loader_digest_file (const char *path, gboolean alone,
                                         GCancellable *cancellable);
void ws_digest_loader_finish (WsDigest *digest, const char *output);
WsDigest *ws_digest_loader_build (const char *const *paths, guint threads, const char *output,
                                  GCancellable *cancellable, WsProgressFunc progress,
                                  gpointer progress_data, GError **error);

WsRun *ws_digest_loader_open (const char *path, WsDigestCheck check, WsDigestRead what,
                              GCancellable *cancellable, GError **error);
WsRun *ws_digest_loader_run_new (WsDigest *digest, const guint *select, guint n_select,
                                 WsDigestCheck check);
char *ws_digest_loader_check_export (const WsDigestRank *rank, const char *path,
                                     WsDigestCheck check);
char *ws_digest_loader_checksum (const char *path, GError **error);

G_END_DECLS
