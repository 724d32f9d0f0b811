/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean ws_limits_check_rows (const char *path, const char *table, gint64 rows,
                               gsize bytes_per_row, GError **error);
guint64 ws_limits_memory_budget (void);

/* Times beyond ±2^62 ns (146 years) are clamped, so that differences of two
 * times never overflow. */
#define WS_TIME_LIMIT (G_GINT64_CONSTANT (1) << 62)

static inline gint64
ws_clamp_time (gint64 t)
{
  return CLAMP (t, -WS_TIME_LIMIT, WS_TIME_LIMIT);
}

G_END_DECLS
