/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-run-index"
#include "config.h"

#include <string.h>

#include "ws-gpu-busy.h"
#include "ws-run-index.h"
#include "ws-sort.h"
#include "ws-stats.h"

/* Per API call flags, beyond the WsApiClass bits. */
#define LAUNCHED_KERNEL (1 << 5)
#define LAUNCHED_MEMOP (1 << 6)

/* A call that takes this long before its process's first GPU work carries
 * the creation of the CUDA context (hundreds of ms on an H100). */
#define CONTEXT_CREATION_MIN_NS G_GINT64_CONSTANT (10000000) /* 10 ms */

typedef struct
{
  GArray *kernel_launches; /* gint64: starts of the calls that launched kernels */
  GArray *any_launches;    /* gint64: starts of the calls that launched any GPU work */
  GPtrArray *rows;         /* per NVTX depth: GArray of guint32 range indices, by start */
} ThreadIndex;

struct _WsRunIndex
{
  const WsRun *run;
  WsLaunchIndex *launches;
  guint8 *api_flags;
  guint32 *kernel_launch; /* API call index, or G_MAXUINT32 */
  guint32 *memop_launch;
  GHashTable *base_names;         /* name id + 1 → char * */
  ThreadIndex *threads;           /* one per run->threads */
  GHashTable *context_calls;      /* pid + 1 → api index + 1 */
  GHashTable *last_kernel_launch; /* pid + 1 → gint64 * */
  GPtrArray *busy;                /* WsBusy *, owned */
  GHashTable *device_busy;        /* device + 1 → WsBusy * */
  GHashTable *process_busy;       /* pid + 1 → WsBusy * */
  GArray *devices;                /* gint32, sorted */
};

static const char *const alloc_names[] = {
  "cudaMalloc",        "cudaMallocHost",    "cudaHostAlloc",
  "cudaMallocManaged", "cudaMallocPitch",   "cudaMalloc3D",
  "cudaMallocArray",   "cudaMalloc3DArray", "cudaMallocMipmappedArray",
  "cuMemAlloc",        "cuMemAllocHost",    "cuMemHostAlloc",
  "cuMemAllocManaged", "cuMemAllocPitch",
};

static const char *const free_names[] = {
  "cudaFree",  "cudaFreeHost",  "cudaFreeArray", "cudaFreeMipmappedArray",
  "cuMemFree", "cuMemFreeHost",
};

static const char *const sync_names[] = {
  "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cudaThreadSynchronize",
  "cuCtxSynchronize",      "cuStreamSynchronize",   "cuEventSynchronize",
};

static gboolean
name_in (const char *name, const char *const *names, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (g_str_equal (name, names[i]))
      return TRUE;
  return FALSE;
}

/* The class of an API name: the runtime's version suffix (_v3020) is gone
 * already; the driver's _v2 and the per-thread stream variants (_ptsz,
 * _ptds) are dropped here too. */
static guint
classify (const char *base)
{
  g_autofree char *name = g_strdup (base);
  gsize len = strlen (name);

  if (len > 3 && g_str_has_suffix (name, "_v2"))
    name[len -= 3] = '\0';
  if (len > 5 && (g_str_has_suffix (name, "_ptsz") || g_str_has_suffix (name, "_ptds")))
    name[len -= 5] = '\0';

  if (name_in (name, alloc_names, G_N_ELEMENTS (alloc_names)))
    return WS_API_CLASS_ALLOC;
  if (name_in (name, free_names, G_N_ELEMENTS (free_names)))
    return WS_API_CLASS_FREE;
  if (name_in (name, sync_names, G_N_ELEMENTS (sync_names)))
    return WS_API_CLASS_SYNC;
  return 0;
}

static void
index_api_names (WsRunIndex *self)
{
  const WsRun *run = self->run;
  g_autoptr (GHashTable) classes = g_hash_table_new (g_direct_hash, g_direct_equal);

  self->base_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  self->api_flags = g_new0 (guint8, MAX (run->api.n, 1));
  if (run->api.name == NULL)
    return;

  for (gsize i = 0; i < run->api.n; i++)
    {
      gpointer key = GUINT_TO_POINTER (run->api.name[i] + 1);
      gpointer found;

      if (!g_hash_table_lookup_extended (classes, key, NULL, &found))
        {
          char *base = ws_api_base_name (ws_run_string (run, run->api.name[i]));

          found = GUINT_TO_POINTER (classify (base));
          g_hash_table_insert (classes, key, found);
          g_hash_table_insert (self->base_names, key, base);
        }
      self->api_flags[i] = (guint8) GPOINTER_TO_UINT (found);
    }
}

static guint32
stream_pid (const WsRun *run, guint32 stream)
{
  return g_array_index (run->streams, WsStream, stream).pid;
}

static void
index_launches (WsRunIndex *self)
{
  const WsRun *run = self->run;

  self->launches = ws_launch_index_new (run);
  self->kernel_launch = g_new (guint32, MAX (run->kernels.n, 1));
  self->memop_launch = g_new (guint32, MAX (run->memops.n, 1));
  self->last_kernel_launch = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);

  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gssize api = ws_launch_index_kernel (self->launches, k);

      self->kernel_launch[k] = api >= 0 ? (guint32) api : G_MAXUINT32;
      if (api >= 0)
        {
          gpointer key = GUINT_TO_POINTER (ws_run_index_api_pid (self, api) + 1);
          gint64 *last = g_hash_table_lookup (self->last_kernel_launch, key);

          self->api_flags[api] |= LAUNCHED_KERNEL;
          if (last == NULL)
            {
              last = g_new (gint64, 1);
              *last = G_MININT64;
              g_hash_table_insert (self->last_kernel_launch, key, last);
            }
          *last = MAX (*last, run->api.start[api]);
        }
    }
  for (gsize m = 0; m < run->memops.n; m++)
    {
      gssize api = ws_launch_index_memop (self->launches, m);

      self->memop_launch[m] = api >= 0 ? (guint32) api : G_MAXUINT32;
      if (api >= 0)
        self->api_flags[api] |= LAUNCHED_MEMOP;
    }
}

static void
index_threads (WsRunIndex *self)
{
  const WsRun *run = self->run;
  guint n_threads = run->threads->len;

  self->threads = g_new0 (ThreadIndex, MAX (n_threads, 1));
  for (guint t = 0; t < n_threads; t++)
    {
      self->threads[t].kernel_launches = g_array_new (FALSE, FALSE, sizeof (gint64));
      self->threads[t].any_launches = g_array_new (FALSE, FALSE, sizeof (gint64));
      self->threads[t].rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
    }

  if (run->api.thread != NULL)
    for (gsize i = 0; i < run->api.n; i++)
      {
        ThreadIndex *thread = &self->threads[run->api.thread[i]];

        if (self->api_flags[i] & LAUNCHED_KERNEL)
          g_array_append_val (thread->kernel_launches, run->api.start[i]);
        if (self->api_flags[i] & (LAUNCHED_KERNEL | LAUNCHED_MEMOP))
          g_array_append_val (thread->any_launches, run->api.start[i]);
      }

  /* Ranges of one thread at one depth never overlap (the depth is the
   * lowest free row), so the range open at a time is one binary search. */
  if (run->nvtx.thread != NULL && run->nvtx.depth != NULL)
    for (gsize i = 0; i < run->nvtx.n; i++)
      {
        ThreadIndex *thread;
        guint depth = run->nvtx.depth[i];
        guint32 index = (guint32) i;

        if (run->nvtx.thread[i] >= n_threads)
          continue;
        thread = &self->threads[run->nvtx.thread[i]];
        while (thread->rows->len <= depth)
          g_ptr_array_add (thread->rows, g_array_new (FALSE, FALSE, sizeof (guint32)));
        g_array_append_val (g_ptr_array_index (thread->rows, depth), index);
      }
}

/* The first call of each process that lasts at least 10 ms before the
 * process's first GPU work: where lazy initialisation created the context. */
static void
index_context_calls (WsRunIndex *self)
{
  const WsRun *run = self->run;
  g_autoptr (GHashTable) first_gpu =
    g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);

  self->context_calls = g_hash_table_new (g_direct_hash, g_direct_equal);
  if (run->api.thread == NULL)
    return;

  for (int pass = 0; pass < 2; pass++)
    {
      gsize n = pass == 0 ? run->kernels.n : run->memops.n;
      const gint64 *start = pass == 0 ? run->kernels.start : run->memops.start;
      const guint32 *stream = pass == 0 ? run->kernels.stream : run->memops.stream;

      for (gsize i = 0; stream != NULL && i < n; i++)
        {
          gpointer key = GUINT_TO_POINTER (stream_pid (run, stream[i]) + 1);
          gint64 *first = g_hash_table_lookup (first_gpu, key);

          if (first == NULL)
            {
              first = g_new (gint64, 1);
              *first = G_MAXINT64;
              g_hash_table_insert (first_gpu, key, first);
            }
          *first = MIN (*first, start[i]);
        }
    }

  for (gsize i = 0; i < run->api.n; i++)
    {
      guint32 pid = ws_run_index_api_pid (self, i);
      gpointer key = GUINT_TO_POINTER (pid + 1);
      gint64 *first = g_hash_table_lookup (first_gpu, key);

      if (g_hash_table_contains (self->context_calls, key))
        continue;
      if (first != NULL && run->api.start[i] >= *first)
        continue;
      if (run->api.end[i] - run->api.start[i] >= CONTEXT_CREATION_MIN_NS)
        g_hash_table_insert (self->context_calls, key, GSIZE_TO_POINTER (i + 1));
    }
}

static void
busy_free (gpointer data)
{
  WsBusy *busy = data;

  g_free (busy->start);
  g_free (busy->end);
  g_free (busy->before);
  g_free (busy);
}

static gboolean
stream_on_device (const WsRun *run, guint32 stream, gint64 device)
{
  return g_array_index (run->streams, WsStream, stream).device_id == device;
}

static gboolean
stream_of_process (const WsRun *run, guint32 stream, gint64 pid)
{
  return stream_pid (run, stream) == (guint32) pid;
}

/* The busy spans of the one definition (ws_busy_spans()). */
static WsBusy *
busy_new (const WsRun *run, WsBusyStreamFilter filter, gint64 key)
{
  WsBusy *busy = g_new0 (WsBusy, 1);
  g_autoptr (GArray) starts = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) ends = g_array_new (FALSE, FALSE, sizeof (gint64));

  /* A table without streams (a lean load) cannot be told by GPU. */
  WsBusyWhat what = WS_BUSY_REPLAYS | (run->kernels.stream != NULL ? WS_BUSY_KERNELS : 0) |
                    (run->memops.stream != NULL ? WS_BUSY_MEMOPS : 0);

  ws_busy_spans (run, what, filter, key, NULL, 0, starts, ends);
  busy->n = starts->len;
  busy->start = (gint64 *) g_array_free (g_steal_pointer (&starts), FALSE);
  busy->end = (gint64 *) g_array_free (g_steal_pointer (&ends), FALSE);
  busy->before = g_new (gint64, busy->n + 1);
  busy->before[0] = 0;
  for (gsize i = 0; i < busy->n; i++)
    busy->before[i + 1] = busy->before[i] + (busy->end[i] - busy->start[i]);
  busy->total = busy->before[busy->n];
  return busy;
}

static void
index_busy (WsRunIndex *self)
{
  const WsRun *run = self->run;
  g_autoptr (GHashTable) pids = g_hash_table_new (g_direct_hash, g_direct_equal);

  self->busy = g_ptr_array_new_with_free_func (busy_free);
  self->device_busy = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->process_busy = g_hash_table_new (g_direct_hash, g_direct_equal);
  /* The GPUs this run used: a rank cut from a job keeps the job's
   * streams, but not the other ranks' GPUs. */
  self->devices = ws_run_devices_used (run, WS_RUN_ANY_PID);
  for (guint d = 0; d < self->devices->len; d++)
    {
      gint32 device = g_array_index (self->devices, gint32, d);
      WsBusy *busy = busy_new (run, stream_on_device, device);

      g_ptr_array_add (self->busy, busy);
      g_hash_table_insert (self->device_busy, GINT_TO_POINTER ((gintptr) device + 1), busy);
    }
  for (guint s = 0; s < run->streams->len; s++)
    g_hash_table_add (pids, GUINT_TO_POINTER (g_array_index (run->streams, WsStream, s).pid + 1));

  /* One process on one GPU, the usual case, shares the device's intervals. */
  if (g_hash_table_size (pids) == 1 && self->devices->len == 1)
    {
      g_hash_table_insert (self->process_busy,
                           GUINT_TO_POINTER (g_array_index (run->streams, WsStream, 0).pid + 1),
                           g_ptr_array_index (self->busy, 0));
      return;
    }

  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, pids);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      {
        WsBusy *busy = busy_new (run, stream_of_process, GPOINTER_TO_UINT (key) - 1);

        g_ptr_array_add (self->busy, busy);
        g_hash_table_insert (self->process_busy, key, busy);
      }
  }
}

/**
 * ws_run_index_new:
 *
 * Returns: (transfer full): the lookups of @run, which must outlive them.
 */
WsRunIndex *
ws_run_index_new (const WsRun *run)
{
  WsRunIndex *self = g_new0 (WsRunIndex, 1);

  g_return_val_if_fail (run != NULL, NULL);

  self->run = run;
  index_api_names (self);
  index_launches (self);
  index_threads (self);
  index_context_calls (self);
  index_busy (self);
  return self;
}

void
ws_run_index_free (WsRunIndex *self)
{
  if (self == NULL)
    return;

  for (guint t = 0; t < self->run->threads->len; t++)
    {
      g_array_unref (self->threads[t].kernel_launches);
      g_array_unref (self->threads[t].any_launches);
      g_ptr_array_unref (self->threads[t].rows);
    }
  g_free (self->threads);
  ws_launch_index_unref (self->launches);
  g_free (self->api_flags);
  g_free (self->kernel_launch);
  g_free (self->memop_launch);
  g_hash_table_unref (self->base_names);
  g_hash_table_unref (self->context_calls);
  g_hash_table_unref (self->last_kernel_launch);
  g_hash_table_unref (self->device_busy);
  g_hash_table_unref (self->process_busy);
  g_ptr_array_unref (self->busy);
  g_array_unref (self->devices);
  g_free (self);
}

/**
 * ws_run_index_api_name:
 *
 * Returns: (transfer none): the call's name without its version suffix
 * (cudaMalloc_v3020 → cudaMalloc), as `nsys stats` prints it.
 */
const char *
ws_run_index_api_name (const WsRunIndex *self, gsize api)
{
  const char *base;

  g_return_val_if_fail (api < self->run->api.n, "");

  base = g_hash_table_lookup (self->base_names, GUINT_TO_POINTER (self->run->api.name[api] + 1));
  return base != NULL ? base : "";
}

guint
ws_run_index_api_class (const WsRunIndex *self, gsize api)
{
  g_return_val_if_fail (api < self->run->api.n, 0);

  return self->api_flags[api] & (WS_API_CLASS_ALLOC | WS_API_CLASS_FREE | WS_API_CLASS_SYNC);
}

guint32
ws_run_index_api_pid (const WsRunIndex *self, gsize api)
{
  const WsRun *run = self->run;

  if (run->api.thread == NULL)
    return 0;
  return g_array_index (run->threads, WsThread, run->api.thread[api]).pid;
}

/* The API call that launched @kernel, or -1. */
gssize
ws_run_index_kernel_launch (const WsRunIndex *self, gsize kernel)
{
  g_return_val_if_fail (kernel < self->run->kernels.n, -1);

  return self->kernel_launch[kernel] == G_MAXUINT32 ? -1 : (gssize) self->kernel_launch[kernel];
}

gssize
ws_run_index_memop_launch (const WsRunIndex *self, gsize memop)
{
  g_return_val_if_fail (memop < self->run->memops.n, -1);

  return self->memop_launch[memop] == G_MAXUINT32 ? -1 : (gssize) self->memop_launch[memop];
}

static gsize
lower_bound (const GArray *times, gint64 t)
{
  return ws_sort_lower_bound ((const gint64 *) (gconstpointer) times->data, 0, times->len, t);
}

/* Calls of @thread that launched GPU work (only kernels with
 * @kernels_only) and started in [@from, @to). */
guint
ws_run_index_count_launches (const WsRunIndex *self, guint32 thread, gint64 from, gint64 to,
                             gboolean kernels_only)
{
  const GArray *starts;

  if (thread >= self->run->threads->len || to <= from)
    return 0;
  starts =
    kernels_only ? self->threads[thread].kernel_launches : self->threads[thread].any_launches;
  return (guint) (lower_bound (starts, to) - lower_bound (starts, from));
}

/* The call of @pid that carried the creation of the CUDA context, or -1. */
gssize
ws_run_index_context_call (const WsRunIndex *self, guint32 pid)
{
  gpointer found = g_hash_table_lookup (self->context_calls, GUINT_TO_POINTER (pid + 1));

  return found != NULL ? (gssize) GPOINTER_TO_SIZE (found) - 1 : -1;
}

/* When @pid last launched a kernel; G_MININT64 when it never did. */
gint64
ws_run_index_last_kernel_launch (const WsRunIndex *self, guint32 pid)
{
  const gint64 *last = g_hash_table_lookup (self->last_kernel_launch, GUINT_TO_POINTER (pid + 1));

  return last != NULL ? *last : G_MININT64;
}

/* Fills @out with the NVTX ranges of @thread open at @time, innermost
 * first; returns how many. */
guint
ws_run_index_nvtx_at (const WsRunIndex *self, guint32 thread, gint64 time, guint32 *out, guint max)
{
  const WsRun *run = self->run;
  GPtrArray *rows;
  guint n = 0;

  if (thread >= run->threads->len)
    return 0;
  rows = self->threads[thread].rows;
  for (guint d = rows->len; d-- > 0 && n < max;)
    {
      const GArray *row = g_ptr_array_index (rows, d);
      gsize lo = 0, hi = row->len;

      /* The last range of the row that starts at or before @time. */
      while (lo < hi)
        {
          gsize mid = lo + (hi - lo) / 2;

          if (run->nvtx.start[g_array_index (row, guint32, mid)] <= time)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo > 0)
        {
          guint32 range = g_array_index (row, guint32, lo - 1);

          if (time < run->nvtx.end[range])
            out[n++] = range;
        }
    }
  return n;
}

/**
 * ws_run_index_device_busy:
 *
 * Returns: (transfer none) (nullable): when GPU @device was busy
 */
const WsBusy *
ws_run_index_device_busy (const WsRunIndex *self, gint32 device)
{
  return g_hash_table_lookup (self->device_busy, GINT_TO_POINTER ((gintptr) device + 1));
}

/**
 * ws_run_index_process_busy:
 *
 * Returns: (transfer none) (nullable): when the GPUs that @pid used were
 * busy with its work
 */
const WsBusy *
ws_run_index_process_busy (const WsRunIndex *self, guint32 pid)
{
  return g_hash_table_lookup (self->process_busy, GUINT_TO_POINTER (pid + 1));
}

/**
 * ws_run_index_devices:
 *
 * Returns: (transfer none) (element-type gint32): the GPUs with events, sorted
 */
GArray *
ws_run_index_devices (const WsRunIndex *self)
{
  return self->devices;
}

/* The first interval that ends after @t. */
static gsize
busy_search (const WsBusy *busy, gint64 t)
{
  gsize lo = 0, hi = busy->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (busy->end[mid] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gint64
busy_before (const WsBusy *busy, gint64 t)
{
  gsize i = busy_search (busy, t);

  if (i < busy->n && busy->start[i] < t)
    return busy->before[i] + (t - busy->start[i]);
  return busy->before[i];
}

/* ns of [@from, @to) during which the GPU was busy. */
gint64
ws_busy_between (const WsBusy *busy, gint64 from, gint64 to)
{
  if (busy == NULL || to <= from)
    return 0;
  return busy_before (busy, to) - busy_before (busy, from);
}

/* The idle gap that holds @time, between two busy intervals: FALSE when
 * the GPU is busy at @time, or has nothing before or after it. */
gboolean
ws_busy_gap_at (const WsBusy *busy, gint64 time, gint64 *gap_start, gint64 *gap_end)
{
  gsize i;

  if (busy == NULL)
    return FALSE;
  i = busy_search (busy, time);
  if (i == 0 || i >= busy->n || busy->start[i] <= time)
    return FALSE;
  *gap_start = busy->end[i - 1];
  *gap_end = busy->start[i];
  return TRUE;
}
