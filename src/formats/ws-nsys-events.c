/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys"
#include "config.h"

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-nsys-reader-private.h"
#include "ws-reader-error.h"
#include "ws-run-build.h"
#include "ws-sort.h"
#include "ws-sqlite.h"

/* The event tables but the kernels' (ws-nsys-kernels.c): memory
 * operations, CUDA API calls, GPU memory usage and GPU metrics (NVTX: ws-nsys-nvtx.c), each
 * into its columns of the run. */

/* Sorts every column of a table by (start, later end first) if it is not
 * already: exports are nearly always in order, so this is a check. */
void
ws_nsys_sort_table (gint64 *start, gint64 *end, gsize n, gpointer *columns, const gsize *sizes,
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
memcpy_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  WsMemops *m = &r->run->memops;
  gsize i = *(gsize *) data + row;
  gint64 kind = sqlite3_column_int64 (stmt, 3);

  if (!ws_nsys_column_times (r, stmt, 0, &m->start[i], &m->end[i]))
    return FALSE;
  m->bytes[i] = (guint64) MAX (sqlite3_column_int64 (stmt, 2), 0);
  m->kind[i] = (guint8) (kind >= 0 && kind <= WS_MEMOP_UVM_DTOD ? kind : WS_MEMOP_UNKNOWN);
  m->src_kind[i] = (guint8) CLAMP (sqlite3_column_int64 (stmt, 4), 0, 255);
  m->dst_kind[i] = (guint8) CLAMP (sqlite3_column_int64 (stmt, 5), 0, 255);
  m->stream[i] =
    ws_nsys_stream_for (r, sqlite3_column_int64 (stmt, 6), ws_nsys_column_i32 (stmt, 7),
                        ws_nsys_column_i32 (stmt, 8), ws_nsys_column_i32 (stmt, 9));
  m->correlation[i] = ws_nsys_column_u32 (stmt, 10);
  m->replay[i] = ws_nsys_column_graph (stmt, 11);
  return TRUE;
}

static gboolean
memset_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  WsMemops *m = &r->run->memops;
  gsize i = *(gsize *) data + row;

  if (!ws_nsys_column_times (r, stmt, 0, &m->start[i], &m->end[i]))
    return FALSE;
  m->bytes[i] = (guint64) MAX (sqlite3_column_int64 (stmt, 2), 0);
  m->kind[i] = WS_MEMOP_MEMSET;
  m->src_kind[i] = 255;
  m->dst_kind[i] = (guint8) CLAMP (sqlite3_column_int64 (stmt, 3), 0, 255);
  m->stream[i] =
    ws_nsys_stream_for (r, sqlite3_column_int64 (stmt, 4), ws_nsys_column_i32 (stmt, 5),
                        ws_nsys_column_i32 (stmt, 6), ws_nsys_column_i32 (stmt, 7));
  m->correlation[i] = ws_nsys_column_u32 (stmt, 8);
  m->replay[i] = ws_nsys_column_graph (stmt, 9);
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
 * @func, as ws_nsys_read_table() does into @arrays. */
static gboolean
read_table (WsNsysReader *r, const char *table, const char *const (*cols)[2], gsize n_cols,
            gint64 max_rows, WsNsysRowFunc func, gpointer data, const WsNsysColumns *arrays,
            gsize *n_read, GError **error)
{
  g_autofree char *sql = build_select (r->sql, table, cols, n_cols);

  return ws_nsys_read_table (r, table, sql, NULL, max_rows, func, data, arrays, n_read, error);
}

static gboolean
require_columns (WsNsysReader *r, const char *table, const char *const *columns, GError **error)
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

gboolean
ws_nsys_load_memops (WsNsysReader *r, const char *memcpy_table, gint64 n_memcpy,
                     const char *memset_table, gint64 n_memset, GError **error)
{
  static const char *const memcpy_cols[][2] = {
    { "start", "0" },     { "end", "0" },       { "bytes", "0" },         { "copyKind", "0" },
    { "srcKind", "255" }, { "dstKind", "255" }, { "globalPid", "0" },     { "deviceId", "0" },
    { "contextId", "0" }, { "streamId", "0" },  { "correlationId", "0" }, { "graphNodeId", "NULL" },
  };
  static const char *const memset_cols[][2] = {
    { "start", "0" },          { "end", "0" },       { "bytes", "0" },
    { "memKind", "255" },      { "globalPid", "0" }, { "deviceId", "0" },
    { "contextId", "0" },      { "streamId", "0" },  { "correlationId", "0" },
    { "graphNodeId", "NULL" },
  };
  static const char *const required[] = { "start", "end", "bytes", NULL };
  const struct
  {
    const char *table;
    gint64 rows;
    const char *const (*cols)[2];
    gsize n_cols;
    WsNsysRowFunc func;
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
  m->replay = g_new (guint32, total);

  /* The copies first, then the sets, one after the other in the arrays. */
  for (gsize p = 0; p < G_N_ELEMENTS (parts); p++)
    {
      gsize n = 0;

      if (parts[p].table == NULL)
        continue;
      WsNsysColumns arrays = {
        offset,
        m->start,
        m->end,
        { m->bytes, m->kind, m->src_kind, m->dst_kind, m->stream, m->correlation, m->replay },
        { 8, 1, 1, 1, 4, 4, 4 },
        7,
        { { m->stream, WS_NSYS_ID_STREAM } },
        1,
      };

      if (!require_columns (r, parts[p].table, required, error) ||
          !read_table (r, parts[p].table, parts[p].cols, parts[p].n_cols, parts[p].rows,
                       parts[p].func, &offset, &arrays, &n, error))
        return FALSE;
      offset += n;
    }
  m->n = offset;

  {
    gpointer columns[] = { m->bytes,  m->kind,        m->src_kind, m->dst_kind,
                           m->stream, m->correlation, m->replay };
    const gsize sizes[] = { 8, 1, 1, 1, 4, 4, 4 };

    ws_nsys_sort_table (m->start, m->end, m->n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}

/* The columns of an API call a load reads: start and end, then each of
 * these at its index, or -1 when not read. */
typedef struct
{
  int name;
  int thread;
  int correlation;
  int return_value;
} ApiColumns;

static gboolean
api_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  const ApiColumns *c = data;
  WsApiCalls *a = &r->run->api;

  if (!ws_nsys_column_times (r, stmt, 0, &a->start[i], &a->end[i]))
    return FALSE;
  if (c->name >= 0)
    a->name[i] = ws_nsys_column_string (r, stmt, c->name);
  if (c->thread >= 0)
    a->thread[i] = ws_nsys_thread_for (r, sqlite3_column_int64 (stmt, c->thread));
  if (c->correlation >= 0)
    a->correlation[i] = ws_nsys_column_u32 (stmt, c->correlation);
  if (c->return_value >= 0)
    a->return_value[i] = ws_nsys_column_i32 (stmt, c->return_value);
  return TRUE;
}

/* Adds @column (or its default) to @sql and allocates @array for it:
 * its index in the SELECT, or -1 when @wanted is FALSE. */
static int
api_column (WsNsysReader *r, const char *table, GString *sql, int *n_cols, gboolean wanted,
            const char *column, const char *fallback, guint32 **array, gint64 count)
{
  g_autofree char *col = NULL;

  if (!wanted)
    return -1;
  col = ws_sqlite_column_or (r->sql, table, column, fallback);
  g_string_append_printf (sql, ", %s", col);
  *array = g_new (guint32, count);
  return (*n_cols)++;
}

gboolean
ws_nsys_load_api (WsNsysReader *r, const char *table, gint64 count, GError **error)
{
  static const char *const required[] = { "start", "end", "nameId", NULL };
  WsApiCalls *a = &r->run->api;
  gboolean lean = (r->flags & WS_LOAD_LEAN) != 0;
  gboolean launches = !lean || (r->flags & WS_LOAD_LAUNCHES);
  g_autoptr (GString) sql = g_string_new ("SELECT start, end");
  ApiColumns c;
  int n_cols = 2;
  gsize n = 0;

  if (!require_columns (r, table, required, error))
    return FALSE;

  a->start = g_new (gint64, count);
  a->end = g_new (gint64, count);
  c.name = api_column (r, table, sql, &n_cols, !lean || !(r->flags & WS_LOAD_NO_API_NAMES),
                       "nameId", "NULL", &a->name, count);
  c.thread = api_column (r, table, sql, &n_cols, launches, "globalTid", "0", &a->thread, count);
  c.correlation =
    api_column (r, table, sql, &n_cols, launches, "correlationId", "0", &a->correlation, count);
  c.return_value = api_column (r, table, sql, &n_cols, !lean, "returnValue", "0",
                               (guint32 **) &a->return_value, count);
  g_string_append_printf (sql, " FROM \"%s\"", table);

  {
    WsNsysColumns arrays = { 0, a->start, a->end };
    guint32 *all[] = { a->name, a->thread, a->correlation, (guint32 *) a->return_value };

    for (gsize i = 0; i < G_N_ELEMENTS (all); i++)
      if (all[i] != NULL)
        {
          arrays.columns[arrays.n_columns] = all[i];
          arrays.sizes[arrays.n_columns++] = 4;
        }
    if (a->thread != NULL)
      {
        arrays.ids[0].ids = a->thread;
        arrays.ids[0].kind = WS_NSYS_ID_THREAD;
        arrays.n_ids = 1;
      }
    if (!ws_nsys_read_table (r, table, sql->str, NULL, count, api_row, &c, &arrays, &n, error))
      return FALSE;
  }
  a->n = n;

  {
    gpointer all[] = { a->name, a->thread, a->correlation, a->return_value };
    gpointer columns[G_N_ELEMENTS (all)];
    const gsize sizes[] = { 4, 4, 4, 4 };
    gsize n_sorted = 0;

    for (gsize i = 0; i < G_N_ELEMENTS (all); i++)
      if (all[i] != NULL)
        columns[n_sorted++] = all[i];
    ws_nsys_sort_table (a->start, a->end, n, columns, sizes, n_sorted);
  }
  return TRUE;
}

static gboolean
mem_usage_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsMemUsage *u = &r->run->mem_usage;
  gint64 bytes = CLAMP (sqlite3_column_int64 (stmt, 1), 0, G_MAXINT64 / 2);

  if (!ws_nsys_column_time (r, stmt, 0, &u->time[i]))
    return FALSE;
  u->bytes[i] = sqlite3_column_int64 (stmt, 2) == 1 ? -bytes : bytes;
  u->device[i] = ws_nsys_column_i32 (stmt, 3);
  u->mem_kind[i] = (guint8) CLAMP (sqlite3_column_int64 (stmt, 4), 0, 255);
  return TRUE;
}

gboolean
ws_nsys_load_mem_usage (WsNsysReader *r, const char *table, gint64 count, GError **error)
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

  if (!read_table (r, table, cols, G_N_ELEMENTS (cols), count, mem_usage_row, NULL, NULL, &n,
                   error))
    return FALSE;
  u->n = n;

  {
    gpointer columns[] = { u->bytes, u->device, u->mem_kind };
    const gsize sizes[] = { 8, 4, 1 };

    ws_nsys_sort_table (u->time, NULL, n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}

typedef struct
{
  gint64 type_id;
  guint32 metric_id;
} MetricKey;

static guint
metric_key_hash (gconstpointer key)
{
  const MetricKey *k = key;

  return ws_int64_hash (&k->type_id) * 31 + k->metric_id;
}

static gboolean
metric_key_equal (gconstpointer a, gconstpointer b)
{
  const MetricKey *x = a, *y = b;

  return x->type_id == y->type_id && x->metric_id == y->metric_id;
}

typedef struct
{
  guint32 *metric;   /* per sample: index into run->metrics */
  GHashTable *index; /* MetricKey → index into run->metrics + 1 */
} MetricLoad;

/* Rows cycle through the metrics (each timestamp has a sample of each), so
 * the lookup is a hash; every metric named gets its samples, however many
 * there are (each costs one entry, and rows are counted and budgeted). */
static guint32
metric_for (WsNsysReader *r, MetricLoad *load, gint64 type_id, guint32 metric_id)
{
  GArray *metrics = r->run->metrics;
  MetricKey key = { type_id, metric_id };
  gpointer found = g_hash_table_lookup (load->index, &key);
  WsGpuMetric metric = { type_id, metric_id, WS_STRING_NONE, 0, 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_array_append_val (metrics, metric);
  g_hash_table_insert (load->index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (metrics->len));
  return metrics->len - 1;
}

static gboolean
metric_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  MetricLoad *load = data;
  WsMetricSamples *s = &r->run->metric_samples;

  if (!ws_nsys_column_time (r, stmt, 0, &s->time[i]))
    return FALSE;
  load->metric[i] =
    metric_for (r, load, sqlite3_column_int64 (stmt, 1), ws_nsys_column_u32 (stmt, 2));
  s->value[i] = (float) sqlite3_column_double (stmt, 3);
  return TRUE;
}

gboolean
ws_nsys_load_gpu_metrics (WsNsysReader *r, const char *table, gint64 count, GError **error)
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
  g_autoptr (GHashTable) metric_index =
    g_hash_table_new_full (metric_key_hash, metric_key_equal, g_free, NULL);
  MetricLoad load = { NULL, metric_index };
  gsize n = 0;

  if (!require_columns (r, table, required, error))
    return FALSE;

  /* Names first, so that metrics come in the order the capture lists them.
   * The table is not counted: a sane one has < 100 names per GPU, and a
   * metric whose name is past the limit is still read, as "metric N". */
  if (names_table != NULL && ws_sqlite_has_column (r->sql, names_table, "metricName"))
    {
      g_autoptr (sqlite3_stmt) stmt = NULL;
      char *names_sql = sqlite3_mprintf (
        "SELECT typeId, metricId, metricName FROM \"%w\" LIMIT 65536", names_table);

      stmt = ws_sqlite_prepare (r->sql, names_sql, NULL);
      sqlite3_free (names_sql);
      while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
        {
          guint32 m =
            metric_for (r, &load, sqlite3_column_int64 (stmt, 0), ws_nsys_column_u32 (stmt, 1));

          g_array_index (r->run->metrics, WsGpuMetric, m).name = ws_nsys_column_text (r, stmt, 2);
        }
    }

  s->time = g_new (gint64, count);
  s->value = g_new (float, count);
  load.metric = metric = g_new (guint32, count);

  if (!read_table (r, table, cols, G_N_ELEMENTS (cols), count, metric_row, &load, NULL, &n, error))
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

      ws_nsys_sort_table (s->time + gm->first, NULL, gm->n, columns, sizes, 1);
    }
  return TRUE;
}

static gboolean
osrt_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsOsrtCalls *o = &r->run->osrt;

  if (!ws_nsys_column_times (r, stmt, 0, &o->start[i], &o->end[i]))
    return FALSE;
  o->name[i] = ws_nsys_column_string (r, stmt, 2);
  o->thread[i] = ws_nsys_thread_for (r, sqlite3_column_int64 (stmt, 3));
  return TRUE;
}

/* OS runtime calls: the rows of event class 27 (TRACE_PROCESS_EVENT_OS_RUNTIME),
 * as nsys's osrt_sum reads them; classes 31 and 32 are zero-length
 * "[Unknown]" start and finish records of the tracer itself. */
gboolean
ws_nsys_load_osrt (WsNsysReader *r, const char *table, gint64 count, GError **error)
{
  static const char *const required[] = { "start", "end", "nameId", NULL };
  WsOsrtCalls *o = &r->run->osrt;
  g_autofree char *tid = NULL;
  char *sql;
  gsize n = 0;
  gboolean ok;

  if (!require_columns (r, table, required, error))
    return FALSE;
  tid = ws_sqlite_column_or (r->sql, table, "globalTid", "0");
  sql = sqlite3_mprintf ("SELECT start, end, nameId, %s FROM \"%w\"", tid, table);
  o->start = g_new (gint64, MAX (count, 1));
  o->end = g_new (gint64, MAX (count, 1));
  o->name = g_new (guint32, MAX (count, 1));
  o->thread = g_new (guint32, MAX (count, 1));
  {
    WsNsysColumns arrays = {
      0,
      o->start,
      o->end,
      { o->name, o->thread },
      { 4, 4 },
      2,
      { { o->thread, WS_NSYS_ID_THREAD } },
      1,
    };

    ok = ws_nsys_read_table (
      r, table, sql, ws_sqlite_has_column (r->sql, table, "eventClass") ? "eventClass = 27" : NULL,
      count, osrt_row, NULL, &arrays, &n, error);
  }
  sqlite3_free (sql);
  if (!ok)
    return FALSE;
  o->n = n;
  /* The other event classes were counted, not read: progress goes on
   * as if they had been. */
  r->rows_done += count - (gint64) n;
  if (r->progress != NULL && r->rows_total > 0 && count > (gint64) n)
    {
      r->last_fraction = MIN (1.0, (double) r->rows_done / (double) r->rows_total);
      r->progress (r->last_fraction, table, r->progress_data);
    }
  {
    gpointer columns[] = { o->name, o->thread };
    const gsize sizes[] = { 4, 4 };

    ws_nsys_sort_table (o->start, o->end, n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}
