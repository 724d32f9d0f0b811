/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* A run cut to some stretches of its clock (the steady state of a training
 * loop): every event that starts inside one of them, on any thread or GPU;
 * kernels and memory operations may be placed by another time (their
 * launch: the GPU runs behind the host).  The slice shares the run's
 * strings, threads, streams and ncu results (it holds a reference), and is
 * as immutable as any run. */
/* ns: the time that places each kernel, memory operation and graph replay
 * of a run in a slice (their launch calls' starts); a NULL array places by
 * the event's own start. */
typedef struct
{
  const gint64 *kernels;
  const gint64 *memops;
  const gint64 *replays;
} WsLaunchTimes;

WsRun *ws_run_slice (const WsRun *run, const gint64 *starts, const gint64 *ends, guint n_spans,
                     const WsLaunchTimes *times);
WsRun *ws_run_select_pids (const WsRun *run, const guint32 *pids, guint n_pids);

G_END_DECLS
