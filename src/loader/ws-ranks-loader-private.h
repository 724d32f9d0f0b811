/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* ws-ranks-files.c, for ws-ranks-loader.c: what an export or trace records
 * of its processes and clock, read before its events (a probe run). */
WsRun *ws_ranks_probe_file (const char *path, GCancellable *cancellable, GError **error);

G_END_DECLS
