/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-digest"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-digest-merge.h"
#include "ws-format.h"

typedef struct
{
  char *name;
  char *style;
  gint64 count;
  gint64 total;
  gint64 min;
  gint64 max;
  long double mean;
  long double m2; /* the sum of squared deviations from the mean */
  WsSketch *sketch;
  guint ranks;
  double med;    /* of the only rank that has the row: exact */
  double stddev; /* likewise */
} Acc;

static void
acc_free (gpointer data)
{
  Acc *acc = data;

  g_free (acc->name);
  g_free (acc->style);
  ws_sketch_free (acc->sketch);
  g_free (acc);
}

static gboolean
selected (guint rank, const guint *select, guint n_select)
{
  if (select == NULL)
    return TRUE;
  for (guint i = 0; i < n_select; i++)
    if (select[i] == rank)
      return TRUE;
  return FALSE;
}

/* Adds one rank's row: counts, totals and extremes add up; mean and the
 * squared deviations combine as Chan et al. give them. */
static void
acc_add (Acc *acc, const WsSummaryRow *row, const WsSketch *sketch)
{
  long double n_a = (long double) acc->count, n_b = (long double) row->count;
  long double m2_b = (long double) row->stddev * row->stddev * (n_b - 1);
  long double delta = (long double) row->avg - acc->mean;

  if (acc->ranks == 0)
    {
      acc->mean = row->avg;
      acc->m2 = m2_b;
      acc->min = row->min;
      acc->max = row->max;
      acc->med = row->med;
      acc->stddev = row->stddev;
      acc->sketch = sketch != NULL ? ws_sketch_copy (sketch) : ws_sketch_new ();
    }
  else
    {
      acc->mean += delta * n_b / (n_a + n_b);
      acc->m2 += m2_b + delta * delta * n_a * n_b / (n_a + n_b);
      acc->min = MIN (acc->min, row->min);
      acc->max = MAX (acc->max, row->max);
      if (sketch != NULL)
        ws_sketch_merge (acc->sketch, sketch);
    }
  if (__builtin_add_overflow (acc->total, row->total, &acc->total))
    acc->total = G_MAXINT64;
  acc->count += row->count;
  acc->ranks++;
}

/**
 * ws_digest_merge_summary:
 * @select: (array length=n_select) (nullable): the ranks to merge, or
 *   %NULL for every rank digested
 * @rows_left_out: (out) (optional): rows some rank left out of its digest
 *   (beyond WS_DIGEST_MAX_ROWS), which the merged rows then lack
 *
 * The summary @kind of the ranks together, as `nsys stats` would give it
 * for all their events: a row per name with the ranks' counts, totals,
 * minima and maxima added up, the mean and standard deviation of the
 * union, and its median from the merged sketches.  A row of one rank is
 * that rank's row as it was.
 *
 * Returns: (transfer full) (nullable): the summary (with the merged
 * sketches), or %NULL when no rank has such data
 */
WsSummary *
ws_digest_merge_summary (const WsDigest *digest, WsSummaryKind kind, const guint *select,
                         guint n_select, gint64 *rows_left_out)
{
  g_autoptr (GHashTable) by_key = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) accs = g_ptr_array_new_with_free_func (acc_free);
  WsSummary *summary;
  gboolean any = FALSE;
  gint64 left_out = 0, total_left_out = 0;

  g_return_val_if_fail (digest != NULL && kind < WS_N_SUMMARY_KINDS, NULL);

  for (guint i = 0; i < digest->ranks->len; i++)
    {
      const WsDigestRank *rank = g_ptr_array_index (digest->ranks, i);
      const WsSummary *one = rank->summaries[kind];

      if (rank->error != NULL || one == NULL || !selected (rank->rank.rank, select, n_select))
        continue;
      any = TRUE;
      left_out += rank->rows_left_out[kind];
      total_left_out += rank->total_left_out[kind];
      for (guint r = 0; r < one->rows->len; r++)
        {
          const WsSummaryRow *row = &g_array_index (one->rows, WsSummaryRow, r);
          const WsSketch *sketch = one->sketches != NULL && r < one->sketches->len
                                     ? g_ptr_array_index (one->sketches, r)
                                     : NULL;
          g_autofree char *key =
            g_strconcat (row->style != NULL ? row->style : "", "\x1f", row->name, NULL);
          Acc *acc = g_hash_table_lookup (by_key, key);

          if (acc == NULL)
            {
              acc = g_new0 (Acc, 1);
              acc->name = g_strdup (row->name);
              acc->style = g_strdup (row->style);
              g_ptr_array_add (accs, acc);
              g_hash_table_insert (by_key, g_steal_pointer (&key), acc);
            }
          acc_add (acc, row, sketch);
        }
    }
  if (rows_left_out != NULL)
    *rows_left_out = left_out;
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, by_key);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_free (key);
  }
  if (!any)
    return NULL;

  summary = ws_summary_new_sketched (kind);
  summary->name_form = WS_NAME_DEMANGLED;
  for (guint i = 0; i < accs->len; i++)
    {
      Acc *acc = g_ptr_array_index (accs, i);
      WsSummaryRow row = { 0 };

      row.name = g_steal_pointer (&acc->name);
      row.style = g_steal_pointer (&acc->style);
      row.name_id = WS_STRING_NONE;
      row.count = acc->count;
      row.total = acc->total;
      row.min = acc->min;
      row.max = acc->max;
      row.avg = acc->count > 0 ? (double) acc->total / (double) acc->count : 0;
      if (acc->ranks == 1)
        {
          row.med = acc->med;
          row.stddev = acc->stddev;
        }
      else
        {
          row.med = ws_sketch_median (acc->sketch);
          row.stddev = acc->count > 1 ? (double) sqrtl (MAX (acc->m2, 0) / (acc->count - 1)) : 0;
        }
      g_array_append_val (summary->rows, row);
      g_ptr_array_add (summary->sketches, g_steal_pointer (&acc->sketch));
    }
  ws_summary_finish (summary);
  /* Shares are of every row, those some rank left out too. */
  if (total_left_out > 0)
    {
      summary->grand_total += total_left_out;
      for (guint i = 0; i < summary->rows->len; i++)
        {
          WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);

          row->percent = (double) row->total / (double) summary->grand_total * 100.0;
        }
    }
  return summary;
}
