/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* Finds the CUDA API call that launched a kernel, a memory operation or a
 * CUDA graph replay: the call of the same process with the same
 * correlation id.  Correlation ids
 * are unique only within a process, so the key is (pid, correlation).
 * Built once per run (a radix sort of the calls' keys, then one search per
 * operation, each near the last); then four bytes per kernel and memory
 * operation, so that a run of 10^7 of them stays small.  Immutable, so
 * shared between threads. */
typedef struct _WsLaunchIndex WsLaunchIndex;

WsLaunchIndex *ws_launch_index_new (const WsRun *run);
WsLaunchIndex *ws_launch_index_ref (WsLaunchIndex *self);
void ws_launch_index_unref (WsLaunchIndex *self);

const WsRun *ws_launch_index_get_run (const WsLaunchIndex *self);
gssize ws_launch_index_kernel (const WsLaunchIndex *self, gsize kernel);
gssize ws_launch_index_memop (const WsLaunchIndex *self, gsize memop);
gssize ws_launch_index_replay (const WsLaunchIndex *self, gsize replay);
gsize ws_launch_index_n_kernels_found (const WsLaunchIndex *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsLaunchIndex, ws_launch_index_unref)

G_END_DECLS
