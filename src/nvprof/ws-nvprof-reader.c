/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvprof"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-demangle.h"
#include "ws-limits.h"
#include "ws-nsys-reader-private.h"
#include "ws-nvprof-reader-private.h"
#include "ws-nvprof-reader.h"
#include "ws-nvtx-depth.h"
#include "ws-reader-error.h"
#include "ws-run-build.h"
#include "ws-sqlite.h"

/* nvprof's `-o` exports (`.nvvp`, `.nvprof`, any name): SQLite databases
 * with one CUPTI_ACTIVITY_KIND_* table per CUPTI activity kind, names in
 * StringTable(_id_, value), a Version table (8 to 16 seen).  The rows are
 * CUPTI's records as they came: kernel names mangled, API calls by
 * callback id, threads as (process id, 32-bit pthread id), NVTX as
 * MARKER start/end records paired by id.  Read into the same run as an
 * nsys export, with the nsys reader's machinery (WsNsysReader). */

typedef struct
{
  guint32 demangled;
  guint32 short_name;
  guint32 mangled;
} KernelName;

/* ---- kernels ----------------------------------------------------------- */

static const KernelName *
kernel_name (WsNvprofReaderState *nr, gint64 file_id)
{
  WsNsysReader *r = &nr->base;
  KernelName *name = g_hash_table_lookup (nr->kernel_names, &file_id);
  guint32 mangled;
  const char *text;
  g_autofree char *demangled = NULL;
  g_autofree char *short_name = NULL;

  if (name != NULL)
    return name;
  name = g_new0 (KernelName, 1);
  mangled = ws_string_table_intern (r->run->strings, "");
  if (r->string_map != NULL && file_id >= 0 && (guint64) file_id < r->string_map_len &&
      r->string_map[file_id] != WS_STRING_NONE)
    mangled = r->string_map[file_id];
  text = ws_string_table_get (r->run->strings, mangled);
  demangled = ws_demangle (text);
  short_name = ws_demangle_short_name (demangled != NULL ? demangled : text);
  name->mangled = mangled;
  name->demangled =
    demangled != NULL ? ws_string_table_intern (r->run->strings, demangled) : mangled;
  name->short_name = ws_string_table_intern (r->run->strings, short_name);
  g_hash_table_insert (nr->kernel_names, g_memdup2 (&file_id, sizeof file_id), name);
  return name;
}

static gboolean
kernel_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsNvprofReaderState *nr = data;
  WsKernels *k = &r->run->kernels;
  const KernelName *name = kernel_name (nr, sqlite3_column_int64 (stmt, 2));
  WsLaunchConfig config;
  gint32 device = ws_nsys_column_i32 (stmt, 3);

  if (!ws_nsys_column_times (r, stmt, 0, &k->start[i], &k->end[i]))
    return FALSE;
  k->demangled[i] = name->demangled;
  k->short_name[i] = name->short_name;
  k->mangled[i] = name->mangled;
  k->stream[i] =
    ws_nsys_stream_for (r, 0, device, ws_nsys_column_i32 (stmt, 4), ws_nsys_column_i32 (stmt, 5));
  k->correlation[i] = ws_nsys_column_u32 (stmt, 6);
  for (int d = 0; d < 3; d++)
    {
      config.grid[d] = ws_nsys_column_u32 (stmt, 7 + d);
      config.block[d] = ws_nsys_column_u32 (stmt, 10 + d);
    }
  config.registers = ws_nsys_column_u32 (stmt, 13);
  config.static_smem = ws_nsys_column_u32 (stmt, 14);
  config.dynamic_smem = ws_nsys_column_u32 (stmt, 15);
  k->config[i] = ws_nsys_config_for (r, &config);
  g_hash_table_add (nr->used_devices, GINT_TO_POINTER (device));
  return TRUE;
}

static void
append_select (WsSqlite *sql, GString *out, const char *table, const char *const *cols,
               const char *extra)
{
  if (out->len > 0)
    g_string_append (out, " UNION ALL ");
  g_string_append (out, "SELECT ");
  for (gsize c = 0; cols[c] != NULL; c++)
    {
      g_autofree char *col = ws_sqlite_column_or (sql, table, cols[c], "0");

      g_string_append_printf (out, "%s%s", c > 0 ? ", " : "", col);
    }
  if (extra != NULL)
    g_string_append_printf (out, ", %s", extra);
  g_string_append_printf (out, " FROM \"%s\"", table);
}

/* Kernels are in CONCURRENT_KERNEL (the usual trace) or KERNEL (serialised
 * kernels, as --analysis-metrics and older modes record them), or both. */
static gboolean
load_kernels (WsNvprofReaderState *nr, const char *const *tables, gint64 count, GError **error)
{
  static const char *const cols[] = {
    "start",
    "end",
    "name",
    "deviceId",
    "contextId",
    "streamId",
    "correlationId",
    "gridX",
    "gridY",
    "gridZ",
    "blockX",
    "blockY",
    "blockZ",
    "registersPerThread",
    "staticSharedMemory",
    "dynamicSharedMemory",
    NULL,
  };
  WsNsysReader *r = &nr->base;
  WsKernels *k = &r->run->kernels;
  g_autoptr (GString) sql = g_string_new (NULL);
  gsize n = 0;

  for (gsize t = 0; tables[t] != NULL; t++)
    {
      if (!ws_sqlite_has_column (r->sql, tables[t], "start") ||
          !ws_sqlite_has_column (r->sql, tables[t], "end") ||
          !ws_sqlite_has_column (r->sql, tables[t], "name"))
        {
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                       "%s: table %s has no start, end or name column", r->sql->path, tables[t]);
          return FALSE;
        }
      append_select (r->sql, sql, tables[t], cols, NULL);
    }
  k->start = g_new (gint64, MAX (count, 1));
  k->end = g_new (gint64, MAX (count, 1));
  k->demangled = g_new (guint32, MAX (count, 1));
  k->short_name = g_new (guint32, MAX (count, 1));
  k->mangled = g_new (guint32, MAX (count, 1));
  k->stream = g_new (guint32, MAX (count, 1));
  k->correlation = g_new (guint32, MAX (count, 1));
  k->config = g_new (guint32, MAX (count, 1));
  /* Every form: the mangled name is stored, the others derived from it. */
  k->columns =
    WS_KERNEL_COL_DEMANGLED | WS_KERNEL_COL_SHORT | WS_KERNEL_COL_MANGLED | WS_KERNEL_COL_LAUNCH;
  if (!ws_nsys_read_rows (r, "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", sql->str, count, kernel_row,
                          nr, &n, error))
    return FALSE;
  k->n = n;
  {
    gpointer columns[] = { k->demangled, k->short_name,  k->mangled,
                           k->stream,    k->correlation, k->config };
    const gsize sizes[] = { 4, 4, 4, 4, 4, 4 };

    ws_nsys_sort_table (k->start, k->end, n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}

/* The process and thread ids of an objectId blob. */
void
ws_nvprof_blob_ids (sqlite3_stmt *stmt, int col, guint32 *pid, guint32 *tid)
{
  const guint8 *blob = sqlite3_column_blob (stmt, col);
  int len = sqlite3_column_bytes (stmt, col);

  *pid = 0;
  *tid = 0;
  /* CUpti_ActivityObjectKindId: { uint32 processId; uint32 threadId; } */
  if (blob != NULL && len >= 4)
    *pid = (guint32) blob[0] | (guint32) blob[1] << 8 | (guint32) blob[2] << 16 |
           (guint32) blob[3] << 24;
  if (blob != NULL && len >= 8)
    *tid = (guint32) blob[4] | (guint32) blob[5] << 8 | (guint32) blob[6] << 16 |
           (guint32) blob[7] << 24;
}

/* ---- threads and API calls --------------------------------------------- */

/* nvprof names a thread by its process id and the low 32 bits of its
 * pthread id, which say nothing to a reader: threads are numbered in the
 * order met, named by that id in hex. */
guint32
ws_nvprof_thread_for (WsNvprofReaderState *nr, guint32 pid, guint32 tid)
{
  WsNsysReader *r = &nr->base;
  gint64 key = ((gint64) pid << 32) | tid;
  gpointer found = g_hash_table_lookup (nr->threads, &key);
  WsThread thread = { 0 };
  g_autofree char *name = NULL;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  thread.pid = pid & 0xFFFFFF;
  thread.tid = (r->run->threads->len + 1) & 0xFFFFFF;
  thread.global_tid = ((gint64) thread.pid << 24) | thread.tid;
  name = g_strdup_printf ("0x%08x", tid);
  thread.name = ws_string_table_intern (r->run->strings, name);
  g_array_append_val (r->run->threads, thread);
  g_hash_table_insert (nr->threads, g_memdup2 (&key, sizeof key),
                       GUINT_TO_POINTER (r->run->threads->len));
  return r->run->threads->len - 1;
}

static guint32
api_name (WsNvprofReaderState *nr, gint64 api, gint64 cbid)
{
  WsNsysReader *r = &nr->base;
  gint64 key = (api << 32) | (cbid & 0xFFFFFFFF);
  gpointer found = g_hash_table_lookup (nr->api_names, &key);
  const char *known = api == 0 ? ws_nvprof_runtime_name (cbid) : ws_nvprof_driver_name (cbid);
  g_autofree char *name = NULL;
  guint32 id;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  /* An id newer than the headers the table was made from keeps its
   * number, so that such calls still count and sort apart. */
  if (known != NULL)
    name = g_strdup (known);
  else
    name = g_strdup_printf (api == 0 ? "CUDA runtime call %" G_GINT64_FORMAT
                                     : "CUDA driver call %" G_GINT64_FORMAT,
                            cbid);
  id = ws_string_table_intern (r->run->strings, name);
  g_hash_table_insert (nr->api_names, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (id + 1));
  return id;
}

static gboolean
api_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsNvprofReaderState *nr = data;
  WsApiCalls *a = &r->run->api;

  if (!ws_nsys_column_times (r, stmt, 0, &a->start[i], &a->end[i]))
    return FALSE;
  a->name[i] = api_name (nr, sqlite3_column_int64 (stmt, 7), sqlite3_column_int64 (stmt, 2));
  a->thread[i] = ws_nvprof_thread_for (nr, (guint32) sqlite3_column_int64 (stmt, 3),
                                       (guint32) sqlite3_column_int64 (stmt, 4));
  a->correlation[i] = ws_nsys_column_u32 (stmt, 5);
  a->return_value[i] = ws_nsys_column_i32 (stmt, 6);
  return TRUE;
}

static gboolean
load_api (WsNvprofReaderState *nr, const char *runtime, const char *driver, gint64 count,
          GError **error)
{
  static const char *const cols[] = {
    "start", "end", "cbid", "processId", "threadId", "correlationId", "returnValue", NULL,
  };
  WsNsysReader *r = &nr->base;
  WsApiCalls *a = &r->run->api;
  g_autoptr (GString) sql = g_string_new (NULL);
  gsize n = 0;

  if (runtime != NULL)
    append_select (r->sql, sql, runtime, cols, "0");
  if (driver != NULL)
    append_select (r->sql, sql, driver, cols, "1");
  a->start = g_new (gint64, MAX (count, 1));
  a->end = g_new (gint64, MAX (count, 1));
  a->name = g_new (guint32, MAX (count, 1));
  a->thread = g_new (guint32, MAX (count, 1));
  a->correlation = g_new (guint32, MAX (count, 1));
  a->return_value = g_new (gint32, MAX (count, 1));
  if (!ws_nsys_read_rows (r, "CUPTI_ACTIVITY_KIND_RUNTIME", sql->str, count, api_row, nr, &n,
                          error))
    return FALSE;
  a->n = n;
  {
    gpointer columns[] = { a->name, a->thread, a->correlation, a->return_value };
    const gsize sizes[] = { 4, 4, 4, 4 };

    ws_nsys_sort_table (a->start, a->end, n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}

/* ---- devices, processes ------------------------------------------------ */

static void
load_devices (WsNvprofReaderState *nr)
{
  WsNsysReader *r = &nr->base;
  const char *table = ws_sqlite_find_table (r->sql, "CUPTI_ACTIVITY_KIND_DEVICE");
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *major = NULL, *minor = NULL, *sms = NULL, *memory = NULL, *name = NULL;
  g_autoptr (GString) idle = g_string_new (NULL);
  guint n_idle = 0;
  char *sql;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "id"))
    return;
  name = ws_sqlite_column_or (r->sql, table, "name", "NULL");
  major = ws_sqlite_column_or (r->sql, table, "computeCapabilityMajor", "0");
  minor = ws_sqlite_column_or (r->sql, table, "computeCapabilityMinor", "0");
  sms = ws_sqlite_column_or (r->sql, table, "numMultiprocessors", "0");
  memory = ws_sqlite_column_or (r->sql, table, "globalMemorySize", "0");
  sql = sqlite3_mprintf ("SELECT id, %s, %s, %s, %s, %s FROM \"%w\" ORDER BY id LIMIT 1024", name,
                         major, minor, sms, memory, table);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  /* A node lists all its GPUs; the run shows those the program used. */
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      WsGpu gpu = { 0 };
      guint32 sid;

      gpu.id = ws_nsys_column_i32 (stmt, 0);
      if (g_hash_table_size (nr->used_devices) > 0 &&
          !g_hash_table_contains (nr->used_devices, GINT_TO_POINTER (gpu.id)))
        {
          g_string_append_printf (idle, "%s%d", n_idle > 0 ? ", " : "", gpu.id);
          n_idle++;
          continue;
        }
      sid = ws_nsys_column_string (r, stmt, 1);
      gpu.name = g_strdup (sid != WS_STRING_NONE ? ws_run_string (r->run, sid) : NULL);
      gpu.cc_major = ws_nsys_column_i32 (stmt, 2);
      gpu.cc_minor = ws_nsys_column_i32 (stmt, 3);
      gpu.sm_count = ws_nsys_column_i32 (stmt, 4);
      gpu.memory_bytes = sqlite3_column_int64 (stmt, 5);
      g_array_append_val (r->run->prov.gpus, gpu);
    }
  if (n_idle > 0)
    ws_run_add_warning (r->run, "%u more GPUs are listed in the export without activity (%s)",
                        n_idle, idle->str);
}

static void
load_processes (WsNvprofReaderState *nr)
{
  WsNsysReader *r = &nr->base;
  const char *table = ws_sqlite_find_table (r->sql, "CUPTI_ACTIVITY_KIND_NAME");
  g_autoptr (sqlite3_stmt) stmt = NULL;
  char *sql;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "objectKind") ||
      !ws_sqlite_has_column (r->sql, table, "objectId") ||
      !ws_sqlite_has_column (r->sql, table, "name"))
    return;
  sql = sqlite3_mprintf ("SELECT objectId, name FROM \"%w\" WHERE objectKind = %d LIMIT 4096",
                         table, OBJECT_PROCESS);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      guint32 sid = ws_nsys_column_string (r, stmt, 1);
      WsProcess process = { 0 };
      guint32 tid;

      if (sid == WS_STRING_NONE)
        continue;
      ws_nvprof_blob_ids (stmt, 0, &process.pid, &tid);
      process.pid &= 0xFFFFFF;
      process.name = g_strdup (ws_run_string (r->run, sid));
      g_array_append_val (r->run->prov.processes, process);
    }
}

static void
load_version (WsNsysReader *r)
{
  const char *table = ws_sqlite_find_table (r->sql, "Version");
  g_autoptr (sqlite3_stmt) stmt = NULL;
  char *sql;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "version"))
    return;
  sql = sqlite3_mprintf ("SELECT version FROM \"%w\" LIMIT 1", table);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  if (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    r->run->prov.schema_version = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
}

/* ---- the whole file ---------------------------------------------------- */

typedef struct
{
  const char *what;
  const char *table;
  const char *found;
  gint64 rows;
} Part;

enum
{
  P_CONCURRENT,
  P_KERNEL,
  P_MEMCPY,
  P_MEMSET,
  P_RUNTIME,
  P_DRIVER,
  P_MARKER,
  P_METRIC,
  N_PARTS
};

static void
reader_clear (WsNvprofReaderState *nr)
{
  WsNsysReader *r = &nr->base;

  ws_nsys_reader_clear (r);
  g_clear_pointer (&nr->kernel_names, g_hash_table_unref);
  g_clear_pointer (&nr->threads, g_hash_table_unref);
  g_clear_pointer (&nr->api_names, g_hash_table_unref);
  g_clear_pointer (&nr->used_devices, g_hash_table_unref);
}

static gboolean
refuse_lookalikes (WsSqlite *sql, const char *path, GError **error)
{
  if (ws_sqlite_find_table (sql, "StringTable") == NULL &&
      ws_sqlite_find_table (sql, "profStringTable") != NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   "%s: an SQLite file of CPU samples only (nvprof or pgprof --cpu-profiling), "
                   "with no GPU activity to show",
                   path);
      return FALSE;
    }
  if (ws_sqlite_find_table (sql, "StringTable") == NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_NSYS,
                   "%s: an SQLite database, but not an nvprof export (no StringTable)", path);
      return FALSE;
    }
  return TRUE;
}

/* Counts the tables the export has; refuses one with no activity. */
static gboolean
count_parts (WsSqlite *sql, const char *path, Part *parts, GError **error)
{
  gint64 n_activity = 0;

  for (guint p = 0; p < N_PARTS; p++)
    {
      parts[p].found = ws_sqlite_find_table (sql, parts[p].table);
      if (parts[p].found == NULL)
        continue;
      if (!ws_sqlite_count (sql, parts[p].found, &parts[p].rows, error) ||
          !ws_limits_check_rows (path, parts[p].found, parts[p].rows, 64, error))
        return FALSE;
      if (p <= P_DRIVER)
        n_activity += parts[p].rows;
    }
  if (n_activity == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   "%s: an nvprof export with no kernels, memory copies or CUDA API calls "
                   "(profiling never started)",
                   path);
      return FALSE;
    }
  return TRUE;
}

/* Reads the event tables the load asks for and the export has. */
static gboolean
load_parts (WsNvprofReaderState *nr, Part *parts, GError **error)
{
  WsNsysReader *r = &nr->base;
  WsRun *run = r->run;
  WsLoadFlags flags = r->flags;
  const char *kernel_tables[3] = { NULL };
  gint64 n_kernels, n_api;

  n_kernels = parts[P_CONCURRENT].rows + parts[P_KERNEL].rows;
  {
    guint k = 0;

    if (parts[P_CONCURRENT].rows > 0)
      kernel_tables[k++] = parts[P_CONCURRENT].found;
    if (parts[P_KERNEL].rows > 0)
      kernel_tables[k++] = parts[P_KERNEL].found;
  }
  if ((flags & WS_LOAD_KERNELS) && n_kernels > 0 &&
      !load_kernels (nr, kernel_tables, n_kernels, error))
    return FALSE;
  if ((flags & WS_LOAD_MEMOPS) && parts[P_MEMCPY].rows + parts[P_MEMSET].rows > 0 &&
      !ws_nsys_load_memops (r, parts[P_MEMCPY].found, parts[P_MEMCPY].rows, parts[P_MEMSET].found,
                            parts[P_MEMSET].rows, error))
    return FALSE;
  n_api = parts[P_RUNTIME].rows + parts[P_DRIVER].rows;
  if ((flags & WS_LOAD_API) && n_api > 0 &&
      !load_api (nr, parts[P_RUNTIME].rows > 0 ? parts[P_RUNTIME].found : NULL,
                 parts[P_DRIVER].rows > 0 ? parts[P_DRIVER].found : NULL, n_api, error))
    return FALSE;
  if ((flags & WS_LOAD_NVTX) && parts[P_MARKER].rows > 0 &&
      !ws_nvprof_load_markers (nr, parts[P_MARKER].found, parts[P_MARKER].rows, error))
    return FALSE;
  ws_nvprof_assign_stream_processes (nr->base.run);
  if (run->memops.n > 0)
    for (gsize i = 0; i < run->memops.n; i++)
      {
        const WsStream *s = &g_array_index (run->streams, WsStream, run->memops.stream[i]);

        g_hash_table_add (nr->used_devices, GINT_TO_POINTER (s->device_id));
      }
  return TRUE;
}

/* The tables read, as `info` lists them, and what the export holds that
 * is not shown. */
static void
add_sources (WsRun *run, Part *parts)
{
  gint64 n_kernels = parts[P_CONCURRENT].rows + parts[P_KERNEL].rows;

  /* Kernels come from one table or two: counted once, under the one
   * that has rows. */
  if (parts[P_KERNEL].rows > 0 && parts[P_CONCURRENT].rows > 0)
    {
      g_autofree char *both =
        g_strdup_printf ("%s + %s", parts[P_CONCURRENT].found, parts[P_KERNEL].found);

      ws_run_add_source (run, "kernels", both, n_kernels);
    }
  else if (parts[P_KERNEL].rows > 0 || parts[P_CONCURRENT].found == NULL)
    parts[P_CONCURRENT] = parts[P_KERNEL];
  for (guint p = 0; p < N_PARTS; p++)
    if (parts[p].found != NULL && p != P_KERNEL &&
        !(p == P_CONCURRENT && parts[P_KERNEL].rows > 0 && parts[P_CONCURRENT].rows > 0 &&
          parts[P_CONCURRENT].table != parts[P_KERNEL].table))
      ws_run_add_source (run, parts[p].what, parts[p].found, parts[p].rows);
  if (parts[P_METRIC].rows > 0)
    ws_run_add_warning (run,
                        "%" G_GINT64_FORMAT " metric values (--analysis-metrics) are kept by "
                        "CUPTI metric id only: nvprof does not store their names, so they are "
                        "not shown",
                        parts[P_METRIC].rows);
}

/**
 * ws_nvprof_reader_load:
 * @flags: which event tables to read (a lean load reads them all: nvprof
 *   exports are small)
 *
 * Reads an nvprof export: kernels (CONCURRENT_KERNEL and KERNEL), memory
 * copies and sets, runtime and driver API calls, NVTX ranges and marks,
 * the GPUs that ran something and the processes' names.
 *
 * Returns: (transfer full): the run, or %NULL with @error set.
 */
WsRun *
ws_nvprof_reader_load (const char *path, WsLoadFlags flags, GCancellable *cancellable,
                       WsProgressFunc progress, gpointer progress_data, GError **error)
{
  Part parts[N_PARTS] = {
    [P_CONCURRENT] = { "kernels", "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL" },
    [P_KERNEL] = { "kernels", "CUPTI_ACTIVITY_KIND_KERNEL" },
    [P_MEMCPY] = { "memcpy", "CUPTI_ACTIVITY_KIND_MEMCPY" },
    [P_MEMSET] = { "memset", "CUPTI_ACTIVITY_KIND_MEMSET" },
    [P_RUNTIME] = { "cuda-api", "CUPTI_ACTIVITY_KIND_RUNTIME" },
    [P_DRIVER] = { "driver-api", "CUPTI_ACTIVITY_KIND_DRIVER" },
    [P_MARKER] = { "nvtx", "CUPTI_ACTIVITY_KIND_MARKER" },
    [P_METRIC] = { "metrics", "CUPTI_ACTIVITY_KIND_METRIC" },
  };
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsSqlite) sql = NULL;
  WsNvprofReaderState nr = { { 0 } };
  WsNsysReader *r = &nr.base;
  gboolean ok = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  sql = ws_sqlite_open (path, cancellable, error);
  if (sql == NULL || !refuse_lookalikes (sql, path, error))
    return NULL;

  if (!count_parts (sql, path, parts, error))
    return NULL;

  run = ws_run_new ();
  g_ptr_array_add (run->prov.files, g_strdup (path));
  run->prov.kind = g_strdup ("nvprof-sqlite");
  run->prov.product = g_strdup ("NVIDIA nvprof");

  ws_nsys_reader_init (r, sql, run, flags & ~WS_LOAD_LEAN, progress, progress_data);
  nr.kernel_names = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, g_free);
  nr.threads = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  nr.api_names = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  nr.used_devices = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint p = 0; p < N_PARTS; p++)
    r->rows_total += parts[p].rows;

  load_version (r);
  if (!ws_nsys_load_string_table (r, ws_sqlite_find_table (sql, "StringTable"), "_id_", error))
    goto out;

  run->has_kernel_table = parts[P_CONCURRENT].found != NULL || parts[P_KERNEL].found != NULL;
  run->has_runtime_table = parts[P_RUNTIME].found != NULL || parts[P_DRIVER].found != NULL;
  run->has_memory_tables = parts[P_MEMCPY].found != NULL || parts[P_MEMSET].found != NULL;
  run->has_nvtx_table = parts[P_MARKER].rows > 0;

  if (!load_parts (&nr, parts, error))
    goto out;

  add_sources (run, parts);
  load_devices (&nr);
  load_processes (&nr);
  ws_nsys_reader_warn_times (r);
  ws_run_finish (run);
  ok = TRUE;

out:
  reader_clear (&nr);
  return ok ? g_steal_pointer (&run) : NULL;
}
