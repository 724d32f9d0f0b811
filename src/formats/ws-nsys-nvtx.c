/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-nsys-reader-private.h"
#include "ws-nvtx-depth.h"
#include "ws-reader-error.h"
#include "ws-run-build.h"
#include "ws-sqlite.h"

/* NVTX_EVENTS: ranges, marks, domains and thread names.  A row is read in
 * two halves: decode() takes what the row holds (its times checked) and
 * interns its text, and apply() files it into the run, interning its
 * thread and domain.  One thread does both per row; on several cores
 * (ws-nsys-parallel.c) the workers decode into a slot per row, interning
 * text in a table of their own that the parallel read merges in worker
 * order (WS_NSYS_ID_STRING), and apply() then runs over the slots in rowid
 * order: everything is interned in the order one scan interns it. */

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

/* What a row of NVTX_EVENTS holds, its times checked. */
typedef struct
{
  gint64 start;
  gint64 end;
  gint64 global_tid;
  gint64 domain_id;
  guint32 name; /* the text column's string, else textId's; "" for an unnamed range or mark */
  guint32 color;
  gint16 type;
  gboolean range; /* a range with an end */
} NvtxRaw;

typedef struct
{
  gint64 other;
  GHashTable *nvtx_thread_names; /* gint64 globalTid -> string id + 1, from NvtxThread events */
  NvtxRaw *raw;                  /* a slot per row, on several cores; NULL on one */
  const WsStringTable *strings;  /* the run's, which a worker's textIds name */
} NvtxLoad;

static gboolean
is_range (gint64 type)
{
  return type == NVTX_PUSH_POP || type == NVTX_START_END || type == NVTXT_PUSH_POP ||
         type == NVTXT_START_END;
}

/* The row's name in @r's string table: its text, else its textId's
 * string (the run's id, made the worker's own on a worker), else "" for a
 * range or a mark, else none. */
static guint32
decode_name (WsNsysReader *r, sqlite3_stmt *stmt, const NvtxLoad *load, gboolean range_or_mark)
{
  const char *text = (const char *) sqlite3_column_text (stmt, 3);
  guint32 name;

  if (text != NULL)
    return ws_string_table_intern (r->run->strings, text);
  name = ws_nsys_column_string (r, stmt, 4);
  if (name != WS_STRING_NONE && r->run->strings != load->strings)
    {
      const char *string = ws_string_table_get (load->strings, name);

      name = string != NULL ? ws_string_table_intern (r->run->strings, string) : WS_STRING_NONE;
    }
  if (name == WS_STRING_NONE && range_or_mark)
    return ws_string_table_intern (r->run->strings, "");
  return name;
}

/* Reads the row into @raw; FALSE when its times leave it out. */
static gboolean
decode (WsNsysReader *r, sqlite3_stmt *stmt, const NvtxLoad *load, NvtxRaw *raw)
{
  gint64 type = sqlite3_column_int64 (stmt, 2);
  gboolean mark = type == NVTX_MARK || type == NVTXT_MARK;

  raw->type = (gint16) CLAMP (type, G_MININT16, G_MAXINT16);
  raw->range = is_range (type) && sqlite3_column_type (stmt, 1) != SQLITE_NULL;
  if (raw->range && !ws_nsys_column_times (r, stmt, 0, &raw->start, &raw->end))
    return FALSE;
  if (mark && !ws_nsys_column_time (r, stmt, 0, &raw->start))
    return FALSE;
  raw->name = decode_name (r, stmt, load, raw->range || mark);
  raw->global_tid = sqlite3_column_int64 (stmt, 5);
  raw->color = (guint32) sqlite3_column_int64 (stmt, 6);
  raw->domain_id = sqlite3_column_int64 (stmt, 7);
  return TRUE;
}

/* Files @raw into the run. */
static void
apply (WsNsysReader *r, NvtxLoad *load, const NvtxRaw *raw)
{
  WsNvtxRanges *ranges = &r->run->nvtx;
  WsNvtxMarks *marks = &r->run->marks;
  guint32 name = raw->name;

  if (raw->range)
    {
      gsize i = ranges->n++;

      ranges->start[i] = raw->start;
      ranges->end[i] = raw->end;
      ranges->name[i] = name;
      ranges->thread[i] = ws_nsys_thread_for (r, raw->global_tid);
      ranges->color[i] = raw->color;
      ranges->domain[i] = ws_nsys_domain_for (r, raw->domain_id);
      ranges->style[i] = (raw->type == NVTX_START_END || raw->type == NVTXT_START_END)
                           ? WS_NVTX_START_END
                           : WS_NVTX_PUSH_POP;
      return;
    }
  switch (raw->type)
    {
      case NVTX_MARK:
      case NVTXT_MARK:
        {
          gsize i = marks->n++;

          marks->time[i] = raw->start;
          marks->name[i] = name;
          marks->thread[i] = ws_nsys_thread_for (r, raw->global_tid);
          marks->color[i] = raw->color;
          marks->domain[i] = ws_nsys_domain_for (r, raw->domain_id);
          return;
        }

      case NVTX_DOMAIN_CREATE:
        {
          guint16 domain = ws_nsys_domain_for (r, raw->domain_id);

          if (domain != 0 && name != WS_STRING_NONE)
            g_array_index (r->run->domains, WsNvtxDomain, domain).name = name;
          load->other++;
          return;
        }

      case NVTX_THREAD:
        if (name != WS_STRING_NONE)
          g_hash_table_insert (load->nvtx_thread_names,
                               g_memdup2 (&raw->global_tid, sizeof raw->global_tid),
                               GUINT_TO_POINTER (name + 1));
        load->other++;
        return;

      default:
        /* A range without an end, a category, what a later nsys adds. */
        load->other++;
        return;
    }
}

static gboolean
nvtx_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  NvtxLoad *load = data;
  NvtxRaw raw;

  if (load->raw != NULL)
    return decode (r, stmt, load, &load->raw[row]);
  /* On one thread: filed at once, without the slots' memory. */
  if (!decode (r, stmt, load, &raw))
    return FALSE;
  apply (r, load, &raw);
  return TRUE;
}

/* The rows decoded into a slot each on several cores, then filed in
 * order; on one thread, each filed as it is read. */
static gboolean
read_rows (WsNsysReader *r, const char *table, const char *select, gint64 count, NvtxLoad *load,
           GError **error)
{
  WsNsysColumns raw_column = { 0 };
  gsize n = 0;
  gboolean ok;

  if (!ws_nsys_read_in_parallel (r, table, count))
    return ws_nsys_read_table (r, table, select, NULL, count, nvtx_row, load, NULL, NULL, error);
  load->raw = g_new0 (NvtxRaw, MAX (count, 1));
  raw_column.columns[0] = load->raw;
  raw_column.sizes[0] = sizeof (NvtxRaw);
  raw_column.n_columns = 1;
  raw_column.ids[0].ids = &load->raw[0].name;
  raw_column.ids[0].kind = WS_NSYS_ID_STRING;
  raw_column.ids[0].stride = sizeof (NvtxRaw);
  raw_column.n_ids = 1;
  /* A row's text makes NVTX rows worth more workers than kernels'. */
  raw_column.rows_per_worker = 16384;
  ok = ws_nsys_read_table (r, table, select, NULL, count, nvtx_row, load, &raw_column, &n, error);
  if (ok)
    for (gsize i = 0; i < n; i++)
      apply (r, load, &load->raw[i]);
  g_clear_pointer (&load->raw, g_free);
  return ok;
}

gboolean
ws_nsys_load_nvtx (WsNsysReader *r, const char *table, gint64 count, GError **error)
{
  static const char *const cols[][2] = {
    { "start", "0" },     { "end", "NULL" },    { "eventType", "0" }, { "text", "NULL" },
    { "textId", "NULL" }, { "globalTid", "0" }, { "color", "0" },     { "domainId", "0" },
  };
  static const char *const required[] = { "start", "end", "eventType" };
  WsNvtxRanges *ranges = &r->run->nvtx;
  WsNvtxMarks *marks = &r->run->marks;
  g_autoptr (GHashTable) thread_names =
    g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  NvtxLoad load = { 0, thread_names, NULL, r->run->strings };
  g_autoptr (GString) select = g_string_new ("SELECT ");
  GHashTableIter iter;
  gpointer key, value;

  for (gsize i = 0; i < G_N_ELEMENTS (required); i++)
    if (!ws_sqlite_has_column (r->sql, table, required[i]))
      {
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                     "%s: table %s has no %s column", r->sql->path, table, required[i]);
        return FALSE;
      }
  for (gsize c = 0; c < G_N_ELEMENTS (cols); c++)
    {
      g_autofree char *col = ws_sqlite_column_or (r->sql, table, cols[c][0], cols[c][1]);

      g_string_append_printf (select, "%s%s", c > 0 ? ", " : "", col);
    }
  g_string_append_printf (select, " FROM \"%s\"", table);

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

  if (!read_rows (r, table, select->str, count, &load, error))
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

    ws_nsys_sort_table (ranges->start, ranges->end, ranges->n, columns, sizes,
                        G_N_ELEMENTS (columns));
    ws_nsys_sort_table (marks->time, NULL, marks->n, mark_columns, mark_sizes,
                        G_N_ELEMENTS (mark_columns));
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
