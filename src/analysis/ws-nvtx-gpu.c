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

static char *
range_name (const WsRun *run, gsize r)
{
  return g_strdup_printf ("%s:%s", ws_run_nvtx_domain_name (run, run->nvtx.domain[r]),
                          ws_run_string (run, run->nvtx.name[r]));
}

static const char *
range_style (const WsRun *run, gsize r)
{
  return run->nvtx.style[r] == WS_NVTX_START_END ? "StartEnd" : "PushPop";
}

static guint64
range_group_key (const WsRun *run, gsize r)
{
  return ((guint64) run->nvtx.name[r] << 17) | ((guint64) run->nvtx.domain[r] << 1) |
         (run->nvtx.style[r] & 1);
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
      g_array_index (keys, guint64, r) = range_group_key (run, r);
      found = g_hash_table_lookup (groups, &g_array_index (keys, guint64, r));
      if (found == NULL)
        {
          WsNvtxProjRow row = { 0 };

          row.name = range_name (run, r);
          row.style = range_style (run, r);
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

/* The kernel summary's pairs of a range and a kernel it holds (or a
 * kernel outside every range, range NO_RANGE), grouped by range name,
 * thread and kernel name.  Two passes over the same pairs: the first
 * finds each pair's group and counts the groups, the second puts each
 * pair's duration in its group's slice (12 bytes a pair, no sort). */
typedef struct
{
  guint32 range_group; /* NO_RANGE outside ranges */
  guint32 thread;      /* G_MAXUINT32 when the launch is unknown */
  guint32 kernel;      /* name id */
} GroupKey;

static guint
group_key_hash (gconstpointer p)
{
  const GroupKey *k = p;

  return (k->range_group * 2654435761u) ^ (k->thread * 40503u) ^ k->kernel;
}

static gboolean
group_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (GroupKey)) == 0;
}

typedef struct
{
  const WsNvtxGpu *self;
  WsNameForm form;
  gboolean filling;         /* the second pass */
  GHashTable *range_groups; /* range group key → index + 1 */
  GArray *range_first;      /* per range group: a range of it, for its name */
  guint32 *range_group;     /* per range: its range group, or NO_RANGE before it is known */
  GHashTable *groups;       /* GroupKey → index + 1 */
  GArray *group_keys;       /* GroupKey per group */
  guint32 last_group;       /* the group found last, or NO_RANGE: the next pair's, mostly */
  GArray *counts;           /* first pass: gsize per group, its pairs */
  gsize n_pairs;
  gsize *fill;      /* second pass: per group, where its next pair goes */
  gint64 *values;   /* durations, by group */
  guint32 *ranges;  /* the range of each value */
  guint8 *in_range; /* per kernel: held by some range */
} KernSum;

static guint32
group_for (KernSum *ks, guint32 range_group, guint32 thread, guint32 kernel)
{
  GroupKey key = { range_group, thread, kernel };
  gpointer found;

  if (ks->last_group != NO_RANGE &&
      group_key_equal (&key, &g_array_index (ks->group_keys, GroupKey, ks->last_group)))
    return ks->last_group;
  found = g_hash_table_lookup (ks->groups, &key);
  if (found == NULL)
    {
      g_array_append_val (ks->group_keys, key);
      found = GUINT_TO_POINTER (ks->group_keys->len);
      g_hash_table_insert (ks->groups, g_memdup2 (&key, sizeof key), found);
    }
  ks->last_group = GPOINTER_TO_UINT (found) - 1;
  return ks->last_group;
}

static guint32
range_group_for (KernSum *ks, guint32 r)
{
  guint64 key;
  gpointer found;

  if (ks->range_group[r] != NO_RANGE)
    return ks->range_group[r];
  key = range_group_key (ks->self->run, r);
  found = g_hash_table_lookup (ks->range_groups, &key);
  if (found == NULL)
    {
      g_array_append_val (ks->range_first, r);
      found = GUINT_TO_POINTER (ks->range_first->len);
      g_hash_table_insert (ks->range_groups, g_memdup2 (&key, sizeof key), found);
    }
  ks->range_group[r] = GPOINTER_TO_UINT (found) - 1;
  return ks->range_group[r];
}

/* One pair: counted in its group (first pass) or its duration placed in
 * the group's slice (second; the groups are all known by then). */
static void
add_pair (KernSum *ks, guint32 range, guint32 range_group, guint32 thread, gsize kernel)
{
  const WsRun *run = ks->self->run;
  guint32 g = group_for (ks, range_group, thread, ws_run_kernel_name_id (run, kernel, ks->form));

  if (!ks->filling)
    {
      if (g >= ks->counts->len)
        g_array_set_size (ks->counts, g + 1);
      g_array_index (ks->counts, gsize, g)++;
      ks->n_pairs++;
    }
  else
    {
      gsize at = ks->fill[g]++;

      ks->values[at] = run->kernels.end[kernel] - run->kernels.start[kernel];
      ks->ranges[at] = range;
    }
}

static void
kern_call (gsize call, const guint32 *ranges, guint n, gpointer data)
{
  KernSum *ks = data;
  const WsRun *run = ks->self->run;
  guint n_kernels;
  const guint32 *kernels = ws_nvtx_join_call_kernels (ks->self->join, call, &n_kernels);

  for (guint i = 0; i < n_kernels; i++)
    {
      ks->in_range[kernels[i]] = TRUE;
      for (guint j = 0; j < n; j++)
        add_pair (ks, ranges[j], range_group_for (ks, ranges[j]), run->api.thread[call],
                  kernels[i]);
    }
}

/* Every pair, in one order: the ranges' kernels, then the kernels outside. */
static void
pass_pairs (KernSum *ks)
{
  const WsNvtxGpu *self = ks->self;
  const WsRun *run = self->run;

  if (self->join != NULL)
    ws_nvtx_join_foreach (self->join, kern_call, ks);
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gssize a;

      if (ks->in_range[k])
        continue;
      a = self->launches != NULL ? ws_launch_index_kernel (self->launches, k) : -1;
      add_pair (ks, NO_RANGE, NO_RANGE, a >= 0 ? run->api.thread[a] : G_MAXUINT32, k);
    }
}

typedef struct
{
  guint32 range;
  guint32 seq;
  gint64 value;
} Ranged;

static int
compare_ranged (gconstpointer a, gconstpointer b)
{
  const Ranged *x = a, *y = b;

  if (x->range != y->range)
    return x->range < y->range ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Puts a group's values in range order, each range's in pass order (the
 * order the statistics sum in), and returns how many ranges it has. */
static guint32
order_by_range (gint64 *values, guint32 *ranges, gsize n)
{
  gboolean sorted = TRUE;
  guint32 count = 0;

  for (gsize i = 1; i < n && sorted; i++)
    sorted = ranges[i - 1] <= ranges[i];
  if (!sorted)
    {
      g_autofree Ranged *items = g_new (Ranged, n);

      for (gsize i = 0; i < n; i++)
        items[i] = (Ranged){ ranges[i], (guint32) i, values[i] };
      qsort (items, n, sizeof (Ranged), compare_ranged);
      for (gsize i = 0; i < n; i++)
        {
          ranges[i] = items[i].range;
          values[i] = items[i].value;
        }
    }
  for (gsize i = 0; i < n; i++)
    if (ranges[i] != NO_RANGE && (i == 0 || ranges[i - 1] != ranges[i]))
      count++;
  return count;
}

static void
kern_row_clear (gpointer data)
{
  WsNvtxKernRow *row = data;

  g_free (row->range);
}

static int
compare_kern_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsRun *run = data;
  const WsNvtxKernRow *x = a, *y = b;
  int c;

  /* Kernels outside ranges (NULL) first, as SQLite sorts NULL. */
  if ((x->range == NULL) != (y->range == NULL))
    return x->range == NULL ? -1 : 1;
  if (x->range != NULL && (c = strcmp (x->range, y->range)) != 0)
    return c;
  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  /* nsys groups by kernel name last, and its sort keeps that order for
   * equal totals. */
  return strcmp (ws_run_string (run, x->kernel), ws_run_string (run, y->kernel));
}

/* The row of group @g, whose values are @values. */
static WsNvtxKernRow
kern_row (const KernSum *ks, guint g, gint64 *values, gsize n, guint32 n_ranges)
{
  const WsRun *run = ks->self->run;
  const GroupKey *key = &g_array_index (ks->group_keys, GroupKey, g);
  WsNvtxKernRow row = { 0 };
  WsGroupStats stats;

  ws_group_stats (values, n, &stats);
  row.ranges = n_ranges;
  if (key->range_group != NO_RANGE)
    {
      guint32 r = g_array_index (ks->range_first, guint32, key->range_group);

      row.range = range_name (run, r);
      row.style = range_style (run, r);
    }
  row.has_thread = key->thread != G_MAXUINT32;
  if (row.has_thread)
    {
      const WsThread *thread = ws_run_thread (run, key->thread);

      row.pid = thread->pid;
      row.tid = thread->tid;
    }
  row.kernels = stats.count;
  row.total = stats.total;
  row.avg = stats.avg;
  row.med = stats.med;
  row.min = stats.min;
  row.max = stats.max;
  row.stddev = stats.stddev;
  row.kernel = key->kernel;
  return row;
}

/**
 * ws_nvtx_kern_sum:
 * @form: the kernel name form (nsys: demangled, `:base`, `:mangled`)
 *
 * The kernels launched inside NVTX ranges, summed per range name, thread
 * and kernel name, as `nsys stats --report nvtx_kern_sum`: a kernel counts
 * in every range of its launching thread that holds its launch call; the
 * kernels of no range make rows without a range.
 *
 * Returns: (transfer full) (element-type WsNvtxKernRow): the rows, by
 * range name, process, thread and total time
 */
GArray *
ws_nvtx_kern_sum (const WsNvtxGpu *self, WsNameForm form)
{
  const WsRun *run = self->run;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (WsNvtxKernRow));
  KernSum ks = { self, form };
  g_autofree gsize *offset = NULL;
  guint n_groups;

  g_array_set_clear_func (rows, kern_row_clear);
  if (run->kernels.n == 0)
    return rows;
  ks.range_groups = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  ks.range_first = g_array_new (FALSE, FALSE, sizeof (guint32));
  ks.range_group = g_new (guint32, MAX (run->nvtx.n, 1));
  memset (ks.range_group, 0xff, sizeof (guint32) * MAX (run->nvtx.n, 1));
  ks.groups = g_hash_table_new_full (group_key_hash, group_key_equal, g_free, NULL);
  ks.group_keys = g_array_new (FALSE, FALSE, sizeof (GroupKey));
  ks.last_group = NO_RANGE;
  ks.counts = g_array_new (FALSE, TRUE, sizeof (gsize));
  ks.in_range = g_new0 (guint8, run->kernels.n);

  pass_pairs (&ks);
  n_groups = ks.group_keys->len;
  offset = g_new0 (gsize, n_groups + 1);
  for (guint g = 0; g < n_groups; g++)
    offset[g + 1] = offset[g] + g_array_index (ks.counts, gsize, g);
  ks.fill = g_memdup2 (offset, sizeof (gsize) * (n_groups + 1));
  ks.values = g_new (gint64, MAX (ks.n_pairs, 1));
  ks.ranges = g_new (guint32, MAX (ks.n_pairs, 1));
  memset (ks.in_range, 0, run->kernels.n);
  ks.filling = TRUE;
  pass_pairs (&ks);

  for (guint g = 0; g < n_groups; g++)
    {
      gsize n = offset[g + 1] - offset[g];
      guint32 n_ranges = order_by_range (ks.values + offset[g], ks.ranges + offset[g], n);
      WsNvtxKernRow row = kern_row (&ks, g, ks.values + offset[g], n, n_ranges);

      g_array_append_val (rows, row);
    }
  g_array_sort_with_data (rows, compare_kern_rows, (gpointer) run);

  g_hash_table_unref (ks.range_groups);
  g_array_unref (ks.range_first);
  g_free (ks.range_group);
  g_array_unref (ks.group_keys);
  g_hash_table_unref (ks.groups);
  g_array_unref (ks.counts);
  g_free (ks.fill);
  g_free (ks.values);
  g_free (ks.ranges);
  g_free (ks.in_range);
  return rows;
}
