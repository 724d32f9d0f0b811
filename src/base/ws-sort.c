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

/* The first of the sorted @items[lo, hi) that a merge puts after @key,
 * where @key_first (@key is of the left half: the first @it with
 * item_le (key, it)), or else before it (@key is of the right half: the
 * first @it with !item_le (it, key)); @hi if none. */
static gsize
first_after (const SortItem *items, gsize lo, gsize hi, const SortItem *key, gboolean key_first)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      gboolean before = key_first ? !item_le (key, &items[mid]) : item_le (&items[mid], key);

      if (before)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Bottom-up stable merge sort.  Exports are mostly in order already, so a
 * merge whose halves are already in order is a no-op, and a merge only
 * moves the rows between the left half's first row that comes after the
 * right half's first and the right half's last row that comes before the
 * left half's last (the others stay where they are); sorted input is O(n). */
static void
merge_sort (SortItem *items, SortItem *tmp, gsize n)
{
  for (gsize width = 1; width < n; width *= 2)
    {
      for (gsize lo = 0; lo < n; lo += 2 * width)
        {
          gsize mid = MIN (lo + width, n);
          gsize hi = MIN (lo + 2 * width, n);
          gsize from, to, i, j = mid, k;

          if (mid >= hi || item_le (&items[mid - 1], &items[mid]))
            continue;
          /* Rows of the left half that the merge would take before the
           * right half's first, and rows of the right half that it would
           * take after the left half's last. */
          from = first_after (items, lo, mid, &items[mid], FALSE);
          to = first_after (items, mid, hi, &items[mid - 1], TRUE);
          i = k = from;

          while (i < mid && j < to)
            tmp[k++] = item_le (&items[i], &items[j]) ? items[i++] : items[j++];
          while (i < mid)
            tmp[k++] = items[i++];
          while (j < to)
            tmp[k++] = items[j++];
          memcpy (items + from, tmp + from, (to - from) * sizeof (SortItem));
        }
    }
}

/* Tables in a few sorted runs (the CPU samples of a few threads, one
 * after the other) are merged run by run instead. */
#define FEW_RUNS 8

/* The first row of each of @start's sorted runs, @first[@n_runs] = @n;
 * FALSE where there are more than FEW_RUNS. */
static gboolean
find_runs (const gint64 *start, const gint64 *end, gsize n, gsize *first, guint *n_runs)
{
  guint runs = 1;

  first[0] = 0;
  for (gsize i = 1; i < n; i++)
    if (!key_le (start[i - 1], end != NULL ? end[i - 1] : 0, start[i], end != NULL ? end[i] : 0))
      {
        if (runs == FEW_RUNS)
          return FALSE;
        first[runs++] = i;
      }
  first[runs] = n;
  *n_runs = runs;
  return TRUE;
}

/* The stable order of a table in @n_runs sorted runs: each row is the
 * least of the runs' next rows, the earliest run's on a tie, which is the
 * order the merge sort gives (by key, then by row). */
static guint32 *
merge_runs (const gint64 *start, const gint64 *end, gsize n, const gsize *first, guint n_runs)
{
  guint32 *order = g_new (guint32, n);
  gsize next[FEW_RUNS];

  memcpy (next, first, n_runs * sizeof *next);
  for (gsize k = 0; k < n; k++)
    {
      guint best = G_MAXUINT;

      for (guint r = 0; r < n_runs; r++)
        {
          gsize i = next[r];

          if (i == first[r + 1])
            continue;
          if (best == G_MAXUINT || !key_le (start[next[best]], end != NULL ? end[next[best]] : 0,
                                            start[i], end != NULL ? end[i] : 0))
            best = r;
        }
      order[k] = (guint32) next[best]++;
    }
  return order;
}

/**
 * ws_sort_order:
 * @end: (nullable): the second key, or %NULL for events without an end
 *
 * Returns: (transfer full): the permutation that sorts the table: row k of
 * the sorted table is row order[k] of the input.  Tables have at most
 * G_MAXUINT32 rows (readers refuse more, ws_limits_check_rows()).
 */
guint32 *
ws_sort_order (const gint64 *start, const gint64 *end, gsize n)
{
  g_autofree SortItem *items = NULL;
  g_autofree SortItem *tmp = NULL;
  gsize first[FEW_RUNS + 1];
  guint n_runs;
  guint32 *order;

  g_return_val_if_fail (n <= G_MAXUINT32, NULL);

  if (find_runs (start, end, n, first, &n_runs))
    return merge_runs (start, end, n, first, n_runs);
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

/**
 * ws_sort_scratch_bytes:
 *
 * Returns: the memory that sorting a table of @n rows takes besides the
 * table (ws_sort_order()'s two buffers and result, ws_sort_apply()'s copy
 * of a column of up to 8 bytes), for the memory budget of a load
 */
guint64
ws_sort_scratch_bytes (guint64 n)
{
  return n * (2 * sizeof (SortItem) + sizeof (guint32) + sizeof (gint64));
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
