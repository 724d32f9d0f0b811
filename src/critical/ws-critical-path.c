/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-critical"
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-critical-path.h"
#include "ws-format.h"
#include "ws-ranks.h"
#include "ws-run-index.h"
#include "ws-steps.h"

static const char *const kind_names[WS_CP_N_KINDS] = {
  "compute", "communication", "launch", "host", "sync",
};

const char *
ws_cp_kind_name (WsCpKind kind)
{
  return kind < WS_CP_N_KINDS ? kind_names[kind] : "";
}

const char *
ws_cp_kind_label (WsCpKind kind)
{
  switch (kind)
    {
      case WS_CP_COMPUTE:
        return _ ("GPU compute");
      case WS_CP_COMM:
        return _ ("Communication");
      case WS_CP_LAUNCH:
        return _ ("Host launch");
      case WS_CP_HOST:
        return _ ("Host other");
      case WS_CP_SYNC:
        return _ ("Waiting on a sync");
      default:
        return "";
    }
}

/**
 * ws_critical_path_simulate:
 * @graph: the graph
 * @weights: one weight per edge (the graph's own, or changed)
 * @sim: (out caller-allocates): one time per point
 *
 * Replays @graph: each point happens at the latest of its sources plus
 * their edges' weights (a weight that does not bind kept to its cap), a
 * point with no edge into it at its measured time.
 */
void
ws_critical_path_simulate (const WsCpGraph *graph, const gint64 *weights, gint64 *sim)
{
  for (gsize i = 0; i < graph->n_points; i++)
    {
      guint32 p = graph->order[i];
      gint64 best = G_MININT64;

      for (gsize e = graph->first[p]; e < graph->first[p + 1]; e++)
        best = MAX (best, sim[graph->src[e]] + MIN (weights[e], graph->cap[e]));
      sim[p] = graph->first[p] == graph->first[p + 1] ? graph->t[p] : best;
    }
}

/* What a path's edge into @p is. */
static WsCpKind
segment_kind (const WsCpGraph *g, guint32 src, guint32 p, WsCpEdge edge)
{
  const WsRun *run = g->run;
  gboolean nccl_dst =
    g->kind[p] == WS_CP_OP_START || g->kind[p] == WS_CP_OP_END ? g->op_nccl[g->index[p]] : FALSE;

  switch (edge)
    {
      case WS_CP_EDGE_CHAIN:
        if (g->kind[p] == WS_CP_API_END && g->kind[src] == WS_CP_API_START &&
            g->index[p] == g->index[src])
          return g->api_role[g->index[p]] == WS_CP_ROLE_LAUNCH ? WS_CP_LAUNCH
                 : g->api_role[g->index[p]] == WS_CP_ROLE_SYNC ? WS_CP_SYNC
                                                               : WS_CP_HOST;
        if (g->kind[p] == WS_CP_OSRT_END && g->kind[src] == WS_CP_OSRT_START)
          return WS_CP_SYNC;
        if (g->kind[p] == WS_CP_NVTX_END &&
            ws_cp_is_collective_range (ws_run_string (run, run->nvtx.name[g->index[p]])))
          return WS_CP_COMM;
        return WS_CP_HOST;
      case WS_CP_EDGE_LAUNCH:
        return WS_CP_LAUNCH;
      case WS_CP_EDGE_STREAM:
      case WS_CP_EDGE_DURATION:
        return nccl_dst ? WS_CP_COMM : WS_CP_COMPUTE;
      case WS_CP_EDGE_ARRIVAL:
      case WS_CP_EDGE_COLLECTIVE:
        return WS_CP_COMM;
      default:
        return WS_CP_SYNC;
    }
}

/* The path of a step: from its end back along the binding edges, until a
 * source at or before its start. */
static void
walk (const WsCpGraph *g, const gint64 *weights, const gint64 *sim, guint32 end, gint64 start,
      GArray *segments)
{
  guint32 p = end;

  while (sim[p] > start)
    {
      gssize best = -1;
      gint64 best_at = G_MININT64;
      WsCpSegment s = { 0 };

      for (gsize e = g->first[p]; e < g->first[p + 1]; e++)
        {
          gint64 at = sim[g->src[e]] + MIN (weights[e], g->cap[e]);

          /* Ties go to the latest source: the most recent dependency. */
          if (best < 0 || at > best_at || (at == best_at && sim[g->src[e]] > sim[g->src[best]]))
            {
              best = (gssize) e;
              best_at = at;
            }
        }
      s.dst = p;
      s.end = sim[p];
      if (best < 0)
        {
          s.src = p;
          s.start = start;
          s.edge = WS_CP_N_EDGES;
          s.kind = WS_CP_HOST;
          g_array_append_val (segments, s);
          break;
        }
      s.src = g->src[best];
      s.start = MAX (sim[s.src], start);
      s.edge = g->edge[best];
      s.kind = segment_kind (g, s.src, p, s.edge);
      g_array_append_val (segments, s);
      p = s.src;
    }
}

/* Each job step: the ranks' ranges of one number. */
typedef struct
{
  guint number;
  gboolean warm;
  GArray *ends; /* guint32 pairs: start and end point per rank that has it */
} JobStep;

static int
compare_numbers (gconstpointer a, gconstpointer b)
{
  const JobStep *x = a, *y = b;

  return x->number < y->number ? -1 : x->number > y->number;
}

static GArray *
job_steps (const WsCpGraph *g)
{
  g_autoptr (WsSteps) steps = ws_steps_compute (g->run, &(WsStepsOptions){ NULL, WS_PID_ANY });
  g_autoptr (GHashTable) by_number = g_hash_table_new (NULL, NULL);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (JobStep));

  for (guint i = 0; i < steps->steps->len; i++)
    {
      const WsStep *s = &g_array_index (steps->steps, WsStep, i);
      guint32 pair[2] = { g->nvtx_start[s->range], g->nvtx_end[s->range] };
      gpointer at;
      JobStep *js;

      if (pair[0] == G_MAXUINT32)
        continue;
      if (!g_hash_table_lookup_extended (by_number, GUINT_TO_POINTER (s->number), NULL, &at))
        {
          JobStep fresh = { s->number, FALSE, g_array_new (FALSE, FALSE, sizeof (guint32)) };

          g_array_append_val (out, fresh);
          at = GUINT_TO_POINTER (out->len);
          g_hash_table_insert (by_number, GUINT_TO_POINTER (s->number), at);
        }
      js = &g_array_index (out, JobStep, GPOINTER_TO_UINT (at) - 1);
      js->warm = js->warm || s->warmup;
      g_array_append_vals (js->ends, pair, 2);
    }
  g_array_sort (out, compare_numbers);
  return out;
}

static void
free_job_steps (GArray *steps)
{
  for (guint i = 0; i < steps->len; i++)
    g_array_unref (g_array_index (steps, JobStep, i).ends);
  g_array_unref (steps);
}

static char *
share_text (double part, double whole)
{
  return ws_format_percent_short (whole > 0 ? 100.0 * part / whole : 0);
}

/* A job step's time from @sim: the mean of its ranks' step ranges (in a
 * job that meets at collectives they agree to the ranks' skew; one rank
 * running a little ahead in one step and behind in the next does not
 * move it), and which rank's range is the longest. */
static gint64
step_time (const JobStep *js, const gint64 *sim, guint *which)
{
  gint64 longest = G_MININT64;
  double sum = 0;
  guint n = 0;

  for (guint k = 0; k + 1 < js->ends->len; k += 2)
    {
      gint64 t =
        sim[g_array_index (js->ends, guint32, k + 1)] - sim[g_array_index (js->ends, guint32, k)];

      sum += (double) t;
      n++;
      if (t > longest)
        {
          longest = t;
          if (which != NULL)
            *which = k;
        }
    }
  return n > 0 ? (gint64) (sum / n + 0.5) : 0;
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static double
median_i64 (GArray *values)
{
  guint n = values->len;

  if (n == 0)
    return 0;
  g_array_sort (values, compare_i64);
  if (n % 2 == 1)
    return (double) g_array_index (values, gint64, n / 2);
  return ((double) g_array_index (values, gint64, n / 2 - 1) +
          (double) g_array_index (values, gint64, n / 2)) /
         2.0;
}

static void
free_item (gpointer data)
{
  WsCpItem *item = data;

  g_free (item->name);
  g_free (item);
}

static WsCpItem *
item_for (GHashTable *items, GPtrArray *list, const char *name)
{
  WsCpItem *item = g_hash_table_lookup (items, name);

  if (item == NULL)
    {
      item = g_new0 (WsCpItem, 1);
      item->name = g_strdup (name);
      g_ptr_array_add (list, item);
      g_hash_table_insert (items, item->name, item);
    }
  return item;
}

static const char *
op_name (const WsCpGraph *g, guint32 op)
{
  const WsRun *run = g->run;
  guint32 i = g->op_index[op];

  if (g->op_table[op] == WS_CP_OP_KERNEL)
    {
      const char *name = ws_run_kernel_name (run, i, WS_NAME_DEMANGLED);

      return name != NULL ? ws_run_kernel_display (run, name) : "?";
    }
  if (g->op_table[op] == WS_CP_OP_REPLAY)
    return "[CUDA graph replay]";
  return run->memops.kind[i] == WS_MEMOP_MEMSET ? "[CUDA memset]" : "[CUDA memcpy]";
}

/* The operation a segment's time is of, or -1. */
static gssize
segment_op (const WsCpGraph *g, const WsCpSegment *s)
{
  if ((s->edge == WS_CP_EDGE_DURATION || s->edge == WS_CP_EDGE_COLLECTIVE ||
       s->edge == WS_CP_EDGE_STREAM || s->edge == WS_CP_EDGE_LAUNCH) &&
      (g->kind[s->dst] == WS_CP_OP_START || g->kind[s->dst] == WS_CP_OP_END))
    return g->index[s->dst];
  return -1;
}

/**
 * ws_cp_segment_name:
 *
 * Returns: (transfer full): what a segment of the path is: the kernel, the
 * call, or the kind of host time
 */
char *
ws_cp_segment_name (const WsCriticalPath *self, const WsCpSegment *s)
{
  const WsCpGraph *g = self->graph;
  gssize op = segment_op (g, s);

  if (op >= 0)
    return g_strdup (op_name (g, (guint32) op));
  if (g->kind[s->dst] == WS_CP_API_END || g->kind[s->dst] == WS_CP_API_START)
    return g_strdup (ws_run_string (g->run, g->run->api.name[g->index[s->dst]]));
  if (g->kind[s->dst] == WS_CP_OSRT_END || g->kind[s->dst] == WS_CP_OSRT_START)
    return g_strdup (ws_run_string (g->run, g->run->osrt.name[g->index[s->dst]]));
  if (g->kind[s->dst] == WS_CP_NVTX_END || g->kind[s->dst] == WS_CP_NVTX_START)
    return g_strdup (ws_run_string (g->run, g->run->nvtx.name[g->index[s->dst]]));
  return g_strdup (ws_cp_kind_label (s->kind));
}

/* The innermost range that is not a step open on @thread at @time (run
 * clock), or NULL. */
static const char *
range_at (const WsCpGraph *g, const WsRunIndex *index, GHashTable *step_ranges, gint thread,
          gint64 time)
{
  guint32 open[16];
  guint n;

  if (thread < 0)
    return NULL;
  n = ws_run_index_nvtx_at (index, (guint32) thread, time, open, G_N_ELEMENTS (open));
  for (guint i = 0; i < n; i++)
    if (!g_hash_table_contains (step_ranges, GUINT_TO_POINTER (open[i])))
      return ws_run_string (g->run, g->run->nvtx.name[open[i]]);
  return NULL;
}

/* Where a segment's time is: the innermost range of the host point, or of
 * the launch of a GPU operation. */
static const char *
segment_range (const WsCpGraph *g, const WsRunIndex *index, GHashTable *step_ranges,
               const WsCpSegment *s)
{
  gssize op = segment_op (g, s);
  guint32 p = s->dst;

  if (op >= 0 || g->kind[p] == WS_CP_OP_START || g->kind[p] == WS_CP_OP_END)
    {
      gssize c = g->op_launch[op >= 0 ? (guint32) op : g->index[p]];

      if (c < 0)
        return NULL;
      return range_at (g, index, step_ranges, (gint) g->run->api.thread[c], g->run->api.start[c]);
    }
  if (g->kind[p] == WS_CP_MEETING)
    return NULL;
  /* A host part is where it ends: the call or wait it leads to. */
  return range_at (g, index, step_ranges, ws_cp_graph_point_thread (g, p),
                   s->end - (s->end > s->start ? 1 : 0) - g->shift[g->rank[p]]);
}

static int
compare_items (gconstpointer a, gconstpointer b)
{
  const WsCpItem *x = *(WsCpItem *const *) a, *y = *(WsCpItem *const *) b;

  if (x->on_path != y->on_path)
    return x->on_path > y->on_path ? -1 : 1;
  if (x->busy != y->busy)
    return x->busy > y->busy ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* Per rank, the steady steps' spans on the job's clock, by start. */
static GArray **
steady_spans (const WsCriticalPath *self, const GArray *jobs)
{
  const WsCpGraph *g = self->graph;
  GArray **spans = g_new0 (GArray *, g->n_ranks);

  for (guint r = 0; r < g->n_ranks; r++)
    spans[r] = g_array_new (FALSE, FALSE, sizeof (gint64) * 2);
  for (guint i = 0; i < jobs->len; i++)
    {
      const JobStep *js = &g_array_index (jobs, JobStep, i);

      if (js->warm)
        continue;
      for (guint k = 0; k + 1 < js->ends->len; k += 2)
        {
          guint32 a = g_array_index (js->ends, guint32, k);
          gint64 span[2] = { g->t[a], g->t[g_array_index (js->ends, guint32, k + 1)] };

          g_array_append_vals (spans[g->rank[a]], span, 1);
        }
    }
  for (guint r = 0; r < g->n_ranks; r++)
    g_array_sort (spans[r], compare_i64);
  return spans;
}

static gboolean
in_spans (const GArray *spans, gint64 t)
{
  gsize lo = 0, hi = spans->len;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (g_array_index (spans, gint64, 2 * mid) <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 && t < g_array_index (spans, gint64, 2 * (lo - 1) + 1);
}

/* The tables: time on the steady steps' paths, and what each kernel,
 * range and rank did in those steps. */
static void
tabulate (WsCriticalPath *self, const GArray *jobs)
{
  const WsCpGraph *g = self->graph;
  const WsRun *run = g->run;
  g_autoptr (WsRunIndex) index = ws_run_index_new (run);
  g_autoptr (GHashTable) kernels = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) ranges = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) step_ranges = g_hash_table_new (NULL, NULL);
  GArray **spans;
  double n = MAX (self->n_steady, 1);

  self->kernels = g_ptr_array_new_with_free_func (free_item);
  self->ranges = g_ptr_array_new_with_free_func (free_item);
  self->ranks = g_ptr_array_new_with_free_func (free_item);
  for (guint r = 0; r < g->n_ranks; r++)
    {
      WsCpItem *item = g_new0 (WsCpItem, 1);

      item->name = run->ranks != NULL && ws_ranks_get_n (run->ranks) > r
                     ? g_strdup_printf ("%u", ws_ranks_get (run->ranks, r)->rank)
                     : g_strdup ("0");
      g_ptr_array_add (self->ranks, item);
    }
  for (gsize i = 0; i < run->nvtx.n; i++)
    if (g->nvtx_start[i] != G_MAXUINT32 &&
        !ws_cp_is_collective_range (ws_run_string (run, run->nvtx.name[i])))
      g_hash_table_add (step_ranges, GUINT_TO_POINTER (i));

  for (guint i = 0; i < self->steps->len; i++)
    {
      const WsCpStep *st = &g_array_index (self->steps, WsCpStep, i);

      if (!st->steady)
        continue;
      for (guint k = 0; k < st->n; k++)
        {
          const WsCpSegment *s = &g_array_index (self->segments, WsCpSegment, st->first + k);
          double len = (double) (s->end - s->start) / n;
          gssize op = segment_op (g, s);
          const char *range;

          self->by_kind[s->kind] += len;
          ((WsCpItem *) g_ptr_array_index (self->ranks, g->rank[s->dst]))->on_path += len;
          if (op >= 0 && s->edge != WS_CP_EDGE_STREAM && s->edge != WS_CP_EDGE_LAUNCH)
            item_for (kernels, self->kernels, op_name (g, (guint32) op))->on_path += len;
          range = segment_range (g, index, step_ranges, s);
          item_for (ranges, self->ranges, range != NULL ? range : _ ("(no range)"))->on_path += len;
        }
    }

  /* What ran in the steady steps, on or off the path. */
  spans = steady_spans (self, jobs);
  for (guint32 op = 0; op < g->n_ops; op++)
    {
      guint32 a = g->op_start[op];

      if (in_spans (spans[g->rank[a]], g->t[a]))
        item_for (kernels, self->kernels, op_name (g, op))->busy +=
          (double) (g->t[g->op_end[op]] - g->t[a]) / n;
    }
  for (gsize i = 0; i < run->nvtx.n; i++)
    {
      guint32 thread = run->nvtx.thread[i];
      guint r;
      gint64 shift;

      if (g_hash_table_contains (step_ranges, GUINT_TO_POINTER (i)) ||
          g->host_first[thread] == g->host_first[thread + 1])
        continue;
      r = g->rank[g->host[g->host_first[thread]]];
      shift = g->shift[r];
      if (in_spans (spans[r], run->nvtx.start[i] + shift))
        item_for (ranges, self->ranges, ws_run_string (run, run->nvtx.name[i]))->busy +=
          (double) (run->nvtx.end[i] - run->nvtx.start[i]) / n;
    }
  for (guint r = 0; r < g->n_ranks; r++)
    {
      WsCpItem *item = g_ptr_array_index (self->ranks, r);

      for (guint k = 0; k < spans[r]->len; k++)
        item->busy += (double) (g_array_index (spans[r], gint64, 2 * k + 1) -
                                g_array_index (spans[r], gint64, 2 * k)) /
                      n;
      g_array_unref (spans[r]);
    }
  g_free (spans);
  g_ptr_array_sort (self->kernels, compare_items);
  g_ptr_array_sort (self->ranges, compare_items);
}

/**
 * ws_critical_path_new:
 * @run: a run with CUDA API calls, GPU operations and steps
 * @cancellable: (nullable):
 *
 * Returns: (transfer full) (nullable): the path of every step, or %NULL
 * when cancelled
 */
WsCriticalPath *
ws_critical_path_new (const WsRun *run, GCancellable *cancellable)
{
  g_autoptr (WsCriticalPath) self = g_new0 (WsCriticalPath, 1);
  g_autofree gint64 *sim = NULL;
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  GArray *jobs;
  WsCpGraph *g;

  g_return_val_if_fail (run != NULL, NULL);

  self->graph = ws_cp_graph_new (run, cancellable);
  if (self->graph == NULL)
    return NULL;
  g = self->graph;
  self->steps = g_array_new (FALSE, FALSE, sizeof (WsCpStep));
  self->segments = g_array_new (FALSE, FALSE, sizeof (WsCpSegment));
  self->median = -1;
  sim = g_new (gint64, MAX (g->n_points, 1));
  ws_critical_path_simulate (g, g->w, sim);

  jobs = job_steps (g);
  for (guint i = 0; i < jobs->len; i++)
    {
      const JobStep *js = &g_array_index (jobs, JobStep, i);
      WsCpStep st = { 0 };
      guint which = 0;
      guint32 a, b;
      gint64 time = step_time (js, sim, &which);

      a = g_array_index (js->ends, guint32, which);
      b = g_array_index (js->ends, guint32, which + 1);
      st.number = js->number;
      st.time = time;
      st.steady = !js->warm;
      st.rank = g->rank[a];
      st.start = sim[a];
      st.end = sim[b];
      st.first = self->segments->len;
      walk (g, g->w, sim, b, sim[a], self->segments);
      st.n = self->segments->len - st.first;
      g_array_append_val (self->steps, st);
      if (st.steady)
        {
          self->n_steady++;
          g_array_append_val (times, time);
        }
      if (g_cancellable_is_cancelled (cancellable))
        {
          free_job_steps (jobs);
          return NULL;
        }
    }
  if (times->len > 0)
    {
      gint64 lower;

      self->median_time = median_i64 (times);
      self->min_time = g_array_index (times, gint64, 0);
      self->max_time = g_array_index (times, gint64, times->len - 1);
      lower = g_array_index (times, gint64, (times->len - 1) / 2);
      for (guint i = 0; i < self->steps->len && self->median < 0; i++)
        {
          const WsCpStep *st = &g_array_index (self->steps, WsCpStep, i);

          if (st->steady && st->time == lower)
            self->median = (gint) i;
        }
    }
  tabulate (self, jobs);
  free_job_steps (jobs);
  return g_steal_pointer (&self);
}

void
ws_critical_path_free (WsCriticalPath *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->graph, ws_cp_graph_free);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->segments, g_array_unref);
  g_clear_pointer (&self->kernels, g_ptr_array_unref);
  g_clear_pointer (&self->ranges, g_ptr_array_unref);
  g_clear_pointer (&self->ranks, g_ptr_array_unref);
  g_free (self);
}

/**
 * ws_critical_path_predict:
 * @self: the path
 * @changes: (array length=n): what to try, all at once
 * @out: (out caller-allocates): the steady steps' predicted times
 */
void
ws_critical_path_predict (const WsCriticalPath *self, WsWhatIf *const *changes, guint n,
                          WsCpPrediction *out)
{
  const WsCpGraph *g = self->graph;
  g_autofree gint64 *weights = g_memdup2 (g->w, sizeof (gint64) * MAX (g->n_edges, 1));
  g_autofree gint64 *sim = g_new (gint64, MAX (g->n_points, 1));
  g_autoptr (GArray) predicted = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) measured = g_array_new (FALSE, FALSE, sizeof (gint64));
  GArray *jobs;

  memset (out, 0, sizeof *out);
  for (guint i = 0; i < n; i++)
    out->touched += ws_what_if_apply (changes[i], g, weights);
  ws_critical_path_simulate (g, weights, sim);
  jobs = job_steps (g);
  for (guint i = 0; i < jobs->len; i++)
    {
      const JobStep *js = &g_array_index (jobs, JobStep, i);
      gint64 p, m;

      if (js->warm)
        continue;
      p = step_time (js, sim, NULL);
      m = step_time (js, g->t, NULL);
      g_array_append_val (predicted, p);
      g_array_append_val (measured, m);
    }
  free_job_steps (jobs);
  out->n_steps = predicted->len;
  if (predicted->len == 0)
    return;
  out->median = median_i64 (predicted);
  out->min = g_array_index (predicted, gint64, 0);
  out->max = g_array_index (predicted, gint64, predicted->len - 1);
  out->measured = median_i64 (measured);
}

/* The kernel that runs longest and the share of it that is on the path:
 * what making it faster can buy at most.  The CLI and the page say it. */
/**
 * ws_critical_path_busiest_text:
 *
 * Returns: (transfer full) (nullable): the sentence on the kernel that runs
 * longest and how much of it is on the path, or %NULL without kernels
 */
char *
ws_critical_path_busiest_text (const WsCriticalPath *cp)
{
  const WsCpItem *most = NULL;
  g_autofree char *busy = NULL;
  g_autofree char *on = NULL;
  double gpu = 0;

  for (guint i = 0; i < cp->kernels->len; i++)
    {
      const WsCpItem *item = g_ptr_array_index (cp->kernels, i);

      gpu += item->busy;
      if (most == NULL || item->busy > most->busy)
        most = item;
    }
  if (most == NULL || most->busy <= 0 || cp->median_time <= 0)
    return NULL;
  busy = share_text (most->busy, gpu);
  on = share_text (most->on_path, cp->median_time);
  return g_strdup_printf (_ ("%s runs longest (%s of the GPU time in the steady steps) and is %s "
                             "of the critical path: making it faster shortens a step by at most "
                             "that much."),
                          most->name, busy, on);
}

/**
 * ws_cp_prediction_text:
 * @change: the change as written ("all" for several at once)
 *
 * Returns: (transfer full): "what-if CHANGE: the step becomes …", the line
 * the CLI and the page print
 */
char *
ws_cp_prediction_text (const char *change, const WsCpPrediction *p)
{
  g_autofree char *pm = ws_format_duration (p->median);
  g_autofree char *pl = ws_format_duration ((double) p->min);
  g_autofree char *ph = ws_format_duration ((double) p->max);
  g_autofree char *mm = ws_format_duration (p->measured);

  return g_strdup_printf (
    _ ("what-if %s: the step becomes %s (%s–%s over %u steady steps), from %s"), change, pm, pl, ph,
    p->n_steps, mm);
}
