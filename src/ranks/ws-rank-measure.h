/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-rank-figures.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* Measures one rank of a job (ws-rank-figures.h) from a run that holds it:
 * its own export, or the job's merged run with its pid. */
WsRankFigures *ws_rank_measure (const WsRun *run, guint32 pid, guint rank);

void ws_rank_measure_join_warmup (GPtrArray *figures);
double ws_rank_measure_steady_idle (const WsRankFigures *f, gint64 *idle, gint64 *span);

gboolean ws_rank_measure_is_wait_call (const char *name);
gboolean ws_rank_measure_is_sync_call (const char *name);

G_END_DECLS
