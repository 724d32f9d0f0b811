/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* Finds the CUDA API call that launched a kernel or memory operation: the
 * call of the same process with the same correlation id.  Correlation ids
 * are unique only within a process, so the key is (pid, correlation).
 * Four bytes per API call, so that a run of 10^7 calls stays small. */
typedef struct _WsLaunchIndex WsLaunchIndex;

WsLaunchIndex *ws_launch_index_new (const WsRun *run);
void ws_launch_index_free (WsLaunchIndex *self);

gssize ws_launch_index_find (const WsLaunchIndex *self, guint32 pid, guint32 correlation);
gssize ws_launch_index_kernel (const WsLaunchIndex *self, gsize kernel);
gssize ws_launch_index_memop (const WsLaunchIndex *self, gsize memop);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsLaunchIndex, ws_launch_index_free)

G_END_DECLS
