/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"
#include "ws-stats.h"
#include "ws-table-writer.h"

G_BEGIN_DECLS

/* Cells of a summary as text, the way `nsys stats` prints them. */
typedef struct
{
  guint n_columns;
  const char *const *headers;
  GPtrArray *cells;     /* char *, row-major, n_columns per row */
  gboolean numeric[10]; /* per column: right-aligned */
} WsSummaryTable;

WsSummaryTable *ws_summary_table_new (const WsSummary *summary, gboolean grouping);
void ws_summary_table_free (WsSummaryTable *self);

void ws_summary_table_write (const WsSummary *summary, WsOutputFormat format, GString *out);

GPtrArray *ws_summary_table_write_csv_dir (const WsRun *run, const char *dir, const char *base,
                                           GError **error);
char *ws_summary_table_base_name (const WsRun *run);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSummaryTable, ws_summary_table_free)

G_END_DECLS
