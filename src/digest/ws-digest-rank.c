/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-digest"
#include "config.h"

#include <math.h>

#include "ws-findings-setup.h"
#include "ws-limits.h"
#include "ws-digest-rank.h"
#include "ws-findings.h"
#include "ws-gpu-busy.h"
#include "ws-nccl.h"
#include "ws-rank-measure.h"
#include "ws-run-slice.h"
#include "ws-sort.h"
#include "ws-stats.h"
#include "ws-steps.h"

/* The summaries, each row with its sketch; past WS_DIGEST_MAX_ROWS rows
 * (PyTorch's op ranges can give thousands of names), the smallest are
 * counted and dropped. */
static void
add_summaries (WsDigestRank *self, const WsRun *run)
{
  for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
    {
      WsSummary *summary;

      if (!ws_run_has_summary_events (run, kind))
        continue;
      summary = ws_stats_compute_sketched (run, kind, WS_NAME_DEMANGLED);
      if (summary->rows->len > WS_DIGEST_MAX_ROWS)
        {
          for (guint i = WS_DIGEST_MAX_ROWS; i < summary->rows->len; i++)
            self->total_left_out[kind] += g_array_index (summary->rows, WsSummaryRow, i).total;
          self->rows_left_out[kind] = summary->rows->len - WS_DIGEST_MAX_ROWS;
          g_array_set_size (summary->rows, WS_DIGEST_MAX_ROWS);
          g_ptr_array_set_size (summary->sketches, WS_DIGEST_MAX_ROWS);
        }
      self->summaries[kind] = summary;
    }
}

/* Whether event @i of a table whose streams are @stream ran for @pid. */
/* The thread a rank waits on: its steps' thread, else the thread of @pid
 * that called CUDA most. */
static guint32
wait_thread (const WsRun *run, guint32 pid, const WsSteps *steps)
{
  g_autofree guint *calls = NULL;
  guint32 best = G_MAXUINT32;

  if (steps != NULL && steps->steps->len > 0)
    return run->nvtx.thread[g_array_index (steps->steps, WsStep, 0).range];
  calls = g_new0 (guint, MAX (run->threads->len, 1));
  for (gsize i = 0; run->api.thread != NULL && i < run->api.n; i++)
    if (run->api.thread[i] < run->threads->len)
      calls[run->api.thread[i]]++;
  for (guint t = 0; t < run->threads->len; t++)
    if ((pid == WS_PID_ANY || ws_run_thread_pid (run, t) == pid) &&
        (best == G_MAXUINT32 || calls[t] > calls[best]))
      best = t;
  return best;
}

/* Adds [@start, @end) to the bins it overlaps, in ns per bin. */
static void
spread (gint64 *bins, gint64 first, gint64 width, gint64 start, gint64 end)
{
  gint64 lo, hi;

  start = MAX (start, first);
  end = MIN (end, first + width * WS_DIGEST_BINS);
  if (end <= start)
    return;
  lo = (start - first) / width;
  hi = (end - 1 - first) / width;
  for (gint64 b = lo; b <= hi; b++)
    {
      gint64 a = MAX (start, first + b * width);
      gint64 z = MIN (end, first + (b + 1) * width);

      bins[b] += z - a;
    }
}

/* The step thread's blocking calls (OS runtime waits, MPI calls) per bin:
 * where a rank without NCCL waits for the others, as ws_rank_measure()
 * counts it. */
static void
cpu_wait_bins (const WsRun *run, guint32 thread, gint64 first, gint64 width, gint64 *bins)
{
  g_autoptr (GHashTable) names = g_hash_table_new (NULL, NULL);
  gint64 covered = G_MININT64;

  for (gsize i = 0; run->osrt.thread != NULL && i < run->osrt.n; i++)
    {
      guint32 name = run->osrt.name[i];
      gpointer known;

      if (run->osrt.thread[i] != thread)
        continue;
      if (!g_hash_table_lookup_extended (names, GUINT_TO_POINTER (name), NULL, &known))
        {
          known = GUINT_TO_POINTER (ws_rank_measure_is_wait_call (ws_run_string (run, name)));
          g_hash_table_insert (names, GUINT_TO_POINTER (name), known);
        }
      if (!GPOINTER_TO_UINT (known))
        continue;
      /* Calls of one thread do not overlap, but a clipped export may say so. */
      spread (bins, first, width, MAX (run->osrt.start[i], covered), run->osrt.end[i]);
      covered = MAX (covered, run->osrt.end[i]);
    }
  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      const char *name;

      if (run->nvtx.thread[r] != thread)
        continue;
      name = ws_run_string (run, run->nvtx.name[r]);
      if (g_str_has_prefix (name, "MPI_") && !g_str_has_prefix (name, "MPI_Init") &&
          !g_str_equal (name, "MPI_Finalize"))
        spread (bins, first, width, run->nvtx.start[r], run->nvtx.end[r]);
    }
}

static guint16 *
to_shares (const gint64 *bins, gint64 width)
{
  guint16 *shares = g_new (guint16, WS_DIGEST_BINS);

  for (guint b = 0; b < WS_DIGEST_BINS; b++)
    shares[b] = (guint16) lround (CLAMP ((double) bins[b] / (double) width, 0.0, 1.0) * 65535.0);
  return shares;
}

/* GPU busy and communication per bin over the rank's GPU span. */
static void
add_series (WsDigestRank *self, const WsRun *run, guint32 pid, const WsSteps *steps)
{
  g_autoptr (WsBusyIndex) all = ws_busy_index_new (run, pid, WS_BUSY_ALL);
  g_autoptr (WsBusyIndex) comm = NULL;
  g_autofree guint8 *mask = NULL;
  g_autofree gint64 *busy = g_new0 (gint64, WS_DIGEST_BINS);
  g_autofree gint64 *waits = g_new0 (gint64, WS_DIGEST_BINS);
  gint64 first = G_MAXINT64, last = G_MININT64, width;
  guint n_nccl = 0;

  if (!ws_busy_index_extent (all, &first, &last) || last <= first)
    return;
  width = ws_time_add (ws_time_sub (last, first), WS_DIGEST_BINS - 1) / WS_DIGEST_BINS;
  self->series_start = first;
  self->series_bin = width;
  for (guint b = 0; b < WS_DIGEST_BINS; b++)
    busy[b] = ws_busy_index_busy (all, ws_time_add (first, b * width),
                                  ws_time_add (first, (b + 1) * width));

  mask = ws_nccl_kernel_mask (run, &n_nccl);
  if (mask != NULL && n_nccl > 0)
    comm = ws_busy_index_new_masked (run, pid, WS_BUSY_KERNELS, mask, 1);
  if (comm != NULL && ws_busy_index_total (comm) > 0)
    for (guint b = 0; b < WS_DIGEST_BINS; b++)
      waits[b] = ws_busy_index_busy (comm, first + b * width, first + (b + 1) * width);
  else
    {
      guint32 thread = wait_thread (run, pid, steps);

      if (thread != G_MAXUINT32)
        cpu_wait_bins (run, thread, first, width, waits);
    }
  self->gpu_busy = to_shares (busy, width);
  self->comm = to_shares (waits, width);
}

/* The findings as `diagnose` gives them for this export: over the steady
 * state where the run has one, with the line on what it leaves out. */
static void
add_findings (WsDigestRank *self, const WsRun *run, WsSteps *steps)
{
  g_autoptr (WsRun) checked = NULL;
  g_autoptr (GPtrArray) findings = NULL;

  if (steps != NULL && ws_steps_has_steady_state (steps))
    {
      checked = ws_steps_steady_run (run, steps);
      self->scope = ws_findings_setup_line (run, steps);
    }
  else
    checked = ws_run_ref ((WsRun *) run);
  findings = ws_findings_compute (checked);
  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *finding = g_ptr_array_index (findings, i);

      /* Event indices mean nothing without the export. */
      g_array_set_size (finding->kernels, 0);
      g_array_set_size (finding->memops, 0);
      g_array_set_size (finding->api, 0);
      /* Ranges come most important first: the digest keeps a rank's
       * part bounded whatever its export's length. */
      if (finding->ranges->len > WS_DIGEST_MAX_RANGES)
        g_array_set_size (finding->ranges, WS_DIGEST_MAX_RANGES);
      g_ptr_array_add (self->findings, ws_finding_ref (finding));
    }
}

/* What a rank's summaries, series and findings are computed from: @run,
 * or @pid's events alone where other processes ran on a GPU too (the
 * ranks of one export of a whole job): no rank's summaries or findings
 * mix another's, and no finding compares its streams with another's. */
static WsRun *
own_events (const WsRun *run, guint32 pid)
{
  g_autoptr (WsRanks) processes = NULL;

  if (pid != WS_PID_ANY)
    processes = ws_ranks_new_for_processes (run);
  if (processes == NULL)
    return ws_run_ref ((WsRun *) run);
  return ws_run_select_pids (run, &pid, 1);
}

/**
 * ws_digest_rank_compute:
 * @run: a rank's export, loaded whole (its GPU metrics included, which the
 *   memory-access check reads)
 * @pid: the rank's process in it
 *
 * Its figures are ws_rank_measure()'s for @pid; where @run holds other
 * processes that ran on a GPU (one export of a whole job), its summaries,
 * series and findings are those of @pid's events alone.
 *
 * Returns: (transfer full): the rank's part of a digest, on its own clock,
 * numbered 0 until the digest numbers its ranks
 */
WsDigestRank *
ws_digest_rank_compute (const WsRun *run, guint32 pid)
{
  g_autoptr (WsDigestRank) self = ws_digest_rank_new ();
  g_autoptr (WsRun) own = NULL;
  g_autoptr (WsSteps) steps = NULL;
  const WsProvenance *prov;
  const char *name;

  g_return_val_if_fail (run != NULL, NULL);

  prov = &run->prov;
  self->figures = ws_rank_measure (run, pid, 0);
  self->rank.pid = pid;
  self->rank.file_pid = pid;
  name = ws_run_process_name (run, pid);
  self->rank.process = g_strdup (name);
  self->rank.host = g_strdup (prov->host);
  self->rank.session_start = prov->session_start_utc_ns;
  self->command = g_strdup (prov->target_command);
  self->thread_rank_name = g_strdup (prov->thread_rank_name);
  if (prov->target_env != NULL)
    {
      g_autoptr (GStrvBuilder) env = g_strv_builder_new ();

      for (guint i = 0; prov->target_env[i] != NULL; i++)
        if (ws_rank_number_env_keeps (prov->target_env[i]))
          g_strv_builder_add (env, prov->target_env[i]);
      self->env = g_strv_builder_end (env);
    }

  own = own_events (run, pid);
  add_summaries (self, own);
  steps = ws_steps_compute (own, NULL);
  add_series (self, own, pid, steps);
  add_findings (self, own, steps);
  self->origin = own->origin;
  self->end_time = own->end_time;
  self->events = (gint64) ws_run_n_events (own);
  return g_steal_pointer (&self);
}
