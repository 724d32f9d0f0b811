/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys"
#include "config.h"

#include <string.h>

#include "ws-error.h"
#include "ws-limits.h"
#include "ws-nsys-reader.h"
#include "ws-nvtx-depth.h"
#include "ws-sort.h"
#include "ws-sqlite.h"

/* NVTX event types (ENUM_NSYS_EVENT_TYPE exists only from 2022.4, so the
 * ids are fixed here). */
enum
{
  NVTX_CATEGORY = 33,
  NVTX_MARK = 34,
  NVTX_THREAD = 39,
  NVTX_PUSH_POP = 59,
  NVTX_START_END = 60,
  NVTXT_MARK = 65,
  NVTXT_PUSH_POP = 70,
  NVTXT_START_END = 71,
  NVTX_DOMAIN_CREATE = 75,
};

#define TICK_ROWS 4096

typedef struct
{
  WsSqlite *sql;
  WsRun *run;
  WsLoadFlags flags;
  WsProgressFunc progress;
  gpointer progress_data;
  gint64 rows_total;
  gint64 rows_done;
  double last_fraction;

  /* StringIds id -> our id: an array when the ids are dense, as in every
   * real export, a hash table otherwise. */
  guint32 *string_map;
  gsize string_map_len;
  GHashTable *string_sparse;

  GHashTable *thread_names; /* gint64 globalTid -> string id + 1 */
  GHashTable *thread_index; /* gint64 globalTid -> index + 1 */
  GHashTable *stream_index; /* WsStream * -> index + 1 */
  GHashTable *config_index; /* WsLaunchConfig * -> index + 1 */
  GHashTable *domain_index; /* gint64 domainId -> index + 1 */
  guint32 last_stream;
  guint32 last_config;
  gint64 n_reversed;
} Reader;

typedef gboolean (*RowFunc) (Reader *r, sqlite3_stmt *stmt, gsize row, gpointer data);

static void
reader_clear (Reader *r)
{
  g_clear_pointer (&r->string_map, g_free);
  g_clear_pointer (&r->string_sparse, g_hash_table_unref);
  g_clear_pointer (&r->thread_names, g_hash_table_unref);
  g_clear_pointer (&r->thread_index, g_hash_table_unref);
  g_clear_pointer (&r->stream_index, g_hash_table_unref);
  g_clear_pointer (&r->config_index, g_hash_table_unref);
  g_clear_pointer (&r->domain_index, g_hash_table_unref);
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
tick (Reader *r, const char *what, GError **error)
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
map_string_id (Reader *r, gint64 file_id)
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

static guint32
column_string (Reader *r, sqlite3_stmt *stmt, int col)
{
  if (sqlite3_column_type (stmt, col) == SQLITE_NULL)
    return WS_STRING_NONE;
  return map_string_id (r, sqlite3_column_int64 (stmt, col));
}

static guint32
column_text (Reader *r, sqlite3_stmt *stmt, int col)
{
  const char *text = (const char *) sqlite3_column_text (stmt, col);

  if (text == NULL)
    return WS_STRING_NONE;
  return ws_string_table_intern (r->run->strings, text);
}

static gint32
column_i32 (sqlite3_stmt *stmt, int col)
{
  return (gint32) CLAMP (sqlite3_column_int64 (stmt, col), G_MININT32, G_MAXINT32);
}

static guint32
column_u32 (sqlite3_stmt *stmt, int col)
{
  return (guint32) CLAMP (sqlite3_column_int64 (stmt, col), 0, G_MAXUINT32);
}

static void
column_times (Reader *r, sqlite3_stmt *stmt, int col, gint64 *start, gint64 *end)
{
  *start = ws_clamp_time (sqlite3_column_int64 (stmt, col));
  *end = ws_clamp_time (sqlite3_column_int64 (stmt, col + 1));
  if (*end < *start)
    {
      *end = *start;
      r->n_reversed++;
    }
}

static guint32
thread_for (Reader *r, gint64 global_tid)
{
  gpointer found = g_hash_table_lookup (r->thread_index, &global_tid);
  WsThread thread = { 0 };
  gint64 *key;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  thread.global_tid = global_tid;
  thread.pid = (guint32) ((global_tid >> 24) & 0xFFFFFF);
  thread.tid = (guint32) (global_tid & 0xFFFFFF);
  found = g_hash_table_lookup (r->thread_names, &global_tid);
  thread.name = found != NULL ? GPOINTER_TO_UINT (found) - 1 : WS_STRING_NONE;
  g_array_append_val (r->run->threads, thread);

  key = g_memdup2 (&global_tid, sizeof global_tid);
  g_hash_table_insert (r->thread_index, key, GUINT_TO_POINTER (r->run->threads->len));
  return r->run->threads->len - 1;
}

static guint32
stream_for (Reader *r, gint64 global_pid, gint32 device, gint32 context, gint32 stream_id)
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

static guint32
config_for (Reader *r, const WsLaunchConfig *key)
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

static guint16
domain_for (Reader *r, gint64 domain_id)
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

/* Runs @sql over @table and calls @func for each row, with cancellation,
 * progress, and at most @max_rows rows (the count taken before). */
static gboolean
read_rows (Reader *r, const char *table, const char *sql, gint64 max_rows, RowFunc func,
           gpointer data, gsize *n_read, GError **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  GError *local_error = NULL;
  gsize row = 0;

  stmt = ws_sqlite_prepare (r->sql, sql, error);
  if (stmt == NULL)
    return FALSE;

  while (ws_sqlite_step (r->sql, stmt, table, &local_error))
    {
      /* The table cannot grow under an immutable connection, but a corrupt
       * b-tree can yield more rows than count(*) saw: never write past. */
      if ((gint64) row >= max_rows)
        break;
      if (!func (r, stmt, row, data))
        continue;
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

/* ---- strings, threads, metadata ---------------------------------------- */

typedef struct
{
  gint64 *ids;
  guint32 *ours;
  gint64 max_id;
} StringLoad;

static gboolean
string_row (Reader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  StringLoad *load = data;
  const char *value = (const char *) sqlite3_column_text (stmt, 1);

  load->ids[row] = sqlite3_column_int64 (stmt, 0);
  load->ours[row] = ws_string_table_intern (r->run->strings, value != NULL ? value : "");
  load->max_id = MAX (load->max_id, load->ids[row]);
  return TRUE;
}

static gboolean
load_strings (Reader *r, GError **error)
{
  const char *table = ws_sqlite_find_table (r->sql, "StringIds");
  g_autofree gint64 *ids = NULL;
  g_autofree guint32 *ours = NULL;
  StringLoad load = { 0 };
  gint64 count;
  gsize n = 0;
  char *sql;
  gboolean ok;

  if (!ws_sqlite_count (r->sql, table, &count, error) ||
      !ws_limits_check_rows (r->sql->path, table, count, 64, error))
    return FALSE;

  load.ids = ids = g_new (gint64, MAX (count, 1));
  load.ours = ours = g_new (guint32, MAX (count, 1));
  load.max_id = -1;
  sql = sqlite3_mprintf ("SELECT id, value FROM \"%w\"", table);
  ok = read_rows (r, table, sql, count, string_row, &load, &n, error);
  sqlite3_free (sql);
  if (!ok)
    return FALSE;

  if (load.max_id < (gint64) (2 * n + 65536))
    {
      r->string_map_len = (gsize) (load.max_id + 1);
      r->string_map = g_new (guint32, MAX (r->string_map_len, 1));
      memset (r->string_map, 0xff, sizeof (guint32) * r->string_map_len);
      for (gsize i = 0; i < n; i++)
        if (ids[i] >= 0)
          r->string_map[ids[i]] = ours[i];
    }
  else
    {
      r->string_sparse = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      for (gsize i = 0; i < n; i++)
        g_hash_table_insert (r->string_sparse, g_memdup2 (&ids[i], sizeof ids[i]),
                             GUINT_TO_POINTER (ours[i] + 1));
    }
  return TRUE;
}

static gboolean
thread_name_row (Reader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  gint64 tid = sqlite3_column_int64 (stmt, 1);
  guint32 name = column_string (r, stmt, 0);

  if (name != WS_STRING_NONE)
    g_hash_table_insert (r->thread_names, g_memdup2 (&tid, sizeof tid),
                         GUINT_TO_POINTER (name + 1));
  return TRUE;
}

static gboolean
load_thread_names (Reader *r, GError **error)
{
  const char *table = ws_sqlite_find_table (r->sql, "ThreadNames");
  gint64 count;
  char *sql;
  gboolean ok;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "nameId") ||
      !ws_sqlite_has_column (r->sql, table, "globalTid"))
    return TRUE;
  if (!ws_sqlite_count (r->sql, table, &count, error) ||
      !ws_limits_check_rows (r->sql->path, table, count, 64, error))
    return FALSE;
  sql = sqlite3_mprintf ("SELECT nameId, globalTid FROM \"%w\"", table);
  ok = read_rows (r, table, sql, count, thread_name_row, NULL, NULL, error);
  sqlite3_free (sql);
  return ok;
}

typedef void (*NameValueFunc) (WsProvenance *prov, const char *name, const char *value);

/* Calls @func for each row of @table's name and value columns where both
 * are set, @limit appended to the SELECT.  Returns FALSE when @table is
 * missing or lacks those columns. */
static gboolean
read_name_values (Reader *r, const char *table, const char *limit, NameValueFunc func)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  char *sql;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "name") ||
      !ws_sqlite_has_column (r->sql, table, "value"))
    return FALSE;
  sql = sqlite3_mprintf ("SELECT name, value FROM \"%w\"%s", table, limit);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      const char *value = (const char *) sqlite3_column_text (stmt, 1);

      if (name != NULL && value != NULL)
        func (&r->run->prov, name, value);
    }
  return TRUE;
}

static void
set_str (char **dest, const char *value)
{
  g_free (*dest);
  *dest = g_strdup (value);
}

static void
metadata_value (WsProvenance *prov, const char *name, const char *value)
{
  if (g_str_equal (name, "EXPORT_PRODUCT_NAME"))
    set_str (&prov->product, value);
  else if (g_str_equal (name, "EXPORT_PRODUCT_VERSION"))
    set_str (&prov->nsys_version, value);
  else if (g_str_equal (name, "EXPORT_SCHEMA_VERSION"))
    set_str (&prov->schema_version, value);
  else if (g_str_equal (name, "EXPORT_TIME_UTC"))
    set_str (&prov->export_time, value);
}

static void
load_metadata (Reader *r)
{
  static const char *const names[] = { "META_DATA_EXPORT", "EXPORT_META_DATA" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *table = ws_sqlite_find_table (r->sql, names[i]);

      if (read_name_values (r, table, "", metadata_value))
        {
          r->run->prov.metadata_table = g_strdup (table);
          break;
        }
    }
}

static void
load_gpus (Reader *r)
{
  const char *table = ws_sqlite_find_table (r->sql, "TARGET_INFO_GPU");
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *id = NULL, *name = NULL, *bus = NULL, *chip = NULL, *sms = NULL;
  g_autofree char *major = NULL, *minor = NULL, *memory = NULL;
  char *sql;

  if (table == NULL)
    return;
  id = ws_sqlite_column_or (r->sql, table, "id", "0");
  name = ws_sqlite_column_or (r->sql, table, "name", "NULL");
  bus = ws_sqlite_column_or (r->sql, table, "busLocation", "NULL");
  chip = ws_sqlite_column_or (r->sql, table, "chipName", "NULL");
  sms = ws_sqlite_column_or (r->sql, table, "smCount", "0");
  major = ws_sqlite_column_or (r->sql, table, "computeMajor", "0");
  minor = ws_sqlite_column_or (r->sql, table, "computeMinor", "0");
  memory = ws_sqlite_column_or (r->sql, table, "totalMemory", "0");
  sql = sqlite3_mprintf ("SELECT %s, %s, %s, %s, %s, %s, %s, %s FROM \"%w\" LIMIT 1024", id, name,
                         bus, chip, sms, major, minor, memory, table);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      WsGpu gpu = { 0 };

      gpu.id = column_i32 (stmt, 0);
      gpu.name = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      gpu.bus_location = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      gpu.chip = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
      gpu.sm_count = column_i32 (stmt, 4);
      gpu.cc_major = column_i32 (stmt, 5);
      gpu.cc_minor = column_i32 (stmt, 6);
      gpu.memory_bytes = sqlite3_column_int64 (stmt, 7);
      g_array_append_val (r->run->prov.gpus, gpu);
    }
}

static void
system_value (WsProvenance *prov, const char *name, const char *value)
{
  if (g_str_equal (name, "Hostname") && prov->host == NULL)
    prov->host = g_strdup (value);
  else if (g_str_equal (name, "NvDriverVersion") && prov->driver_version == NULL)
    prov->driver_version = g_strdup (value);
  else if (g_str_equal (name, "OsDescription") && prov->os == NULL)
    prov->os = g_strdup (value);
}

static void
load_system (Reader *r)
{
  const char *session = ws_sqlite_find_table (r->sql, "TARGET_INFO_SESSION_START_TIME");
  WsProvenance *prov = &r->run->prov;

  read_name_values (r, ws_sqlite_find_table (r->sql, "TARGET_INFO_SYSTEM_ENV"), " LIMIT 4096",
                    system_value);

  if (session != NULL && ws_sqlite_has_column (r->sql, session, "utcEpochNs"))
    {
      g_autoptr (sqlite3_stmt) stmt = NULL;
      char *sql = sqlite3_mprintf ("SELECT utcEpochNs FROM \"%w\" LIMIT 1", session);

      stmt = ws_sqlite_prepare (r->sql, sql, NULL);
      sqlite3_free (sql);
      if (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
        prov->session_start_utc_ns = sqlite3_column_int64 (stmt, 0);
    }
}

static void
load_processes (Reader *r)
{
  const char *table = ws_sqlite_find_table (r->sql, "PROCESSES");
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  char *sql;

  /* Only the processes that show up in the events: a capture's PROCESSES
   * table also lists every kernel thread of the machine. */
  for (guint i = 0; i < r->run->streams->len; i++)
    g_hash_table_add (wanted,
                      GUINT_TO_POINTER (g_array_index (r->run->streams, WsStream, i).pid + 1));
  for (guint i = 0; i < r->run->threads->len; i++)
    g_hash_table_add (wanted,
                      GUINT_TO_POINTER (g_array_index (r->run->threads, WsThread, i).pid + 1));

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "pid") ||
      !ws_sqlite_has_column (r->sql, table, "name"))
    return;

  sql = sqlite3_mprintf ("SELECT pid, name FROM \"%w\" LIMIT 100000", table);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      WsProcess process;

      process.pid = column_u32 (stmt, 0);
      if (!g_hash_table_remove (wanted, GUINT_TO_POINTER (process.pid + 1)))
        continue;
      process.name = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      g_array_append_val (r->run->prov.processes, process);
    }
}

/* ---- the event tables -------------------------------------------------- */

/* Sorts every column of a table by (start, later end first) if it is not
 * already: exports are nearly always in order, so this is a check. */
static void
sort_table (gint64 *start, gint64 *end, gsize n, gpointer *columns, const gsize *sizes,
            gsize n_cols)
{
  g_autofree guint32 *order = NULL;

  if (ws_sort_is_ordered (start, end, n))
    return;
  order = ws_sort_order (start, end, n);
  ws_sort_apply (start, sizeof (gint64), order, n);
  if (end != NULL)
    ws_sort_apply (end, sizeof (gint64), order, n);
  for (gsize c = 0; c < n_cols; c++)
    ws_sort_apply (columns[c], sizes[c], order, n);
}

static gboolean
kernel_row (Reader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsKernels *k = &r->run->kernels;
  WsLaunchConfig config;

  column_times (r, stmt, 0, &k->start[i], &k->end[i]);
  k->demangled[i] = column_string (r, stmt, 2);
  k->short_name[i] = column_string (r, stmt, 3);
  k->mangled[i] = column_string (r, stmt, 4);
  if (k->short_name[i] == WS_STRING_NONE)
    k->short_name[i] = k->demangled[i];
  k->stream[i] = stream_for (r, sqlite3_column_int64 (stmt, 5), column_i32 (stmt, 6),
                             column_i32 (stmt, 7), column_i32 (stmt, 8));
  k->correlation[i] = column_u32 (stmt, 9);
  for (int d = 0; d < 3; d++)
    {
      config.grid[d] = column_u32 (stmt, 10 + d);
      config.block[d] = column_u32 (stmt, 13 + d);
    }
  config.registers = column_u32 (stmt, 16);
  config.static_smem = column_u32 (stmt, 17);
  config.dynamic_smem = column_u32 (stmt, 18);
  k->config[i] = config_for (r, &config);
  return TRUE;
}

typedef struct
{
  guint32 *names;
} LeanKernels;

static gboolean
kernel_row_lean (Reader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  LeanKernels *lean = data;
  WsKernels *k = &r->run->kernels;

  column_times (r, stmt, 0, &k->start[i], &k->end[i]);
  lean->names[i] = column_string (r, stmt, 2);
  return TRUE;
}

/* Start, end and the one name form the summary groups by: a third of the
 * columns, and the bulk of what `stats` costs. */
static gboolean
load_kernels_lean (Reader *r, const char *table, gint64 count, const char *demangled,
                   GError **error)
{
  WsKernels *k = &r->run->kernels;
  const char *column = demangled;
  guint32 **target = &k->demangled;
  LeanKernels lean;
  g_autofree char *sql = NULL;
  gsize n = 0;

  if ((r->flags & WS_LOAD_NAME_SHORT) && ws_sqlite_has_column (r->sql, table, "shortName"))
    {
      column = "shortName";
      target = &k->short_name;
    }
  else if ((r->flags & WS_LOAD_NAME_MANGLED) && ws_sqlite_has_column (r->sql, table, "mangledName"))
    {
      column = "mangledName";
      target = &k->mangled;
    }

  k->start = g_new (gint64, count);
  k->end = g_new (gint64, count);
  lean.names = *target = g_new (guint32, count);
  sql = g_strdup_printf ("SELECT start, end, \"%s\" FROM \"%s\"", column, table);
  if (!read_rows (r, table, sql, count, kernel_row_lean, &lean, &n, error))
    return FALSE;
  k->n = n;

  {
    gpointer columns[] = { lean.names };
    const gsize sizes[] = { 4 };

    sort_table (k->start, k->end, n, columns, sizes, 1);
  }
  return TRUE;
}

static gboolean
load_kernels (Reader *r, const char *table, gint64 count, GError **error)
{
  WsKernels *k = &r->run->kernels;
  static const char *const optional[][2] = {
    { "mangledName", "NULL" },
    { "globalPid", "0" },
    { "deviceId", "0" },
    { "contextId", "0" },
    { "streamId", "0" },
    { "correlationId", "0" },
    { "gridX", "0" },
    { "gridY", "0" },
    { "gridZ", "0" },
    { "blockX", "0" },
    { "blockY", "0" },
    { "blockZ", "0" },
    { "registersPerThread", "0" },
    { "staticSharedMemory", "0" },
    { "dynamicSharedMemory", "0" },
  };
  g_autoptr (GString) sql = g_string_new ("SELECT start, end, ");
  const char *demangled;
  gsize n = 0;

  if (!ws_sqlite_has_column (r->sql, table, "start") ||
      !ws_sqlite_has_column (r->sql, table, "end"))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                   "%s: table %s has no start or end column", r->sql->path, table);
      return FALSE;
    }
  demangled = ws_sqlite_has_column (r->sql, table, "demangledName") ? "demangledName"
              : ws_sqlite_has_column (r->sql, table, "shortName")   ? "shortName"
                                                                    : NULL;
  if (demangled == NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                   "%s: table %s has no demangledName or shortName column", r->sql->path, table);
      return FALSE;
    }
  if (r->flags & WS_LOAD_LEAN)
    return load_kernels_lean (r, table, count, demangled, error);

  g_string_append_printf (sql, "\"%s\", ", demangled);
  g_string_append (sql, ws_sqlite_has_column (r->sql, table, "shortName") ? "shortName" : "NULL");
  for (gsize c = 0; c < G_N_ELEMENTS (optional); c++)
    {
      g_autofree char *col = ws_sqlite_column_or (r->sql, table, optional[c][0], optional[c][1]);

      g_string_append_printf (sql, ", %s", col);
    }
  g_string_append_printf (sql, " FROM \"%s\"", table);

  k->start = g_new (gint64, count);
  k->end = g_new (gint64, count);
  k->demangled = g_new (guint32, count);
  k->short_name = g_new (guint32, count);
  k->mangled = g_new (guint32, count);
  k->stream = g_new (guint32, count);
  k->correlation = g_new (guint32, count);
  k->config = g_new (guint32, count);

  if (!read_rows (r, table, sql->str, count, kernel_row, NULL, &n, error))
    return FALSE;
  k->n = n;

  {
    gpointer columns[] = { k->demangled, k->short_name,  k->mangled,
                           k->stream,    k->correlation, k->config };
    const gsize sizes[] = { 4, 4, 4, 4, 4, 4 };

    sort_table (k->start, k->end, n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}

static gboolean
memcpy_row (Reader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  WsMemops *m = &r->run->memops;
  gsize i = *(gsize *) data + row;
  gint64 kind = sqlite3_column_int64 (stmt, 3);

  column_times (r, stmt, 0, &m->start[i], &m->end[i]);
  m->bytes[i] = (guint64) MAX (sqlite3_column_int64 (stmt, 2), 0);
  m->kind[i] = (guint8) (kind >= 0 && kind <= WS_MEMOP_UVM_DTOD ? kind : WS_MEMOP_UNKNOWN);
  m->src_kind[i] = (guint8) CLAMP (sqlite3_column_int64 (stmt, 4), 0, 255);
  m->dst_kind[i] = (guint8) CLAMP (sqlite3_column_int64 (stmt, 5), 0, 255);
  m->stream[i] = stream_for (r, sqlite3_column_int64 (stmt, 6), column_i32 (stmt, 7),
                             column_i32 (stmt, 8), column_i32 (stmt, 9));
  m->correlation[i] = column_u32 (stmt, 10);
  return TRUE;
}

static gboolean
memset_row (Reader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  WsMemops *m = &r->run->memops;
  gsize i = *(gsize *) data + row;

  column_times (r, stmt, 0, &m->start[i], &m->end[i]);
  m->bytes[i] = (guint64) MAX (sqlite3_column_int64 (stmt, 2), 0);
  m->kind[i] = WS_MEMOP_MEMSET;
  m->src_kind[i] = 255;
  m->dst_kind[i] = (guint8) CLAMP (sqlite3_column_int64 (stmt, 3), 0, 255);
  m->stream[i] = stream_for (r, sqlite3_column_int64 (stmt, 4), column_i32 (stmt, 5),
                             column_i32 (stmt, 6), column_i32 (stmt, 7));
  m->correlation[i] = column_u32 (stmt, 8);
  return TRUE;
}

static char *
build_select (WsSqlite *sql, const char *table, const char *const (*cols)[2], gsize n_cols)
{
  g_autoptr (GString) str = g_string_new ("SELECT ");

  for (gsize c = 0; c < n_cols; c++)
    {
      g_autofree char *col = ws_sqlite_column_or (sql, table, cols[c][0], cols[c][1]);

      g_string_append_printf (str, "%s%s", c > 0 ? ", " : "", col);
    }
  g_string_append_printf (str, " FROM \"%s\"", table);
  return g_string_free (g_steal_pointer (&str), FALSE);
}

/* Reads @cols (name and default of each) of every row of @table through
 * @func, as read_rows() does. */
static gboolean
read_table (Reader *r, const char *table, const char *const (*cols)[2], gsize n_cols,
            gint64 max_rows, RowFunc func, gpointer data, gsize *n_read, GError **error)
{
  g_autofree char *sql = build_select (r->sql, table, cols, n_cols);

  return read_rows (r, table, sql, max_rows, func, data, n_read, error);
}

static gboolean
require_columns (Reader *r, const char *table, const char *const *columns, GError **error)
{
  for (gsize i = 0; columns[i] != NULL; i++)
    if (!ws_sqlite_has_column (r->sql, table, columns[i]))
      {
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                     "%s: table %s has no %s column", r->sql->path, table, columns[i]);
        return FALSE;
      }
  return TRUE;
}

static gboolean
load_memops (Reader *r, const char *memcpy_table, gint64 n_memcpy, const char *memset_table,
             gint64 n_memset, GError **error)
{
  static const char *const memcpy_cols[][2] = {
    { "start", "0" },     { "end", "0" },       { "bytes", "0" },         { "copyKind", "0" },
    { "srcKind", "255" }, { "dstKind", "255" }, { "globalPid", "0" },     { "deviceId", "0" },
    { "contextId", "0" }, { "streamId", "0" },  { "correlationId", "0" },
  };
  static const char *const memset_cols[][2] = {
    { "start", "0" },     { "end", "0" },       { "bytes", "0" },
    { "memKind", "255" }, { "globalPid", "0" }, { "deviceId", "0" },
    { "contextId", "0" }, { "streamId", "0" },  { "correlationId", "0" },
  };
  static const char *const required[] = { "start", "end", "bytes", NULL };
  const struct
  {
    const char *table;
    gint64 rows;
    const char *const (*cols)[2];
    gsize n_cols;
    RowFunc func;
  } parts[] = {
    { memcpy_table, n_memcpy, memcpy_cols, G_N_ELEMENTS (memcpy_cols), memcpy_row },
    { memset_table, n_memset, memset_cols, G_N_ELEMENTS (memset_cols), memset_row },
  };
  WsMemops *m = &r->run->memops;
  gsize total = (gsize) (n_memcpy + n_memset);
  gsize offset = 0;

  m->start = g_new (gint64, total);
  m->end = g_new (gint64, total);
  m->bytes = g_new (guint64, total);
  m->kind = g_new (guint8, total);
  m->src_kind = g_new (guint8, total);
  m->dst_kind = g_new (guint8, total);
  m->stream = g_new (guint32, total);
  m->correlation = g_new (guint32, total);

  /* The copies first, then the sets, one after the other in the arrays. */
  for (gsize p = 0; p < G_N_ELEMENTS (parts); p++)
    {
      gsize n = 0;

      if (parts[p].table == NULL)
        continue;
      if (!require_columns (r, parts[p].table, required, error) ||
          !read_table (r, parts[p].table, parts[p].cols, parts[p].n_cols, parts[p].rows,
                       parts[p].func, &offset, &n, error))
        return FALSE;
      offset += n;
    }
  m->n = offset;

  {
    gpointer columns[] = { m->bytes, m->kind, m->src_kind, m->dst_kind, m->stream, m->correlation };
    const gsize sizes[] = { 8, 1, 1, 1, 4, 4 };

    sort_table (m->start, m->end, m->n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}

static gboolean
api_row_lean (Reader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsApiCalls *a = &r->run->api;

  column_times (r, stmt, 0, &a->start[i], &a->end[i]);
  a->name[i] = column_string (r, stmt, 2);
  return TRUE;
}

static gboolean
api_row (Reader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsApiCalls *a = &r->run->api;

  api_row_lean (r, stmt, i, data);
  a->thread[i] = thread_for (r, sqlite3_column_int64 (stmt, 3));
  a->correlation[i] = column_u32 (stmt, 4);
  a->return_value[i] = column_i32 (stmt, 5);
  return TRUE;
}

static gboolean
load_api (Reader *r, const char *table, gint64 count, GError **error)
{
  static const char *const cols[][2] = {
    { "start", "0" },     { "end", "0" },           { "nameId", "NULL" },
    { "globalTid", "0" }, { "correlationId", "0" }, { "returnValue", "0" },
  };
  static const char *const required[] = { "start", "end", "nameId", NULL };
  WsApiCalls *a = &r->run->api;
  gsize n = 0;

  if (!require_columns (r, table, required, error))
    return FALSE;

  a->start = g_new (gint64, count);
  a->end = g_new (gint64, count);
  a->name = g_new (guint32, count);
  if (r->flags & WS_LOAD_LEAN)
    {
      char *lean_sql = sqlite3_mprintf ("SELECT start, end, nameId FROM \"%w\"", table);
      gboolean ok = read_rows (r, table, lean_sql, count, api_row_lean, NULL, &n, error);

      sqlite3_free (lean_sql);
      if (!ok)
        return FALSE;
      a->n = n;
      {
        gpointer columns[] = { a->name };
        const gsize sizes[] = { 4 };

        sort_table (a->start, a->end, n, columns, sizes, 1);
      }
      return TRUE;
    }
  a->thread = g_new (guint32, count);
  a->correlation = g_new (guint32, count);
  a->return_value = g_new (gint32, count);

  if (!read_table (r, table, cols, G_N_ELEMENTS (cols), count, api_row, NULL, &n, error))
    return FALSE;
  a->n = n;

  {
    gpointer columns[] = { a->name, a->thread, a->correlation, a->return_value };
    const gsize sizes[] = { 4, 4, 4, 4 };

    sort_table (a->start, a->end, n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}

typedef struct
{
  gint64 other;
  GHashTable *nvtx_thread_names; /* gint64 globalTid -> string id + 1, from NvtxThread events */
} NvtxLoad;

static gboolean
nvtx_row (Reader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  NvtxLoad *load = data;
  WsNvtxRanges *ranges = &r->run->nvtx;
  WsNvtxMarks *marks = &r->run->marks;
  gint64 type = sqlite3_column_int64 (stmt, 2);
  guint32 name = column_text (r, stmt, 3);
  gint64 global_tid = sqlite3_column_int64 (stmt, 5);

  if (name == WS_STRING_NONE)
    name = column_string (r, stmt, 4);

  switch (type)
    {
      case NVTX_PUSH_POP:
      case NVTX_START_END:
      case NVTXT_PUSH_POP:
      case NVTXT_START_END:
        if (sqlite3_column_type (stmt, 1) != SQLITE_NULL)
          {
            gsize i = ranges->n++;

            column_times (r, stmt, 0, &ranges->start[i], &ranges->end[i]);
            ranges->name[i] =
              name != WS_STRING_NONE ? name : ws_string_table_intern (r->run->strings, "");
            ranges->thread[i] = thread_for (r, global_tid);
            ranges->color[i] = (guint32) sqlite3_column_int64 (stmt, 6);
            ranges->domain[i] = domain_for (r, sqlite3_column_int64 (stmt, 7));
            ranges->style[i] = (type == NVTX_START_END || type == NVTXT_START_END)
                                 ? WS_NVTX_START_END
                                 : WS_NVTX_PUSH_POP;
            return TRUE;
          }
        load->other++;
        return TRUE;

      case NVTX_MARK:
      case NVTXT_MARK:
        {
          gsize i = marks->n++;

          marks->time[i] = ws_clamp_time (sqlite3_column_int64 (stmt, 0));
          marks->name[i] =
            name != WS_STRING_NONE ? name : ws_string_table_intern (r->run->strings, "");
          marks->thread[i] = thread_for (r, global_tid);
          marks->color[i] = (guint32) sqlite3_column_int64 (stmt, 6);
          marks->domain[i] = domain_for (r, sqlite3_column_int64 (stmt, 7));
          return TRUE;
        }

      case NVTX_DOMAIN_CREATE:
        {
          guint16 domain = domain_for (r, sqlite3_column_int64 (stmt, 7));

          if (domain != 0 && name != WS_STRING_NONE)
            g_array_index (r->run->domains, WsNvtxDomain, domain).name = name;
          load->other++;
          return TRUE;
        }

      case NVTX_THREAD:
        if (name != WS_STRING_NONE)
          g_hash_table_insert (load->nvtx_thread_names, g_memdup2 (&global_tid, sizeof global_tid),
                               GUINT_TO_POINTER (name + 1));
        load->other++;
        return TRUE;

      default:
        load->other++;
        return TRUE;
    }
}

static gboolean
load_nvtx (Reader *r, const char *table, gint64 count, GError **error)
{
  static const char *const cols[][2] = {
    { "start", "0" },     { "end", "NULL" },    { "eventType", "0" }, { "text", "NULL" },
    { "textId", "NULL" }, { "globalTid", "0" }, { "color", "0" },     { "domainId", "0" },
  };
  static const char *const required[] = { "start", "end", "eventType", NULL };
  WsNvtxRanges *ranges = &r->run->nvtx;
  WsNvtxMarks *marks = &r->run->marks;
  g_autoptr (GHashTable) thread_names =
    g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  NvtxLoad load = { 0, thread_names };
  GHashTableIter iter;
  gpointer key, value;

  if (!require_columns (r, table, required, error))
    return FALSE;

  /* Sized for the worst case, shrunk below once the split is known. */
  ranges->start = g_new (gint64, count);
  ranges->end = g_new (gint64, count);
  ranges->name = g_new (guint32, count);
  ranges->thread = g_new (guint32, count);
  ranges->color = g_new (guint32, count);
  ranges->domain = g_new (guint16, count);
  ranges->style = g_new (guint8, count);
  marks->time = g_new (gint64, count);
  marks->name = g_new (guint32, count);
  marks->thread = g_new (guint32, count);
  marks->color = g_new (guint32, count);
  marks->domain = g_new (guint16, count);

  if (!read_table (r, table, cols, G_N_ELEMENTS (cols), count, nvtx_row, &load, NULL, error))
    return FALSE;

  ranges->start = g_renew (gint64, ranges->start, MAX (ranges->n, 1));
  ranges->end = g_renew (gint64, ranges->end, MAX (ranges->n, 1));
  ranges->name = g_renew (guint32, ranges->name, MAX (ranges->n, 1));
  ranges->thread = g_renew (guint32, ranges->thread, MAX (ranges->n, 1));
  ranges->color = g_renew (guint32, ranges->color, MAX (ranges->n, 1));
  ranges->domain = g_renew (guint16, ranges->domain, MAX (ranges->n, 1));
  ranges->style = g_renew (guint8, ranges->style, MAX (ranges->n, 1));
  marks->time = g_renew (gint64, marks->time, MAX (marks->n, 1));
  marks->name = g_renew (guint32, marks->name, MAX (marks->n, 1));
  marks->thread = g_renew (guint32, marks->thread, MAX (marks->n, 1));
  marks->color = g_renew (guint32, marks->color, MAX (marks->n, 1));
  marks->domain = g_renew (guint16, marks->domain, MAX (marks->n, 1));

  {
    gpointer columns[] = { ranges->name, ranges->thread, ranges->color, ranges->domain,
                           ranges->style };
    const gsize sizes[] = { 4, 4, 4, 2, 1 };
    gpointer mark_columns[] = { marks->name, marks->thread, marks->color, marks->domain };
    const gsize mark_sizes[] = { 4, 4, 4, 2 };

    sort_table (ranges->start, ranges->end, ranges->n, columns, sizes, G_N_ELEMENTS (columns));
    sort_table (marks->time, NULL, marks->n, mark_columns, mark_sizes, G_N_ELEMENTS (mark_columns));
  }

  ranges->depth = g_new (guint16, MAX (ranges->n, 1));
  ws_nvtx_assign_depth (ranges->start, ranges->end, ranges->thread, ranges->n, r->run->threads->len,
                        ranges->depth);

  /* NvtxThread events name threads (e.g. "MPI Rank 0") that ThreadNames may not. */
  g_hash_table_iter_init (&iter, thread_names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gpointer found = g_hash_table_lookup (r->thread_index, key);

      if (found != NULL)
        {
          WsThread *thread =
            &g_array_index (r->run->threads, WsThread, GPOINTER_TO_UINT (found) - 1);

          if (thread->name == WS_STRING_NONE)
            thread->name = GPOINTER_TO_UINT (value) - 1;
        }
    }

  ws_run_add_source (r->run, "nvtx-ranges", table, (gint64) ranges->n);
  ws_run_add_source (r->run, "nvtx-marks", table, (gint64) marks->n);
  ws_run_add_source (r->run, "nvtx-other", table, load.other);
  return TRUE;
}

static gboolean
mem_usage_row (Reader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsMemUsage *u = &r->run->mem_usage;
  gint64 bytes = CLAMP (sqlite3_column_int64 (stmt, 1), 0, G_MAXINT64 / 2);

  u->time[i] = ws_clamp_time (sqlite3_column_int64 (stmt, 0));
  u->bytes[i] = sqlite3_column_int64 (stmt, 2) == 1 ? -bytes : bytes;
  u->device[i] = column_i32 (stmt, 3);
  u->mem_kind[i] = (guint8) CLAMP (sqlite3_column_int64 (stmt, 4), 0, 255);
  return TRUE;
}

static gboolean
load_mem_usage (Reader *r, const char *table, gint64 count, GError **error)
{
  static const char *const cols[][2] = {
    { "start", "0" },    { "bytes", "0" },     { "memoryOperationType", "0" },
    { "deviceId", "0" }, { "memKind", "255" },
  };
  static const char *const required[] = { "start", "bytes", NULL };
  WsMemUsage *u = &r->run->mem_usage;
  gsize n = 0;

  if (!require_columns (r, table, required, error))
    return FALSE;

  u->time = g_new (gint64, count);
  u->bytes = g_new (gint64, count);
  u->device = g_new (gint32, count);
  u->mem_kind = g_new (guint8, count);

  if (!read_table (r, table, cols, G_N_ELEMENTS (cols), count, mem_usage_row, NULL, &n, error))
    return FALSE;
  u->n = n;

  {
    gpointer columns[] = { u->bytes, u->device, u->mem_kind };
    const gsize sizes[] = { 8, 4, 1 };

    sort_table (u->time, NULL, n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}

typedef struct
{
  guint32 *metric; /* per sample: index into run->metrics */
  guint32 last;
} MetricLoad;

static guint32
metric_for (Reader *r, MetricLoad *load, gint64 type_id, guint32 metric_id)
{
  GArray *metrics = r->run->metrics;
  WsGpuMetric metric = { type_id, metric_id, WS_STRING_NONE, 0, 0 };

  if (load->last < metrics->len)
    {
      WsGpuMetric *last = &g_array_index (metrics, WsGpuMetric, load->last);

      if (last->type_id == type_id && last->metric_id == metric_id)
        return load->last;
    }
  for (guint i = 0; i < metrics->len; i++)
    {
      WsGpuMetric *m = &g_array_index (metrics, WsGpuMetric, i);

      if (m->type_id == type_id && m->metric_id == metric_id)
        return load->last = i;
    }
  g_array_append_val (metrics, metric);
  return load->last = metrics->len - 1;
}

static gboolean
metric_row (Reader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  MetricLoad *load = data;
  WsMetricSamples *s = &r->run->metric_samples;

  /* A hostile file could name endless metrics: a sane capture has < 100 per GPU. */
  if (r->run->metrics->len >= 4096)
    return FALSE;
  s->time[i] = ws_clamp_time (sqlite3_column_int64 (stmt, 0));
  load->metric[i] = metric_for (r, load, sqlite3_column_int64 (stmt, 1), column_u32 (stmt, 2));
  s->value[i] = (float) sqlite3_column_double (stmt, 3);
  return TRUE;
}

static gboolean
load_gpu_metrics (Reader *r, const char *table, gint64 count, GError **error)
{
  static const char *const cols[][2] = {
    { "timestamp", "0" },
    { "typeId", "0" },
    { "metricId", "0" },
    { "value", "0" },
  };
  static const char *const required[] = { "timestamp", "metricId", "value", NULL };
  const char *names_table = ws_sqlite_find_table (r->sql, "TARGET_INFO_GPU_METRICS");
  WsMetricSamples *s = &r->run->metric_samples;
  g_autofree guint32 *metric = NULL;
  g_autofree gint64 *time = NULL;
  g_autofree float *value = NULL;
  g_autofree gsize *fill = NULL;
  MetricLoad load = { NULL, G_MAXUINT32 };
  gsize n = 0;

  if (!require_columns (r, table, required, error))
    return FALSE;

  /* Names first, so that metrics come in the order the capture lists them. */
  if (names_table != NULL && ws_sqlite_has_column (r->sql, names_table, "metricName"))
    {
      g_autoptr (sqlite3_stmt) stmt = NULL;
      char *names_sql =
        sqlite3_mprintf ("SELECT typeId, metricId, metricName FROM \"%w\" LIMIT 4096", names_table);

      stmt = ws_sqlite_prepare (r->sql, names_sql, NULL);
      sqlite3_free (names_sql);
      while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
        {
          guint32 index =
            metric_for (r, &load, sqlite3_column_int64 (stmt, 0), column_u32 (stmt, 1));

          g_array_index (r->run->metrics, WsGpuMetric, index).name = column_text (r, stmt, 2);
        }
    }

  s->time = g_new (gint64, count);
  s->value = g_new (float, count);
  load.metric = metric = g_new (guint32, count);

  if (!read_table (r, table, cols, G_N_ELEMENTS (cols), count, metric_row, &load, &n, error))
    return FALSE;
  s->n = n;

  /* Group the samples by metric (a counting sort keeps time order within). */
  for (gsize i = 0; i < n; i++)
    g_array_index (r->run->metrics, WsGpuMetric, metric[i]).n++;
  fill = g_new0 (gsize, r->run->metrics->len + 1);
  for (guint m = 0, offset = 0; m < r->run->metrics->len; m++)
    {
      WsGpuMetric *gm = &g_array_index (r->run->metrics, WsGpuMetric, m);

      gm->first = offset;
      fill[m] = offset;
      offset += gm->n;
      if (gm->name == WS_STRING_NONE)
        {
          g_autofree char *label = g_strdup_printf ("metric %u", gm->metric_id);

          gm->name = ws_string_table_intern (r->run->strings, label);
        }
    }
  time = g_steal_pointer (&s->time);
  value = g_steal_pointer (&s->value);
  s->time = g_new (gint64, MAX (n, 1));
  s->value = g_new (float, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      gsize to = fill[metric[i]]++;

      s->time[to] = time[i];
      s->value[to] = value[i];
    }
  for (guint m = 0; m < r->run->metrics->len; m++)
    {
      WsGpuMetric *gm = &g_array_index (r->run->metrics, WsGpuMetric, m);
      gpointer columns[] = { s->value + gm->first };
      const gsize sizes[] = { sizeof (float) };

      sort_table (s->time + gm->first, NULL, gm->n, columns, sizes, 1);
    }
  return TRUE;
}

/* ---- the whole file ---------------------------------------------------- */

typedef struct
{
  const char *what;  /* the name `info` prints */
  const char *table; /* as nsys names it */
  WsLoadFlags flag;
  gsize bytes_per_row; /* what loading a row costs us, for the memory bound */
  const char *found;   /* the table's name in this file, or NULL */
  gint64 rows;
} TablePlan;

gboolean
ws_nsys_reader_sniff (const char *path, GError **error)
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
  g_autoptr (WsSqlite) sql = ws_sqlite_open (path, NULL, error);

  if (sql == NULL)
    return FALSE;
  if (ws_sqlite_find_table (sql, "StringIds") != NULL)
    for (gsize i = 0; i < G_N_ELEMENTS (markers); i++)
      if (ws_sqlite_find_table (sql, markers[i]) != NULL)
        return TRUE;

  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_NSYS,
               "%s: an SQLite database, but not an Nsight Systems export "
               "(no StringIds, CUPTI_ACTIVITY_KIND_KERNEL or NVTX_EVENTS table)",
               path);
  return FALSE;
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
  TablePlan plan[] = {
    { "kernels", "CUPTI_ACTIVITY_KIND_KERNEL", WS_LOAD_KERNELS, 48 },
    { "memcpy", "CUPTI_ACTIVITY_KIND_MEMCPY", WS_LOAD_MEMOPS, 48 },
    { "memset", "CUPTI_ACTIVITY_KIND_MEMSET", WS_LOAD_MEMOPS, 48 },
    { "cuda-api", "CUPTI_ACTIVITY_KIND_RUNTIME", WS_LOAD_API, 40 },
    { "nvtx", "NVTX_EVENTS", WS_LOAD_NVTX, 80 },
    { "gpu-memory", "CUDA_GPU_MEMORY_USAGE_EVENTS", WS_LOAD_MEM_USAGE, 24 },
    { "gpu-metrics", "GPU_METRICS", WS_LOAD_GPU_METRICS, 44 },
  };
  enum
  {
    P_KERNEL,
    P_MEMCPY,
    P_MEMSET,
    P_RUNTIME,
    P_NVTX,
    P_MEM_USAGE,
    P_METRICS
  };
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsSqlite) sql = NULL;
  Reader r = { 0 };
  guint64 budget_need = 0;
  gboolean ok = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  if (!ws_nsys_reader_sniff (path, error))
    return NULL;
  sql = ws_sqlite_open (path, cancellable, error);
  if (sql == NULL)
    return NULL;

  run = ws_run_new ();
  g_ptr_array_add (run->prov.files, g_strdup (path));
  run->prov.kind = g_strdup ("nsys-sqlite");

  r.sql = sql;
  r.run = run;
  r.flags = flags;
  r.progress = progress;
  r.progress_data = progress_data;
  r.last_stream = G_MAXUINT32;
  r.last_config = G_MAXUINT32;
  r.thread_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r.thread_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r.stream_index = g_hash_table_new_full (stream_hash, stream_equal, g_free, NULL);
  r.config_index = g_hash_table_new_full (config_hash, config_equal, g_free, NULL);
  r.domain_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  /* Count every table first: for progress, for exact allocations, and to
   * refuse up front what would not fit in memory. */
  for (gsize i = 0; i < G_N_ELEMENTS (plan); i++)
    {
      plan[i].found = ws_sqlite_find_table (sql, plan[i].table);
      if (plan[i].found == NULL)
        continue;
      /* A lean load counts only what it reads: count(*) is a full scan. */
      if ((flags & WS_LOAD_LEAN) && !(plan[i].flag & flags))
        {
          plan[i].rows = -1;
          continue;
        }
      if (!ws_sqlite_count (sql, plan[i].found, &plan[i].rows, error))
        goto out;
      if (plan[i].flag & flags)
        {
          r.rows_total += plan[i].rows;
          budget_need += (guint64) plan[i].rows * plan[i].bytes_per_row;
        }
      if (!ws_limits_check_rows (path, plan[i].found, plan[i].rows, plan[i].bytes_per_row, error))
        goto out;
    }
  if (budget_need > ws_limits_memory_budget ())
    {
      g_autofree char *need = g_format_size (budget_need);

      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE,
                   "%s: its events need about %s of memory, more than this machine allows", path,
                   need);
      goto out;
    }

  run->has_kernel_table = plan[P_KERNEL].found != NULL;
  run->has_nvtx_table = plan[P_NVTX].found != NULL;
  run->has_runtime_table = plan[P_RUNTIME].found != NULL;
  run->has_memory_tables = plan[P_MEMCPY].found != NULL || plan[P_MEMSET].found != NULL;

  load_metadata (&r);
  if (!load_strings (&r, error) || !load_thread_names (&r, error))
    goto out;
  r.rows_done = 0;

  if ((flags & WS_LOAD_KERNELS) && plan[P_KERNEL].found != NULL &&
      !load_kernels (&r, plan[P_KERNEL].found, plan[P_KERNEL].rows, error))
    goto out;
  if ((flags & WS_LOAD_MEMOPS) && run->has_memory_tables &&
      !load_memops (&r, plan[P_MEMCPY].found, plan[P_MEMCPY].rows, plan[P_MEMSET].found,
                    plan[P_MEMSET].rows, error))
    goto out;
  if ((flags & WS_LOAD_API) && plan[P_RUNTIME].found != NULL &&
      !load_api (&r, plan[P_RUNTIME].found, plan[P_RUNTIME].rows, error))
    goto out;
  if ((flags & WS_LOAD_NVTX) && plan[P_NVTX].found != NULL &&
      !load_nvtx (&r, plan[P_NVTX].found, plan[P_NVTX].rows, error))
    goto out;
  if ((flags & WS_LOAD_MEM_USAGE) && plan[P_MEM_USAGE].found != NULL &&
      !load_mem_usage (&r, plan[P_MEM_USAGE].found, plan[P_MEM_USAGE].rows, error))
    goto out;
  if ((flags & WS_LOAD_GPU_METRICS) && plan[P_METRICS].found != NULL &&
      !load_gpu_metrics (&r, plan[P_METRICS].found, plan[P_METRICS].rows, error))
    goto out;

  for (gsize i = 0; i < G_N_ELEMENTS (plan); i++)
    if (plan[i].found != NULL && plan[i].rows >= 0)
      ws_run_add_source (run, plan[i].what, plan[i].found, plan[i].rows);

  load_gpus (&r);
  load_system (&r);
  load_processes (&r);
  if (r.n_reversed > 0)
    ws_run_add_warning (
      run, "%" G_GINT64_FORMAT " events end before they start; their end was set to their start",
      r.n_reversed);
  ws_run_finish (run);
  ok = TRUE;

out:
  reader_clear (&r);
  return ok ? g_steal_pointer (&run) : NULL;
}
