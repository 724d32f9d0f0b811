/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-findings-bands.h"
#include "ws-findings-private.h"
#include "ws-format.h"
#include "ws-kernel-name.h"
#include "ws-sort.h"

/* The checks on GPU activity: launch overhead, load imbalance and idle
 * time.  Definitions: docs/NOTES.md, "Findings"; severity bands:
 * ws-findings-bands.c. */

#define TINY_KERNEL_NS 5000
#define LAUNCH_MIN_TINY 20
/* A loop paced by its launches: short kernels are at least half of its
 * kernels, and the GPU is busy less than this share of its time. */
#define LAUNCH_MIN_TINY_PCT 50.0
#define LAUNCH_MAX_BUSY_PCT 80.0
#define IMBALANCE_MIN_WAIT_NS 10000
#define TOP_GAPS 5

/* How far back to look for the event that ends where a gap starts. */
#define GAP_SEARCH_BACK 256

static gint32
stream_device (const WsRun *run, guint32 stream)
{
  return g_array_index (run->streams, WsStream, stream).device_id;
}

/* The kernels shorter than TINY_KERNEL_NS or than their launch call, to
 * group into loops at the calls that launched them.  A kernel of a CUDA
 * graph replay paid no launch of its own (the replay's one cudaGraphLaunch
 * launched them all, docs/cuda-graphs.md): it is left out, and counted in
 * @in_graphs. */
static GArray *
launch_items (WsFindingsCtx *ctx, guint *in_graphs)
{
  const WsRun *run = ctx->run;
  GArray *items = g_array_new (FALSE, FALSE, sizeof (WsFindingsItem));

  *in_graphs = 0;
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gint64 dur = run->kernels.end[k] - run->kernels.start[k];
      if (ws_findings_stop (ctx, k))
        break;
      gssize api = ws_run_index_kernel_launch (ctx->index, k);
      WsFindingsItem item = { G_MAXUINT32, (guint32) k, run->kernels.start[k],
                              run->kernels.end[k] };

      if (ws_run_kernel_in_graph (run, k))
        {
          (*in_graphs)++;
          continue;
        }
      if (api >= 0 && run->api.thread != NULL)
        {
          item.thread = run->api.thread[api];
          item.start = run->api.start[api];
          item.end = run->api.end[api];
        }
      if (dur < TINY_KERNEL_NS || (api >= 0 && dur < item.end - item.start))
        g_array_append_val (items, item);
    }
  return items;
}

/* Without launch calls: the kernels that started in [@from, @to), a
 * graph replay counted once, as its one launch. */
static guint
launched_between (const WsRun *run, gint64 from, gint64 to)
{
  gsize lo = ws_sort_lower_bound (run->kernels.start, 0, run->kernels.n, from);
  gsize hi = ws_sort_lower_bound (run->kernels.start, lo, run->kernels.n, to);
  guint n = 0;

  for (gsize k = lo; k < hi; k++)
    n += !ws_run_kernel_in_graph (run, k);
  return n + (guint) (ws_sort_lower_bound (run->replays.start, 0, run->replays.n, to) -
                      ws_sort_lower_bound (run->replays.start, 0, run->replays.n, from));
}

/* The loops of short kernels raised, added up. */
typedef struct
{
  guint tiny;    /* short kernels */
  guint kernels; /* all kernels launched in the loops */
  gint64 window; /* ns of the loops */
  gint64 busy;   /* ns the GPU is busy in them */
  gint64 tiny_time;
  GArray *durations;      /* gint64: ns of each short kernel */
  GArray *call_durations; /* gint64: ns of their launch calls */
  char *place;            /* the NVTX ranges that hold most of them */
  guint in_graphs;        /* kernels of graph replays, left out */
} LaunchLoops;

/* Whether the loop @group is paced by its launches: its short kernels are
 * most of the kernels it launches and the GPU is seldom busy.  Sets the
 * loop's time window, kernels and busy time. */
static gboolean
judge_launch_loop (WsFindingsCtx *ctx, const WsFindingsGroup *group, const WsFindingsItem *first,
                   gint64 *from, gint64 *to, guint *in_window, gint64 *busy_ns)
{
  const WsRun *run = ctx->run;
  gint64 window;
  double tiny_share, group_busy;

  *from = group->start;
  *to = group->end;
  for (guint j = 0; j < group->n; j++)
    *to = MAX (*to, run->kernels.end[first[j].event]);
  window = MAX (*to - *from, 1);
  if (group->thread != G_MAXUINT32)
    *in_window = ws_run_index_count_launches (ctx->index, group->thread, *from, *to, TRUE);
  else
    *in_window = launched_between (run, *from, *to);
  *in_window = MAX (*in_window, group->n);
  tiny_share = 100.0 * group->n / *in_window;
  *busy_ns = ws_busy_between (
    ws_run_index_process_busy (
      ctx->index, g_array_index (run->streams, WsStream, run->kernels.stream[first->event]).pid),
    *from, *to);
  group_busy = 100.0 * (double) *busy_ns / (double) window;
  return tiny_share >= LAUNCH_MIN_TINY_PCT && group_busy < LAUNCH_MAX_BUSY_PCT;
}

static void
add_launch_loop (WsFindingsCtx *ctx, LaunchLoops *loops, WsFinding *finding, WsNvtxCollector *nvtx,
                 const WsFindingsGroup *group, const WsFindingsItem *first)
{
  const WsRun *run = ctx->run;

  for (guint j = 0; j < group->n; j++)
    {
      guint32 k = first[j].event;
      gint64 dur = run->kernels.end[k] - run->kernels.start[k];
      gssize api = ws_run_index_kernel_launch (ctx->index, k);

      g_array_append_val (finding->kernels, k);
      ws_findings_add_api (finding, api);
      g_array_append_val (loops->durations, dur);
      loops->tiny_time = ws_time_add (loops->tiny_time, dur);
      if (api >= 0)
        {
          gint64 call = run->api.end[api] - run->api.start[api];

          g_array_append_val (loops->call_durations, call);
        }
      ws_nvtx_collector_add (nvtx, first[j].thread, first[j].start, dur);
    }
}

static void
describe_launch (const LaunchLoops *loops, double busy_pct, WsFinding *finding)
{
  const WsFindingsBands *bands = &ws_findings_bands[WS_FINDINGS_BANDS_LAUNCH];
  g_autofree char *count_str = ws_findings_count_string (loops->tiny);
  g_autofree char *median_str = ws_format_duration ((double) ws_findings_median (loops->durations));
  g_autofree char *share_str = ws_findings_percent_string (100.0 * loops->tiny / loops->kernels);
  g_autofree char *busy_str = ws_findings_percent_string (busy_pct);
  g_autofree char *rate_str = ws_findings_count_string (loops->tiny * 1e9 / (double) loops->window);

  finding->title = g_strdup (_ ("Kernels too short for their launch cost"));
  if (loops->call_durations->len > 0)
    {
      g_autofree char *call_str =
        ws_format_duration ((double) ws_findings_median (loops->call_durations));

      /* TRANSLATORS: "320 kernels shorter than 5 µs or their launch call (median 1.02 µs, launch call median 3.10 µs), most of them inside “iter N” › “layer.mlp”; they are 95.2% of the kernels of their loops, where the GPU is busy only 12.0% of the time, at 60,000 kernels per second." */
      finding->summary = g_strdup_printf (
        _ ("%s kernels shorter than 5 µs or their launch call (median %s, launch call median %s), "
           "most of them inside %s; they are %s of the kernels of their loops, where the GPU is "
           "busy only %s of the time, at %s kernels per second."),
        count_str, median_str, call_str, loops->place, share_str, busy_str, rate_str);
    }
  else
    finding->summary = g_strdup_printf (
      _ ("%s kernels shorter than 5 µs (median %s), most of them inside %s; they are %s of the "
         "kernels of their loops, where the GPU is busy only %s of the time, at %s kernels per "
         "second."),
      count_str, median_str, loops->place, share_str, busy_str, rate_str);
  finding->rule = g_strdup_printf (
    _ ("Raised for at least %d kernels shorter than 5 µs or than their launch call, in a loop "
       "where they are at least half of the kernels and the GPU is busy less than %.0f%% of the "
       "time; over those loops, the GPU busy below %.0f%% is severe, below %.0f%% medium, else "
       "minor."),
    LAUNCH_MIN_TINY, LAUNCH_MAX_BUSY_PCT, bands->severe.bound, bands->medium.bound);
  /* The kernels of replays are not in the finding: where the run has
   * some, graphs are not news to it, and the advice is to put these
   * kernels into them too. */
  if (loops->in_graphs > 0)
    finding->fix = g_strdup (_ ("Give each launch more work (fuse kernels, larger batches), or "
                                "capture these kernels too in the CUDA graphs the run already "
                                "replays, so that launch cost no longer paces the GPU."));
  else
    finding->fix = g_strdup (_ ("Give each launch more work (fuse kernels, larger batches) or "
                                "capture the sequence in a CUDA graph, so that launch cost no "
                                "longer paces the GPU."));
}

static void
add_launch_evidence (const LaunchLoops *loops, WsFinding *finding)
{
  ws_finding_add_evidence (finding, "tiny_kernels", _ ("Short kernels"), WS_UNIT_COUNT,
                           loops->tiny);
  ws_finding_add_evidence (finding, "kernels", _ ("Kernels launched in that time"), WS_UNIT_COUNT,
                           loops->kernels);
  ws_finding_add_evidence (finding, "tiny_share_pct", _ ("Share of short kernels"), WS_UNIT_PERCENT,
                           100.0 * loops->tiny / loops->kernels);
  ws_finding_add_evidence (finding, "median_kernel_ns", _ ("Median kernel duration"), WS_UNIT_NS,
                           ws_findings_median (loops->durations));
  if (loops->call_durations->len > 0)
    ws_finding_add_evidence (finding, "median_launch_ns", _ ("Median launch call"), WS_UNIT_NS,
                             ws_findings_median (loops->call_durations));
  ws_finding_add_evidence (finding, "tiny_gpu_time_ns", _ ("GPU time of the short kernels"),
                           WS_UNIT_NS, loops->tiny_time);
  ws_finding_add_evidence (finding, "span_ns", _ ("Duration of the loops"), WS_UNIT_NS,
                           loops->window);
  ws_finding_add_evidence (finding, "gpu_busy_pct", _ ("GPU busy"), WS_UNIT_PERCENT,
                           100.0 * (double) loops->busy / (double) loops->window);
  ws_finding_add_evidence (finding, "kernels_per_s", _ ("Short kernels per second"),
                           WS_UNIT_PER_SECOND, loops->tiny * 1e9 / (double) loops->window);
  if (loops->in_graphs > 0)
    {
      ws_finding_add_evidence (finding, "graph_kernels",
                               _ ("Kernels in CUDA graph replays (left out)"), WS_UNIT_COUNT,
                               loops->in_graphs);
      ws_finding_add_note (finding, _ ("Kernels of CUDA graph replays are left out: a replay pays "
                                       "one launch call for all its kernels."));
    }
}

void
ws_findings_check_launch (WsFindingsCtx *ctx, GPtrArray *findings)
{
  const WsRun *run = ctx->run;
  g_autoptr (GArray) items = NULL;
  g_autoptr (GArray) groups = NULL;
  g_autoptr (GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) call_durations = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (WsFinding) finding = ws_finding_new (WS_FINDING_LAUNCH_OVERHEAD);
  g_autoptr (WsNvtxCollector) nvtx = ws_nvtx_collector_new (ctx);
  LaunchLoops loops = { .durations = durations, .call_durations = call_durations };
  gboolean any = FALSE;
  double busy_pct;

  if (run->kernels.stream == NULL)
    return;

  items = launch_items (ctx, &loops.in_graphs);
  groups = ws_findings_group (ctx, items);
  for (guint g = 0; g < groups->len; g++)
    {
      const WsFindingsGroup *group = &g_array_index (groups, WsFindingsGroup, g);
      const WsFindingsItem *first = &g_array_index (items, WsFindingsItem, group->first);
      gint64 from, to, busy_ns;
      guint in_window;

      if (group->n < LAUNCH_MIN_TINY ||
          !judge_launch_loop (ctx, group, first, &from, &to, &in_window, &busy_ns))
        continue;

      any = TRUE;
      loops.tiny += group->n;
      loops.kernels += in_window;
      loops.window = ws_time_add (loops.window, MAX (to - from, 1));
      loops.busy = ws_time_add (loops.busy, busy_ns);
      ws_finding_add_range (finding, from, to);
      add_launch_loop (ctx, &loops, finding, nvtx, group, first);
    }
  if (!any)
    return;

  /* Over all the loops raised, as the summary says it. */
  busy_pct = 100.0 * (double) loops.busy / (double) loops.window;
  ws_findings_bands_judge (WS_FINDINGS_BANDS_LAUNCH, busy_pct, &finding->severity);
  finding->cost = loops.window - loops.busy;
  loops.place = ws_nvtx_collector_place (nvtx);
  describe_launch (&loops, busy_pct, finding);
  add_launch_evidence (&loops, finding);
  g_free (loops.place);
  ws_nvtx_collector_finish (nvtx, finding);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}

typedef struct
{
  guint32 stream;
  gint64 time; /* ns of GPU time in the phase */
} StreamTime;

typedef struct
{
  guint phases;
  guint streams;
  gint64 sum_shortest;
  gint64 sum_longest;
  gint64 wait;
  double worst_ratio;
  guint32 worst_name;
  gint64 worst_shortest;
  gint64 worst_longest;
  char *worst_streams; /* "13: 6.02 µs, …" */
} Imbalance;

/* One kernel per stream in @members, side by side: when their GPU times
 * differ too much, a phase of imbalance. */
static void
close_phase (WsFindingsCtx *ctx, GArray *members, WsFinding *finding, WsNvtxCollector *nvtx,
             Imbalance *imbalance)
{
  const WsRun *run = ctx->run;
  g_autoptr (GArray) per_stream = g_array_new (FALSE, FALSE, sizeof (StreamTime));
  gint64 shortest = G_MAXINT64, longest = 0, wait = 0, from = G_MAXINT64, to = G_MININT64;
  double ratio;
  WsSeverity severity;

  if (members->len < 2)
    return;
  for (guint i = 0; i < members->len; i++)
    {
      guint32 k = g_array_index (members, guint32, i);
      StreamTime *found = NULL;

      for (guint s = 0; s < per_stream->len && found == NULL; s++)
        if (g_array_index (per_stream, StreamTime, s).stream == run->kernels.stream[k])
          found = &g_array_index (per_stream, StreamTime, s);
      if (found == NULL)
        {
          StreamTime add = { run->kernels.stream[k], 0 };

          g_array_append_val (per_stream, add);
          found = &g_array_index (per_stream, StreamTime, per_stream->len - 1);
        }
      found->time = ws_time_add (found->time, run->kernels.end[k] - run->kernels.start[k]);
      from = MIN (from, run->kernels.start[k]);
      to = MAX (to, run->kernels.end[k]);
    }
  if (per_stream->len < 2)
    return;
  for (guint s = 0; s < per_stream->len; s++)
    {
      shortest = MIN (shortest, g_array_index (per_stream, StreamTime, s).time);
      longest = MAX (longest, g_array_index (per_stream, StreamTime, s).time);
    }
  ratio = (double) shortest / (double) MAX (longest, 1);
  /* A phase counts from the minor band on. */
  if (!ws_findings_bands_judge (WS_FINDINGS_BANDS_IMBALANCE, ratio, &severity) ||
      longest - shortest < IMBALANCE_MIN_WAIT_NS)
    return;
  for (guint s = 0; s < per_stream->len; s++)
    wait += longest - g_array_index (per_stream, StreamTime, s).time;

  imbalance->phases++;
  imbalance->streams = MAX (imbalance->streams, per_stream->len);
  imbalance->sum_shortest += shortest;
  imbalance->sum_longest += longest;
  imbalance->wait += wait;
  if (imbalance->phases == 1 || ratio < imbalance->worst_ratio)
    {
      GString *text = g_string_new (NULL);

      imbalance->worst_ratio = ratio;
      imbalance->worst_name = run->kernels.demangled[g_array_index (members, guint32, 0)];
      imbalance->worst_shortest = shortest;
      imbalance->worst_longest = longest;
      for (guint s = 0; s < per_stream->len; s++)
        {
          const StreamTime *st = &g_array_index (per_stream, StreamTime, s);
          const WsStream *stream = &g_array_index (run->streams, WsStream, st->stream);
          g_autofree char *time = ws_format_duration ((double) st->time);

          g_string_append_printf (text, "%s%d/%d: %s", s > 0 ? ", " : "", stream->device_id,
                                  stream->stream_id, time);
        }
      g_free (imbalance->worst_streams);
      imbalance->worst_streams = g_string_free (text, FALSE);
    }

  ws_finding_add_range (finding, from, to);
  for (guint i = 0; i < members->len; i++)
    {
      guint32 k = g_array_index (members, guint32, i);
      gssize api = ws_run_index_kernel_launch (ctx->index, k);

      g_array_append_val (finding->kernels, k);
      ws_findings_add_api (finding, api);
      if (api >= 0 && run->api.thread != NULL)
        ws_nvtx_collector_add (nvtx, run->api.thread[api], run->api.start[api],
                               run->kernels.end[k] - run->kernels.start[k]);
    }
}

/* A phase holds one kernel per stream, all on one GPU and of one process:
 * the processes of one export (a job's ranks) sharing a GPU are not one
 * program splitting its work. */
static gboolean
joins_phase (const WsRun *run, GArray *members, guint32 k)
{
  guint32 first = g_array_index (members, guint32, 0);
  const WsStream *a = &g_array_index (run->streams, WsStream, run->kernels.stream[first]);
  const WsStream *b = &g_array_index (run->streams, WsStream, run->kernels.stream[k]);

  if (stream_device (run, run->kernels.stream[first]) !=
        stream_device (run, run->kernels.stream[k]) ||
      a->pid != b->pid)
    return FALSE;
  for (guint i = 0; i < members->len; i++)
    if (run->kernels.stream[g_array_index (members, guint32, i)] == run->kernels.stream[k])
      return FALSE;
  return TRUE;
}

/* Whether the launch @api directly follows @last, the phase's latest
 * launch: the next kernel launch of the same thread. */
static gboolean
fans_out (WsFindingsCtx *ctx, gssize last, gssize api)
{
  const WsRun *run = ctx->run;

  if (api < 0 || last < 0 || run->api.thread == NULL ||
      run->api.thread[api] != run->api.thread[last])
    return FALSE;
  return ws_run_index_count_launches (ctx->index, run->api.thread[api], run->api.start[last] + 1,
                                      run->api.start[api], TRUE) == 0;
}

/* The kernels of each piece of work in @by_work, keyed by the work's key
 * in @keys (in order of first launch).  The same work split the same way:
 * one kernel with one launch configuration.  One name alone would compare
 * an elementwise kernel on a small tensor with the same kernel on a large
 * one. */
static void
group_by_work (WsFindingsCtx *ctx, GHashTable *by_work, GArray *keys)
{
  const WsRun *run = ctx->run;

  for (gsize k = 0; k < run->kernels.n; k++)
    {
      guint64 key = ((guint64) run->kernels.config[k] << 32) | run->kernels.demangled[k];
      if (ws_findings_stop (ctx, k))
        break;
      GArray *list = g_hash_table_lookup (by_work, &key);
      guint32 index = (guint32) k;

      if (list == NULL)
        {
          /* NCCL kernels wait for their peers by design: their spread shows
           * imbalance elsewhere, not in themselves. */
          if (ws_kernel_name_is_communication (ws_run_string (run, run->kernels.demangled[k])))
            continue;
          list = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (by_work, g_memdup2 (&key, sizeof key), list);
          g_array_append_val (keys, key);
        }
      g_array_append_val (list, index);
    }
}

/* A phase: one kernel per stream of one GPU, side by side: overlapping in
 * time, or launched back to back by one thread onto other streams (a
 * fan-out whose first kernel may end before the last one starts).  Each
 * phase of the kernels of @list is judged by close_phase(). */
static void
split_phases (WsFindingsCtx *ctx, GArray *list, WsFinding *finding, WsNvtxCollector *nvtx,
              Imbalance *imbalance)
{
  const WsRun *run = ctx->run;
  g_autoptr (GArray) members = g_array_new (FALSE, FALSE, sizeof (guint32));
  gint64 phase_end = G_MININT64;
  gssize last_launch = -1;

  for (guint i = 0; i < list->len; i++)
    {
      guint32 k = g_array_index (list, guint32, i);
      gssize api = ws_run_index_kernel_launch (ctx->index, k);

      if (members->len > 0 &&
          (!joins_phase (run, members, k) ||
           (run->kernels.start[k] >= phase_end && !fans_out (ctx, last_launch, api))))
        {
          close_phase (ctx, members, finding, nvtx, imbalance);
          g_array_set_size (members, 0);
          phase_end = G_MININT64;
          last_launch = -1;
        }
      g_array_append_val (members, k);
      phase_end = MAX (phase_end, run->kernels.end[k]);
      if (api >= 0 && (last_launch < 0 || run->api.start[api] > run->api.start[last_launch]))
        last_launch = api;
    }
  close_phase (ctx, members, finding, nvtx, imbalance);
}

static void
describe_imbalance (WsFindingsCtx *ctx, const Imbalance *imbalance, double ratio,
                    WsFinding *finding)
{
  const WsRun *run = ctx->run;
  const WsFindingsBands *bands = &ws_findings_bands[WS_FINDINGS_BANDS_IMBALANCE];
  g_autofree char *shortest_str = ws_format_duration ((double) imbalance->worst_shortest);
  g_autofree char *longest_str = ws_format_duration ((double) imbalance->worst_longest);
  g_autofree char *ratio_str = ws_format_fixed_string (ratio, 2);
  g_autofree char *wait_str = ws_format_duration ((double) imbalance->wait);
  g_autofree char *count_str = ws_findings_count_string (imbalance->phases);

  finding->title = g_strdup (_ ("Load imbalance between streams"));
  if (imbalance->phases == 1)
    /* TRANSLATORS: "“imbalanced(float *, int, int)” runs side by side on 4 streams but takes from 6.02 µs to 37.6 µs per stream (shortest/longest 0.16): 76.7 µs spent waiting for the slowest." */
    finding->summary =
      g_strdup_printf (_ ("“%s” runs side by side on %u streams but takes from %s to %s per stream "
                          "(shortest/longest %s): %s spent waiting for the slowest."),
                       ws_run_string (run, imbalance->worst_name), imbalance->streams, shortest_str,
                       longest_str, ratio_str, wait_str);
  else
    finding->summary = g_strdup_printf (
      _ ("In %s phases where one kernel runs side by side on several streams, the shortest takes "
         "%s of the longest (worst: “%s”, %s to %s): %s spent waiting for the slowest."),
      count_str, ratio_str, ws_run_string (run, imbalance->worst_name), shortest_str, longest_str,
      wait_str);
  finding->rule = g_strdup_printf (
    _ ("Shortest/longest GPU time among the streams (or GPUs) that run one kernel side by side: "
       "below %.1f severe, %.1f–%.1f medium, %.1f–%.1f minor; NCCL kernels are left out, they "
       "wait for their peers by design."),
    bands->severe.bound, bands->severe.bound, bands->medium.bound, bands->medium.bound,
    bands->minor.bound);
  finding->fix = g_strdup (_ ("Split the work evenly across streams or GPUs (equal sizes, or many "
                              "small chunks handed out as streams free up), so that none waits "
                              "for the slowest."));
}

static void
add_imbalance_evidence (WsFindingsCtx *ctx, const Imbalance *imbalance, double ratio,
                        WsFinding *finding)
{
  const WsRun *run = ctx->run;

  ws_finding_add_evidence (finding, "phases", _ ("Phases side by side"), WS_UNIT_COUNT,
                           imbalance->phases);
  ws_finding_add_evidence (finding, "streams", _ ("Streams"), WS_UNIT_COUNT, imbalance->streams);
  ws_finding_add_evidence (finding, "kernels", _ ("Kernels"), WS_UNIT_COUNT, finding->kernels->len);
  ws_finding_add_evidence_text (finding, "kernel", _ ("Kernel"),
                                ws_run_string (run, imbalance->worst_name));
  ws_finding_add_evidence (finding, "shortest_ns", _ ("Shortest stream"), WS_UNIT_NS,
                           imbalance->worst_shortest);
  ws_finding_add_evidence (finding, "longest_ns", _ ("Longest stream"), WS_UNIT_NS,
                           imbalance->worst_longest);
  ws_finding_add_evidence (finding, "ratio", _ ("Shortest/longest"), WS_UNIT_RATIO, ratio);
  if (imbalance->phases > 1)
    ws_finding_add_evidence (finding, "worst_ratio", _ ("Worst phase"), WS_UNIT_RATIO,
                             imbalance->worst_ratio);
  ws_finding_add_evidence (finding, "wait_ns", _ ("Time waiting for the slowest"), WS_UNIT_NS,
                           imbalance->wait);
  ws_finding_add_evidence_text (finding, "per_stream", _ ("GPU time per device/stream"),
                                imbalance->worst_streams);
}

void
ws_findings_check_imbalance (WsFindingsCtx *ctx, GPtrArray *findings)
{
  const WsRun *run = ctx->run;
  g_autoptr (GHashTable) by_work =
    g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (WsFinding) finding = ws_finding_new (WS_FINDING_LOAD_IMBALANCE);
  g_autoptr (WsNvtxCollector) nvtx = ws_nvtx_collector_new (ctx);
  Imbalance imbalance = { 0 };
  double ratio;

  if (run->kernels.stream == NULL || run->kernels.demangled == NULL || run->kernels.config == NULL)
    return;

  group_by_work (ctx, by_work, keys);
  for (guint n = 0; n < keys->len; n++)
    split_phases (ctx, g_hash_table_lookup (by_work, &g_array_index (keys, guint64, n)), finding,
                  nvtx, &imbalance);
  if (imbalance.phases == 0)
    return;

  ratio = (double) imbalance.sum_shortest / (double) imbalance.sum_longest;
  /* Every phase raised is in a band, so are their sums. */
  if (!ws_findings_bands_judge (WS_FINDINGS_BANDS_IMBALANCE, ratio, &finding->severity))
    finding->severity = WS_SEVERITY_MINOR;
  finding->cost = imbalance.wait;
  describe_imbalance (ctx, &imbalance, ratio, finding);
  add_imbalance_evidence (ctx, &imbalance, ratio, finding);
  g_free (imbalance.worst_streams);
  ws_nvtx_collector_finish (nvtx, finding);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}

/* The kernel or memory operation of @device that starts (@starting) or
 * ends at @t; adds it to @finding and returns its launch call, or -1. */
static gssize
add_gpu_event_at (WsFindingsCtx *ctx, WsFinding *finding, gint32 device, gint64 t,
                  gboolean starting)
{
  const WsRun *run = ctx->run;

  for (int pass = 0; pass < 2; pass++)
    {
      gboolean kernels = pass == 0;
      gsize n = kernels ? run->kernels.n : run->memops.n;
      const gint64 *start = kernels ? run->kernels.start : run->memops.start;
      const gint64 *end = kernels ? run->kernels.end : run->memops.end;
      const guint32 *stream = kernels ? run->kernels.stream : run->memops.stream;
      gsize i;

      if (stream == NULL)
        continue;
      if (starting)
        {
          for (i = ws_sort_lower_bound (start, 0, n, t); i < n && start[i] == t; i++)
            if (stream_device (run, stream[i]) == device)
              break;
          if (i >= n || start[i] != t)
            continue;
        }
      else
        {
          gsize stop = ws_sort_lower_bound (start, 0, n, t + 1);
          gsize floor = stop > GAP_SEARCH_BACK ? stop - GAP_SEARCH_BACK : 0;

          for (i = stop; i-- > floor;)
            if (end[i] == t && stream_device (run, stream[i]) == device)
              break;
          if (i == G_MAXSIZE || i < floor || end[i] != t)
            continue;
        }
      {
        guint32 index = (guint32) i;

        g_array_append_val (kernels ? finding->kernels : finding->memops, index);
        return kernels ? ws_run_index_kernel_launch (ctx->index, i)
                       : ws_run_index_memop_launch (ctx->index, i);
      }
    }
  return -1;
}

typedef struct
{
  gint64 start;
  gint64 end;
} Gap;

static void
keep_largest (Gap *top, guint *n, gint64 start, gint64 end)
{
  guint at = *n;

  while (at > 0 && top[at - 1].end - top[at - 1].start < end - start)
    at--;
  if (at >= TOP_GAPS)
    return;
  if (*n < TOP_GAPS)
    (*n)++;
  memmove (top + at + 1, top + at, (*n - 1 - at) * sizeof (Gap));
  top[at].start = start;
  top[at].end = end;
}

void
ws_findings_check_idle (WsFindingsCtx *ctx, GPtrArray *findings)
{
  const WsRun *run = ctx->run;
  const WsFindingsBands *bands = &ws_findings_bands[WS_FINDINGS_BANDS_IDLE];
  GArray *devices = ws_run_index_devices (ctx->index);
  g_autoptr (WsFinding) finding = ws_finding_new (WS_FINDING_GPU_IDLE);
  g_autoptr (WsNvtxCollector) nvtx = ws_nvtx_collector_new (ctx);
  g_autofree double *shares = g_new0 (double, MAX (devices->len, 1));
  g_autofree char *share_str = NULL, *idle_str = NULL, *span_str = NULL, *gap_str = NULL;
  g_autofree char *place = NULL;
  const WsBusy *busy = NULL;
  gint32 device = 0;
  gint64 span, idle;
  double share = -1;
  Gap top[TOP_GAPS];
  guint n_top = 0;
  WsSeverity severity;

  for (guint d = 0; d < devices->len; d++)
    {
      const WsBusy *b = ws_run_index_device_busy (ctx->index, g_array_index (devices, gint32, d));

      if (b == NULL || b->n == 0)
        continue;
      span = MAX (b->end[b->n - 1] - b->start[0], 1);
      shares[d] = 100.0 * (double) (span - b->total) / (double) span;
      if (shares[d] > share)
        {
          share = shares[d];
          busy = b;
          device = g_array_index (devices, gint32, d);
        }
    }
  if (busy == NULL || !ws_findings_bands_judge (WS_FINDINGS_BANDS_IDLE, share, &severity))
    return;

  span = busy->end[busy->n - 1] - busy->start[0];
  idle = span - busy->total;
  for (gsize i = 1; i < busy->n; i++)
    keep_largest (top, &n_top, busy->end[i - 1], busy->start[i]);
  for (guint g = 0; g < n_top; g++)
    {
      gssize after, before;

      ws_finding_add_range (finding, top[g].start, top[g].end);
      before = add_gpu_event_at (ctx, finding, device, top[g].start, FALSE);
      after = add_gpu_event_at (ctx, finding, device, top[g].end, TRUE);
      ws_findings_add_api (finding, before);
      ws_findings_add_api (finding, after);
      /* The thread that launched the work after the gap is the one that
       * kept the GPU waiting. */
      if (after >= 0 && run->api.thread != NULL)
        {
          gint64 middle = top[g].start + (top[g].end - top[g].start) / 2;

          ws_nvtx_collector_add (nvtx, run->api.thread[after], middle, top[g].end - top[g].start);
          if (g == 0)
            place = ws_findings_place (ctx, run->api.thread[after], middle);
        }
    }

  finding->severity = severity;
  finding->cost = idle;
  finding->title = g_strdup (_ ("The GPU sits idle"));
  share_str = ws_findings_percent_string (share);
  idle_str = ws_format_duration ((double) idle);
  span_str = ws_format_duration ((double) span);
  gap_str = ws_format_duration (n_top > 0 ? (double) (top[0].end - top[0].start) : 0);
  if (place == NULL)
    place = g_strdup (_ ("code outside NVTX ranges"));
  /* TRANSLATORS: "GPU 0 is idle 18.0% of the time between its first and last activity (4.56 ms of 25.3 ms); the longest gap, 363 µs, falls in “x”." */
  finding->summary = g_strdup_printf (_ ("GPU %d is idle %s of the time between its first and last "
                                         "activity (%s of %s); the longest gap, %s, falls in %s."),
                                      device, share_str, idle_str, span_str, gap_str, place);
  finding->rule = g_strdup_printf (
    _ (
      "Share of a GPU's span, from its first to its last kernel, memory operation or graph replay, "
      "with none running: %.0f%% and more severe, %.0f–%.0f%% medium, %.0f–%.0f%% minor; "
      "below %.0f%% not raised."),
    bands->severe.bound, bands->medium.bound, bands->severe.bound, bands->minor.bound,
    bands->medium.bound, bands->minor.bound);
  finding->fix = g_strdup (_ ("Keep the GPU fed: queue work ahead of the host with asynchronous "
                              "launches and copies, overlap copies with kernels on streams, and "
                              "move host-side preparation off the critical path."));
  ws_finding_add_note (finding, _ ("The time before the GPU's first activity (start-up, context "
                                   "creation) is not counted."));

  ws_finding_add_evidence (finding, "device", _ ("GPU"), WS_UNIT_COUNT, device);
  ws_finding_add_evidence (finding, "idle_pct", _ ("Idle share"), WS_UNIT_PERCENT, share);
  ws_finding_add_evidence (finding, "idle_ns", _ ("Idle time"), WS_UNIT_NS, idle);
  ws_finding_add_evidence (finding, "busy_ns", _ ("Busy time"), WS_UNIT_NS, busy->total);
  ws_finding_add_evidence (finding, "span_ns", _ ("First to last activity"), WS_UNIT_NS, span);
  ws_finding_add_evidence (finding, "gaps", _ ("Idle gaps"), WS_UNIT_COUNT, busy->n - 1);
  if (n_top > 0)
    ws_finding_add_evidence (finding, "largest_gap_ns", _ ("Longest gap"), WS_UNIT_NS,
                             top[0].end - top[0].start);
  if (devices->len > 1)
    for (guint d = 0; d < devices->len; d++)
      {
        gint32 id = g_array_index (devices, gint32, d);
        g_autofree char *key = g_strdup_printf ("gpu%d_idle_pct", id);
        g_autofree char *label = g_strdup_printf (_ ("GPU %d idle share"), id);

        ws_finding_add_evidence (finding, key, label, WS_UNIT_PERCENT, shares[d]);
      }
  ws_nvtx_collector_finish (nvtx, finding);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}
