/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kineto"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-json-depth.h"
#include "ws-kineto-private.h"
#include "ws-kineto-reader.h"
#include "ws-nvtx-depth.h"
#include "ws-reader-error.h"
#include "ws-sort.h"

/* A PyTorch profiler (Kineto) trace: Chrome-trace JSON with Kineto's
 * header (docs/formats.md, "PyTorch profiler traces").  Read as a stream
 * of tokens, never as a tree: the run's columns are all it keeps. */

void
ws_kineto_reader_init (KinetoReader *r, WsRun *run, const char *path, GCancellable *cancellable)
{
  KinetoEvent *e = &r->event;

  r->run = run;
  r->path = path;
  r->cancellable = cancellable;
  e->ph = g_string_new (NULL);
  e->cat = g_string_new (NULL);
  e->name = g_string_new (NULL);
  e->arg_name = g_string_new (NULL);
  ws_kineto_columns_init (&r->kernels);
  ws_kineto_columns_init (&r->memops);
  ws_kineto_columns_init (&r->api);
  ws_kineto_columns_init (&r->ranges);
  ws_kineto_columns_init (&r->cpu_ops);
  r->mem_time = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->mem_bytes = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->mem_device = g_array_new (FALSE, FALSE, sizeof (gint32));
  r->threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r->last_thread_key = -1;
  r->names = g_new0 (KinetoName, KINETO_NAME_SLOTS);
  r->streams = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r->configs = ws_kineto_configs_new ();
  r->thread_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  r->process_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

void
ws_kineto_reader_clear (KinetoReader *r)
{
  KinetoEvent *e = &r->event;

  g_string_free (e->ph, TRUE);
  g_string_free (e->cat, TRUE);
  g_string_free (e->name, TRUE);
  g_string_free (e->arg_name, TRUE);
  ws_kineto_columns_clear (&r->kernels);
  ws_kineto_columns_clear (&r->memops);
  ws_kineto_columns_clear (&r->api);
  ws_kineto_columns_clear (&r->ranges);
  ws_kineto_columns_clear (&r->cpu_ops);
  g_clear_pointer (&r->mem_time, g_array_unref);
  g_clear_pointer (&r->mem_bytes, g_array_unref);
  g_clear_pointer (&r->mem_device, g_array_unref);
  g_clear_pointer (&r->names, g_free);
  g_clear_pointer (&r->threads, g_hash_table_unref);
  g_clear_pointer (&r->streams, g_hash_table_unref);
  g_clear_pointer (&r->configs, g_hash_table_unref);
  g_clear_pointer (&r->thread_names, g_hash_table_unref);
  g_clear_pointer (&r->process_names, g_hash_table_unref);
  g_clear_pointer (&r->pull, ws_json_pull_free);
}

/* ---- the header ---------------------------------------------------------- */

static gboolean
read_gpu (KinetoReader *r, GError **error)
{
  WsGpu gpu = { 0 };
  WsJsonToken t;

  gpu.id = -1;
  while ((t = ws_json_pull_next (r->pull, error)) == WS_JSON_KEY)
    {
      g_autofree char *key = g_strdup (ws_json_pull_text (r->pull));
      gint64 v = 0;

      t = ws_json_pull_next (r->pull, error);
      if (t == WS_JSON_STRING && g_str_equal (key, "name"))
        {
          g_free (gpu.name);
          gpu.name = g_strdup (ws_json_pull_text (r->pull));
        }
      else if (t == WS_JSON_NUMBER && ws_kineto_parse_int (ws_json_pull_text (r->pull), &v))
        {
          if (g_str_equal (key, "id"))
            gpu.id = (gint) CLAMP (v, -1, G_MAXINT);
          else if (g_str_equal (key, "totalGlobalMem"))
            gpu.memory_bytes = v;
          else if (g_str_equal (key, "computeMajor"))
            gpu.cc_major = (gint) CLAMP (v, 0, G_MAXINT);
          else if (g_str_equal (key, "computeMinor"))
            gpu.cc_minor = (gint) CLAMP (v, 0, G_MAXINT);
          else if (g_str_equal (key, "numSms"))
            gpu.sm_count = (gint) CLAMP (v, 0, G_MAXINT);
        }
      else if (!ws_json_pull_skip (r->pull, t, error))
        {
          g_free (gpu.name);
          return FALSE;
        }
    }
  if (t != WS_JSON_END_OBJECT || gpu.id < 0)
    {
      g_free (gpu.name);
      return t == WS_JSON_END_OBJECT; /* a device without an id is left out */
    }
  g_array_append_val (r->run->prov.gpus, gpu);
  return TRUE;
}

static gboolean
read_devices (KinetoReader *r, GError **error)
{
  WsJsonToken t = ws_json_pull_next (r->pull, error);

  if (t != WS_JSON_BEGIN_ARRAY)
    return ws_json_pull_skip (r->pull, t, error);
  while ((t = ws_json_pull_next (r->pull, error)) != WS_JSON_END_ARRAY)
    {
      if (t == WS_JSON_BEGIN_OBJECT)
        {
          if (!read_gpu (r, error))
            return FALSE;
        }
      else if (!ws_json_pull_skip (r->pull, t, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_distributed (KinetoReader *r, GError **error)
{
  WsProvenance *prov = &r->run->prov;
  WsJsonToken t = ws_json_pull_next (r->pull, error);

  if (t != WS_JSON_BEGIN_OBJECT)
    return ws_json_pull_skip (r->pull, t, error);
  while ((t = ws_json_pull_next (r->pull, error)) == WS_JSON_KEY)
    {
      g_autofree char *key = g_strdup (ws_json_pull_text (r->pull));
      gint64 v = 0;

      t = ws_json_pull_next (r->pull, error);
      if (t == WS_JSON_STRING && g_str_equal (key, "backend"))
        {
          g_free (prov->dist_backend);
          prov->dist_backend = g_strdup (ws_json_pull_text (r->pull));
        }
      else if (t == WS_JSON_NUMBER && ws_kineto_parse_int (ws_json_pull_text (r->pull), &v) &&
               (g_str_equal (key, "rank") || g_str_equal (key, "world_size")))
        *(g_str_equal (key, "rank") ? &prov->dist_rank : &prov->dist_world_size) =
          (gint) CLAMP (v, -1, G_MAXINT);
      else if (!ws_json_pull_skip (r->pull, t, error))
        return FALSE;
    }
  return t == WS_JSON_END_OBJECT;
}

static gboolean
read_top_member (KinetoReader *r, const char *key, GError **error)
{
  if (g_str_equal (key, "traceEvents") && r->probe)
    {
      /* Kineto writes its header first; a file that puts it after the
       * events is read on until the base time is found. */
      r->has_events = TRUE;
      r->stop = r->has_base;
      return r->stop || ws_json_pull_skip (r->pull, ws_json_pull_next (r->pull, error), error);
    }
  if (g_str_equal (key, "traceEvents"))
    return ws_kineto_read_events (r, error);
  if (g_str_equal (key, "deviceProperties"))
    {
      r->has_kineto_keys = TRUE;
      return read_devices (r, error);
    }
  if (g_str_equal (key, "distributedInfo"))
    {
      r->has_kineto_keys = TRUE;
      return read_distributed (r, error);
    }
  if (g_str_equal (key, "baseTimeNanoseconds"))
    {
      WsJsonToken t = ws_json_pull_next (r->pull, error);
      gint64 v;

      r->has_kineto_keys = TRUE;
      if (t == WS_JSON_NUMBER && ws_kineto_parse_int (ws_json_pull_text (r->pull), &v))
        {
          r->run->prov.session_start_utc_ns = v;
          r->has_base = TRUE;
        }
      return ws_json_pull_skip (r->pull, t, error);
    }
  if (g_str_equal (key, "schemaVersion") || g_str_equal (key, "traceName") ||
      g_str_equal (key, "trace_id") || g_str_equal (key, "cupti_version"))
    r->has_kineto_keys = TRUE;
  return ws_json_pull_skip (r->pull, ws_json_pull_next (r->pull, error), error);
}

static gboolean
read_document (KinetoReader *r, GError **error)
{
  WsJsonToken t = ws_json_pull_next (r->pull, error);

  if (t == WS_JSON_ERROR)
    return FALSE;
  if (t != WS_JSON_BEGIN_OBJECT)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: not a Kineto trace: the JSON is not an object", r->path);
      return FALSE;
    }
  while ((t = ws_json_pull_next (r->pull, error)) == WS_JSON_KEY)
    {
      g_autofree char *key = g_strdup (ws_json_pull_text (r->pull));

      if (!read_top_member (r, key, error))
        return FALSE;
      if (r->stop)
        return TRUE;
    }
  if (t != WS_JSON_END_OBJECT || ws_json_pull_next (r->pull, error) != WS_JSON_END)
    return FALSE;
  if (!r->has_events || !r->has_kineto_keys)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT, "%s: not a Kineto trace: %s",
                   r->path,
                   !r->has_events ? "no \"traceEvents\""
                                  : "no PyTorch profiler header (\"schemaVersion\", "
                                    "\"deviceProperties\", \"baseTimeNanoseconds\")");
      return FALSE;
    }
  return TRUE;
}

/* ---- the run ------------------------------------------------------------- */

/* @array's data in @order, as a new block (an empty table gets one
 * element); @array freed, so that a column is never held three times. */
static gpointer
take (GArray **array, gsize size, const guint32 *order, gsize n)
{
  guint8 *data = g_malloc (MAX (n, 1) * size);
  const guint8 *from = (const guint8 *) (*array)->data;

  switch (size)
    {
      case 1:
        for (gsize i = 0; i < n; i++)
          data[i] = from[order[i]];
        break;
      case 4:
        for (gsize i = 0; i < n; i++)
          ((guint32 *) data)[i] = ((const guint32 *) from)[order[i]];
        break;
      case 8:
        for (gsize i = 0; i < n; i++)
          ((guint64 *) data)[i] = ((const guint64 *) from)[order[i]];
        break;
      default:
        for (gsize i = 0; i < n; i++)
          memcpy (data + i * size, from + (gsize) order[i] * size, size);
        break;
    }
  g_clear_pointer (array, g_array_unref);
  return data;
}

static guint32 *
order_of (const KinetoColumns *c)
{
  return ws_sort_order ((const gint64 *) c->start->data, (const gint64 *) c->end->data,
                        c->start->len);
}

static void
fill_kernels (KinetoReader *r)
{
  WsKernels *k = &r->run->kernels;
  KinetoColumns *c = &r->kernels;
  g_autofree guint32 *order = order_of (c);

  k->n = c->start->len;
  k->columns = WS_KERNEL_COL_DEMANGLED | WS_KERNEL_COL_LAUNCH;
  k->start = take (&c->start, sizeof (gint64), order, k->n);
  k->end = take (&c->end, sizeof (gint64), order, k->n);
  k->demangled = take (&c->name, sizeof (guint32), order, k->n);
  k->stream = take (&c->stream, sizeof (guint32), order, k->n);
  k->correlation = take (&c->correlation, sizeof (guint32), order, k->n);
  k->config = take (&c->config, sizeof (guint32), order, k->n);
  k->mangled = g_new (guint32, MAX (k->n, 1));
  for (gsize i = 0; i < k->n; i++)
    k->mangled[i] = WS_STRING_NONE;
}

static void
fill_memops (KinetoReader *r)
{
  WsMemops *m = &r->run->memops;
  KinetoColumns *c = &r->memops;
  g_autofree guint32 *order = order_of (c);

  m->n = c->start->len;
  m->start = take (&c->start, sizeof (gint64), order, m->n);
  m->end = take (&c->end, sizeof (gint64), order, m->n);
  m->bytes = take (&c->bytes, sizeof (guint64), order, m->n);
  m->kind = take (&c->kind, sizeof (guint8), order, m->n);
  m->stream = take (&c->stream, sizeof (guint32), order, m->n);
  m->correlation = take (&c->correlation, sizeof (guint32), order, m->n);
  m->src_kind = g_malloc (MAX (m->n, 1));
  m->dst_kind = g_malloc (MAX (m->n, 1));
  memset (m->src_kind, 255, m->n);
  memset (m->dst_kind, 255, m->n);
}

static void
fill_api (KinetoReader *r)
{
  WsApiCalls *a = &r->run->api;
  KinetoColumns *c = &r->api;
  g_autofree guint32 *order = order_of (c);

  a->n = c->start->len;
  a->start = take (&c->start, sizeof (gint64), order, a->n);
  a->end = take (&c->end, sizeof (gint64), order, a->n);
  a->name = take (&c->name, sizeof (guint32), order, a->n);
  a->thread = take (&c->thread, sizeof (guint32), order, a->n);
  a->correlation = take (&c->correlation, sizeof (guint32), order, a->n);
  a->return_value = g_new0 (gint32, MAX (a->n, 1));
}

/* record_function ranges: push/pop ranges of the default domain. */
static void
fill_ranges (KinetoReader *r)
{
  WsNvtxRanges *v = &r->run->nvtx;
  KinetoColumns *c = &r->ranges;
  g_autofree guint32 *order = order_of (c);

  v->n = c->start->len;
  v->start = take (&c->start, sizeof (gint64), order, v->n);
  v->end = take (&c->end, sizeof (gint64), order, v->n);
  v->name = take (&c->name, sizeof (guint32), order, v->n);
  v->thread = take (&c->thread, sizeof (guint32), order, v->n);
  v->color = g_new0 (guint32, MAX (v->n, 1));
  v->domain = g_new0 (guint16, MAX (v->n, 1));
  v->style = g_new0 (guint8, MAX (v->n, 1));
  for (gsize i = 0; i < v->n; i++)
    v->style[i] = WS_NVTX_PUSH_POP;
  v->depth = g_new (guint16, MAX (v->n, 1));
  ws_nvtx_assign_depth (v->start, v->end, v->thread, v->n, r->run->threads->len, v->depth);
}

static void
fill_memory (KinetoReader *r)
{
  WsMemUsage *u = &r->run->mem_usage;
  gsize n = r->mem_time->len;
  g_autofree guint32 *order = ws_sort_order ((const gint64 *) r->mem_time->data, NULL, n);

  u->n = n;
  u->time = take (&r->mem_time, sizeof (gint64), order, n);
  u->bytes = take (&r->mem_bytes, sizeof (gint64), order, n);
  u->device = take (&r->mem_device, sizeof (gint32), order, n);
  u->mem_kind = g_malloc (MAX (n, 1));
  memset (u->mem_kind, 2 /* Device */, n);
}

static int
compare_processes (gconstpointer a, gconstpointer b)
{
  guint32 x = ((const WsProcess *) a)->pid, y = ((const WsProcess *) b)->pid;

  return (x > y) - (x < y);
}

/* The threads' names, and the processes that have CPU threads (Kineto
 * names the GPUs' pids too), by pid. */
static void
fill_names (KinetoReader *r)
{
  WsRun *run = r->run;
  g_autoptr (GHashTable) pids = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < run->threads->len; i++)
    {
      WsThread *thread = &g_array_index (run->threads, WsThread, i);
      const char *name = g_hash_table_lookup (r->thread_names, &thread->global_tid);

      if (name != NULL)
        thread->name = ws_string_table_intern (run->strings, name);
      g_hash_table_add (pids, GUINT_TO_POINTER (thread->pid + 1));
    }
  g_hash_table_iter_init (&iter, r->process_names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      WsProcess process = { (guint32) * (gint64 *) key, NULL };

      if (!g_hash_table_contains (pids, GUINT_TO_POINTER (process.pid + 1)))
        continue;
      process.name = g_strdup (value);
      g_array_append_val (run->prov.processes, process);
    }
  g_array_sort (run->prov.processes, compare_processes);
}

/* Each stream's process: that of the call that launched its first kernel
 * or memory operation (the GPU events' own pid is the device). */
static void
fill_stream_pids (KinetoReader *r)
{
  WsRun *run = r->run;
  g_autoptr (GHashTable) call_pid = g_hash_table_new (NULL, NULL);
  const struct
  {
    gsize n;
    const guint32 *stream, *correlation;
  } tables[] = {
    { run->kernels.n, run->kernels.stream, run->kernels.correlation },
    { run->memops.n, run->memops.stream, run->memops.correlation },
  };

  for (gsize i = 0; i < run->api.n; i++)
    if (run->api.correlation[i] != 0)
      g_hash_table_insert (call_pid, GUINT_TO_POINTER (run->api.correlation[i]),
                           GUINT_TO_POINTER (ws_run_thread_pid (run, run->api.thread[i]) + 1));
  for (gsize t = 0; t < G_N_ELEMENTS (tables); t++)
    for (gsize i = 0; i < tables[t].n; i++)
      {
        WsStream *s = &g_array_index (run->streams, WsStream, tables[t].stream[i]);
        guint pid = GPOINTER_TO_UINT (
          g_hash_table_lookup (call_pid, GUINT_TO_POINTER (tables[t].correlation[i])));

        if (s->pid == 0 && pid > 0)
          {
            s->pid = pid - 1;
            s->global_pid = (gint64) s->pid << 24;
          }
      }
}

/* The column of a table's replays: 0 (a graph Kineto does not name) for
 * the events whose launch call, in @launches, launched a graph;
 * WS_REPLAY_NONE for the others. */
static guint32 *
replay_column (const WsRun *run, GHashTable *launches, gsize n, const guint32 *stream,
               const guint32 *correlation)
{
  guint32 *replay = g_new (guint32, MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    {
      gint64 key =
        ((gint64) g_array_index (run->streams, WsStream, stream[i]).pid << 32) | correlation[i];

      replay[i] = g_hash_table_contains (launches, &key) ? 0 : WS_REPLAY_NONE;
    }
  return replay;
}

/* A kernel or memory operation whose launch call (the call of its process
 * with its correlation id) is cudaGraphLaunch or cuGraphLaunch ran in a
 * graph replay: all the kernels of one replay carry the correlation of the
 * one launch (docs/cuda-graphs.md).  Kineto names no graph.  Call after
 * fill_stream_pids(), which gives the streams their process. */
static void
fill_replays (KinetoReader *r)
{
  WsRun *run = r->run;
  g_autoptr (GHashTable) launches =
    g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GHashTable) kinds = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; i < run->api.n; i++)
    {
      gpointer key = GUINT_TO_POINTER (run->api.name[i] + 1);
      gpointer kind;
      gint64 *launch;

      if (!g_hash_table_lookup_extended (kinds, key, NULL, &kind))
        {
          kind = GUINT_TO_POINTER (ws_graph_call_kind (ws_run_string (run, run->api.name[i])));
          g_hash_table_insert (kinds, key, kind);
        }
      if (GPOINTER_TO_UINT (kind) != WS_GRAPH_CALL_LAUNCH)
        continue;
      launch = g_new (gint64, 1);
      *launch =
        ((gint64) ws_run_thread_pid (run, run->api.thread[i]) << 32) | run->api.correlation[i];
      g_hash_table_add (launches, launch);
    }
  if (g_hash_table_size (launches) == 0)
    return;
  run->kernels.replay =
    replay_column (run, launches, run->kernels.n, run->kernels.stream, run->kernels.correlation);
  run->memops.replay =
    replay_column (run, launches, run->memops.n, run->memops.stream, run->memops.correlation);
  ws_run_build_replays (run);
}

static void
fill_run (KinetoReader *r)
{
  WsRun *run = r->run;
  gint64 n_cpu_ops;

  fill_kernels (r);
  fill_memops (r);
  fill_api (r);
  fill_ranges (r);
  fill_memory (r);
  fill_names (r);
  fill_stream_pids (r);
  fill_replays (r);
  ws_kineto_build_cpu_profile (r);
  n_cpu_ops = (gint64) r->cpu_ops.start->len;
  /* The columns read are in the run now: freed before the samples are
   * indexed (ws_run_finish()), the load's peak of memory. */
  ws_kineto_columns_clear (&r->cpu_ops);

  /* The kinds `info` counts, then what the reader counted and left. */
  ws_run_add_source (run, "kernels", "traceEvents: kernel", (gint64) run->kernels.n);
  ws_run_add_source (run, "memcpy", "traceEvents: gpu_memcpy", r->n_memcpy);
  ws_run_add_source (run, "memset", "traceEvents: gpu_memset", r->n_memset);
  ws_run_add_source (run, "cuda-api", "traceEvents: cuda_runtime", r->n_runtime);
  ws_run_add_source (run, "driver-api", "traceEvents: cuda_driver", r->n_driver);
  ws_run_add_source (run, "nvtx-ranges", "traceEvents: user_annotation", (gint64) run->nvtx.n);
  ws_run_add_source (run, "gpu-memory", "traceEvents: [memory] on a GPU",
                     (gint64) run->mem_usage.n);
  ws_run_add_source (run, "cpu-ops", "traceEvents: cpu_op, python_function", n_cpu_ops);
  ws_run_add_source (run, "host-memory", "traceEvents: [memory] on the host", r->n_host_memory);
  ws_run_add_source (run, "flows", "traceEvents: ac2g", r->n_flows);
  ws_run_add_source (run, "gpu-annotations", "traceEvents: gpu_user_annotation",
                     r->n_gpu_annotations);
  ws_run_add_source (run, "other", "traceEvents: other categories", r->n_other);
  run->has_kernel_table = TRUE;
  run->has_memory_tables = TRUE;
  run->has_runtime_table = TRUE;
  run->has_nvtx_table = TRUE;
  run->prov.kind = g_strdup ("kineto-json");
  run->prov.product = g_strdup ("PyTorch profiler (Kineto)");
  ws_run_finish (run);
}

static WsRun *
load (GInputStream *stream, const char *path, GCancellable *cancellable, KinetoReader *r,
      GError **error)
{
  g_autoptr (WsRun) run = ws_run_new ();
  g_autofree char *label = g_strdup_printf ("%s: Kineto trace", path);
  gboolean ok;

  ws_kineto_reader_init (r, run, path, cancellable);
  r->pull = ws_json_pull_new (stream, label, WS_JSON_MAX_DEPTH);
  ok = read_document (r, error);
  if (ok && r->probe)
    ws_run_add_file (run, path);
  else if (ok)
    {
      ws_run_add_file (run, path);
      fill_run (r);
    }
  ws_kineto_reader_clear (r);
  return ok ? g_steal_pointer (&run) : NULL;
}

/**
 * ws_kineto_reader_load_stream:
 * @stream: the trace's JSON, already decompressed
 * @path: the file's name, for messages
 *
 * Returns: (transfer full): the run, or %NULL with @error set (one line
 *   naming @path)
 */
WsRun *
ws_kineto_reader_load_stream (GInputStream *stream, const char *path, GCancellable *cancellable,
                              GError **error)
{
  KinetoReader r = { 0 };

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream) && path != NULL, NULL);

  return load (stream, path, cancellable, &r, error);
}

/* @path's JSON, inflated where it is gzip (known by its magic bytes);
 * @raw is the file, for the share read. */
static GInputStream *
open_trace (const char *path, GCancellable *cancellable, GFileInputStream **raw, gboolean *plain,
            GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GInputStream) buffered = NULL;
  g_autoptr (GError) local = NULL;
  const guint8 *head;
  gsize len = 0;

  *raw = g_file_read (file, cancellable, &local);
  if (*raw == NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_FOUND, "%s: %s", path,
                   local->message);
      return NULL;
    }
  buffered = g_buffered_input_stream_new (G_INPUT_STREAM (*raw));
  if (g_buffered_input_stream_fill (G_BUFFERED_INPUT_STREAM (buffered), 2, cancellable, &local) < 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "%s: %s", path, local->message);
      g_clear_object (raw);
      return NULL;
    }
  head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (buffered), &len);
  if (len >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    {
      g_autoptr (GZlibDecompressor) gunzip =
        g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

      return g_converter_input_stream_new (buffered, G_CONVERTER (gunzip));
    }
  *plain = TRUE;
  return g_object_ref (buffered);
}

/**
 * ws_kineto_reader_load:
 * @path: a trace, `.json` or gzip-compressed (known by its magic bytes)
 * @progress: (nullable): told how far into the file the reader is
 *
 * Returns: (transfer full): the run, or %NULL with @error set
 */
WsRun *
ws_kineto_reader_load (const char *path, GCancellable *cancellable, WsProgressFunc progress,
                       gpointer progress_data, GError **error)
{
  KinetoReader r = { 0 };
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GFileInputStream) raw = NULL;
  g_autoptr (GInputStream) stream = open_trace (path, cancellable, &raw, &r.plain, error);

  if (stream == NULL)
    return NULL;
  info = g_file_input_stream_query_info (
    raw, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE, cancellable, NULL);
  r.plain &= info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR;
  r.progress = progress;
  r.progress_data = progress_data;
  r.file = G_SEEKABLE (raw);
  r.file_size = info != NULL ? g_file_info_get_size (info) : 0;
  return load (stream, path, cancellable, &r, error);
}

/**
 * ws_kineto_reader_probe:
 * @path: a trace, as for ws_kineto_reader_load()
 *
 * Reads a trace's header without its events: the devices,
 * `distributedInfo` (prov.dist_rank, dist_world_size, dist_backend) and
 * `baseTimeNanoseconds` (prov.session_start_utc_ns).  Kineto writes them
 * before "traceEvents", where the probe stops; a trace that writes them
 * after is read on, its events skipped, until the base time is found.
 *
 * Returns: (transfer full): a run with the provenance alone, or %NULL with
 *   @error set
 */
WsRun *
ws_kineto_reader_probe (const char *path, GCancellable *cancellable, GError **error)
{
  KinetoReader r = { 0 };
  g_autoptr (GFileInputStream) raw = NULL;
  gboolean plain = FALSE;
  g_autoptr (GInputStream) stream = open_trace (path, cancellable, &raw, &plain, error);
  WsRun *run;

  if (stream == NULL)
    return NULL;
  r.probe = TRUE;
  run = load (stream, path, cancellable, &r, error);
  if (run != NULL)
    run->prov.kind = g_strdup ("kineto-json");
  return run;
}
