/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-digest"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <unistd.h>

#include "ws-atomic-file.h"
#include "ws-digest-io.h"
#include "ws-digest-private.h"
#include "ws-reader-error.h"

/* Writing a job digest: one SQLite file, written whole into a temporary
 * file beside the target and renamed over it when complete.  The schema
 * is documented in docs/digest.md; keep the two in step (and raise
 * WS_DIGEST_SCHEMA_VERSION when a reader of the old schema would misread
 * the new one). */

static const char schema[] =
  "CREATE TABLE digest (key TEXT PRIMARY KEY, value TEXT);"
  "CREATE TABLE notes (idx INTEGER PRIMARY KEY, text TEXT NOT NULL);"
  "CREATE TABLE ranks ("
  "  id INTEGER PRIMARY KEY, rank INTEGER, file TEXT NOT NULL, path TEXT NOT NULL,"
  "  size INTEGER, mtime_ns INTEGER, checksum TEXT, error TEXT,"
  "  pid INTEGER, process TEXT, host TEXT, job TEXT, gpus TEXT, numbered_by TEXT,"
  "  session_start_ns INTEGER, clock_offset_ns INTEGER, world_size INTEGER,"
  "  command TEXT, env TEXT, thread_rank_name TEXT,"
  "  origin_ns INTEGER, end_ns INTEGER, events INTEGER, seconds REAL,"
  "  gpu_time_ns INTEGER, kernel_ns INTEGER, comm_ns INTEGER, comm_hidden_ns INTEGER,"
  "  wait_ns INTEGER, idle_ns INTEGER, wait_source TEXT, step_pattern TEXT,"
  "  steady_steps INTEGER, step_median_ns REAL, wait_median_ns REAL, work_median_ns REAL,"
  "  scope TEXT, series_start_ns INTEGER, series_bin_ns INTEGER, gpu_busy BLOB, comm BLOB);"
  "CREATE TABLE steps (rank_id INTEGER NOT NULL, idx INTEGER NOT NULL, number INTEGER,"
  "  start_ns INTEGER, end_ns INTEGER, gpu_busy_ns INTEGER, comm_ns INTEGER,"
  "  comm_hidden_ns INTEGER, wait_ns INTEGER, work_ns INTEGER, warmup INTEGER,"
  "  PRIMARY KEY (rank_id, idx));"
  "CREATE TABLE ranges (rank_id INTEGER NOT NULL, idx INTEGER NOT NULL, name TEXT,"
  "  depth INTEGER, per_step_ns REAL, PRIMARY KEY (rank_id, idx));"
  "CREATE TABLE collectives (rank_id INTEGER NOT NULL, idx INTEGER NOT NULL, kind TEXT,"
  "  count INTEGER, total_ns INTEGER, hidden_ns INTEGER, PRIMARY KEY (rank_id, idx));"
  "CREATE TABLE calls (rank_id INTEGER NOT NULL, idx INTEGER NOT NULL, comm INTEGER, kind TEXT,"
  "  start_ns INTEGER, end_ns INTEGER, step INTEGER, PRIMARY KEY (rank_id, idx));"
  "CREATE TABLE summary_rows (rank_id INTEGER NOT NULL, report TEXT NOT NULL,"
  "  idx INTEGER NOT NULL, name TEXT, style TEXT, count INTEGER, total INTEGER,"
  "  min INTEGER, max INTEGER, avg REAL, med REAL, stddev REAL, sketch BLOB,"
  "  PRIMARY KEY (rank_id, report, idx));"
  "CREATE TABLE summary_left_out (rank_id INTEGER NOT NULL, report TEXT NOT NULL,"
  "  rows INTEGER, total INTEGER, PRIMARY KEY (rank_id, report));"
  "CREATE TABLE findings (rank_id INTEGER NOT NULL, idx INTEGER NOT NULL, id TEXT,"
  "  severity TEXT, title TEXT, summary TEXT, rule TEXT, fix TEXT, cost_ns INTEGER,"
  "  PRIMARY KEY (rank_id, idx));"
  "CREATE TABLE finding_evidence (rank_id INTEGER NOT NULL, finding INTEGER NOT NULL,"
  "  idx INTEGER NOT NULL, key TEXT, label TEXT, unit TEXT, value REAL, text TEXT,"
  "  PRIMARY KEY (rank_id, finding, idx));"
  "CREATE TABLE finding_nvtx (rank_id INTEGER NOT NULL, finding INTEGER NOT NULL,"
  "  idx INTEGER NOT NULL, name TEXT, domain TEXT, depth INTEGER, start_ns INTEGER,"
  "  end_ns INTEGER, instances INTEGER, events INTEGER, event_time_ns INTEGER,"
  "  PRIMARY KEY (rank_id, finding, idx));"
  "CREATE TABLE finding_ranges (rank_id INTEGER NOT NULL, finding INTEGER NOT NULL,"
  "  idx INTEGER NOT NULL, start_ns INTEGER, end_ns INTEGER,"
  "  PRIMARY KEY (rank_id, finding, idx));"
  "CREATE TABLE finding_notes (rank_id INTEGER NOT NULL, finding INTEGER NOT NULL,"
  "  idx INTEGER NOT NULL, text TEXT, PRIMARY KEY (rank_id, finding, idx));"
  "CREATE TABLE job_summary_rows (report TEXT NOT NULL, idx INTEGER NOT NULL, name TEXT,"
  "  style TEXT, count INTEGER, total INTEGER, min INTEGER, max INTEGER, avg REAL, med REAL,"
  "  stddev REAL, PRIMARY KEY (report, idx));"
  "CREATE TABLE job_summary_left_out (report TEXT PRIMARY KEY, rows INTEGER, total INTEGER);";

typedef struct
{
  sqlite3 *db;
  const char *name; /* for messages */
  GError **error;
  gboolean failed;
  sqlite3_stmt *stmt[15];
} Writer;

enum
{
  S_DIGEST,
  S_NOTE,
  S_RANK,
  S_STEP,
  S_RANGE,
  S_COLLECTIVE,
  S_ROW,
  S_LEFT_OUT,
  S_FINDING,
  S_EVIDENCE,
  S_NVTX,
  S_FRANGE,
  S_JOB_ROW,
  S_JOB_LEFT_OUT,
  S_CALL,
};

static const char *const inserts[] = {
  [S_DIGEST] = "INSERT INTO digest VALUES (?1, ?2)",
  [S_NOTE] = "INSERT INTO notes VALUES (?1, ?2)",
  [S_RANK] = "INSERT INTO ranks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
             " ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29,"
             " ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41)",
  [S_STEP] = "INSERT INTO steps VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
  [S_RANGE] = "INSERT INTO ranges VALUES (?1, ?2, ?3, ?4, ?5)",
  [S_COLLECTIVE] = "INSERT INTO collectives VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [S_ROW] = "INSERT INTO summary_rows VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
            " ?12, ?13)",
  [S_LEFT_OUT] = "INSERT INTO summary_left_out VALUES (?1, ?2, ?3, ?4)",
  [S_FINDING] = "INSERT INTO findings VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
  [S_EVIDENCE] = "INSERT INTO finding_evidence VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
  [S_NVTX] = "INSERT INTO finding_nvtx VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
  [S_FRANGE] = "INSERT INTO finding_ranges VALUES (?1, ?2, ?3, ?4, ?5)",
  [S_JOB_ROW] = "INSERT INTO job_summary_rows VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                " ?11)",
  [S_JOB_LEFT_OUT] = "INSERT INTO job_summary_left_out VALUES (?1, ?2, ?3)",
  [S_CALL] = "INSERT INTO calls VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
};

G_STATIC_ASSERT (G_N_ELEMENTS (inserts) == 15);

static void
fail (Writer *w, int rc)
{
  if (w->failed)
    return;
  w->failed = TRUE;
  g_set_error (w->error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "%s: cannot write: %s", w->name,
               w->db != NULL ? sqlite3_errmsg (w->db) : sqlite3_errstr (rc));
}

static void
exec (Writer *w, const char *sql)
{
  int rc;

  if (w->failed)
    return;
  rc = sqlite3_exec (w->db, sql, NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    fail (w, rc);
}

/* Binds the values described by @types ('i' gint64, 'd' double, 't' text
 * or NULL, 'b' GBytes or NULL) to statement @which and runs it. */
static void
insert (Writer *w, int which, const char *types, ...)
{
  sqlite3_stmt *stmt = w->stmt[which];
  va_list args;
  int rc;

  if (w->failed)
    return;
  va_start (args, types);
  for (int i = 0; types[i] != '\0'; i++)
    switch (types[i])
      {
        case 'i':
          sqlite3_bind_int64 (stmt, i + 1, va_arg (args, gint64));
          break;
        case 'd':
          sqlite3_bind_double (stmt, i + 1, va_arg (args, double));
          break;
        case 't':
          {
            const char *text = va_arg (args, const char *);

            if (text != NULL)
              sqlite3_bind_text (stmt, i + 1, text, -1, SQLITE_TRANSIENT);
            else
              sqlite3_bind_null (stmt, i + 1);
          }
          break;
        case 'b':
          {
            GBytes *bytes = va_arg (args, GBytes *);
            gsize len = 0;
            gconstpointer data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

            if (bytes != NULL)
              sqlite3_bind_blob64 (stmt, i + 1, len > 0 ? data : "", len, SQLITE_TRANSIENT);
            else
              sqlite3_bind_null (stmt, i + 1);
          }
          break;
        default:
          g_assert_not_reached ();
      }
  va_end (args);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    fail (w, rc);
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
}

static void
put_key (Writer *w, const char *key, const char *value)
{
  insert (w, S_DIGEST, "tt", key, value);
}

static void
put_key_int (Writer *w, const char *key, gint64 value)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, value);

  put_key (w, key, text);
}

static GBytes *
series_bytes (const guint16 *values)
{
  guint8 *data;

  if (values == NULL)
    return NULL;
  /* Little-endian, whatever the machine. */
  data = g_new (guint8, WS_DIGEST_BINS * 2);
  for (guint i = 0; i < WS_DIGEST_BINS; i++)
    {
      data[2 * i] = values[i] & 0xff;
      data[2 * i + 1] = values[i] >> 8;
    }
  return g_bytes_new_take (data, WS_DIGEST_BINS * 2);
}

static void
write_finding (Writer *w, gint64 id, gint64 idx, const WsFinding *f)
{
  insert (w, S_FINDING, "iitttttti", id, idx, f->id, ws_severity_to_string (f->severity), f->title,
          f->summary, f->rule, f->fix, f->cost);
  for (guint i = 0; i < f->evidence->len; i++)
    {
      const WsEvidence *e = g_ptr_array_index (f->evidence, i);

      insert (w, S_EVIDENCE, "iiitttdt", id, idx, (gint64) i, e->key, e->label,
              ws_digest_unit_names[e->unit], e->unit == WS_UNIT_TEXT ? 0.0 : e->value, e->text);
    }
  for (guint i = 0; i < f->nvtx->len; i++)
    {
      const WsFindingNvtx *n = g_ptr_array_index (f->nvtx, i);

      insert (w, S_NVTX, "iiittiiiiii", id, idx, (gint64) i, n->name, n->domain, (gint64) n->depth,
              n->start, n->end, (gint64) n->instances, (gint64) n->events, n->event_time);
    }
  for (guint i = 0; i < f->ranges->len; i++)
    {
      const WsTimeRange *r = &g_array_index (f->ranges, WsTimeRange, i);

      insert (w, S_FRANGE, "iiiii", id, idx, (gint64) i, r->start, r->end);
    }
  for (guint i = 0; i < f->notes->len; i++)
    {
      sqlite3_stmt *stmt = NULL;

      if (w->failed)
        return;
      if (sqlite3_prepare_v2 (w->db, "INSERT INTO finding_notes VALUES (?1, ?2, ?3, ?4)", -1, &stmt,
                              NULL) != SQLITE_OK)
        {
          fail (w, SQLITE_ERROR);
          return;
        }
      sqlite3_bind_int64 (stmt, 1, id);
      sqlite3_bind_int64 (stmt, 2, idx);
      sqlite3_bind_int64 (stmt, 3, i);
      sqlite3_bind_text (stmt, 4, g_ptr_array_index (f->notes, i), -1, SQLITE_TRANSIENT);
      if (sqlite3_step (stmt) != SQLITE_DONE)
        fail (w, SQLITE_ERROR);
      sqlite3_finalize (stmt);
    }
}

static void
write_rank (Writer *w, gint64 id, const WsDigestRank *r)
{
  const WsRankFigures *f = r->figures;
  g_autoptr (GBytes) busy = series_bytes (r->gpu_busy);
  g_autoptr (GBytes) comm = series_bytes (r->comm);
  g_autofree char *env = r->env != NULL ? g_strjoinv ("\n", r->env) : NULL;
  gboolean good = r->error == NULL;

  insert (w, S_RANK, "iittiittitttttiiitttiiidiiiiiittidddtiibb", id,
          good ? (gint64) r->rank.rank : (gint64) -1, r->file, r->path, r->size, r->mtime,
          r->checksum, r->error, (gint64) r->rank.file_pid, r->rank.process, r->rank.host,
          r->rank.job, r->rank.gpus, r->rank.how, r->rank.session_start, r->rank.offset,
          (gint64) r->rank.world_size, r->command, env, r->thread_rank_name, r->origin, r->end_time,
          r->events, r->seconds, f != NULL ? f->gpu_time : 0, f != NULL ? f->kernel_time : 0,
          f != NULL ? f->comm_time : 0, f != NULL ? f->overlap_time : 0,
          f != NULL ? f->wait_time : 0, f != NULL ? f->idle_time : 0,
          f != NULL ? ws_rank_figures_wait_source_string (f->wait_source) : NULL,
          f != NULL ? f->step_pattern : NULL, f != NULL ? (gint64) f->n_steady : 0,
          f != NULL ? f->step_median : 0.0, f != NULL ? f->wait_median : 0.0,
          f != NULL ? f->work_median : 0.0, r->scope, r->series_start, r->series_bin, busy, comm);
  if (!good)
    return;
  /* A bad row has only its file and its error; the rest: */
  for (guint i = 0; f != NULL && i < f->steps->len; i++)
    {
      const WsRankStep *s = &g_array_index (f->steps, WsRankStep, i);

      insert (w, S_STEP, "iiiiiiiiiii", id, (gint64) i, (gint64) s->number, s->start, s->end,
              s->gpu_busy, s->comm, s->overlap, s->wait, s->work, (gint64) s->warmup);
    }
  for (guint i = 0; f != NULL && i < f->ranges->len; i++)
    {
      const WsRankRange *range = &g_array_index (f->ranges, WsRankRange, i);

      insert (w, S_RANGE, "iitid", id, (gint64) i, range->name, (gint64) range->depth,
              range->per_step);
    }
  for (guint i = 0; f != NULL && i < f->collectives->len; i++)
    {
      const WsRankCollective *c = &g_array_index (f->collectives, WsRankCollective, i);

      insert (w, S_COLLECTIVE, "iitiii", id, (gint64) i, c->kind, (gint64) c->count, c->total,
              c->overlap);
    }
  for (guint i = 0; f != NULL && i < f->calls->len; i++)
    {
      const WsRankCall *c = &g_array_index (f->calls, WsRankCall, i);

      insert (w, S_CALL, "iiitiii", id, (gint64) i, (gint64) c->comm, c->kind, c->start, c->end,
              (gint64) c->step);
    }
  for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
    {
      const WsSummary *summary = r->summaries[kind];
      const char *report = ws_summary_kind_to_string (kind);

      if (summary == NULL)
        continue;
      for (guint i = 0; i < summary->rows->len; i++)
        {
          const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);
          const WsSketch *sketch = summary->sketches != NULL && i < summary->sketches->len
                                     ? g_ptr_array_index (summary->sketches, i)
                                     : NULL;
          g_autoptr (GBytes) bytes = sketch != NULL ? ws_sketch_serialize (sketch) : NULL;

          insert (w, S_ROW, "itittiiiidddb", id, report, (gint64) i, row->name, row->style,
                  row->count, row->total, row->min, row->max, row->avg, row->med, row->stddev,
                  bytes);
        }
      insert (w, S_LEFT_OUT, "itii", id, report, r->rows_left_out[kind], r->total_left_out[kind]);
    }
  for (guint i = 0; i < r->findings->len; i++)
    write_finding (w, id, i, g_ptr_array_index (r->findings, i));
}

/* The ranks' summaries merged, as the window opens them (docs/digest.md,
 * "job_summary_rows"). */
static void
write_job_summaries (Writer *w, const WsDigest *d)
{
  put_key (w, "job_summaries", "1");
  for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
    {
      const WsSummary *summary = d->job_summaries[kind];
      const char *report = ws_summary_kind_to_string (kind);

      if (summary == NULL)
        continue;
      for (guint i = 0; i < summary->rows->len; i++)
        {
          const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);

          insert (w, S_JOB_ROW, "tittiiiiddd", report, (gint64) i, row->name, row->style,
                  row->count, row->total, row->min, row->max, row->avg, row->med, row->stddev);
        }
      insert (w, S_JOB_LEFT_OUT, "tii", report, d->job_rows_left_out[kind],
              d->job_total_left_out[kind]);
    }
}

static gboolean
write_db (sqlite3 *db, const char *name, const WsDigest *d, GError **error)
{
  Writer w = { db, name, error, FALSE, { NULL } };
  g_autofree char *pragma =
    g_strdup_printf ("PRAGMA application_id = %d; PRAGMA user_version = %u;",
                     WS_DIGEST_APPLICATION_ID, WS_DIGEST_SCHEMA_VERSION);

  exec (&w, pragma);
  exec (&w, "BEGIN");
  exec (&w, schema);
  for (guint i = 0; i < G_N_ELEMENTS (inserts) && !w.failed; i++)
    {
      int rc = sqlite3_prepare_v2 (db, inserts[i], -1, &w.stmt[i], NULL);

      if (rc != SQLITE_OK)
        fail (&w, rc);
    }
  put_key_int (&w, "schema_version", WS_DIGEST_SCHEMA_VERSION);
  put_key (&w, "created", d->created);
  put_key (&w, "tool", d->tool);
  put_key (&w, "host", d->host);
  put_key (&w, "method", d->method);
  {
    g_autofree char *seconds = g_strdup_printf ("%.3f", d->seconds);

    put_key (&w, "seconds", seconds);
  }
  put_key (&w, "folder", d->folder);
  put_key (&w, "numbered_by", ws_ranks_source_to_string (d->source));
  put_key (&w, "clocks_aligned", d->aligned ? "1" : "0");
  put_key_int (&w, "session_start_spread_ns", d->spread);
  put_key (&w, "job_name", d->job_name);
  put_key_int (&w, "series_bins", WS_DIGEST_BINS);
  put_key (&w, "collective_calls", "1");
  for (guint i = 0; i < d->notes->len; i++)
    insert (&w, S_NOTE, "it", (gint64) i, g_ptr_array_index (d->notes, i));
  for (guint i = 0; i < d->ranks->len; i++)
    write_rank (&w, i + 1, g_ptr_array_index (d->ranks, i));
  if (d->job_summaries_known)
    write_job_summaries (&w, d);
  for (guint i = 0; i < G_N_ELEMENTS (inserts); i++)
    sqlite3_finalize (w.stmt[i]);
  exec (&w, "COMMIT");
  return !w.failed;
}

static sqlite3 *
open_db (const char *path, const char *name, GError **error)
{
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);

  if (rc != SQLITE_OK)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "%s: cannot write: %s", name,
                   db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc));
      sqlite3_close (db);
      return NULL;
    }
  /* One transaction into a file nobody reads until it is renamed: no
   * journal needed. */
  sqlite3_exec (db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;", NULL, NULL, NULL);
  return db;
}

/**
 * ws_digest_write_file:
 * @path: the `.wsdigest` to write
 *
 * Writes @digest into a temporary file beside @path (`.NAME.XXXXXX`), makes
 * it durable, and renames it over @path (ws_atomic_file_commit(): a FIFO
 * or a device gets the bytes in place): an interrupted or failed write
 * leaves @path as it was.
 */
gboolean
ws_digest_write_file (const WsDigest *digest, const char *path, GError **error)
{
  g_autofree char *tmp = NULL;
  sqlite3 *db;
  gboolean ok;
  int fd;

  g_return_val_if_fail (digest != NULL && path != NULL, FALSE);

  tmp = ws_atomic_file_create_temp (path, &fd, error);
  if (tmp == NULL)
    return FALSE;
  db = open_db (tmp, path, error);
  ok = db != NULL && write_db (db, path, digest, error);
  if (db != NULL && sqlite3_close (db) != SQLITE_OK && ok)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "%s: cannot write", path);
      ok = FALSE;
    }
  if (ok && fsync (fd) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      ok = FALSE;
    }
  close (fd);
  if (!ok)
    {
      g_unlink (tmp);
      return FALSE;
    }
  return ws_atomic_file_commit (tmp, path, error);
}

/**
 * ws_digest_ranks_to_bytes:
 * @ranks: (element-type WsDigestRank): the ranks one export gave (one, or
 *   one per process of an export of a whole job)
 *
 * Ranks' parts of a digest as the bytes of a digest of those ranks alone
 * (an SQLite database in memory, serialised): what an MPI process sends
 * the one that writes the file.
 *
 * Returns: (transfer full) (nullable): the bytes, or %NULL with @error set
 */
GBytes *
ws_digest_ranks_to_bytes (GPtrArray *ranks, GError **error)
{
  g_autoptr (WsDigest) some = ws_digest_new ();
  sqlite3 *db;
  sqlite3_int64 size = 0;
  unsigned char *data;
  GBytes *bytes;
  gboolean ok;

  g_return_val_if_fail (ranks != NULL && ranks->len > 0, NULL);

  db = open_db (":memory:", "(a rank's digest)", error);
  if (db == NULL)
    return NULL;
  /* Borrowed for the write only. */
  g_ptr_array_set_free_func (some->ranks, NULL);
  for (guint i = 0; i < ranks->len; i++)
    g_ptr_array_add (some->ranks, g_ptr_array_index (ranks, i));
  ok = write_db (db, "(a rank's digest)", some, error);
  data = ok ? sqlite3_serialize (db, "main", &size, 0) : NULL;
  sqlite3_close (db);
  if (!ok)
    return NULL;
  if (data == NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED,
                   "cannot serialise a rank's digest");
      return NULL;
    }
  bytes = g_bytes_new (data, (gsize) size);
  sqlite3_free (data);
  return bytes;
}

/**
 * ws_digest_rank_to_bytes:
 *
 * One rank's part of a digest as bytes (ws_digest_ranks_to_bytes()).
 *
 * Returns: (transfer full) (nullable): the bytes, or %NULL with @error set
 */
GBytes *
ws_digest_rank_to_bytes (WsDigestRank *rank, GError **error)
{
  g_autoptr (GPtrArray) one = g_ptr_array_new ();

  g_return_val_if_fail (rank != NULL, NULL);

  g_ptr_array_add (one, rank);
  return ws_digest_ranks_to_bytes (one, error);
}
