/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-limits"
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "ws-error.h"
#include "ws-limits.h"

/* The memory a load may use: 3/4 of physical memory, or WARPSCOPE_MEMORY_LIMIT
 * bytes when set (tests use it to prove the bound holds). */
guint64
ws_limits_memory_budget (void)
{
  const char *env = g_getenv ("WARPSCOPE_MEMORY_LIMIT");
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGESIZE);

  if (env != NULL)
    {
      guint64 value = g_ascii_strtoull (env, NULL, 10);

      if (value > 0)
        return value;
    }
  if (pages <= 0 || page_size <= 0)
    return G_GUINT64_CONSTANT (8) << 30;
  return (guint64) pages * (guint64) page_size / 4 * 3;
}

/* Refuses, with a message that says why, a table whose rows would not fit:
 * no allocation is ever sized by a number a hostile file chose. */
gboolean
ws_limits_check_rows (const char *path, const char *table, gint64 rows, gsize bytes_per_row,
                      GError **error)
{
  guint64 budget = ws_limits_memory_budget ();
  guint64 need;

  if (rows < 0)
    rows = 0;
  if (rows > G_MAXUINT32)
    {
      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_TOO_LARGE,
                   "%s: %s has %" G_GINT64_FORMAT " rows, more than the %u a table may have", path,
                   table, rows, G_MAXUINT32);
      return FALSE;
    }
  need = (guint64) rows * bytes_per_row;
  if (need > budget)
    {
      g_autofree char *need_str = g_format_size (need);
      g_autofree char *budget_str = g_format_size (budget);

      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_TOO_LARGE,
                   "%s: %s has %" G_GINT64_FORMAT
                   " rows; loading them needs about %s, more than the %s allowed",
                   path, table, rows, need_str, budget_str);
      return FALSE;
    }
  return TRUE;
}
