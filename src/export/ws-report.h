/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"
#include "ws-stats.h"

G_BEGIN_DECLS

typedef enum
{
  WS_FORMAT_TABLE,
  WS_FORMAT_CSV,
  WS_FORMAT_MARKDOWN,
  WS_FORMAT_JSON,
} WsOutputFormat;

gboolean ws_output_format_from_string (const char *str, WsOutputFormat *format);

/* Cells of a summary as text, the way `nsys stats` prints them. */
typedef struct
{
  guint n_columns;
  const char *const *headers;
  GPtrArray *cells;     /* char *, row-major, n_columns per row */
  gboolean numeric[10]; /* per column: right-aligned */
} WsReportTable;

WsReportTable *ws_report_table_new (const WsSummary *summary, gboolean grouping);
void ws_report_table_free (WsReportTable *self);
guint ws_report_table_n_rows (const WsReportTable *self);
const char *ws_report_table_cell (const WsReportTable *self, guint row, guint column);

void ws_report_write (const WsSummary *summary, WsOutputFormat format, GString *out);
void ws_markdown_append_cell (GString *out, const char *text);
char *ws_report_fixed_cell (double value, int decimals, gboolean grouping);
char *ws_report_int_cell (gint64 value, gboolean grouping);
void ws_report_write_table (guint n_columns, const char *const *headers, const gboolean *numeric,
                            GPtrArray *cells, WsOutputFormat format, GString *out);

GPtrArray *ws_report_write_csv_dir (const WsRun *run, const char *dir, const char *base,
                                    GError **error);
char *ws_report_base_name (const WsRun *run);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsReportTable, ws_report_table_free)

G_END_DECLS
