/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvtx-projection"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-nvtx-projection.h"
#include "ws-sort.h"

struct _WsNvtxProjection
{
  gatomicrefcount ref_count;
  WsLanes *lanes;
  WsRun *run;
  WsLaunchIndex *launches;
  gint64 *gpu_time;   /* per NVTX range: ns */
  guint32 *n_kernels; /* per NVTX range */
};

static inline gint64
prefix_at (const WsTrack *track, const gint64 *time, gsize i, gint64 total)
{
  return i < track->n ? time[ws_event_ref_index (track->events[i])] : total;
}

static inline guint32
count_at (const WsTrack *track, const guint32 *count, gsize i, guint32 total)
{
  return i < track->n ? count[ws_event_ref_index (track->events[i])] : total;
}

/* GPU time and kernels per range: per API call first, then running sums
 * along each thread's calls, so that a range's share is the difference
 * of two sums found by binary search. */
static void
project_ranges (WsNvtxProjection *self, gint64 *api_time, guint32 *api_count)
{
  const WsRun *run = self->run;
  const WsNvtxRanges *nv = &run->nvtx;
  guint n_threads = run->threads->len;
  g_autofree gint64 *total_time = g_new0 (gint64, n_threads + 1);
  g_autofree guint32 *total_count = g_new0 (guint32, n_threads + 1);

  memset (api_time, 0, run->api.n * sizeof (gint64));
  memset (api_count, 0, run->api.n * sizeof (guint32));
  for (gsize i = 0; i < run->kernels.n; i++)
    {
      gssize a = ws_launch_index_kernel (self->launches, i);

      if (a >= 0)
        {
          api_time[a] = ws_time_add (api_time[a], run->kernels.end[i] - run->kernels.start[i]);
          api_count[a]++;
        }
    }

  /* In place: each call's entry becomes the sum over the calls before it. */
  for (guint t = 0; t < n_threads; t++)
    {
      const WsLane *lane =
        ws_lanes_get_lane (self->lanes, ws_lanes_find_thread_lane (self->lanes, t, WS_LANE_API));
      gint64 time = 0;
      guint32 count = 0;

      if (lane == NULL)
        continue;
      for (gsize i = 0; i < lane->tracks[0].n; i++)
        {
          gsize a = ws_event_ref_index (lane->tracks[0].events[i]);
          gint64 at = api_time[a];
          guint32 ac = api_count[a];

          api_time[a] = time;
          api_count[a] = count;
          time = ws_time_add (time, at);
          count += ac;
        }
      total_time[t] = time;
      total_count[t] = count;
    }

  for (gsize r = 0; r < nv->n; r++)
    {
      guint32 t = nv->thread[r];
      const WsLane *lane =
        ws_lanes_get_lane (self->lanes, ws_lanes_find_thread_lane (self->lanes, t, WS_LANE_API));
      const WsTrack *track;
      gsize lo, hi;

      if (lane == NULL)
        continue;
      track = &lane->tracks[0];
      lo = ws_track_lower_bound (track, run, nv->start[r], 0);
      hi = ws_track_lower_bound (track, run, nv->end[r] == G_MAXINT64 ? nv->end[r] : nv->end[r] + 1,
                                 lo);
      /* As nsys: the call must end inside the range too.  A thread's calls
       * follow each other, so only the last one can stick out. */
      if (hi > lo && run->api.end[ws_event_ref_index (track->events[hi - 1])] > nv->end[r])
        hi--;
      self->gpu_time[r] = prefix_at (track, api_time, hi, total_time[t]) -
                          prefix_at (track, api_time, lo, total_time[t]);
      self->n_kernels[r] = count_at (track, api_count, hi, total_count[t]) -
                           count_at (track, api_count, lo, total_count[t]);
    }
}

/**
 * ws_nvtx_projection_new:
 * @lanes: the run's lanes (their per-thread API tracks are used)
 *
 * Matches every kernel to its launch and sums, per NVTX range, the kernels
 * launched inside it.  O(n log n) at worst; safe on a worker thread.
 *
 * Returns: (transfer full): the projection
 */
WsNvtxProjection *
ws_nvtx_projection_new (WsLanes *lanes)
{
  WsNvtxProjection *self;
  const WsRun *run;

  g_return_val_if_fail (lanes != NULL, NULL);

  self = g_new0 (WsNvtxProjection, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->lanes = ws_lanes_ref (lanes);
  self->run = ws_lanes_get_run (lanes);
  run = self->run;
  self->launches = ws_launch_index_new (run);
  self->gpu_time = g_new0 (gint64, MAX (run->nvtx.n, 1));
  self->n_kernels = g_new0 (guint32, MAX (run->nvtx.n, 1));

  if (ws_launch_index_n_kernels_found (self->launches) > 0)
    {
      /* (time, count) per call. */
      g_autofree gint64 *api_time = g_new (gint64, run->api.n);
      g_autofree guint32 *api_count = g_new (guint32, run->api.n);

      project_ranges (self, api_time, api_count);
    }
  return self;
}

/**
 * ws_nvtx_projection_ref:
 *
 * Returns: (transfer full): @self
 */
WsNvtxProjection *
ws_nvtx_projection_ref (WsNvtxProjection *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_nvtx_projection_unref (WsNvtxProjection *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  ws_launch_index_unref (self->launches);
  g_free (self->gpu_time);
  g_free (self->n_kernels);
  ws_lanes_unref (self->lanes);
  g_free (self);
}

/**
 * ws_nvtx_projection_get_launches:
 *
 * Returns: (transfer none): the launch index the projection was built on
 */
WsLaunchIndex *
ws_nvtx_projection_get_launches (const WsNvtxProjection *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->launches;
}

/* ns: the summed duration of the kernels launched inside NVTX range @range. */
gint64
ws_nvtx_projection_gpu_time (const WsNvtxProjection *self, gsize range)
{
  g_return_val_if_fail (self != NULL, 0);

  return range < self->run->nvtx.n ? self->gpu_time[range] : 0;
}

guint32
ws_nvtx_projection_n_kernels (const WsNvtxProjection *self, gsize range)
{
  g_return_val_if_fail (self != NULL, 0);

  return range < self->run->nvtx.n ? self->n_kernels[range] : 0;
}

/* Whether @kernel was launched inside NVTX range @range. */
gboolean
ws_nvtx_projection_contains (const WsNvtxProjection *self, gsize range, gsize kernel)
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
 * ws_nvtx_projection_kernels:
 *
 * Returns: (transfer full) (element-type guint32): the kernels launched
 * inside NVTX range @range, in start order.
 */
GArray *
ws_nvtx_projection_kernels (const WsNvtxProjection *self, gsize range)
{
  const WsRun *run = self->run;
  GArray *kernels = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 want = ws_nvtx_projection_n_kernels (self, range);

  if (want == 0)
    return kernels;
  /* A kernel starts after its launch, so after the range's start; stop
   * once all of them are found. */
  for (gsize i = first_kernel_from (run, run->nvtx.start[range]);
       i < run->kernels.n && kernels->len < want; i++)
    if (ws_nvtx_projection_contains (self, range, i))
      {
        guint32 k = (guint32) i;

        g_array_append_val (kernels, k);
      }
  return kernels;
}

static void
row_clear (gpointer data)
{
  WsNvtxGpuRow *row = data;

  g_free (row->name);
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const WsNvtxGpuRow *x = a, *y = b;

  if (x->gpu_time != y->gpu_time)
    return x->gpu_time > y->gpu_time ? -1 : 1;
  if (x->range_time != y->range_time)
    return x->range_time > y->range_time ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/**
 * ws_nvtx_projection_summary:
 *
 * Per range name (and domain and style, as nvtx_sum groups them): the
 * instances, their own time, and the GPU time and kernels launched inside.
 *
 * Returns: (transfer full) (element-type WsNvtxGpuRow): rows, most GPU time first
 */
GArray *
ws_nvtx_projection_summary (const WsNvtxProjection *self)
{
  const WsRun *run = self->run;
  const WsNvtxRanges *nv = &run->nvtx;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (WsNvtxGpuRow));
  g_autoptr (GHashTable) index = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);

  g_array_set_clear_func (rows, row_clear);
  for (gsize r = 0; r < nv->n; r++)
    {
      gint64 key =
        ((gint64) nv->name[r] << 17) | ((gint64) nv->domain[r] << 1) | (nv->style[r] & 1);
      gpointer found = g_hash_table_lookup (index, &key);
      WsNvtxGpuRow *row;

      if (found == NULL)
        {
          WsNvtxGpuRow fresh = { 0 };

          fresh.name = g_strdup_printf ("%s:%s", ws_run_nvtx_domain_name (run, nv->domain[r]),
                                        ws_run_string (run, nv->name[r]));
          fresh.style = nv->style[r] == WS_NVTX_START_END ? "StartEnd" : "PushPop";
          fresh.name_id = nv->name[r];
          fresh.domain = nv->domain[r];
          g_array_append_val (rows, fresh);
          found = GUINT_TO_POINTER (rows->len);
          g_hash_table_insert (index, g_memdup2 (&key, sizeof key), found);
        }
      row = &g_array_index (rows, WsNvtxGpuRow, GPOINTER_TO_UINT (found) - 1);
      row->ranges++;
      row->range_time = ws_time_add (row->range_time, nv->end[r] - nv->start[r]);
      row->gpu_time = ws_time_add (row->gpu_time, self->gpu_time[r]);
      row->kernels += self->n_kernels[r];
    }
  g_array_sort (rows, compare_rows);
  return rows;
}
