/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-overview.h"

G_BEGIN_DECLS

/* How much of the kernel table an overview reads: every row up to
 * @all_rows; beyond, about one row in @share but never fewer than
 * @all_rows rows, in @windows runs of consecutive rows spread evenly over
 * the table. */
typedef struct
{
  gint64 all_rows;
  guint share;
  guint windows;
} WsOverviewSampling;

/* 65,536 rows; 1 in 64 in 1,024 runs: 1.6% of 10^7 kernels, 21% of
 * 312,803. */
extern const WsOverviewSampling ws_overview_sampling_default;

WsOverview *ws_nsys_overview_read (const char *path, const WsOverviewSampling *sampling,
                                   GCancellable *cancellable, GError **error);

G_END_DECLS
