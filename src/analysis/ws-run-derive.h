/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run-slice.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* New runs made from a loaded one, finished as the loader finishes a run:
 * with their summaries, ready to be shared and never changed after.  The
 * pages and commands that show one rank or the steady state of a loop take
 * their runs from here, so that they read the same summaries the loader
 * computes. */
WsRun *ws_run_derive_pids (const WsRun *run, const guint32 *pids, guint n_pids);
WsRun *ws_run_derive_slice (const WsRun *run, const gint64 *starts, const gint64 *ends,
                            guint n_spans, const WsLaunchTimes *times);

G_END_DECLS
