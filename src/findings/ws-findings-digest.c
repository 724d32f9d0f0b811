/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-digest.h"
#include "ws-findings-digest.h"
#include "ws-findings.h"
#include "ws-ranks.h"
#include "ws-rank-set.h"

/* The findings of a job opened from a digest: each rank's, as the digest
 * holds them, merged into one list for the job. */

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
 * ws_findings_merge_digest:
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
ws_findings_merge_digest (const WsRun *run)
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
