/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-findings-bands.h"
#include "ws-findings-private.h"
#include "ws-format.h"
#include "ws-limits.h"
#include "ws-sort.h"

/* The check "Host gaps between CUDA graph replays": a loop of replays on
 * one stream with the GPU idle between one replay's end and the next's
 * start, because the host is elsewhere (a sync on the last step's result,
 * eager work, the launch itself).  Definitions: docs/NOTES.md,
 * "Findings"; severity bands: ws-findings-bands.c. */

/* Raised for at least this many pairs of consecutive replays, with a
 * median GPU idle between them of at least GAPS_MIN_MEDIAN_NS. */
#define GAPS_MIN_PAIRS 5
#define GAPS_MIN_MEDIAN_NS 20000
/* Replays further apart are not one loop. */
#define GAPS_MAX_PERIOD_NS G_GINT64_CONSTANT (1000000000)
#define TOP_GAPS 5
/* How far back to look for the call open on a thread. */
#define CALL_SEARCH_BACK 256

/* One pair of consecutive replays on a stream. */
typedef struct
{
  guint32 before; /* replay index */
  guint32 after;
  gint64 idle; /* ns of GPU idle between them */
} Pair;

typedef struct
{
  GArray *pairs;          /* Pair */
  gint64 idle;            /* ns, summed */
  gint64 period;          /* ns, summed: one replay's start to the next's */
  GArray *idle_list;      /* gint64: each pair's idle ns */
  GArray *period_list;    /* gint64 */
  GArray *replay_list;    /* gint64: the span of each replay in a pair */
  GHashTable *host_calls; /* what the host was in, at the middle of the longest idle */
} Gaps;

/* The longest stretch of [@from, @to) with @busy idle; FALSE when none. */
static gboolean
longest_idle (const WsBusy *busy, gint64 from, gint64 to, gint64 *start, gint64 *end)
{
  gsize i = ws_sort_lower_bound (busy->end, 0, busy->n, from + 1);
  gint64 at = from;
  gint64 best = 0;

  for (; at < to; i++)
    {
      gint64 next = i < busy->n ? MIN (busy->start[i], to) : to;

      if (next - at > best)
        {
          best = next - at;
          *start = at;
          *end = next;
        }
      if (i >= busy->n)
        break;
      at = MAX (at, busy->end[i]);
    }
  return best > 0;
}

/* The API call of @thread open at @time, or -1. */
static gssize
call_open_at (const WsRun *run, guint32 thread, gint64 time)
{
  gsize stop = ws_sort_lower_bound (run->api.start, 0, run->api.n, time + 1);
  gsize floor = stop > CALL_SEARCH_BACK ? stop - CALL_SEARCH_BACK : 0;

  for (gsize i = stop; i-- > floor;)
    if (run->api.thread[i] == thread && run->api.end[i] > time)
      return (gssize) i;
  return -1;
}

/* Where the host was while the GPU idled between the replays of @pair:
 * at the middle of the longest idle stretch, on the thread that launched
 * the second replay; its NVTX ranges and the call it was in. */
static void
place_host (WsFindingsCtx *ctx, const WsBusy *busy, const Pair *pair, gssize launch, Gaps *gaps,
            WsNvtxCollector *nvtx)
{
  const WsRun *run = ctx->run;
  gint64 from = 0, to = 0, middle;
  guint32 thread;
  gssize call;

  if (launch < 0 || run->api.thread == NULL ||
      !longest_idle (busy, run->replays.end[pair->before], run->replays.start[pair->after], &from,
                     &to))
    return;
  thread = run->api.thread[launch];
  middle = from + (to - from) / 2;
  ws_nvtx_collector_add (nvtx, thread, middle, pair->idle);
  call = call_open_at (run, thread, middle);
  if (call >= 0)
    {
      /* As a person writes the call: without its version suffix. */
      g_autofree char *name = g_strdup (ws_run_index_api_name (ctx->index, call));
      char *v = g_strrstr (name, "_v");

      if (v != NULL && v[2] != '\0' && strspn (v + 2, "0123456789") == strlen (v + 2))
        *v = '\0';
      ws_findings_count_name (gaps->host_calls, name);
    }
  else
    ws_findings_count_name (gaps->host_calls, _ ("no CUDA call"));
}

/* The pairs of consecutive replays on each stream, less than
 * GAPS_MAX_PERIOD_NS apart, with the GPU idle between them on the
 * stream's GPU. */
static void
find_pairs (WsFindingsCtx *ctx, const gssize *launch, Gaps *gaps, WsNvtxCollector *nvtx)
{
  const WsRun *run = ctx->run;
  g_autoptr (GHashTable) last = g_hash_table_new (NULL, NULL); /* stream + 1 → replay + 1 */
  g_autofree guint8 *counted = g_new0 (guint8, MAX (run->replays.n, 1));

  for (gsize r = 0; r < run->replays.n; r++)
    {
      gpointer stream = GUINT_TO_POINTER (run->replays.stream[r] + 1);
      gsize before = GPOINTER_TO_SIZE (g_hash_table_lookup (last, stream));
      const WsBusy *busy =
        ws_run_index_device_busy (ctx->index, ws_run_replay_stream (run, r)->device_id);
      Pair pair = { (guint32) before - 1, (guint32) r, 0 };
      gint64 from, to;

      g_hash_table_insert (last, stream, GSIZE_TO_POINTER (r + 1));
      if (before == 0 || busy == NULL ||
          run->replays.start[r] - run->replays.start[pair.before] >= GAPS_MAX_PERIOD_NS)
        continue;
      from = run->replays.end[pair.before];
      to = run->replays.start[r];
      if (to > from)
        pair.idle = (to - from) - ws_busy_between (busy, from, to);
      g_array_append_val (gaps->pairs, pair);
      g_array_append_val (gaps->idle_list, pair.idle);
      gaps->idle = ws_time_add (gaps->idle, pair.idle);
      {
        gint64 period = run->replays.start[r] - run->replays.start[pair.before];

        g_array_append_val (gaps->period_list, period);
        gaps->period = ws_time_add (gaps->period, period);
      }
      for (int k = 0; k < 2; k++)
        {
          guint32 which = k == 0 ? pair.before : pair.after;
          gint64 span = run->replays.end[which] - run->replays.start[which];

          if (!counted[which])
            g_array_append_val (gaps->replay_list, span);
          counted[which] = TRUE;
        }
      if (pair.idle > 0)
        place_host (ctx, busy, &pair, launch[r], gaps, nvtx);
    }
}

static int
compare_idle (gconstpointer a, gconstpointer b)
{
  const Pair *x = a, *y = b;

  return (x->idle < y->idle) - (x->idle > y->idle);
}

/* The longest idle stretches between replays as the finding's ranges, with
 * the calls that launched the replays after them. */
static void
add_top_gaps (WsFindingsCtx *ctx, Gaps *gaps, const gssize *launch, WsFinding *finding,
              char **place)
{
  const WsRun *run = ctx->run;
  g_autoptr (GArray) sorted = g_array_copy (gaps->pairs);

  g_array_sort (sorted, compare_idle);
  for (guint i = 0; i < sorted->len && i < TOP_GAPS; i++)
    {
      const Pair *pair = &g_array_index (sorted, Pair, i);
      gssize call = launch[pair->after];

      ws_finding_add_range (finding, run->replays.end[pair->before],
                            run->replays.start[pair->after]);
      ws_findings_add_api (finding, call);
      if (i == 0 && call >= 0 && run->api.thread != NULL)
        *place = ws_findings_place (ctx, run->api.thread[call], run->api.start[call]);
    }
}

static void
describe_gaps (const Gaps *gaps, double share, const char *place, const char *calls,
               WsFinding *finding)
{
  const WsFindingsBands *bands = &ws_findings_bands[WS_FINDINGS_BANDS_REPLAY_GAPS];
  g_autofree char *pairs_str = ws_findings_count_string (gaps->pairs->len);
  g_autofree char *idle_str = ws_format_duration ((double) ws_findings_median (gaps->idle_list));
  g_autofree char *total_str = ws_format_duration ((double) gaps->idle);
  g_autofree char *period_str = ws_format_duration ((double) gaps->period);
  g_autofree char *share_str = ws_findings_percent_string (share);
  g_autofree char *replay_str =
    ws_format_duration ((double) ws_findings_median (gaps->replay_list));

  finding->title = g_strdup (_ ("Host gaps between CUDA graph replays"));
  /* TRANSLATORS: "Between 38 pairs of consecutive CUDA graph replays (a replay takes 381 µs) the GPU idles a median 70.2 µs, 2.63 ms of 18.2 ms from one replay's start to the next's (14.4%), inside “decode 2”; at the middle of each pair's longest idle, the host was in (pairs): 32 no CUDA call, 6 cudaGraphLaunch." */
  finding->summary = g_strdup_printf (
    _ ("Between %s pairs of consecutive CUDA graph replays (a replay takes %s) the GPU idles a "
       "median %s, %s of %s from one replay's start to the next's (%s), inside %s; at the "
       "middle of each pair's longest idle, the host was in (pairs): %s."),
    pairs_str, replay_str, idle_str, total_str, period_str, share_str, place, calls);
  finding->rule = g_strdup_printf (
    _ ("Consecutive replays on one stream, less than 1 s apart: the GPU idle (no kernel, memory "
       "operation or replay) from one's end to the next's start, over the time from one's start "
       "to the next's: %.0f%% and more severe, %.0f–%.0f%% medium, %.0f–%.0f%% minor; raised "
       "for at least %d pairs whose median idle is 20 µs or more."),
    bands->severe.bound, bands->medium.bound, bands->severe.bound, bands->minor.bound,
    bands->medium.bound, GAPS_MIN_PAIRS);
  finding->fix = g_strdup (
    _ ("Keep the host ahead of the GPU between replays: do not wait for each step's result "
       "(.item(), .cpu(), a stream sync) before launching the next replay, and capture the work "
       "between replays (sampling, input copies) into the graph."));
}

static void
add_gaps_evidence (const Gaps *gaps, double share, const char *calls, WsFinding *finding)
{
  ws_finding_add_evidence (finding, "pairs", _ ("Consecutive replays"), WS_UNIT_COUNT,
                           gaps->pairs->len);
  ws_finding_add_evidence (finding, "replays", _ ("Replays"), WS_UNIT_COUNT,
                           gaps->replay_list->len);
  ws_finding_add_evidence (finding, "median_replay_ns", _ ("Replay, median"), WS_UNIT_NS,
                           ws_findings_median (gaps->replay_list));
  ws_finding_add_evidence (finding, "median_period_ns", _ ("Start to next start, median"),
                           WS_UNIT_NS, ws_findings_median (gaps->period_list));
  ws_finding_add_evidence (finding, "median_idle_ns", _ ("GPU idle between replays, median"),
                           WS_UNIT_NS, ws_findings_median (gaps->idle_list));
  ws_finding_add_evidence (finding, "idle_ns", _ ("GPU idle between replays"), WS_UNIT_NS,
                           gaps->idle);
  ws_finding_add_evidence (finding, "period_ns", _ ("Start to next start, in all"), WS_UNIT_NS,
                           gaps->period);
  ws_finding_add_evidence (finding, "idle_share_pct", _ ("Idle share"), WS_UNIT_PERCENT, share);
  ws_finding_add_evidence_text (finding, "host_calls", _ ("Host at the longest idle"), calls);
}

void
ws_findings_check_replay_gaps (WsFindingsCtx *ctx, GPtrArray *findings)
{
  const WsRun *run = ctx->run;
  g_autofree guint8 *kinds = NULL;
  g_autofree gssize *launch = NULL;
  g_autoptr (WsFinding) finding = ws_finding_new (WS_FINDING_REPLAY_GAPS);
  g_autoptr (WsNvtxCollector) nvtx = ws_nvtx_collector_new (ctx);
  g_autoptr (GArray) pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  g_autoptr (GArray) idle_list = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) period_list = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) replay_list = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GHashTable) host_calls = ws_findings_names_new ();
  g_autofree char *place = NULL, *calls = NULL;
  Gaps gaps = { pairs, 0, 0, idle_list, period_list, replay_list, host_calls };
  double share;

  if (run->replays.n <= GAPS_MIN_PAIRS)
    return;
  kinds = ws_findings_graph_calls (ctx);
  launch = ws_findings_replay_launches (ctx, kinds);
  find_pairs (ctx, launch, &gaps, nvtx);
  if (pairs->len < GAPS_MIN_PAIRS || ws_findings_median (idle_list) < GAPS_MIN_MEDIAN_NS)
    return;
  share = 100.0 * (double) gaps.idle / (double) MAX (gaps.period, 1);
  if (!ws_findings_bands_judge (WS_FINDINGS_BANDS_REPLAY_GAPS, share, &finding->severity))
    return;

  finding->cost = gaps.idle;
  add_top_gaps (ctx, &gaps, launch, finding, &place);
  if (place == NULL)
    place = g_strdup (_ ("code outside NVTX ranges"));
  calls = g_hash_table_size (host_calls) > 0 ? ws_findings_names_string (host_calls)
                                             : g_strdup (_ ("unknown (no launch calls)"));
  describe_gaps (&gaps, share, place, calls, finding);
  add_gaps_evidence (&gaps, share, calls, finding);
  ws_nvtx_collector_finish (nvtx, finding);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}
