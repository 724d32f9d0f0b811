/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>

#include "ws-sort.h"

/* ws_sort_order() against its definition, by qsort() here: rows by start,
 * the longer first where two start together (the later end), then in the
 * order they came.  Tables in one to eight sorted runs (merged run by
 * run) and in many (the merge sort), with ties, with and without ends. */

typedef struct
{
  gint64 start, end;
  guint32 index;
} Row;

static int
compare_rows (const void *a, const void *b)
{
  const Row *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end > y->end ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* @n rows in @runs sorted runs (or random, @runs 0), starts drawn from
 * @spread values so that many tie. */
static void
assert_sorted_as_defined (gsize n, guint runs, gint64 spread, gboolean with_end, GRand *rand)
{
  g_autofree gint64 *start = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *end = g_new (gint64, MAX (n, 1));
  g_autofree Row *rows = g_new (Row, MAX (n, 1));
  g_autofree guint32 *order = NULL;

  for (gsize i = 0; i < n; i++)
    {
      start[i] = g_rand_int_range (rand, 0, (gint32) spread);
      end[i] = start[i] + g_rand_int_range (rand, 0, 3);
    }
  /* Each run sorted on its own: the table is runs of rising rows. */
  for (guint r = 0; runs > 0 && r < runs; r++)
    {
      gsize lo = n * r / runs, hi = n * (r + 1) / runs;
      g_autofree Row *part = g_new (Row, MAX (hi - lo, 1));

      for (gsize i = lo; i < hi; i++)
        part[i - lo] = (Row){ start[i], with_end ? end[i] : 0, (guint32) i };
      qsort (part, hi - lo, sizeof (Row), compare_rows);
      for (gsize i = lo; i < hi; i++)
        {
          start[i] = part[i - lo].start;
          end[i] = part[i - lo].end;
        }
    }
  for (gsize i = 0; i < n; i++)
    rows[i] = (Row){ start[i], with_end ? end[i] : 0, (guint32) i };
  qsort (rows, n, sizeof (Row), compare_rows);
  order = ws_sort_order (start, with_end ? end : NULL, n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpuint (order[i], ==, rows[i].index);
  g_assert_true (ws_sort_is_ordered (start, with_end ? end : NULL, 0));
}

static void
test_order (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (41);
  const guint runs[] = { 0, 1, 2, 3, 7, 8, 9, 40 };
  const gsize sizes[] = { 0, 1, 2, 17, 1000, 65537 };

  for (gsize r = 0; r < G_N_ELEMENTS (runs); r++)
    for (gsize s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (int with_end = 0; with_end <= 1; with_end++)
        {
          assert_sorted_as_defined (sizes[s], runs[r], 50, with_end, rand);
          assert_sorted_as_defined (sizes[s], runs[r], G_MAXINT32, with_end, rand);
        }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sort/order-as-defined", test_order);
  return g_test_run ();
}
