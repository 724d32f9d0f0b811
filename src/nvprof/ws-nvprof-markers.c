/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvprof"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-nsys-reader-private.h"
#include "ws-nvprof-reader-private.h"
#include "ws-nvtx-depth.h"
#include "ws-reader-error.h"
#include "ws-run-build.h"
#include "ws-sqlite.h"

/* ---- NVTX -------------------------------------------------------------- */

typedef struct
{
  gint64 start;
  guint32 name;
  guint32 thread;
  guint16 domain;
} OpenRange;

typedef struct
{
  GHashTable *open;   /* marker id → OpenRange */
  GHashTable *colors; /* marker id → ARGB */
  gint64 unmatched;
} MarkerLoad;

static guint16
marker_domain (WsNvprofReaderState *nr, sqlite3_stmt *stmt, int col)
{
  WsNsysReader *r = &nr->base;
  gint64 file_id = sqlite3_column_int64 (stmt, col);
  guint32 name = ws_nsys_column_string (r, stmt, col);
  guint16 domain;

  /* String 0 is "-- null --": no domain. */
  if (file_id <= 0 || name == WS_STRING_NONE)
    return 0;
  domain = ws_nsys_domain_for (r, file_id);
  if (domain > 0)
    g_array_index (r->run->domains, WsNvtxDomain, domain).name = name;
  return domain;
}

typedef struct
{
  WsNvprofReaderState *nr;
  MarkerLoad load;
} MarkerContext;

static gboolean
marker_read (WsNsysReader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  MarkerContext *ctx = data;
  WsNvprofReaderState *nr = ctx->nr;
  WsNvtxRanges *ranges = &r->run->nvtx;
  WsNvtxMarks *marks = &r->run->marks;
  gint64 flags = sqlite3_column_int64 (stmt, 0);
  gint64 id = sqlite3_column_int64 (stmt, 2);
  gint64 time;
  guint32 pid, tid;
  gpointer color;

  if (!ws_nsys_column_time (r, stmt, 1, &time))
    return FALSE;
  ws_nvprof_blob_ids (stmt, 4, &pid, &tid);
  color = g_hash_table_lookup (ctx->load.colors, &id);
  if (flags & MARKER_END)
    {
      OpenRange *open = g_hash_table_lookup (ctx->load.open, &id);
      gsize i = ranges->n;

      if (open == NULL)
        {
          ctx->load.unmatched++;
          return FALSE;
        }
      ranges->start[i] = open->start;
      ranges->end[i] = MAX (time, open->start);
      ranges->name[i] = open->name;
      ranges->thread[i] = open->thread;
      ranges->domain[i] = open->domain;
      ranges->color[i] = color != NULL ? GPOINTER_TO_UINT (color) : 0;
      ranges->style[i] = WS_NVTX_START_END;
      ranges->n++;
      g_hash_table_remove (ctx->load.open, &id);
      return TRUE;
    }
  if (flags & MARKER_START)
    {
      OpenRange *open = g_new0 (OpenRange, 1);

      open->start = time;
      open->name = ws_nsys_column_string (r, stmt, 5);
      open->thread = ws_nvprof_thread_for (nr, pid, tid);
      open->domain = marker_domain (nr, stmt, 6);
      g_hash_table_insert (ctx->load.open, g_memdup2 (&id, sizeof id), open);
      return FALSE;
    }
  if (flags & MARKER_INSTANTANEOUS)
    {
      gsize i = marks->n;

      marks->time[i] = time;
      marks->name[i] = ws_nsys_column_string (r, stmt, 5);
      marks->thread[i] = ws_nvprof_thread_for (nr, pid, tid);
      marks->domain[i] = marker_domain (nr, stmt, 6);
      marks->color[i] = color != NULL ? GPOINTER_TO_UINT (color) : 0;
      marks->n++;
      return TRUE;
    }
  return FALSE;
}

static void
load_marker_colors (WsNvprofReaderState *nr, GHashTable *colors)
{
  WsNsysReader *r = &nr->base;
  const char *table = ws_sqlite_find_table (r->sql, "CUPTI_ACTIVITY_KIND_MARKER_DATA");
  g_autoptr (sqlite3_stmt) stmt = NULL;
  char *sql;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "id") ||
      !ws_sqlite_has_column (r->sql, table, "color") ||
      !ws_sqlite_has_column (r->sql, table, "flags"))
    return;
  sql = sqlite3_mprintf ("SELECT id, color, flags FROM \"%w\"", table);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  /* CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB: the colour is set. */
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    if (sqlite3_column_int64 (stmt, 2) & 2)
      {
        gint64 id = sqlite3_column_int64 (stmt, 0);

        g_hash_table_insert (colors, g_memdup2 (&id, sizeof id),
                             GUINT_TO_POINTER ((guint32) sqlite3_column_int64 (stmt, 1)));
      }
}

gboolean
ws_nvprof_load_markers (WsNvprofReaderState *nr, const char *table, gint64 count, GError **error)
{
  static const char *const required[] = { "flags", "timestamp", "id", "objectId", "name", NULL };
  WsNsysReader *r = &nr->base;
  WsNvtxRanges *ranges = &r->run->nvtx;
  WsNvtxMarks *marks = &r->run->marks;
  MarkerContext ctx = { nr, { 0 } };
  g_autofree char *domain = NULL;
  g_autofree char *kind = NULL;
  char *sql;
  gboolean ok;

  for (gsize c = 0; required[c] != NULL; c++)
    if (!ws_sqlite_has_column (r->sql, table, required[c]))
      {
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                     "%s: table %s has no %s column", r->sql->path, table, required[c]);
        return FALSE;
      }
  ctx.load.open = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, g_free);
  ctx.load.colors = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  load_marker_colors (nr, ctx.load.colors);

  ranges->start = g_new (gint64, MAX (count, 1));
  ranges->end = g_new (gint64, MAX (count, 1));
  ranges->name = g_new (guint32, MAX (count, 1));
  ranges->thread = g_new (guint32, MAX (count, 1));
  ranges->color = g_new (guint32, MAX (count, 1));
  ranges->domain = g_new (guint16, MAX (count, 1));
  ranges->style = g_new (guint8, MAX (count, 1));
  marks->time = g_new (gint64, MAX (count, 1));
  marks->name = g_new (guint32, MAX (count, 1));
  marks->thread = g_new (guint32, MAX (count, 1));
  marks->color = g_new (guint32, MAX (count, 1));
  marks->domain = g_new (guint16, MAX (count, 1));

  domain = ws_sqlite_column_or (r->sql, table, "domain", "0");
  kind = ws_sqlite_column_or (r->sql, table, "objectKind", "2");
  /* In record order: a range's start comes before its end. */
  sql = sqlite3_mprintf ("SELECT flags, timestamp, id, %s, objectId, name, %s FROM \"%w\" "
                         "ORDER BY _id_",
                         kind, domain, table);
  ok = ws_nsys_read_rows (r, table, sql, count, marker_read, &ctx, NULL, error);
  sqlite3_free (sql);
  if (ok && (ctx.load.unmatched > 0 || g_hash_table_size (ctx.load.open) > 0))
    ws_run_add_warning (r->run,
                        "%" G_GINT64_FORMAT " NVTX range ends and %u starts have no other half",
                        ctx.load.unmatched, g_hash_table_size (ctx.load.open));
  g_hash_table_unref (ctx.load.open);
  g_hash_table_unref (ctx.load.colors);
  if (!ok)
    return FALSE;

  {
    gpointer columns[] = { ranges->name, ranges->thread, ranges->color, ranges->domain,
                           ranges->style };
    const gsize sizes[] = { 4, 4, 4, 2, 1 };
    gpointer mark_columns[] = { marks->name, marks->thread, marks->color, marks->domain };
    const gsize mark_sizes[] = { 4, 4, 4, 2 };

    ws_nsys_sort_table (ranges->start, ranges->end, ranges->n, columns, sizes,
                        G_N_ELEMENTS (columns));
    ws_nsys_sort_table (marks->time, NULL, marks->n, mark_columns, mark_sizes,
                        G_N_ELEMENTS (mark_columns));
  }
  ranges->depth = g_new (guint16, MAX (ranges->n, 1));
  ws_nvtx_assign_depth (ranges->start, ranges->end, ranges->thread, ranges->n, r->run->threads->len,
                        ranges->depth);
  ws_run_add_source (r->run, "nvtx-ranges", table, (gint64) ranges->n);
  ws_run_add_source (r->run, "nvtx-marks", table, (gint64) marks->n);
  return TRUE;
}
