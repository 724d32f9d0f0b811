/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "ws-nsys-reader-private.h"

G_BEGIN_DECLS

/* ws-nvprof-{runtime,driver}-names.c: names of the calls nvprof records by callback id. */
const char *ws_nvprof_runtime_name (gint64 cbid);
const char *ws_nvprof_driver_name (gint64 cbid);

/* CUpti_ActivityFlag bits of MARKER rows. */
enum
{
  MARKER_INSTANTANEOUS = 1 << 0,
  MARKER_START = 1 << 1,
  MARKER_END = 1 << 2,
};

/* CUpti_ActivityObjectKind */
enum
{
  OBJECT_PROCESS = 1,
  OBJECT_THREAD = 2,
};

typedef struct
{
  WsNsysReader base;
  GHashTable *kernel_names; /* file string id → KernelName */
  GHashTable *threads;      /* (pid << 32 | tid) → thread index + 1 */
  GHashTable *api_names;    /* (api << 32 | cbid) → string id + 1 */
  GHashTable *used_devices; /* device id set */
} WsNvprofReaderState;

/* ws-nvprof-reader.c: the run's thread for nvprof's (process id, 32-bit
 * pthread id), made when first met. */
guint32 ws_nvprof_thread_for (WsNvprofReaderState *nr, guint32 pid, guint32 tid);
/* ws-nvprof-reader.c: the process and thread ids of an objectId blob. */
void ws_nvprof_blob_ids (sqlite3_stmt *stmt, int col, guint32 *pid, guint32 *tid);
/* ws-nvprof-markers.c: NVTX ranges and marks from the MARKER table. */
gboolean ws_nvprof_load_markers (WsNvprofReaderState *nr, const char *table, gint64 count,
                                 GError **error);
/* ws-nvprof-streams.c: each stream's process, from the calls that launched its work. */
void ws_nvprof_assign_stream_processes (WsRun *run);

G_END_DECLS
