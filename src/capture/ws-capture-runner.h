/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-capture-log.h"
#include "ws-capture-plan.h"
#include "ws-capture-settings.h"
#include "ws-target-list.h"

G_BEGIN_DECLS

/* What a line of the log is. */
typedef enum
{
  WS_CAPTURE_LOG_INFO,    /* the runner's own: a target begins, the kernels picked, … */
  WS_CAPTURE_LOG_STEP,    /* a [STEP x/6] line */
  WS_CAPTURE_LOG_COMMAND, /* "$ " and the command line about to run */
  WS_CAPTURE_LOG_STDOUT,  /* a line a tool printed */
  WS_CAPTURE_LOG_STDERR,
} WsCaptureLogKind;

/* Milliseconds between SIGTERM and SIGKILL when cancelling. */
#define WS_CAPTURE_GRACE_MS 3000

#define WS_TYPE_CAPTURE_RUNNER (ws_capture_runner_get_type ())
G_DECLARE_FINAL_TYPE (WsCaptureRunner, ws_capture_runner, WS, CAPTURE_RUNNER, GObject)

WsCaptureRunner *ws_capture_runner_new (WsTargetList *list, const guint *rows, guint n_rows,
                                        const WsCaptureSettings *settings, const char *base_dir);
void ws_capture_runner_set_grace (WsCaptureRunner *self, guint grace_ms);
void ws_capture_runner_set_stall_timeout_ms (WsCaptureRunner *self, guint stall_ms);
void ws_capture_runner_set_kernel_lookup (WsCaptureRunner *self, WsCaptureKernelLookup lookup);

void ws_capture_runner_run_async (WsCaptureRunner *self, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data);
gboolean ws_capture_runner_run_finish (WsCaptureRunner *self, GAsyncResult *result, GError **error);

guint ws_capture_runner_get_n_targets (WsCaptureRunner *self);
const char *ws_capture_runner_get_target_name (WsCaptureRunner *self, guint target);
const char *ws_capture_runner_get_target_dir (WsCaptureRunner *self, guint target);
WsCaptureStepState ws_capture_runner_get_step_state (WsCaptureRunner *self, guint target,
                                                     guint step);
const char *ws_capture_runner_get_step_message (WsCaptureRunner *self, guint target, guint step);
gboolean ws_capture_runner_get_target_succeeded (WsCaptureRunner *self, guint target);
guint ws_capture_runner_get_n_failed (WsCaptureRunner *self);
double ws_capture_runner_get_fraction (WsCaptureRunner *self);
const char *ws_capture_runner_get_group_dir (WsCaptureRunner *self);
const char *ws_capture_runner_get_log_path (WsCaptureRunner *self);
gboolean ws_capture_runner_is_running (WsCaptureRunner *self);
void ws_capture_runner_kill (WsCaptureRunner *self);

G_END_DECLS
