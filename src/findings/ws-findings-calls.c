/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-limits.h"
#include "ws-findings-bands.h"
#include "ws-findings-private.h"
#include "ws-format.h"
#include "ws-sort.h"

/* The checks on CUDA API calls: allocation in loops, small transfers and
 * over-synchronisation.  Thresholds: docs/formats.md, "Diagnostic checks";
 * definitions: docs/NOTES.md, "Findings"; severity bands: ws-findings-bands.c. */

#define ALLOC_MIN_CALLS 10
#define ALLOC_MIN_CYCLES 5
#define SMALL_COPY_BYTES 1000000 /* 1 MB, as nsys counts MB */
#define SMALL_MIN_COPIES 10
#define SMALL_MIN_RATE 10 /* copies per second */
#define SYNC_MIN_CALLS 10

/* The loop that sets a finding's severity and that its summary describes:
 * the most severe, and among those the one with the most time at stake. */
typedef struct
{
  gboolean any;
  WsSeverity severity;
  gint64 cost;
  guint32 thread;
  gint64 start;
  gint64 time; /* ns in the calls that make the problem */
  gint64 span; /* ns of the loop */
  double share;
  double rate;
} Worst;

static void
offer_worst (Worst *worst, WsSeverity severity, gint64 cost, const WsFindingsGroup *group,
             gint64 time, gint64 span, double share, double rate)
{
  if (worst->any &&
      (severity < worst->severity || (severity == worst->severity && cost <= worst->cost)))
    return;
  worst->any = TRUE;
  worst->severity = severity;
  worst->cost = cost;
  worst->thread = group->thread;
  worst->start = group->start;
  worst->time = time;
  worst->span = span;
  worst->share = share;
  worst->rate = rate;
}

static gint64
duration (const gint64 *start, const gint64 *end, gsize i)
{
  return end[i] - start[i];
}

/* The time @n items take together. */
static gint64
items_time (const WsFindingsItem *items, guint n)
{
  gint64 time = 0;

  for (guint j = 0; j < n; j++)
    time = ws_time_add (time, items[j].end - items[j].start);
  return time;
}

/* Bytes that GPU memory grew by during [@from, @to]: what an allocation
 * call allocated, from CUDA_GPU_MEMORY_USAGE_EVENTS. */
/* Copies that cross between host and device, or between devices: the
 * ones whose per-copy cost the guides warn about.  Copies inside one
 * device cost a launch, like a kernel. */
static gboolean
crosses_host (guint kind)
{
  switch (kind)
    {
      case WS_MEMOP_HTOD:
      case WS_MEMOP_DTOH:
      case WS_MEMOP_HTOA:
      case WS_MEMOP_ATOH:
      case WS_MEMOP_PTOP:
      case WS_MEMOP_UVM_HTOD:
      case WS_MEMOP_UVM_DTOH:
        return TRUE;
      default:
        return FALSE;
    }
}

static gint64
bytes_allocated (const WsRun *run, gint64 from, gint64 to)
{
  const WsMemUsage *usage = &run->mem_usage;
  gint64 bytes = 0;

  for (gsize i = ws_sort_lower_bound (usage->time, 0, usage->n, from);
       i < usage->n && usage->time[i] <= to; i++)
    if (usage->bytes[i] > 0)
      bytes += usage->bytes[i];
  return bytes;
}

static char *
context_note (WsFindingsCtx *ctx, gssize api)
{
  const WsRun *run = ctx->run;
  g_autofree char *time =
    ws_format_duration ((double) duration (run->api.start, run->api.end, api));

  /* TRANSLATORS: "The first cudaMalloc (110 ms) is not counted: …" */
  return g_strdup_printf (_ ("The first %s (%s) is not counted: it carries the creation of the "
                             "CUDA context."),
                          ws_run_index_api_name (ctx->index, api), time);
}

/* The allocation and free calls to group into loops; the call that
 * carried the creation of a CUDA context goes to @context_call instead. */
static GArray *
alloc_items (WsFindingsCtx *ctx, gssize *context_call)
{
  const WsRun *run = ctx->run;
  GArray *items = g_array_new (FALSE, FALSE, sizeof (WsFindingsItem));

  for (gsize i = 0; i < run->api.n; i++)
    {
      WsFindingsItem item = { run->api.thread[i], (guint32) i, run->api.start[i], run->api.end[i] };
      if (ws_findings_stop (ctx, i))
        break;

      if (!(ws_run_index_api_class (ctx->index, i) & (WS_API_CLASS_ALLOC | WS_API_CLASS_FREE)))
        continue;
      if (ws_run_index_context_call (ctx->index, ws_run_index_api_pid (ctx->index, i)) ==
          (gssize) i)
        {
          *context_call = (gssize) i;
          continue;
        }
      g_array_append_val (items, item);
    }
  return items;
}

/* The cycles of @group: a loop frees and allocates again, with the work it
 * serves in between; set-up allocations that stay (a caching allocator
 * warming up) or a block of allocations without GPU work are no loop.
 * [@from, @to] is where the cycles run. */
static guint
alloc_cycles (WsFindingsCtx *ctx, const WsFindingsGroup *group, const WsFindingsItem *first,
              gint64 *from, gint64 *to)
{
  guint cycles = 0;
  gboolean freed = FALSE, launched = FALSE;
  gint64 previous_alloc = -1;

  *from = *to = 0;
  for (guint j = 0; j < group->n; j++)
    {
      guint api_class = ws_run_index_api_class (ctx->index, first[j].event);

      if (j > 0 && ws_run_index_count_launches (ctx->index, group->thread, first[j - 1].end,
                                                first[j].start, FALSE) > 0)
        launched = TRUE;
      if (api_class & WS_API_CLASS_FREE)
        freed = TRUE;
      else
        {
          if (freed && launched && previous_alloc >= 0)
            {
              if (cycles++ == 0)
                *from = previous_alloc;
              *to = first[j].end;
            }
          previous_alloc = first[j].start;
          freed = launched = FALSE;
        }
    }
  return cycles;
}

/* The loops raised, added up. */
typedef struct
{
  Worst worst;
  guint loops;
  guint calls;
  guint cycles;
  gint64 cycles_span; /* ns */
  gint64 time;        /* ns in the calls */
  gint64 span;        /* ns of the loops */
  gint64 bytes;
  GArray *sizes;     /* gint64: bytes of each allocation that grew memory */
  GHashTable *names; /* API name → calls */
} AllocLoops;

/* A loop is severe by its rate alone, else graded by its share of time. */
static gboolean
judge_alloc_loop (double rate, double share, WsSeverity *severity)
{
  return ws_findings_bands_judge (WS_FINDINGS_BANDS_ALLOC_RATE, rate, severity) ||
         ws_findings_bands_judge (WS_FINDINGS_BANDS_ALLOC_SHARE, share, severity);
}

static void
add_alloc_loop (WsFindingsCtx *ctx, AllocLoops *loops, WsFinding *finding, WsNvtxCollector *nvtx,
                const WsFindingsGroup *group, const WsFindingsItem *first)
{
  ws_finding_add_range (finding, group->start, group->end);
  for (guint j = 0; j < group->n; j++)
    {
      gsize api = first[j].event;

      ws_findings_add_api (finding, (gssize) api);
      ws_findings_count_name (loops->names, ws_run_index_api_name (ctx->index, api));
      ws_nvtx_collector_add (nvtx, first[j].thread, first[j].start, first[j].end - first[j].start);
      if (ws_run_index_api_class (ctx->index, api) & WS_API_CLASS_ALLOC)
        {
          gint64 size = bytes_allocated (ctx->run, first[j].start, first[j].end);

          if (size > 0)
            {
              loops->bytes += size;
              g_array_append_val (loops->sizes, size);
            }
        }
    }
}

static void
describe_alloc (WsFindingsCtx *ctx, const AllocLoops *loops, WsFinding *finding)
{
  const WsFindingsBands *rate = &ws_findings_bands[WS_FINDINGS_BANDS_ALLOC_RATE];
  const WsFindingsBands *share = &ws_findings_bands[WS_FINDINGS_BANDS_ALLOC_SHARE];
  g_autofree char *place = ws_findings_place (ctx, loops->worst.thread, loops->worst.start);
  g_autofree char *breakdown = ws_findings_names_string (loops->names);
  g_autofree char *loops_str = ws_findings_count_string (loops->loops);
  g_autofree char *rate_str = ws_findings_count_string (loops->worst.rate);
  g_autofree char *share_str = ws_findings_percent_string (loops->worst.share);
  g_autofree char *time_str = ws_format_duration ((double) loops->worst.time);
  g_autofree char *span_str = ws_format_duration ((double) loops->worst.span);

  finding->title = g_strdup (_ ("Memory allocation inside a loop"));
  if (loops->loops == 1)
    finding->summary =
      /* TRANSLATORS: "20 cudaMalloc, 20 cudaFree inside “loop”: 18,677 calls per second, 74.2% of the loop's time (1.59 ms of 2.14 ms)." */
      g_strdup_printf (_ ("%s inside %s: %s calls per second, %s of the loop's time (%s of %s)."),
                       breakdown, place, rate_str, share_str, time_str, span_str);
  else
    finding->summary = g_strdup_printf (
      _ ("%s in %s loops; the worst, inside %s, makes %s calls per second and takes %s of its "
         "time (%s of %s)."),
      breakdown, loops_str, place, rate_str, share_str, time_str, span_str);
  finding->rule = g_strdup_printf (
    _ ("Severe above %.0f allocation calls per second (a free and an allocation per cycle) or "
       "%.0f%% of the loop's time, medium from %.0f%%, minor from %.0f%%; not raised below that. "
       "A loop: at least %d allocation calls on one thread, less than 1 s apart, that free and "
       "allocate again at least %d times with GPU work in between."),
    rate->severe.bound, share->severe.bound, share->medium.bound, share->minor.bound,
    ALLOC_MIN_CALLS, ALLOC_MIN_CYCLES);
  finding->fix = g_strdup (_ ("Allocate once before the loop and reuse the buffers, or use a "
                              "caching allocator or cudaMallocAsync with a memory pool."));
}

static void
add_alloc_evidence (WsFindingsCtx *ctx, const AllocLoops *loops, gssize context_call,
                    WsFinding *finding)
{
  const WsRun *run = ctx->run;
  double rate = 2.0 * loops->cycles * 1e9 / (double) loops->cycles_span;
  double share = 100.0 * (double) loops->time / (double) loops->span;

  ws_finding_add_evidence (finding, "calls", _ ("Allocation calls in loops"), WS_UNIT_COUNT,
                           loops->calls);
  ws_findings_add_name_evidence (finding, loops->names);
  ws_finding_add_evidence (finding, "loops", _ ("Loops"), WS_UNIT_COUNT, loops->loops);
  ws_finding_add_evidence (finding, "cycles", _ ("Free-and-allocate-again cycles"), WS_UNIT_COUNT,
                           loops->cycles);
  ws_finding_add_evidence (finding, "time_ns", _ ("Time in these calls"), WS_UNIT_NS, loops->time);
  ws_finding_add_evidence (finding, "span_ns", _ ("Duration of the loops"), WS_UNIT_NS,
                           loops->span);
  ws_finding_add_evidence (finding, "time_share_pct", _ ("Share of the loops' time"),
                           WS_UNIT_PERCENT, share);
  ws_finding_add_evidence (finding, "rate_per_s", _ ("Calls per second in the cycles"),
                           WS_UNIT_PER_SECOND, rate);
  if (loops->loops > 1)
    {
      ws_finding_add_evidence (finding, "worst_time_share_pct", _ ("Share in the worst loop"),
                               WS_UNIT_PERCENT, loops->worst.share);
      ws_finding_add_evidence (finding, "worst_rate_per_s",
                               _ ("Calls per second in the worst loop"), WS_UNIT_PER_SECOND,
                               loops->worst.rate);
    }
  if (loops->sizes->len > 0)
    {
      ws_finding_add_evidence (finding, "bytes_allocated", _ ("Bytes allocated"), WS_UNIT_BYTES,
                               loops->bytes);
      ws_finding_add_evidence (finding, "median_allocation_bytes", _ ("Median allocation"),
                               WS_UNIT_BYTES, ws_findings_median (loops->sizes));
    }
  if (context_call >= 0)
    {
      g_autofree char *note = context_note (ctx, context_call);

      ws_finding_add_note (finding, note);
      ws_finding_add_evidence (finding, "context_creation_ns", _ ("Context creation (not counted)"),
                               WS_UNIT_NS, duration (run->api.start, run->api.end, context_call));
    }
}

void
ws_findings_check_alloc (WsFindingsCtx *ctx, GPtrArray *findings)
{
  const WsRun *run = ctx->run;
  g_autoptr (GArray) items = NULL;
  g_autoptr (GArray) groups = NULL;
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GHashTable) names = ws_findings_names_new ();
  g_autoptr (WsFinding) finding = ws_finding_new (WS_FINDING_ALLOC_IN_LOOP);
  g_autoptr (WsNvtxCollector) nvtx = ws_nvtx_collector_new (ctx);
  AllocLoops loops = { .sizes = sizes, .names = names };
  gssize context_call = -1;

  if (run->api.thread == NULL)
    return;

  items = alloc_items (ctx, &context_call);
  groups = ws_findings_group (ctx, items);
  for (guint g = 0; g < groups->len; g++)
    {
      const WsFindingsGroup *group = &g_array_index (groups, WsFindingsGroup, g);
      const WsFindingsItem *first = &g_array_index (items, WsFindingsItem, group->first);
      gint64 group_time, group_span = MAX (group->end - group->start, 1), from, to;
      guint cycles;
      double rate, share;
      WsSeverity severity;

      if (group->n < ALLOC_MIN_CALLS)
        continue;
      cycles = alloc_cycles (ctx, group, first, &from, &to);
      if (cycles < ALLOC_MIN_CYCLES)
        continue;
      group_time = items_time (first, group->n);
      /* The rate of the loop itself: a free and an allocation per cycle,
       * over the cycles; set-up and tear-down bursts do not count. */
      rate = 2.0 * cycles * 1e9 / (double) MAX (to - from, 1);
      share = 100.0 * (double) group_time / (double) group_span;
      if (!judge_alloc_loop (rate, share, &severity))
        continue;

      offer_worst (&loops.worst, severity, group_time, group, group_time, group_span, share, rate);
      loops.loops++;
      loops.calls += group->n;
      loops.cycles += cycles;
      loops.cycles_span += MAX (to - from, 1);
      loops.time = ws_time_add (loops.time, group_time);
      loops.span += group_span;
      add_alloc_loop (ctx, &loops, finding, nvtx, group, first);
    }
  if (!loops.worst.any)
    return;

  finding->severity = loops.worst.severity;
  finding->cost = loops.time;
  describe_alloc (ctx, &loops, finding);
  add_alloc_evidence (ctx, &loops, context_call, finding);
  ws_nvtx_collector_finish (nvtx, finding);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}

/* The small copies across the host to group into loops; the copies of
 * SMALL_COPY_BYTES and more only add to @large_bytes and @large_time, the
 * bandwidth the small ones are compared with. */
static GArray *
transfer_items (WsFindingsCtx *ctx, gint64 *large_bytes, gint64 *large_time)
{
  const WsRun *run = ctx->run;
  GArray *items = g_array_new (FALSE, FALSE, sizeof (WsFindingsItem));

  for (gsize m = 0; m < run->memops.n; m++)
    {
      gssize api;
      WsFindingsItem item = { G_MAXUINT32, (guint32) m, run->memops.start[m], run->memops.end[m] };
      if (ws_findings_stop (ctx, m))
        break;

      if (!crosses_host (run->memops.kind[m]))
        continue;
      if (run->memops.bytes[m] >= SMALL_COPY_BYTES)
        {
          *large_bytes += (gint64) run->memops.bytes[m];
          *large_time = ws_time_add (*large_time, duration (run->memops.start, run->memops.end, m));
          continue;
        }
      api = ws_run_index_memop_launch (ctx->index, m);
      if (api >= 0 && run->api.thread != NULL)
        {
          item.thread = run->api.thread[api];
          item.start = run->api.start[api];
          item.end = run->api.end[api];
        }
      g_array_append_val (items, item);
    }
  return items;
}

/* The loops of small copies raised, added up. */
typedef struct
{
  Worst worst;
  guint loops;
  guint copies;
  gint64 call_time; /* ns in the copy calls */
  gint64 gpu_time;  /* ns of the copies on the GPU */
  gint64 span;      /* ns of the loops */
  gint64 bytes;
  gint64 large_bytes; /* of the copies of SMALL_COPY_BYTES and more */
  gint64 large_time;  /* ns */
  GArray *sizes;      /* gint64: bytes of each small copy */
  GHashTable *kinds;  /* copy kind → copies */
} TransferLoops;

static void
add_transfer_loop (WsFindingsCtx *ctx, TransferLoops *loops, WsFinding *finding,
                   WsNvtxCollector *nvtx, const WsFindingsGroup *group, const WsFindingsItem *first)
{
  const WsRun *run = ctx->run;

  ws_finding_add_range (finding, group->start, group->end);
  for (guint j = 0; j < group->n; j++)
    {
      guint32 m = first[j].event;
      gint64 size = (gint64) run->memops.bytes[m];

      g_array_append_val (finding->memops, m);
      ws_findings_add_api (finding, ws_run_index_memop_launch (ctx->index, m));
      ws_findings_count_name (loops->kinds, ws_memop_kind_label (run->memops.kind[m]));
      ws_nvtx_collector_add (nvtx, first[j].thread, first[j].start, first[j].end - first[j].start);
      loops->bytes += size;
      loops->gpu_time =
        ws_time_add (loops->gpu_time, duration (run->memops.start, run->memops.end, m));
      g_array_append_val (loops->sizes, size);
    }
}

static void
describe_transfers (WsFindingsCtx *ctx, const TransferLoops *loops, WsFinding *finding)
{
  const WsFindingsBands *bands = &ws_findings_bands[WS_FINDINGS_BANDS_TRANSFERS];
  g_autofree char *place = ws_findings_place (ctx, loops->worst.thread, loops->worst.start);
  g_autofree char *breakdown = ws_findings_names_string (loops->kinds);
  g_autofree char *count_str = ws_findings_count_string (loops->copies);
  g_autofree char *rate_str = ws_findings_count_string (loops->worst.rate);
  g_autofree char *share_str = ws_findings_percent_string (loops->worst.share);
  g_autofree char *loops_str = ws_findings_count_string (loops->loops);
  g_autofree char *median_str = NULL, *bw_str = NULL, *where = NULL;
  WsEvidence median = { NULL, NULL, WS_UNIT_BYTES, (double) ws_findings_median (loops->sizes),
                        NULL };

  finding->title = g_strdup (_ ("Many small memory transfers"));
  median_str = ws_evidence_format_value (&median);
  {
    g_autofree char *bw = ws_format_bytes (loops->bytes * 1e9 / (double) MAX (loops->gpu_time, 1));

    bw_str = g_strdup_printf ("%s/s", bw);
  }
  if (loops->loops == 1)
    /* TRANSLATORS: "inside “x”: 88,664 per second, 73.1% of that time in the copy calls" */
    where = g_strdup_printf (_ ("inside %s: %s per second, %s of that time in the copy calls"),
                             place, rate_str, share_str);
  else
    /* TRANSLATORS: "in 3 loops; in the worst, inside “x”: 88,664 per second, …" */
    where = g_strdup_printf (
      _ ("in %s loops; in the worst, inside %s: %s per second, %s of its time in the copy calls"),
      loops_str, place, rate_str, share_str);
  if (loops->large_time > 0)
    {
      g_autofree char *bw = ws_format_bytes (loops->large_bytes * 1e9 / (double) loops->large_time);
      g_autofree char *large_str = g_strdup_printf ("%s/s", bw);

      /* TRANSLATORS: "100 copies under 1 MB (50 Host-to-Device, 50 Device-to-Host; median 4,096 B) inside “x”: …; they reach 3.41 GB/s where this run's larger copies reach 12.2 GB/s." */
      finding->summary = g_strdup_printf (
        _ ("%s copies under 1 MB (%s; median %s) %s; they reach %s where this run's larger copies "
           "reach %s."),
        count_str, breakdown, median_str, where, bw_str, large_str);
    }
  else
    finding->summary =
      g_strdup_printf (_ ("%s copies under 1 MB (%s; median %s) %s; they reach %s."), count_str,
                       breakdown, median_str, where, bw_str);
  finding->rule = g_strdup_printf (
    _ ("Raised for at least %d copies under 1 MB between host and device (or peers) at more than "
       "%d per second; severe when the copy calls take more than %.0f%% of that time, medium "
       "from %.0f%%, minor below."),
    SMALL_MIN_COPIES, SMALL_MIN_RATE, bands->severe.bound, bands->medium.bound);
  finding->fix = g_strdup (_ ("Batch small copies into one larger copy or keep the data on the "
                              "GPU; use pinned memory and cudaMemcpyAsync so that copies overlap "
                              "with work."));
}

static void
add_transfer_evidence (const TransferLoops *loops, WsFinding *finding)
{
  double rate = loops->copies * 1e9 / (double) loops->span;
  double share = 100.0 * (double) loops->call_time / (double) loops->span;

  ws_finding_add_evidence (finding, "copies", _ ("Copies under 1 MB"), WS_UNIT_COUNT,
                           loops->copies);
  ws_findings_add_name_evidence (finding, loops->kinds);
  ws_finding_add_evidence (finding, "bytes", _ ("Bytes copied"), WS_UNIT_BYTES, loops->bytes);
  ws_finding_add_evidence (finding, "median_bytes", _ ("Median copy size"), WS_UNIT_BYTES,
                           ws_findings_median (loops->sizes));
  ws_finding_add_evidence (finding, "call_time_ns", _ ("Time in the copy calls"), WS_UNIT_NS,
                           loops->call_time);
  ws_finding_add_evidence (finding, "gpu_time_ns", _ ("GPU time of the copies"), WS_UNIT_NS,
                           loops->gpu_time);
  ws_finding_add_evidence (finding, "span_ns", _ ("Duration of the loops"), WS_UNIT_NS,
                           loops->span);
  ws_finding_add_evidence (finding, "time_share_pct", _ ("Share of that time in copy calls"),
                           WS_UNIT_PERCENT, share);
  ws_finding_add_evidence (finding, "rate_per_s", _ ("Copies per second"), WS_UNIT_PER_SECOND,
                           rate);
  if (loops->loops > 1)
    {
      ws_finding_add_evidence (finding, "loops", _ ("Loops"), WS_UNIT_COUNT, loops->loops);
      ws_finding_add_evidence (finding, "worst_time_share_pct", _ ("Share in the worst loop"),
                               WS_UNIT_PERCENT, loops->worst.share);
    }
  ws_finding_add_evidence (finding, "bandwidth_bytes_per_s", _ ("Achieved bandwidth"),
                           WS_UNIT_BYTES_PER_SECOND,
                           loops->bytes * 1e9 / (double) MAX (loops->gpu_time, 1));
  if (loops->large_time > 0)
    ws_finding_add_evidence (finding, "large_copy_bandwidth_bytes_per_s",
                             _ ("Bandwidth of copies of 1 MB and more"), WS_UNIT_BYTES_PER_SECOND,
                             loops->large_bytes * 1e9 / (double) loops->large_time);
}

void
ws_findings_check_transfers (WsFindingsCtx *ctx, GPtrArray *findings)
{
  const WsRun *run = ctx->run;
  g_autoptr (GArray) items = NULL;
  g_autoptr (GArray) groups = NULL;
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GHashTable) kinds = ws_findings_names_new ();
  g_autoptr (WsFinding) finding = ws_finding_new (WS_FINDING_SMALL_TRANSFERS);
  g_autoptr (WsNvtxCollector) nvtx = ws_nvtx_collector_new (ctx);
  TransferLoops loops = { .sizes = sizes, .kinds = kinds };

  if (run->memops.kind == NULL || run->memops.bytes == NULL)
    return;

  items = transfer_items (ctx, &loops.large_bytes, &loops.large_time);
  groups = ws_findings_group (ctx, items);
  for (guint g = 0; g < groups->len; g++)
    {
      const WsFindingsGroup *group = &g_array_index (groups, WsFindingsGroup, g);
      const WsFindingsItem *first = &g_array_index (items, WsFindingsItem, group->first);
      gint64 group_time, group_span = MAX (group->end - group->start, 1);
      double rate = group->n * 1e9 / (double) group_span, share;
      WsSeverity severity;

      if (group->n < SMALL_MIN_COPIES || rate <= SMALL_MIN_RATE)
        continue;
      group_time = items_time (first, group->n);
      share = 100.0 * (double) group_time / (double) group_span;
      /* Frequent copies are a finding at any share: the minor band takes
       * every share the others leave. */
      if (!ws_findings_bands_judge (WS_FINDINGS_BANDS_TRANSFERS, share, &severity))
        continue;

      offer_worst (&loops.worst, severity, group_time, group, group_time, group_span, share, rate);
      loops.loops++;
      loops.copies += group->n;
      loops.call_time = ws_time_add (loops.call_time, group_time);
      loops.span += group_span;
      add_transfer_loop (ctx, &loops, finding, nvtx, group, first);
    }
  if (!loops.worst.any)
    return;

  finding->severity = loops.worst.severity;
  finding->cost = loops.call_time;
  describe_transfers (ctx, &loops, finding);
  add_transfer_evidence (&loops, finding);
  ws_nvtx_collector_finish (nvtx, finding);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}

/* The ns of [@from, @to) that the GPU sat idle in the gaps that follow the
 * syncs of @items: each gap counted once. */
static gint64
idle_after_syncs (const WsBusy *busy, const WsFindingsItem *items, guint n, gint64 from, gint64 to)
{
  gint64 idle = 0, last_gap = G_MININT64;

  for (guint j = 0; j < n; j++)
    {
      gint64 gap_start, gap_end;

      if (!ws_busy_gap_at (busy, items[j].end, &gap_start, &gap_end) || gap_start == last_gap)
        continue;
      last_gap = gap_start;
      gap_start = MAX (gap_start, from);
      gap_end = MIN (gap_end, to);
      if (gap_end > gap_start)
        idle += gap_end - gap_start;
    }
  return idle;
}

/* The syncs to group into loops.  The last sync of each thread waits for
 * the end of the work, as does a sync after which its process launches no
 * more kernels: those are only counted in @at_end.  The call that carried
 * the creation of a CUDA context goes to @context_call. */
static GArray *
sync_items (WsFindingsCtx *ctx, gssize *context_call, guint *at_end)
{
  const WsRun *run = ctx->run;
  GArray *items = g_array_new (FALSE, FALSE, sizeof (WsFindingsItem));
  g_autofree gssize *last_sync = g_new (gssize, MAX (run->threads->len, 1));

  for (guint t = 0; t < run->threads->len; t++)
    last_sync[t] = -1;
  for (gsize i = 0; i < run->api.n; i++)
    if (ws_run_index_api_class (ctx->index, i) & WS_API_CLASS_SYNC)
      last_sync[run->api.thread[i]] = (gssize) i;

  for (gsize i = 0; i < run->api.n; i++)
    {
      guint32 pid = ws_run_index_api_pid (ctx->index, i);
      WsFindingsItem item = { run->api.thread[i], (guint32) i, run->api.start[i], run->api.end[i] };
      if (ws_findings_stop (ctx, i))
        break;

      if (!(ws_run_index_api_class (ctx->index, i) & WS_API_CLASS_SYNC))
        continue;
      if (ws_run_index_context_call (ctx->index, pid) == (gssize) i)
        {
          *context_call = (gssize) i;
          continue;
        }
      if (last_sync[run->api.thread[i]] == (gssize) i ||
          run->api.start[i] > ws_run_index_last_kernel_launch (ctx->index, pid))
        {
          (*at_end)++;
          continue;
        }
      g_array_append_val (items, item);
    }
  return items;
}

/* The loops of syncs raised, added up. */
typedef struct
{
  Worst worst;
  guint loops;
  guint syncs;
  guint syncs_in_window; /* the syncs after each loop's first */
  guint launches;        /* kernel launches in the loops */
  gint64 sync_time;      /* ns in the syncs */
  gint64 span;           /* ns from each loop's first sync's return to its last's */
  gint64 idle;           /* ns the GPU idles right after the syncs */
  guint at_end;
  gssize context_call;
  GHashTable *names; /* API name → calls */
} SyncLoops;

static void
add_sync_loop (WsFindingsCtx *ctx, SyncLoops *loops, WsFinding *finding, WsNvtxCollector *nvtx,
               const WsFindingsGroup *group, const WsFindingsItem *first)
{
  ws_finding_add_range (finding, group->start, group->end);
  for (guint j = 0; j < group->n; j++)
    {
      ws_findings_add_api (finding, first[j].event);
      ws_findings_count_name (loops->names, ws_run_index_api_name (ctx->index, first[j].event));
      ws_nvtx_collector_add (nvtx, first[j].thread, first[j].start, first[j].end - first[j].start);
    }
}

static void
describe_sync (WsFindingsCtx *ctx, const SyncLoops *loops, WsFinding *finding)
{
  const WsFindingsBands *bands = &ws_findings_bands[WS_FINDINGS_BANDS_SYNC];
  g_autofree char *place = ws_findings_place (ctx, loops->worst.thread, loops->worst.start);
  g_autofree char *breakdown = ws_findings_names_string (loops->names);
  g_autofree char *per_launch =
    ws_format_fixed_string ((double) loops->syncs_in_window / MAX (loops->launches, 1), 2);
  g_autofree char *share_str = ws_findings_percent_string (loops->worst.share);
  g_autofree char *idle_str = ws_format_duration ((double) loops->worst.time);
  g_autofree char *span_str = ws_format_duration ((double) loops->worst.span);
  g_autofree char *loops_str = ws_findings_count_string (loops->loops);

  finding->title = g_strdup (_ ("Too many synchronisations"));
  if (loops->loops == 1)
    /* TRANSLATORS: "30 cudaDeviceSynchronize inside “x”, 1.00 per kernel launch: the GPU sits idle 90.0% of that time right after them (260 µs of 289 µs)." */
    finding->summary =
      g_strdup_printf (_ ("%s inside %s, %s per kernel launch: the GPU sits idle "
                          "%s of that time right after them (%s of %s)."),
                       breakdown, place, per_launch, share_str, idle_str, span_str);
  else
    finding->summary = g_strdup_printf (
      _ ("%s in %s loops, %s per kernel launch; in the worst, inside %s, the GPU sits idle %s of "
         "the time right after them (%s of %s)."),
      breakdown, loops_str, per_launch, place, share_str, idle_str, span_str);
  finding->rule = g_strdup_printf (
    _ ("Share of the loop's time that the GPU sits idle right after the synchronisations: above "
       "%.0f%% severe, %.0f–%.0f%% medium, %.0f–%.0f%% minor, measured from the first "
       "synchronisation's return to the last's; needs at least %d synchronisations on one "
       "thread, less than 1 s apart."),
    bands->severe.bound, bands->medium.bound, bands->severe.bound, bands->minor.bound,
    bands->medium.bound, SYNC_MIN_CALLS);
  finding->fix =
    g_strdup (_ ("Synchronise only where the host needs the results: work on one stream runs in "
                 "order without it; between streams use events (cudaStreamWaitEvent)."));
}

static void
add_sync_evidence (WsFindingsCtx *ctx, const SyncLoops *loops, WsFinding *finding)
{
  double share = 100.0 * (double) loops->idle / (double) loops->span;

  if (loops->at_end > 0)
    {
      g_autofree char *note = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE,
                     "%u synchronisation at the end of the program (after the last kernel "
                     "launch, or the last of its thread) is not counted.",
                     "%u synchronisations at the end of the program (after the last kernel "
                     "launch, or the last of their thread) are not counted.",
                     loops->at_end),
        loops->at_end);

      ws_finding_add_note (finding, note);
    }
  if (loops->context_call >= 0)
    {
      g_autofree char *note = context_note (ctx, loops->context_call);

      ws_finding_add_note (finding, note);
    }

  ws_finding_add_evidence (finding, "syncs", _ ("Synchronisations in loops"), WS_UNIT_COUNT,
                           loops->syncs);
  ws_findings_add_name_evidence (finding, loops->names);
  ws_finding_add_evidence (finding, "kernel_launches", _ ("Kernel launches in that time"),
                           WS_UNIT_COUNT, loops->launches);
  ws_finding_add_evidence (finding, "syncs_per_launch", _ ("Synchronisations per launch"),
                           WS_UNIT_RATIO,
                           (double) loops->syncs_in_window / MAX (loops->launches, 1));
  ws_finding_add_evidence (finding, "sync_time_ns", _ ("Time in the synchronisations"), WS_UNIT_NS,
                           loops->sync_time);
  ws_finding_add_evidence (finding, "span_ns", _ ("From the first sync's return to the last's"),
                           WS_UNIT_NS, loops->span);
  ws_finding_add_evidence (finding, "gpu_idle_after_ns", _ ("GPU idle right after"), WS_UNIT_NS,
                           loops->idle);
  ws_finding_add_evidence (finding, "gpu_idle_after_pct", _ ("Share of the time the GPU idles"),
                           WS_UNIT_PERCENT, share);
  if (loops->loops > 1)
    {
      ws_finding_add_evidence (finding, "loops", _ ("Loops"), WS_UNIT_COUNT, loops->loops);
      ws_finding_add_evidence (finding, "worst_gpu_idle_after_pct",
                               _ ("Share the GPU idles in the worst loop"), WS_UNIT_PERCENT,
                               loops->worst.share);
    }
  ws_finding_add_evidence (finding, "excluded_at_end",
                           _ ("At the end of the program (not counted)"), WS_UNIT_COUNT,
                           loops->at_end);
}

void
ws_findings_check_sync (WsFindingsCtx *ctx, GPtrArray *findings)
{
  const WsRun *run = ctx->run;
  g_autoptr (GArray) items = NULL;
  g_autoptr (GArray) groups = NULL;
  g_autoptr (GHashTable) names = ws_findings_names_new ();
  g_autoptr (WsFinding) finding = ws_finding_new (WS_FINDING_OVER_SYNC);
  g_autoptr (WsNvtxCollector) nvtx = ws_nvtx_collector_new (ctx);
  SyncLoops loops = { .context_call = -1, .names = names };

  if (run->api.thread == NULL)
    return;

  items = sync_items (ctx, &loops.context_call, &loops.at_end);
  groups = ws_findings_group (ctx, items);
  for (guint g = 0; g < groups->len; g++)
    {
      const WsFindingsGroup *group = &g_array_index (groups, WsFindingsGroup, g);
      const WsFindingsItem *first = &g_array_index (items, WsFindingsItem, group->first);
      gint64 group_idle, from, to;
      const WsBusy *busy;
      WsSeverity severity;
      double share;

      if (group->n < SYNC_MIN_CALLS)
        continue;
      /* From the first sync's return to the last's: the first may wait
       * for work queued before the loop, which is no idle time. */
      from = first[0].end;
      to = MAX (group->end, from + 1);
      busy =
        ws_run_index_process_busy (ctx->index, ws_run_index_api_pid (ctx->index, first->event));
      group_idle = idle_after_syncs (busy, first, group->n, from, to);
      share = 100.0 * (double) group_idle / (double) (to - from);
      if (!ws_findings_bands_judge (WS_FINDINGS_BANDS_SYNC, share, &severity))
        continue;

      offer_worst (&loops.worst, severity, group_idle, group, group_idle, to - from, share, 0);
      loops.loops++;
      loops.syncs += group->n;
      loops.sync_time = ws_time_add (loops.sync_time, items_time (first, group->n));
      loops.span += to - from;
      loops.idle += group_idle;
      loops.launches += ws_run_index_count_launches (ctx->index, group->thread, from, to, TRUE);
      loops.syncs_in_window += group->n - 1;
      add_sync_loop (ctx, &loops, finding, nvtx, group, first);
    }
  if (!loops.worst.any)
    return;

  finding->cost = loops.idle;
  finding->severity = loops.worst.severity;
  describe_sync (ctx, &loops, finding);
  add_sync_evidence (ctx, &loops, finding);
  ws_nvtx_collector_finish (nvtx, finding);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}
