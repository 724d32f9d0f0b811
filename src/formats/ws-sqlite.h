/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* A read-only connection to a user's SQLite file, with what it holds.
 * Opened `immutable`, so nothing (no journal, no lock file) is ever written
 * next to the user's file. */
typedef struct
{
  char *path;
  sqlite3 *db;
  GHashTable *tables; /* table name -> GHashTable set of column names (lazy) */
  GHashTable *views;  /* names of views: never read as tables */
  GCancellable *cancellable;
} WsSqlite;

gboolean ws_sqlite_check_header (const char *path, GError **error);
WsSqlite *ws_sqlite_open (const char *path, GCancellable *cancellable, GError **error);
WsSqlite *ws_sqlite_open_worker (WsSqlite *parent, GError **error);
void ws_sqlite_close (WsSqlite *self);

const char *ws_sqlite_find_table (WsSqlite *self, const char *name);
gboolean ws_sqlite_is_view (WsSqlite *self, const char *name);
gboolean ws_sqlite_has_column (WsSqlite *self, const char *table, const char *column);
char *ws_sqlite_column_or (WsSqlite *self, const char *table, const char *column,
                           const char *fallback);
gboolean ws_sqlite_rowid_span (WsSqlite *self, const char *table, gint64 *first, gint64 *last);
gboolean ws_sqlite_count (WsSqlite *self, const char *table, gint64 *rows, GError **error);
sqlite3_stmt *ws_sqlite_prepare (WsSqlite *self, const char *sql, GError **error);
gboolean ws_sqlite_step (WsSqlite *self, sqlite3_stmt *stmt, const char *table, GError **error);
void ws_sqlite_set_error (WsSqlite *self, int rc, const char *table, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSqlite, ws_sqlite_close)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

G_END_DECLS
