/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvtx-kern-sum"
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ws-hash.h"
#include "ws-nvtx-kern-sum.h"
#include "ws-stats.h"

#define NO_RANGE G_MAXUINT32

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
  const WsRun *run;
  WsNvtxJoin *join;        /* NULL without launch calls */
  WsLaunchIndex *launches; /* the join's */
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
  key = ws_nvtx_range_group_key (ks->run, r);
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
  const WsRun *run = ks->run;
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
  const WsRun *run = ks->run;
  guint n_kernels;
  const guint32 *kernels = ws_nvtx_join_call_kernels (ks->join, call, &n_kernels);

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
  const WsRun *run = ks->run;

  if (ks->join != NULL)
    ws_nvtx_join_foreach (ks->join, kern_call, ks);
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gssize a;

      if (ks->in_range[k])
        continue;
      a = ks->launches != NULL ? ws_launch_index_kernel (ks->launches, k) : -1;
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
  const WsRun *run = ks->run;
  const GroupKey *key = &g_array_index (ks->group_keys, GroupKey, g);
  WsNvtxKernRow row = { 0 };
  WsGroupStats stats;

  ws_group_stats (values, n, &stats);
  row.ranges = n_ranges;
  if (key->range_group != NO_RANGE)
    {
      guint32 r = g_array_index (ks->range_first, guint32, key->range_group);

      row.range = ws_nvtx_range_label (run, r);
      row.style = ws_nvtx_range_style (run, r);
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
  const WsRun *run;
  GArray *rows;
  KernSum ks = { 0 };
  g_autofree gsize *offset = NULL;
  guint n_groups;

  g_return_val_if_fail (self != NULL, NULL);

  run = ws_nvtx_gpu_get_run (self);
  rows = g_array_new (FALSE, TRUE, sizeof (WsNvtxKernRow));
  g_array_set_clear_func (rows, kern_row_clear);
  if (run->kernels.n == 0)
    return rows;
  ks.run = run;
  ks.join = ws_nvtx_gpu_get_join (self);
  ks.launches = ks.join != NULL ? ws_nvtx_join_get_launches (ks.join) : NULL;
  ks.form = form;
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
