/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-nsys-reader-private.h"
#include "ws-nsys-reader.h"
#include "ws-reader-error.h"
#include "ws-run-build.h"
#include "ws-sort.h"
#include "ws-sqlite.h"

#define TICK_ROWS 4096

void
ws_nsys_reader_clear (WsNsysReader *r)
{
  g_clear_pointer (&r->string_map, g_free);
  g_clear_pointer (&r->string_sparse, g_hash_table_unref);
  g_clear_pointer (&r->thread_names, g_hash_table_unref);
  g_clear_pointer (&r->thread_index, g_hash_table_unref);
  g_clear_pointer (&r->stream_index, g_hash_table_unref);
  g_clear_pointer (&r->config_index, g_hash_table_unref);
  g_clear_pointer (&r->domain_index, g_hash_table_unref);
  g_clear_pointer (&r->seen, g_hash_table_unref);
  g_clear_pointer (&r->bad_time, g_free);
}

static guint
stream_hash (gconstpointer key)
{
  const WsStream *s = key;

  return (guint) (s->global_pid ^ (s->global_pid >> 32)) * 31u + (guint) s->device_id * 131u +
         (guint) s->context_id * 17u + (guint) s->stream_id;
}

static gboolean
stream_equal (gconstpointer a, gconstpointer b)
{
  const WsStream *x = a, *y = b;

  return x->global_pid == y->global_pid && x->device_id == y->device_id &&
         x->context_id == y->context_id && x->stream_id == y->stream_id;
}

static guint
config_hash (gconstpointer key)
{
  const guint32 *v = key;
  guint h = 5381;

  for (gsize i = 0; i < sizeof (WsLaunchConfig) / sizeof (guint32); i++)
    h = h * 33u + v[i];
  return h;
}

static gboolean
config_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (WsLaunchConfig)) == 0;
}

static gboolean
tick (WsNsysReader *r, const char *what, GError **error)
{
  double fraction;

  if (g_cancellable_set_error_if_cancelled (r->sql->cancellable, error))
    return FALSE;
  if (r->progress == NULL || r->rows_total <= 0)
    return TRUE;
  fraction = MIN (1.0, (double) r->rows_done / (double) r->rows_total);
  if (fraction - r->last_fraction >= 0.01 || fraction >= 1.0)
    {
      r->last_fraction = fraction;
      r->progress (fraction, what, r->progress_data);
    }
  return TRUE;
}

static guint32
map_string_id (WsNsysReader *r, gint64 file_id)
{
  gpointer found;

  if (r->string_map != NULL)
    return file_id >= 0 && (guint64) file_id < r->string_map_len ? r->string_map[file_id]
                                                                 : WS_STRING_NONE;
  if (r->string_sparse == NULL)
    return WS_STRING_NONE;
  found = g_hash_table_lookup (r->string_sparse, &file_id);
  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : WS_STRING_NONE;
}

guint32
ws_nsys_column_string (WsNsysReader *r, sqlite3_stmt *stmt, int col)
{
  if (sqlite3_column_type (stmt, col) == SQLITE_NULL)
    return WS_STRING_NONE;
  return map_string_id (r, sqlite3_column_int64 (stmt, col));
}

guint32
ws_nsys_column_text (WsNsysReader *r, sqlite3_stmt *stmt, int col)
{
  const char *text = (const char *) sqlite3_column_text (stmt, col);

  if (text == NULL)
    return WS_STRING_NONE;
  return ws_string_table_intern (r->run->strings, text);
}

gint32
ws_nsys_column_i32 (sqlite3_stmt *stmt, int col)
{
  return (gint32) CLAMP (sqlite3_column_int64 (stmt, col), G_MININT32, G_MAXINT32);
}

guint32
ws_nsys_column_u32 (sqlite3_stmt *stmt, int col)
{
  return (guint32) CLAMP (sqlite3_column_int64 (stmt, col), 0, G_MAXUINT32);
}

/* A graphNodeId cell: WS_REPLAY_NONE where it is NULL (the event ran
 * outside any graph), else the executable graph's id.  nsys numbers a
 * node of executable graph G as G << 32 | n: on every export of
 * tests/data/captures/h200_graphs the upper half of a kernel's graphNodeId
 * equals the graphExecId that graph-level tracing gives the same launch
 * (docs/cuda-graphs.md). */
guint32
ws_nsys_column_graph (sqlite3_stmt *stmt, int col)
{
  gint64 node;

  if (sqlite3_column_type (stmt, col) == SQLITE_NULL)
    return WS_REPLAY_NONE;
  node = sqlite3_column_int64 (stmt, col);
  return (guint32) CLAMP (node >> 32, 0, G_MAXUINT32 - 1);
}

guint32
ws_nsys_thread_for (WsNsysReader *r, gint64 global_tid)
{
  gpointer found;
  WsThread thread = { 0 };
  gint64 *key;

  /* Consecutive calls are mostly on one thread: try the last one first. */
  if (r->last_thread < r->run->threads->len &&
      g_array_index (r->run->threads, WsThread, r->last_thread).global_tid == global_tid)
    return r->last_thread;
  found = g_hash_table_lookup (r->thread_index, &global_tid);
  if (found != NULL)
    {
      r->last_thread = GPOINTER_TO_UINT (found) - 1;
      return r->last_thread;
    }

  thread.global_tid = global_tid;
  thread.pid = (guint32) ((global_tid >> 24) & 0xFFFFFF);
  thread.tid = (guint32) (global_tid & 0xFFFFFF);
  found = g_hash_table_lookup (r->thread_names, &global_tid);
  thread.name = found != NULL ? GPOINTER_TO_UINT (found) - 1 : WS_STRING_NONE;
  g_array_append_val (r->run->threads, thread);

  key = g_memdup2 (&global_tid, sizeof global_tid);
  g_hash_table_insert (r->thread_index, key, GUINT_TO_POINTER (r->run->threads->len));
  r->last_thread = r->run->threads->len - 1;
  return r->last_thread;
}

guint32
ws_nsys_stream_for (WsNsysReader *r, gint64 global_pid, gint32 device, gint32 context,
                    gint32 stream_id)
{
  WsStream key = { global_pid, (guint32) ((global_pid >> 24) & 0xFFFFFF), device, context,
                   stream_id };
  gpointer found;

  /* Consecutive events are mostly on one stream: try the last one first. */
  if (r->last_stream < r->run->streams->len &&
      stream_equal (&key, &g_array_index (r->run->streams, WsStream, r->last_stream)))
    return r->last_stream;

  found = g_hash_table_lookup (r->stream_index, &key);
  if (found == NULL)
    {
      g_array_append_val (r->run->streams, key);
      found = GUINT_TO_POINTER (r->run->streams->len);
      g_hash_table_insert (r->stream_index, g_memdup2 (&key, sizeof key), found);
    }
  r->last_stream = GPOINTER_TO_UINT (found) - 1;
  return r->last_stream;
}

guint32
ws_nsys_config_for (WsNsysReader *r, const WsLaunchConfig *key)
{
  gpointer found;

  if (r->last_config < r->run->configs->len &&
      config_equal (key, &g_array_index (r->run->configs, WsLaunchConfig, r->last_config)))
    return r->last_config;

  found = g_hash_table_lookup (r->config_index, key);
  if (found == NULL)
    {
      g_array_append_vals (r->run->configs, key, 1);
      found = GUINT_TO_POINTER (r->run->configs->len);
      g_hash_table_insert (r->config_index, g_memdup2 (key, sizeof *key), found);
    }
  r->last_config = GPOINTER_TO_UINT (found) - 1;
  return r->last_config;
}

guint16
ws_nsys_domain_for (WsNsysReader *r, gint64 domain_id)
{
  gpointer found;
  WsNvtxDomain domain = { domain_id, WS_STRING_NONE };

  if (domain_id == 0)
    return 0;
  found = g_hash_table_lookup (r->domain_index, &domain_id);
  if (found != NULL)
    return (guint16) (GPOINTER_TO_UINT (found) - 1);
  if (r->run->domains->len >= G_MAXUINT16)
    return 0;
  g_array_append_val (r->run->domains, domain);
  g_hash_table_insert (r->domain_index, g_memdup2 (&domain_id, sizeof domain_id),
                       GUINT_TO_POINTER (r->run->domains->len));
  return (guint16) (r->run->domains->len - 1);
}

/* A time cell (ns): an integer within ±WS_TIME_LIMIT.  Beyond, or empty,
 * the row is left out and counted (no difference of two kept times can
 * overflow); text is kept in @r for ws_nsys_read_rows() to refuse the file
 * with. */
gboolean
ws_nsys_column_time (WsNsysReader *r, sqlite3_stmt *stmt, int col, gint64 *time)
{
  switch (sqlite3_column_type (stmt, col))
    {
      case SQLITE_INTEGER:
        *time = sqlite3_column_int64 (stmt, col);
        break;
      case SQLITE_FLOAT:
        {
          double t = sqlite3_column_double (stmt, col);

          if (!(fabs (t) < (double) WS_TIME_LIMIT))
            {
              r->n_out_of_span++;
              return FALSE;
            }
          *time = (gint64) t;
          break;
        }
      case SQLITE_NULL:
        r->n_out_of_span++;
        return FALSE;
      case SQLITE_BLOB:
        /* Bytes, not text: say what it is rather than print them. */
        g_free (r->bad_time);
        r->bad_time = g_strdup_printf ("a blob of %d bytes", sqlite3_column_bytes (stmt, col));
        r->bad_column = sqlite3_column_name (stmt, col);
        return FALSE;
      default:
        g_free (r->bad_time);
        r->bad_time = g_strndup ((const char *) sqlite3_column_text (stmt, col), 40);
        r->bad_column = sqlite3_column_name (stmt, col);
        return FALSE;
    }
  if (*time <= -WS_TIME_LIMIT || *time >= WS_TIME_LIMIT)
    {
      r->n_out_of_span++;
      return FALSE;
    }
  return TRUE;
}

/* Start and end in columns @col and @col + 1: an end before its start is
 * set to the start (counted in n_reversed). */
gboolean
ws_nsys_column_times (WsNsysReader *r, sqlite3_stmt *stmt, int col, gint64 *start, gint64 *end)
{
  if (!ws_nsys_column_time (r, stmt, col, start) || !ws_nsys_column_time (r, stmt, col + 1, end))
    return FALSE;
  if (*end < *start)
    {
      *end = *start;
      r->n_reversed++;
    }
  return TRUE;
}

/* The run's warnings for the times that were set right or left out. */
void
ws_nsys_reader_warn_times (WsNsysReader *r)
{
  if (r->n_reversed > 0)
    ws_run_add_warning (
      r->run, "%" G_GINT64_FORMAT " events end before they start; their end was set to their start",
      r->n_reversed);
  if (r->n_out_of_span > 0)
    ws_run_add_warning (r->run,
                        g_dngettext (GETTEXT_PACKAGE,
                                     "%lld event has no time or one beyond ±2^62 ns (146 years) "
                                     "and was left out",
                                     "%lld events have no time or one beyond ±2^62 ns (146 "
                                     "years) and were left out",
                                     (gulong) r->n_out_of_span),
                        (long long) r->n_out_of_span);
}

/* Runs @sql over @table and calls @func for each row, with cancellation,
 * progress, and at most @max_rows rows (the count taken before). */
gboolean
ws_nsys_read_rows (WsNsysReader *r, const char *table, const char *sql, gint64 max_rows,
                   WsNsysRowFunc func, gpointer data, gsize *n_read, GError **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  GError *local_error = NULL;
  gsize row = 0;

  stmt = ws_sqlite_prepare (r->sql, sql, error);
  if (stmt == NULL)
    return FALSE;

  r->last_seen = 0;
  while (ws_sqlite_step (r->sql, stmt, table, &local_error))
    {
      /* The table cannot grow under an immutable connection, but a corrupt
       * b-tree can yield more rows than count(*) saw: never write past. */
      if ((gint64) row >= max_rows)
        break;
      r->last_seen++;
      if (!func (r, stmt, row, data))
        {
          if (r->bad_time != NULL)
            {
              g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                           _ ("%1$s: table %2$s, column %3$s: '%4$s' is not a time in ns"),
                           r->sql->path, table, r->bad_column, r->bad_time);
              return FALSE;
            }
          continue;
        }
      row++;
      r->rows_done++;
      if (row % TICK_ROWS == 0 && !tick (r, table, error))
        return FALSE;
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (n_read != NULL)
    *n_read = row;
  return tick (r, table, error);
}

/* The rows of @table a whole read of it met (kept or not), or, for a
 * table not read whole, its count(*); @bound where even that fails. */
gint64
ws_nsys_rows_seen (WsNsysReader *r, const char *table, gint64 bound)
{
  gpointer seen;
  gint64 rows;

  if (r->seen != NULL && g_hash_table_lookup_extended (r->seen, table, NULL, &seen))
    return (gint64) GPOINTER_TO_SIZE (seen);
  return ws_sqlite_count (r->sql, table, &rows, NULL) ? rows : bound;
}

void
ws_nsys_reader_init (WsNsysReader *r, WsSqlite *sql, WsRun *run, WsLoadFlags flags,
                     WsProgressFunc progress, gpointer progress_data)
{
  r->sql = sql;
  r->run = run;
  r->flags = flags;
  r->progress = progress;
  r->progress_data = progress_data;
  r->last_stream = G_MAXUINT32;
  r->last_config = G_MAXUINT32;
  r->last_thread = G_MAXUINT32;
  r->thread_names = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  r->thread_index = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  r->stream_index = g_hash_table_new_full (stream_hash, stream_equal, g_free, NULL);
  r->config_index = g_hash_table_new_full (config_hash, config_equal, g_free, NULL);
  r->domain_index = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  r->seen = g_hash_table_new (g_str_hash, g_str_equal);
}

/* ---- the whole file ---------------------------------------------------- */

typedef struct
{
  const char *what;  /* the name `info` prints */
  const char *table; /* as nsys names it */
  WsLoadFlags flag;
  gsize bytes_per_row; /* what loading a row costs us, for the memory bound */
  const char *found;   /* the table's name in this file, or NULL */
  gint64 rows;         /* counted, or bounded from the rowids */
  gboolean whole;      /* read whole when read: rows may be a bound */
  gboolean bounded;    /* rows is a bound: the rows read are counted at load */
} TablePlan;

/* The rows of the plan in ws_nsys_reader_load(). */
enum
{
  P_KERNEL,
  P_MEMCPY,
  P_MEMSET,
  P_RUNTIME,
  P_NVTX,
  P_MEM_USAGE,
  P_METRICS,
  P_OSRT,
  P_GRAPH,
  N_PLAN
};

/* Whether the database open in @sql is an nsys export. */
static gboolean
sniff_open (WsSqlite *sql, const char *path, GError **error)
{
  static const char *const markers[] = {
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "NVTX_EVENTS",
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "META_DATA_EXPORT",
    "EXPORT_META_DATA",
    "TARGET_INFO_SESSION_START_TIME",
    "OSRT_API",
  };

  g_autoptr (sqlite3_stmt) views = NULL;

  if (ws_sqlite_find_table (sql, "StringIds") != NULL)
    for (gsize i = 0; i < G_N_ELEMENTS (markers); i++)
      if (ws_sqlite_find_table (sql, markers[i]) != NULL)
        return TRUE;

  /* An export's names as views over other tables: nsys never writes
   * views, and what they compute is not what its tables hold. */
  views = ws_sqlite_prepare (sql,
                             "SELECT 1 FROM sqlite_master WHERE type = 'view' AND name IN"
                             " ('StringIds', 'CUPTI_ACTIVITY_KIND_KERNEL', 'NVTX_EVENTS')",
                             NULL);
  if (views != NULL && sqlite3_step (views) == SQLITE_ROW)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_NSYS,
                   "%s: StringIds, CUPTI_ACTIVITY_KIND_KERNEL or NVTX_EVENTS is a view, not a "
                   "table: not an export as Nsight Systems writes it (export the report again "
                   "with nsys export --type sqlite)",
                   path);
      return FALSE;
    }
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_NSYS,
               "%s: an SQLite database, but not an Nsight Systems export "
               "(no StringIds, CUPTI_ACTIVITY_KIND_KERNEL or NVTX_EVENTS table)",
               path);
  return FALSE;
}

gboolean
ws_nsys_reader_sniff (const char *path, GError **error)
{
  g_autoptr (WsSqlite) sql = ws_sqlite_open (path, NULL, error);

  return sql != NULL && sniff_open (sql, path, error);
}

/* @plan's rows: a bound from the rowids, unless @exact or the rowids say
 * nothing (count(*) reads every page of the table, the bound two). */
static gboolean
table_rows (WsNsysReader *r, TablePlan *plan, gboolean exact, GError **error)
{
  gint64 first, last;

  /* Only the big tables a load reads whole: their rows are counted as
   * they are read, for the sources `info` lists. */
  plan->bounded = !exact && plan->whole && (plan->flag & r->flags) &&
                  ws_sqlite_rowid_span (r->sql, plan->found, &first, &last);
  if (plan->bounded)
    {
      plan->rows = last - first + 1;
      return TRUE;
    }
  return ws_sqlite_count (r->sql, plan->found, &plan->rows, error);
}

/* Counts, or bounds, every table first: for progress, for allocations,
 * and to refuse up front what would not fit in memory.  A table refused
 * by its bound is counted before it is refused (@exact). */
static gboolean
count_tables (WsNsysReader *r, const char *path, TablePlan *plan, gboolean exact, GError **error)
{
  guint64 need = 0;
  gboolean bounded = FALSE;

  r->rows_total = 0;

  for (gsize i = 0; i < N_PLAN; i++)
    {
      plan[i].found = ws_sqlite_find_table (r->sql, plan[i].table);
      if (plan[i].found == NULL && (plan[i].flag & r->flags) &&
          ws_sqlite_is_view (r->sql, plan[i].table))
        {
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                       _ ("%1$s: %2$s is a view, not a table; Warpscope reads no views (they run "
                          "the file's own SQL)"),
                       path, plan[i].table);
          return FALSE;
        }
      if (plan[i].found == NULL)
        continue;
      /* A lean load counts only what it reads: count(*) is a full scan. */
      if ((r->flags & WS_LOAD_LEAN) && !(plan[i].flag & r->flags))
        {
          plan[i].rows = -1;
          continue;
        }
      if (!table_rows (r, &plan[i], exact, error))
        return FALSE;
      if (plan[i].flag & r->flags)
        {
          r->rows_total += plan[i].rows;
          need += (guint64) plan[i].rows * plan[i].bytes_per_row;
        }
      bounded = bounded || plan[i].bounded;
      if (!ws_limits_check_rows (path, plan[i].found, plan[i].rows, plan[i].bytes_per_row, NULL))
        return bounded ? count_tables (r, path, plan, TRUE, error)
                       : ws_limits_check_rows (path, plan[i].found, plan[i].rows,
                                               plan[i].bytes_per_row, error);
    }
  /* Memory operations are one table of the run: memcpy and memset together. */
  if ((r->flags & WS_LOAD_MEMOPS) &&
      MAX (plan[P_MEMCPY].rows, 0) + MAX (plan[P_MEMSET].rows, 0) > (gint64) G_MAXUINT32)
    {
      if (bounded)
        return count_tables (r, path, plan, TRUE, error);
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE,
                   "%s: %" G_GINT64_FORMAT " memory operations (%s and %s), more than the %u "
                   "a table may have",
                   path, plan[P_MEMCPY].rows + plan[P_MEMSET].rows, plan[P_MEMCPY].found,
                   plan[P_MEMSET].found, G_MAXUINT32);
      return FALSE;
    }
  /* A table out of order is sorted at load, beside itself: the largest
   * table's scratch counts too. */
  {
    gint64 largest = 0;

    for (gsize i = 0; i < N_PLAN; i++)
      if ((plan[i].flag & r->flags) && i != P_MEMSET)
        largest = MAX (largest, plan[i].rows + (i == P_MEMCPY ? MAX (plan[P_MEMSET].rows, 0) : 0));
    need += ws_sort_scratch_bytes ((guint64) MAX (largest, 0));
  }
  if (need > ws_limits_memory_budget ())
    {
      g_autofree char *size = g_format_size (need);

      if (bounded)
        return count_tables (r, path, plan, TRUE, error);
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE,
                   "%s: its events need about %s of memory, more than this machine allows", path,
                   size);
      return FALSE;
    }
  return TRUE;
}

/* Reads the event tables the load asks for and the file has. */
static gboolean
load_tables (WsNsysReader *r, const TablePlan *plan, GError **error)
{
  if ((r->flags & WS_LOAD_KERNELS) && plan[P_KERNEL].found != NULL &&
      !ws_nsys_load_kernels (r, plan[P_KERNEL].found, plan[P_KERNEL].rows, error))
    return FALSE;
  if ((r->flags & WS_LOAD_MEMOPS) && r->run->has_memory_tables &&
      !ws_nsys_load_memops (r, plan[P_MEMCPY].found, plan[P_MEMCPY].rows, plan[P_MEMSET].found,
                            plan[P_MEMSET].rows, error))
    return FALSE;
  if ((r->flags & WS_LOAD_API) && plan[P_RUNTIME].found != NULL &&
      !ws_nsys_load_api (r, plan[P_RUNTIME].found, plan[P_RUNTIME].rows, error))
    return FALSE;
  if ((r->flags & WS_LOAD_NVTX) && plan[P_NVTX].found != NULL &&
      !ws_nsys_load_nvtx (r, plan[P_NVTX].found, plan[P_NVTX].rows, error))
    return FALSE;
  if ((r->flags & WS_LOAD_MEM_USAGE) && plan[P_MEM_USAGE].found != NULL &&
      !ws_nsys_load_mem_usage (r, plan[P_MEM_USAGE].found, plan[P_MEM_USAGE].rows, error))
    return FALSE;
  if ((r->flags & WS_LOAD_GPU_METRICS) && plan[P_METRICS].found != NULL &&
      !ws_nsys_load_gpu_metrics (r, plan[P_METRICS].found, plan[P_METRICS].rows, error))
    return FALSE;
  if ((r->flags & WS_LOAD_OSRT) && plan[P_OSRT].found != NULL &&
      !ws_nsys_load_osrt (r, plan[P_OSRT].found, plan[P_OSRT].rows, error))
    return FALSE;
  /* Replays are GPU work wherever kernels are, but for the `nsys stats`
   * reports (a lean load), which leave them out as nsys does. */
  if ((r->flags & WS_LOAD_KERNELS) && !(r->flags & WS_LOAD_LEAN))
    {
      if (plan[P_GRAPH].found != NULL &&
          !ws_nsys_load_graph_trace (r, plan[P_GRAPH].found, plan[P_GRAPH].rows, error))
        return FALSE;
      ws_run_build_replays (r->run);
    }
  if ((r->flags & WS_LOAD_CPU_SAMPLES) &&
      ws_sqlite_find_table (r->sql, "COMPOSITE_EVENTS") != NULL &&
      ws_sqlite_find_table (r->sql, "SAMPLING_CALLCHAINS") != NULL &&
      !ws_nsys_load_cpu_samples (r, ws_sqlite_find_table (r->sql, "COMPOSITE_EVENTS"),
                                 ws_sqlite_find_table (r->sql, "SAMPLING_CALLCHAINS"), error))
    return FALSE;
  return TRUE;
}

/**
 * ws_nsys_reader_load:
 * @flags: which event tables to read
 * @progress: (nullable): called on this thread as rows are read
 *
 * Reads an Nsight Systems SQLite export of any version from 2021.2 on.
 * Tables are found by name and columns by PRAGMA table_info: a missing
 * optional table is an empty lane, a missing optional column a default.
 *
 * Returns: (transfer full): the run, or %NULL with @error set.
 */
WsRun *
ws_nsys_reader_load (const char *path, WsLoadFlags flags, GCancellable *cancellable,
                     WsProgressFunc progress, gpointer progress_data, GError **error)
{
  TablePlan plan[N_PLAN] = {
    { "kernels", "CUPTI_ACTIVITY_KIND_KERNEL", WS_LOAD_KERNELS, 48, NULL, 0, TRUE },
    { "memcpy", "CUPTI_ACTIVITY_KIND_MEMCPY", WS_LOAD_MEMOPS, 48, NULL, 0, TRUE },
    { "memset", "CUPTI_ACTIVITY_KIND_MEMSET", WS_LOAD_MEMOPS, 48, NULL, 0, TRUE },
    { "cuda-api", "CUPTI_ACTIVITY_KIND_RUNTIME", WS_LOAD_API, 40, NULL, 0, TRUE },
    { "nvtx", "NVTX_EVENTS", WS_LOAD_NVTX, 80, NULL, 0, TRUE },
    { "gpu-memory", "CUDA_GPU_MEMORY_USAGE_EVENTS", WS_LOAD_MEM_USAGE, 24, NULL, 0, TRUE },
    { "gpu-metrics", "GPU_METRICS", WS_LOAD_GPU_METRICS, 44, NULL, 0, TRUE },
    { "os-runtime", "OSRT_API", WS_LOAD_OSRT, 24 },
    { "replays", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", WS_LOAD_KERNELS, 40 },
  };
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsSqlite) sql = NULL;
  WsNsysReader r = { 0 };
  gboolean ok = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  sql = ws_sqlite_open (path, cancellable, error);
  if (sql == NULL || !sniff_open (sql, path, error))
    return NULL;

  run = ws_run_new ();
  g_ptr_array_add (run->prov.files, g_strdup (path));
  run->prov.kind = g_strdup ("nsys-sqlite");

  ws_nsys_reader_init (&r, sql, run, flags, progress, progress_data);

  if (!count_tables (&r, path, plan, FALSE, error))
    goto out;

  run->has_kernel_table = plan[P_KERNEL].found != NULL;
  run->has_nvtx_table = plan[P_NVTX].found != NULL;
  run->has_runtime_table = plan[P_RUNTIME].found != NULL;
  run->has_memory_tables = plan[P_MEMCPY].found != NULL || plan[P_MEMSET].found != NULL;
  run->has_osrt_table = plan[P_OSRT].found != NULL;

  ws_nsys_load_metadata (&r);
  if (!ws_nsys_load_strings (&r, error) || !ws_nsys_load_thread_names (&r, error))
    goto out;
  r.rows_done = 0;

  if (!load_tables (&r, plan, error))
    goto out;

  for (gsize i = 0; i < G_N_ELEMENTS (plan); i++)
    if (plan[i].found != NULL && plan[i].rows >= 0)
      ws_run_add_source (run, plan[i].what, plan[i].found,
                         plan[i].bounded ? ws_nsys_rows_seen (&r, plan[i].found, plan[i].rows)
                                         : plan[i].rows);

  ws_nsys_load_gpus (&r);
  ws_nsys_load_system (&r);
  ws_nsys_load_capture (&r);
  ws_nsys_load_processes (&r);
  ws_nsys_reader_warn_times (&r);
  ws_run_finish (run);
  ok = TRUE;

out:
  ws_nsys_reader_clear (&r);
  return ok ? g_steal_pointer (&run) : NULL;
}

/**
 * ws_nsys_reader_probe:
 *
 * Reads what an export says about its capture, without its events: the
 * metadata, the GPUs, the system, the session's start and the command and
 * environment of the process nsys launched.  A job's ranks are numbered
 * and put on one clock from this before their events are read.
 *
 * Returns: (transfer full): a run without events, or %NULL with @error set
 */
WsRun *
ws_nsys_reader_probe (const char *path, GError **error)
{
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsSqlite) sql = NULL;
  WsNsysReader r = { 0 };

  g_return_val_if_fail (path != NULL, NULL);

  if (!ws_nsys_reader_sniff (path, error))
    return NULL;
  sql = ws_sqlite_open (path, NULL, error);
  if (sql == NULL)
    return NULL;
  run = ws_run_new ();
  g_ptr_array_add (run->prov.files, g_strdup (path));
  run->prov.kind = g_strdup ("nsys-sqlite");
  r.sql = sql;
  r.run = run;
  ws_nsys_load_metadata (&r);
  ws_nsys_load_gpus (&r);
  ws_nsys_load_system (&r);
  ws_nsys_load_capture (&r);
  ws_nsys_load_thread_rank (&r);
  return g_steal_pointer (&run);
}
