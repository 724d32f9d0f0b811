/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>

#include "ws-cli.h"
#include "ws-format.h"
#include "ws-input.h"
#include "ws-rank-compare.h"
#include "ws-ranks.h"
#include "ws-run-derive.h"
#include "ws-table-writer.h"
#include "ws-run-slice.h"
#include "ws-stats.h"

/* `compare` with ranks: two jobs rank by rank, and two ranks of one job
 * as peers (`--peers 0,3 RUN`). */

static char *
change (gint64 before, gint64 after)
{
  g_autofree char *b = ws_format_duration ((double) before);
  g_autofree char *a = ws_format_duration ((double) after);
  g_autofree char *d = ws_format_duration (fabs ((double) (after - before)));

  return g_strdup_printf ("%s → %s (%s%s)", b, a, after >= before ? "+" : "−", d);
}

/**
 * ws_cli_compare_write_ranks:
 *
 * Two jobs, rank by rank (table and Markdown): each rank's GPU time,
 * waiting and median step on both sides.  Nothing for runs without ranks.
 */
void
ws_cli_compare_write_ranks (const WsRun *before, const WsRun *after, gboolean markdown,
                            GString *out)
{
  g_autoptr (GArray) pairs = ws_rank_compare_pairs (before, after);

  if (pairs->len == 0)
    return;
  if (markdown)
    g_string_append_printf (out, "\n## %s\n\n| %s | %s | %s | %s |\n|---:|---|---|---|\n",
                            _ ("Rank by rank"), _ ("Rank"), _ ("GPU time"), _ ("Waiting"),
                            _ ("Median step"));
  else
    g_string_append_printf (out, "\n%s\n", _ ("Rank by rank (before → after)"));
  for (guint i = 0; i < pairs->len; i++)
    {
      const WsRankPair *p = &g_array_index (pairs, WsRankPair, i);
      g_autofree char *gpu = NULL, *wait = NULL, *step = NULL;

      if (p->before == NULL || p->after == NULL)
        {
          const char *which = p->before == NULL ? _ ("only after") : _ ("only before");

          if (markdown)
            g_string_append_printf (out, "| %u | %s | | |\n", p->rank, which);
          else
            g_string_append_printf (out, _ ("  rank %u: %s\n"), p->rank, which);
          continue;
        }
      gpu = change (p->before->gpu_time, p->after->gpu_time);
      wait = change (p->before->wait_time, p->after->wait_time);
      step = change ((gint64) llround (p->before->step_median),
                     (gint64) llround (p->after->step_median));
      if (markdown)
        g_string_append_printf (out, "| %u | %s | %s | %s |\n", p->rank, gpu, wait, step);
      else
        g_string_append_printf (out, _ ("  rank %u: GPU time %s, waiting %s, median step %s\n"),
                                p->rank, gpu, wait, step);
    }
}

static char *
integer (gint64 value, gboolean grouping)
{
  g_autoptr (GString) out = g_string_new (NULL);

  ws_format_int (out, value, grouping);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static WsRun *
rank_run (WsRun *run, guint number, const char *file, GError **error)
{
  gint index = ws_ranks_index_of (run->ranks, number);
  guint32 pid;

  if (run->ranks == NULL || ws_ranks_get_n (run->ranks) == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("%s: not a job of several ranks: --peers compares two ranks of one job "
                      "(its exports, their folder or its digest)"),
                   file);
      return NULL;
    }
  if (index < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("%s: no rank %u (its ranks are %u to %u)"), file, number,
                   ws_ranks_get (run->ranks, 0)->rank,
                   ws_ranks_get (run->ranks, ws_ranks_get_n (run->ranks) - 1)->rank);
      return NULL;
    }
  pid = ws_ranks_get (run->ranks, index)->pid;
  return ws_run_derive_pids (run, &pid, 1);
}

/**
 * ws_cli_compare_peers:
 * @peers: "0,3"
 * @arg: the job, as `compare` takes a side
 *
 * Two ranks of one job as peers: kernel by kernel, "rank 0" and "rank 3"
 * where a comparison says before and after.
 *
 * Returns: the exit status
 */
int
ws_cli_compare_peers (const char *peers, const char *arg, WsMatchBy by, WsOutputFormat format)
{
  g_auto (GStrv) parts = g_strsplit (peers, ",", -1);
  g_auto (GStrv) paths = ws_input_split_side (arg);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsRun) a = NULL, b = NULL;
  g_autoptr (WsComparison) cmp = NULL;
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree char *name_a = NULL, *name_b = NULL, *key_a = NULL, *key_b = NULL;
  guint64 na, nb;
  char *end;
  static const gboolean numeric[] = { FALSE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, FALSE };

  if (g_strv_length (parts) != 2 || !g_ascii_isdigit (parts[0][0]) ||
      !g_ascii_isdigit (parts[1][0]) || (na = g_ascii_strtoull (parts[0], &end, 10), *end) ||
      (nb = g_ascii_strtoull (parts[1], &end, 10), *end) || na > G_MAXUINT || nb > G_MAXUINT)
    {
      ws_cli_error ("compare", _ ("--peers takes two ranks, such as 0,3"));
      return WS_EXIT_BAD_INPUT;
    }
  ws_cli_load_as_job (TRUE);
  run = ws_cli_load (paths, WS_LOAD_ALL, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  a = rank_run (run, (guint) na, arg, &error);
  b = a != NULL ? rank_run (run, (guint) nb, arg, &error) : NULL;
  if (b == NULL)
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_BAD_INPUT;
    }
  /* TRANSLATORS: %u is a rank of a distributed job */
  name_a = g_strdup_printf (_ ("rank %u"), (guint) na);
  name_b = g_strdup_printf (_ ("rank %u"), (guint) nb);
  key_a = g_strdup_printf ("rank%u", (guint) na);
  key_b = g_strdup_printf ("rank%u", (guint) nb);
  cmp = ws_comparison_new (a, b, by);
  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);
      gboolean grouping = format != WS_FORMAT_CSV;

      g_ptr_array_add (cells, g_strdup (d->key));
      g_ptr_array_add (cells, integer (d->before_total, grouping));
      g_ptr_array_add (cells, integer (d->after_total, grouping));
      g_ptr_array_add (cells, integer (d->delta, grouping));
      g_ptr_array_add (cells,
                       isnan (d->ratio) ? g_strdup ("") : ws_format_fixed_string (d->ratio, 3));
      g_ptr_array_add (cells, integer (d->before_count, grouping));
      g_ptr_array_add (cells, integer (d->after_count, grouping));
      if (d->presence == WS_PRESENT_BOTH)
        g_ptr_array_add (cells, g_strdup ("both"));
      else
        g_ptr_array_add (
          cells,
          g_strdup_printf ("only %s", d->presence == WS_PRESENT_ONLY_BEFORE ? key_a : key_b));
    }
  if (format == WS_FORMAT_CSV)
    {
      g_autofree char *h1 = g_strdup_printf ("%s_total_ns", key_a);
      g_autofree char *h2 = g_strdup_printf ("%s_total_ns", key_b);
      g_autofree char *h5 = g_strdup_printf ("%s_instances", key_a);
      g_autofree char *h6 = g_strdup_printf ("%s_instances", key_b);
      const char *headers[] = { "kernel", h1, h2, "delta_ns", "ratio", h5, h6, "status" };

      ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, WS_FORMAT_CSV, out);
    }
  else
    {
      g_autofree char *headline = ws_rank_compare_peer_headline (cmp, name_a, name_b);
      g_autofree char *h1 = g_strdup_printf (_ ("%s (ns)"), name_a);
      g_autofree char *h2 = g_strdup_printf (_ ("%s (ns)"), name_b);
      g_autofree char *h4 = g_strdup_printf ("%s/%s", name_b, name_a);
      g_autofree char *h5 = g_strdup_printf ("%s #", name_a);
      g_autofree char *h6 = g_strdup_printf ("%s #", name_b);
      g_autofree char *h3 = g_strdup_printf (_ ("Δ %s − %s (ns)"), name_b, name_a);
      const char *headers[] = { _ ("Kernel"), h1, h2, h3, h4, h5, h6, _ ("Status") };

      if (format == WS_FORMAT_MARKDOWN)
        g_string_append_printf (out, "# %s\n\n**%s**\n\n", _ ("Two ranks side by side"), headline);
      else
        g_string_append_printf (out, "%s\n\n", headline);
      ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, format, out);
    }
  if (!ws_cli_write_report (out, format == WS_FORMAT_CSV, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
