/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-ssh-connection.h"

G_BEGIN_DECLS

/* What became of one file copied from a host. */
typedef struct
{
  char *remote_path;
  char *local_path;
  gint64 size;         /* bytes on the host; -1: not there */
  char *sha256;        /* its checksum there, which the copy matched */
  gint64 arrived;      /* bytes here, in the file or its .part */
  gint64 resumed_from; /* bytes a .part held already when the copy began */
  gboolean done;       /* copied whole and checked */
} WsSshFetched;

/* Called on the copying thread, at most every 100 ms and at each file's end. */
typedef void (*WsSshFetchProgress) (guint64 done, guint64 total, guint file, gpointer user_data);

#define WS_SSH_PART_SUFFIX ".part"

gboolean ws_ssh_fetch_files (WsSshConnection *connection, const char *const *remote_paths,
                             const char *const *local_paths, guint64 bytes_per_s,
                             GCancellable *cancellable, WsSshFetchProgress progress,
                             gpointer user_data, GPtrArray *fetched, GError **error);
char *ws_ssh_fetched_summary (GPtrArray *fetched);
void ws_ssh_fetched_free (WsSshFetched *fetched);

G_END_DECLS
