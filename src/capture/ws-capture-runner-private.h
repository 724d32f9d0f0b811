/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stdio.h>

#include "ws-capture-log.h"
#include "ws-capture-prepare.h"
#include "ws-tool-process.h"
#include "ws-capture-runner.h"
#include "ws-ssh.h"

G_BEGIN_DECLS

/* The runner's insides, shared by ws-capture-runner.c (the run and its
 * steps) and ws-capture-runner-remote.c (targets on other machines). */

struct _WsCaptureRunner
{
  GObject parent_instance;

  WsCaptureSettings *settings;
  char *targets_file;
  char *base_dir;
  char **base_env;
  guint grace_ms;
  GPtrArray *targets; /* of WsCaptureTargetRun */

  /* Fixed at start */
  WsCaptureRunSetup setup;
  FILE *log;
  char *nsys_version;
  char *ncu_version;
  GPtrArray *gpus;
  GMainContext *context;
  GTask *task;
  GCancellable *cancellable;
  gulong cancel_id;
  gboolean cancelled;

  /* Progress */
  guint current; /* the target running */
  gboolean in_target;
  guint step;
  guint command;
  guint n_failed;
  double fraction;

  /* The command running */
  WsToolProcess *process;
  WsCaptureKernelLookup lookup; /* step 4's reader of the export, or NULL */
  int exit_status;              /* -1: ended by a signal, or did not start */
  WsCaptureOutputWatch output;

  /* The watchdog of an ncu run (ws-capture-runner-watchdog.c) */
  guint stall_ms;      /* no output that long ends it; 0: the settings' NCU_STALL_TIMEOUT */
  guint stall_id;      /* its check, on the run's context */
  gint64 last_output;  /* monotonic µs of the command's last line or start */
  char *stall_message; /* why the watchdog ended the command, or NULL */

  /* Other machines (ws-capture-runner-remote.c) */
  WsCaptureSettings *asked;         /* the settings before this machine's ncu fitted them */
  GPtrArray *hosts;                 /* of WsCaptureHostRun */
  GCancellable *remote_cancellable; /* the remote work on worker threads */
  char *token;                      /* marks the remote wrapper's lines */
  WsSshRemoteEnd remote_end;        /* what the wrapper said */
  char *ssh_said;                   /* ssh's own last line */
};

WsCaptureTargetRun *ws_capture_runner_current (WsCaptureRunner *self);
void ws_capture_runner_log_info (WsCaptureRunner *self, guint step, const char *format, ...)
  G_GNUC_PRINTF (3, 4);
void ws_capture_runner_write_manifest (WsCaptureRunner *self, WsCaptureTargetRun *target);
void ws_capture_runner_next_target (WsCaptureRunner *self);
void ws_capture_runner_step_finished (WsCaptureRunner *self, gboolean ok, const char *detail);
void ws_capture_runner_step_done (WsCaptureRunner *self, gboolean ok, const char *detail);
void ws_capture_runner_target_done (WsCaptureRunner *self);
void ws_capture_runner_emit_transfer (WsCaptureRunner *self, guint64 done, guint64 total,
                                      const char *file);

/* ws-capture-runner-watchdog.c */
void ws_capture_runner_watchdog_start (WsCaptureRunner *self);
void ws_capture_runner_watchdog_feed (WsCaptureRunner *self);
void ws_capture_runner_watchdog_stop (WsCaptureRunner *self);

/* ws-capture-runner-kernels.c */
void ws_capture_runner_pick_kernels (WsCaptureRunner *self, WsCaptureTargetRun *target);

/* ws-capture-runner-remote.c */
void ws_capture_runner_open_hosts (WsCaptureRunner *self);
gboolean ws_capture_runner_remote_prepare (WsCaptureRunner *self);
gboolean ws_capture_runner_remote_fetch_step (WsCaptureRunner *self, gboolean ok,
                                              const char *detail);
gboolean ws_capture_runner_remote_fetch_reports (WsCaptureRunner *self);
WsToolProcess *ws_capture_runner_remote_process (WsCaptureRunner *self,
                                                 const WsCaptureCommand *command, char **line);
gboolean ws_capture_runner_remote_line (WsCaptureRunner *self, gboolean is_stderr,
                                        const char *line);
char *ws_capture_runner_remote_problem (WsCaptureRunner *self, const WsCaptureCommand *command);
void ws_capture_runner_close_hosts (WsCaptureRunner *self);

G_END_DECLS
