/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-run-slice"
#include "config.h"

#include <string.h>

#include "ws-cpu-profile.h"
#include "ws-ncu-results.h"
#include "ws-ranks.h"
#include "ws-run-build.h"
#include "ws-run-slice.h"
#include "ws-sort.h"

typedef struct
{
  const gint64 *starts;
  const gint64 *ends;
  guint n;
} Spans;

/* The rows of a table sorted by @time whose time lies in a span. */
static GArray *
rows_in (const Spans *spans, const gint64 *time, gsize n)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint s = 0; time != NULL && s < spans->n; s++)
    {
      gsize lo = ws_sort_lower_bound (time, 0, n, spans->starts[s]);
      gsize hi = ws_sort_lower_bound (time, lo, n, spans->ends[s]);

      for (gsize i = lo; i < hi; i++)
        {
          guint32 row = (guint32) i;

          g_array_append_val (rows, row);
        }
    }
  return rows;
}

/* The rows whose @time (in no order) lies in a span. */
static GArray *
rows_at (const Spans *spans, const gint64 *time, gsize n)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (gsize i = 0; i < n; i++)
    {
      /* The last span that starts at or before the time. */
      gsize s = ws_sort_lower_bound (spans->starts, 0, spans->n, time[i] + 1);

      if (s > 0 && time[i] < spans->ends[s - 1])
        {
          guint32 row = (guint32) i;

          g_array_append_val (rows, row);
        }
    }
  return rows;
}

/* A column of the rows picked, or NULL where the run has none. */
static gpointer
gather (gconstpointer column, gsize size, GArray *rows)
{
  guint8 *out;

  if (column == NULL)
    return NULL;
  out = g_malloc (MAX (rows->len, 1) * size);
  for (guint i = 0; i < rows->len; i++)
    memcpy (out + i * size, (const guint8 *) column + g_array_index (rows, guint32, i) * size,
            size);
  return out;
}

#define GATHER(dst, src, field, rows)                                                              \
  (dst)->field = gather ((src)->field, sizeof *(src)->field, rows)

static void
slice_kernels (WsRun *self, const WsRun *run, GArray *rows)
{
  self->kernels.n = rows->len;
  self->kernels.columns = run->kernels.columns;
  GATHER (&self->kernels, &run->kernels, start, rows);
  GATHER (&self->kernels, &run->kernels, end, rows);
  GATHER (&self->kernels, &run->kernels, demangled, rows);
  GATHER (&self->kernels, &run->kernels, short_name, rows);
  GATHER (&self->kernels, &run->kernels, mangled, rows);
  GATHER (&self->kernels, &run->kernels, stream, rows);
  GATHER (&self->kernels, &run->kernels, correlation, rows);
  GATHER (&self->kernels, &run->kernels, config, rows);
  GATHER (&self->kernels, &run->kernels, replay, rows);
}

static void
slice_memops (WsRun *self, const WsRun *run, GArray *rows)
{
  self->memops.n = rows->len;
  GATHER (&self->memops, &run->memops, start, rows);
  GATHER (&self->memops, &run->memops, end, rows);
  GATHER (&self->memops, &run->memops, bytes, rows);
  GATHER (&self->memops, &run->memops, kind, rows);
  GATHER (&self->memops, &run->memops, src_kind, rows);
  GATHER (&self->memops, &run->memops, dst_kind, rows);
  GATHER (&self->memops, &run->memops, stream, rows);
  GATHER (&self->memops, &run->memops, correlation, rows);
  GATHER (&self->memops, &run->memops, replay, rows);
}

/* Marks the replays the kept events ran in. */
static void
mark_replays (guint8 *keep, const guint32 *replay, GArray *rows)
{
  for (guint i = 0; replay != NULL && i < rows->len; i++)
    {
      guint32 r = replay[g_array_index (rows, guint32, i)];

      if (r != WS_REPLAY_NONE)
        keep[r] = TRUE;
    }
}

static void
remap_replays (guint32 *replay, gsize n, const guint32 *place)
{
  for (gsize i = 0; replay != NULL && i < n; i++)
    if (replay[i] != WS_REPLAY_NONE)
      replay[i] = place[replay[i]];
}

/* The replays picked by @rows (sorted rows of run->replays), and those
 * that a kept kernel or memory operation ran in: a slice keeps what it
 * says of its events.  Call after slice_kernels() and slice_memops(). */
static void
slice_replays (WsRun *self, const WsRun *run, GArray *rows, GArray *kernel_rows, GArray *memop_rows)
{
  g_autofree guint8 *keep = g_new0 (guint8, MAX (run->replays.n, 1));
  g_autofree guint32 *place = g_new (guint32, MAX (run->replays.n, 1));
  g_autoptr (GArray) kept = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < rows->len; i++)
    keep[g_array_index (rows, guint32, i)] = TRUE;
  mark_replays (keep, run->kernels.replay, kernel_rows);
  mark_replays (keep, run->memops.replay, memop_rows);
  for (gsize i = 0; i < run->replays.n; i++)
    if (keep[i])
      {
        guint32 row = (guint32) i;

        place[i] = kept->len;
        g_array_append_val (kept, row);
      }
  self->replays.n = kept->len;
  GATHER (&self->replays, &run->replays, start, kept);
  GATHER (&self->replays, &run->replays, end, kept);
  GATHER (&self->replays, &run->replays, stream, kept);
  GATHER (&self->replays, &run->replays, correlation, kept);
  GATHER (&self->replays, &run->replays, graph, kept);
  GATHER (&self->replays, &run->replays, nodes, kept);
  remap_replays (self->kernels.replay, self->kernels.n, place);
  remap_replays (self->memops.replay, self->memops.n, place);
}

static void
slice_api (WsRun *self, const WsRun *run, GArray *rows)
{
  self->api.n = rows->len;
  GATHER (&self->api, &run->api, start, rows);
  GATHER (&self->api, &run->api, end, rows);
  GATHER (&self->api, &run->api, name, rows);
  GATHER (&self->api, &run->api, thread, rows);
  GATHER (&self->api, &run->api, correlation, rows);
  GATHER (&self->api, &run->api, return_value, rows);
}

static void
slice_nvtx (WsRun *self, const WsRun *run, GArray *rows, GArray *marks)
{
  self->nvtx.n = rows->len;
  GATHER (&self->nvtx, &run->nvtx, start, rows);
  GATHER (&self->nvtx, &run->nvtx, end, rows);
  GATHER (&self->nvtx, &run->nvtx, name, rows);
  GATHER (&self->nvtx, &run->nvtx, thread, rows);
  GATHER (&self->nvtx, &run->nvtx, color, rows);
  GATHER (&self->nvtx, &run->nvtx, domain, rows);
  GATHER (&self->nvtx, &run->nvtx, depth, rows);
  GATHER (&self->nvtx, &run->nvtx, style, rows);

  self->marks.n = marks->len;
  GATHER (&self->marks, &run->marks, time, marks);
  GATHER (&self->marks, &run->marks, name, marks);
  GATHER (&self->marks, &run->marks, thread, marks);
  GATHER (&self->marks, &run->marks, color, marks);
  GATHER (&self->marks, &run->marks, domain, marks);
}

static void
slice_osrt (WsRun *self, const WsRun *run, GArray *rows)
{
  self->osrt.n = rows->len;
  GATHER (&self->osrt, &run->osrt, start, rows);
  GATHER (&self->osrt, &run->osrt, end, rows);
  GATHER (&self->osrt, &run->osrt, name, rows);
  GATHER (&self->osrt, &run->osrt, thread, rows);
}

static void
slice_usage (WsRun *self, const WsRun *run, GArray *usage)
{
  self->mem_usage.n = usage->len;
  GATHER (&self->mem_usage, &run->mem_usage, time, usage);
  GATHER (&self->mem_usage, &run->mem_usage, bytes, usage);
  GATHER (&self->mem_usage, &run->mem_usage, device, usage);
  GATHER (&self->mem_usage, &run->mem_usage, mem_kind, usage);
}

static void
slice_samples (WsRun *self, const WsRun *run, const Spans *spans)
{
  g_autoptr (GArray) usage = rows_in (spans, run->mem_usage.time, run->mem_usage.n);
  g_autoptr (GArray) samples = g_array_new (FALSE, FALSE, sizeof (guint32));

  slice_usage (self, run, usage);

  /* Samples are sorted by time within each metric. */
  self->metrics = g_array_new (FALSE, TRUE, sizeof (WsGpuMetric));
  for (guint m = 0; m < run->metrics->len; m++)
    {
      WsGpuMetric metric = g_array_index (run->metrics, WsGpuMetric, m);
      g_autoptr (GArray) rows = rows_in (
        spans, run->metric_samples.time != NULL ? run->metric_samples.time + metric.first : NULL,
        metric.n);

      metric.first = samples->len;
      metric.n = rows->len;
      for (guint i = 0; i < rows->len; i++)
        {
          guint32 row = g_array_index (rows, guint32, i) +
                        (guint32) g_array_index (run->metrics, WsGpuMetric, m).first;

          g_array_append_val (samples, row);
        }
      g_array_append_val (self->metrics, metric);
    }
  self->metric_samples.n = samples->len;
  GATHER (&self->metric_samples, &run->metric_samples, time, samples);
  GATHER (&self->metric_samples, &run->metric_samples, value, samples);
}

static void
copy_provenance (WsProvenance *to, const WsProvenance *from)
{
  g_clear_pointer (&to->files, g_ptr_array_unref);
  g_clear_pointer (&to->gpus, g_array_unref);
  g_clear_pointer (&to->processes, g_array_unref);
  to->files = g_ptr_array_ref (from->files);
  to->kind = g_strdup (from->kind);
  to->product = g_strdup (from->product);
  to->nsys_version = g_strdup (from->nsys_version);
  to->schema_version = g_strdup (from->schema_version);
  to->metadata_table = g_strdup (from->metadata_table);
  to->export_time = g_strdup (from->export_time);
  to->host = g_strdup (from->host);
  to->driver_version = g_strdup (from->driver_version);
  to->os = g_strdup (from->os);
  to->session_start_utc_ns = from->session_start_utc_ns;
  to->gpus = g_array_ref (from->gpus);
  to->processes = g_array_ref (from->processes);
  for (guint i = 0; i < from->warnings->len; i++)
    g_ptr_array_add (to->warnings, g_strdup (g_ptr_array_index (from->warnings, i)));
  for (guint i = 0; i < from->contributions->len; i++)
    g_ptr_array_add (to->contributions, g_strdup (g_ptr_array_index (from->contributions, i)));
  to->capture_command = g_strdup (from->capture_command);
  to->capture_env = g_strdupv (from->capture_env);
  to->target_command = g_strdup (from->target_command);
  to->target_env = g_strdupv (from->target_env);
  to->dist_rank = from->dist_rank;
  to->dist_world_size = from->dist_world_size;
  to->dist_backend = g_strdup (from->dist_backend);
}

/* A run that shares @run's strings, threads, streams and ncu results, with
 * no events yet. */
static WsRun *
slice_new (const WsRun *run)
{
  WsRun *self = ws_run_new ();

  /* The run's strings, not a copy: ids stay valid, and nothing interns
   * into a run once it is loaded. */
  ws_string_table_free (self->strings);
  self->strings = run->strings;
  self->base = ws_run_ref ((WsRun *) run);

  g_array_unref (self->streams);
  g_array_unref (self->threads);
  g_array_unref (self->configs);
  g_array_unref (self->domains);
  g_array_unref (self->metrics);
  g_array_unref (self->sources);
  self->streams = g_array_ref (run->streams);
  self->threads = g_array_ref (run->threads);
  self->configs = g_array_ref (run->configs);
  self->domains = g_array_ref (run->domains);
  self->sources = g_array_ref (run->sources);
  self->metrics = NULL;
  copy_provenance (&self->prov, &run->prov);

  self->has_kernel_table = run->has_kernel_table;
  self->has_nvtx_table = run->has_nvtx_table;
  self->has_runtime_table = run->has_runtime_table;
  self->has_memory_tables = run->has_memory_tables;
  self->has_osrt_table = run->has_osrt_table;
  self->has_graph_trace = run->has_graph_trace;
  if (run->display_names != NULL)
    self->display_names = g_hash_table_ref (run->display_names);
  if (run->ncu != NULL)
    self->ncu = ws_ncu_results_ref (run->ncu);
  if (run->ranks != NULL)
    self->ranks = ws_ranks_ref (run->ranks);
  return self;
}

/**
 * ws_run_slice:
 * @starts: (array length=n_spans): ns: where each stretch starts, sorted
 * @ends: (array length=n_spans): ns: where each ends (not included); the
 *   stretches do not overlap
 * @times: (nullable): what places each event; %NULL, or a %NULL array
 *   in it: the event's start
 *
 * Returns: (transfer full): the events of @run that start in a stretch, as
 * a run of their own; its summaries are not computed yet
 */
WsRun *
ws_run_slice (const WsRun *run, const gint64 *starts, const gint64 *ends, guint n_spans,
              const WsLaunchTimes *times)
{
  WsRun *self;
  Spans spans = { starts, ends, n_spans };
  WsLaunchTimes none = { NULL, NULL, NULL };

  g_return_val_if_fail (run != NULL, NULL);
  g_return_val_if_fail (n_spans == 0 || (starts != NULL && ends != NULL), NULL);

  if (times == NULL)
    times = &none;
  self = slice_new (run);
  {
    g_autoptr (GArray) kernels = times->kernels != NULL
                                   ? rows_at (&spans, times->kernels, run->kernels.n)
                                   : rows_in (&spans, run->kernels.start, run->kernels.n);
    g_autoptr (GArray) memops = times->memops != NULL
                                  ? rows_at (&spans, times->memops, run->memops.n)
                                  : rows_in (&spans, run->memops.start, run->memops.n);
    g_autoptr (GArray) replays = times->replays != NULL
                                   ? rows_at (&spans, times->replays, run->replays.n)
                                   : rows_in (&spans, run->replays.start, run->replays.n);
    g_autoptr (GArray) api = rows_in (&spans, run->api.start, run->api.n);
    g_autoptr (GArray) nvtx = rows_in (&spans, run->nvtx.start, run->nvtx.n);
    g_autoptr (GArray) marks = rows_in (&spans, run->marks.time, run->marks.n);
    g_autoptr (GArray) osrt = rows_in (&spans, run->osrt.start, run->osrt.n);

    slice_kernels (self, run, kernels);
    slice_memops (self, run, memops);
    slice_replays (self, run, replays, kernels, memops);
    slice_api (self, run, api);
    slice_nvtx (self, run, nvtx, marks);
    slice_osrt (self, run, osrt);
  }
  slice_samples (self, run, &spans);
  ws_run_update_bounds (self);
  return self;
}

/* The rows whose event belongs to a process of @pids: by its stream's
 * process (@streams) or its thread's (@threads). */
static GArray *
rows_of (const guint32 *owner, gsize n, const GArray *table, gboolean streams, GHashTable *pids)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (gsize i = 0; owner != NULL && i < n; i++)
    {
      guint32 pid;

      if (owner[i] >= table->len)
        continue;
      pid = streams ? g_array_index (table, WsStream, owner[i]).pid
                    : g_array_index (table, WsThread, owner[i]).pid;
      if (g_hash_table_contains (pids, GUINT_TO_POINTER (pid + 1)))
        {
          guint32 row = (guint32) i;

          g_array_append_val (rows, row);
        }
    }
  return rows;
}

/**
 * ws_run_select_pids:
 * @pids: (array length=n_pids): the processes to keep
 *
 * The events of some processes of @run (some ranks of a job): kernels and
 * memory operations of their streams, API calls and NVTX of their threads,
 * the GPU memory use and metrics of the GPUs they ran on.
 *
 * Returns: (transfer full): a run of their own; its summaries are not
 * computed yet
 */
WsRun *
ws_run_select_pids (const WsRun *run, const guint32 *pids, guint n_pids)
{
  g_autoptr (GHashTable) wanted = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) devices = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) kernels = NULL, memops = NULL, api = NULL, nvtx = NULL, marks = NULL;
  g_autoptr (GArray) osrt = NULL, replays = NULL;
  g_autoptr (GArray) usage = g_array_new (FALSE, FALSE, sizeof (guint32));
  WsRun *self;

  g_return_val_if_fail (run != NULL, NULL);
  g_return_val_if_fail (n_pids == 0 || pids != NULL, NULL);

  for (guint i = 0; i < n_pids; i++)
    g_hash_table_add (wanted, GUINT_TO_POINTER (pids[i] + 1));
  for (guint s = 0; s < run->streams->len; s++)
    {
      const WsStream *stream = &g_array_index (run->streams, WsStream, s);

      if (g_hash_table_contains (wanted, GUINT_TO_POINTER (stream->pid + 1)))
        g_hash_table_add (devices, GINT_TO_POINTER ((gintptr) stream->device_id + 1));
    }
  kernels = rows_of (run->kernels.stream, run->kernels.n, run->streams, TRUE, wanted);
  memops = rows_of (run->memops.stream, run->memops.n, run->streams, TRUE, wanted);
  replays = rows_of (run->replays.stream, run->replays.n, run->streams, TRUE, wanted);
  api = rows_of (run->api.thread, run->api.n, run->threads, FALSE, wanted);
  nvtx = rows_of (run->nvtx.thread, run->nvtx.n, run->threads, FALSE, wanted);
  marks = rows_of (run->marks.thread, run->marks.n, run->threads, FALSE, wanted);
  osrt = rows_of (run->osrt.thread, run->osrt.n, run->threads, FALSE, wanted);
  for (gsize i = 0; run->mem_usage.device != NULL && i < run->mem_usage.n; i++)
    if (g_hash_table_contains (devices, GINT_TO_POINTER (run->mem_usage.device[i] + 1)))
      {
        guint32 row = (guint32) i;

        g_array_append_val (usage, row);
      }

  self = slice_new (run);
  if (run->ranks != NULL)
    {
      ws_ranks_unref (self->ranks);
      self->ranks = ws_ranks_select (run->ranks, pids, n_pids);
    }
  /* The CPU profiles read from the chosen ranks' exports (all of an
   * export's profile where several ranks share that export). */
  for (guint i = 0; i < run->cpu_profiles->len; i++)
    {
      WsCpuProfile *profile = g_ptr_array_index (run->cpu_profiles, i);
      gboolean keep = self->ranks == NULL;

      for (guint r = 0; !keep && r < ws_ranks_get_n (self->ranks); r++)
        keep = g_strcmp0 (ws_ranks_get (self->ranks, r)->file, profile->path) == 0;
      if (keep)
        g_ptr_array_add (self->cpu_profiles, ws_cpu_profile_ref (profile));
    }
  slice_kernels (self, run, kernels);
  slice_memops (self, run, memops);
  slice_replays (self, run, replays, kernels, memops);
  slice_api (self, run, api);
  slice_nvtx (self, run, nvtx, marks);
  slice_osrt (self, run, osrt);
  slice_usage (self, run, usage);
  self->metric_samples.n = run->metric_samples.n;
  if (run->metric_samples.n > 0)
    {
      self->metric_samples.time =
        g_memdup2 (run->metric_samples.time, run->metric_samples.n * sizeof (gint64));
      self->metric_samples.value =
        g_memdup2 (run->metric_samples.value, run->metric_samples.n * sizeof (float));
    }
  self->metrics = g_array_copy (run->metrics);
  ws_run_update_bounds (self);
  return self;
}
