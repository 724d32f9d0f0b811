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

/* @a + @b held at G_MAXINT64 or G_MININT64 instead of wrapping: each
 * duration of a run fits in 63 bits, but a sum of many need not. */
static inline gint64
ws_time_add (gint64 a, gint64 b)
{
  gint64 sum;

  if (__builtin_add_overflow (a, b, &sum))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return sum;
}

/* @a - @b, held as ws_time_add() holds a sum. */
static inline gint64
ws_time_sub (gint64 a, gint64 b)
{
  gint64 difference;

  if (__builtin_sub_overflow (a, b, &difference))
    return b < 0 ? G_MAXINT64 : G_MININT64;
  return difference;
}

G_END_DECLS
