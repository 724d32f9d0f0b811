/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-launch-index"
#include "config.h"

#include "ws-launch-index.h"
#include "ws-radix-sort.h"

#define NO_LAUNCH G_MAXUINT32

struct _WsLaunchIndex
{
  gatomicrefcount ref_count;
  WsRun *run;
  guint32 *kernel_call; /* per kernel: the API call that launched it, or NO_LAUNCH */
  guint32 *memop_call;  /* per memory operation: the same */
  guint32 *replay_call; /* per graph replay: its cudaGraphLaunch */
  gsize n_kernels_found;
};

/* The calls' keys, sorted, with the call of each key.  Calls whose keys
 * already come in order (nsys numbers a process's launches as it makes
 * them) are not copied: @keys and @calls stay NULL and the key of call i
 * is computed from the run (12 bytes a call spared). */
typedef struct
{
  const WsRun *run;
  guint64 *keys;
  guint32 *calls;
  gsize n;
} SortedCalls;

static inline guint64
launch_key (guint32 pid, guint32 correlation)
{
  return ((guint64) pid << 32) | correlation;
}

static inline guint32
stream_pid (const WsRun *run, guint32 stream)
{
  return stream < run->streams->len ? g_array_index (run->streams, WsStream, stream).pid
                                    : G_MAXUINT32;
}

static inline guint64
call_key (const WsRun *run, gsize a)
{
  guint32 t = run->api.thread[a];
  guint32 pid = t < run->threads->len ? g_array_index (run->threads, WsThread, t).pid : G_MAXUINT32;

  return launch_key (pid, run->api.correlation[a]);
}

static inline guint64
key_at (const SortedCalls *sorted, gsize i)
{
  return sorted->keys != NULL ? sorted->keys[i] : call_key (sorted->run, i);
}

static inline guint32
call_at (const SortedCalls *sorted, gsize i)
{
  return sorted->calls != NULL ? sorted->calls[i] : (guint32) i;
}

static void
sort_calls (const WsRun *run, SortedCalls *sorted)
{
  const WsApiCalls *api = &run->api;
  gboolean in_order = TRUE;

  sorted->run = run;
  sorted->n = api->n;
  for (gsize a = 1; a < api->n && in_order; a++)
    in_order = call_key (run, a - 1) <= call_key (run, a);
  if (in_order)
    return;
  sorted->keys = g_new (guint64, MAX (api->n, 1));
  sorted->calls = g_new (guint32, MAX (api->n, 1));
  for (gsize a = 0; a < api->n; a++)
    {
      sorted->keys[a] = call_key (run, a);
      sorted->calls[a] = (guint32) a;
    }
  /* Stable, so that of two calls with one key the first is found. */
  ws_radix_sort (sorted->keys, sorted->calls, sorted->n);
}

/* Where @key is in the sorted keys, searching outwards from @hint
 * (operations come nearly in launch order, so the next one is close to
 * the last). */
static gssize
find_key (const SortedCalls *sorted, guint64 key, gsize hint)
{
  gsize n = sorted->n, lo, hi, step = 1;

  if (n == 0)
    return -1;
  hint = MIN (hint, n - 1);
  if (key_at (sorted, hint) < key)
    {
      lo = hint;
      while (lo + step < n && key_at (sorted, lo + step) < key)
        {
          lo += step;
          step *= 2;
        }
      hi = MIN (lo + step, n - 1) + 1;
    }
  else
    {
      hi = hint + 1;
      while (hi > step && key_at (sorted, hi - 1 - step) >= key)
        {
          hi -= step;
          step *= 2;
        }
      lo = hi > step ? hi - 1 - step : 0;
    }
  /* The first index in [lo, hi) whose key is >= @key. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (key_at (sorted, mid) < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n && key_at (sorted, lo) == key ? (gssize) lo : -1;
}

/* The launch of each of @n operations on @stream with @correlation;
 * returns how many were found. */
static gsize
find_launches (const WsRun *run, const SortedCalls *sorted, const guint32 *stream,
               const guint32 *correlation, gsize n, guint32 *call)
{
  gsize hint = 0, found = 0;

  for (gsize i = 0; i < n; i++)
    {
      guint64 key = launch_key (stream_pid (run, stream[i]), correlation[i]);
      gssize at = find_key (sorted, key, hint);

      call[i] = at >= 0 ? call_at (sorted, (gsize) at) : NO_LAUNCH;
      if (at >= 0)
        {
          found++;
          hint = (gsize) at;
        }
    }
  return found;
}

/**
 * ws_launch_index_new:
 *
 * Matches every kernel, memory operation and graph replay of @run to its
 * launch call.
 * O(n) for the calls, O(log n) at worst per operation; safe on a worker
 * thread.
 *
 * Returns: (transfer full): the index, which holds a reference on @run
 */
WsLaunchIndex *
ws_launch_index_new (const WsRun *run)
{
  WsLaunchIndex *self;
  SortedCalls sorted = { 0 };

  g_return_val_if_fail (run != NULL, NULL);

  self = g_new0 (WsLaunchIndex, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->run = ws_run_ref ((WsRun *) run);
  /* A lean load without WS_LOAD_LAUNCHES has no threads or correlation
   * ids: nothing to find. */
  if (run->api.correlation == NULL || run->api.thread == NULL || run->api.n == 0)
    return self;

  sort_calls (run, &sorted);
  if (run->kernels.correlation != NULL && run->kernels.stream != NULL && run->kernels.n > 0)
    {
      self->kernel_call = g_new (guint32, run->kernels.n);
      self->n_kernels_found =
        find_launches (run, &sorted, run->kernels.stream, run->kernels.correlation, run->kernels.n,
                       self->kernel_call);
    }
  if (run->memops.correlation != NULL && run->memops.stream != NULL && run->memops.n > 0)
    {
      self->memop_call = g_new (guint32, run->memops.n);
      find_launches (run, &sorted, run->memops.stream, run->memops.correlation, run->memops.n,
                     self->memop_call);
    }
  if (run->replays.n > 0)
    {
      self->replay_call = g_new (guint32, run->replays.n);
      find_launches (run, &sorted, run->replays.stream, run->replays.correlation, run->replays.n,
                     self->replay_call);
    }
  g_free (sorted.keys);
  g_free (sorted.calls);
  return self;
}

/**
 * ws_launch_index_ref:
 *
 * Returns: (transfer full): @self
 */
WsLaunchIndex *
ws_launch_index_ref (WsLaunchIndex *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_launch_index_unref (WsLaunchIndex *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->kernel_call);
  g_free (self->memop_call);
  g_free (self->replay_call);
  ws_run_unref (self->run);
  g_free (self);
}

/**
 * ws_launch_index_get_run:
 *
 * Returns: (transfer none): the run the index was built for
 */
const WsRun *
ws_launch_index_get_run (const WsLaunchIndex *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->run;
}

/* The API call (index into run->api) that launched @kernel, or -1. */
gssize
ws_launch_index_kernel (const WsLaunchIndex *self, gsize kernel)
{
  g_return_val_if_fail (self != NULL && kernel < self->run->kernels.n, -1);

  if (self->kernel_call == NULL || self->kernel_call[kernel] == NO_LAUNCH)
    return -1;
  return self->kernel_call[kernel];
}

/* The API call that launched memory operation @memop, or -1. */
gssize
ws_launch_index_memop (const WsLaunchIndex *self, gsize memop)
{
  g_return_val_if_fail (self != NULL && memop < self->run->memops.n, -1);

  if (self->memop_call == NULL || self->memop_call[memop] == NO_LAUNCH)
    return -1;
  return self->memop_call[memop];
}

/* The API call (cudaGraphLaunch) that launched graph replay @replay, or -1. */
gssize
ws_launch_index_replay (const WsLaunchIndex *self, gsize replay)
{
  g_return_val_if_fail (self != NULL && replay < self->run->replays.n, -1);

  if (self->replay_call == NULL || self->replay_call[replay] == NO_LAUNCH)
    return -1;
  return self->replay_call[replay];
}

/* How many kernels were matched to their launch call. */
gsize
ws_launch_index_n_kernels_found (const WsLaunchIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_kernels_found;
}
