/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ncu-results.h"

G_BEGIN_DECLS

/* Every warp-stall reason a profiled launch holds (WarpStateStats), with
 * ncu's name and what it means; see docs/why-slow.md, "Warp stalls". */

/* How the file gives the reasons, in order of preference. */
typedef enum
{
  WS_STALL_FORM_NONE,      /* no stall reason collected */
  WS_STALL_FORM_PER_ISSUE, /* smsp__average_warps_issue_stalled_R_per_issue_active.ratio */
  WS_STALL_FORM_CYCLES,    /* 2019: smsp__warp_cycles_per_issue_stall_R */
  WS_STALL_FORM_WARP_PCT,  /* smsp__warp_issue_stalled_R_per_warp_active.pct */
  WS_STALL_FORM_SAMPLES,   /* PC sampling: smsp__pcsamp_warps_issue_stalled_R */
  WS_STALL_FORM_NVPROF,    /* nvprof --metrics stall_R: % of nvprof's stall reasons */
} WsStallForm;

typedef struct
{
  char *reason;       /* ncu's name: "long_scoreboard"; nvprof's without stall_ */
  const char *metric; /* the metric it came from (owned by the results); NULL when not collected */
  double value;       /* in the form's unit; NaN when not collected */
  double share;       /* of the sum of the collected reasons, in [0, 1]; NaN when not collected */
  const char
    *meaning; /* static, translated: one line; NULL for a reason this version does not know */
} WsStall;

typedef struct
{
  WsStallForm form;
  const char *unit;    /* static: "warps/issue", "cycles/issue", "percent of warps", "samples" */
  const char *collect; /* static: what collects the missing ones */
  GArray *stalls;      /* WsStall: the collected ones, largest first, then those not collected */
  guint n_collected;
} WsStalls;

WsStalls *ws_stalls_compute (const WsNcuResults *results, guint launch);
void ws_stalls_free (WsStalls *stalls);
const WsStall *ws_stalls_top (const WsStalls *stalls);
const WsStall *ws_stalls_find (const WsStalls *stalls, const char *reason);
const char *ws_stall_meaning (const char *reason);
const char *ws_stall_form_id (WsStallForm form);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsStalls, ws_stalls_free)

G_END_DECLS
