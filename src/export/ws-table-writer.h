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
void ws_table_write (guint n_columns, const char *const *headers, const gboolean *numeric,
                     GPtrArray *cells, WsOutputFormat format, GString *out);

G_END_DECLS
