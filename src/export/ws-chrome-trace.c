/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-chrome-trace"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixoutputstream.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "ws-atomic-file.h"
#include "ws-chrome-trace.h"
#include "ws-json-text.h"
#include "ws-launch-index.h"
#include "ws-stats.h"

/* Bytes buffered before a write: few system calls, little memory. */
#define FLUSH_BYTES (256 * 1024)
#define CANCEL_CHECK_EVENTS 4096

typedef struct
{
  const WsRun *run;
  GOutputStream *out;
  GCancellable *cancellable;
  GString *buffer;
  GHashTable *api_names; /* name id + 1 → char *, without the version suffix */
  gboolean first;        /* no event written yet */
  gboolean first_arg;    /* within "args": no member yet */
  gboolean in_args;
  guint since_check;
  gboolean several_processes;
  gint64 next_flow_id;
} Writer;

static gboolean
writer_flush (Writer *w, GError **error)
{
  if (w->buffer->len > 0 && !g_output_stream_write_all (w->out, w->buffer->str, w->buffer->len,
                                                        NULL, w->cancellable, error))
    return FALSE;
  g_string_truncate (w->buffer, 0);
  return TRUE;
}

static gboolean
writer_write (Writer *w, const char *text, GError **error)
{
  g_string_append (w->buffer, text);
  return w->buffer->len < FLUSH_BYTES || writer_flush (w, error);
}

/* Events are written as text straight into the buffer, member by member
 * (no tree of JSON nodes per event): names escaped by ws_json_append_string(),
 * times exact to the ns as µs with three decimals. */
static void
event_begin (Writer *w, const char *ph, const char *cat, const char *name, gint64 pid, gint64 tid)
{
  GString *b = w->buffer;

  if (!w->first)
    g_string_append (b, ",\n");
  w->first = FALSE;
  w->in_args = FALSE;
  g_string_append (b, "{\"name\":");
  ws_json_append_string (b, name);
  if (cat != NULL)
    {
      g_string_append (b, ",\"cat\":");
      ws_json_append_string (b, cat);
    }
  g_string_append_printf (
    b, ",\"ph\":\"%s\",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT, ph, pid, tid);
}

static void
member_name (Writer *w, const char *key)
{
  /* Every member but the first of "args" follows another. */
  if (!w->in_args || !w->first_arg)
    g_string_append_c (w->buffer, ',');
  w->first_arg = FALSE;
  ws_json_append_string (w->buffer, key);
  g_string_append_c (w->buffer, ':');
}

static void
member_int (Writer *w, const char *key, gint64 value)
{
  member_name (w, key);
  g_string_append_printf (w->buffer, "%" G_GINT64_FORMAT, value);
}

static void
member_string (Writer *w, const char *key, const char *value)
{
  member_name (w, key);
  ws_json_append_string (w->buffer, value);
}

/* µs from the run's origin, exact to the ns. */
static void
member_time (Writer *w, const char *key, gint64 ns)
{
  member_name (w, key);
  ws_json_append_micros (w->buffer, ns - w->run->origin);
}

static void
member_span (Writer *w, gint64 start, gint64 end)
{
  member_time (w, "ts", start);
  member_name (w, "dur");
  ws_json_append_micros (w->buffer, end - start);
}

static void
member_triple (Writer *w, const char *key, const guint32 v[3])
{
  member_name (w, key);
  g_string_append_printf (w->buffer, "[%u,%u,%u]", v[0], v[1], v[2]);
}

static void
args_begin (Writer *w)
{
  g_string_append (w->buffer, ",\"args\":{");
  w->in_args = TRUE;
  w->first_arg = TRUE;
}

/* Closes the event (and its args), checks for a cancel every few thousand
 * events and writes the buffer out when full. */
static gboolean
event_end (Writer *w, GError **error)
{
  g_string_append (w->buffer, w->in_args ? "}}" : "}");
  w->in_args = FALSE;
  if (++w->since_check >= CANCEL_CHECK_EVENTS)
    {
      w->since_check = 0;
      if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
        return FALSE;
    }
  return w->buffer->len < FLUSH_BYTES || writer_flush (w, error);
}

/* A kernel or memory operation: its args so far, then where it ran. */
static gboolean
end_gpu_work (Writer *w, guint32 correlation, const WsStream *stream, GError **error)
{
  member_int (w, "correlation_id", correlation);
  member_int (w, "device", stream->device_id);
  member_int (w, "stream", stream->stream_id);
  return event_end (w, error);
}

static gboolean
emit_metadata (Writer *w, const char *what, gint64 pid, gint64 tid, const char *name,
               gint64 sort_index, GError **error)
{
  event_begin (w, "M", NULL, what, pid, tid);
  args_begin (w);
  if (name != NULL)
    member_string (w, "name", name);
  else
    member_int (w, "sort_index", sort_index);
  return event_end (w, error);
}

static const WsStream *
stream_at (const WsRun *run, guint32 index)
{
  return &g_array_index (run->streams, WsStream, index);
}

static gint64
gpu_pid (const WsStream *stream)
{
  return (gint64) WS_CHROME_TRACE_GPU_BASE + stream->device_id;
}

static gint64
stream_tid (guint32 index)
{
  return (gint64) WS_CHROME_TRACE_GPU_BASE + index;
}

static const WsThread *
thread_at (const WsRun *run, guint32 index)
{
  return &g_array_index (run->threads, WsThread, index);
}

/* Names for every process, thread, GPU and stream, and the order to show
 * them in: CPU processes first, then the GPUs. */
static gboolean
write_metadata (Writer *w, GError **error)
{
  const WsRun *run = w->run;
  g_autoptr (GHashTable) pids = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) named = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) shared = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) device_pids = g_hash_table_new (g_direct_hash, g_direct_equal);
  gint64 order = 0;

  for (guint t = 0; t < run->threads->len; t++)
    {
      const WsThread *thread = thread_at (run, t);
      const char *name = ws_run_string (run, thread->name);
      g_autofree char *fallback = NULL;

      if (g_hash_table_add (pids, GUINT_TO_POINTER ((guintptr) thread->pid + 1)))
        {
          const char *pname = ws_run_process_name (run, thread->pid);
          g_autofree char *label = pname != NULL
                                     ? g_strdup_printf ("%s (pid %u)", pname, thread->pid)
                                     : g_strdup_printf ("Process %u", thread->pid);

          if (!emit_metadata (w, "process_name", thread->pid, 0, label, 0, error) ||
              !emit_metadata (w, "process_sort_index", thread->pid, 0, NULL, order++, error))
            return FALSE;
        }
      if (name[0] == '\0')
        name = fallback = g_strdup_printf ("Thread %u", thread->tid);
      if (!emit_metadata (w, "thread_name", thread->pid, thread->tid, name, 0, error) ||
          !emit_metadata (w, "thread_sort_index", thread->pid, thread->tid, NULL,
                          thread->tid == thread->pid ? 0 : thread->tid, error))
        return FALSE;
    }
  w->several_processes = g_hash_table_size (pids) > 1;

  for (guint s = 0; s < run->streams->len; s++)
    {
      const WsStream *stream = stream_at (run, s);
      gpointer device_key = GINT_TO_POINTER ((gintptr) stream->device_id + 1);
      gpointer other = g_hash_table_lookup (device_pids, device_key);

      /* A device shared by several processes: streams say whose they are. */
      if (other != NULL && GPOINTER_TO_SIZE (other) != (gsize) stream->pid + 1)
        g_hash_table_add (shared, device_key);
      g_hash_table_insert (device_pids, device_key, GUINT_TO_POINTER ((guintptr) stream->pid + 1));
    }

  for (guint s = 0; s < run->streams->len; s++)
    {
      const WsStream *stream = stream_at (run, s);
      g_autofree char *name = NULL;

      if (g_hash_table_add (named, GINT_TO_POINTER ((gintptr) stream->device_id + 1)))
        {
          const char *gname = ws_run_gpu_name (run, stream->device_id);
          g_autofree char *label = gname != NULL
                                     ? g_strdup_printf ("GPU %d: %s", stream->device_id, gname)
                                     : g_strdup_printf ("GPU %d", stream->device_id);

          if (!emit_metadata (w, "process_name", gpu_pid (stream), 0, label, 0, error) ||
              !emit_metadata (w, "process_sort_index", gpu_pid (stream), 0, NULL,
                              (gint64) 1000 + stream->device_id, error))
            return FALSE;
        }
      if (g_hash_table_contains (shared, GINT_TO_POINTER ((gintptr) stream->device_id + 1)))
        name = g_strdup_printf ("Stream %d (pid %u)", stream->stream_id, stream->pid);
      else
        name = g_strdup_printf ("Stream %d", stream->stream_id);
      if (!emit_metadata (w, "thread_name", gpu_pid (stream), stream_tid (s), name, 0, error) ||
          !emit_metadata (w, "thread_sort_index", gpu_pid (stream), stream_tid (s), NULL,
                          stream->stream_id, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_kernels (Writer *w, GError **error)
{
  const WsRun *run = w->run;

  for (gsize k = 0; k < run->kernels.n; k++)
    {
      const WsStream *stream = stream_at (run, run->kernels.stream[k]);
      const WsLaunchConfig *config = ws_run_kernel_config (run, k);

      event_begin (w, "X", "kernel", ws_run_kernel_name (run, k, WS_NAME_DEMANGLED),
                   gpu_pid (stream), stream_tid (run->kernels.stream[k]));
      member_span (w, run->kernels.start[k], run->kernels.end[k]);
      args_begin (w);
      if (config != NULL)
        {
          member_triple (w, "grid", config->grid);
          member_triple (w, "block", config->block);
          member_int (w, "registers_per_thread", config->registers);
          member_int (w, "static_shared_memory", config->static_smem);
          member_int (w, "dynamic_shared_memory", config->dynamic_smem);
        }
      if (!end_gpu_work (w, run->kernels.correlation[k], stream, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_memops (Writer *w, GError **error)
{
  const WsRun *run = w->run;

  for (gsize m = 0; m < run->memops.n; m++)
    {
      const WsStream *stream = stream_at (run, run->memops.stream[m]);
      gboolean memset = run->memops.kind[m] == WS_MEMOP_MEMSET;
      const char *kind = ws_memop_kind_label (run->memops.kind[m]);
      g_autofree char *name =
        memset ? g_strdup ("[CUDA memset]") : g_strdup_printf ("[CUDA memcpy %s]", kind);

      event_begin (w, "X", "memory", name, gpu_pid (stream), stream_tid (run->memops.stream[m]));
      member_span (w, run->memops.start[m], run->memops.end[m]);
      args_begin (w);
      member_int (w, "bytes", (gint64) run->memops.bytes[m]);
      member_string (w, "kind", kind);
      if (!end_gpu_work (w, run->memops.correlation[m], stream, error))
        return FALSE;
    }
  return TRUE;
}

/* CUDA graph replays ("cuda_graph"), on their stream as kernels are: a
 * replay recorded without its kernels is that stream's work, one recorded
 * with them encloses them, so a viewer nests the kernels under it. */
static gboolean
write_replays (Writer *w, GError **error)
{
  const WsRun *run = w->run;
  const WsGraphReplays *g = &run->replays;

  for (gsize r = 0; r < g->n; r++)
    {
      const WsStream *stream = stream_at (run, g->stream[r]);
      /* Named as the timeline names it; a graph of unknown id (a PyTorch
       * trace's) is just "CUDA graph". */
      g_autofree char *name =
        g->graph[r] != 0 ? g_strdup_printf ("CUDA graph %u", g->graph[r]) : g_strdup ("CUDA graph");

      event_begin (w, "X", "cuda_graph", name, gpu_pid (stream), stream_tid (g->stream[r]));
      member_span (w, g->start[r], g->end[r]);
      args_begin (w);
      member_int (w, "graph", g->graph[r]);
      member_int (w, "nodes", g->nodes[r]);
      if (!end_gpu_work (w, g->correlation[r], stream, error))
        return FALSE;
    }
  return TRUE;
}

static const char *
api_name (Writer *w, guint32 id)
{
  gpointer key = GUINT_TO_POINTER (id + 1);
  char *name = g_hash_table_lookup (w->api_names, key);

  if (name == NULL)
    {
      name = ws_api_base_name (ws_run_string (w->run, id));
      g_hash_table_insert (w->api_names, key, name);
    }
  return name;
}

static gboolean
write_api (Writer *w, GError **error)
{
  const WsRun *run = w->run;

  for (gsize i = 0; i < run->api.n; i++)
    {
      const WsThread *thread = thread_at (run, run->api.thread[i]);

      event_begin (w, "X", "cuda_api", api_name (w, run->api.name[i]), thread->pid, thread->tid);
      member_span (w, run->api.start[i], run->api.end[i]);
      args_begin (w);
      member_int (w, "correlation_id", run->api.correlation[i]);
      member_int (w, "return_value", run->api.return_value[i]);
      if (!event_end (w, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_nvtx (Writer *w, GError **error)
{
  const WsRun *run = w->run;

  for (gsize i = 0; i < run->nvtx.n; i++)
    {
      const WsThread *thread = thread_at (run, run->nvtx.thread[i]);
      const char *domain = ws_run_nvtx_domain_name (run, run->nvtx.domain[i]);

      event_begin (w, "X", "nvtx", ws_run_string (run, run->nvtx.name[i]), thread->pid,
                   thread->tid);
      member_span (w, run->nvtx.start[i], run->nvtx.end[i]);
      args_begin (w);
      if (domain[0] != '\0')
        member_string (w, "domain", domain);
      if (run->nvtx.color[i] != 0)
        {
          g_autofree char *color = g_strdup_printf ("#%06x", run->nvtx.color[i] & 0xFFFFFF);

          member_string (w, "color", color);
        }
      member_string (w, "style", run->nvtx.style[i] == WS_NVTX_START_END ? "StartEnd" : "PushPop");
      if (!event_end (w, error))
        return FALSE;
    }

  for (gsize i = 0; i < run->marks.n; i++)
    {
      const WsThread *thread = thread_at (run, run->marks.thread[i]);

      event_begin (w, "i", "nvtx_mark", ws_run_string (run, run->marks.name[i]), thread->pid,
                   thread->tid);
      member_time (w, "ts", run->marks.time[i]);
      member_string (w, "s", "t");
      if (!event_end (w, error))
        return FALSE;
    }
  return TRUE;
}

/* OS runtime calls on their threads ("osrt"), and the CPU samples placed
 * on the timeline ("cpu_sample", each as long as the stretch it stands
 * for, named by its innermost function, with its stack as args). */
static gboolean
write_cpu (Writer *w, GError **error)
{
  const WsRun *run = w->run;
  const WsCpuSamples *c = &run->cpu_samples;

  for (gsize i = 0; i < run->osrt.n; i++)
    {
      const WsThread *thread = thread_at (run, run->osrt.thread[i]);

      event_begin (w, "X", "osrt", ws_run_string (run, run->osrt.name[i]), thread->pid,
                   thread->tid);
      member_span (w, run->osrt.start[i], run->osrt.end[i]);
      if (!event_end (w, error))
        return FALSE;
    }
  for (gsize i = 0; i < c->n; i++)
    {
      const WsThread *thread = thread_at (run, c->thread[i]);
      const WsCpuProfile *profile = c->profile;
      guint32 stack = g_array_index (profile->sample_stack, guint32, c->sample[i]);
      guint32 first = g_array_index (profile->stack_first, guint32, stack);
      guint32 depth = g_array_index (profile->stack_depth, guint32, stack);

      event_begin (w, "X", "cpu_sample", ws_run_string (run, c->name[i]), thread->pid, thread->tid);
      member_span (w, c->start[i], c->end[i]);
      args_begin (w);
      member_name (w, "stack");
      g_string_append_c (w->buffer, '[');
      /* Innermost first, as nsys lists a call chain. */
      for (guint32 d = depth; d-- > 0;)
        {
          guint32 frame = g_array_index (profile->stack_frames, guint32, first + d);
          g_autofree char *label = ws_cpu_frame_label (profile, frame);

          if (d + 1 < depth)
            g_string_append_c (w->buffer, ',');
          ws_json_append_string (w->buffer, label);
        }
      g_string_append_c (w->buffer, ']');
      if (!event_end (w, error))
        return FALSE;
    }
  return TRUE;
}

/* An arrow from the launch call to the GPU work: "s" inside the call, "f"
 * inside the kernel, each at the middle so that it binds to that slice. */
static gboolean
write_flow (Writer *w, gsize api, gint64 start, gint64 end, const WsStream *stream,
            guint32 stream_index, guint32 correlation, GError **error)
{
  const WsRun *run = w->run;
  const WsThread *thread = thread_at (run, run->api.thread[api]);
  /* Correlation ids repeat across processes; then the flows are numbered. */
  gint64 id = w->several_processes ? ++w->next_flow_id : correlation;

  event_begin (w, "s", "launch", "launch", thread->pid, thread->tid);
  member_int (w, "id", id);
  member_time (w, "ts", run->api.start[api] + (run->api.end[api] - run->api.start[api]) / 2);
  if (!event_end (w, error))
    return FALSE;
  event_begin (w, "f", "launch", "launch", gpu_pid (stream), stream_tid (stream_index));
  member_int (w, "id", id);
  member_string (w, "bp", "e");
  member_time (w, "ts", start + (end - start) / 2);
  return event_end (w, error);
}

static gboolean
write_flows (Writer *w, GError **error)
{
  const WsRun *run = w->run;
  g_autoptr (WsLaunchIndex) launches = ws_launch_index_new (run);

  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gssize api = ws_launch_index_kernel (launches, k);

      if (api >= 0 && !write_flow (w, api, run->kernels.start[k], run->kernels.end[k],
                                   stream_at (run, run->kernels.stream[k]), run->kernels.stream[k],
                                   run->kernels.correlation[k], error))
        return FALSE;
    }
  for (gsize m = 0; m < run->memops.n; m++)
    {
      gssize api = ws_launch_index_memop (launches, m);

      if (api >= 0 && !write_flow (w, api, run->memops.start[m], run->memops.end[m],
                                   stream_at (run, run->memops.stream[m]), run->memops.stream[m],
                                   run->memops.correlation[m], error))
        return FALSE;
    }
  /* A replay whose kernels are in the trace has its flows through them. */
  for (gsize r = 0; r < run->replays.n; r++)
    {
      gssize api = run->replays.nodes[r] == 0 ? ws_launch_index_replay (launches, r) : -1;

      if (api >= 0 && !write_flow (w, api, run->replays.start[r], run->replays.end[r],
                                   stream_at (run, run->replays.stream[r]), run->replays.stream[r],
                                   run->replays.correlation[r], error))
        return FALSE;
    }
  return TRUE;
}

static char *
header (const WsRun *run)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "source");
  json_builder_add_string_value (builder, ws_run_display_name (run));
  json_builder_set_member_name (builder, "producer");
  json_builder_add_string_value (builder, "Warpscope " PACKAGE_VERSION);
  json_builder_set_member_name (builder, "origin_ns");
  json_builder_add_int_value (builder, run->origin);
  if (run->prov.nsys_version != NULL)
    {
      json_builder_set_member_name (builder, "nsys_version");
      json_builder_add_string_value (builder, run->prov.nsys_version);
    }
  if (run->prov.session_start_utc_ns != 0)
    {
      json_builder_set_member_name (builder, "session_start_utc_ns");
      json_builder_add_int_value (builder, run->prov.session_start_utc_ns);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

/**
 * ws_chrome_trace_write:
 * @out: where the JSON goes; not closed
 *
 * Writes @run as `{"traceEvents":[…]}`: one complete ("X") event per
 * kernel, memory operation, CUDA graph replay ("CUDA graph N" on its
 * stream), CUDA API call, NVTX range, OS runtime call and CPU sample on
 * the timeline, with times in µs
 * from the run's origin; metadata naming processes, threads, GPUs and
 * streams; flows from each launch to its GPU work (to a graph replay
 * where its kernels are not in the trace).  Events are written one
 * at a time, so memory does not grow with the run.
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled
 */
gboolean
ws_chrome_trace_write (const WsRun *run, GOutputStream *out, GCancellable *cancellable,
                       GError **error)
{
  g_autoptr (GString) buffer = g_string_sized_new (FLUSH_BYTES + 4096);
  g_autoptr (GHashTable) api_names =
    g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autofree char *other = header (run);
  g_autofree char *opening = NULL;
  Writer w = { run, out, cancellable, buffer, api_names, TRUE, FALSE, FALSE, 0, FALSE, 0 };

  g_return_val_if_fail (run != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  /* The lean load keeps no streams, threads or correlation ids. */
  if ((run->kernels.n > 0 && run->kernels.stream == NULL) ||
      (run->memops.n > 0 && run->memops.stream == NULL) ||
      (run->api.n > 0 && run->api.thread == NULL) || (run->nvtx.n > 0 && run->nvtx.thread == NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: the run was loaded without streams and threads", ws_run_display_name (run));
      return FALSE;
    }

  opening =
    g_strdup_printf ("{\"displayTimeUnit\":\"ns\",\"otherData\":%s,\"traceEvents\":[\n", other);
  return writer_write (&w, opening, error) && write_metadata (&w, error) &&
         write_kernels (&w, error) && write_memops (&w, error) && write_replays (&w, error) &&
         write_api (&w, error) && write_nvtx (&w, error) && write_cpu (&w, error) &&
         write_flows (&w, error) && writer_write (&w, "\n]}\n", error) && writer_flush (&w, error);
}

/**
 * ws_chrome_trace_write_file:
 *
 * Writes the trace to @path, gzip-compressed when @path ends in ".gz".  The
 * trace goes to a temporary file (ws_atomic_file_create_temp()) that
 * replaces it only once complete: a failed or cancelled export leaves no
 * half file.
 */
gboolean
ws_chrome_trace_write_file (const WsRun *run, const char *path, GCancellable *cancellable,
                            GError **error)
{
  g_autofree char *tmp = NULL;
  g_autoptr (GOutputStream) file = NULL;
  g_autoptr (GOutputStream) out = NULL;
  g_autoptr (GError) local = NULL;
  int fd;

  g_return_val_if_fail (run != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  tmp = ws_atomic_file_create_temp (path, &fd, error);
  if (tmp == NULL)
    return FALSE;

  file = g_unix_output_stream_new (fd, TRUE);
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr (GZlibCompressor) gzip = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);

      out = g_converter_output_stream_new (file, G_CONVERTER (gzip));
    }
  else
    out = g_object_ref (file);

  if (!ws_chrome_trace_write (run, out, cancellable, &local) ||
      !g_output_stream_close (out, cancellable, &local))
    {
      g_output_stream_close (out, NULL, NULL);
      g_unlink (tmp);
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", path);
      return FALSE;
    }
  return ws_atomic_file_commit (tmp, path, error);
}

typedef struct
{
  WsRun *run;
  char *path;
} WriteData;

static void
write_data_free (WriteData *data)
{
  ws_run_unref (data->run);
  g_free (data->path);
  g_free (data);
}

static void
write_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  WriteData *data = task_data;
  GError *error = NULL;

  if (ws_chrome_trace_write_file (data->run, data->path, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* ws_chrome_trace_write_file() on a worker thread; the run is kept alive
 * until it is done. */
void
ws_chrome_trace_write_file_async (WsRun *run, const char *path, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  WriteData *data = g_new0 (WriteData, 1);

  g_return_if_fail (run != NULL && path != NULL);

  data->run = ws_run_ref (run);
  data->path = g_strdup (path);
  g_task_set_source_tag (task, ws_chrome_trace_write_file_async);
  g_task_set_task_data (task, data, (GDestroyNotify) write_data_free);
  g_task_run_in_thread (task, write_thread);
}

gboolean
ws_chrome_trace_write_file_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ws_chrome_trace_write_file_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
