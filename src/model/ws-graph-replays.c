/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-run"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-run-build.h"
#include "ws-sort.h"

/* CUDA graph replays (WsRun.replays): built from the kernels and memory
 * operations that one graph launch ran, and what the pages ask of them.
 * The definitions are in docs/cuda-graphs.md. */

typedef struct
{
  gint64 start;
  gint64 end;
  guint32 stream;
  guint32 correlation;
  guint32 graph;
  guint32 nodes;
} Replay;

static guint32
stream_pid (const WsRun *run, guint32 stream)
{
  return stream < run->streams->len ? g_array_index (run->streams, WsStream, stream).pid : 0;
}

/* A launch is (process, correlation id): correlation ids restart in each
 * process of a job. */
static gint64
launch_key (const WsRun *run, guint32 stream, guint32 correlation)
{
  return ((gint64) stream_pid (run, stream) << 32) | correlation;
}

/* Adds the events of one table whose @replay holds a graph id (not
 * WS_REPLAY_NONE) to the replay of their launch, and leaves in @replay the
 * replay's place in @list. */
static void
group_nodes (const WsRun *run, GArray *list, GHashTable *by_launch, gsize n, const gint64 *start,
             const gint64 *end, const guint32 *stream, const guint32 *correlation, guint32 *replay)
{
  for (gsize i = 0; replay != NULL && i < n; i++)
    {
      gint64 key;
      gpointer found;
      Replay *r;

      if (replay[i] == WS_REPLAY_NONE)
        continue;
      key =
        launch_key (run, stream != NULL ? stream[i] : 0, correlation != NULL ? correlation[i] : 0);
      if (!g_hash_table_lookup_extended (by_launch, &key, NULL, &found))
        {
          Replay fresh = { start[i],
                           end[i],
                           stream != NULL ? stream[i] : 0,
                           correlation != NULL ? correlation[i] : 0,
                           replay[i],
                           0 };
          gint64 *stored = g_new (gint64, 1);

          *stored = key;
          g_array_append_val (list, fresh);
          found = GUINT_TO_POINTER (list->len - 1);
          g_hash_table_insert (by_launch, stored, found);
        }
      r = &g_array_index (list, Replay, GPOINTER_TO_UINT (found));
      /* Events are sorted by start: the first one is where the replay
       * starts, and its stream is where it was launched. */
      r->end = MAX (r->end, end[i]);
      r->nodes++;
      replay[i] = GPOINTER_TO_UINT (found);
    }
}

/**
 * ws_run_build_replays:
 *
 * For the code that reads a run: turns the graph ids that a reader left in
 * WsKernels.replay and WsMemops.replay (the executable graph's id, 0 when
 * unknown, WS_REPLAY_NONE outside a graph) into replays, one per launch,
 * added to those the run already has (a graph-level trace), and leaves in
 * those columns each event's replay.  The kernels and memory operations
 * must be sorted by start.  Replays end up sorted by start; a run with no
 * event inside a graph loses the columns.
 */
void
ws_run_build_replays (WsRun *self)
{
  g_autoptr (GArray) list = g_array_new (FALSE, FALSE, sizeof (Replay));
  g_autoptr (GHashTable) by_launch =
    g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  WsGraphReplays *out = &self->replays;
  g_autofree guint32 *place = NULL;

  for (gsize i = 0; i < out->n; i++)
    {
      Replay r = { out->start[i],       out->end[i],   out->stream[i],
                   out->correlation[i], out->graph[i], out->nodes[i] };

      g_array_append_val (list, r);
    }
  group_nodes (self, list, by_launch, self->kernels.n, self->kernels.start, self->kernels.end,
               self->kernels.stream, self->kernels.correlation, self->kernels.replay);
  group_nodes (self, list, by_launch, self->memops.n, self->memops.start, self->memops.end,
               self->memops.stream, self->memops.correlation, self->memops.replay);
  if (g_hash_table_size (by_launch) == 0)
    {
      g_clear_pointer (&self->kernels.replay, g_free);
      g_clear_pointer (&self->memops.replay, g_free);
    }

  /* Sorted by start (ws-sort.h's order); the events' places follow. */
  {
    g_autofree gint64 *starts = g_new (gint64, MAX (list->len, 1));
    g_autofree gint64 *ends = g_new (gint64, MAX (list->len, 1));
    g_autofree guint32 *order = NULL;
    g_autoptr (GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (Replay), list->len);

    for (guint i = 0; i < list->len; i++)
      {
        starts[i] = g_array_index (list, Replay, i).start;
        ends[i] = g_array_index (list, Replay, i).end;
      }
    order = ws_sort_order (starts, ends, list->len);
    place = g_new (guint32, MAX (list->len, 1));
    for (guint j = 0; j < list->len; j++)
      {
        place[order[j]] = j;
        g_array_append_val (sorted, g_array_index (list, Replay, order[j]));
      }
    g_array_set_size (list, 0);
    g_array_append_vals (list, sorted->data, sorted->len);
  }
  for (gsize i = 0; self->kernels.replay != NULL && i < self->kernels.n; i++)
    if (self->kernels.replay[i] != WS_REPLAY_NONE)
      self->kernels.replay[i] = place[self->kernels.replay[i]];
  for (gsize i = 0; self->memops.replay != NULL && i < self->memops.n; i++)
    if (self->memops.replay[i] != WS_REPLAY_NONE)
      self->memops.replay[i] = place[self->memops.replay[i]];

  g_free (out->start);
  g_free (out->end);
  g_free (out->stream);
  g_free (out->correlation);
  g_free (out->graph);
  g_free (out->nodes);
  out->n = list->len;
  out->start = g_new (gint64, MAX (out->n, 1));
  out->end = g_new (gint64, MAX (out->n, 1));
  out->stream = g_new (guint32, MAX (out->n, 1));
  out->correlation = g_new (guint32, MAX (out->n, 1));
  out->graph = g_new (guint32, MAX (out->n, 1));
  out->nodes = g_new (guint32, MAX (out->n, 1));
  for (gsize i = 0; i < out->n; i++)
    {
      const Replay *r = &g_array_index (list, Replay, i);

      out->start[i] = r->start;
      out->end[i] = r->end;
      out->stream[i] = r->stream;
      out->correlation[i] = r->correlation;
      out->graph[i] = r->graph;
      out->nodes[i] = r->nodes;
    }
}

/**
 * ws_run_kernel_in_graph:
 *
 * Returns: whether kernel @kernel ran inside a CUDA graph replay
 */
gboolean
ws_run_kernel_in_graph (const WsRun *self, gsize kernel)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->kernels.replay != NULL && kernel < self->kernels.n &&
         self->kernels.replay[kernel] != WS_REPLAY_NONE;
}

/**
 * ws_run_replay_stream:
 *
 * Returns: (transfer none): the stream replay @replay was launched into
 */
const WsStream *
ws_run_replay_stream (const WsRun *self, gsize replay)
{
  g_return_val_if_fail (self != NULL && replay < self->replays.n, NULL);

  return &g_array_index (self->streams, WsStream, self->replays.stream[replay]);
}

/**
 * ws_run_replays_outside_kernels:
 * @n: (out) (optional): how many such replays
 *
 * What the kernel table does not hold: the replays of a graph-level trace,
 * whose kernels nsys recorded as one span each.  Their GPU time is in no
 * `nsys stats` report, and the pages that show one say so with this.
 *
 * Returns: ns: the summed spans of the replays recorded without their kernels
 */
gint64
ws_run_replays_outside_kernels (const WsRun *self, guint *n)
{
  gint64 total = 0;
  guint count = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (gsize i = 0; i < self->replays.n; i++)
    if (self->replays.nodes[i] == 0)
      {
        total += self->replays.end[i] - self->replays.start[i];
        count++;
      }
  if (n != NULL)
    *n = count;
  return total;
}

/* The length of @name without its version and stream suffixes:
 * "cudaGraphLaunch_ptsz_v10000" → that of "cudaGraphLaunch". */
static gsize
call_base_length (const char *name)
{
  gsize len = strlen (name);
  gboolean again = TRUE;

  while (again)
    {
      gsize digits = len;

      again = FALSE;
      while (digits > 0 && g_ascii_isdigit (name[digits - 1]))
        digits--;
      if (digits < len && digits >= 2 && name[digits - 1] == 'v' && name[digits - 2] == '_')
        {
          len = digits - 2;
          again = TRUE;
        }
      else if (len > 5 && (strncmp (name + len - 5, "_ptsz", 5) == 0 ||
                           strncmp (name + len - 5, "_ptds", 5) == 0))
        {
          len -= 5;
          again = TRUE;
        }
    }
  return len;
}

static gboolean
base_is (const char *name, gsize len, const char *base)
{
  return len == strlen (base) && strncmp (name, base, len) == 0;
}

static gboolean
base_starts (const char *name, gsize len, const char *prefix)
{
  return len >= strlen (prefix) && strncmp (name, prefix, strlen (prefix)) == 0;
}

/**
 * ws_graph_call_kind:
 * @name: a CUDA runtime or driver call's name, as nsys exports it
 *   ("cudaGraphLaunch_v10000") or PyTorch's profiler records it
 *   ("cudaGraphLaunch")
 *
 * Returns: what the call does with CUDA graphs, WS_GRAPH_CALL_NONE for
 *   the other calls
 */
WsGraphCall
ws_graph_call_kind (const char *name)
{
  gsize len;

  if (name == NULL)
    return WS_GRAPH_CALL_NONE;
  len = call_base_length (name);
  if (base_is (name, len, "cudaGraphLaunch") || base_is (name, len, "cuGraphLaunch"))
    return WS_GRAPH_CALL_LAUNCH;
  /* WithFlags and WithParams too. */
  if (base_starts (name, len, "cudaGraphInstantiate") ||
      base_starts (name, len, "cuGraphInstantiate"))
    return WS_GRAPH_CALL_INSTANTIATE;
  /* ToGraph too. */
  if (base_starts (name, len, "cudaStreamBeginCapture") ||
      base_starts (name, len, "cuStreamBeginCapture"))
    return WS_GRAPH_CALL_BEGIN_CAPTURE;
  if (base_is (name, len, "cudaStreamEndCapture") || base_is (name, len, "cuStreamEndCapture"))
    return WS_GRAPH_CALL_END_CAPTURE;
  return WS_GRAPH_CALL_NONE;
}
