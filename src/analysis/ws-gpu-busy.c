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

static void
add_span (GArray *starts, GArray *ends, gint64 start, gint64 end)
{
  if (end <= start)
    return;
  if (starts->len > 0 && start <= g_array_index (ends, gint64, ends->len - 1))
    {
      gint64 *last = &g_array_index (ends, gint64, ends->len - 1);

      *last = MAX (*last, end);
      return;
    }
  g_array_append_val (starts, start);
  g_array_append_val (ends, end);
}

/* One of the GPU work tables, walked in start order. */
typedef struct
{
  gsize n, i;
  const gint64 *start;
  const gint64 *end;
  const guint32 *stream;
} Cursor;

static gboolean
passes (const WsRun *run, const Cursor *c, WsBusyStreamFilter filter, gint64 key)
{
  /* A lean load keeps no streams: the process cannot be told, so every
   * event counts. */
  if (filter == NULL || c->stream == NULL)
    return TRUE;
  return c->stream[c->i] < run->streams->len && filter (run, c->stream[c->i], key);
}

/**
 * ws_busy_spans:
 * @filter: (nullable): whose streams count; %NULL: every stream
 * @kernel_mask: (nullable): per kernel of @run, a class (NCCL or not, …)
 * @want: the class of the kernels that count
 * @starts: (element-type gint64): gets the disjoint busy spans' starts, sorted
 * @ends: (element-type gint64): and their ends
 *
 * The one definition of when a GPU is busy (docs/cuda-graphs.md): the
 * union of the kernels, memory operations and graph replays that @what
 * names.  A replay spans its first node's start to its last node's end.
 * With a mask, the kernels of class @want count, and so do replays recorded
 * without their kernels (a graph-level trace) when @want is 0, the class
 * of ordinary work: what runs inside such a replay cannot be told.
 */
void
ws_busy_spans (const WsRun *run, WsBusyWhat what, WsBusyStreamFilter filter, gint64 key,
               const guint8 *kernel_mask, guint8 want, GArray *starts, GArray *ends)
{
  const WsKernels *k = &run->kernels;
  const WsMemops *m = &run->memops;
  const WsGraphReplays *g = &run->replays;
  Cursor c[3] = {
    { (what & WS_BUSY_KERNELS) ? k->n : 0, 0, k->start, k->end, k->stream },
    { (what & WS_BUSY_MEMOPS) && m->start != NULL ? m->n : 0, 0, m->start, m->end, m->stream },
    { (what & WS_BUSY_REPLAYS) && (kernel_mask == NULL || want == 0) ? g->n : 0, 0, g->start,
      g->end, g->stream },
  };

  /* Each table is sorted by start: merged in one pass. */
  for (;;)
    {
      int next = -1;

      for (int t = 0; t < 3; t++)
        if (c[t].i < c[t].n && (next < 0 || c[t].start[c[t].i] < c[next].start[c[next].i]))
          next = t;
      if (next < 0)
        break;
      if (passes (run, &c[next], filter, key) &&
          (next != 0 || kernel_mask == NULL || kernel_mask[c[0].i] == want) &&
          (next != 2 || kernel_mask == NULL || g->nodes[c[2].i] == 0))
        add_span (starts, ends, c[next].start[c[next].i], c[next].end[c[next].i]);
      c[next].i++;
    }
}

static gboolean
stream_of_pid (const WsRun *run, guint32 stream, gint64 pid)
{
  return g_array_index (run->streams, WsStream, stream).pid == (guint32) pid;
}

/**
 * ws_busy_index_new:
 * @pid: the process whose GPU work counts, or %WS_PID_ANY
 * @what: kernels, memory operations, replays, or several
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
 * @kernel_mask is @want (all of them without a mask); see ws_busy_spans().
 *
 * Returns: (transfer full): the busy spans
 */
WsBusyIndex *
ws_busy_index_new_masked (const WsRun *run, guint32 pid, WsBusyWhat what, const guint8 *kernel_mask,
                          guint8 want)
{
  WsBusyIndex *self = g_new0 (WsBusyIndex, 1);
  g_autoptr (GArray) starts = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) ends = g_array_new (FALSE, FALSE, sizeof (gint64));

  ws_busy_spans (run, what, pid == WS_PID_ANY ? NULL : stream_of_pid, pid, kernel_mask, want,
                 starts, ends);
  self->n = starts->len;
  self->start = (gint64 *) g_array_free (g_steal_pointer (&starts), FALSE);
  self->end = (gint64 *) g_array_free (g_steal_pointer (&ends), FALSE);
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
 * ws_busy_index_extent:
 * @first: (out): ns: when the first GPU work starts
 * @last: (out): ns: when the last ends
 *
 * Returns: %FALSE, leaving @first and @last alone, when there is no work
 */
gboolean
ws_busy_index_extent (const WsBusyIndex *self, gint64 *first, gint64 *last)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->n == 0)
    return FALSE;
  *first = self->start[0];
  *last = self->end[self->n - 1];
  return TRUE;
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
