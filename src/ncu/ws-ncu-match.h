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

/* A kernel's verdict over its profiled launches (docs/NOTES.md, "A
 * kernel's verdict"): the verdict that holds more than half of their
 * profiled time, else mixed. */
typedef struct
{
  WsVerdict verdict;          /* the majority's; WS_VERDICT_MIXED without one; NONE: no launch */
  WsVerdict leading;          /* the verdict holding the most time, or NONE */
  gboolean majority;          /* leading holds more than half */
  gboolean by_count;          /* no launch has a duration: launches are counted instead */
  double time[WS_N_VERDICTS]; /* ns of profiled time (launches when by_count) per verdict */
  guint launches[WS_N_VERDICTS];
  double total;
  guint n_launches;
  double with_duration; /* internal: the duration-weighted sums */
  double time_ns[WS_N_VERDICTS];
} WsKernelVerdict;

void ws_kernel_verdict_init (WsKernelVerdict *kv);
void ws_kernel_verdict_add (WsKernelVerdict *kv, const WsNcuResults *results, guint launch);
void ws_kernel_verdict_finish (WsKernelVerdict *kv);
void ws_ncu_match_kernel_verdict (const WsNcuResults *results, const char *nsys_name,
                                  WsKernelVerdict *kv);
GHashTable *ws_ncu_match_verdicts_by_name (const WsNcuResults *results, const WsRun *run,
                                           WsNameForm form);

char *ws_ncu_launch_label (const WsRun *run, const WsNcuResults *results, guint launch);
void ws_ncu_results_compute_labels (WsNcuResults *results, const WsRun *run);
char *ws_ncu_unmatched_reason (const WsRun *run, const WsNcuResults *results, guint launch);

/* A run and its ncu results: done on the loading thread, before the run
 * is shared. */
void ws_ncu_match_attach (WsRun *run, WsNcuResults *ncu);

G_END_DECLS
