/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-load-options.h"
#include "ws-ranks.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* Opening a job's exports as one run of N ranks: files given together, a
 * folder of them, or a glob.  The exports are read in parallel (as many
 * at a time as there are processors), each rank measured as soon as it is
 * read, then merged onto one clock. */

/* Called on the caller's main context: once with @index G_MAXUINT when the
 * ranks are numbered (nothing read yet), then once per rank as it is
 * measured (in no fixed order), with its figures. */
typedef void (*WsRanksLoaderFunc) (WsRanks *ranks, guint index, WsRankFigures *figures,
                                   gpointer data);

/* One launch of a program: the exports it wrote.  A job's ranks are
 * the exports of one launch. */
typedef struct
{
  char *name;         /* the capture target's folder name, or NULL for files not in one */
  char *path;         /* what to open for it: the target's folder, or NULL */
  GPtrArray *exports; /* char *: its exports, in the order found */
} WsLaunch;

GPtrArray *ws_ranks_loader_expand (const char *const *paths, GError **error);
GPtrArray *ws_ranks_loader_launches (const char *const *paths);
char *ws_ranks_loader_launch_names (GPtrArray *launches);
void ws_launch_free (WsLaunch *launch);
gboolean ws_ranks_loader_is_job (const char *const *paths, gboolean probe);

WsRun *ws_ranks_loader_load (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
                             WsProgressFunc progress, gpointer progress_data, GError **error);
void ws_ranks_loader_load_async (const char *const *paths, WsLoadFlags flags,
                                 GCancellable *cancellable, WsProgressFunc progress,
                                 WsRanksLoaderFunc rank_func, gpointer data, GDestroyNotify notify,
                                 GAsyncReadyCallback callback, gpointer user_data);
WsRun *ws_ranks_loader_load_finish (GAsyncResult *result, GError **error);

void ws_ranks_loader_attach_processes (WsRun *run);
guint32 ws_ranks_loader_main_pid (const WsRun *run);
char *ws_ranks_loader_gpus_of (const WsRun *run, guint32 pid);

G_END_DECLS
