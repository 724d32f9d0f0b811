/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-run.h"

G_BEGIN_DECLS

/* For the code that builds a run (the loader, ws-run-derive.c): sets the
 * five summaries the pages and commands read with ws_run_get_summary().
 * tests/check-layers.py holds the files that may include this header. */
void ws_stats_set_summaries (WsRun *run);

G_END_DECLS
