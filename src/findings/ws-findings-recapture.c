/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-findings-bands.h"
#include "ws-findings-private.h"
#include "ws-format.h"
#include "ws-limits.h"
#include "ws-sort.h"
#include "ws-steps.h"

/* The check "CUDA graph re-captured every step": a loop that captures and
 * instantiates its graph anew in each iteration pays, every time, the
 * host work that a graph exists to pay once.  Definitions: docs/NOTES.md,
 * "Findings"; severity bands: ws-findings-bands.c. */

/* Iterations that instantiate a graph: at least this many, and at least
 * this share of the iterations. */
#define RECAPTURE_MIN 3
#define RECAPTURE_MIN_PCT 50.0
#define TOP_RANGES 5

/* One iteration of the loop: a step, or without steps the time from one
 * graph launch's end to the next's. */
typedef struct
{
  gint64 start; /* ns */
  gint64 end;
  guint instantiations;
  gint64 capture;     /* ns from cudaStreamBeginCapture's start to cudaStreamEndCapture's end */
  gint64 instantiate; /* ns in the instantiate calls */
  gint64 replay;      /* ns: the spans of the replays launched in it */
  gint64 setup_from;  /* ns: the first capture or instantiation in it starts */
  gint64 setup_to;    /* ns: the last one ends */
} Iteration;

typedef struct
{
  const guint8 *kinds; /* ws_findings_graph_calls() */
  guint32 pid;         /* the process checked: the one that launches the most graphs */
  GArray *iterations;  /* Iteration, by start */
  char *pattern;       /* the steps' name ("decode N"), or NULL: iterations between launches */
} Recapture;

/* The process that launched the most graphs, or WS_PID_ANY when none did. */
static guint32
launching_process (WsFindingsCtx *ctx, const guint8 *kinds)
{
  const WsRun *run = ctx->run;
  g_autoptr (GHashTable) counts = g_hash_table_new (NULL, NULL);
  guint32 best = WS_PID_ANY;
  guint most = 0;

  for (gsize i = 0; i < run->api.n; i++)
    if (kinds[i] == WS_GRAPH_CALL_LAUNCH)
      {
        guint32 pid = ws_run_index_api_pid (ctx->index, i);
        gpointer key = GUINT_TO_POINTER (pid + 1);
        guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1;

        g_hash_table_insert (counts, key, GUINT_TO_POINTER (n));
        if (n > most)
          {
            most = n;
            best = pid;
          }
      }
  return best;
}

static void
add_iteration (GArray *iterations, gint64 start, gint64 end)
{
  Iteration it = { start, end, 0, 0, 0, 0, G_MAXINT64, G_MININT64 };

  if (end > start)
    g_array_append_val (iterations, it);
}

/* The iterations: the steps of the process where it has some; else the
 * stretches between its consecutive graph launches, each ending with a
 * launch (the set-up before the first launch is no iteration). */
static void
find_iterations (WsFindingsCtx *ctx, Recapture *rc)
{
  const WsRun *run = ctx->run;
  WsStepsOptions options = { NULL, rc->pid };
  g_autoptr (WsSteps) steps = ws_steps_compute (run, &options);
  gint64 last = G_MININT64;

  if (steps->steps->len >= 2)
    {
      rc->pattern = g_strdup (steps->pattern);
      for (guint s = 0; s < steps->steps->len; s++)
        {
          const WsStep *step = &g_array_index (steps->steps, WsStep, s);

          add_iteration (rc->iterations, step->start, step->end);
        }
      return;
    }
  for (gsize i = 0; i < run->api.n; i++)
    if (rc->kinds[i] == WS_GRAPH_CALL_LAUNCH && ws_run_index_api_pid (ctx->index, i) == rc->pid)
      {
        if (last != G_MININT64)
          add_iteration (rc->iterations, last, run->api.end[i]);
        last = MAX (last, run->api.end[i]);
      }
}

/* The iteration that holds @time, or NULL. */
static Iteration *
iteration_at (GArray *iterations, gint64 time)
{
  gsize lo = 0, hi = iterations->len;

  /* The last iteration that starts at or before @time. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (g_array_index (iterations, Iteration, mid).start <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || time >= g_array_index (iterations, Iteration, lo - 1).end)
    return NULL;
  return &g_array_index (iterations, Iteration, lo - 1);
}

static void
add_setup (Iteration *it, gint64 from, gint64 to)
{
  it->setup_from = MIN (it->setup_from, from);
  it->setup_to = MAX (it->setup_to, to);
}

/* Adds the process's capture and instantiate calls to their iterations,
 * and to @finding (calls and NVTX places).  A capture runs from a
 * cudaStreamBeginCapture to the next cudaStreamEndCapture of its thread. */
static void
count_setup_calls (WsFindingsCtx *ctx, Recapture *rc, WsFinding *finding, WsNvtxCollector *nvtx)
{
  const WsRun *run = ctx->run;
  g_autoptr (GHashTable) open = g_hash_table_new (NULL, NULL); /* thread + 1 → call + 1 */

  for (gsize i = 0; run->api.thread != NULL && i < run->api.n; i++)
    {
      guint kind = rc->kinds[i];
      gpointer thread = GUINT_TO_POINTER (run->api.thread[i] + 1);
      gsize begin;
      Iteration *it;

      if (ws_findings_stop (ctx, i))
        break;
      if (kind == WS_GRAPH_CALL_NONE || kind == WS_GRAPH_CALL_LAUNCH ||
          ws_run_index_api_pid (ctx->index, i) != rc->pid)
        continue;
      if (kind == WS_GRAPH_CALL_BEGIN_CAPTURE)
        {
          g_hash_table_insert (open, thread, GSIZE_TO_POINTER (i + 1));
          continue;
        }
      if (kind == WS_GRAPH_CALL_INSTANTIATE)
        {
          it = iteration_at (rc->iterations, run->api.start[i]);
          if (it == NULL)
            continue;
          it->instantiations++;
          it->instantiate = ws_time_add (it->instantiate, run->api.end[i] - run->api.start[i]);
          add_setup (it, run->api.start[i], run->api.end[i]);
          ws_findings_add_api (finding, (gssize) i);
          ws_nvtx_collector_add (nvtx, run->api.thread[i], run->api.start[i],
                                 run->api.end[i] - run->api.start[i]);
          continue;
        }
      /* The end of a capture. */
      begin = GPOINTER_TO_SIZE (g_hash_table_lookup (open, thread));
      if (begin == 0)
        continue;
      g_hash_table_remove (open, thread);
      begin--;
      it = iteration_at (rc->iterations, run->api.start[begin]);
      if (it == NULL)
        continue;
      it->capture = ws_time_add (it->capture, run->api.end[i] - run->api.start[begin]);
      add_setup (it, run->api.start[begin], run->api.end[i]);
      ws_findings_add_api (finding, (gssize) begin);
      ws_findings_add_api (finding, (gssize) i);
    }
}

/* Adds each replay's span to the iteration where its launch call started;
 * returns the distinct graphs replayed there (0 when no replay names its
 * graph). */
static guint
count_replays (WsFindingsCtx *ctx, Recapture *rc)
{
  const WsRun *run = ctx->run;
  g_autofree gssize *launch = ws_findings_replay_launches (ctx, rc->kinds);
  g_autoptr (GHashTable) graphs = g_hash_table_new (NULL, NULL);

  for (gsize r = 0; r < run->replays.n; r++)
    {
      Iteration *it;

      if (launch[r] < 0 || ws_run_index_api_pid (ctx->index, launch[r]) != rc->pid)
        continue;
      it = iteration_at (rc->iterations, run->api.start[launch[r]]);
      if (it == NULL)
        continue;
      it->replay = ws_time_add (it->replay, run->replays.end[r] - run->replays.start[r]);
      if (run->replays.graph[r] != 0)
        g_hash_table_add (graphs, GUINT_TO_POINTER (run->replays.graph[r]));
    }
  return g_hash_table_size (graphs);
}

/* What the iterations add up to. */
typedef struct
{
  guint iterations;
  guint recapturing; /* iterations that instantiate a graph */
  guint instantiations;
  guint graphs;
  gint64 setup; /* ns capturing and instantiating, all iterations */
  gint64 wall;  /* ns of all iterations */
  gint64 median_capture, median_instantiate, median_setup; /* over the recapturing ones */
  gint64 median_replay;                                    /* over those that replay */
  gint64 median_wall;
  double share; /* % of the wall time capturing and instantiating */
} Totals;

static void
add_up (const Recapture *rc, Totals *t)
{
  g_autoptr (GArray) capture = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) instantiate = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) setup = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) replay = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) wall = g_array_new (FALSE, FALSE, sizeof (gint64));

  t->iterations = rc->iterations->len;
  for (guint i = 0; i < rc->iterations->len; i++)
    {
      const Iteration *it = &g_array_index (rc->iterations, Iteration, i);
      gint64 both = ws_time_add (it->capture, it->instantiate);
      gint64 span = it->end - it->start;

      t->instantiations += it->instantiations;
      t->setup = ws_time_add (t->setup, both);
      t->wall = ws_time_add (t->wall, span);
      g_array_append_val (wall, span);
      if (it->replay > 0)
        g_array_append_val (replay, it->replay);
      if (it->instantiations == 0)
        continue;
      t->recapturing++;
      g_array_append_val (capture, it->capture);
      g_array_append_val (instantiate, it->instantiate);
      g_array_append_val (setup, both);
    }
  t->median_capture = ws_findings_median (capture);
  t->median_instantiate = ws_findings_median (instantiate);
  t->median_setup = ws_findings_median (setup);
  t->median_replay = ws_findings_median (replay);
  t->median_wall = ws_findings_median (wall);
  t->share = 100.0 * (double) t->setup / (double) MAX (t->wall, 1);
}

static int
compare_setup_length (gconstpointer a, gconstpointer b)
{
  const Iteration *x = a, *y = b;
  gint64 lx = x->setup_to - x->setup_from, ly = y->setup_to - y->setup_from;

  return (lx < ly) - (lx > ly);
}

/* The longest captures and instantiations, most important first. */
static void
add_ranges (const Recapture *rc, WsFinding *finding)
{
  g_autoptr (GArray) recapturing = g_array_new (FALSE, FALSE, sizeof (Iteration));

  for (guint i = 0; i < rc->iterations->len; i++)
    {
      const Iteration *it = &g_array_index (rc->iterations, Iteration, i);

      if (it->setup_to > it->setup_from)
        g_array_append_val (recapturing, *it);
    }
  g_array_sort (recapturing, compare_setup_length);
  for (guint i = 0; i < recapturing->len && i < TOP_RANGES; i++)
    ws_finding_add_range (finding, g_array_index (recapturing, Iteration, i).setup_from,
                          g_array_index (recapturing, Iteration, i).setup_to);
}

static void
describe_recapture (const Recapture *rc, const Totals *t, const char *place, WsFinding *finding)
{
  const WsFindingsBands *bands = &ws_findings_bands[WS_FINDINGS_BANDS_RECAPTURE];
  g_autofree char *setup_str = ws_format_duration ((double) t->median_setup);
  g_autofree char *share_str = ws_findings_percent_string (t->share);
  g_autofree char *replay_str = ws_format_duration ((double) t->median_replay);
  g_autofree char *count_str = ws_findings_count_string (t->instantiations);
  g_autofree char *per_str =
    ws_format_fixed_string ((double) t->instantiations / (double) t->iterations, 2);

  finding->title = g_strdup (_ ("CUDA graph re-captured every step"));
  if (rc->pattern != NULL)
    /* TRANSLATORS: "19 of 19 steps of “decode N” capture and instantiate a CUDA graph anew (19 instantiations, 1.00 per step), inside “decode 1”: a median 3.05 ms a step capturing and instantiating (84.6% of the steps' time), against 392 µs replaying it." */
    finding->summary = g_strdup_printf (
      _ ("%u of %u steps of “%s” capture and instantiate a CUDA graph anew (%s instantiations, "
         "%s per step), inside %s: a median %s a step capturing and instantiating (%s of the "
         "steps' time), against %s replaying it."),
      t->recapturing, t->iterations, rc->pattern, count_str, per_str, place, setup_str, share_str,
      replay_str);
  else
    finding->summary = g_strdup_printf (
      _ ("%u of the %u stretches between consecutive CUDA graph launches capture and "
         "instantiate a graph anew (%s instantiations, %s per launch), inside %s: a median %s "
         "each capturing and instantiating (%s of that time), against %s replaying it."),
      t->recapturing, t->iterations, count_str, per_str, place, setup_str, share_str, replay_str);
  finding->rule = g_strdup_printf (
    _ ("Raised when at least %d steps (without steps: stretches between graph launches) "
       "instantiate a CUDA graph and they are at least half of them; the share of their time "
       "spent capturing (cudaStreamBeginCapture to the end of cudaStreamEndCapture) and "
       "instantiating: %.0f%% and more severe, %.0f–%.0f%% medium, below %.0f%% minor."),
    RECAPTURE_MIN, bands->severe.bound, bands->medium.bound, bands->severe.bound,
    bands->medium.bound);
  finding->fix = g_strdup (_ ("Capture the graph once, before the loop, and replay it: keep its "
                              "inputs and outputs in static buffers and copy each step's new "
                              "inputs into them before the replay (with torch.compile, keep "
                              "shapes static so that it records no new graph)."));
}

static void
add_recapture_evidence (const Recapture *rc, const Totals *t, WsFinding *finding)
{
  gboolean steps = rc->pattern != NULL;

  ws_finding_add_evidence (finding, "iterations",
                           steps ? _ ("Steps") : _ ("Stretches between graph launches"),
                           WS_UNIT_COUNT, t->iterations);
  ws_finding_add_evidence (finding, "recapturing",
                           steps ? _ ("Steps that instantiate a graph")
                                 : _ ("Stretches that instantiate a graph"),
                           WS_UNIT_COUNT, t->recapturing);
  ws_finding_add_evidence (finding, "instantiations", _ ("Graph instantiations"), WS_UNIT_COUNT,
                           t->instantiations);
  ws_finding_add_evidence (finding, "instantiations_per_iteration",
                           steps ? _ ("Instantiations per step") : _ ("Instantiations per launch"),
                           WS_UNIT_RATIO, (double) t->instantiations / (double) t->iterations);
  if (t->graphs > 0)
    ws_finding_add_evidence (finding, "graphs", _ ("Graphs replayed"), WS_UNIT_COUNT, t->graphs);
  ws_finding_add_evidence (finding, "capture_ns", _ ("Capture, median"), WS_UNIT_NS,
                           t->median_capture);
  ws_finding_add_evidence (finding, "instantiate_ns", _ ("Instantiation, median"), WS_UNIT_NS,
                           t->median_instantiate);
  ws_finding_add_evidence (finding, "setup_ns", _ ("Capture and instantiation, median"), WS_UNIT_NS,
                           t->median_setup);
  ws_finding_add_evidence (finding, "replay_ns",
                           steps ? _ ("Replay time per step, median")
                                 : _ ("Replay time per launch, median"),
                           WS_UNIT_NS, t->median_replay);
  ws_finding_add_evidence (finding, "iteration_ns",
                           steps ? _ ("Step, median") : _ ("Stretch, median"), WS_UNIT_NS,
                           t->median_wall);
  ws_finding_add_evidence (finding, "setup_time_ns", _ ("Time capturing and instantiating"),
                           WS_UNIT_NS, t->setup);
  ws_finding_add_evidence (finding, "setup_share_pct", _ ("Share of the time"), WS_UNIT_PERCENT,
                           t->share);
}

void
ws_findings_check_recapture (WsFindingsCtx *ctx, GPtrArray *findings)
{
  const WsRun *run = ctx->run;
  g_autofree guint8 *kinds = NULL;
  g_autoptr (GArray) iterations = g_array_new (FALSE, FALSE, sizeof (Iteration));
  g_autoptr (WsFinding) finding = ws_finding_new (WS_FINDING_GRAPH_RECAPTURE);
  g_autoptr (WsNvtxCollector) nvtx = ws_nvtx_collector_new (ctx);
  g_autofree char *place = NULL;
  Recapture rc = { NULL, WS_PID_ANY, iterations, NULL };
  Totals t = { 0 };

  /* No replay, no graph launched: nothing to look for. */
  if (run->replays.n == 0 || run->api.n == 0 || run->api.thread == NULL)
    return;
  kinds = ws_findings_graph_calls (ctx);
  rc.kinds = kinds;
  rc.pid = launching_process (ctx, kinds);
  if (rc.pid == WS_PID_ANY)
    return;
  find_iterations (ctx, &rc);
  count_setup_calls (ctx, &rc, finding, nvtx);
  t.graphs = count_replays (ctx, &rc);
  add_up (&rc, &t);
  if (t.recapturing < RECAPTURE_MIN || 100.0 * t.recapturing / t.iterations < RECAPTURE_MIN_PCT)
    {
      g_free (rc.pattern);
      return;
    }

  ws_findings_bands_judge (WS_FINDINGS_BANDS_RECAPTURE, t.share, &finding->severity);
  finding->cost = t.setup;
  for (gsize i = 0; i < run->api.n && place == NULL; i++)
    if (kinds[i] == WS_GRAPH_CALL_INSTANTIATE && ws_run_index_api_pid (ctx->index, i) == rc.pid &&
        iteration_at (iterations, run->api.start[i]) != NULL)
      place = ws_findings_place (ctx, run->api.thread[i], run->api.start[i]);
  describe_recapture (&rc, &t, place, finding);
  add_recapture_evidence (&rc, &t, finding);
  add_ranges (&rc, finding);
  g_free (rc.pattern);
  ws_nvtx_collector_finish (nvtx, finding);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}
