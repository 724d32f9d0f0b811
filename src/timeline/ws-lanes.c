/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-lanes"
#include "config.h"

#include <string.h>

#include "ws-lanes-private.h"
#include "ws-ranks.h"

/* The metrics that get a lane, in this order, by the start of their name
 * in TARGET_INFO_GPU_METRICS; the others are left out. */
static const char *const shown_metrics[] = {
  "SMs Active",           "SM Issue",           "Tensor Active",      "DRAM Read Bandwidth",
  "DRAM Write Bandwidth", "PCIe RX Throughput", "PCIe TX Throughput",
};

static inline gboolean
key_le (gint64 s0, gint64 e0, gint64 s1, gint64 e1)
{
  return s0 < s1 || (s0 == s1 && e0 >= e1);
}

static void
lane_clear (gpointer data)
{
  WsLane *lane = data;

  for (guint r = 0; r < lane->n_tracks; r++)
    ws_track_clear (&lane->tracks[r]);
  g_free (lane->tracks);
  ws_track_clear (&lane->marks);
  ws_track_clear (&lane->replays);
  ws_series_clear (&lane->series);
}

static WsLane
lane_new (WsLaneKind kind)
{
  WsLane lane = { 0 };

  lane.kind = kind;
  lane.group = WS_LANE_NONE;
  lane.device = -1;
  lane.stream = lane.thread = lane.metric = G_MAXUINT32;
  lane.rank = -1;
  return lane;
}

/* Events of one kind split by a key (stream or thread), each part keeping
 * the table's order. */
typedef struct
{
  guint n_keys;
  gsize *count;
  gsize *fill;
  WsEventRef **events;
} Split;

static void
split_init (Split *split, guint n_keys)
{
  split->n_keys = n_keys;
  split->count = g_new0 (gsize, n_keys + 1);
  split->fill = g_new0 (gsize, n_keys + 1);
  split->events = g_new0 (WsEventRef *, n_keys + 1);
}

static void
split_alloc (Split *split)
{
  for (guint k = 0; k < split->n_keys; k++)
    if (split->count[k] > 0)
      split->events[k] = g_new (WsEventRef, split->count[k]);
}

static void
split_clear (Split *split)
{
  for (guint k = 0; k < split->n_keys; k++)
    g_free (split->events[k]);
  g_free (split->count);
  g_free (split->fill);
  g_free (split->events);
}

static inline void
split_add (Split *split, guint key, WsEventRef ref)
{
  split->events[key][split->fill[key]++] = ref;
}

/* Hands the events of @key to a new track. */
static void
split_take (Split *split, guint key, WsTrack *track, const WsLanes *lanes)
{
  ws_track_init (track, split->events[key], split->count[key]);
  split->events[key] = NULL;
  ws_track_finish (track, lanes->run, lanes->api_classes);
}

static int
compare_i32 (gconstpointer a, gconstpointer b)
{
  gint32 x = *(const gint32 *) a, y = *(const gint32 *) b;

  return (x > y) - (x < y);
}

static void
add_lane (WsLanes *self, WsLane *lane)
{
  g_array_append_val (self->lanes, *lane);
}

/* What the stream lanes are made of: per stream, its work (kernels,
 * memory operations and the graph replays recorded without their
 * kernels) and its band (the replays whose kernels are in the work). */
typedef struct
{
  Split work;
  Split bands;
} StreamSplit;

static inline gboolean
stream_has_events (const StreamSplit *split, guint s)
{
  return split->work.count[s] > 0 || split->bands.count[s] > 0;
}

static inline gboolean
event_before (const WsRun *run, WsEventRef a, WsEventRef b)
{
  return !key_le (ws_event_start (run, b), ws_event_end (run, b), ws_event_start (run, a),
                  ws_event_end (run, a));
}

/* The next graph replay at or after @r recorded without its kernels. */
static inline gsize
next_whole_replay (const WsGraphReplays *g, gsize r, gsize n)
{
  while (r < n && g->nodes[r] > 0)
    r++;
  return r;
}

/* GPU streams: kernels, memory operations and whole replays merged in
 * start order (ties: kernels, then memory operations, then replays); the
 * other replays in their bands. */
static void
build_streams (WsLanes *self, StreamSplit *split)
{
  const WsRun *run = self->run;
  const WsKernels *k = &run->kernels;
  const WsMemops *m = &run->memops;
  const WsGraphReplays *g = &run->replays;
  Split *streams = &split->work;
  gsize nk = k->stream != NULL ? MIN (k->n, WS_EVENT_INDEX_MAX) : 0;
  gsize nm = m->stream != NULL ? MIN (m->n, WS_EVENT_INDEX_MAX) : 0;
  gsize ng = MIN (g->n, WS_EVENT_INDEX_MAX);
  gsize i = 0, j = 0, r;

  split_init (streams, run->streams->len);
  split_init (&split->bands, run->streams->len);
  for (gsize x = 0; x < nk; x++)
    if (k->stream[x] < streams->n_keys)
      streams->count[k->stream[x]]++;
  for (gsize x = 0; x < nm; x++)
    if (m->stream[x] < streams->n_keys)
      streams->count[m->stream[x]]++;
  for (gsize x = 0; x < ng; x++)
    if (g->stream[x] < streams->n_keys)
      (g->nodes[x] == 0 ? streams : &split->bands)->count[g->stream[x]]++;
  split_alloc (streams);
  split_alloc (&split->bands);
  for (gsize x = 0; x < ng; x++)
    if (g->stream[x] < streams->n_keys && g->nodes[x] > 0)
      split_add (&split->bands, g->stream[x], ws_event_ref (WS_EVENT_REPLAY, x));

  r = next_whole_replay (g, 0, ng);
  while (i < nk || j < nm || r < ng)
    {
      WsEventRef next[] = { i < nk ? ws_event_ref (WS_EVENT_KERNEL, i) : WS_EVENT_NONE,
                            j < nm ? ws_event_ref (WS_EVENT_MEMOP, j) : WS_EVENT_NONE,
                            r < ng ? ws_event_ref (WS_EVENT_REPLAY, r) : WS_EVENT_NONE };
      guint pick = G_N_ELEMENTS (next);
      guint32 stream;

      for (guint c = 0; c < G_N_ELEMENTS (next); c++)
        if (next[c] != WS_EVENT_NONE &&
            (pick == G_N_ELEMENTS (next) || event_before (run, next[c], next[pick])))
          pick = c;
      stream = pick == 0 ? k->stream[i] : pick == 1 ? m->stream[j] : g->stream[r];
      if (stream < streams->n_keys)
        split_add (streams, stream, next[pick]);
      if (pick == 0)
        i++;
      else if (pick == 1)
        j++;
      else
        r = next_whole_replay (g, r + 1, ng);
    }
}

/* A stream's lane: its work in row 0, its replays' band. */
static void
add_stream_lane (WsLanes *self, StreamSplit *split, guint32 s, guint32 group)
{
  const WsStream *stream = &g_array_index (self->run->streams, WsStream, s);
  WsLane lane = lane_new (WS_LANE_STREAM);

  lane.group = group;
  lane.device = stream->device_id;
  lane.pid = stream->pid;
  lane.rank = ws_lanes_get_lane (self, group)->rank;
  lane.stream = s;
  lane.n_tracks = 1;
  lane.tracks = g_new0 (WsTrack, 1);
  split_take (&split->work, s, &lane.tracks[0], self);
  split_take (&split->bands, s, &lane.replays, self);
  self->stream_lane[s] = self->lanes->len;
  add_lane (self, &lane);
}

static void
build_by_thread (Split *split, guint n_threads, const guint32 *thread, gsize n, WsEventKind kind)
{
  split_init (split, n_threads);
  if (thread == NULL)
    return;
  n = MIN (n, WS_EVENT_INDEX_MAX);
  for (gsize x = 0; x < n; x++)
    if (thread[x] < n_threads)
      split->count[thread[x]]++;
  split_alloc (split);
  for (gsize x = 0; x < n; x++)
    if (thread[x] < n_threads)
      split_add (split, thread[x], ws_event_ref (kind, x));
}

/* NVTX ranges of each thread, one track per depth. */
static WsTrack **
build_nvtx_rows (const WsRun *run, guint *n_rows)
{
  const WsNvtxRanges *nv = &run->nvtx;
  guint n_threads = run->threads->len;
  gsize n = MIN (nv->n, WS_EVENT_INDEX_MAX);
  WsTrack **rows = g_new0 (WsTrack *, n_threads + 1);
  gsize **count = g_new0 (gsize *, n_threads + 1);
  gsize **fill = g_new0 (gsize *, n_threads + 1);

  for (gsize x = 0; x < n; x++)
    if (nv->thread[x] < n_threads)
      n_rows[nv->thread[x]] = MAX (n_rows[nv->thread[x]], (guint) nv->depth[x] + 1);
  for (guint t = 0; t < n_threads; t++)
    if (n_rows[t] > 0)
      {
        count[t] = g_new0 (gsize, n_rows[t]);
        fill[t] = g_new0 (gsize, n_rows[t]);
      }
  for (gsize x = 0; x < n; x++)
    if (nv->thread[x] < n_threads)
      count[nv->thread[x]][nv->depth[x]]++;
  for (guint t = 0; t < n_threads; t++)
    if (n_rows[t] > 0)
      {
        rows[t] = g_new0 (WsTrack, n_rows[t]);
        for (guint d = 0; d < n_rows[t]; d++)
          ws_track_init (&rows[t][d], g_new (WsEventRef, MAX (count[t][d], 1)), count[t][d]);
      }
  for (gsize x = 0; x < n; x++)
    {
      guint32 t = nv->thread[x];

      if (t < n_threads)
        rows[t][nv->depth[x]].events[fill[t][nv->depth[x]]++] = ws_event_ref (WS_EVENT_NVTX, x);
    }
  for (guint t = 0; t < n_threads; t++)
    {
      for (guint d = 0; d < n_rows[t]; d++)
        ws_track_finish (&rows[t][d], run, NULL);
      g_free (count[t]);
      g_free (fill[t]);
    }
  g_free (count);
  g_free (fill);
  return rows;
}

static const char *
metric_name (const WsRun *run, const WsGpuMetric *metric)
{
  const char *name = ws_run_string (run, metric->name);

  return name != NULL ? name : "";
}

/* Which of shown_metrics @metric is, or -1. */
static int
shown_metric_rank (const WsRun *run, const WsGpuMetric *metric)
{
  const char *name = metric_name (run, metric);

  for (guint i = 0; i < G_N_ELEMENTS (shown_metrics); i++)
    if (g_str_has_prefix (name, shown_metrics[i]))
      return (int) i;
  return -1;
}

static void
add_metric_lanes (WsLanes *self, gint64 type_id, gint32 device, guint32 group)
{
  const WsRun *run = self->run;

  for (guint rank = 0; rank < G_N_ELEMENTS (shown_metrics); rank++)
    for (guint m = 0; m < run->metrics->len; m++)
      {
        const WsGpuMetric *metric = &g_array_index (run->metrics, WsGpuMetric, m);
        WsLane lane;

        if (metric->type_id != type_id || metric->n == 0 ||
            shown_metric_rank (run, metric) != (int) rank)
          continue;
        lane = lane_new (WS_LANE_METRIC);
        lane.group = group;
        lane.device = device;
        lane.metric = m;
        lane.percent = strstr (metric_name (run, metric), "%]") != NULL;
        ws_series_init (&lane.series, run->metric_samples.time + metric->first,
                        run->metric_samples.value + metric->first, metric->n);
        add_lane (self, &lane);
      }
}

/* The memory in use on @device: the running sum of allocations and frees,
 * raised so that it never goes below zero (a capture that starts after
 * some allocations sees their frees first).  Summed in double: a file's
 * byte counts at the int64 extremes overflow an int64 sum. */
static gboolean
add_memory_lane (WsLanes *self, gint32 device, guint32 group)
{
  const WsMemUsage *u = &self->run->mem_usage;
  gsize n = 0, x = 0;
  double running = 0, lowest = 0;
  gint64 *time;
  float *value;
  WsLane lane;

  for (gsize i = 0; i < u->n; i++)
    if (u->device == NULL || u->device[i] == device)
      n++;
  if (n == 0)
    return FALSE;
  time = g_new (gint64, n);
  value = g_new (float, n);
  for (gsize i = 0; i < u->n; i++)
    if (u->device == NULL || u->device[i] == device)
      {
        running += (double) u->bytes[i];
        lowest = MIN (lowest, running);
        time[x++] = u->time[i];
      }
  running = 0;
  x = 0;
  for (gsize i = 0; i < u->n; i++)
    if (u->device == NULL || u->device[i] == device)
      {
        running += (double) u->bytes[i];
        value[x++] = (float) (running - lowest);
      }

  lane = lane_new (WS_LANE_MEMORY);
  lane.group = group;
  lane.device = device;
  ws_series_init_owned (&lane.series, time, value, n);
  add_lane (self, &lane);
  return TRUE;
}

typedef struct
{
  guint32 pid;
  gint32 stream_id;
  guint32 index;
} StreamKey;

static int
compare_stream_keys (gconstpointer a, gconstpointer b)
{
  const StreamKey *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->stream_id != y->stream_id)
    return x->stream_id < y->stream_id ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

typedef struct
{
  guint32 pid;
  guint32 is_main; /* 0 for the main thread (tid == pid), so that it sorts first */
  guint32 tid;
  guint32 index;
} ThreadKey;

static int
compare_thread_keys (gconstpointer a, gconstpointer b)
{
  const ThreadKey *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->is_main != y->is_main)
    return x->is_main < y->is_main ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static void
build_gpu_lanes (WsLanes *self, StreamSplit *streams, gboolean with_streams)
{
  const WsRun *run = self->run;
  g_autoptr (GArray) devices = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr (GArray) sources = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (StreamKey));
  gboolean sources_match;

  /* The devices: those of the streams with events, and those with memory usage. */
  for (guint s = 0; with_streams && s < streams->work.n_keys; s++)
    if (stream_has_events (streams, s))
      {
        const WsStream *stream = &g_array_index (run->streams, WsStream, s);
        StreamKey key = { stream->pid, stream->stream_id, s };

        g_array_append_val (devices, stream->device_id);
        g_array_append_val (keys, key);
      }
  for (gsize i = 0; i < run->mem_usage.n && run->mem_usage.device != NULL; i++)
    if (i == 0 || run->mem_usage.device[i] != run->mem_usage.device[i - 1])
      g_array_append_val (devices, run->mem_usage.device[i]);
  g_array_sort (devices, compare_i32);
  for (guint i = 1; i < devices->len;)
    if (g_array_index (devices, gint32, i) == g_array_index (devices, gint32, i - 1))
      g_array_remove_index (devices, i);
    else
      i++;
  g_array_sort (keys, compare_stream_keys);

  /* Metric sources (GPUs) in the order of the capture: matched to devices
   * by order when there are as many; otherwise each gets its own group. */
  for (guint m = 0; m < run->metrics->len; m++)
    {
      const WsGpuMetric *metric = &g_array_index (run->metrics, WsGpuMetric, m);
      gboolean seen = FALSE;

      if (shown_metric_rank (run, metric) < 0 || metric->n == 0)
        continue;
      for (guint i = 0; i < sources->len; i++)
        seen = seen || g_array_index (sources, gint64, i) == metric->type_id;
      if (!seen)
        g_array_append_val (sources, metric->type_id);
    }
  sources_match = sources->len == devices->len;

  for (guint d = 0; d < devices->len; d++)
    {
      gint32 device = g_array_index (devices, gint32, d);
      WsLane group = lane_new (WS_LANE_GROUP);
      guint32 group_index = self->lanes->len;

      group.group_kind = WS_GROUP_GPU;
      group.device = device;
      add_lane (self, &group);
      if (sources_match)
        add_metric_lanes (self, g_array_index (sources, gint64, d), device, group_index);
      add_memory_lane (self, device, group_index);
      for (guint k = 0; k < keys->len; k++)
        {
          const StreamKey *key = &g_array_index (keys, StreamKey, k);

          if (g_array_index (run->streams, WsStream, key->index).device_id == device)
            add_stream_lane (self, streams, key->index, group_index);
        }
    }

  if (!sources_match)
    for (guint s = 0; s < sources->len; s++)
      {
        WsLane group = lane_new (WS_LANE_GROUP);
        guint32 group_index = self->lanes->len;

        group.group_kind = WS_GROUP_GPU;
        add_lane (self, &group);
        add_metric_lanes (self, g_array_index (sources, gint64, s), -1, group_index);
      }
}

/* The place of a process among the groups: a job's ranks first, in rank
 * order, then the other processes by pid. */
static guint64
process_order (const WsRun *run, guint32 pid)
{
  gint index = run->ranks != NULL ? ws_ranks_index_of_pid (run->ranks, pid) : -1;

  return index >= 0 ? (guint64) index : ((guint64) 1 << 32) + pid;
}

static int
compare_thread_keys_ranked (gconstpointer a, gconstpointer b, gpointer data)
{
  const ThreadKey *x = a, *y = b;
  guint64 ox = process_order (data, x->pid), oy = process_order (data, y->pid);

  if (ox != oy)
    return ox < oy ? -1 : 1;
  return compare_thread_keys (a, b);
}

static void
add_process_group (WsLanes *self, guint32 pid, guint32 *group_index)
{
  const WsRun *run = self->run;
  WsLane group = lane_new (WS_LANE_GROUP);
  gint index = run->ranks != NULL ? ws_ranks_index_of_pid (run->ranks, pid) : -1;

  group.group_kind = WS_GROUP_PROCESS;
  group.pid = pid;
  group.rank = index >= 0 ? (gint32) ws_ranks_get (run->ranks, index)->rank : -1;
  *group_index = self->lanes->len;
  add_lane (self, &group);
}

/* A job's run: a rank's streams open its group, before its threads. */
static void
add_stream_lanes (WsLanes *self, StreamSplit *streams, guint32 pid, guint32 group_index)
{
  const WsRun *run = self->run;
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (StreamKey));

  for (guint s = 0; s < streams->work.n_keys; s++)
    {
      const WsStream *stream = &g_array_index (run->streams, WsStream, s);
      StreamKey key = { stream->pid, stream->stream_id, s };

      if (stream_has_events (streams, s) && stream->pid == pid)
        g_array_append_val (keys, key);
    }
  g_array_sort (keys, compare_stream_keys);
  for (guint k = 0; k < keys->len; k++)
    add_stream_lane (self, streams, g_array_index (keys, StreamKey, k).index, group_index);
}

/* A thread's lane of one track: its CUDA API calls, OS runtime calls or
 * CPU samples. */
static void
add_thread_track_lane (WsLanes *self, WsLaneKind kind, Split *split, guint32 t, guint32 pid,
                       guint32 group, guint32 *index)
{
  WsLane lane;

  if (split->count[t] == 0)
    return;
  lane = lane_new (kind);
  lane.group = group;
  lane.pid = pid;
  lane.rank = ws_lanes_get_lane (self, group)->rank;
  lane.thread = t;
  lane.n_tracks = 1;
  lane.tracks = g_new0 (WsTrack, 1);
  split_take (split, t, &lane.tracks[0], self);
  index[t] = self->lanes->len;
  add_lane (self, &lane);
}

/* @streams: the streams to place under their processes (a job's run), or
 * %NULL when the GPU groups hold them. */
static void
build_thread_lanes (WsLanes *self, StreamSplit *streams, Split *api, Split *marks, Split *osrt,
                    Split *samples, WsTrack **nvtx, const guint *n_rows)
{
  const WsRun *run = self->run;
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (ThreadKey));
  guint32 current_pid = G_MAXUINT32;
  guint32 group_index = WS_LANE_NONE;

  for (guint t = 0; t < run->threads->len; t++)
    if (api->count[t] > 0 || marks->count[t] > 0 || n_rows[t] > 0 || osrt->count[t] > 0 ||
        samples->count[t] > 0)
      {
        const WsThread *thread = &g_array_index (run->threads, WsThread, t);
        ThreadKey key = { thread->pid, thread->tid != thread->pid, thread->tid, t };

        g_array_append_val (keys, key);
      }
  if (streams != NULL)
    {
      /* A process with streams and no thread events still gets its group:
       * a key that no thread has stands for it. */
      for (guint s = 0; s < streams->work.n_keys; s++)
        {
          const WsStream *stream = &g_array_index (run->streams, WsStream, s);
          gboolean known = FALSE;

          for (guint k = 0; k < keys->len && !known; k++)
            known = g_array_index (keys, ThreadKey, k).pid == stream->pid;
          if (stream_has_events (streams, s) && !known)
            {
              ThreadKey key = { stream->pid, 2, 0, G_MAXUINT32 };

              g_array_append_val (keys, key);
            }
        }
    }
  g_array_sort_with_data (keys, compare_thread_keys_ranked, (gpointer) run);

  for (guint k = 0; k < keys->len; k++)
    {
      const ThreadKey *key = &g_array_index (keys, ThreadKey, k);
      guint32 t = key->index;
      gint32 rank;

      if (key->pid != current_pid || group_index == WS_LANE_NONE)
        {
          add_process_group (self, key->pid, &group_index);
          current_pid = key->pid;
          if (streams != NULL)
            add_stream_lanes (self, streams, key->pid, group_index);
        }
      if (t == G_MAXUINT32)
        continue;
      rank = ws_lanes_get_lane (self, group_index)->rank;
      if (n_rows[t] > 0 || marks->count[t] > 0)
        {
          WsLane lane = lane_new (WS_LANE_NVTX);

          lane.group = group_index;
          lane.pid = key->pid;
          lane.rank = rank;
          lane.thread = t;
          lane.n_tracks = MAX (n_rows[t], 1);
          lane.tracks = nvtx[t] != NULL ? nvtx[t] : g_new0 (WsTrack, 1);
          nvtx[t] = NULL;
          if (n_rows[t] == 0)
            ws_track_finish (&lane.tracks[0], run, NULL);
          split_take (marks, t, &lane.marks, self);
          self->thread_nvtx[t] = self->lanes->len;
          add_lane (self, &lane);
        }
      add_thread_track_lane (self, WS_LANE_API, api, t, key->pid, group_index, self->thread_api);
      add_thread_track_lane (self, WS_LANE_OSRT, osrt, t, key->pid, group_index, self->thread_osrt);
      add_thread_track_lane (self, WS_LANE_SAMPLES, samples, t, key->pid, group_index,
                             self->thread_samples);
    }
}

/**
 * ws_lanes_new:
 * @run: a run loaded whole (not lean)
 *
 * Sorts the run's events into lanes.  Linear in the number of events; safe
 * to call on a worker thread.
 *
 * Returns: (transfer full): the lanes
 */
/**
 * ws_lanes_count_left_out:
 *
 * Event references hold 29 bits of index: past WS_EVENT_INDEX_MAX events of
 * one kind (kernels, memory operations, CUDA API calls, NVTX ranges, marks,
 * graph replays),
 * the rest are not in the lanes.
 *
 * Returns: how many events of @run the lanes leave out, 0 almost always
 */
guint64
ws_lanes_count_left_out (const WsRun *run)
{
  const gsize n[] = { run->kernels.n, run->memops.n, run->api.n,
                      run->nvtx.n,    run->marks.n,  run->replays.n };
  guint64 left_out = 0;

  for (guint i = 0; i < G_N_ELEMENTS (n); i++)
    if (n[i] > WS_EVENT_INDEX_MAX)
      left_out += n[i] - WS_EVENT_INDEX_MAX;
  return left_out;
}

WsLanes *
ws_lanes_new (WsRun *run)
{
  WsLanes *self;
  StreamSplit streams;
  Split api, marks, osrt, samples;
  WsTrack **nvtx;
  guint *n_rows;
  guint n_threads;

  g_return_val_if_fail (run != NULL, NULL);

  self = g_new0 (WsLanes, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->run = ws_run_ref (run);
  self->lanes = g_array_new (FALSE, TRUE, sizeof (WsLane));
  g_array_set_clear_func (self->lanes, lane_clear);
  n_threads = run->threads->len;
  self->stream_lane = g_new (guint32, run->streams->len + 1);
  self->thread_nvtx = g_new (guint32, n_threads + 1);
  self->thread_api = g_new (guint32, n_threads + 1);
  self->thread_osrt = g_new (guint32, n_threads + 1);
  self->thread_samples = g_new (guint32, n_threads + 1);
  memset (self->stream_lane, 0xff, (run->streams->len + 1) * sizeof (guint32));
  memset (self->thread_nvtx, 0xff, (n_threads + 1) * sizeof (guint32));
  memset (self->thread_api, 0xff, (n_threads + 1) * sizeof (guint32));
  memset (self->thread_osrt, 0xff, (n_threads + 1) * sizeof (guint32));
  memset (self->thread_samples, 0xff, (n_threads + 1) * sizeof (guint32));

  self->api_classes = g_new0 (guint8, ws_string_table_size (run->strings) + 1);
  build_streams (self, &streams);
  build_by_thread (&api, n_threads, run->api.thread, run->api.n, WS_EVENT_API);
  build_by_thread (&marks, n_threads, run->marks.thread, run->marks.n, WS_EVENT_MARK);
  build_by_thread (&osrt, n_threads, run->osrt.thread, run->osrt.n, WS_EVENT_OSRT);
  build_by_thread (&samples, n_threads, run->cpu_samples.thread, run->cpu_samples.n,
                   WS_EVENT_SAMPLE);
  n_rows = g_new0 (guint, n_threads + 1);
  nvtx = build_nvtx_rows (run, n_rows);

  /* A job's ranks, from several exports or the processes of one: each
   * rank a group of its own, its streams in it (issue 30: one export of
   * many processes is a job of those processes everywhere). */
  if (run->ranks != NULL && ws_ranks_get_n (run->ranks) > 1)
    {
      build_gpu_lanes (self, &streams, FALSE);
      build_thread_lanes (self, &streams, &api, &marks, &osrt, &samples, nvtx, n_rows);
    }
  else
    {
      build_gpu_lanes (self, &streams, TRUE);
      build_thread_lanes (self, NULL, &api, &marks, &osrt, &samples, nvtx, n_rows);
    }

  for (guint t = 0; t < n_threads; t++)
    if (nvtx[t] != NULL)
      {
        for (guint d = 0; d < n_rows[t]; d++)
          ws_track_clear (&nvtx[t][d]);
        g_free (nvtx[t]);
      }
  g_free (nvtx);
  g_free (n_rows);
  g_clear_pointer (&self->api_classes, g_free);
  split_clear (&streams.work);
  split_clear (&streams.bands);
  split_clear (&api);
  split_clear (&marks);
  split_clear (&osrt);
  split_clear (&samples);
  return self;
}

/**
 * ws_lanes_ref:
 *
 * Returns: (transfer full): @self
 */
WsLanes *
ws_lanes_ref (WsLanes *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_lanes_unref (WsLanes *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_array_unref (self->lanes);
  g_free (self->stream_lane);
  g_free (self->thread_nvtx);
  g_free (self->thread_api);
  g_free (self->thread_osrt);
  g_free (self->thread_samples);
  ws_run_unref (self->run);
  g_free (self);
}
