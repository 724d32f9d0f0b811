/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-capture-settings.h"
#include "ws-ssh-host.h"

G_BEGIN_DECLS

typedef enum
{
  WS_DOCTOR_OK,
  WS_DOCTOR_WARNING, /* a capture may run, with less in it */
  WS_DOCTOR_ERROR,   /* a capture will fail */
} WsDoctorLevel;

/* One check of the machine, with the exact fix when it fails. */
typedef struct
{
  char *host; /* the host it is about; NULL: this machine */
  char *id;   /* "ssh", "nsys", "ncu", "ncu-set", "perf-event-paranoid", "gpu-counters", "gpus",
                 "disk" */
  WsDoctorLevel level;
  char *summary; /* one line: what was found */
  char *fix;     /* NULL when nothing is to be done; commands to type otherwise */
} WsDoctorCheck;

GPtrArray *ws_doctor_run (const WsCaptureSettings *settings, const char *out_dir,
                          const char *proc_root);
GPtrArray *ws_doctor_run_on_host (const WsCaptureSettings *settings, const WsSshHost *host,
                                  GCancellable *cancellable);
void ws_doctor_run_async (const WsCaptureSettings *settings, const char *out_dir,
                          const char *proc_root, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data);
void ws_doctor_run_hosts_async (const WsCaptureSettings *settings, const char *out_dir,
                                const char *proc_root, GPtrArray *hosts, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data);
GPtrArray *ws_doctor_run_finish (GAsyncResult *result, GError **error);
WsDoctorLevel ws_doctor_worst (GPtrArray *checks);
const WsDoctorCheck *ws_doctor_find (GPtrArray *checks, const char *id);

void ws_doctor_check_free (WsDoctorCheck *check);

G_END_DECLS
