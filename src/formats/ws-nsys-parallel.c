/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys"
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "ws-nsys-reader-private.h"
#include "ws-reader-error.h"
#include "ws-sqlite.h"
#include "ws-workers.h"

/* A big event table read on several cores (docs/performance.md, "Reading
 * on every core").  The table's rowids are cut into contiguous ranges, one
 * per worker; each worker reads its range on a connection of its own and
 * writes row r into slot r - first rowid of the run's arrays, which were
 * sized for the whole span.  What a row callback interns (streams, threads,
 * launch configurations) goes into the worker's own tables first; after
 * the workers, their tables are merged in rowid order and the ids they
 * wrote mapped to the run's, so that the ids come out exactly as one
 * sequential scan numbers them.  Slots of rowids the table lacks, and of
 * rows the callback left out, are closed up last: the run's arrays hold
 * the same rows in the same order as ws_nsys_read_rows() leaves them. */

/* A table is read on several cores from two workers' worth of rows on:
 * below that, one scan filing each row as it comes beats the slots and
 * their pass in order (NVTX on two cores).  Once split, a worker takes
 * 65,536 rows or more, or what WsNsysColumns.rows_per_worker says: NVTX
 * rows, with their text, are worth 16,384 a worker (150,000 ranges read on
 * 9 cores instead of 2, 1.5x faster on 16 cores), while 375,000 kernels on
 * 16 workers instead of 5 were 1.3x slower (docs/performance.md). */
#define ROWS_PER_WORKER 65536
#define MIN_ROWS_PARALLEL (2 * ROWS_PER_WORKER)
#define CHECK_ROWS 4096

static guint
workers_wanted (gint64 rows, gint64 rows_per_worker)
{
  guint n;

  if (ws_workers_forced (&n))
    return (guint) MIN ((gint64) n, rows);
  if (rows < MIN_ROWS_PARALLEL)
    return 1;
  return (guint) MIN ((gint64) ws_workers_cores (), rows / rows_per_worker);
}

typedef struct _Job Job;

typedef struct
{
  Job *job;
  gint64 first, last; /* rowids, inclusive */
  WsNsysReader r;     /* the worker's: its counters and interned ids */
  WsRun shadow;       /* the run's arrays, the worker's streams/threads/configs */
  WsSqlite *sql;
  gint64 seen;
  char *bad_column; /* with r.bad_time: the column it was in */
  GError *error;
} Worker;

struct _Job
{
  WsNsysReader *r;
  const char *table;
  const char *sql;
  WsNsysRowFunc func;
  gpointer data;
  gint64 first;           /* the table's first rowid: slot 0 */
  gboolean local_strings; /* workers intern text (WS_NSYS_ID_STRING) */
  guint8 *kept;           /* per slot: the callback kept the row */
  gint rows_done;
  GMutex lock;
  GCond done;
  guint running;
};

static gpointer
worker_run (gpointer data)
{
  Worker *w = data;
  Job *job = w->job;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 span = w->last - job->first;
  gsize since = 0;

  w->sql = ws_sqlite_open_worker (job->r->sql, &w->error);
  if (w->sql != NULL)
    stmt = ws_sqlite_prepare (w->sql, job->sql, &w->error);
  if (stmt != NULL)
    {
      sqlite3_bind_int64 (stmt, 1, w->first);
      sqlite3_bind_int64 (stmt, 2, w->last);
      while (ws_sqlite_step (w->sql, stmt, job->table, &w->error))
        {
          /* The rowid is the last column; a corrupt b-tree may still
           * yield one outside the range: never write past. */
          gint64 slot = sqlite3_column_int64 (stmt, sqlite3_column_count (stmt) - 1) - job->first;

          w->seen++;
          if (slot < 0 || slot > span)
            continue;
          if (job->func (&w->r, stmt, (gsize) slot, job->data))
            job->kept[slot] = 1;
          else if (w->r.bad_time != NULL)
            break;
          if (++since == CHECK_ROWS)
            {
              g_atomic_int_add (&job->rows_done, (gint) since);
              since = 0;
              if (g_cancellable_set_error_if_cancelled (w->sql->cancellable, &w->error))
                break;
            }
        }
      g_atomic_int_add (&job->rows_done, (gint) since);
      /* The column's name lives as long as the statement. */
      if (w->r.bad_time != NULL)
        w->bad_column = g_strdup (w->r.bad_column);
    }
  g_mutex_lock (&job->lock);
  job->running--;
  g_cond_signal (&job->done);
  g_mutex_unlock (&job->lock);
  return NULL;
}

/* The worker's reader: the run's arrays through a shallow copy of the run
 * whose streams, threads and configurations are the worker's own. */
static void
worker_init (Worker *w, Job *job)
{
  WsNsysReader *r = job->r;

  w->job = job;
  w->shadow = *r->run;
  w->shadow.streams = g_array_new (FALSE, FALSE, sizeof (WsStream));
  w->shadow.threads = g_array_new (FALSE, FALSE, sizeof (WsThread));
  w->shadow.configs = g_array_new (FALSE, FALSE, sizeof (WsLaunchConfig));
  /* Text only where a column says so (NVTX), in a table of the worker's
   * own; domains never. */
  w->shadow.strings = job->local_strings ? ws_string_table_new () : NULL;
  w->shadow.domains = NULL;
  ws_nsys_reader_init (&w->r, r->sql, &w->shadow, r->flags, NULL, NULL);
  w->r.string_map = r->string_map;
  w->r.string_map_len = r->string_map_len;
  w->r.string_sparse = r->string_sparse;
  g_hash_table_unref (w->r.thread_names);
  w->r.thread_names = g_hash_table_ref (r->thread_names);
}

static void
worker_clear (Worker *w)
{
  w->r.string_map = NULL;
  w->r.string_sparse = NULL;
  ws_nsys_reader_clear (&w->r);
  g_array_unref (w->shadow.streams);
  g_array_unref (w->shadow.threads);
  g_array_unref (w->shadow.configs);
  g_clear_pointer (&w->shadow.strings, ws_string_table_free);
  g_clear_pointer (&w->sql, ws_sqlite_close);
  g_clear_pointer (&w->bad_column, g_free);
  g_clear_error (&w->error);
}

/* The run's id of each of the worker's streams, threads and configurations,
 * appending those the run has not seen yet: in worker order, this numbers
 * them as a sequential scan does, by first appearance. */
static guint32 *
merge_streams (WsNsysReader *r, GArray *local)
{
  guint32 *map = g_new (guint32, MAX (local->len, 1));

  for (guint i = 0; i < local->len; i++)
    {
      const WsStream *s = &g_array_index (local, WsStream, i);

      map[i] = ws_nsys_stream_for (r, s->global_pid, s->device_id, s->context_id, s->stream_id);
    }
  return map;
}

static guint32 *
merge_threads (WsNsysReader *r, GArray *local)
{
  guint32 *map = g_new (guint32, MAX (local->len, 1));

  for (guint i = 0; i < local->len; i++)
    map[i] = ws_nsys_thread_for (r, g_array_index (local, WsThread, i).global_tid);
  return map;
}

static guint32 *
merge_configs (WsNsysReader *r, GArray *local)
{
  guint32 *map = g_new (guint32, MAX (local->len, 1));

  for (guint i = 0; i < local->len; i++)
    map[i] = ws_nsys_config_for (r, &g_array_index (local, WsLaunchConfig, i));
  return map;
}

/* The run's id of each string of the worker's table, interning those the
 * run lacks in the worker's order of first appearance. */
static guint32 *
merge_strings (WsNsysReader *r, const WsStringTable *local)
{
  guint n = ws_string_table_size (local);
  guint32 *map = g_new (guint32, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    map[i] = ws_string_table_intern (r->run->strings, ws_string_table_get (local, i));
  return map;
}

/* Maps the ids of the kept rows in slots [@from, @to) through @map; a
 * row's id is @stride bytes after the previous row's. */
static void
remap (guint32 *ids, gsize stride, const guint32 *map, guint n_map, const guint8 *kept, gsize base,
       gsize from, gsize to)
{
  for (gsize slot = from; slot < to; slot++)
    if (kept[slot])
      {
        guint32 *id = (guint32 *) ((char *) ids + (base + slot) * stride);

        if (*id < n_map)
          *id = map[*id];
      }
}

static void
merge_ids (WsNsysReader *r, Worker *w, const WsNsysColumns *cols, const guint8 *kept)
{
  gsize from = (gsize) (w->first - w->job->first);
  gsize to = (gsize) (w->last - w->job->first) + 1;

  for (gsize c = 0; c < cols->n_ids; c++)
    {
      WsNsysIdKind kind = cols->ids[c].kind;
      gsize stride = cols->ids[c].stride > 0 ? cols->ids[c].stride : sizeof (guint32);
      GArray *local = kind == WS_NSYS_ID_STREAM   ? w->shadow.streams
                      : kind == WS_NSYS_ID_THREAD ? w->shadow.threads
                                                  : w->shadow.configs;
      g_autofree guint32 *map = NULL;
      guint n_map = local->len;

      if (kind == WS_NSYS_ID_STRING)
        {
          map = merge_strings (r, w->shadow.strings);
          n_map = ws_string_table_size (w->shadow.strings);
        }
      else
        map = kind == WS_NSYS_ID_STREAM   ? merge_streams (r, local)
              : kind == WS_NSYS_ID_THREAD ? merge_threads (r, local)
                                          : merge_configs (r, local);
      remap (cols->ids[c].ids, stride, map, n_map, kept, cols->base, from, to);
    }
}

/* Closes up the slots of rows not kept; returns the rows kept. */
static gsize
compact (const WsNsysColumns *cols, const guint8 *kept, gsize span)
{
  gsize n = 0;

  for (gsize i = 0; i < span; i++)
    {
      gsize from = cols->base + i, to = cols->base + n;

      if (!kept[i])
        continue;
      if (from != to)
        {
          if (cols->start != NULL)
            cols->start[to] = cols->start[from];
          if (cols->end != NULL)
            cols->end[to] = cols->end[from];
          for (gsize c = 0; c < cols->n_columns; c++)
            memcpy ((char *) cols->columns[c] + to * cols->sizes[c],
                    (const char *) cols->columns[c] + from * cols->sizes[c], cols->sizes[c]);
        }
      n++;
    }
  return n;
}

/* Waits for the workers, reporting progress and honouring cancellation
 * on this thread (the workers stop on their own when cancelled). */
static void
wait_workers (Job *job, gint64 rows_before)
{
  WsNsysReader *r = job->r;

  g_mutex_lock (&job->lock);
  while (job->running > 0)
    {
      gint64 until = g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND;

      g_cond_wait_until (&job->done, &job->lock, until);
      if (r->progress != NULL && r->rows_total > 0)
        {
          double fraction = MIN (1.0, (double) (rows_before + g_atomic_int_get (&job->rows_done)) /
                                        (double) r->rows_total);

          if (fraction - r->last_fraction >= 0.01)
            {
              r->last_fraction = fraction;
              g_mutex_unlock (&job->lock);
              r->progress (fraction, job->table, r->progress_data);
              g_mutex_lock (&job->lock);
            }
        }
    }
  g_mutex_unlock (&job->lock);
}

/* The first error of the workers in rowid order: the one a sequential
 * scan would have met first. */
static gboolean
gather (WsNsysReader *r, Worker *workers, guint n, const char *table, GError **error)
{
  for (guint i = 0; i < n; i++)
    {
      Worker *w = &workers[i];

      r->n_reversed += w->r.n_reversed;
      r->n_out_of_span += w->r.n_out_of_span;
      if (w->r.bad_time != NULL)
        {
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                       _ ("%1$s: table %2$s, column %3$s: '%4$s' is not a time in ns"),
                       r->sql->path, table, w->bad_column, w->r.bad_time);
          return FALSE;
        }
      if (w->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&w->error));
          return FALSE;
        }
    }
  return TRUE;
}

/* The workers a read of @table into arrays of @max_rows would want. */
static guint
workers_for (WsNsysReader *r, const char *table, gint64 max_rows, gsize rows_per_worker,
             gint64 *first, gint64 *last)
{
  if (ws_sqlite_rowid_span (r->sql, table, first, last) && *last - *first < max_rows)
    return workers_wanted (*last - *first + 1,
                           rows_per_worker > 0 ? (gint64) rows_per_worker : ROWS_PER_WORKER);
  return 1;
}

/* Whether ws_nsys_read_table() would read @table on several cores (when
 * the cores are free): a caller may then read it differently. */
gboolean
ws_nsys_read_in_parallel (WsNsysReader *r, const char *table, gint64 max_rows)
{
  gint64 first, last;

  return workers_for (r, table, max_rows, 0, &first, &last) > 1;
}

/**
 * ws_nsys_read_table:
 * @select: the SELECT list and FROM clause, "SELECT a, b FROM \"T\""
 * @where: (nullable): a condition on the rows, without WHERE
 * @max_rows: the rows the arrays of @cols hold, from @cols->base on
 * @cols: (nullable): the arrays @func writes, and which of them hold
 *   interned ids; %NULL reads on this thread alone
 *
 * Reads @table as ws_nsys_read_rows() does, on several cores when it is
 * big and its rowids fit the arrays; the arrays come out the same either
 * way.  @func must write nothing but the row's slot of @cols's arrays
 * (row + @cols->base) and intern through the reader (streams, threads,
 * configurations; no text).
 */
gboolean
ws_nsys_read_table (WsNsysReader *r, const char *table, const char *select, const char *where,
                    gint64 max_rows, WsNsysRowFunc func, gpointer data, const WsNsysColumns *cols,
                    gsize *n_read, GError **error)
{
  g_autofree char *sequential = NULL;
  g_autofree char *ranged = NULL;
  g_autofree guint8 *kept = NULL;
  g_autofree Worker *workers = NULL;
  gint64 first = 0, last = -1, span, rows_before = r->rows_done;
  guint n_workers = 1;
  Job job = { 0 };
  gboolean ok;

  if (cols != NULL)
    n_workers = workers_for (r, table, max_rows, cols->rows_per_worker, &first, &last);
  if (n_workers > 1 && (n_workers = ws_workers_take (n_workers)) == 1)
    ws_workers_give (1);
  if (n_workers <= 1)
    {
      sequential =
        where != NULL ? g_strdup_printf ("%s WHERE %s", select, where) : g_strdup (select);
      if (!ws_nsys_read_rows (r, table, sequential, max_rows, func, data, n_read, error))
        return FALSE;
      if (where == NULL)
        g_hash_table_insert (r->seen, (gpointer) table, GSIZE_TO_POINTER (r->last_seen));
      return TRUE;
    }

  /* The rowid, last, tells a worker the row's slot. */
  {
    const char *from = strstr (select, " FROM ");

    g_return_val_if_fail (from != NULL, FALSE);
    ranged = g_strdup_printf ("%.*s, rowid%s WHERE rowid BETWEEN ?1 AND ?2%s%s%s",
                              (int) (from - select), select, from, where != NULL ? " AND (" : "",
                              where != NULL ? where : "", where != NULL ? ")" : "");
  }
  span = last - first + 1;
  kept = g_new0 (guint8, span);
  workers = g_new0 (Worker, n_workers);
  job = (Job){ r, table, ranged, func, data, first, FALSE, kept, 0 };
  for (gsize c = 0; c < cols->n_ids; c++)
    job.local_strings |= cols->ids[c].kind == WS_NSYS_ID_STRING;
  g_mutex_init (&job.lock);
  g_cond_init (&job.done);
  job.running = n_workers;
  for (guint i = 0; i < n_workers; i++)
    {
      Worker *w = &workers[i];

      worker_init (w, &job);
      w->first = first + span * i / n_workers;
      w->last = first + span * (i + 1) / n_workers - 1;
    }
  {
    g_autofree GThread **threads = g_new (GThread *, n_workers);

    for (guint i = 0; i < n_workers; i++)
      threads[i] = g_thread_new ("ws-nsys-read", worker_run, &workers[i]);
    wait_workers (&job, rows_before);
    for (guint i = 0; i < n_workers; i++)
      g_thread_join (threads[i]);
  }
  ws_workers_give (n_workers);

  ok = gather (r, workers, n_workers, table, error);
  if (ok)
    {
      gint64 seen = 0;
      gsize n;

      for (guint i = 0; i < n_workers; i++)
        {
          merge_ids (r, &workers[i], cols, kept);
          seen += workers[i].seen;
        }
      n = compact (cols, kept, (gsize) span);
      r->rows_done = rows_before + seen;
      if (where == NULL)
        g_hash_table_insert (r->seen, (gpointer) table, GSIZE_TO_POINTER ((gsize) seen));
      if (n_read != NULL)
        *n_read = n;
    }
  for (guint i = 0; i < n_workers; i++)
    worker_clear (&workers[i]);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.done);
  return ok && !g_cancellable_set_error_if_cancelled (r->sql->cancellable, error);
}
