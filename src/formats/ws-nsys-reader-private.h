/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-load-options.h"
#include "ws-run.h"
#include "ws-sqlite.h"

G_BEGIN_DECLS

/* Shared by ws-nsys-reader.c (the machinery and the whole-file load),
 * ws-nsys-provenance.c and ws-nsys-events.c; not part of the core's API. */

typedef struct
{
  WsSqlite *sql;
  WsRun *run;
  WsLoadFlags flags;
  WsProgressFunc progress;
  gpointer progress_data;
  gint64 rows_total;
  gint64 rows_done;
  double last_fraction;

  /* StringIds id -> our id: an array when the ids are dense, as in every
   * real export, a hash table otherwise. */
  guint32 *string_map;
  gsize string_map_len;
  GHashTable *string_sparse;

  GHashTable *thread_names; /* gint64 globalTid -> string id + 1 */
  GHashTable *thread_index; /* gint64 globalTid -> index + 1 */
  GHashTable *stream_index; /* WsStream * -> index + 1 */
  GHashTable *config_index; /* WsLaunchConfig * -> index + 1 */
  GHashTable *domain_index; /* gint64 domainId -> index + 1 */
  guint32 last_stream;
  guint32 last_config;
  guint32 last_thread;
  gint64 n_reversed;
  gint64 n_out_of_span; /* rows left out: a time beyond ±WS_TIME_LIMIT or none */
  GHashTable *seen;     /* table name -> rows its whole read met (gsize) */
  gint64 last_seen;     /* rows the last ws_nsys_read_rows() met */
  char *bad_time;       /* a time cell that is not a number: what it held */
  const char *bad_column;
} WsNsysReader;

/* Fills row @row from @stmt; FALSE skips the row (it is not counted). */
typedef gboolean (*WsNsysRowFunc) (WsNsysReader *r, sqlite3_stmt *stmt, gsize row, gpointer data);

/* ws-nsys-reader.c */
void ws_nsys_reader_init (WsNsysReader *r, WsSqlite *sql, WsRun *run, WsLoadFlags flags,
                          WsProgressFunc progress, gpointer progress_data);
void ws_nsys_reader_clear (WsNsysReader *r);
gint64 ws_nsys_rows_seen (WsNsysReader *r, const char *table, gint64 bound);
guint32 ws_nsys_column_string (WsNsysReader *r, sqlite3_stmt *stmt, int col);
guint32 ws_nsys_column_text (WsNsysReader *r, sqlite3_stmt *stmt, int col);
gint32 ws_nsys_column_i32 (sqlite3_stmt *stmt, int col);
gboolean ws_nsys_column_time (WsNsysReader *r, sqlite3_stmt *stmt, int col, gint64 *time);
gboolean ws_nsys_column_times (WsNsysReader *r, sqlite3_stmt *stmt, int col, gint64 *start,
                               gint64 *end);
void ws_nsys_reader_warn_times (WsNsysReader *r);
guint32 ws_nsys_column_u32 (sqlite3_stmt *stmt, int col);
guint32 ws_nsys_column_graph (sqlite3_stmt *stmt, int col);

guint32 ws_nsys_thread_for (WsNsysReader *r, gint64 global_tid);
guint32 ws_nsys_stream_for (WsNsysReader *r, gint64 global_pid, gint32 device, gint32 context,
                            gint32 stream_id);
guint32 ws_nsys_config_for (WsNsysReader *r, const WsLaunchConfig *key);
guint16 ws_nsys_domain_for (WsNsysReader *r, gint64 domain_id);

/* Which interned ids a column of a table read on several cores holds. */
typedef enum
{
  WS_NSYS_ID_STREAM,
  WS_NSYS_ID_THREAD,
  WS_NSYS_ID_CONFIG,
  WS_NSYS_ID_STRING, /* text, interned in a string table of the worker's own */
} WsNsysIdKind;

/* The arrays a row callback writes, from slot @base on: the times, the
 * other columns (each @sizes[c] bytes a row), and which of those hold ids
 * that the reader interns. */
typedef struct
{
  gsize base;
  gint64 *start; /* NULL when the callback keeps times in a column of its own */
  gint64 *end;   /* NULL when the table has none */
  gpointer columns[8];
  gsize sizes[8];
  gsize n_columns;
  struct
  {
    guint32 *ids;
    WsNsysIdKind kind;
    gsize stride; /* bytes from one row's id to the next; 0: 4 */
  } ids[2];
  gsize n_ids;
  gsize rows_per_worker; /* the fewest rows worth a worker; 0: 65,536 */
} WsNsysColumns;

gboolean ws_nsys_read_in_parallel (WsNsysReader *r, const char *table, gint64 max_rows);
gboolean ws_nsys_read_table (WsNsysReader *r, const char *table, const char *select,
                             const char *where, gint64 max_rows, WsNsysRowFunc func, gpointer data,
                             const WsNsysColumns *cols, gsize *n_read, GError **error);
gboolean ws_nsys_read_rows (WsNsysReader *r, const char *table, const char *sql, gint64 max_rows,
                            WsNsysRowFunc func, gpointer data, gsize *n_read, GError **error);

/* ws-nsys-provenance.c */
void ws_nsys_load_metadata (WsNsysReader *r);
gboolean ws_nsys_load_strings (WsNsysReader *r, GError **error);
gboolean ws_nsys_load_string_table (WsNsysReader *r, const char *table, const char *id_column,
                                    GError **error);
gboolean ws_nsys_load_thread_names (WsNsysReader *r, GError **error);
void ws_nsys_load_gpus (WsNsysReader *r);
void ws_nsys_load_system (WsNsysReader *r);
void ws_nsys_load_capture (WsNsysReader *r);
void ws_nsys_load_thread_rank (WsNsysReader *r);

/* ws-nsys-graphs.c */
gboolean ws_nsys_load_graph_trace (WsNsysReader *r, const char *table, gint64 count,
                                   GError **error);
void ws_nsys_load_processes (WsNsysReader *r);

/* ws-nsys-events.c */
void ws_nsys_sort_table (gint64 *start, gint64 *end, gsize n, gpointer *columns, const gsize *sizes,
                         gsize n_cols);
gboolean ws_nsys_load_kernels (WsNsysReader *r, const char *table, gint64 count, GError **error);
gboolean ws_nsys_load_memops (WsNsysReader *r, const char *memcpy_table, gint64 n_memcpy,
                              const char *memset_table, gint64 n_memset, GError **error);
gboolean ws_nsys_load_api (WsNsysReader *r, const char *table, gint64 count, GError **error);
gboolean ws_nsys_load_nvtx (WsNsysReader *r, const char *table, gint64 count, GError **error);
gboolean ws_nsys_load_mem_usage (WsNsysReader *r, const char *table, gint64 count, GError **error);
/* ws-nsys-cpu-samples.c */
gboolean ws_nsys_load_cpu_samples (WsNsysReader *r, const char *events, const char *chains,
                                   GError **error);

gboolean ws_nsys_load_osrt (WsNsysReader *r, const char *table, gint64 count, GError **error);
gboolean ws_nsys_load_gpu_metrics (WsNsysReader *r, const char *table, gint64 count,
                                   GError **error);

G_END_DECLS
