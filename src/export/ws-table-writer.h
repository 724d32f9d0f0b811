/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Tables of text cells for terminals (nsys's aligned console form), CSV or
 * Markdown: how the summaries, the gauges and a comparison are printed.
 * JSON is written by each caller with json-glib. */
typedef enum
{
  WS_FORMAT_TABLE,
  WS_FORMAT_CSV,
  WS_FORMAT_MARKDOWN,
  WS_FORMAT_JSON,
} WsOutputFormat;

gboolean ws_output_format_from_string (const char *str, WsOutputFormat *format);

void ws_markdown_append_cell (GString *out, const char *text);
char *ws_table_fixed_cell (double value, int decimals, gboolean grouping);
char *ws_table_int_cell (gint64 value, gboolean grouping);
void ws_table_write (guint n_columns, const char *const *headers, const gboolean *numeric,
                     GPtrArray *cells, WsOutputFormat format, GString *out);
void ws_table_fit_width (guint n_columns, const char *const *headers, GPtrArray *cells,
                         guint column, guint max_width);

G_END_DECLS
