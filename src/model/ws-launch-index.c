/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-launch-index"
#include "config.h"

#include "ws-launch-index.h"

struct _WsLaunchIndex
{
  const WsRun *run;
  guint32 *order; /* API call indices sorted by (pid, correlation) */
  gsize n;
};

static inline guint32
api_pid (const WsRun *run, gsize i)
{
  return g_array_index (run->threads, WsThread, run->api.thread[i]).pid;
}

static inline gint64
api_key (const WsRun *run, gsize i)
{
  return ((gint64) api_pid (run, i) << 32) | run->api.correlation[i];
}

static int
compare_calls (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsRun *run = data;
  gint64 x = api_key (run, *(const guint32 *) a);
  gint64 y = api_key (run, *(const guint32 *) b);

  return (x > y) - (x < y);
}

/**
 * ws_launch_index_new:
 *
 * Returns: (transfer full): the index of @run's API calls, which must outlive it.
 */
WsLaunchIndex *
ws_launch_index_new (const WsRun *run)
{
  WsLaunchIndex *self = g_new0 (WsLaunchIndex, 1);

  g_return_val_if_fail (run != NULL, NULL);

  self->run = run;
  /* A lean load has no threads or correlation ids: nothing to find. */
  if (run->api.correlation == NULL || run->api.thread == NULL)
    return self;

  self->n = run->api.n;
  self->order = g_new (guint32, MAX (self->n, 1));
  for (gsize i = 0; i < self->n; i++)
    self->order[i] = (guint32) i;
  g_qsort_with_data (self->order, (gint) self->n, sizeof (guint32), compare_calls, (gpointer) run);
  return self;
}

void
ws_launch_index_free (WsLaunchIndex *self)
{
  if (self == NULL)
    return;
  g_free (self->order);
  g_free (self);
}

/* The API call of @pid with @correlation, or -1. */
gssize
ws_launch_index_find (const WsLaunchIndex *self, guint32 pid, guint32 correlation)
{
  gint64 key = ((gint64) pid << 32) | correlation;
  gsize lo = 0, hi = self->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (api_key (self->run, self->order[mid]) < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < self->n && api_key (self->run, self->order[lo]) == key)
    return self->order[lo];
  return -1;
}

gssize
ws_launch_index_kernel (const WsLaunchIndex *self, gsize kernel)
{
  const WsRun *run = self->run;

  g_return_val_if_fail (kernel < run->kernels.n, -1);

  if (run->kernels.correlation == NULL || run->kernels.stream == NULL)
    return -1;
  return ws_launch_index_find (
    self, g_array_index (run->streams, WsStream, run->kernels.stream[kernel]).pid,
    run->kernels.correlation[kernel]);
}

gssize
ws_launch_index_memop (const WsLaunchIndex *self, gsize memop)
{
  const WsRun *run = self->run;

  g_return_val_if_fail (memop < run->memops.n, -1);

  if (run->memops.correlation == NULL || run->memops.stream == NULL)
    return -1;
  return ws_launch_index_find (
    self, g_array_index (run->streams, WsStream, run->memops.stream[memop]).pid,
    run->memops.correlation[memop]);
}
