/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-capture-plan.h"
#include "ws-target-list.h"

G_BEGIN_DECLS

/* A host a capture run uses (ws-capture-remote.h). */
typedef struct _WsCaptureHostRun WsCaptureHostRun;

/* What became of one command of a plan. */
typedef struct
{
  gint64 started; /* µs since the epoch; 0: never ran */
  gint64 finished;
  int exit_status; /* -1: ended by a signal, or did not start */
  char *message;   /* why it failed; NULL when it did not */
} WsCaptureCommandResult;

/* One target of a capture run: its row, its plan, and what each step did. */
typedef struct
{
  guint row;
  guint line; /* in the targets file */
  char *name;
  char *cmd;
  char *workdir_cell; /* WORKDIR as written */
  char *workdir;      /* resolved */
  char *envs;
  char *folder_name;
  char *dir; /* OUT/<group>/<folder_name>, once step 1 made it */
  WsCapturePlan *plan;
  WsCaptureStepState states[WS_CAPTURE_N_STEPS + 1];
  char *messages[WS_CAPTURE_N_STEPS + 1];
  gint64 step_started[WS_CAPTURE_N_STEPS + 1]; /* µs since the epoch */
  gint64 step_finished[WS_CAPTURE_N_STEPS + 1];
  GArray *results[WS_CAPTURE_N_STEPS + 1]; /* of WsCaptureCommandResult, as plan->steps[i] */
  gint64 started;
  gint64 finished;
  gboolean finished_ok;
  /* On another machine */
  char *host;               /* HOST as the run takes it (or --host); NULL: this machine */
  WsCaptureHostRun *remote; /* the run's host, not owned; NULL: this machine */
  char *remote_dir;         /* the target's folder there, once step 1 made it */
  char *remote_workdir;     /* WORKDIR there, resolved by step 1 */
  GPtrArray *fetched;       /* of WsSshFetched: what was copied back, or tried */
} WsCaptureTargetRun;

WsCaptureTargetRun *ws_capture_target_run_new (WsTargetList *list, guint row);
void ws_capture_target_run_free (WsCaptureTargetRun *target);
void ws_capture_target_run_set_state (WsCaptureTargetRun *target, guint step,
                                      WsCaptureStepState state, const char *detail);
double ws_capture_target_run_steps_done (const WsCaptureTargetRun *target, guint step,
                                         guint command);
guint ws_capture_target_run_n_failed (const WsCaptureTargetRun *target, guint step, guint n);
const char *ws_capture_target_run_status (const WsCaptureTargetRun *target, gboolean cancelled);

G_END_DECLS
