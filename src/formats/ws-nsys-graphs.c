/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys"
#include "config.h"

#include "ws-nsys-reader-private.h"
#include "ws-reader-error.h"
#include "ws-run-build.h"
#include "ws-sqlite.h"

/* The graph-level trace of CUDA graphs (nsys --cuda-graph-trace=graph, the
 * default of nsys itself): one row of CUPTI_ACTIVITY_KIND_GRAPH_TRACE per
 * replay, whose kernels are in no table.  ws_run_build_replays() sorts them
 * with the replays that node tracing records (docs/cuda-graphs.md). */

static gboolean
replay_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize i, gpointer data)
{
  WsGraphReplays *g = &r->run->replays;

  if (!ws_nsys_column_times (r, stmt, 0, &g->start[i], &g->end[i]))
    return FALSE;
  g->stream[i] =
    ws_nsys_stream_for (r, sqlite3_column_int64 (stmt, 2), ws_nsys_column_i32 (stmt, 3),
                        ws_nsys_column_i32 (stmt, 4), ws_nsys_column_i32 (stmt, 5));
  g->correlation[i] = ws_nsys_column_u32 (stmt, 6);
  g->graph[i] = (guint32) CLAMP (sqlite3_column_int64 (stmt, 7), 0, G_MAXUINT32 - 1);
  g->nodes[i] = 0;
  return TRUE;
}

gboolean
ws_nsys_load_graph_trace (WsNsysReader *r, const char *table, gint64 count, GError **error)
{
  static const char *const optional[][2] = {
    { "globalPid", "0" }, { "deviceId", "0" },      { "contextId", "0" },
    { "streamId", "0" },  { "correlationId", "0" },
  };
  WsGraphReplays *g = &r->run->replays;
  g_autoptr (GString) sql = g_string_new ("SELECT start, end");
  const char *graph;
  gsize n = 0;

  if (!ws_sqlite_has_column (r->sql, table, "start") ||
      !ws_sqlite_has_column (r->sql, table, "end"))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_SCHEMA,
                   "%s: table %s has no start or end column", r->sql->path, table);
      return FALSE;
    }
  for (gsize c = 0; c < G_N_ELEMENTS (optional); c++)
    {
      g_autofree char *col = ws_sqlite_column_or (r->sql, table, optional[c][0], optional[c][1]);

      g_string_append_printf (sql, ", %s", col);
    }
  /* The executable graph, as node tracing numbers its nodes' graph. */
  graph = ws_sqlite_has_column (r->sql, table, "graphExecId") ? "graphExecId"
          : ws_sqlite_has_column (r->sql, table, "graphId")   ? "graphId"
                                                              : "0";
  g_string_append_printf (sql, ", %s FROM \"%s\"", graph, table);

  g->start = g_new (gint64, MAX (count, 1));
  g->end = g_new (gint64, MAX (count, 1));
  g->stream = g_new (guint32, MAX (count, 1));
  g->correlation = g_new (guint32, MAX (count, 1));
  g->graph = g_new (guint32, MAX (count, 1));
  g->nodes = g_new (guint32, MAX (count, 1));
  if (!ws_nsys_read_rows (r, table, sql->str, count, replay_row, NULL, &n, error))
    return FALSE;
  g->n = n;
  r->run->has_graph_trace = TRUE;
  return TRUE;
}
