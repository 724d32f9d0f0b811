/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-digest"
#include "config.h"

#include "ws-digest.h"

/**
 * ws_digest_rank_new:
 *
 * Returns: (transfer full): an empty rank of a digest, for the digest's
 * computation or its reader to fill
 */
WsDigestRank *
ws_digest_rank_new (void)
{
  WsDigestRank *self = g_new0 (WsDigestRank, 1);

  self->findings = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_unref);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
ws_digest_rank_free (WsDigestRank *self)
{
  if (self == NULL)
    return;
  g_free (self->file);
  g_free (self->path);
  g_free (self->checksum);
  g_free (self->error);
  g_free (self->rank.file);
  g_free (self->rank.process);
  g_free (self->rank.host);
  g_free (self->rank.job);
  g_free (self->rank.gpus);
  g_free (self->rank.how);
  g_free (self->command);
  g_strfreev (self->env);
  g_free (self->thread_rank_name);
  g_clear_pointer (&self->figures, ws_rank_figures_unref);
  for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
    g_clear_pointer (&self->summaries[k], ws_summary_unref);
  g_free (self->gpu_busy);
  g_free (self->comm);
  g_ptr_array_unref (self->findings);
  g_ptr_array_unref (self->warnings);
  g_free (self->scope);
  g_free (self);
}

/**
 * ws_digest_new:
 *
 * Returns: (transfer full): an empty digest
 */
WsDigest *
ws_digest_new (void)
{
  WsDigest *self = g_new0 (WsDigest, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->schema_version = WS_DIGEST_SCHEMA_VERSION;
  self->ranks = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_digest_rank_free);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  self->aligned = TRUE;
  /* Built here, its ranks have their summaries; a reader says otherwise. */
  self->rank_summaries_read = TRUE;
  return self;
}

WsDigest *
ws_digest_ref (WsDigest *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_digest_unref (WsDigest *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->created);
  g_free (self->tool);
  g_free (self->host);
  g_free (self->method);
  g_free (self->folder);
  g_free (self->path);
  g_ptr_array_unref (self->ranks);
  g_ptr_array_unref (self->notes);
  g_free (self->job_name);
  for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
    g_clear_pointer (&self->job_summaries[k], ws_summary_unref);
  g_free (self);
}

/* The ranks that were digested (the others carry an error). */
guint
ws_digest_n_good (const WsDigest *self)
{
  guint n = 0;

  for (guint i = 0; i < self->ranks->len; i++)
    n += ((const WsDigestRank *) g_ptr_array_index (self->ranks, i))->error == NULL;
  return n;
}

/**
 * ws_digest_find_rank:
 *
 * Returns: (transfer none) (nullable): the digested rank numbered @rank
 */
const WsDigestRank *
ws_digest_find_rank (const WsDigest *self, guint rank)
{
  for (guint i = 0; i < self->ranks->len; i++)
    {
      const WsDigestRank *r = g_ptr_array_index (self->ranks, i);

      if (r->error == NULL && r->rank.rank == rank)
        return r;
    }
  return NULL;
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

/**
 * ws_digest_to_ranks:
 * @select: (array length=n_select) (nullable): the rank numbers to keep,
 *   or %NULL for every rank digested
 *
 * The job's ranks as a run carries them (ws-ranks.h), each with its
 * figures, as the ranks view, `ranks` and the straggler read them.  The
 * notes on shared GPUs are made again from the ranks kept.
 *
 * Returns: (transfer full): the ranks
 */
WsRanks *
ws_digest_to_ranks (const WsDigest *self, const guint *select, guint n_select)
{
  WsRanks *ranks = ws_ranks_new ();
  g_autoptr (GHashTable) jobs = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (self != NULL, NULL);

  ranks->source = self->source;
  ranks->aligned = self->aligned;
  ranks->spread = self->spread;
  ranks->job_name = g_strdup (self->job_name);
  for (guint i = 0; i < self->notes->len; i++)
    g_ptr_array_add (ranks->notes, g_strdup (g_ptr_array_index (self->notes, i)));
  for (guint i = 0; i < self->ranks->len; i++)
    {
      const WsDigestRank *r = g_ptr_array_index (self->ranks, i);
      WsRank copy = r->rank;

      if (r->error != NULL || !selected (r->rank.rank, select, n_select))
        continue;
      copy.file = g_strdup (r->rank.file);
      copy.process = g_strdup (r->rank.process);
      copy.host = g_strdup (r->rank.host);
      copy.job = g_strdup (r->rank.job);
      copy.gpus = g_strdup (r->rank.gpus);
      copy.how = g_strdup (r->rank.how);
      g_array_append_val (ranks->ranks, copy);
      g_ptr_array_add (ranks->figures,
                       r->figures != NULL ? ws_rank_figures_ref (r->figures) : NULL);
      if (r->rank.job != NULL && g_hash_table_add (jobs, r->rank.job))
        g_ptr_array_add (ranks->jobs, g_strdup (r->rank.job));
    }
  ws_ranks_add_gpu_notes (ranks);
  return ranks;
}
