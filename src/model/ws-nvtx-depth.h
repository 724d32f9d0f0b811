/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Deepest row a range can get; deeper ones share the last row. */
#define WS_NVTX_MAX_DEPTH 255

void ws_nvtx_assign_depth (const gint64 *start, const gint64 *end, const guint32 *thread, gsize n,
                           guint n_threads, guint16 *depth);

G_END_DECLS
