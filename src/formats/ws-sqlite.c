/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-sqlite"
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ws-file.h"
#include "ws-reader-error.h"
#include "ws-sqlite.h"

#define SQLITE_MAGIC "SQLite format 3"
#define SQLITE_HEADER_SIZE 100

static guint32
read_be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

static gboolean
looks_like_text (const guint8 *buf, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (buf[i] == 0 || (buf[i] < 0x20 && buf[i] != '\n' && buf[i] != '\r' && buf[i] != '\t'))
      return FALSE;
  return g_utf8_validate ((const char *) buf, len, NULL) || len == SQLITE_HEADER_SIZE;
}

/* Reads the 100-byte header: what SQLite itself would only report as
 * "file is not a database" or "malformed" we can name precisely. */
gboolean
ws_sqlite_check_header (const char *path, GError **error)
{
  guint8 header[SQLITE_HEADER_SIZE];
  GStatBuf st;
  gssize got;
  guint32 page_size;
  guint32 pages;

  if (!ws_file_stat (path, &st, error))
    return FALSE;
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: a folder, not an Nsight Systems export", path);
      return FALSE;
    }
  if (!ws_file_check_not_empty (path, &st, error))
    return FALSE;

  got = ws_file_read_head (path, header, sizeof header, error);
  if (got < 0)
    return FALSE;

  if (memcmp (header, SQLITE_MAGIC, MIN ((gsize) got, sizeof SQLITE_MAGIC)) != 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_SQLITE,
                   looks_like_text (header, got)
                     ? "%s: not an SQLite database (it is a text file)"
                     : "%s: not an SQLite database (its first bytes are not an SQLite header)",
                   path);
      return FALSE;
    }
  if (got < SQLITE_HEADER_SIZE)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TRUNCATED,
                   "%s: truncated SQLite file (%" G_GSSIZE_FORMAT
                   " bytes, shorter than the 100-byte header)",
                   path, got);
      return FALSE;
    }

  page_size = ((guint32) header[16] << 8) | header[17];
  if (page_size == 1)
    page_size = 65536;
  if (page_size < 512 || page_size > 65536 || (page_size & (page_size - 1)) != 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT,
                   "%s: corrupt SQLite header (page size %u)", path, page_size);
      return FALSE;
    }
  if (st.st_size % page_size != 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TRUNCATED,
                   "%s: truncated: %" G_GINT64_FORMAT
                   " bytes is not a whole number of %u-byte pages",
                   path, (gint64) st.st_size, page_size);
      return FALSE;
    }

  /* The in-header page count is valid only when its change counter matches. */
  pages = read_be32 (header + 28);
  if (pages > 0 && read_be32 (header + 24) == read_be32 (header + 92) &&
      (guint64) pages * page_size > (guint64) st.st_size)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TRUNCATED,
                   "%s: truncated: the header says %u pages (%" G_GUINT64_FORMAT
                   " bytes) but the file has %" G_GINT64_FORMAT " bytes",
                   path, pages, (guint64) pages * page_size, (gint64) st.st_size);
      return FALSE;
    }

  return TRUE;
}

static int
progress_handler (gpointer data)
{
  WsSqlite *self = data;

  return g_cancellable_is_cancelled (self->cancellable) ? 1 : 0;
}

void
ws_sqlite_set_error (WsSqlite *self, int rc, const char *table, GError **error)
{
  const char *msg = self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc);
  g_autofree char *where =
    table != NULL ? g_strdup_printf (" while reading %s", table) : g_strdup ("");

  switch (rc & 0xff)
    {
      case SQLITE_INTERRUPT:
        if (g_cancellable_is_cancelled (self->cancellable))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s: loading was cancelled",
                         self->path);
            return;
          }
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "%s: interrupted%s",
                     self->path, where);
        return;
      case SQLITE_CORRUPT:
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT,
                     "%s: the database is corrupt (%s)%s", self->path, msg, where);
        return;
      case SQLITE_NOTADB:
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_SQLITE,
                     "%s: not an SQLite database (%s)", self->path, msg);
        return;
      case SQLITE_NOMEM:
      case SQLITE_TOOBIG:
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE, "%s: out of memory%s",
                     self->path, where);
        return;
      case SQLITE_IOERR:
        if (rc == SQLITE_IOERR_SHORT_READ)
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TRUNCATED,
                       "%s: truncated (a page ends early)%s", self->path, where);
        else
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "%s: read error (%s)%s",
                       self->path, msg, where);
        return;
      case SQLITE_CANTOPEN:
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NOT_FOUND, "%s: cannot open (%s)",
                     self->path, msg);
        return;
      case SQLITE_ERROR:
        if (strstr (msg, "malformed") != NULL)
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT,
                       "%s: the database is corrupt (%s)%s", self->path, msg, where);
        else
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA, "%s: %s%s", self->path, msg,
                       where);
        return;
      default:
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED, "%s: SQLite error (%s)%s",
                     self->path, msg, where);
        return;
    }
}

void
ws_sqlite_close (WsSqlite *self)
{
  if (self == NULL)
    return;
  if (self->db != NULL)
    sqlite3_close_v2 (self->db);
  g_clear_pointer (&self->tables, g_hash_table_unref);
  g_clear_pointer (&self->views, g_hash_table_unref);
  g_clear_object (&self->cancellable);
  g_free (self->path);
  g_free (self);
}

static gboolean
list_tables (WsSqlite *self, GError **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = ws_sqlite_prepare (
    self, "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view')", error);
  if (stmt == NULL)
    return FALSE;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *type = (const char *) sqlite3_column_text (stmt, 0);
      const char *name = (const char *) sqlite3_column_text (stmt, 1);

      if (type == NULL || name == NULL)
        continue;
      /* A view named like an nsys table is not one: never read it. */
      if (g_str_equal (type, "view"))
        g_hash_table_add (self->views, g_strdup (name));
      else
        g_hash_table_insert (self->tables, g_strdup (name), NULL);
    }
  if (rc != SQLITE_DONE)
    {
      ws_sqlite_set_error (self, rc, "sqlite_master", error);
      return FALSE;
    }
  return TRUE;
}

static void
columns_free (gpointer data)
{
  if (data != NULL)
    g_hash_table_unref (data);
}

/* An immutable connection reads the main file alone: what a write-ahead
 * log beside it holds (rows added or deleted, not yet checkpointed) would
 * be silently missing, and reading it would mean writing a -shm file
 * beside the user's.  So a log that is not empty is named instead. */
static gboolean
check_no_wal (const char *path, GError **error)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  GStatBuf st;

  if (g_stat (wal, &st) != 0 || st.st_size == 0)
    return TRUE;
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED,
               _ ("%1$s: a write-ahead log beside it (%2$s, %3$lld bytes) holds changes not yet "
                  "in the file; checkpoint it first (sqlite3 FILE "
                  "'PRAGMA wal_checkpoint(TRUNCATE)')"),
               path, wal, (long long) st.st_size);
  return FALSE;
}

/**
 * ws_sqlite_is_view:
 *
 * Returns: whether @name is a view of the file: views are never read (they
 *   would run the file's own SQL), so a view where a table belongs is said
 */
gboolean
ws_sqlite_is_view (WsSqlite *self, const char *name)
{
  return g_hash_table_contains (self->views, name);
}

/* Opens @self->path: read-only and immutable (no locking and no journal,
 * so SQLite never writes or creates anything next to the user's file),
 * and safe against what a hostile file may hold. */
static gboolean
connect (WsSqlite *self, GError **error)
{
  g_autofree char *absolute = g_canonicalize_filename (self->path, NULL);
  g_autofree char *escaped = g_uri_escape_string (absolute, "/", TRUE);
  g_autofree char *uri = g_strdup_printf ("file:%s?mode=ro&immutable=1", escaped);
  int rc;

  /* NOMUTEX: a connection is used by one thread at a time (each reader
   * and each of its workers opens its own), and the serialized mode's
   * mutex around every sqlite3_column_*() call was half of what reading a
   * table cost. */
  rc = sqlite3_open_v2 (uri, &self->db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK)
    {
      ws_sqlite_set_error (self, rc, NULL, error);
      return FALSE;
    }

  sqlite3_extended_result_codes (self->db, 1);
  /* A hostile file must not run functions from its schema (views, triggers). */
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
  sqlite3_limit (self->db, SQLITE_LIMIT_LENGTH, 64 * 1024 * 1024);
  sqlite3_progress_handler (self->db, 20000, progress_handler, self);
  sqlite3_exec (self->db, "PRAGMA cell_size_check = ON", NULL, NULL, NULL);
  return TRUE;
}

/**
 * ws_sqlite_open:
 *
 * Opens @path read-only and immutable after checking its header, and lists
 * its tables.
 *
 * Returns: (transfer full): the connection, or %NULL with @error set.
 */
WsSqlite *
ws_sqlite_open (const char *path, GCancellable *cancellable, GError **error)
{
  g_autoptr (WsSqlite) self = NULL;

  if (!ws_sqlite_check_header (path, error) || !check_no_wal (path, error))
    return NULL;

  self = g_new0 (WsSqlite, 1);
  self->path = g_strdup (path);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  self->tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, columns_free);
  self->views = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!connect (self, error) || !list_tables (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * ws_sqlite_open_worker:
 *
 * Opens the file of @parent once more, for a thread of its own: the same
 * read-only, immutable connection, sharing @parent's cancellable, without
 * listing the tables again (a worker runs SQL its parent has built).
 *
 * Returns: (transfer full): the connection, or %NULL with @error set.
 */
WsSqlite *
ws_sqlite_open_worker (WsSqlite *parent, GError **error)
{
  g_autoptr (WsSqlite) self = g_new0 (WsSqlite, 1);

  self->path = g_strdup (parent->path);
  self->cancellable = g_object_ref (parent->cancellable);
  self->tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, columns_free);
  self->views = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (!connect (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
is_version_suffix (const char *suffix)
{
  /* "_V2", "_V3", …: some tools have written suffixed table names. */
  if (suffix[0] != '_' || suffix[1] != 'V' || suffix[2] == '\0')
    return FALSE;
  for (const char *p = suffix + 2; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/* "_V10" is newer than "_V9": by number, then (leading zeros) by text. */
static int
compare_versions (const char *a, const char *b)
{
  guint64 x = g_ascii_strtoull (a + 2, NULL, 10), y = g_ascii_strtoull (b + 2, NULL, 10);

  if (x != y)
    return x > y ? 1 : -1;
  return strcmp (a, b);
}

/**
 * ws_sqlite_find_table:
 *
 * Returns: (transfer none) (nullable): the name under which the file holds
 * @name: the name itself, or the `_Vn` suffixed variant with the highest n,
 * or %NULL.
 */
const char *
ws_sqlite_find_table (WsSqlite *self, const char *name)
{
  GHashTableIter iter;
  gpointer key;
  const char *best = NULL;
  gsize len = strlen (name);

  if (g_hash_table_lookup_extended (self->tables, name, &key, NULL))
    return key;

  g_hash_table_iter_init (&iter, self->tables);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *candidate = key;

      if (strncmp (candidate, name, len) == 0 && is_version_suffix (candidate + len) &&
          (best == NULL || compare_versions (candidate + len, best + len) > 0))
        best = candidate;
    }
  return best;
}

static GHashTable *
table_columns (WsSqlite *self, const char *table)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *sql = NULL;
  gpointer key;
  GHashTable *columns;

  if (!g_hash_table_lookup_extended (self->tables, table, &key, (gpointer *) &columns))
    return NULL;
  if (columns != NULL)
    return columns;

  columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  sql = sqlite3_mprintf ("SELECT name FROM pragma_table_info(%Q)", table);
  if (sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL) == SQLITE_OK)
    while (sqlite3_step (stmt) == SQLITE_ROW)
      {
        const char *name = (const char *) sqlite3_column_text (stmt, 0);

        if (name != NULL)
          g_hash_table_add (columns, g_strdup (name));
      }
  sqlite3_free (g_steal_pointer (&sql));
  g_hash_table_insert (self->tables, g_strdup (table), columns);
  return columns;
}

gboolean
ws_sqlite_has_column (WsSqlite *self, const char *table, const char *column)
{
  GHashTable *columns = table_columns (self, table);

  return columns != NULL && g_hash_table_contains (columns, column);
}

/**
 * ws_sqlite_column_or:
 *
 * Returns: (transfer full): @column quoted for SQL if @table has it, else
 * @fallback (an SQL expression such as "NULL").
 */
char *
ws_sqlite_column_or (WsSqlite *self, const char *table, const char *column, const char *fallback)
{
  if (ws_sqlite_has_column (self, table, column))
    return g_strdup_printf ("\"%s\"", column);
  return g_strdup (fallback);
}

/**
 * ws_sqlite_rowid_span:
 *
 * The smallest and largest rowid of @table: two b-tree lookups, where
 * count(*) reads every page.  @last - @first + 1 bounds the rows.
 *
 * Returns: FALSE when the rowids say nothing: a table without rowids, one
 * with a column named like the rowid, an empty table, negative rowids.
 */
gboolean
ws_sqlite_rowid_span (WsSqlite *self, const char *table, gint64 *first, gint64 *last)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  char *sql;
  GHashTable *columns = table_columns (self, table);
  GHashTableIter iter;
  gpointer name;

  if (columns == NULL)
    return FALSE;
  /* A column of that name, in any case, would be read instead. */
  g_hash_table_iter_init (&iter, columns);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    if (g_ascii_strcasecmp (name, "rowid") == 0)
      return FALSE;
  /* Each in a query of its own: SQLite looks min() or max() up in the
   * b-tree only when it is a query's sole aggregate. */
  sql = sqlite3_mprintf ("SELECT (SELECT min(rowid) FROM \"%w\"), (SELECT max(rowid) FROM \"%w\")",
                         table, table);
  stmt = ws_sqlite_prepare (self, sql, NULL);
  sqlite3_free (sql);
  if (stmt == NULL || sqlite3_step (stmt) != SQLITE_ROW ||
      sqlite3_column_type (stmt, 0) != SQLITE_INTEGER ||
      sqlite3_column_type (stmt, 1) != SQLITE_INTEGER)
    return FALSE;
  *first = sqlite3_column_int64 (stmt, 0);
  *last = sqlite3_column_int64 (stmt, 1);
  return *first >= 0 && *last >= *first && *last < G_MAXINT64;
}

gboolean
ws_sqlite_count (WsSqlite *self, const char *table, gint64 *rows, GError **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  char *sql;
  int rc;

  sql = sqlite3_mprintf ("SELECT count(*) FROM \"%w\"", table);
  stmt = ws_sqlite_prepare (self, sql, error);
  sqlite3_free (sql);
  if (stmt == NULL)
    return FALSE;

  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      ws_sqlite_set_error (self, rc, table, error);
      return FALSE;
    }
  *rows = sqlite3_column_int64 (stmt, 0);
  return TRUE;
}

/**
 * ws_sqlite_prepare:
 *
 * Returns: (transfer full): the statement, or %NULL with @error set.
 */
sqlite3_stmt *
ws_sqlite_prepare (WsSqlite *self, const char *sql, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      ws_sqlite_set_error (self, rc, NULL, error);
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

/* One step: TRUE with a row, FALSE at the end (error unset) or on error. */
gboolean
ws_sqlite_step (WsSqlite *self, sqlite3_stmt *stmt, const char *table, GError **error)
{
  int rc = sqlite3_step (stmt);

  if (rc == SQLITE_ROW)
    return TRUE;
  if (rc != SQLITE_DONE)
    ws_sqlite_set_error (self, rc, table, error);
  return FALSE;
}
