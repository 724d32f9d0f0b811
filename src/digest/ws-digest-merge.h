/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-digest.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* A job digest's ranks merged, without their exports: the summaries of
 * several ranks as one (totals, counts, minima and maxima add up exactly;
 * means and standard deviations combine exactly; medians come from the
 * merged sketches: exact while every value is kept, else within 0.5%),
 * and their findings. */

WsSummary *ws_digest_merge_summary (const WsDigest *digest, WsSummaryKind kind, const guint *select,
                                    guint n_select, gint64 *rows_left_out);

G_END_DECLS
