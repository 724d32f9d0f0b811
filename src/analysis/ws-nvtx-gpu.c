/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvtx-gpu"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-gpu-busy.h"
#include "ws-nvtx-gpu.h"
#include "ws-radix-sort.h"
#include "ws-stats.h"

#define NO_RANGE G_MAXUINT32

struct _WsNvtxGpu
{
  gatomicrefcount ref_count;
  WsRun *run;
  WsNvtxJoin *join;        /* NULL without kernels' launch calls */
  WsLaunchIndex *launches; /* the join's */
  gint64 *proj_start;      /* per range: G_MAXINT64 when it launched nothing */
  gint64 *proj_end;
  guint32 *ops;      /* per range: launch calls with GPU operations inside it */
  guint32 *parent;   /* per range: the innermost range of its thread that holds it */
  guint16 *level;    /* per range: how many ranges of its thread hold it */
  guint32 *children; /* per range: child ranges with GPU operations */
  gint64 *busy;      /* per range: ns with its process's GPU work running; NULL unmeasured */
};

/* The memory operations by launch call, for one pass in call order. */
typedef struct
{
  WsNvtxGpu *self;
  guint64 *calls;  /* sorted */
  guint32 *memops; /* the memory operation of each */
  gsize n;
  gsize next; /* the first not passed yet */
} Projection;

static void
sort_memops (Projection *p, const WsRun *run, WsLaunchIndex *launches)
{
  gboolean in_order = TRUE;

  p->calls = g_new (guint64, MAX (run->memops.n, 1));
  p->memops = g_new (guint32, MAX (run->memops.n, 1));
  for (gsize m = 0; run->memops.correlation != NULL && m < run->memops.n; m++)
    {
      gssize a = ws_launch_index_memop (launches, m);

      if (a < 0)
        continue;
      p->calls[p->n] = (guint64) a;
      p->memops[p->n] = (guint32) m;
      in_order = in_order && (p->n == 0 || p->calls[p->n - 1] <= (guint64) a);
      p->n++;
    }
  if (!in_order)
    ws_radix_sort (p->calls, p->memops, p->n);
}

/* The span of the GPU operations @call launched: kernels and, with them
 * in nsys's projection, memory operations. */
static void
project_call (gsize call, const guint32 *ranges, guint n, gpointer data)
{
  Projection *p = data;
  WsNvtxGpu *self = p->self;
  const WsRun *run = self->run;
  gint64 first = G_MAXINT64, last = G_MININT64;
  guint n_kernels;
  const guint32 *kernels = ws_nvtx_join_call_kernels (self->join, call, &n_kernels);

  for (guint i = 0; i < n_kernels; i++)
    {
      first = MIN (first, run->kernels.start[kernels[i]]);
      last = MAX (last, run->kernels.end[kernels[i]]);
    }
  while (p->next < p->n && p->calls[p->next] < call)
    p->next++;
  for (; p->next < p->n && p->calls[p->next] == call; p->next++)
    {
      first = MIN (first, run->memops.start[p->memops[p->next]]);
      last = MAX (last, run->memops.end[p->memops[p->next]]);
    }
  for (guint i = 0; i < n; i++)
    {
      guint32 r = ranges[i];

      self->proj_start[r] = MIN (self->proj_start[r], first);
      self->proj_end[r] = MAX (self->proj_end[r], last);
      self->ops[r]++;
    }
}

/* Ranges are sorted by start, an enclosing one first: a stack per thread
 * gives each range its innermost holder and its nesting level. */
static void
nest_ranges (WsNvtxGpu *self)
{
  const WsRun *run = self->run;
  const WsNvtxRanges *nv = &run->nvtx;
  guint n_threads = run->threads->len;
  g_autofree GArray **stacks = g_new0 (GArray *, MAX (n_threads, 1));

  for (gsize r = 0; r < nv->n; r++)
    {
      guint32 t = nv->thread[r];
      GArray *stack;
      guint32 me = (guint32) r;

      self->parent[r] = NO_RANGE;
      if (t >= n_threads)
        continue;
      if (stacks[t] == NULL)
        stacks[t] = g_array_new (FALSE, FALSE, sizeof (guint32));
      stack = stacks[t];
      while (stack->len > 0 && nv->end[g_array_index (stack, guint32, stack->len - 1)] < nv->end[r])
        g_array_set_size (stack, stack->len - 1);
      if (stack->len > 0)
        self->parent[r] = g_array_index (stack, guint32, stack->len - 1);
      self->level[r] = (guint16) MIN (stack->len, G_MAXUINT16);
      g_array_append_val (stack, me);
    }
  for (guint t = 0; t < n_threads; t++)
    if (stacks[t] != NULL)
      g_array_unref (stacks[t]);
}

static void
measure_busy (WsNvtxGpu *self)
{
  const WsRun *run = self->run;
  g_autoptr (GHashTable) indices =
    g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) ws_busy_index_free);

  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      guint32 pid = ws_run_thread_pid (run, run->nvtx.thread[r]);
      WsBusyIndex *index;

      /* A range of no known thread has no process to be busy. */
      if (pid == G_MAXUINT32)
        continue;
      index = g_hash_table_lookup (indices, GUINT_TO_POINTER (pid + 1));
      if (index == NULL)
        {
          index = ws_busy_index_new (run, pid, WS_BUSY_ALL);
          g_hash_table_insert (indices, GUINT_TO_POINTER (pid + 1), index);
        }
      self->busy[r] = ws_busy_index_busy (index, run->nvtx.start[r], run->nvtx.end[r]);
    }
}

static WsNvtxGpu *
nvtx_gpu_new (WsNvtxJoin *join, gboolean busy)
{
  WsNvtxGpu *self;
  const WsRun *run;
  gsize nr, na;

  run = ws_launch_index_get_run (ws_nvtx_join_get_launches (join));
  nr = run->nvtx.n;
  na = run->api.n;
  self = g_new0 (WsNvtxGpu, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->run = ws_run_ref ((WsRun *) run);
  self->proj_start = g_new (gint64, MAX (nr, 1));
  self->proj_end = g_new (gint64, MAX (nr, 1));
  self->ops = g_new0 (guint32, MAX (nr, 1));
  self->parent = g_new (guint32, MAX (nr, 1));
  self->level = g_new0 (guint16, MAX (nr, 1));
  self->children = g_new0 (guint32, MAX (nr, 1));
  self->busy = busy ? g_new0 (gint64, MAX (nr, 1)) : NULL;
  for (gsize r = 0; r < nr; r++)
    {
      self->proj_start[r] = G_MAXINT64;
      self->proj_end[r] = G_MININT64;
    }
  if (nr == 0)
    return self;

  nest_ranges (self);
  if (busy)
    measure_busy (self);
  /* nsys projects kernels and, with them, memory operations. */
  if (na > 0 && run->api.correlation != NULL && run->api.thread != NULL &&
      run->kernels.correlation != NULL && run->kernels.stream != NULL)
    {
      Projection p = { self };

      self->join = ws_nvtx_join_ref (join);
      self->launches = ws_nvtx_join_get_launches (join);
      sort_memops (&p, run, self->launches);
      ws_nvtx_join_foreach (join, project_call, &p);
      g_free (p.calls);
      g_free (p.memops);
    }
  for (gsize r = 0; r < nr; r++)
    if (self->ops[r] > 0 && self->parent[r] != NO_RANGE)
      self->children[self->parent[r]]++;
  return self;
}

/**
 * ws_nvtx_gpu_new_for_join:
 * @join: the run's NVTX → GPU join
 *
 * Projects every NVTX range of the join's run onto the GPU both ways.
 * Safe on a worker thread; O(n) plus the ranges open at each launch.
 *
 * Returns: (transfer full): the figures
 */
WsNvtxGpu *
ws_nvtx_gpu_new_for_join (WsNvtxJoin *join)
{
  g_return_val_if_fail (join != NULL, NULL);

  return nvtx_gpu_new (join, TRUE);
}

static WsNvtxGpu *
nvtx_gpu_new_for_run (const WsRun *run, gboolean busy)
{
  g_autoptr (WsLaunchIndex) launches = ws_launch_index_new (run);
  g_autoptr (WsNvtxJoin) join = ws_nvtx_join_new (launches);

  return nvtx_gpu_new (join, busy);
}

/**
 * ws_nvtx_gpu_new:
 *
 * As ws_nvtx_gpu_new_for_join(), with a launch index and join of its own.
 *
 * Returns: (transfer full): the figures
 */
WsNvtxGpu *
ws_nvtx_gpu_new (const WsRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);

  return nvtx_gpu_new_for_run (run, TRUE);
}

/**
 * ws_nvtx_gpu_new_projected:
 *
 * As ws_nvtx_gpu_new(), without the busy figure (the nsys reports, which
 * do not show it, spare its pass over every kernel): ws_nvtx_gpu_busy()
 * is not to be asked.
 *
 * Returns: (transfer full): the figures
 */
WsNvtxGpu *
ws_nvtx_gpu_new_projected (const WsRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);

  return nvtx_gpu_new_for_run (run, FALSE);
}

/**
 * ws_nvtx_gpu_ref:
 *
 * Returns: (transfer full): @self
 */
WsNvtxGpu *
ws_nvtx_gpu_ref (WsNvtxGpu *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_nvtx_gpu_unref (WsNvtxGpu *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->proj_start);
  g_free (self->proj_end);
  g_free (self->ops);
  g_free (self->parent);
  g_free (self->level);
  g_free (self->children);
  g_free (self->busy);
  if (self->join != NULL)
    ws_nvtx_join_unref (self->join);
  ws_run_unref (self->run);
  g_free (self);
}

/**
 * ws_nvtx_gpu_projected:
 * @start: (out) (optional): ns: the first GPU operation's start
 * @end: (out) (optional): ns: the last one's end
 *
 * Returns: whether @range launched GPU work
 */
gboolean
ws_nvtx_gpu_projected (const WsNvtxGpu *self, gsize range, gint64 *start, gint64 *end)
{
  g_return_val_if_fail (self != NULL && range < self->run->nvtx.n, FALSE);

  if (self->ops[range] == 0)
    return FALSE;
  if (start != NULL)
    *start = self->proj_start[range];
  if (end != NULL)
    *end = self->proj_end[range];
  return TRUE;
}

/* ns: the span of the GPU work launched from @range; 0 when none. */
gint64
ws_nvtx_gpu_projection (const WsNvtxGpu *self, gsize range)
{
  g_return_val_if_fail (self != NULL && range < self->run->nvtx.n, 0);

  return self->ops[range] > 0 ? self->proj_end[range] - self->proj_start[range] : 0;
}

/* The launch calls inside @range that started GPU work. */
guint32
ws_nvtx_gpu_ops (const WsNvtxGpu *self, gsize range)
{
  g_return_val_if_fail (self != NULL && range < self->run->nvtx.n, 0);

  return self->ops[range];
}

guint16
ws_nvtx_gpu_level (const WsNvtxGpu *self, gsize range)
{
  g_return_val_if_fail (self != NULL && range < self->run->nvtx.n, 0);

  return self->level[range];
}

guint32
ws_nvtx_gpu_children (const WsNvtxGpu *self, gsize range)
{
  g_return_val_if_fail (self != NULL && range < self->run->nvtx.n, 0);

  return self->children[range];
}

/* ns of @range during which its process had GPU work running. */
gint64
ws_nvtx_gpu_busy (const WsNvtxGpu *self, gsize range)
{
  g_return_val_if_fail (self != NULL && self->busy != NULL && range < self->run->nvtx.n, 0);

  return self->busy[range];
}

/**
 * ws_nvtx_range_label:
 * @range: an index into the run's NVTX ranges
 *
 * Returns: (transfer full): "domain:name", as the nsys reports name a range
 */
char *
ws_nvtx_range_label (const WsRun *run, gsize range)
{
  return g_strdup_printf ("%s:%s", ws_run_nvtx_domain_name (run, run->nvtx.domain[range]),
                          ws_run_string (run, run->nvtx.name[range]));
}

/* Returns: (transfer none): "StartEnd" or "PushPop" */
const char *
ws_nvtx_range_style (const WsRun *run, gsize range)
{
  return run->nvtx.style[range] == WS_NVTX_START_END ? "StartEnd" : "PushPop";
}

/* The key of the nsys reports' groups of ranges: name, domain and style. */
guint64
ws_nvtx_range_group_key (const WsRun *run, gsize range)
{
  return ((guint64) run->nvtx.name[range] << 17) | ((guint64) run->nvtx.domain[range] << 1) |
         (run->nvtx.style[range] & 1);
}

/**
 * ws_nvtx_gpu_get_run:
 *
 * Returns: (transfer none): the run the figures are of
 */
const WsRun *
ws_nvtx_gpu_get_run (const WsNvtxGpu *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->run;
}

/**
 * ws_nvtx_gpu_get_join:
 *
 * Returns: (transfer none) (nullable): the join the figures were projected
 * with, or %NULL when the run has no launch calls to join
 */
WsNvtxJoin *
ws_nvtx_gpu_get_join (const WsNvtxGpu *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->join;
}

static void
proj_row_clear (gpointer data)
{
  WsNvtxProjRow *row = data;

  g_free (row->name);
}

static int
compare_proj_rows (gconstpointer a, gconstpointer b)
{
  const WsNvtxProjRow *x = a, *y = b;
  int c;

  if (x->proj_total != y->proj_total)
    return x->proj_total > y->proj_total ? -1 : 1;
  c = strcmp (x->name, y->name);
  return c != 0 ? c : strcmp (x->style, y->style);
}

/**
 * ws_nvtx_gpu_proj_sum:
 *
 * The ranges that launched GPU work, summed per name and style as
 * `nsys stats --report nvtx_gpu_proj_sum` sums them: most projected time
 * first, then by name.
 *
 * Returns: (transfer full) (element-type WsNvtxProjRow): the rows
 */
GArray *
ws_nvtx_gpu_proj_sum (const WsNvtxGpu *self)
{
  const WsRun *run = self->run;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (WsNvtxProjRow));
  g_autoptr (GHashTable) groups = g_hash_table_new (ws_int64_hash, g_int64_equal);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree guint32 *group = g_new (guint32, MAX (run->nvtx.n, 1));
  g_autofree gsize *offset = NULL;
  g_autofree gint64 *values = NULL;
  g_autofree gsize *fill = NULL;
  guint n_groups;

  g_array_set_clear_func (rows, proj_row_clear);
  /* Keys live in @keys, grown to its final size first so that the table's
   * pointers into it stay valid. */
  g_array_set_size (keys, run->nvtx.n);
  n_groups = 0;
  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      gpointer found;

      group[r] = G_MAXUINT32;
      if (self->ops[r] == 0)
        continue;
      g_array_index (keys, guint64, r) = ws_nvtx_range_group_key (run, r);
      found = g_hash_table_lookup (groups, &g_array_index (keys, guint64, r));
      if (found == NULL)
        {
          WsNvtxProjRow row = { 0 };

          row.name = ws_nvtx_range_label (run, r);
          row.style = ws_nvtx_range_style (run, r);
          g_array_append_val (rows, row);
          found = GUINT_TO_POINTER (++n_groups);
          g_hash_table_insert (groups, &g_array_index (keys, guint64, r), found);
        }
      group[r] = GPOINTER_TO_UINT (found) - 1;
    }

  /* The projected durations, partitioned by group, for the medians. */
  offset = g_new0 (gsize, n_groups + 1);
  fill = g_new0 (gsize, n_groups + 1);
  values = g_new (gint64, MAX (run->nvtx.n, 1));
  for (gsize r = 0; r < run->nvtx.n; r++)
    if (group[r] != G_MAXUINT32)
      offset[group[r] + 1]++;
  for (guint g = 0; g < n_groups; g++)
    offset[g + 1] += offset[g];
  memcpy (fill, offset, sizeof (gsize) * (n_groups + 1));
  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      WsNvtxProjRow *row;

      if (group[r] == G_MAXUINT32)
        continue;
      row = &g_array_index (rows, WsNvtxProjRow, group[r]);
      values[fill[group[r]]++] = self->proj_end[r] - self->proj_start[r];
      row->range_total = ws_time_add (row->range_total, run->nvtx.end[r] - run->nvtx.start[r]);
      row->ops += self->ops[r];
      row->avg_level += self->level[r];
      row->avg_children += self->children[r];
    }
  for (guint g = 0; g < n_groups; g++)
    {
      WsNvtxProjRow *row = &g_array_index (rows, WsNvtxProjRow, g);
      WsGroupStats stats;

      ws_group_stats (values + offset[g], offset[g + 1] - offset[g], &stats);
      row->instances = stats.count;
      row->proj_total = stats.total;
      row->proj_avg = stats.avg;
      row->proj_med = stats.med;
      row->proj_min = stats.min;
      row->proj_max = stats.max;
      row->proj_stddev = stats.stddev;
      row->avg_ops = (double) row->ops / (double) stats.count;
      row->avg_level /= (double) stats.count;
      row->avg_children /= (double) stats.count;
    }
  g_array_sort (rows, compare_proj_rows);
  return rows;
}
