/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys"
#include "config.h"

#include "ws-nsys-reader-private.h"
#include "ws-reader-error.h"
#include "ws-run-build.h"
#include "ws-sqlite.h"

/* The kernel table: every column the viewer shows, or, for a lean load
 * (stats), only start, end and what its report joins or groups on. */

static gboolean
kernel_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsKernels *k = &r->run->kernels;
  WsLaunchConfig config;

  if (!ws_nsys_column_times (r, stmt, 0, &k->start[i], &k->end[i]))
    return FALSE;
  k->demangled[i] = ws_nsys_column_string (r, stmt, 2);
  k->short_name[i] = ws_nsys_column_string (r, stmt, 3);
  k->mangled[i] = ws_nsys_column_string (r, stmt, 4);
  if (k->short_name[i] == WS_STRING_NONE)
    k->short_name[i] = k->demangled[i];
  k->stream[i] =
    ws_nsys_stream_for (r, sqlite3_column_int64 (stmt, 5), ws_nsys_column_i32 (stmt, 6),
                        ws_nsys_column_i32 (stmt, 7), ws_nsys_column_i32 (stmt, 8));
  k->correlation[i] = ws_nsys_column_u32 (stmt, 9);
  for (int d = 0; d < 3; d++)
    {
      config.grid[d] = ws_nsys_column_u32 (stmt, 10 + d);
      config.block[d] = ws_nsys_column_u32 (stmt, 13 + d);
    }
  config.registers = ws_nsys_column_u32 (stmt, 16);
  config.static_smem = ws_nsys_column_u32 (stmt, 17);
  config.dynamic_smem = ws_nsys_column_u32 (stmt, 18);
  k->config[i] = ws_nsys_config_for (r, &config);
  k->replay[i] = ws_nsys_column_graph (stmt, 19);
  return TRUE;
}

typedef struct
{
  guint32 *names; /* NULL: no name read */
  int stream_col; /* globalPid's, then correlationId's; -1 when not read */
} LeanKernels;

static gboolean
kernel_row_lean (WsNsysReader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  LeanKernels *lean = data;
  WsKernels *k = &r->run->kernels;
  int c = lean->stream_col;

  if (!ws_nsys_column_times (r, stmt, 0, &k->start[i], &k->end[i]))
    return FALSE;
  if (lean->names != NULL)
    lean->names[i] = ws_nsys_column_string (r, stmt, 2);
  /* The process is what ties a kernel to its launch: one stream per
   * process, as WS_LOAD_LAUNCHES says. */
  if (c >= 0)
    {
      k->stream[i] = ws_nsys_stream_for (r, sqlite3_column_int64 (stmt, c), 0, 0, 0);
      k->correlation[i] = ws_nsys_column_u32 (stmt, c + 1);
    }
  return TRUE;
}

/* The name form the lean load reads: its column and the run's array. */
static const char *
lean_name_column (WsNsysReader *r, const char *table, const char *demangled, guint32 ***target)
{
  WsKernels *k = &r->run->kernels;

  if ((r->flags & WS_LOAD_NAME_SHORT) && ws_sqlite_has_column (r->sql, table, "shortName"))
    {
      *target = &k->short_name;
      k->columns = WS_KERNEL_COL_SHORT;
      return "shortName";
    }
  if ((r->flags & WS_LOAD_NAME_MANGLED) && ws_sqlite_has_column (r->sql, table, "mangledName"))
    {
      *target = &k->mangled;
      k->columns = WS_KERNEL_COL_MANGLED;
      return "mangledName";
    }
  *target = &k->demangled;
  k->columns = WS_KERNEL_COL_DEMANGLED;
  return demangled;
}

/* Start, end and the one name form the summary groups by: a third of the
 * columns, and the bulk of what `stats` costs.  With WS_LOAD_LAUNCHES the
 * process and correlation id too, what ties a kernel to its launch call. */
static gboolean
load_kernels_lean (WsNsysReader *r, const char *table, gint64 count, const char *demangled,
                   GError **error)
{
  static const char *const launch[][2] = {
    { "globalPid", "0" },
    { "correlationId", "0" },
  };
  WsKernels *k = &r->run->kernels;
  LeanKernels lean = { NULL, -1 };
  g_autoptr (GString) sql = g_string_new ("SELECT start, end");
  gsize n = 0;
  gpointer columns[3];
  gsize sizes[3] = { 4, 4, 4 }, n_cols = 0;

  k->columns = 0;
  if (!(r->flags & WS_LOAD_NO_KERNEL_NAMES))
    {
      guint32 **target;
      const char *column = lean_name_column (r, table, demangled, &target);

      g_string_append_printf (sql, ", \"%s\"", column);
      lean.names = *target = g_new (guint32, count);
      columns[n_cols++] = lean.names;
    }
  k->start = g_new (gint64, count);
  k->end = g_new (gint64, count);
  if (r->flags & WS_LOAD_LAUNCHES)
    {
      lean.stream_col = lean.names != NULL ? 3 : 2;
      for (gsize c = 0; c < G_N_ELEMENTS (launch); c++)
        {
          g_autofree char *col = ws_sqlite_column_or (r->sql, table, launch[c][0], launch[c][1]);

          g_string_append_printf (sql, ", %s", col);
        }
      columns[n_cols++] = k->stream = g_new (guint32, count);
      columns[n_cols++] = k->correlation = g_new (guint32, count);
    }
  g_string_append_printf (sql, " FROM \"%s\"", table);
  {
    WsNsysColumns arrays = { 0, k->start, k->end };

    for (gsize c = 0; c < n_cols; c++)
      {
        arrays.columns[c] = columns[c];
        arrays.sizes[c] = sizes[c];
      }
    arrays.n_columns = n_cols;
    if (r->flags & WS_LOAD_LAUNCHES)
      {
        arrays.ids[0].ids = k->stream;
        arrays.ids[0].kind = WS_NSYS_ID_STREAM;
        arrays.n_ids = 1;
      }
    if (!ws_nsys_read_table (r, table, sql->str, NULL, count, kernel_row_lean, &lean, &arrays, &n,
                             error))
      return FALSE;
  }
  k->n = n;
  ws_nsys_sort_table (k->start, k->end, n, columns, sizes, n_cols);
  return TRUE;
}

gboolean
ws_nsys_load_kernels (WsNsysReader *r, const char *table, gint64 count, GError **error)
{
  WsKernels *k = &r->run->kernels;
  static const char *const optional[][2] = {
    { "mangledName", "NULL" },
    { "globalPid", "0" },
    { "deviceId", "0" },
    { "contextId", "0" },
    { "streamId", "0" },
    { "correlationId", "0" },
    { "gridX", "0" },
    { "gridY", "0" },
    { "gridZ", "0" },
    { "blockX", "0" },
    { "blockY", "0" },
    { "blockZ", "0" },
    { "registersPerThread", "0" },
    { "staticSharedMemory", "0" },
    { "dynamicSharedMemory", "0" },
    /* Node tracing (nsys --cuda-graph-trace=node): a kernel of a graph
     * replay has its node's id (docs/cuda-graphs.md). */
    { "graphNodeId", "NULL" },
  };
  g_autoptr (GString) sql = g_string_new ("SELECT start, end, ");
  const char *demangled;
  gsize n = 0;

  if (!ws_sqlite_has_column (r->sql, table, "start") ||
      !ws_sqlite_has_column (r->sql, table, "end"))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                   "%s: table %s has no start or end column", r->sql->path, table);
      return FALSE;
    }
  demangled = ws_sqlite_has_column (r->sql, table, "demangledName") ? "demangledName"
              : ws_sqlite_has_column (r->sql, table, "shortName")   ? "shortName"
                                                                    : NULL;
  if (demangled == NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                   "%s: table %s has no demangledName or shortName column", r->sql->path, table);
      return FALSE;
    }
  if (r->flags & WS_LOAD_LEAN)
    return load_kernels_lean (r, table, count, demangled, error);

  k->columns = WS_KERNEL_COL_DEMANGLED | WS_KERNEL_COL_LAUNCH;
  if (ws_sqlite_has_column (r->sql, table, "shortName"))
    k->columns |= WS_KERNEL_COL_SHORT;
  if (ws_sqlite_has_column (r->sql, table, "mangledName"))
    k->columns |= WS_KERNEL_COL_MANGLED;
  g_string_append_printf (sql, "\"%s\", ", demangled);
  g_string_append (sql, ws_sqlite_has_column (r->sql, table, "shortName") ? "shortName" : "NULL");
  for (gsize c = 0; c < G_N_ELEMENTS (optional); c++)
    {
      g_autofree char *col = ws_sqlite_column_or (r->sql, table, optional[c][0], optional[c][1]);

      g_string_append_printf (sql, ", %s", col);
    }
  g_string_append_printf (sql, " FROM \"%s\"", table);

  k->start = g_new (gint64, count);
  k->end = g_new (gint64, count);
  k->demangled = g_new (guint32, count);
  k->short_name = g_new (guint32, count);
  k->mangled = g_new (guint32, count);
  k->stream = g_new (guint32, count);
  k->correlation = g_new (guint32, count);
  k->config = g_new (guint32, count);
  k->replay = g_new (guint32, count);

  {
    WsNsysColumns arrays = {
      0,
      k->start,
      k->end,
      { k->demangled, k->short_name, k->mangled, k->stream, k->correlation, k->config, k->replay },
      { 4, 4, 4, 4, 4, 4, 4 },
      7,
      { { k->stream, WS_NSYS_ID_STREAM }, { k->config, WS_NSYS_ID_CONFIG } },
      2,
    };

    if (!ws_nsys_read_table (r, table, sql->str, NULL, count, kernel_row, NULL, &arrays, &n, error))
      return FALSE;
  }
  k->n = n;

  {
    gpointer columns[] = { k->demangled,   k->short_name, k->mangled, k->stream,
                           k->correlation, k->config,     k->replay };
    const gsize sizes[] = { 4, 4, 4, 4, 4, 4, 4 };

    ws_nsys_sort_table (k->start, k->end, n, columns, sizes, G_N_ELEMENTS (columns));
  }
  return TRUE;
}
