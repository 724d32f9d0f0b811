/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys-overview"
#include "config.h"

#include <string.h>

#include "ws-kernel-display.h"
#include "ws-nsys-overview.h"
#include "ws-nsys-reader.h"
#include "ws-reader-error.h"
#include "ws-sqlite.h"

/* The first frame of an nsys export (docs/first-frame.md).  The kernel
 * table and the graph trace table (CUDA graph replays recorded whole) are
 * sampled: up to all_rows rows are all read; beyond, about one row in
 * share (and never fewer than all_rows), in windows runs of consecutive
 * rows spread evenly over the table.  Where a table's rows are in time
 * order, a run of rows holds every event that ran between its first start
 * and its last end: inside that stretch each lane's busy share is
 * measured, not guessed, and bins between stretches are interpolated.
 * Where they are not (nsys 2025.6 no longer promises an order), the runs
 * are a sample of rows like any other, and stand for the whole table. */
#define EDGE_ROWS 256
/* Runs of rows between a table's two edges, read to check its order. */
#define ORDER_RUNS 32
#define ORDER_RUN_ROWS 16
/* A table of at most this many rows is read whole for its span: apart,
 * the runs above never overlap. */
#define SPAN_WHOLE_ROWS 2048
#define TOP_KERNELS 24

typedef struct
{
  WsOverviewLane lane;
  double busy_ns[WS_OVERVIEW_BINS];   /* kernels */
  double replay_ns[WS_OVERVIEW_BINS]; /* graph replays */
  gint64 rows;
  gint64 replay_rows;
} LaneAcc;

typedef struct
{
  gint64 rows;
  double total_ns;
} NameAcc;

/* A row of a sampled table: what places it on a lane. */
typedef struct
{
  gint64 start;
  gint64 end;
  gint64 name; /* kernels: the name's string id */
  guint32 pid;
  gint32 device;
  gint32 stream;
  guint window;
} SampleRow;

/* A table read as a sample: every row, or windows of consecutive rows. */
typedef struct
{
  const char *table; /* NULL when the export has none */
  gboolean kernels;  /* the kernel table; else the graph trace */
  gint64 rows;
  GArray *read; /* SampleRow, in rowid order */
  gboolean whole;
  gboolean ordered; /* the rows read start in time order */
  double covered_ns[WS_OVERVIEW_BINS];
} Sample;

typedef struct
{
  const WsOverviewSampling *sampling;
  WsSqlite *sql;
  WsOverview *overview;
  double bin_ns;
  GHashTable *lanes; /* (pid, device, stream) key -> LaneAcc */
  GHashTable *names; /* string id -> NameAcc */
  Sample kernels;
  Sample replays;
} Reader;

static guint64
lane_key (guint32 pid, gint32 device, gint32 stream)
{
  return ((guint64) pid << 40) ^ ((guint64) (guint16) device << 24) ^ (guint32) stream;
}

/* The rowid bounds of @table: nsys never deletes rows, so they are 1 to
 * the row count, and they cost two lookups where count(*) costs a scan.
 * Each in a query of its own: min() and max() in one SELECT scan the
 * table.  FALSE when the table is empty. */
static gboolean
rowid_bounds (Reader *reader, const char *table, gint64 *lo, gint64 *hi, GError **error)
{
  g_autofree char *query = g_strdup_printf (
    "SELECT (SELECT min(rowid) FROM \"%s\"), (SELECT max(rowid) FROM \"%s\")", table, table);
  g_autoptr (sqlite3_stmt) stmt = ws_sqlite_prepare (reader->sql, query, error);

  if (stmt == NULL || sqlite3_step (stmt) != SQLITE_ROW ||
      sqlite3_column_type (stmt, 0) == SQLITE_NULL)
    return FALSE;
  *lo = sqlite3_column_int64 (stmt, 0);
  *hi = sqlite3_column_int64 (stmt, 1);
  return TRUE;
}

/* The table's own extremes, by a scan: for a table out of time order. */
static gboolean
scan_span (Reader *reader, const char *table, gboolean has_end, gint64 *first, gint64 *last)
{
  g_autofree char *query = g_strdup_printf ("SELECT min(start), max(%s) FROM \"%s\"",
                                            has_end ? "coalesce(end, start)" : "start", table);
  g_autoptr (sqlite3_stmt) stmt = ws_sqlite_prepare (reader->sql, query, NULL);

  if (stmt == NULL || sqlite3_step (stmt) != SQLITE_ROW ||
      sqlite3_column_type (stmt, 0) == SQLITE_NULL)
    return FALSE;
  *first = sqlite3_column_int64 (stmt, 0);
  *last = sqlite3_column_int64 (stmt, 1);
  return TRUE;
}

/* Reads rows [@from, @to) of the edge query: their extremes into @first
 * and @last, whether they start in time order after *@prev into
 * @ordered; returns how many rows it read. */
static gint64
read_edge_run (sqlite3_stmt *stmt, gint64 from, gint64 to, gint64 *prev, gint64 *first,
               gint64 *last, gboolean *ordered)
{
  gint64 n = 0;

  sqlite3_reset (stmt);
  sqlite3_bind_int64 (stmt, 1, from);
  sqlite3_bind_int64 (stmt, 2, to);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 start = sqlite3_column_int64 (stmt, 0);

      *ordered = *ordered && start >= *prev;
      *prev = start;
      *first = MIN (*first, start);
      *last = MAX (*last, sqlite3_column_int64 (stmt, 1));
      n++;
    }
  return n;
}

/* Widens the span by the earliest start and latest end of table @name.
 * Rows in time order hold those in their first and last EDGE_ROWS rows;
 * the rows read between them (ORDER_RUNS runs, and the sample's own for
 * a sampled table) check that order, and a table out of it is scanned.
 * A table of few rows is read whole. */
static void
widen_span (Reader *reader, const char *name, const Sample *sample)
{
  const char *table = ws_sqlite_find_table (reader->sql, name);
  g_autofree char *query = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 lo, hi, rows, read = 0, prev = G_MININT64;
  gint64 first = G_MAXINT64, last = G_MININT64;
  gboolean has_end, ordered = sample == NULL || sample->ordered;

  if (table == NULL || !ws_sqlite_has_column (reader->sql, table, "start") ||
      !rowid_bounds (reader, table, &lo, &hi, NULL))
    return;
  has_end = ws_sqlite_has_column (reader->sql, table, "end");
  query = g_strdup_printf ("SELECT start, %s FROM \"%s\" WHERE rowid >= ?1 AND rowid < ?2 AND "
                           "start IS NOT NULL ORDER BY rowid",
                           has_end ? "coalesce(end, start)" : "start", table);
  stmt = ws_sqlite_prepare (reader->sql, query, NULL);
  if (stmt == NULL)
    return;
  rows = hi - lo + 1;
  if (rows <= SPAN_WHOLE_ROWS)
    read = read_edge_run (stmt, lo, hi + 1, &prev, &first, &last, &ordered);
  else
    {
      read += read_edge_run (stmt, lo, lo + EDGE_ROWS, &prev, &first, &last, &ordered);
      for (guint r = 1; r <= ORDER_RUNS; r++)
        {
          gint64 from = lo + EDGE_ROWS + (rows - 2 * EDGE_ROWS) * r / (ORDER_RUNS + 1);

          read += read_edge_run (stmt, from, from + ORDER_RUN_ROWS, &prev, &first, &last, &ordered);
        }
      read += read_edge_run (stmt, hi + 1 - EDGE_ROWS, hi + 1, &prev, &first, &last, &ordered);
    }
  /* Out of order and not read whole: only a scan knows its extremes. */
  if (!ordered && read < rows)
    {
      if (!scan_span (reader, table, has_end, &first, &last))
        return;
      reader->overview->scanned++;
    }
  if (first > last)
    return;
  reader->overview->start = MIN (reader->overview->start, first);
  reader->overview->end = MAX (reader->overview->end, last);
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

/* Reads rows [@from, @to) of @sample's query into it, as window @window. */
static gboolean
read_rows (Reader *reader, Sample *sample, sqlite3_stmt *stmt, gint64 from, gint64 to, guint window,
           GError **error)
{
  GError *local = NULL;

  sqlite3_reset (stmt);
  sqlite3_bind_int64 (stmt, 1, from);
  sqlite3_bind_int64 (stmt, 2, to);
  while (ws_sqlite_step (reader->sql, stmt, sample->table, &local))
    {
      gint64 global_pid = sqlite3_column_int64 (stmt, 2);
      SampleRow row = { sqlite3_column_int64 (stmt, 0),
                        sqlite3_column_int64 (stmt, 1),
                        sqlite3_column_int64 (stmt, 5),
                        (guint32) ((global_pid >> 24) & 0xFFFFFF),
                        sqlite3_column_int (stmt, 3),
                        sqlite3_column_int (stmt, 4),
                        window };

      if (sample->read->len > 0 &&
          row.start < g_array_index (sample->read, SampleRow, sample->read->len - 1).start)
        sample->ordered = FALSE;
      g_array_append_val (sample->read, row);
    }
  if (local == NULL)
    return TRUE;
  g_propagate_error (error, local);
  return FALSE;
}

/* Reads the rows of @sample's table: all of them, or WINDOWS runs. */
static gboolean
read_sample (Reader *reader, Sample *sample, GError **error)
{
  const WsOverviewSampling *sampling = reader->sampling;
  const char *table = sample->table;
  g_autofree char *query = NULL;
  g_autofree char *pid = ws_sqlite_column_or (reader->sql, table, "globalPid", "0");
  g_autofree char *device = ws_sqlite_column_or (reader->sql, table, "deviceId", "0");
  g_autofree char *stream = ws_sqlite_column_or (reader->sql, table, "streamId", "0");
  g_autofree char *name = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 lo, hi, per_window;
  GError *local = NULL;

  if (!rowid_bounds (reader, table, &lo, &hi, &local))
    {
      /* An empty table is no error. */
      if (local == NULL)
        return TRUE;
      g_propagate_error (error, local);
      return FALSE;
    }
  sample->rows = hi - lo + 1;
  if (sample->kernels)
    name = g_strdup_printf ("\"%s\"", ws_sqlite_has_column (reader->sql, table, "demangledName")
                                        ? "demangledName"
                                        : "shortName");
  query = g_strdup_printf ("SELECT start, coalesce(end, start), %s, %s, %s, %s FROM \"%s\""
                           " WHERE rowid >= ?1 AND rowid < ?2 AND start IS NOT NULL ORDER BY rowid",
                           pid, device, stream, name != NULL ? name : "0", table);
  stmt = ws_sqlite_prepare (reader->sql, query, error);
  if (stmt == NULL)
    return FALSE;
  if (sample->rows <= sampling->all_rows)
    {
      sample->whole = TRUE;
      return read_rows (reader, sample, stmt, lo, hi + 1, 0, error);
    }

  /* Never fewer rows than a small table is read whole with. */
  per_window =
    MAX (MAX (sample->rows / sampling->share, sampling->all_rows) / sampling->windows, 1);
  for (guint w = 0; w < sampling->windows; w++)
    {
      gint64 from = lo + (gint64) ((double) (hi - lo + 1) * w / sampling->windows);

      if (!read_rows (reader, sample, stmt, from, from + per_window, w, error))
        return FALSE;
    }
  return TRUE;
}

/* What part of each bin @sample's rows stand for: all of it when the
 * table was read whole; where its rows are in time order, the stretch
 * from each window's first start to its last end; where they are not, a
 * share of every bin, the share of the rows read. */
static void
cover (Reader *reader, Sample *sample)
{
  gint64 first = G_MAXINT64, last = G_MININT64;
  guint window = 0;

  if (sample->whole || !sample->ordered)
    {
      double share = sample->whole ? 1.0 : (double) sample->read->len / (double) sample->rows;

      for (guint b = 0; b < WS_OVERVIEW_BINS; b++)
        sample->covered_ns[b] = reader->bin_ns * share;
      return;
    }
  for (guint i = 0; i <= sample->read->len; i++)
    {
      const SampleRow *row =
        i < sample->read->len ? &g_array_index (sample->read, SampleRow, i) : NULL;

      if (row == NULL || row->window != window)
        {
          if (first < last)
            spread (reader, sample->covered_ns, first, last, (double) (last - first));
          first = G_MAXINT64;
          last = G_MININT64;
        }
      if (row == NULL)
        break;
      window = row->window;
      first = MIN (first, row->start);
      last = MAX (last, MAX (row->end, row->start));
    }
}

/* Spreads each row read over its lane's bins; kernels add to their name. */
static void
place (Reader *reader, Sample *sample)
{
  for (guint i = 0; i < sample->read->len; i++)
    {
      const SampleRow *row = &g_array_index (sample->read, SampleRow, i);
      gint64 end = MAX (row->end, row->start);
      LaneAcc *acc = lane_for (reader, row->pid, row->device, row->stream);
      NameAcc *named;

      if (!sample->kernels)
        {
          acc->replay_rows++;
          spread (reader, acc->replay_ns, row->start, end, (double) (end - row->start));
          continue;
        }
      acc->rows++;
      spread (reader, acc->busy_ns, row->start, end, (double) (end - row->start));
      named = g_hash_table_lookup (reader->names, &row->name);
      if (named == NULL)
        {
          named = g_new0 (NameAcc, 1);
          g_hash_table_insert (reader->names, g_memdup2 (&row->name, sizeof row->name), named);
        }
      named->rows++;
      named->total_ns += (double) (end - row->start);
    }
  cover (reader, sample);
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

/* Adds to @busy the share of each bin that @busy_ns fills: measured where
 * @sample covers the bin, interpolated between covered bins, 0 outside
 * the first and last. */
static void
add_share (float *busy, const double *busy_ns, const Sample *sample)
{
  float share[WS_OVERVIEW_BINS] = { 0 };
  gint prev = -1;

  for (gint b = 0; b < WS_OVERVIEW_BINS; b++)
    {
      double covered = sample->covered_ns[b];

      if (covered <= 0)
        continue;
      share[b] = (float) CLAMP (busy_ns[b] / covered, 0.0, 1.0);
      for (gint gap = prev + 1; prev >= 0 && gap < b; gap++)
        share[gap] =
          share[prev] + (share[b] - share[prev]) * (float) (gap - prev) / (float) (b - prev);
      prev = b;
    }
  for (gint b = 0; b < WS_OVERVIEW_BINS; b++)
    busy[b] = MIN (busy[b] + share[b], 1.0f);
}

/* Each lane's busy share per bin, kernels and graph replays together (on
 * one stream they never overlap), and its counts, scaled up from the
 * rows read. */
static void
finish_lane (Reader *reader, LaneAcc *acc)
{
  WsOverviewLane *lane = &acc->lane;

  lane->kernels = (double) acc->rows * (double) reader->kernels.rows /
                  (double) MAX (reader->kernels.read->len, 1);
  lane->replays = (double) acc->replay_rows * (double) reader->replays.rows /
                  (double) MAX (reader->replays.read->len, 1);
  add_share (lane->busy, acc->busy_ns, &reader->kernels);
  add_share (lane->busy, acc->replay_ns, &reader->replays);
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
  if (ranked->len == 0)
    return;
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

  place (reader, &reader->kernels);
  place (reader, &reader->replays);
  g_hash_table_iter_init (&iter, reader->lanes);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      finish_lane (reader, value);
      g_array_append_val (reader->overview->lanes, ((LaneAcc *) value)->lane);
    }
  g_array_sort (reader->overview->lanes, compare_lanes);
  finish_kernels (reader);
}

const WsOverviewSampling ws_overview_sampling_default = { 65536, 64, 1024 };

static void
sample_init (Sample *sample, WsSqlite *sql, const char *name, gboolean kernels)
{
  sample->table = ws_sqlite_find_table (sql, name);
  sample->kernels = kernels;
  sample->read = g_array_new (FALSE, FALSE, sizeof (SampleRow));
  sample->ordered = TRUE;
}

/* The span of a table read whole is its rows': exact, in any order. */
static void
widen_span_by (Reader *reader, const char *name, const Sample *sample)
{
  WsOverview *o = reader->overview;

  if (sample->table == NULL || !sample->whole)
    {
      widen_span (reader, name, sample->table != NULL ? sample : NULL);
      return;
    }
  for (guint i = 0; i < sample->read->len; i++)
    {
      const SampleRow *row = &g_array_index (sample->read, SampleRow, i);

      o->start = MIN (o->start, row->start);
      o->end = MAX (o->end, row->end);
    }
}

/**
 * ws_nsys_overview_read:
 * @path: an nsys SQLite export
 * @sampling: (nullable): how much of the kernel and graph trace tables to
 *   read; %NULL for ws_overview_sampling_default
 *
 * Reads the first frame of @path: its span from the first and last rows of
 * its event tables (from a scan of a table whose rows are out of time
 * order), and its GPU lanes and biggest kernels from a sample of the
 * kernel table and of the graph replays recorded whole (every row of a
 * small one).  Costs a small share of one scan of the kernel table,
 * whatever its size, when the tables are in time order.
 *
 * Returns: (transfer full): the overview, or %NULL with @error set
 */
WsOverview *
ws_nsys_overview_read (const char *path, const WsOverviewSampling *sampling,
                       GCancellable *cancellable, GError **error)
{
  static const char *const tables[] = { "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                                        "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "OSRT_API" };
  g_autoptr (WsSqlite) sql = NULL;
  g_autoptr (WsOverview) overview = NULL;
  g_autoptr (GHashTable) lanes = NULL;
  g_autoptr (GHashTable) names = NULL;
  Reader reader = { 0 };
  gboolean ok;

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
  reader.overview = overview;
  reader.lanes = lanes;
  reader.names = names;
  sample_init (&reader.kernels, sql, "CUPTI_ACTIVITY_KIND_KERNEL", TRUE);
  sample_init (&reader.replays, sql, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", FALSE);

  /* The samples first: whether their rows are in time order decides how
   * the span is read. */
  ok = (reader.kernels.table == NULL || read_sample (&reader, &reader.kernels, error)) &&
       (reader.replays.table == NULL || read_sample (&reader, &reader.replays, error));
  if (ok)
    {
      widen_span_by (&reader, "CUPTI_ACTIVITY_KIND_KERNEL", &reader.kernels);
      widen_span_by (&reader, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", &reader.replays);
      for (gsize t = 0; t < G_N_ELEMENTS (tables); t++)
        widen_span (&reader, tables[t], NULL);
      if (overview->start > overview->end)
        overview->start = overview->end = 0;
      reader.bin_ns = MAX ((double) (overview->end - overview->start) / WS_OVERVIEW_BINS, 1.0);
      overview->rows = reader.kernels.rows;
      overview->rows_read = reader.kernels.read->len;
      overview->replays = reader.replays.rows;
      overview->replays_read = reader.replays.read->len;
      finish (&reader);
    }
  g_array_unref (reader.kernels.read);
  g_array_unref (reader.replays.read);
  if (!ok)
    return NULL;
  return g_steal_pointer (&overview);
}
