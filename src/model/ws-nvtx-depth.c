/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvtx"
#include "config.h"

#include "ws-nvtx-depth.h"

/* Assigns each range the lowest row of its thread that is free at its start.
 * The ranges come sorted by start, enclosing ranges first, so for push/pop
 * ranges (always properly nested) the row is exactly the nesting depth: every
 * range still open at a child's start encloses it and holds a lower row.
 * Start/end ranges may overlap freely; they get the first free row. */
void
ws_nvtx_assign_depth (const gint64 *start, const gint64 *end, const guint32 *thread, gsize n,
                      guint n_threads, guint16 *depth)
{
  g_autofree GArray **rows = g_new0 (GArray *, n_threads + 1);

  for (gsize i = 0; i < n; i++)
    {
      guint t = thread[i] < n_threads ? thread[i] : n_threads;
      GArray *row_end = rows[t];
      guint row;

      if (row_end == NULL)
        row_end = rows[t] = g_array_new (FALSE, FALSE, sizeof (gint64));

      for (row = 0; row < row_end->len; row++)
        if (g_array_index (row_end, gint64, row) <= start[i])
          break;

      if (row > WS_NVTX_MAX_DEPTH)
        row = WS_NVTX_MAX_DEPTH;
      if (row == row_end->len)
        g_array_append_val (row_end, end[i]);
      else
        g_array_index (row_end, gint64, row) = MAX (end[i], g_array_index (row_end, gint64, row));
      depth[i] = (guint16) row;
    }

  for (guint t = 0; t <= n_threads; t++)
    if (rows[t] != NULL)
      g_array_unref (rows[t]);
}
