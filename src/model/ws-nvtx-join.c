/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvtx-join"
#include "config.h"

#include <string.h>

#include "ws-nvtx-join.h"

struct _WsNvtxJoin
{
  gatomicrefcount ref_count;
  WsLaunchIndex *launches;
  const WsRun *run;      /* the launches' */
  guint32 *call_first;   /* CSR of the kernels each API call launched */
  guint32 *call_kernels; /* kernel indices, by call */
  guint8 *has_work;      /* per API call: launched a kernel or memory operation */
};

static void
index_calls (WsNvtxJoin *self)
{
  const WsRun *run = self->run;
  gsize na = run->api.n;
  g_autofree guint32 *fill = NULL;

  self->call_first = g_new0 (guint32, na + 2);
  self->call_kernels = g_new (guint32, MAX (run->kernels.n, 1));
  self->has_work = g_new0 (guint8, MAX (na, 1));
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gssize a = ws_launch_index_kernel (self->launches, k);

      if (a >= 0)
        self->call_first[a + 1]++;
    }
  for (gsize a = 0; a < na; a++)
    self->call_first[a + 1] += self->call_first[a];
  fill = g_memdup2 (self->call_first, sizeof (guint32) * (na + 1));
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gssize a = ws_launch_index_kernel (self->launches, k);

      if (a >= 0)
        {
          self->call_kernels[fill[a]++] = (guint32) k;
          self->has_work[a] = TRUE;
        }
    }
  for (gsize m = 0; m < run->memops.n; m++)
    {
      gssize a = ws_launch_index_memop (self->launches, m);

      if (a >= 0)
        self->has_work[a] = TRUE;
    }
}

/**
 * ws_nvtx_join_new:
 * @launches: the run's launch index
 *
 * Returns: (transfer full): the join of the run's NVTX ranges with the GPU
 * work their calls launched; safe to build on a worker thread
 */
WsNvtxJoin *
ws_nvtx_join_new (WsLaunchIndex *launches)
{
  WsNvtxJoin *self;

  g_return_val_if_fail (launches != NULL, NULL);

  self = g_new0 (WsNvtxJoin, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->launches = ws_launch_index_ref (launches);
  self->run = ws_launch_index_get_run (launches);
  index_calls (self);
  return self;
}

/**
 * ws_nvtx_join_ref:
 *
 * Returns: (transfer full): @self
 */
WsNvtxJoin *
ws_nvtx_join_ref (WsNvtxJoin *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_nvtx_join_unref (WsNvtxJoin *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->call_first);
  g_free (self->call_kernels);
  g_free (self->has_work);
  ws_launch_index_unref (self->launches);
  g_free (self);
}

/**
 * ws_nvtx_join_get_launches:
 *
 * Returns: (transfer none): the launch index the join was built on
 */
WsLaunchIndex *
ws_nvtx_join_get_launches (const WsNvtxJoin *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->launches;
}

/**
 * ws_nvtx_join_call_kernels:
 * @n: (out): how many
 *
 * Returns: (transfer none) (array length=n): the kernels API call @call
 * launched, in start order
 */
const guint32 *
ws_nvtx_join_call_kernels (const WsNvtxJoin *self, gsize call, guint *n)
{
  g_return_val_if_fail (self != NULL && call < self->run->api.n && n != NULL, NULL);

  *n = self->call_first[call + 1] - self->call_first[call];
  return self->call_kernels + self->call_first[call];
}

/**
 * ws_nvtx_join_foreach:
 * @func: called for each launch call with GPU work that ranges hold
 *
 * One pass in time over the calls that launched GPU work; each thread
 * keeps the ranges open at the current call, so that a call is checked
 * against those only: O(calls × ranges open at once on a thread).
 */
void
ws_nvtx_join_foreach (const WsNvtxJoin *self, WsNvtxJoinFunc func, gpointer user_data)
{
  const WsRun *run = self->run;
  const WsNvtxRanges *nv = &run->nvtx;
  guint n_threads = run->threads->len;
  g_autofree GArray **open = g_new0 (GArray *, MAX (n_threads, 1));
  g_autoptr (GArray) holders = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize next = 0;

  for (gsize a = 0; a < run->api.n; a++)
    {
      gint64 cs = run->api.start[a], ce = run->api.end[a];
      guint32 t = run->api.thread[a];
      GArray *list;
      guint kept = 0;

      if (!self->has_work[a])
        continue;
      while (next < nv->n && nv->start[next] <= cs)
        {
          guint32 rt = nv->thread[next];

          if (rt < n_threads)
            {
              guint32 r = (guint32) next;

              if (open[rt] == NULL)
                open[rt] = g_array_new (FALSE, FALSE, sizeof (guint32));
              g_array_append_val (open[rt], r);
            }
          next++;
        }
      if (t >= n_threads || (list = open[t]) == NULL)
        continue;
      g_array_set_size (holders, 0);
      for (guint i = 0; i < list->len; i++)
        {
          guint32 r = g_array_index (list, guint32, i);

          /* A range that ended before this call ends before every later one. */
          if (nv->end[r] < cs)
            continue;
          g_array_index (list, guint32, kept++) = r;
          if (nv->end[r] >= ce)
            g_array_append_val (holders, r);
        }
      g_array_set_size (list, kept);
      if (holders->len > 0)
        func (a, (const guint32 *) holders->data, holders->len, user_data);
    }
  for (guint t = 0; t < n_threads; t++)
    if (open[t] != NULL)
      g_array_unref (open[t]);
}

static void
innermost_call (gsize call, const guint32 *ranges, guint n, gpointer user_data)
{
  gpointer *data = user_data;
  const WsNvtxJoin *self = data[0];
  guint32 *innermost = data[1];
  guint n_kernels;
  const guint32 *kernels = ws_nvtx_join_call_kernels (self, call, &n_kernels);

  for (guint i = 0; i < n_kernels; i++)
    innermost[kernels[i]] = ranges[n - 1];
}

/**
 * ws_nvtx_join_innermost:
 *
 * The innermost range that holds each kernel's launch call: of the ranges
 * of the call's thread that hold it wholly, the one that starts last (of
 * two that start together, the one that ends first), whatever its domain.
 * Every kernel of a call (a graph launched node by node) has the call's.
 * nsys's `:nvtx-name` argument names a kernel after it (docs/formats.md,
 * "Report arguments").
 *
 * Returns: (transfer full) (array): per kernel of the run, the index of
 * the range, or %G_MAXUINT32 when no range holds the call or the call is
 * unknown
 */
guint32 *
ws_nvtx_join_innermost (const WsNvtxJoin *self)
{
  guint32 *innermost;
  gpointer data[2];

  g_return_val_if_fail (self != NULL, NULL);

  innermost = g_new (guint32, MAX (self->run->kernels.n, 1));
  memset (innermost, 0xff, sizeof (guint32) * MAX (self->run->kernels.n, 1));
  data[0] = (gpointer) self;
  data[1] = innermost;
  /* A lean load without launches has no call's thread to look in. */
  if (self->run->api.thread != NULL)
    ws_nvtx_join_foreach (self, innermost_call, data);
  return innermost;
}
