/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys-overview"
#include "config.h"

#include <string.h>

#include "ws-kernel-display.h"
#include "ws-nsys-overview.h"
#include "ws-nsys-reader.h"
#include "ws-reader-error.h"
#include "ws-sqlite.h"

/* The first frame of an nsys export (docs/first-frame.md).  Up to
 * all_rows kernels are all read; beyond, about one row in share (and
 * never fewer than all_rows), in windows runs of consecutive rows spread
 * evenly over the table.  nsys
 * writes a table's rows in time order, so a run of rows holds every
 * kernel that ran between its first start and its last end: inside that
 * stretch each lane's busy share is measured, not guessed, and bins
 * between stretches are interpolated. */
#define EDGE_ROWS 256
#define TOP_KERNELS 24

typedef struct
{
  WsOverviewLane lane;
  double busy_ns[WS_OVERVIEW_BINS];
  gint64 rows;
} LaneAcc;

typedef struct
{
  gint64 rows;
  double total_ns;
} NameAcc;

typedef struct
{
  const WsOverviewSampling *sampling;
  WsSqlite *sql;
  const char *table;
  WsOverview *overview;
  double bin_ns;
  GHashTable *lanes;                   /* (pid, device, stream) key -> LaneAcc */
  GHashTable *names;                   /* string id -> NameAcc */
  double covered_ns[WS_OVERVIEW_BINS]; /* time inside the windows read */
  gint64 first;                        /* the window being read: first start */
  gint64 last;                         /* and last end */
} Reader;

static guint64
lane_key (guint32 pid, gint32 device, gint32 stream)
{
  return ((guint64) pid << 40) ^ ((guint64) (guint16) device << 24) ^ (guint32) stream;
}

/* The earliest start and latest end among a table's first and last rows:
 * rows are written in time order, so these are the table's own. */
static void
widen_span (Reader *reader, const char *name)
{
  static const char *const order[] = { "ASC", "DESC" };
  const char *table = ws_sqlite_find_table (reader->sql, name);
  gboolean has_end;

  if (table == NULL || !ws_sqlite_has_column (reader->sql, table, "start"))
    return;
  has_end = ws_sqlite_has_column (reader->sql, table, "end");
  for (gsize o = 0; o < G_N_ELEMENTS (order); o++)
    {
      g_autofree char *query = g_strdup_printf (
        "SELECT min(start), max(%s) FROM (SELECT start%s FROM \"%s\" ORDER BY rowid %s LIMIT %d)"
        " WHERE start IS NOT NULL",
        has_end ? "coalesce(end, start)" : "start", has_end ? ", end" : "", table, order[o],
        EDGE_ROWS);
      g_autoptr (sqlite3_stmt) stmt = ws_sqlite_prepare (reader->sql, query, NULL);

      if (stmt == NULL || sqlite3_step (stmt) != SQLITE_ROW ||
          sqlite3_column_type (stmt, 0) == SQLITE_NULL)
        continue;
      reader->overview->start = MIN (reader->overview->start, sqlite3_column_int64 (stmt, 0));
      reader->overview->end = MAX (reader->overview->end, sqlite3_column_int64 (stmt, 1));
    }
}

static LaneAcc *
lane_for (Reader *reader, guint32 pid, gint32 device, gint32 stream)
{
  guint64 key = lane_key (pid, device, stream);
  LaneAcc *acc = g_hash_table_lookup (reader->lanes, &key);

  if (acc == NULL)
    {
      acc = g_new0 (LaneAcc, 1);
      acc->lane.pid = pid;
      acc->lane.device_id = device;
      acc->lane.stream_id = stream;
      g_hash_table_insert (reader->lanes, g_memdup2 (&key, sizeof key), acc);
    }
  return acc;
}

/* Adds @value spread over [a, b) to @bins, in proportion to the overlap. */
static void
spread (const Reader *reader, double *bins, gint64 a, gint64 b, double value)
{
  const WsOverview *o = reader->overview;
  double from, to, per_ns;

  a = MAX (a, o->start);
  b = MIN (b, o->end);
  if (b <= a)
    return;
  from = (double) (a - o->start) / reader->bin_ns;
  to = (double) (b - o->start) / reader->bin_ns;
  per_ns = value / (double) (b - a);
  for (gint64 bin = (gint64) from; bin < WS_OVERVIEW_BINS && (double) bin < to; bin++)
    {
      double lo = MAX (from, (double) bin), hi = MIN (to, (double) bin + 1);

      bins[bin] += per_ns * (hi - lo) * reader->bin_ns;
    }
}

/* The window read so far covers its first start to its last end. */
static void
close_window (Reader *reader)
{
  if (reader->first < reader->last)
    spread (reader, reader->covered_ns, reader->first, reader->last,
            (double) (reader->last - reader->first));
  reader->first = G_MAXINT64;
  reader->last = G_MININT64;
}

static void
add_kernel (Reader *reader, sqlite3_stmt *stmt)
{
  gint64 start = sqlite3_column_int64 (stmt, 0);
  gint64 end = MAX (sqlite3_column_int64 (stmt, 1), start);
  gint64 global_pid = sqlite3_column_int64 (stmt, 2);
  LaneAcc *acc = lane_for (reader, (guint32) ((global_pid >> 24) & 0xFFFFFF),
                           sqlite3_column_int (stmt, 3), sqlite3_column_int (stmt, 4));
  gint64 name = sqlite3_column_int64 (stmt, 5);
  NameAcc *named = g_hash_table_lookup (reader->names, &name);

  reader->first = MIN (reader->first, start);
  reader->last = MAX (reader->last, end);
  acc->rows++;
  spread (reader, acc->busy_ns, start, end, (double) (end - start));

  if (named == NULL)
    {
      named = g_new0 (NameAcc, 1);
      g_hash_table_insert (reader->names, g_memdup2 (&name, sizeof name), named);
    }
  named->rows++;
  named->total_ns += (double) (end - start);
  reader->overview->rows_read++;
}

static gboolean
read_rows (Reader *reader, sqlite3_stmt *stmt, gint64 from, gint64 to, GError **error)
{
  GError *local = NULL;

  sqlite3_reset (stmt);
  sqlite3_bind_int64 (stmt, 1, from);
  sqlite3_bind_int64 (stmt, 2, to);
  while (ws_sqlite_step (reader->sql, stmt, reader->table, &local))
    add_kernel (reader, stmt);
  if (local == NULL)
    return TRUE;
  g_propagate_error (error, local);
  return FALSE;
}

/* Reads the kernel rows of the sample: all of them, or WINDOWS runs. */
static gboolean
read_kernels (Reader *reader, GError **error)
{
  g_autofree char *query = NULL;
  g_autofree char *pid = ws_sqlite_column_or (reader->sql, reader->table, "globalPid", "0");
  g_autofree char *device = ws_sqlite_column_or (reader->sql, reader->table, "deviceId", "0");
  g_autofree char *stream = ws_sqlite_column_or (reader->sql, reader->table, "streamId", "0");
  const char *name = ws_sqlite_has_column (reader->sql, reader->table, "demangledName")
                       ? "demangledName"
                       : "shortName";
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (sqlite3_stmt) bounds = NULL;
  gint64 lo, hi, per_window;
  WsOverview *o = reader->overview;

  /* nsys never deletes rows: the rowids are 1 to the row count, and
   * their bounds cost two lookups where count(*) costs a scan.  Each in
   * a query of its own: min() and max() in one SELECT scan the table. */
  query =
    g_strdup_printf ("SELECT (SELECT min(rowid) FROM \"%s\"), (SELECT max(rowid) FROM \"%s\")",
                     reader->table, reader->table);
  bounds = ws_sqlite_prepare (reader->sql, query, error);
  if (bounds == NULL || sqlite3_step (bounds) != SQLITE_ROW ||
      sqlite3_column_type (bounds, 0) == SQLITE_NULL)
    return bounds != NULL;
  lo = sqlite3_column_int64 (bounds, 0);
  hi = sqlite3_column_int64 (bounds, 1);
  o->rows = hi - lo + 1;
  g_free (query);
  query = g_strdup_printf ("SELECT start, end, %s, %s, %s, \"%s\" FROM \"%s\""
                           " WHERE rowid >= ?1 AND rowid < ?2 AND start IS NOT NULL",
                           pid, device, stream, name, reader->table);
  stmt = ws_sqlite_prepare (reader->sql, query, error);
  if (stmt == NULL)
    return FALSE;
  if (o->rows <= reader->sampling->all_rows)
    return read_rows (reader, stmt, lo, hi + 1, error);

  /* Never fewer rows than a small table is read whole with. */
  per_window = MAX (MAX (o->rows / reader->sampling->share, reader->sampling->all_rows) /
                      reader->sampling->windows,
                    1);
  for (guint w = 0; w < reader->sampling->windows; w++)
    {
      gint64 from = lo + (gint64) ((double) (hi - lo + 1) * w / reader->sampling->windows);

      if (!read_rows (reader, stmt, from, from + per_window, error))
        return FALSE;
      close_window (reader);
    }
  return TRUE;
}

static int
compare_lanes (gconstpointer a, gconstpointer b)
{
  const WsOverviewLane *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->device_id != y->device_id)
    return x->device_id < y->device_id ? -1 : 1;
  return (x->stream_id > y->stream_id) - (x->stream_id < y->stream_id);
}

/* Each lane's busy share per bin: measured where the sample covers the
 * bin, interpolated between covered bins, 0 outside the lane's first and
 * last. */
static void
finish_lane (Reader *reader, LaneAcc *acc, gboolean exact)
{
  WsOverviewLane *lane = &acc->lane;
  gint prev = -1;

  lane->kernels = (double) acc->rows * (double) reader->overview->rows /
                  (double) MAX (reader->overview->rows_read, 1);
  for (gint b = 0; b < WS_OVERVIEW_BINS; b++)
    {
      double covered = exact ? reader->bin_ns : reader->covered_ns[b];

      if (covered <= 0)
        continue;
      lane->busy[b] = (float) CLAMP (acc->busy_ns[b] / covered, 0.0, 1.0);
      for (gint gap = prev + 1; prev >= 0 && gap < b; gap++)
        lane->busy[gap] = lane->busy[prev] + (lane->busy[b] - lane->busy[prev]) *
                                               (float) (gap - prev) / (float) (b - prev);
      prev = b;
    }
}

static char *
string_value (Reader *reader, gint64 id)
{
  g_autoptr (sqlite3_stmt) stmt =
    ws_sqlite_prepare (reader->sql, "SELECT value FROM StringIds WHERE id = ?1", NULL);

  if (stmt == NULL)
    return g_strdup_printf ("%" G_GINT64_FORMAT, id);
  sqlite3_bind_int64 (stmt, 1, id);
  if (sqlite3_step (stmt) != SQLITE_ROW || sqlite3_column_text (stmt, 0) == NULL)
    return g_strdup_printf ("%" G_GINT64_FORMAT, id);
  return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
}

typedef struct
{
  gint64 id;
  double launches;
  double total_ns;
  gint64 sampled;
} Ranked;

static gint
compare_ranked (gconstpointer a, gconstpointer b)
{
  const Ranked *x = a, *y = b;

  if (x->total_ns != y->total_ns)
    return x->total_ns < y->total_ns ? 1 : -1;
  return (x->id > y->id) - (x->id < y->id);
}

/* The kernels that take the most time, with the names the Kernels page
 * gives them. */
static void
finish_kernels (Reader *reader)
{
  WsOverview *o = reader->overview;
  double scale = (double) o->rows / (double) MAX (o->rows_read, 1);
  g_autoptr (GArray) ranked = g_array_new (FALSE, FALSE, sizeof (Ranked));
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) display = NULL;
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, reader->names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const NameAcc *named = value;
      Ranked r = { *(gint64 *) key, (double) named->rows * scale, named->total_ns * scale,
                   named->rows };

      g_array_append_val (ranked, r);
    }
  g_array_sort (ranked, compare_ranked);
  g_array_set_size (ranked, MIN (ranked->len, TOP_KERNELS));
  for (guint i = 0; i < ranked->len; i++)
    g_ptr_array_add (names, string_value (reader, g_array_index (ranked, Ranked, i).id));
  g_ptr_array_add (names, NULL);
  display = ws_kernel_display_names ((const char *const *) names->pdata, ranked->len);
  for (guint i = 0; i < ranked->len; i++)
    {
      const Ranked *r = &g_array_index (ranked, Ranked, i);
      WsOverviewKernel kernel = { g_strdup (display[i]), r->launches, r->total_ns, r->sampled };

      g_array_append_val (o->kernels, kernel);
    }
}

static void
finish (Reader *reader)
{
  GHashTableIter iter;
  gpointer value;
  gboolean exact = ws_overview_is_exact (reader->overview);

  g_hash_table_iter_init (&iter, reader->lanes);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      finish_lane (reader, value, exact);
      g_array_append_val (reader->overview->lanes, ((LaneAcc *) value)->lane);
    }
  g_array_sort (reader->overview->lanes, compare_lanes);
  finish_kernels (reader);
}

const WsOverviewSampling ws_overview_sampling_default = { 65536, 64, 1024 };

/**
 * ws_nsys_overview_read:
 * @path: an nsys SQLite export
 * @sampling: (nullable): how much of the kernel table to read;
 *   %NULL for ws_overview_sampling_default
 *
 * Reads the first frame of @path: its span from the first and last rows of
 * its event tables, and its GPU lanes and biggest kernels from a sample of
 * the kernel table (every row of a small one).  Costs a small share of one
 * scan of the kernel table, whatever its size.
 *
 * Returns: (transfer full): the overview, or %NULL with @error set
 */
WsOverview *
ws_nsys_overview_read (const char *path, const WsOverviewSampling *sampling,
                       GCancellable *cancellable, GError **error)
{
  static const char *const tables[] = { "CUPTI_ACTIVITY_KIND_KERNEL",
                                        "CUPTI_ACTIVITY_KIND_MEMCPY",
                                        "CUPTI_ACTIVITY_KIND_MEMSET",
                                        "CUPTI_ACTIVITY_KIND_RUNTIME",
                                        "NVTX_EVENTS",
                                        "OSRT_API" };
  g_autoptr (WsSqlite) sql = NULL;
  g_autoptr (WsOverview) overview = NULL;
  g_autoptr (GHashTable) lanes = NULL;
  g_autoptr (GHashTable) names = NULL;
  Reader reader = { 0 };

  g_return_val_if_fail (path != NULL, NULL);

  if (!ws_nsys_reader_sniff (path, error))
    return NULL;
  sql = ws_sqlite_open (path, cancellable, error);
  if (sql == NULL)
    return NULL;
  overview = ws_overview_new ();
  overview->start = G_MAXINT64;
  overview->end = G_MININT64;
  lanes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  reader.sampling = sampling != NULL ? sampling : &ws_overview_sampling_default;
  reader.sql = sql;
  reader.table = ws_sqlite_find_table (sql, tables[0]);
  reader.overview = overview;
  reader.lanes = lanes;
  reader.names = names;
  reader.first = G_MAXINT64;
  reader.last = G_MININT64;

  for (gsize t = 0; t < G_N_ELEMENTS (tables); t++)
    widen_span (&reader, tables[t]);
  if (overview->start > overview->end)
    overview->start = overview->end = 0;
  reader.bin_ns = MAX ((double) (overview->end - overview->start) / WS_OVERVIEW_BINS, 1.0);

  if (reader.table != NULL)
    {
      if (!read_kernels (&reader, error))
        return NULL;
      finish (&reader);
    }
  return g_steal_pointer (&overview);
}
