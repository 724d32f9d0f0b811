/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"
#include "ws-steps.h"

G_BEGIN_DECLS

/* A regression gate (docs/ci.md): budgets on figures of a run, each
 * judged between a run before and a run after over their steady steps,
 * a change counting only when it is over its budget and outside the
 * noise (a bootstrap interval). */

typedef enum
{
  WS_BUDGET_STEP,      /* a step's wall time */
  WS_BUDGET_KERNEL,    /* the kernels whose name matches a glob, their time per step */
  WS_BUDGET_NVTX,      /* the NVTX ranges whose name matches a glob, their time per step */
  WS_BUDGET_TOTAL_GPU, /* every kernel's time per step */
} WsBudgetKind;

typedef struct
{
  WsBudgetKind kind;
  char *pattern;    /* the glob of a kernel or a range; NULL for step and total-gpu */
  gboolean percent; /* the limit is a share of the figure before */
  double limit;     /* percent, or ns */
  char *text;       /* as written: "kernel:*gemm*=+5%" */
  char *where;      /* "budgets.txt:3" for a line of a file; NULL on the command line */
} WsBudget;

typedef enum
{
  WS_GATE_PASS,
  WS_GATE_REGRESSION,
  WS_GATE_CANNOT_JUDGE,
} WsGateVerdict;

/* A run to judge and its steps (NULL where it has none). */
typedef struct
{
  const WsRun *run;
  const WsSteps *steps;
} WsGateRun;

typedef struct
{
  const WsBudget *budget;
  WsGateVerdict verdict;
  gboolean per_step;   /* the figures are per steady step; else per instance */
  guint n_runs_before; /* the runs of each side */
  guint n_runs_after;
  guint n_before; /* steps (or instances) the figure rests on, all runs together */
  guint n_after;
  double before; /* ns: the median per step or instance (total-gpu without steps: the sum) */
  double after;
  double change;    /* percent or ns, as the budget's limit */
  double low, high; /* the 95% bootstrap interval of the change */
  char *reason;     /* why it cannot be judged, or NULL */
} WsGateResult;

void ws_budget_clear (WsBudget *budget);
gboolean ws_budget_parse (const char *text, const char *where, WsBudget *out, GError **error);
GArray *ws_budgets_read (const char *path, GError **error);
GArray *ws_budgets_new (void);

void ws_gate_judge (const WsBudget *budget, const WsGateRun *before, guint n_before,
                    const WsGateRun *after, guint n_after, WsGateResult *out);
void ws_gate_result_clear (WsGateResult *result);
const char *ws_gate_verdict_to_string (WsGateVerdict verdict);
int ws_gate_exit_status (const WsGateResult *results, guint n);
char *ws_gate_change_text (const WsBudget *budget, double change);
const char *ws_gate_verdict_label (WsGateVerdict verdict);
char *ws_gate_result_text (const WsGateResult *r);

G_END_DECLS
