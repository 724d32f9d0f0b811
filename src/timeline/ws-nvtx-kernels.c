/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvtx-kernels"
#include "config.h"

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-nvtx-kernels.h"
#include "ws-sort.h"

struct _WsNvtxKernels
{
  gatomicrefcount ref_count;
  WsNvtxJoin *join;
  const WsRun *run;        /* the join's */
  WsLaunchIndex *launches; /* the join's */
  gint64 *gpu_time;        /* per NVTX range: ns */
  guint32 *n_kernels;      /* per NVTX range */
};

/* A launch call with kernels, inside @ranges: their time and count go to
 * each range. */
static void
add_call (gsize call, const guint32 *ranges, guint n, gpointer data)
{
  WsNvtxKernels *self = data;
  const WsRun *run = self->run;
  guint n_kernels;
  const guint32 *kernels = ws_nvtx_join_call_kernels (self->join, call, &n_kernels);
  gint64 time = 0;

  if (n_kernels == 0)
    return;
  for (guint i = 0; i < n_kernels; i++)
    time = ws_time_add (time, run->kernels.end[kernels[i]] - run->kernels.start[kernels[i]]);
  for (guint i = 0; i < n; i++)
    {
      self->gpu_time[ranges[i]] = ws_time_add (self->gpu_time[ranges[i]], time);
      self->n_kernels[ranges[i]] += n_kernels;
    }
}

/**
 * ws_nvtx_kernels_new_for_join:
 * @join: the run's NVTX → GPU join
 *
 * Sums, per NVTX range, the kernels launched inside it.  Safe on a worker
 * thread.
 *
 * Returns: (transfer full): the kernels of each range
 */
WsNvtxKernels *
ws_nvtx_kernels_new_for_join (WsNvtxJoin *join)
{
  WsNvtxKernels *self;
  const WsRun *run;

  g_return_val_if_fail (join != NULL, NULL);

  self = g_new0 (WsNvtxKernels, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->join = ws_nvtx_join_ref (join);
  self->launches = ws_nvtx_join_get_launches (join);
  self->run = ws_launch_index_get_run (self->launches);
  run = self->run;
  self->gpu_time = g_new0 (gint64, MAX (run->nvtx.n, 1));
  self->n_kernels = g_new0 (guint32, MAX (run->nvtx.n, 1));
  ws_nvtx_join_foreach (join, add_call, self);
  return self;
}

/**
 * ws_nvtx_kernels_new:
 *
 * As ws_nvtx_kernels_new_for_join(), with a launch index and join of
 * its own.
 *
 * Returns: (transfer full): the kernels of each range
 */
WsNvtxKernels *
ws_nvtx_kernels_new (const WsRun *run)
{
  g_autoptr (WsLaunchIndex) launches = NULL;
  g_autoptr (WsNvtxJoin) join = NULL;

  g_return_val_if_fail (run != NULL, NULL);

  launches = ws_launch_index_new (run);
  join = ws_nvtx_join_new (launches);
  return ws_nvtx_kernels_new_for_join (join);
}

/**
 * ws_nvtx_kernels_ref:
 *
 * Returns: (transfer full): @self
 */
WsNvtxKernels *
ws_nvtx_kernels_ref (WsNvtxKernels *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_nvtx_kernels_unref (WsNvtxKernels *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->gpu_time);
  g_free (self->n_kernels);
  ws_nvtx_join_unref (self->join);
  g_free (self);
}

/**
 * ws_nvtx_kernels_get_launches:
 *
 * Returns: (transfer none): the launch index it was built on
 */
WsLaunchIndex *
ws_nvtx_kernels_get_launches (const WsNvtxKernels *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->launches;
}

/* ns: the summed duration of the kernels launched inside NVTX range @range. */
gint64
ws_nvtx_kernels_gpu_time (const WsNvtxKernels *self, gsize range)
{
  g_return_val_if_fail (self != NULL, 0);

  return range < self->run->nvtx.n ? self->gpu_time[range] : 0;
}

guint32
ws_nvtx_kernels_count (const WsNvtxKernels *self, gsize range)
{
  g_return_val_if_fail (self != NULL, 0);

  return range < self->run->nvtx.n ? self->n_kernels[range] : 0;
}

/* Whether @kernel was launched inside NVTX range @range. */
gboolean
ws_nvtx_kernels_contains (const WsNvtxKernels *self, gsize range, gsize kernel)
{
  const WsRun *run = self->run;
  gssize a;

  if (range >= run->nvtx.n || kernel >= run->kernels.n)
    return FALSE;
  a = ws_launch_index_kernel (self->launches, kernel);
  return a >= 0 && run->api.thread[a] == run->nvtx.thread[range] &&
         run->api.start[a] >= run->nvtx.start[range] && run->api.end[a] <= run->nvtx.end[range];
}

static gsize
first_kernel_from (const WsRun *run, gint64 time)
{
  return ws_sort_lower_bound (run->kernels.start, 0, run->kernels.n, time);
}

/**
 * ws_nvtx_kernels_in_range:
 *
 * Returns: (transfer full) (element-type guint32): the kernels launched
 * inside NVTX range @range, in start order.
 */
GArray *
ws_nvtx_kernels_in_range (const WsNvtxKernels *self, gsize range)
{
  const WsRun *run = self->run;
  GArray *kernels = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 want = ws_nvtx_kernels_count (self, range);

  if (want == 0)
    return kernels;
  /* A kernel starts after its launch, so after the range's start; stop
   * once all of them are found. */
  for (gsize i = first_kernel_from (run, run->nvtx.start[range]);
       i < run->kernels.n && kernels->len < want; i++)
    if (ws_nvtx_kernels_contains (self, range, i))
      {
        guint32 k = (guint32) i;

        g_array_append_val (kernels, k);
      }
  return kernels;
}

static void
row_clear (gpointer data)
{
  WsNvtxKernelsRow *row = data;

  g_free (row->name);
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const WsNvtxKernelsRow *x = a, *y = b;

  if (x->gpu_time != y->gpu_time)
    return x->gpu_time > y->gpu_time ? -1 : 1;
  if (x->range_time != y->range_time)
    return x->range_time > y->range_time ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/**
 * ws_nvtx_kernels_summary:
 *
 * Per range name (and domain and style, as nvtx_sum groups them): the
 * instances, their own time, and the GPU time and kernels launched inside.
 *
 * Returns: (transfer full) (element-type WsNvtxKernelsRow): rows, most GPU time first
 */
GArray *
ws_nvtx_kernels_summary (const WsNvtxKernels *self)
{
  const WsRun *run = self->run;
  const WsNvtxRanges *nv = &run->nvtx;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (WsNvtxKernelsRow));
  g_autoptr (GHashTable) index = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);

  g_array_set_clear_func (rows, row_clear);
  for (gsize r = 0; r < nv->n; r++)
    {
      gint64 key =
        ((gint64) nv->name[r] << 17) | ((gint64) nv->domain[r] << 1) | (nv->style[r] & 1);
      gpointer found = g_hash_table_lookup (index, &key);
      WsNvtxKernelsRow *row;

      if (found == NULL)
        {
          WsNvtxKernelsRow fresh = { 0 };

          fresh.name = g_strdup_printf ("%s:%s", ws_run_nvtx_domain_name (run, nv->domain[r]),
                                        ws_run_string (run, nv->name[r]));
          fresh.style = nv->style[r] == WS_NVTX_START_END ? "StartEnd" : "PushPop";
          fresh.name_id = nv->name[r];
          fresh.domain = nv->domain[r];
          g_array_append_val (rows, fresh);
          found = GUINT_TO_POINTER (rows->len);
          g_hash_table_insert (index, g_memdup2 (&key, sizeof key), found);
        }
      row = &g_array_index (rows, WsNvtxKernelsRow, GPOINTER_TO_UINT (found) - 1);
      row->ranges++;
      row->range_time = ws_time_add (row->range_time, nv->end[r] - nv->start[r]);
      row->gpu_time = ws_time_add (row->gpu_time, self->gpu_time[r]);
      row->kernels += self->n_kernels[r];
    }
  g_array_sort (rows, compare_rows);
  return rows;
}
