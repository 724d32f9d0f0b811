/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* Several runs on one clock: the exports of a job's ranks, each shifted by
 * its offset, their processes kept apart (a pid that two exports share is
 * renumbered in the later one) and their GPUs told apart by host and UUID
 * (so that ranks sharing a GPU share it in the merged run too).  Every
 * table stays sorted as a reader leaves it.
 *
 * The runs' event columns are freed as they are copied, so that memory
 * peaks near the sum of the runs; the caller must hold the only reference
 * to each and unref them afterwards. */
WsRun *ws_run_merge (WsRun *const *runs, guint n, const gint64 *offsets, GHashTable **pid_maps);

WsRun *ws_run_merge_views (WsRun *const *runs, guint n, const gint64 *offsets);
guint32 ws_run_merge_map_pid (GHashTable *pid_map, guint32 pid);

G_END_DECLS
