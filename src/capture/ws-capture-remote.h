/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-tool-process.h"
#include "ws-capture-settings.h"
#include "ws-capture-target-run.h"
#include "ws-tool-query.h"
#include "ws-ssh-connection.h"
#include "ws-ssh-transfer.h"
#include "ws-ssh.h"

G_BEGIN_DECLS

/* One host of a capture run: its connection, and what it has. */
struct _WsCaptureHostRun
{
  char *key;                   /* HOST as the targets (or --host) name it */
  WsSshHost *host;             /* what it names */
  WsSshConnection *connection; /* the run's master connection there */
  GError *error;               /* why nothing runs there; NULL once it is open */
  char *hostname;              /* the host's own name (uname -n) */
  char *remote_dir;            /* the folder for captures there, absolute */
  char *group_dir;             /* remote_dir/<group>, made */
  char *nsys;                  /* the tools there */
  char *ncu;
  WsToolInfo *info;            /* what they said */
  WsCaptureSettings *settings; /* the run's, fitted to the ncu there */
  GPtrArray *warnings;         /* of utf8: for the log */
};

WsCaptureHostRun *ws_capture_host_run_new (const char *key);
void ws_capture_host_run_free (WsCaptureHostRun *run);
void ws_capture_host_runs_open_async (GPtrArray *runs, const WsCaptureSettings *settings,
                                      const char *group, const char *const *folders,
                                      GCancellable *cancellable, GAsyncReadyCallback callback,
                                      gpointer user_data);
void ws_capture_host_runs_open_finish (GAsyncResult *result);
void ws_capture_host_run_close (WsCaptureHostRun *run);

void ws_capture_remote_prepare_target_async (WsCaptureTargetRun *target, WsCaptureHostRun *host,
                                             const char *group_dir, GCancellable *cancellable,
                                             GAsyncReadyCallback callback, gpointer user_data);
gboolean ws_capture_remote_prepare_target_finish (GAsyncResult *result, GError **error);

WsToolProcess *ws_capture_remote_process_new (WsCaptureHostRun *host,
                                              const WsCaptureCommand *command,
                                              const char *const *local_env, guint grace_ms,
                                              char **token);
char *ws_capture_remote_problem (WsCaptureHostRun *host, const WsCaptureCommand *command,
                                 const WsSshRemoteEnd *end, const char *problem_line,
                                 gboolean no_kernels_profiled, const char *ssh_said);

char *ws_capture_remote_local_path (const WsCaptureTargetRun *target, const char *remote_path);
GPtrArray *ws_capture_remote_step_files (const WsCaptureTargetRun *target, guint step,
                                         gboolean reports);

/* Bytes of a copy, on the runner's context. */
typedef void (*WsCaptureFetchProgress) (guint64 done, guint64 total, const char *file,
                                        gpointer user_data);

void ws_capture_remote_fetch_async (WsCaptureTargetRun *target, GPtrArray *remote_paths,
                                    guint64 bytes_per_s, GCancellable *cancellable,
                                    WsCaptureFetchProgress progress, gpointer progress_data,
                                    GAsyncReadyCallback callback, gpointer user_data);
gboolean ws_capture_remote_fetch_finish (GAsyncResult *result, GError **error);

G_END_DECLS
