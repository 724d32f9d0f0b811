/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-run.h"

G_BEGIN_DECLS

/* What changes a run, for the code that builds one: the readers of
 * src/formats, src/loader, and the analyses that derive a new run from a
 * loaded one (src/analysis/ws-run-derive.c, the ncu match).  Everything
 * else reads runs through ws-run.h; tests/check-layers.py holds the list of
 * files that may include this header.  A run is finished (ws_run_finish(),
 * its summaries set) before it is shared with another thread, and is not
 * changed after. */

WsRun *ws_run_new (void);
void ws_run_add_source (WsRun *self, const char *what, const char *table, gint64 rows);
void ws_run_add_warning (WsRun *self, const char *format, ...) G_GNUC_PRINTF (2, 3);
void ws_run_add_file (WsRun *self, const char *path);
void ws_run_set_summary (WsRun *self, WsSummaryKind kind, WsSummary *summary);
void ws_run_finish (WsRun *self);
void ws_run_update_bounds (WsRun *self);
void ws_run_build_replays (WsRun *self);

G_END_DECLS
