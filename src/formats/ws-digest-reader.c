/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-digest"
#include "config.h"

#include <string.h>

#include "ws-digest-io.h"
#include "ws-digest-private.h"
#include "ws-file.h"
#include "ws-reader-error.h"
#include "ws-sqlite.h"

/* Reading a job digest (docs/digest.md) back into a WsDigest: every table
 * in one pass ordered by rank, so that a digest of a thousand ranks opens
 * in a fraction of a second. */

typedef struct
{
  sqlite3 *db;
  const char *name;
  WsDigest *digest;
  GHashTable *by_id;    /* rank row id → WsDigestRank * */
  GHashTable *findings; /* (rank row id << 24 | idx) → WsFinding * */
} Reader;

static gboolean
damaged (Reader *r, const char *table, GError **error)
{
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT, "%s: damaged digest (%s: %s)",
               r->name, table, sqlite3_errmsg (r->db));
  return FALSE;
}

static gboolean
invalid (Reader *r, const char *table, const char *what, GError **error)
{
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT, "%s: damaged digest (%s: %s)",
               r->name, table, what);
  return FALSE;
}

static sqlite3_stmt *
prepare (Reader *r, const char *table, const char *sql, GError **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (r->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      if (strstr (sqlite3_errmsg (r->db), "no such") != NULL)
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                     "%s: not a complete Warpscope digest (%s: %s)", r->name, table,
                     sqlite3_errmsg (r->db));
      else
        damaged (r, table, error);
      return NULL;
    }
  return stmt;
}

static char *
text (sqlite3_stmt *stmt, int col)
{
  const unsigned char *value = sqlite3_column_text (stmt, col);

  return value != NULL ? g_strdup ((const char *) value) : NULL;
}

static gint64
i64 (sqlite3_stmt *stmt, int col)
{
  return sqlite3_column_int64 (stmt, col);
}

static WsDigestRank *
rank_of (Reader *r, sqlite3_stmt *stmt)
{
  return g_hash_table_lookup (r->by_id, GINT_TO_POINTER ((gint) i64 (stmt, 0)));
}

static gboolean
read_header (Reader *r, GError **error)
{
  sqlite3_stmt *stmt;
  gint64 app = 0, version = 0;

  stmt = prepare (r, "header", "PRAGMA application_id", error);
  if (stmt == NULL)
    return FALSE;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    app = i64 (stmt, 0);
  sqlite3_finalize (stmt);
  stmt = prepare (r, "header", "PRAGMA user_version", error);
  if (stmt == NULL)
    return FALSE;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    version = i64 (stmt, 0);
  sqlite3_finalize (stmt);
  if (app != WS_DIGEST_APPLICATION_ID)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: an SQLite database, but not a Warpscope digest", r->name);
      return FALSE;
    }
  if (version < 1 || version > WS_DIGEST_SCHEMA_VERSION)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                   "%s: a digest of schema version %" G_GINT64_FORMAT
                   ", which this Warpscope cannot read (it reads version %d): update Warpscope",
                   r->name, version, WS_DIGEST_SCHEMA_VERSION);
      return FALSE;
    }
  r->digest->schema_version = (guint) version;
  return TRUE;
}

static void
set_str (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static gboolean
read_keys (Reader *r, GError **error)
{
  WsDigest *d = r->digest;
  sqlite3_stmt *stmt = prepare (r, "digest", "SELECT key, value FROM digest", error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *key = (const char *) sqlite3_column_text (stmt, 0);
      g_autofree char *value = text (stmt, 1);

      if (key == NULL)
        continue;
      if (g_str_equal (key, "created"))
        set_str (&d->created, value);
      else if (g_str_equal (key, "tool"))
        set_str (&d->tool, value);
      else if (g_str_equal (key, "host"))
        set_str (&d->host, value);
      else if (g_str_equal (key, "method"))
        set_str (&d->method, value);
      else if (g_str_equal (key, "folder"))
        set_str (&d->folder, value);
      else if (g_str_equal (key, "job_name"))
        set_str (&d->job_name, value);
      else if (g_str_equal (key, "seconds") && value != NULL)
        d->seconds = g_ascii_strtod (value, NULL);
      else if (g_str_equal (key, "job_summaries"))
        d->job_summaries_known = g_strcmp0 (value, "1") == 0;
      else if (g_str_equal (key, "collective_calls"))
        d->calls_known = g_strcmp0 (value, "1") == 0;
      else if (g_str_equal (key, "clocks_aligned"))
        d->aligned = g_strcmp0 (value, "1") == 0;
      else if (g_str_equal (key, "session_start_spread_ns") && value != NULL)
        d->spread = g_ascii_strtoll (value, NULL, 10);
      else if (g_str_equal (key, "numbered_by"))
        for (guint s = WS_RANK_BY_NAME; s <= WS_RANK_BY_PROCESS; s++)
          if (g_strcmp0 (value, ws_ranks_source_to_string ((WsRankSource) s)) == 0)
            d->source = (WsRankSource) s;
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return damaged (r, "digest", error);

  stmt = prepare (r, "notes", "SELECT text FROM notes ORDER BY idx", error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      char *note = text (stmt, 0);

      if (note != NULL)
        g_ptr_array_add (d->notes, note);
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE || damaged (r, "notes", error);
}

static guint16 *
read_series (sqlite3_stmt *stmt, int col, gboolean *ok)
{
  const guint8 *data = sqlite3_column_blob (stmt, col);
  int len = sqlite3_column_bytes (stmt, col);
  guint16 *values;

  if (sqlite3_column_type (stmt, col) == SQLITE_NULL)
    return NULL;
  if (len != WS_DIGEST_BINS * 2)
    {
      *ok = FALSE;
      return NULL;
    }
  values = g_new (guint16, WS_DIGEST_BINS);
  for (guint i = 0; i < WS_DIGEST_BINS; i++)
    values[i] = (guint16) (data[2 * i] | (data[2 * i + 1] << 8));
  return values;
}

static WsWaitSource
wait_source (const char *name)
{
  for (guint s = WS_WAIT_NONE; s <= WS_WAIT_CPU; s++)
    if (g_strcmp0 (name, ws_rank_figures_wait_source_string ((WsWaitSource) s)) == 0)
      return (WsWaitSource) s;
  return WS_WAIT_NONE;
}

static gboolean
read_ranks (Reader *r, GError **error)
{
  sqlite3_stmt *stmt = prepare (
    r, "ranks",
    "SELECT id, rank, file, path, size, mtime_ns, checksum, error, pid, process, host, job, gpus,"
    " numbered_by, session_start_ns, clock_offset_ns, world_size, command, env,"
    " thread_rank_name, origin_ns, end_ns, events, seconds, gpu_time_ns, kernel_ns, comm_ns,"
    " comm_hidden_ns, wait_ns, idle_ns, wait_source, step_pattern, steady_steps,"
    " step_median_ns, wait_median_ns, work_median_ns, scope, series_start_ns, series_bin_ns,"
    " gpu_busy, comm FROM ranks ORDER BY id",
    error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsDigestRank *rank = ws_digest_rank_new ();
      gboolean ok = TRUE;
      g_autofree char *env = NULL;

      g_ptr_array_add (r->digest->ranks, rank);
      g_hash_table_insert (r->by_id, GINT_TO_POINTER ((gint) i64 (stmt, 0)), rank);
      rank->file = text (stmt, 2);
      rank->path = text (stmt, 3);
      rank->size = i64 (stmt, 4);
      rank->mtime = i64 (stmt, 5);
      rank->checksum = text (stmt, 6);
      rank->error = text (stmt, 7);
      if (rank->file == NULL || rank->path == NULL)
        {
          sqlite3_finalize (stmt);
          return invalid (r, "ranks", "a rank without its file", error);
        }
      if (rank->error != NULL)
        continue;
      if (i64 (stmt, 1) < 0 || i64 (stmt, 1) > G_MAXUINT32)
        {
          sqlite3_finalize (stmt);
          return invalid (r, "ranks", "a rank number out of range", error);
        }
      rank->rank.rank = (guint) i64 (stmt, 1);
      rank->rank.file = g_strdup (rank->path);
      rank->rank.file_pid = (guint32) i64 (stmt, 8);
      rank->rank.pid = rank->rank.file_pid;
      rank->rank.process = text (stmt, 9);
      rank->rank.host = text (stmt, 10);
      rank->rank.job = text (stmt, 11);
      rank->rank.gpus = text (stmt, 12);
      rank->rank.how = text (stmt, 13);
      rank->rank.session_start = i64 (stmt, 14);
      rank->rank.offset = i64 (stmt, 15);
      rank->rank.world_size = (gint) i64 (stmt, 16);
      rank->command = text (stmt, 17);
      env = text (stmt, 18);
      rank->env = env != NULL ? g_strsplit (env, "\n", -1) : NULL;
      rank->thread_rank_name = text (stmt, 19);
      rank->origin = i64 (stmt, 20);
      rank->end_time = i64 (stmt, 21);
      rank->events = i64 (stmt, 22);
      rank->seconds = sqlite3_column_double (stmt, 23);

      rank->figures = ws_rank_figures_new ();
      rank->figures->rank = rank->rank.rank;
      rank->figures->file = g_strdup (rank->file);
      rank->figures->process = g_strdup (rank->rank.process);
      rank->figures->offset = rank->rank.offset;
      rank->figures->gpu_time = i64 (stmt, 24);
      rank->figures->kernel_time = i64 (stmt, 25);
      rank->figures->comm_time = i64 (stmt, 26);
      rank->figures->overlap_time = i64 (stmt, 27);
      rank->figures->wait_time = i64 (stmt, 28);
      rank->figures->idle_time = i64 (stmt, 29);
      rank->figures->wait_source = wait_source ((const char *) sqlite3_column_text (stmt, 30));
      rank->figures->step_pattern = text (stmt, 31);
      rank->figures->n_steady = (guint) CLAMP (i64 (stmt, 32), 0, G_MAXUINT);
      rank->figures->step_median = sqlite3_column_double (stmt, 33);
      rank->figures->wait_median = sqlite3_column_double (stmt, 34);
      rank->figures->work_median = sqlite3_column_double (stmt, 35);
      rank->scope = text (stmt, 36);
      rank->series_start = i64 (stmt, 37);
      rank->series_bin = i64 (stmt, 38);
      rank->gpu_busy = read_series (stmt, 39, &ok);
      rank->comm = read_series (stmt, 40, &ok);
      if (!ok || rank->series_bin < 0)
        {
          sqlite3_finalize (stmt);
          return invalid (r, "ranks", "a time series of the wrong length", error);
        }
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE || damaged (r, "ranks", error);
}

static gboolean
read_figures (Reader *r, GError **error)
{
  sqlite3_stmt *stmt;
  int rc;

  stmt = prepare (r, "steps",
                  "SELECT rank_id, number, start_ns, end_ns, gpu_busy_ns, comm_ns, comm_hidden_ns,"
                  " wait_ns, work_ns, warmup FROM steps ORDER BY rank_id, idx",
                  error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsDigestRank *rank = rank_of (r, stmt);
      WsRankStep step = { 0 };

      if (rank == NULL || rank->figures == NULL)
        continue;
      step.number = (guint) CLAMP (i64 (stmt, 1), 0, G_MAXUINT);
      step.start = i64 (stmt, 2);
      step.end = i64 (stmt, 3);
      step.gpu_busy = i64 (stmt, 4);
      step.comm = i64 (stmt, 5);
      step.overlap = i64 (stmt, 6);
      step.wait = i64 (stmt, 7);
      step.work = i64 (stmt, 8);
      step.warmup = i64 (stmt, 9) != 0;
      g_array_append_val (rank->figures->steps, step);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return damaged (r, "steps", error);

  stmt =
    prepare (r, "ranges",
             "SELECT rank_id, name, depth, per_step_ns FROM ranges ORDER BY rank_id, idx", error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsDigestRank *rank = rank_of (r, stmt);
      WsRankRange range;

      if (rank == NULL || rank->figures == NULL)
        continue;
      range.name = text (stmt, 1);
      if (range.name == NULL)
        range.name = g_strdup ("");
      range.depth = (guint) CLAMP (i64 (stmt, 2), 0, G_MAXUINT);
      range.per_step = sqlite3_column_double (stmt, 3);
      g_array_append_val (rank->figures->ranges, range);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return damaged (r, "ranges", error);

  stmt = prepare (
    r, "collectives",
    "SELECT rank_id, kind, count, total_ns, hidden_ns FROM collectives ORDER BY rank_id, idx",
    error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsDigestRank *rank = rank_of (r, stmt);
      WsRankCollective c;

      if (rank == NULL || rank->figures == NULL)
        continue;
      c.kind = text (stmt, 1);
      if (c.kind == NULL)
        c.kind = g_strdup ("");
      c.count = (guint64) MAX (i64 (stmt, 2), 0);
      c.total = i64 (stmt, 3);
      c.overlap = i64 (stmt, 4);
      g_array_append_val (rank->figures->collectives, c);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return damaged (r, "collectives", error);
  if (!r->digest->calls_known)
    return TRUE;

  stmt = prepare (
    r, "calls",
    "SELECT rank_id, comm, kind, start_ns, end_ns, step FROM calls ORDER BY rank_id, idx", error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsDigestRank *rank = rank_of (r, stmt);
      WsRankCall c;
      const char *kind = (const char *) sqlite3_column_text (stmt, 2);

      if (rank == NULL || rank->figures == NULL)
        continue;
      c.comm = (guint) CLAMP (i64 (stmt, 1), 0, G_MAXUINT);
      c.kind = g_intern_string (kind != NULL ? kind : "");
      c.start = i64 (stmt, 3);
      c.end = i64 (stmt, 4);
      c.step = (gint) CLAMP (i64 (stmt, 5), -1, G_MAXINT);
      g_array_append_val (rank->figures->calls, c);
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE || damaged (r, "calls", error);
}

/* Each row's share of all the rank's rows, those left out included. */
static void
finish_summary (WsSummary *summary, gint64 left_out)
{
  ws_summary_finish (summary);
  if (left_out <= 0)
    return;
  summary->grand_total += left_out;
  for (guint i = 0; i < summary->rows->len; i++)
    {
      WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);

      row->percent = (double) row->total / (double) summary->grand_total * 100.0;
    }
}

static gboolean
read_summaries (Reader *r, GError **error)
{
  sqlite3_stmt *stmt;
  int rc;

  stmt = prepare (r, "summary_left_out",
                  "SELECT rank_id, report, rows, total FROM summary_left_out", error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsDigestRank *rank = rank_of (r, stmt);
      WsSummaryKind kind;

      if (rank == NULL ||
          !ws_summary_kind_from_string ((const char *) sqlite3_column_text (stmt, 1), &kind))
        continue;
      rank->rows_left_out[kind] = i64 (stmt, 2);
      rank->total_left_out[kind] = i64 (stmt, 3);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return damaged (r, "summary_left_out", error);

  stmt = prepare (r, "summary_rows",
                  "SELECT rank_id, report, name, style, count, total, min, max, avg, med, stddev,"
                  " sketch FROM summary_rows ORDER BY rank_id, report, idx",
                  error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsDigestRank *rank = rank_of (r, stmt);
      WsSummaryRow row = { 0 };
      WsSummaryKind kind;
      WsSketch *sketch;

      if (rank == NULL || rank->error != NULL ||
          !ws_summary_kind_from_string ((const char *) sqlite3_column_text (stmt, 1), &kind))
        continue;
      sketch = ws_sketch_deserialize (sqlite3_column_blob (stmt, 11),
                                      (gsize) sqlite3_column_bytes (stmt, 11));
      if (sketch == NULL)
        {
          sqlite3_finalize (stmt);
          return invalid (r, "summary_rows", "a damaged sketch", error);
        }
      if (rank->summaries[kind] == NULL)
        {
          rank->summaries[kind] = ws_summary_new_sketched (kind);
          rank->summaries[kind]->name_form = WS_NAME_DEMANGLED;
        }
      row.name = text (stmt, 2);
      if (row.name == NULL)
        row.name = g_strdup ("");
      row.style = text (stmt, 3);
      row.name_id = WS_STRING_NONE;
      row.count = i64 (stmt, 4);
      row.total = i64 (stmt, 5);
      row.min = i64 (stmt, 6);
      row.max = i64 (stmt, 7);
      row.avg = sqlite3_column_double (stmt, 8);
      row.med = sqlite3_column_double (stmt, 9);
      row.stddev = sqlite3_column_double (stmt, 10);
      g_array_append_val (rank->summaries[kind]->rows, row);
      g_ptr_array_add (rank->summaries[kind]->sketches, sketch);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return damaged (r, "summary_rows", error);
  for (guint i = 0; i < r->digest->ranks->len; i++)
    {
      WsDigestRank *rank = g_ptr_array_index (r->digest->ranks, i);

      for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
        if (rank->summaries[kind] != NULL)
          finish_summary (rank->summaries[kind], rank->total_left_out[kind]);
    }
  return TRUE;
}

/* The ranks' summaries merged when the digest was written: a few hundred
 * rows, where the ranks' own are a hundred thousand. */
static gboolean
read_job_summaries (Reader *r, GError **error)
{
  WsDigest *d = r->digest;
  sqlite3_stmt *stmt;
  int rc;

  stmt = prepare (r, "job_summary_left_out", "SELECT report, rows, total FROM job_summary_left_out",
                  error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsSummaryKind kind;

      if (!ws_summary_kind_from_string ((const char *) sqlite3_column_text (stmt, 0), &kind))
        continue;
      d->job_rows_left_out[kind] = i64 (stmt, 1);
      d->job_total_left_out[kind] = i64 (stmt, 2);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return damaged (r, "job_summary_left_out", error);

  stmt = prepare (r, "job_summary_rows",
                  "SELECT report, name, style, count, total, min, max, avg, med, stddev"
                  " FROM job_summary_rows ORDER BY report, idx",
                  error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsSummaryRow row = { 0 };
      WsSummaryKind kind;

      if (!ws_summary_kind_from_string ((const char *) sqlite3_column_text (stmt, 0), &kind))
        continue;
      if (d->job_summaries[kind] == NULL)
        {
          d->job_summaries[kind] = ws_summary_new (kind);
          d->job_summaries[kind]->name_form = WS_NAME_DEMANGLED;
        }
      row.name = text (stmt, 1);
      if (row.name == NULL)
        row.name = g_strdup ("");
      row.style = text (stmt, 2);
      row.name_id = WS_STRING_NONE;
      row.count = i64 (stmt, 3);
      row.total = i64 (stmt, 4);
      row.min = i64 (stmt, 5);
      row.max = i64 (stmt, 6);
      row.avg = sqlite3_column_double (stmt, 7);
      row.med = sqlite3_column_double (stmt, 8);
      row.stddev = sqlite3_column_double (stmt, 9);
      g_array_append_val (d->job_summaries[kind]->rows, row);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return damaged (r, "job_summary_rows", error);
  for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
    if (d->job_summaries[kind] != NULL)
      finish_summary (d->job_summaries[kind], d->job_total_left_out[kind]);
  return TRUE;
}

static gpointer
finding_key (gint64 rank_id, gint64 idx)
{
  return GSIZE_TO_POINTER (((gsize) rank_id << 24) | ((gsize) idx & 0xffffff));
}

static WsFinding *
finding_of (Reader *r, sqlite3_stmt *stmt)
{
  return g_hash_table_lookup (r->findings, finding_key (i64 (stmt, 0), i64 (stmt, 1)));
}

/* The findings of each rank, by (rank, index) in r->findings. */
static gboolean
read_finding_rows (Reader *r, GError **error)
{
  sqlite3_stmt *stmt;
  int rc;

  stmt = prepare (r, "findings",
                  "SELECT rank_id, idx, id, severity, title, summary, rule, fix, cost_ns"
                  " FROM findings ORDER BY rank_id, idx",
                  error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsDigestRank *rank = rank_of (r, stmt);
      const char *id = (const char *) sqlite3_column_text (stmt, 2);
      WsFinding *finding;

      if (rank == NULL || rank->error != NULL || id == NULL)
        continue;
      finding = ws_finding_new (id);
      if (!ws_digest_severity_from_name ((const char *) sqlite3_column_text (stmt, 3),
                                         &finding->severity))
        {
          ws_finding_unref (finding);
          sqlite3_finalize (stmt);
          return invalid (r, "findings", "an unknown severity", error);
        }
      finding->title = text (stmt, 4);
      finding->summary = text (stmt, 5);
      finding->rule = text (stmt, 6);
      finding->fix = text (stmt, 7);
      finding->cost = i64 (stmt, 8);
      g_ptr_array_add (rank->findings, finding);
      g_hash_table_insert (r->findings, finding_key (i64 (stmt, 0), i64 (stmt, 1)), finding);
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE || damaged (r, "findings", error);
}

static gboolean
read_finding_evidence (Reader *r, GError **error)
{
  sqlite3_stmt *stmt;
  int rc;

  stmt = prepare (r, "finding_evidence",
                  "SELECT rank_id, finding, key, label, unit, value, text FROM finding_evidence"
                  " ORDER BY rank_id, finding, idx",
                  error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsFinding *finding = finding_of (r, stmt);
      g_autofree char *key = text (stmt, 2);
      g_autofree char *label = text (stmt, 3);
      WsUnit unit;

      if (finding == NULL || key == NULL)
        continue;
      if (!ws_digest_unit_from_name ((const char *) sqlite3_column_text (stmt, 4), &unit))
        {
          sqlite3_finalize (stmt);
          return invalid (r, "finding_evidence", "an unknown unit", error);
        }
      if (unit == WS_UNIT_TEXT)
        ws_finding_add_evidence_text (finding, key, label != NULL ? label : key,
                                      (const char *) sqlite3_column_text (stmt, 6));
      else
        ws_finding_add_evidence (finding, key, label != NULL ? label : key, unit,
                                 sqlite3_column_double (stmt, 5));
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE || damaged (r, "finding_evidence", error);
}

static gboolean
read_finding_nvtx (Reader *r, GError **error)
{
  sqlite3_stmt *stmt;
  int rc;

  stmt = prepare (r, "finding_nvtx",
                  "SELECT rank_id, finding, name, domain, depth, start_ns, end_ns, instances,"
                  " events, event_time_ns FROM finding_nvtx ORDER BY rank_id, finding, idx",
                  error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsFinding *finding = finding_of (r, stmt);
      WsFindingNvtx *nvtx;

      if (finding == NULL)
        continue;
      nvtx = g_new0 (WsFindingNvtx, 1);
      nvtx->name = text (stmt, 2);
      nvtx->domain = text (stmt, 3);
      if (nvtx->name == NULL)
        nvtx->name = g_strdup ("");
      if (nvtx->domain == NULL)
        nvtx->domain = g_strdup ("");
      nvtx->depth = (guint) CLAMP (i64 (stmt, 4), 0, G_MAXUINT);
      nvtx->start = i64 (stmt, 5);
      nvtx->end = i64 (stmt, 6);
      nvtx->instances = (guint) CLAMP (i64 (stmt, 7), 0, G_MAXUINT);
      nvtx->events = (guint) CLAMP (i64 (stmt, 8), 0, G_MAXUINT);
      nvtx->event_time = i64 (stmt, 9);
      g_ptr_array_add (finding->nvtx, nvtx);
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE || damaged (r, "finding_nvtx", error);
}

/* The time ranges and notes of the findings. */
static gboolean
read_finding_ranges_and_notes (Reader *r, GError **error)
{
  sqlite3_stmt *stmt;
  int rc;

  stmt = prepare (r, "finding_ranges",
                  "SELECT rank_id, finding, start_ns, end_ns FROM finding_ranges"
                  " ORDER BY rank_id, finding, idx",
                  error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsFinding *finding = finding_of (r, stmt);

      if (finding != NULL)
        ws_finding_add_range (finding, i64 (stmt, 2), i64 (stmt, 3));
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return damaged (r, "finding_ranges", error);

  stmt = prepare (r, "finding_notes",
                  "SELECT rank_id, finding, text FROM finding_notes ORDER BY rank_id, finding, idx",
                  error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsFinding *finding = finding_of (r, stmt);
      const char *note = (const char *) sqlite3_column_text (stmt, 2);

      if (finding != NULL && note != NULL)
        ws_finding_add_note (finding, note);
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE || damaged (r, "finding_notes", error);
}

static gboolean
read_findings (Reader *r, GError **error)
{
  return read_finding_rows (r, error) && read_finding_evidence (r, error) &&
         read_finding_nvtx (r, error) && read_finding_ranges_and_notes (r, error);
}

static WsDigest *
read_db (sqlite3 *db, const char *name, WsDigestRead what, GError **error)
{
  g_autoptr (WsDigest) digest = ws_digest_new ();
  g_autoptr (GHashTable) by_id = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) findings = g_hash_table_new (NULL, NULL);
  Reader r = { db, name, digest, by_id, findings };

  if (!read_header (&r, error) || !read_keys (&r, error) || !read_ranks (&r, error) ||
      !read_figures (&r, error))
    return NULL;
  if (digest->job_summaries_known && !read_job_summaries (&r, error))
    return NULL;
  /* Without the job's summaries, the ranks' are what merges them. */
  digest->rank_summaries_read =
    (what & WS_DIGEST_READ_RANK_SUMMARIES) != 0 || !digest->job_summaries_known;
  if (digest->rank_summaries_read && !read_summaries (&r, error))
    return NULL;
  if (!read_findings (&r, error))
    return NULL;
  return g_steal_pointer (&digest);
}

/**
 * ws_digest_sniff:
 *
 * Whether @path is an SQLite file that says it is a Warpscope digest (its
 * application id), from its first 100 bytes.
 */
gboolean
ws_digest_sniff (const char *path)
{
  guint8 head[100];
  gssize got = ws_file_read_head (path, head, sizeof head, NULL);

  return got == sizeof head && memcmp (head, "SQLite format 3", 16) == 0 &&
         (((guint32) head[68] << 24) | ((guint32) head[69] << 16) | ((guint32) head[70] << 8) |
          head[71]) == WS_DIGEST_APPLICATION_ID;
}

/**
 * ws_digest_read_file:
 * @what: what to read besides the ranks, their figures, findings and the
 *   job's merged summaries
 *
 * Reads a `.wsdigest` file, read-only and `immutable`.
 *
 * Returns: (transfer full): the digest, or %NULL with @error set (one line
 * naming the file)
 */
WsDigest *
ws_digest_read_file (const char *path, WsDigestRead what, GCancellable *cancellable, GError **error)
{
  g_autoptr (WsSqlite) sql = NULL;
  WsDigest *digest;

  g_return_val_if_fail (path != NULL, NULL);

  sql = ws_sqlite_open (path, cancellable, error);
  if (sql == NULL)
    return NULL;
  digest = read_db (sql->db, path, what, error);
  if (digest != NULL)
    digest->path = g_strdup (path);
  return digest;
}

/**
 * ws_digest_ranks_from_bytes:
 *
 * Returns: (transfer full) (element-type WsDigestRank): the ranks that
 * ws_digest_ranks_to_bytes() wrote, one or more, or %NULL with @error set
 */
GPtrArray *
ws_digest_ranks_from_bytes (GBytes *bytes, GError **error)
{
  g_autoptr (WsDigest) digest = NULL;
  sqlite3 *db = NULL;
  unsigned char *copy;
  gsize len;
  gconstpointer data = g_bytes_get_data (bytes, &len);

  if (sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
    {
      sqlite3_close (db);
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "cannot open SQLite in memory");
      return NULL;
    }
  copy = sqlite3_malloc64 (MAX (len, 1));
  if (copy == NULL)
    {
      sqlite3_close (db);
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "out of memory");
      return NULL;
    }
  memcpy (copy, data, len);
  if (sqlite3_deserialize (db, "main", copy, (sqlite3_int64) len, (sqlite3_int64) len,
                           SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY) !=
      SQLITE_OK)
    {
      sqlite3_close (db);
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT, "a rank's digest is damaged");
      return NULL;
    }
  digest = read_db (db, "(a rank's digest)", WS_DIGEST_READ_RANK_SUMMARIES, error);
  sqlite3_close (db);
  if (digest == NULL)
    return NULL;
  if (digest->ranks->len == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT,
                   "a rank's digest holds no rank");
      return NULL;
    }
  return g_ptr_array_ref (digest->ranks);
}

/**
 * ws_digest_rank_from_bytes:
 *
 * Returns: (transfer full): the rank that ws_digest_rank_to_bytes() wrote,
 * or %NULL with @error set
 */
WsDigestRank *
ws_digest_rank_from_bytes (GBytes *bytes, GError **error)
{
  g_autoptr (GPtrArray) ranks = ws_digest_ranks_from_bytes (bytes, error);

  if (ranks == NULL)
    return NULL;
  if (ranks->len != 1)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT,
                   "a rank's digest holds %u ranks", ranks->len);
      return NULL;
    }
  return g_ptr_array_steal_index (ranks, 0);
}
