/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gpu-busy"
#include "config.h"

#include "ws-gpu-busy.h"

struct _WsBusyIndex
{
  gsize n;
  gint64 *start; /* ns: disjoint busy spans, sorted, each ending before the next starts */
  gint64 *end;
  gint64 *before; /* ns: the summed length of the spans before each one; [n] is the total */
};

static gboolean
stream_of (const WsRun *run, const guint32 *streams, gsize i, guint32 pid)
{
  guint32 s;

  if (pid == WS_PID_ANY)
    return TRUE;
  /* A lean load keeps no streams: the process cannot be told, so every
   * event counts. */
  if (streams == NULL)
    return TRUE;
  s = streams[i];
  return s < run->streams->len && g_array_index (run->streams, WsStream, s).pid == pid;
}

static void
add_span (WsBusyIndex *self, gint64 start, gint64 end)
{
  if (end <= start)
    return;
  if (self->n > 0 && start <= self->end[self->n - 1])
    {
      self->end[self->n - 1] = MAX (self->end[self->n - 1], end);
      return;
    }
  self->start[self->n] = start;
  self->end[self->n] = end;
  self->n++;
}

/**
 * ws_busy_index_new:
 * @pid: the process whose GPU work counts, or %WS_PID_ANY
 * @what: kernels, memory operations, or both
 *
 * Returns: (transfer full): the busy spans of @run's GPUs
 */
WsBusyIndex *
ws_busy_index_new (const WsRun *run, guint32 pid, WsBusyWhat what)
{
  return ws_busy_index_new_masked (run, pid, what, NULL, 0);
}

/**
 * ws_busy_index_new_masked:
 * @kernel_mask: (nullable): per kernel of @run, a class (NCCL or not, …)
 * @want: the class of the kernels that count
 *
 * The same as ws_busy_index_new() over some kernels only: those whose
 * @kernel_mask is @want (all of them without a mask).
 *
 * Returns: (transfer full): the busy spans
 */
WsBusyIndex *
ws_busy_index_new_masked (const WsRun *run, guint32 pid, WsBusyWhat what, const guint8 *kernel_mask,
                          guint8 want)
{
  WsBusyIndex *self = g_new0 (WsBusyIndex, 1);
  const WsKernels *k = &run->kernels;
  const WsMemops *m = &run->memops;
  gsize nk = (what & WS_BUSY_KERNELS) ? k->n : 0;
  gsize nm = (what & WS_BUSY_MEMOPS) && m->start != NULL ? m->n : 0;
  gsize i = 0, j = 0;

  self->start = g_new (gint64, MAX (nk + nm, 1));
  self->end = g_new (gint64, MAX (nk + nm, 1));

  /* Both tables are sorted by start: merged in one pass. */
  while (i < nk || j < nm)
    {
      gboolean kernel = j >= nm || (i < nk && k->start[i] <= m->start[j]);

      if (kernel)
        {
          if (stream_of (run, k->stream, i, pid) && (kernel_mask == NULL || kernel_mask[i] == want))
            add_span (self, k->start[i], k->end[i]);
          i++;
        }
      else
        {
          if (stream_of (run, m->stream, j, pid))
            add_span (self, m->start[j], m->end[j]);
          j++;
        }
    }

  self->before = g_new (gint64, self->n + 1);
  self->before[0] = 0;
  for (gsize s = 0; s < self->n; s++)
    self->before[s + 1] = self->before[s] + (self->end[s] - self->start[s]);
  return self;
}

void
ws_busy_index_free (WsBusyIndex *self)
{
  if (self == NULL)
    return;
  g_free (self->start);
  g_free (self->end);
  g_free (self->before);
  g_free (self);
}

/* The first span that ends after @time. */
static gsize
first_ending_after (const WsBusyIndex *self, gint64 time)
{
  gsize lo = 0, hi = self->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->end[mid] <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first span that starts at or after @time. */
static gsize
first_starting_from (const WsBusyIndex *self, gint64 time)
{
  gsize lo = 0, hi = self->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->start[mid] < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * ws_busy_index_busy:
 *
 * Returns: ns of [@from, @to) during which the GPU was busy
 */
gint64
ws_busy_index_busy (const WsBusyIndex *self, gint64 from, gint64 to)
{
  gsize a, b;
  gint64 busy;

  g_return_val_if_fail (self != NULL, 0);

  if (to <= from || self->n == 0)
    return 0;
  a = first_ending_after (self, from);
  b = first_starting_from (self, to);
  if (a >= b)
    return 0;
  busy = self->before[b] - self->before[a];
  /* The first and last spans may stick out of the window. */
  if (self->start[a] < from)
    busy -= from - self->start[a];
  if (self->end[b - 1] > to)
    busy -= self->end[b - 1] - to;
  return busy;
}

/* ns: the busy time of the whole run. */
gint64
ws_busy_index_total (const WsBusyIndex *self)
{
  return self->before[self->n];
}

/* How many disjoint busy spans the run has. */
gsize
ws_busy_index_n_spans (const WsBusyIndex *self)
{
  return self->n;
}

/**
 * ws_gpu_busy_during:
 * @pid: the process, or %WS_PID_ANY
 *
 * Returns: ns of [@from, @to) with a kernel or memory operation of @pid
 * running on some GPU.  For many windows, build a #WsBusyIndex once.
 */
gint64
ws_gpu_busy_during (const WsRun *run, guint32 pid, gint64 from, gint64 to)
{
  g_autoptr (WsBusyIndex) index = ws_busy_index_new (run, pid, WS_BUSY_ALL);

  return ws_busy_index_busy (index, from, to);
}
