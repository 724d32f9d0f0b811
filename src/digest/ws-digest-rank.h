/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-digest.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* One rank's part of a job digest (ws-digest.h), computed from its export
 * alone: its figures (ws_rank_measure()), its summaries with a quantile
 * sketch per row, its GPU-busy and communication series, and the findings
 * `diagnose` gives for it.  The export's file facts, the GPUs and the rank
 * number are the caller's (the loader's) to fill. */

WsDigestRank *ws_digest_rank_compute (const WsRun *run, guint32 pid);

G_END_DECLS
