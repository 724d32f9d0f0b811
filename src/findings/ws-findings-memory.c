/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-limits.h"
#include "ws-findings-bands.h"
#include "ws-findings-private.h"
#include "ws-format.h"
#include "ws-hints.h"
#include "ws-memory-workload.h"
#include "ws-ncu-kernels.h"
#include "ws-sort.h"

/* The memory-access check (docs/why-slow.md, "The memory-access
 * finding"): kernels whose accesses are strided or scattered, from Nsight
 * Compute's coalescing figures where a launch of the kernel was profiled,
 * and otherwise from the GPU-metrics samples taken while it ran. */

/* GPU metrics: SMs occupied and seldom issuing while DRAM stays below
 * what a streaming kernel reaches (75–80% on the H100 probe's copy). */
#define MEMACC_SMS_ACTIVE 80.0
#define MEMACC_SM_ISSUE 15.0
#define MEMACC_DRAM 75.0
#define MEMACC_MIN_SAMPLES 2

enum
{
  SMS_ACTIVE,
  SM_ISSUE,
  DRAM_READ,
  DRAM_WRITE,
  N_SERIES,
};

static const char *const series_names[N_SERIES] = {
  "SMs Active [Throughput %]",
  "SM Issue [Throughput %]",
  "DRAM Read Bandwidth [Throughput %]",
  "DRAM Write Bandwidth [Throughput %]",
};

/* One kernel name: its time, and what says its access is scattered. */
typedef struct
{
  guint32 name;
  gint64 time;       /* ns over all its instances */
  gint64 flagged;    /* ns of the instances judged scattered */
  gint64 longest;    /* ns: its longest flagged instance */
  gssize longest_at; /* that instance */
  int launch;        /* the ncu launch that judged it, or -1 */
  double sum[N_SERIES];
  guint samples[N_SERIES];
} KernelAccess;

/* The samples of each series, when the run has one metrics source. */
static gboolean
find_series (const WsRun *run, const WsGpuMetric *series[N_SERIES])
{
  gint64 source = 0;
  gboolean any = FALSE;

  memset (series, 0, N_SERIES * sizeof series[0]);
  for (guint m = 0; m < run->metrics->len; m++)
    {
      const WsGpuMetric *metric = &g_array_index (run->metrics, WsGpuMetric, m);
      const char *name = ws_run_string (run, metric->name);

      if (metric->n == 0)
        continue;
      /* Several GPUs' samples cannot be told apart by kernel here. */
      if (any && metric->type_id != source)
        return FALSE;
      source = metric->type_id;
      any = TRUE;
      for (int s = 0; s < N_SERIES; s++)
        if (g_strcmp0 (name, series_names[s]) == 0)
          series[s] = metric;
    }
  for (int s = 0; s < N_SERIES; s++)
    if (series[s] == NULL)
      return FALSE;
  return TRUE;
}

static void
add_samples (const WsRun *run, const WsGpuMetric *series[N_SERIES], KernelAccess *a, gint64 start,
             gint64 end)
{
  for (int s = 0; s < N_SERIES; s++)
    {
      const gint64 *t = run->metric_samples.time + series[s]->first;
      const float *v = run->metric_samples.value + series[s]->first;
      gsize i = ws_sort_lower_bound (t, 0, series[s]->n, start);

      for (; i < series[s]->n && t[i] <= end; i++)
        {
          a->sum[s] += v[i];
          a->samples[s]++;
        }
    }
}

static double
mean (const KernelAccess *a, int s)
{
  return a->samples[s] > 0 ? a->sum[s] / a->samples[s] : NAN;
}

static gboolean
samples_say_scattered (const KernelAccess *a)
{
  for (int s = 0; s < N_SERIES; s++)
    if (a->samples[s] < MEMACC_MIN_SAMPLES)
      return FALSE;
  return mean (a, SMS_ACTIVE) >= MEMACC_SMS_ACTIVE && mean (a, SM_ISSUE) <= MEMACC_SM_ISSUE &&
         mean (a, DRAM_READ) + mean (a, DRAM_WRITE) < MEMACC_DRAM;
}

static gboolean
ncu_says_scattered (const WsMemoryWorkload *m)
{
  double excessive = ws_memory_excessive_pct (m);

  if (!isnan (excessive))
    return excessive >= WS_HINT_EXCESSIVE_PCT;
  return ws_memory_load_sectors_per_request (m) > WS_HINT_SECTORS_PER_REQUEST ||
         ws_memory_store_sectors_per_request (m) > WS_HINT_SECTORS_PER_REQUEST;
}

static int
compare_flagged (gconstpointer a, gconstpointer b)
{
  const KernelAccess *x = *(KernelAccess *const *) a, *y = *(KernelAccess *const *) b;

  return x->flagged != y->flagged ? (x->flagged > y->flagged ? -1 : 1) : 0;
}

static void
ncu_evidence (WsFinding *finding, const WsMemoryWorkload *m)
{
  double spr = ws_memory_load_sectors_per_request (m);
  double sts = ws_memory_store_sectors_per_request (m);
  double excessive = ws_memory_excessive_pct (m);

  if (!isnan (spr))
    ws_finding_add_evidence (finding, "load_sectors_per_request", _ ("Sectors per load request"),
                             WS_UNIT_RATIO, spr);
  if (!isnan (sts))
    ws_finding_add_evidence (finding, "store_sectors_per_request", _ ("Sectors per store request"),
                             WS_UNIT_RATIO, sts);
  if (!isnan (excessive))
    ws_finding_add_evidence (finding, "excessive_sectors_pct", _ ("Global sectors not needed"),
                             WS_UNIT_PERCENT, excessive);
  if (ws_ncu_value_collected (m->l1_hit))
    ws_finding_add_evidence (finding, "l1_hit_pct", _ ("L1 hit rate"), WS_UNIT_PERCENT,
                             m->l1_hit.value);
  if (ws_ncu_value_collected (m->l2_hit))
    ws_finding_add_evidence (finding, "l2_hit_pct", _ ("L2 hit rate"), WS_UNIT_PERCENT,
                             m->l2_hit.value);
  if (ws_ncu_value_collected (m->dram_throughput))
    ws_finding_add_evidence (finding, "dram_pct", _ ("DRAM throughput"), WS_UNIT_PERCENT,
                             m->dram_throughput.value);
}

static char *
ncu_summary (const char *name, const char *share, const char *time, const WsMemoryWorkload *m)
{
  double spr = ws_memory_load_sectors_per_request (m);
  double excessive = ws_memory_excessive_pct (m);
  g_autofree char *s = isnan (spr) ? g_strdup ("–") : ws_format_fixed_string (spr, 1);
  g_autofree char *l1 = ws_ncu_value_collected (m->l1_hit)
                          ? ws_findings_percent_string (m->l1_hit.value)
                          : g_strdup ("–");
  g_autofree char *l2 = ws_ncu_value_collected (m->l2_hit)
                          ? ws_findings_percent_string (m->l2_hit.value)
                          : g_strdup ("–");

  if (!isnan (excessive))
    {
      g_autofree char *e = ws_findings_percent_string (excessive);

      /* TRANSLATORS: "strided_read takes 20.1% of the GPU time (1.23 ms) with scattered global access: loads take 32.0 sectors per request and 77.8% of the sectors it moves are not needed; L1 hit 0.0%, L2 hit 8.7% (Nsight Compute)." */
      return g_strdup_printf (_ ("%s takes %s of the GPU time (%s) with scattered global access: "
                                 "loads take %s sectors per request and %s of the sectors it "
                                 "moves are not needed; L1 hit %s, L2 hit %s (Nsight Compute)."),
                              name, share, time, s, e, l1, l2);
    }
  return g_strdup_printf (_ ("%s takes %s of the GPU time (%s) with scattered global access: "
                             "loads take %s sectors per request; L1 hit %s, L2 hit %s (Nsight "
                             "Compute)."),
                          name, share, time, s, l1, l2);
}

static char *
samples_summary (const char *name, const char *share, const char *time, const KernelAccess *a)
{
  g_autofree char *active = ws_findings_percent_string (mean (a, SMS_ACTIVE));
  g_autofree char *issue = ws_findings_percent_string (mean (a, SM_ISSUE));
  g_autofree char *dram = ws_findings_percent_string (mean (a, DRAM_READ) + mean (a, DRAM_WRITE));

  /* TRANSLATORS: "strided_read takes 20.1% of the GPU time (1.23 ms) with its SMs 99.1% active but issuing 10.8% of the time while DRAM moves 73.7% of its peak: accesses wait without filling the memory bus, as strided or scattered access does (GPU metrics)." */
  return g_strdup_printf (_ ("%s takes %s of the GPU time (%s) with its SMs %s active but issuing "
                             "%s of the time while DRAM moves %s of its peak: accesses wait "
                             "without filling the memory bus, as strided or scattered access "
                             "does (GPU metrics)."),
                          name, share, time, active, issue, dram);
}

/* What the memory-access check gathers over the kernels. */
typedef struct
{
  const WsGpuMetric *series[N_SERIES];
  gboolean have_series;
  gint32 *launches;    /* per kernel: its profiled ncu launch, or -1 */
  GHashTable *by_name; /* name id + 1 → KernelAccess * */
  GHashTable *judged;  /* ncu launch + 1 → WsMemoryWorkload * */
  GPtrArray *flagged;  /* KernelAccess *, most flagged time first */
  gint64 total;        /* ns of all kernels */
  gint64 flagged_time; /* ns of the flagged instances */
} MemoryAccess;

static KernelAccess *
kernel_access (MemoryAccess *m, guint32 name)
{
  KernelAccess *a = g_hash_table_lookup (m->by_name, GUINT_TO_POINTER (name + 1));

  if (a == NULL)
    {
      a = g_new0 (KernelAccess, 1);
      a->name = name;
      a->launch = -1;
      a->longest_at = -1;
      g_hash_table_insert (m->by_name, GUINT_TO_POINTER (name + 1), a);
    }
  return a;
}

static void
flag_instance (KernelAccess *a, gsize k, gint64 d)
{
  a->flagged = ws_time_add (a->flagged, d);
  if (d > a->longest)
    {
      a->longest = d;
      a->longest_at = (gssize) k;
    }
}

/* The workload of ncu launch @launch, computed once. */
static WsMemoryWorkload *
judged_workload (const WsRun *run, MemoryAccess *m, gint32 launch)
{
  WsMemoryWorkload *w = g_hash_table_lookup (m->judged, GINT_TO_POINTER ((gintptr) launch + 1));

  if (w == NULL)
    {
      w = g_new0 (WsMemoryWorkload, 1);
      ws_memory_workload_compute (run->ncu, (guint) launch, w);
      g_hash_table_insert (m->judged, GINT_TO_POINTER ((gintptr) launch + 1), w);
    }
  return w;
}

/* Per kernel name: its time, the profiled launch that judges it, or the
 * samples taken while it ran.  FALSE when cancelled. */
static gboolean
gather_kernels (WsFindingsCtx *ctx, MemoryAccess *m)
{
  const WsRun *run = ctx->run;

  for (gsize k = 0; k < run->kernels.n; k++)
    {
      KernelAccess *a;
      gint64 d = run->kernels.end[k] - run->kernels.start[k];

      if (ws_findings_stop (ctx, k))
        return FALSE;
      a = kernel_access (m, run->kernels.demangled[k]);
      m->total = ws_time_add (m->total, d);
      a->time = ws_time_add (a->time, d);
      if (m->launches[k] >= 0)
        {
          if (ncu_says_scattered (judged_workload (run, m, m->launches[k])))
            {
              flag_instance (a, k, d);
              a->launch = m->launches[k];
            }
        }
      else if (m->have_series)
        add_samples (run, m->series, a, run->kernels.start[k], run->kernels.end[k]);
    }
  return TRUE;
}

/* Kernels without a profiled launch are judged by their samples, all
 * instances together; the kernels with flagged time go to m->flagged. */
static void
judge_kernels (WsFindingsCtx *ctx, MemoryAccess *m)
{
  const WsRun *run = ctx->run;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, m->by_name);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      KernelAccess *a = value;

      if (a->launch < 0 && m->have_series && samples_say_scattered (a))
        for (gsize k = 0; k < run->kernels.n && !ws_findings_stop (ctx, k); k++)
          if (run->kernels.demangled[k] == a->name && m->launches[k] < 0)
            flag_instance (a, k, run->kernels.end[k] - run->kernels.start[k]);
      if (a->flagged > 0)
        {
          g_ptr_array_add (m->flagged, a);
          m->flagged_time = ws_time_add (m->flagged_time, a->flagged);
        }
    }
  g_ptr_array_sort (m->flagged, compare_flagged);
}

/* The summary and evidence of the worst kernel, by what judged it. */
static void
describe_top_kernel (const WsRun *run, const MemoryAccess *m, WsFinding *finding)
{
  const KernelAccess *top = g_ptr_array_index (m->flagged, 0);
  g_autofree char *share_str =
    ws_findings_percent_string (100.0 * (double) top->flagged / (double) m->total);
  g_autofree char *time_str = ws_format_duration ((double) top->flagged);
  g_autofree char *name = g_strdup_printf ("“%s”", ws_run_string (run, top->name));

  if (top->launch >= 0)
    {
      WsMemoryWorkload *w =
        g_hash_table_lookup (m->judged, GINT_TO_POINTER ((gintptr) top->launch + 1));

      finding->summary = ncu_summary (name, share_str, time_str, w);
      ncu_evidence (finding, w);
      ws_finding_add_evidence_text (finding, "source", _ ("Judged by"), "ncu");
    }
  else
    {
      finding->summary = samples_summary (name, share_str, time_str, top);
      ws_finding_add_evidence (finding, "sms_active_pct", _ ("SMs active"), WS_UNIT_PERCENT,
                               mean (top, SMS_ACTIVE));
      ws_finding_add_evidence (finding, "sm_issue_pct", _ ("SM issue"), WS_UNIT_PERCENT,
                               mean (top, SM_ISSUE));
      ws_finding_add_evidence (finding, "dram_bandwidth_pct", _ ("DRAM bandwidth"), WS_UNIT_PERCENT,
                               mean (top, DRAM_READ) + mean (top, DRAM_WRITE));
      ws_finding_add_evidence_text (finding, "source", _ ("Judged by"), "gpu-metrics");
    }
}

static void
describe_memory_access (const WsRun *run, const MemoryAccess *m, double share, WsFinding *finding)
{
  const WsFindingsBands *bands = &ws_findings_bands[WS_FINDINGS_BANDS_MEMORY_ACCESS];
  const KernelAccess *top = g_ptr_array_index (m->flagged, 0);

  finding->title = g_strdup (_ ("Strided or scattered memory access"));
  describe_top_kernel (run, m, finding);
  finding->rule = g_strdup_printf (
    _ ("A kernel's access is scattered when Nsight Compute finds %.0f%% or more of its global "
       "sectors not needed (or, without that figure, more than %d sectors per request); without "
       "a profiled launch, when GPU metrics show SMs ≥ %.0f%% active, SM issue ≤ %.0f%% and DRAM "
       "< %.0f%% while it runs. Severity by those kernels' share of the GPU time: %.0f%% and more "
       "severe, %.0f–%.0f%% medium, %.0f–%.0f%% minor; below %.0f%% not raised."),
    WS_HINT_EXCESSIVE_PCT, WS_HINT_SECTORS_PER_REQUEST, MEMACC_SMS_ACTIVE, MEMACC_SM_ISSUE,
    MEMACC_DRAM, bands->severe.bound, bands->medium.bound, bands->severe.bound, bands->minor.bound,
    bands->medium.bound, bands->minor.bound);
  finding->fix = g_strdup (_ ("Let neighbouring threads read neighbouring addresses: change the "
                              "data layout (structure of arrays), transpose through shared "
                              "memory, or gather once into a contiguous buffer."));
  ws_finding_add_evidence (finding, "kernels", _ ("Kernels"), WS_UNIT_COUNT, m->flagged->len);
  ws_finding_add_evidence (finding, "gpu_time_ns", _ ("Their GPU time"), WS_UNIT_NS,
                           m->flagged_time);
  ws_finding_add_evidence (finding, "gpu_time_pct", _ ("Share of the GPU time"), WS_UNIT_PERCENT,
                           share);
  ws_finding_add_evidence_text (finding, "kernel", _ ("Worst kernel"),
                                ws_run_string (run, top->name));
  if (m->flagged->len > 1)
    {
      g_autofree char *all_str = ws_findings_percent_string (share);
      g_autofree char *note = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "%u kernel shows it: %s of the GPU time.",
                     "%u kernels show it: %s of the GPU time together.", m->flagged->len),
        m->flagged->len, all_str);

      ws_finding_add_note (finding, note);
    }
}

/* The flagged instances of the flagged kernels, their launch calls and
 * the NVTX ranges around them. */
static void
add_flagged_events (WsFindingsCtx *ctx, const MemoryAccess *m, WsFinding *finding)
{
  const WsRun *run = ctx->run;
  const gint32 *launches = m->launches;
  g_autoptr (WsNvtxCollector) nvtx = ws_nvtx_collector_new (ctx);
  const KernelAccess *top = g_ptr_array_index (m->flagged, 0);

  for (gsize k = 0; k < run->kernels.n && !ws_findings_stop (ctx, k); k++)
    for (guint f = 0; f < m->flagged->len; f++)
      {
        const KernelAccess *a = g_ptr_array_index (m->flagged, f);
        gssize api;

        if (run->kernels.demangled[k] != a->name ||
            (a->launch >= 0 ? launches[k] < 0 : launches[k] >= 0 || !samples_say_scattered (a)))
          continue;
        if (a->launch >= 0)
          {
            WsMemoryWorkload *w =
              g_hash_table_lookup (m->judged, GINT_TO_POINTER (launches[k] + 1));

            if (!ncu_says_scattered (w))
              continue;
          }
        api = ws_run_index_kernel_launch (ctx->index, k);
        {
          guint32 index = (guint32) k;

          g_array_append_val (finding->kernels, index);
        }
        ws_findings_add_api (finding, api);
        if (api >= 0 && run->api.thread != NULL)
          ws_nvtx_collector_add (nvtx, run->api.thread[api], run->api.start[api],
                                 run->kernels.end[k] - run->kernels.start[k]);
      }
  if (top->longest_at >= 0)
    ws_finding_add_range (finding, run->kernels.start[top->longest_at],
                          run->kernels.end[top->longest_at]);
  ws_nvtx_collector_finish (nvtx, finding);
}

void
ws_findings_check_memory_access (WsFindingsCtx *ctx, GPtrArray *findings)
{
  const WsRun *run = ctx->run;
  g_autofree gint32 *launches = NULL;
  g_autoptr (GHashTable) by_name = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr (GHashTable) judged = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr (GPtrArray) flagged = g_ptr_array_new ();
  g_autoptr (WsFinding) finding = NULL;
  MemoryAccess m = { .by_name = by_name, .judged = judged, .flagged = flagged };
  WsSeverity severity;
  double share;

  m.have_series = find_series (run, m.series);
  if (run->kernels.n == 0 || run->kernels.demangled == NULL || (run->ncu == NULL && !m.have_series))
    return;
  launches = ws_ncu_kernel_launches (run);
  m.launches = launches;
  if (!gather_kernels (ctx, &m))
    return;
  judge_kernels (ctx, &m);
  if (flagged->len == 0 || m.total <= 0)
    return;
  share = 100.0 * (double) m.flagged_time / (double) m.total;
  if (!ws_findings_bands_judge (WS_FINDINGS_BANDS_MEMORY_ACCESS, share, &severity))
    return;

  finding = ws_finding_new (WS_FINDING_MEMORY_ACCESS);
  finding->severity = severity;
  finding->cost = m.flagged_time;
  describe_memory_access (run, &m, share, finding);
  add_flagged_events (ctx, &m, finding);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}
