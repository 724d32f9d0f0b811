/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-run.h"

G_BEGIN_DECLS

/* The CPU samples of a run's profile that fall on its clock, placed on the
 * timeline (WsRun.cpu_samples); called by ws_run_finish(). */
void ws_cpu_samples_widen_bounds (const WsRun *run, gint64 *lo, gint64 *hi);
void ws_cpu_samples_index (WsRun *run);

G_END_DECLS
