/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kineto"
#include "config.h"

#include <string.h>

#include "ws-kineto-private.h"
#include "ws-workers.h"

/* The array of "traceEvents" read on several cores (docs/performance.md,
 * "Traces on every core").  The bytes after its '[' are cut into pieces,
 * one per worker; each piece but the first begins where an event seems to
 * begin (a '{' after "}," and white space).  Each worker reads whole
 * events from the start of its piece into columns of its own, interning
 * names, threads, streams and launch configurations in a run of its own,
 * and stops at the first event that begins in the next piece, noting its
 * byte.  A piece is taken only where the worker before it, itself taken,
 * stopped exactly where it begins: then it began at a true event, and
 * what it read is what one reader would have read there.  A piece that
 * began inside an event is dropped, and the worker before it reads on
 * over it, on this thread.  The pieces are then merged in order, their ids
 * mapped as one reader would have numbered them: the run comes out the
 * same, byte for byte, as from one thread. */

/* A worker takes 16 MiB of events or more (1 GB on 16 cores: 64 MiB). */
#define BYTES_PER_WORKER ((guint64) 16 << 20)
#define MIN_BYTES_PARALLEL (2 * BYTES_PER_WORKER)

/* How far from a cut an event's start is looked for. */
#define SEEK_BYTES (1 << 20)
#define SEEK_BLOCK 65536

typedef struct _Job Job;

typedef struct
{
  Job *job;
  guint index;
  guint64 begin; /* the byte its piece begins at */
  guint64 stop;  /* the next piece's; G_MAXUINT64 for the last */
  gboolean dropped;
  WsRun *run; /* the worker's own: its names, threads, streams, configurations */
  KinetoReader r;
  gint64 stopped_at; /* ws_kineto_read_some_events()'s */
  GError *error;
} Worker;

struct _Job
{
  KinetoReader *r;
  gint batches;
  GMutex lock;
  GCond done;
  guint running;
};

/* The byte of the first '{' at or after @from that follows a '}', a ','
 * and white space: where an event seems to begin; 0 where none is found
 * within SEEK_BYTES. */
static guint64
find_event_start (GInputStream *stream, guint64 from)
{
  g_autofree guint8 *block = g_malloc (SEEK_BLOCK);
  int seen = 0; /* 1: after '}'; 2: after "},"; each followed by white space */

  if (!g_seekable_seek (G_SEEKABLE (stream), (goffset) from, G_SEEK_SET, NULL, NULL))
    return 0;
  for (guint64 at = from; at - from < SEEK_BYTES;)
    {
      gssize got = g_input_stream_read (stream, block, SEEK_BLOCK, NULL, NULL);

      if (got <= 0)
        return 0;
      for (gssize i = 0; i < got; i++, at++)
        {
          guint8 c = block[i];

          if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
          if (c == '{' && seen == 2)
            return at;
          seen = c == '}' ? 1 : c == ',' && seen == 1 ? 2 : 0;
        }
    }
  return 0;
}

static gpointer
worker_run (gpointer data)
{
  Worker *w = data;
  Job *job = w->job;

  ws_kineto_read_some_events (&w->r, FALSE, w->stop, &w->stopped_at, &w->error);
  g_mutex_lock (&job->lock);
  job->running--;
  g_cond_signal (&job->done);
  g_mutex_unlock (&job->lock);
  return NULL;
}

/* The pieces: @n_cuts cuts spread over the bytes from @first to @size,
 * each moved on to where an event begins; a cut that finds none, or the
 * same as the cut before, is left out.  Returns the workers made. */
static guint
cut_pieces (KinetoReader *r, Worker *workers, guint n, guint64 first, guint64 size)
{
  g_autoptr (GFile) file = g_file_new_for_path (r->path);
  g_autoptr (GFileInputStream) stream = g_file_read (file, NULL, NULL);
  guint made = 1;

  workers[0].begin = first;
  for (guint i = 1; i < n && stream != NULL; i++)
    {
      guint64 at = find_event_start (G_INPUT_STREAM (stream), first + (size - first) * i / n);

      if (at > workers[made - 1].begin)
        workers[made++].begin = at;
    }
  for (guint i = 0; i < made; i++)
    workers[i].stop = i + 1 < made ? workers[i + 1].begin : G_MAXUINT64;
  return made;
}

/* The worker's reader and its tokenizer, on a stream of its own from the
 * start of its piece. */
static gboolean
worker_init (Worker *w, Job *job, guint index)
{
  KinetoReader *r = job->r;
  g_autoptr (GFile) file = g_file_new_for_path (r->path);
  g_autoptr (GFileInputStream) stream = g_file_read (file, NULL, NULL);

  w->job = job;
  w->index = index;
  w->run = ws_run_new ();
  ws_kineto_reader_init (&w->r, w->run, r->path, r->cancellable);
  w->r.batches = &job->batches;
  w->r.offset_now = w->begin;
  if (stream == NULL ||
      !g_seekable_seek (G_SEEKABLE (stream), (goffset) w->begin, G_SEEK_SET, NULL, NULL))
    return FALSE;
  w->r.pull = ws_json_pull_fork (r->pull, G_INPUT_STREAM (stream), w->begin, index > 0);
  return TRUE;
}

static void
worker_clear (Worker *w)
{
  if (w->run == NULL)
    return;
  ws_kineto_reader_clear (&w->r);
  g_clear_pointer (&w->run, ws_run_unref);
  g_clear_error (&w->error);
}

/* Waits for the workers, telling the progress the share of the bytes
 * they have read. */
static void
wait_workers (Job *job, Worker *workers, guint n)
{
  KinetoReader *r = job->r;
  guint64 first = workers[0].begin;

  g_mutex_lock (&job->lock);
  while (job->running > 0)
    {
      guint64 done = first;

      g_cond_wait_until (&job->done, &job->lock,
                         g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND);
      if (r->progress == NULL || r->file_size <= 0)
        continue;
      for (guint i = 0; i < n; i++)
        done += __atomic_load_n (&workers[i].r.offset_now, __ATOMIC_RELAXED) - workers[i].begin;
      g_mutex_unlock (&job->lock);
      r->progress (MIN (1.0, (double) done / (double) r->file_size), "traceEvents",
                   r->progress_data);
      g_mutex_lock (&job->lock);
    }
  g_mutex_unlock (&job->lock);
}

/* Which pieces are taken: in order, each one whose start the taken worker
 * before it stopped at.  A piece that began elsewhere is dropped and that
 * worker reads on over it here.  Returns the last worker taken. */
static guint
chain_pieces (Worker *workers, guint n)
{
  guint last = 0;

  for (guint i = 1; i < n; i++)
    {
      Worker *w = &workers[last];

      if (w->error != NULL || w->stopped_at < 0)
        {
          workers[i].dropped = TRUE;
          continue;
        }
      if ((guint64) w->stopped_at == workers[i].begin)
        {
          last = i;
          continue;
        }
      workers[i].dropped = TRUE;
      w->stop = workers[i].stop;
      if ((guint64) w->stopped_at < w->stop)
        ws_kineto_read_some_events (&w->r, TRUE, w->stop, &w->stopped_at, &w->error);
    }
  return last;
}

/* @column appended to @to, each id through @map (WS_STRING_NONE stays). */
static void
append_mapped (GArray *to, const GArray *column, const guint32 *map)
{
  gsize at = to->len;

  g_array_set_size (to, at + column->len);
  for (guint i = 0; i < column->len; i++)
    {
      guint32 id = g_array_index (column, guint32, i);

      g_array_index (to, guint32, at + i) = id == WS_STRING_NONE ? id : map[id];
    }
}

typedef struct
{
  guint32 *names, *threads, *streams, *configs;
} IdMaps;

/* A worker's columns appended to @to, its ids mapped; its arrays freed. */
static void
append_columns (KinetoColumns *to, KinetoColumns *from, const IdMaps *maps)
{
  g_array_append_vals (to->start, from->start->data, from->start->len);
  g_array_append_vals (to->end, from->end->data, from->end->len);
  append_mapped (to->name, from->name, maps->names);
  append_mapped (to->thread, from->thread, maps->threads);
  append_mapped (to->stream, from->stream, maps->streams);
  g_array_append_vals (to->correlation, from->correlation->data, from->correlation->len);
  append_mapped (to->config, from->config, maps->configs);
  g_array_append_vals (to->bytes, from->bytes->data, from->bytes->len);
  g_array_append_vals (to->kind, from->kind->data, from->kind->len);
  ws_kineto_columns_clear (from);
}

static void
append_array (GArray *to, GArray **from)
{
  g_array_append_vals (to, (*from)->data, (*from)->len);
  g_clear_pointer (from, g_array_unref);
}

/* The worker's names, threads, streams and configurations interned in
 * @r's run, in the order the worker met them. */
static void
map_ids (KinetoReader *r, const WsRun *from, IdMaps *maps)
{
  guint n_names = ws_string_table_size (from->strings);

  maps->names = g_new (guint32, MAX (n_names, 1));
  for (guint i = 0; i < n_names; i++)
    maps->names[i] =
      ws_string_table_intern (r->run->strings, ws_string_table_get (from->strings, i));
  maps->threads = g_new (guint32, MAX (from->threads->len, 1));
  for (guint i = 0; i < from->threads->len; i++)
    {
      const WsThread *t = &g_array_index (from->threads, WsThread, i);

      maps->threads[i] = ws_kineto_thread_index (r, t->pid, t->tid);
    }
  maps->streams = g_new (guint32, MAX (from->streams->len, 1));
  for (guint i = 0; i < from->streams->len; i++)
    {
      const WsStream *s = &g_array_index (from->streams, WsStream, i);

      maps->streams[i] = ws_kineto_stream_index (r, s->device_id, s->stream_id, s->context_id);
    }
  maps->configs = g_new (guint32, MAX (from->configs->len, 1));
  for (guint i = 0; i < from->configs->len; i++)
    maps->configs[i] =
      ws_kineto_config_index (r, &g_array_index (from->configs, WsLaunchConfig, i));
}

/* A taken worker's events and counts into @r, after those of the workers
 * before it. */
static void
merge_worker (KinetoReader *r, Worker *w)
{
  KinetoReader *from = &w->r;
  IdMaps maps;
  GHashTableIter iter;
  gpointer key, value;

  map_ids (r, w->run, &maps);
  append_columns (&r->kernels, &from->kernels, &maps);
  append_columns (&r->memops, &from->memops, &maps);
  append_columns (&r->api, &from->api, &maps);
  append_columns (&r->ranges, &from->ranges, &maps);
  append_columns (&r->cpu_ops, &from->cpu_ops, &maps);
  append_array (r->mem_time, &from->mem_time);
  append_array (r->mem_bytes, &from->mem_bytes);
  append_array (r->mem_device, &from->mem_device);
  /* A thread's first name is its own; a process's last, as one reader
   * keeps them. */
  g_hash_table_iter_init (&iter, from->thread_names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (r->thread_names, key))
      g_hash_table_insert (r->thread_names, g_memdup2 (key, sizeof (gint64)), g_strdup (value));
  g_hash_table_iter_init (&iter, from->process_names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (r->process_names, g_memdup2 (key, sizeof (gint64)), g_strdup (value));
  r->n_events += from->n_events;
  r->n_memcpy += from->n_memcpy;
  r->n_memset += from->n_memset;
  r->n_runtime += from->n_runtime;
  r->n_driver += from->n_driver;
  r->n_flows += from->n_flows;
  r->n_gpu_annotations += from->n_gpu_annotations;
  r->n_host_memory += from->n_host_memory;
  r->n_other += from->n_other;
  g_free (maps.names);
  g_free (maps.threads);
  g_free (maps.streams);
  g_free (maps.configs);
}

/* The workers wanted for @bytes of events. */
static guint
workers_wanted (guint64 bytes)
{
  guint forced;

  if (ws_workers_forced (&forced))
    return forced;
  if (bytes < MIN_BYTES_PARALLEL)
    return 1;
  return (guint) MIN ((guint64) ws_workers_cores (), bytes / BYTES_PER_WORKER);
}

/* The pieces read, chained and merged; the tokenizer of the last piece,
 * past the array's ']', becomes @r's.  Reads nothing where a worker's
 * stream does not open. */
static WsKinetoParallel
read_pieces (KinetoReader *r, Worker *workers, guint n, GError **error)
{
  Job job = { r, 0 };
  g_autofree GThread **threads = g_new (GThread *, n);
  guint last, taken = 0;

  for (guint i = 0; i < n; i++)
    if (!worker_init (&workers[i], &job, i))
      return WS_KINETO_ONE_THREAD;
  g_mutex_init (&job.lock);
  g_cond_init (&job.done);
  job.running = n;
  for (guint i = 0; i < n; i++)
    threads[i] = g_thread_new ("ws-kineto-read", worker_run, &workers[i]);
  wait_workers (&job, workers, n);
  for (guint i = 0; i < n; i++)
    g_thread_join (threads[i]);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.done);

  last = chain_pieces (workers, n);
  if (workers[last].error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&workers[last].error));
      return WS_KINETO_FAILED;
    }
  for (guint i = 0; i <= last; i++)
    if (!workers[i].dropped)
      {
        merge_worker (r, &workers[i]);
        taken++;
      }
  g_debug ("%s: traceEvents in %u pieces, %u taken", r->path, n, taken);
  g_clear_pointer (&r->pull, ws_json_pull_free);
  r->pull = g_steal_pointer (&workers[last].r.pull);
  return WS_KINETO_READ;
}

/**
 * ws_kineto_read_parallel:
 * @r: a reader whose tokenizer has just read the '[' of "traceEvents"
 *
 * Reads the events on several cores where @r reads a plain file big
 * enough (or WARPSCOPE_THREADS says so) and cores are free; the columns
 * and ids come out as ws_kineto_read_some_events() makes them on one
 * thread, and @r's tokenizer stands after the array.
 *
 * Returns: %WS_KINETO_ONE_THREAD where it read nothing
 */
WsKinetoParallel
ws_kineto_read_parallel (KinetoReader *r, GError **error)
{
  guint64 first = ws_json_pull_offset (r->pull);
  guint64 size = r->file_size > 0 ? (guint64) r->file_size : 0;
  g_autofree Worker *workers = NULL;
  guint n, made;
  WsKinetoParallel result;

  if (!r->plain || r->batches != NULL || size <= first)
    return WS_KINETO_ONE_THREAD;
  n = workers_wanted (size - first);
  if (n > 1 && (n = ws_workers_take (n)) == 1)
    ws_workers_give (1);
  if (n <= 1)
    return WS_KINETO_ONE_THREAD;
  workers = g_new0 (Worker, n);
  made = cut_pieces (r, workers, n, first, size);
  ws_workers_give (n - made);
  result = made > 1 ? read_pieces (r, workers, made, error) : WS_KINETO_ONE_THREAD;
  for (guint i = 0; i < made; i++)
    worker_clear (&workers[i]);
  ws_workers_give (made);
  return result;
}
