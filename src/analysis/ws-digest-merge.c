/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-digest"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-digest-merge.h"
#include "ws-findings.h"
#include "ws-format.h"
#include "ws-rank-set.h"

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

static WsFinding *
finding_copy (const WsFinding *from, gint64 offset)
{
  WsFinding *to = ws_finding_new (from->id);

  to->severity = from->severity;
  to->title = g_strdup (from->title);
  to->summary = g_strdup (from->summary);
  to->rule = g_strdup (from->rule);
  to->fix = g_strdup (from->fix);
  to->cost = from->cost;
  for (guint i = 0; i < from->notes->len; i++)
    ws_finding_add_note (to, g_ptr_array_index (from->notes, i));
  for (guint i = 0; i < from->evidence->len; i++)
    {
      const WsEvidence *e = g_ptr_array_index (from->evidence, i);

      if (e->unit == WS_UNIT_TEXT)
        ws_finding_add_evidence_text (to, e->key, e->label, e->text);
      else
        ws_finding_add_evidence (to, e->key, e->label, e->unit, e->value);
    }
  for (guint i = 0; i < from->nvtx->len; i++)
    {
      const WsFindingNvtx *n = g_ptr_array_index (from->nvtx, i);
      WsFindingNvtx *copy = g_new (WsFindingNvtx, 1);

      *copy = *n;
      copy->name = g_strdup (n->name);
      copy->domain = g_strdup (n->domain);
      copy->start += offset;
      copy->end += offset;
      g_ptr_array_add (to->nvtx, copy);
    }
  for (guint i = 0; i < from->ranges->len; i++)
    {
      const WsTimeRange *r = &g_array_index (from->ranges, WsTimeRange, i);

      ws_finding_add_range (to, r->start + offset, r->end + offset);
    }
  return to;
}

static gboolean
worse (const WsFinding *a, const WsFinding *b)
{
  return a->severity != b->severity ? a->severity > b->severity : a->cost > b->cost;
}

/**
 * ws_digest_merge_findings:
 * @run: a run opened from a digest (run->digest), holding some of its ranks
 *
 * The findings of a digest's ranks together.  With one rank, its own, as
 * `diagnose` gave them for its export.  With several, one per check: the
 * worst rank's (the most severe, then the most time at stake), its summary
 * led by its rank and followed by the ranks that raised it too, its time
 * ranges placed on the job's clock.  Then what comparing the ranks finds
 * (rank-imbalance, shared-gpu), as for a job opened from its exports.
 *
 * Returns: (transfer full) (element-type WsFinding): the findings, most
 * severe first
 */
GPtrArray *
ws_digest_merge_findings (const WsRun *run)
{
  GPtrArray *findings = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_unref);
  g_autoptr (GHashTable) worst = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) raised =
    g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  g_autoptr (GHashTable) rank_of = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  guint n = ws_ranks_get_n (run->ranks);

  g_return_val_if_fail (run != NULL && run->digest != NULL, findings);

  for (guint i = 0; i < n; i++)
    {
      const WsRank *rank = ws_ranks_get (run->ranks, i);
      const WsDigestRank *d = ws_digest_find_rank (run->digest, rank->rank);

      for (guint f = 0; d != NULL && f < d->findings->len; f++)
        {
          WsFinding *finding = g_ptr_array_index (d->findings, f);
          WsFinding *before = g_hash_table_lookup (worst, finding->id);
          GArray *ranks = g_hash_table_lookup (raised, finding->id);

          if (n == 1)
            {
              g_ptr_array_add (findings, ws_finding_ref (finding));
              continue;
            }
          if (ranks == NULL)
            {
              ranks = g_array_new (FALSE, FALSE, sizeof (guint));
              g_hash_table_insert (raised, finding->id, ranks);
              g_ptr_array_add (order, finding->id);
            }
          g_array_append_val (ranks, rank->rank);
          if (before == NULL || worse (finding, before))
            {
              g_hash_table_insert (worst, finding->id, finding);
              g_hash_table_insert (rank_of, finding, (gpointer) d);
            }
        }
    }
  for (guint i = 0; i < order->len; i++)
    {
      const char *id = g_ptr_array_index (order, i);
      const WsFinding *finding = g_hash_table_lookup (worst, id);
      const WsDigestRank *d = g_hash_table_lookup (rank_of, finding);
      GArray *ranks = g_hash_table_lookup (raised, id);
      WsFinding *copy = finding_copy (finding, d->rank.offset);
      g_autofree char *list =
        ws_ranks_format_numbers ((const guint *) (gpointer) ranks->data, ranks->len);
      char *summary;

      /* TRANSLATORS: "Rank 3: <the finding's summary> (raised on 3 of 4 ranks: 0, 2, 3)" */
      summary = g_strdup_printf (_ ("Rank %u: %s (raised on %u of %u ranks: %s)"), d->rank.rank,
                                 copy->summary, ranks->len, n, list);
      g_free (copy->summary);
      copy->summary = summary;
      ws_finding_add_evidence (copy, "ranks_raised", _ ("Ranks that raise it"), WS_UNIT_COUNT,
                               ranks->len);
      ws_finding_add_evidence (copy, "worst_rank", _ ("Worst rank"), WS_UNIT_COUNT, d->rank.rank);
      g_ptr_array_add (findings, copy);
    }
  ws_rank_set_add_findings (run, findings);
  ws_findings_sort (findings);
  return findings;
}
