/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-sort"
#include "config.h"

#include <string.h>

#include "ws-sort.h"

typedef struct
{
  gint64 start;
  gint64 end;
  guint32 index;
} SortItem;

static inline gboolean
item_le (const SortItem *a, const SortItem *b)
{
  if (a->start != b->start)
    return a->start < b->start;
  return a->end >= b->end;
}

static inline gboolean
key_le (gint64 s0, gint64 e0, gint64 s1, gint64 e1)
{
  return s0 < s1 || (s0 == s1 && e0 >= e1);
}

gboolean
ws_sort_is_ordered (const gint64 *start, const gint64 *end, gsize n)
{
  for (gsize i = 1; i < n; i++)
    {
      gint64 e0 = end != NULL ? end[i - 1] : 0;
      gint64 e1 = end != NULL ? end[i] : 0;

      if (!key_le (start[i - 1], e0, start[i], e1))
        return FALSE;
    }
  return TRUE;
}

/* Bottom-up stable merge sort.  Exports are mostly in order already, so a
 * merge whose halves are already in order is a no-op; sorted input is O(n). */
static void
merge_sort (SortItem *items, SortItem *tmp, gsize n)
{
  for (gsize width = 1; width < n; width *= 2)
    {
      for (gsize lo = 0; lo < n; lo += 2 * width)
        {
          gsize mid = MIN (lo + width, n);
          gsize hi = MIN (lo + 2 * width, n);
          gsize i = lo, j = mid, k = lo;

          if (mid >= hi || item_le (&items[mid - 1], &items[mid]))
            continue;

          while (i < mid && j < hi)
            tmp[k++] = item_le (&items[i], &items[j]) ? items[i++] : items[j++];
          while (i < mid)
            tmp[k++] = items[i++];
          while (j < hi)
            tmp[k++] = items[j++];
          memcpy (items + lo, tmp + lo, (hi - lo) * sizeof (SortItem));
        }
    }
}

/**
 * ws_sort_order:
 * @end: (nullable): the second key, or %NULL for events without an end
 *
 * Returns: (transfer full): the permutation that sorts the table: row k of
 * the sorted table is row order[k] of the input.
 */
guint32 *
ws_sort_order (const gint64 *start, const gint64 *end, gsize n)
{
  g_autofree SortItem *items = NULL;
  g_autofree SortItem *tmp = NULL;
  guint32 *order;

  g_return_val_if_fail (n <= G_MAXUINT32, NULL);

  items = g_new (SortItem, n);
  tmp = g_new (SortItem, n);
  for (gsize i = 0; i < n; i++)
    {
      items[i].start = start[i];
      items[i].end = end != NULL ? end[i] : 0;
      items[i].index = (guint32) i;
    }
  merge_sort (items, tmp, n);

  order = g_new (guint32, n);
  for (gsize i = 0; i < n; i++)
    order[i] = items[i].index;
  return order;
}

/* Rearranges one column of a table by @order, in place. */
void
ws_sort_apply (gpointer column, gsize element_size, const guint32 *order, gsize n)
{
  g_autofree guint8 *copy = NULL;
  guint8 *dest = column;

  if (column == NULL || n == 0)
    return;

  copy = g_memdup2 (column, element_size * n);
  for (gsize i = 0; i < n; i++)
    memcpy (dest + i * element_size, copy + (gsize) order[i] * element_size, element_size);
}

/* The first index in [@lo, @hi) of ascending @values at or above @value,
 * or @hi: every time column of a run is searched this way. */
gsize
ws_sort_lower_bound (const gint64 *values, gsize lo, gsize hi, gint64 value)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (values[mid] < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
