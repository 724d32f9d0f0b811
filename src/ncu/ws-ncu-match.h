/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ncu-results.h"
#include "ws-run.h"

G_BEGIN_DECLS

char *ws_ncu_match_key (const char *kernel_name);
char *ws_ncu_match_base (const char *kernel_name);
char *ws_ncu_match_function_key (const char *kernel_name);
void ws_ncu_match_run (WsNcuResults *results, const WsRun *run);
GArray *ws_ncu_match_unmatched (const WsNcuResults *results);
int ws_ncu_match_launch_for (const WsNcuResults *results, const char *nsys_name);
WsVerdict ws_ncu_match_verdict_for (const WsNcuResults *results, const char *nsys_name);
GHashTable *ws_ncu_match_launches_by_name (const WsNcuResults *results, const WsRun *run,
                                           WsNameForm form);

char *ws_ncu_launch_label (const WsRun *run, const WsNcuResults *results, guint launch);
void ws_ncu_results_compute_labels (WsNcuResults *results, const WsRun *run);
char *ws_ncu_unmatched_reason (const WsRun *run, const WsNcuResults *results, guint launch);

/* A run and its ncu results: done on the loading thread, before the run
 * is shared. */
void ws_ncu_match_attach (WsRun *run, WsNcuResults *ncu);

G_END_DECLS
