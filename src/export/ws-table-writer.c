/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-table-writer"
#include "config.h"

#include <string.h>

#include "ws-format.h"
#include "ws-table-writer.h"

gboolean
ws_output_format_from_string (const char *str, WsOutputFormat *format)
{
  if (g_strcmp0 (str, "table") == 0)
    *format = WS_FORMAT_TABLE;
  else if (g_strcmp0 (str, "csv") == 0)
    *format = WS_FORMAT_CSV;
  else if (g_strcmp0 (str, "md") == 0 || g_strcmp0 (str, "markdown") == 0)
    *format = WS_FORMAT_MARKDOWN;
  else if (g_strcmp0 (str, "json") == 0)
    *format = WS_FORMAT_JSON;
  else
    return FALSE;
  return TRUE;
}

static void
append_padded (GString *out, const char *text, gsize width, int align)
{
  gsize len = g_utf8_strlen (text, -1);
  gsize pad = width > len ? width - len : 0;
  gsize left = align > 0 ? pad : align == 0 ? pad / 2 : 0;

  for (gsize i = 0; i < left; i++)
    g_string_append_c (out, ' ');
  g_string_append (out, text);
  for (gsize i = left; i < pad; i++)
    g_string_append_c (out, ' ');
}

/**
 * ws_markdown_append_cell:
 *
 * Appends @text as the inside of a Markdown table cell: pipes and the
 * characters that would start emphasis, HTML, links or code are escaped,
 * and line breaks become spaces.
 */
void
ws_markdown_append_cell (GString *out, const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      if (strchr ("|\\*_<>[]`", *p) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p == '\n' ? ' ' : *p);
    }
}

/* Writes rows of cells as CSV, as nsys's aligned console table (centred
 * headers, numbers right, text left, two spaces between), or Markdown. */
void
ws_table_write (guint n_columns, const char *const *headers, const gboolean *numeric,
                GPtrArray *cells, WsOutputFormat format, GString *out)
{
  guint n_rows = n_columns > 0 ? cells->len / n_columns : 0;
  g_autofree gsize *width = g_new0 (gsize, n_columns);

  switch (format)
    {
      case WS_FORMAT_CSV:
        for (guint c = 0; c < n_columns; c++)
          {
            if (c > 0)
              g_string_append_c (out, ',');
            ws_csv_append_field (out, headers[c]);
          }
        g_string_append_c (out, '\n');
        for (guint r = 0; r < n_rows; r++)
          {
            for (guint c = 0; c < n_columns; c++)
              {
                if (c > 0)
                  g_string_append_c (out, ',');
                ws_csv_append_field (out, g_ptr_array_index (cells, r * n_columns + c));
              }
            g_string_append_c (out, '\n');
          }
        return;

      case WS_FORMAT_MARKDOWN:
        g_string_append (out, "|");
        for (guint c = 0; c < n_columns; c++)
          {
            g_string_append_c (out, ' ');
            ws_markdown_append_cell (out, headers[c]);
            g_string_append (out, " |");
          }
        g_string_append (out, "\n|");
        for (guint c = 0; c < n_columns; c++)
          g_string_append (out, numeric[c] ? " ---: |" : " :--- |");
        g_string_append_c (out, '\n');
        for (guint r = 0; r < n_rows; r++)
          {
            g_string_append (out, "|");
            for (guint c = 0; c < n_columns; c++)
              {
                g_string_append_c (out, ' ');
                ws_markdown_append_cell (out, g_ptr_array_index (cells, r * n_columns + c));
                g_string_append (out, " |");
              }
            g_string_append_c (out, '\n');
          }
        return;

      case WS_FORMAT_TABLE:
      case WS_FORMAT_JSON:
      default:
        for (guint c = 0; c < n_columns; c++)
          width[c] = g_utf8_strlen (headers[c], -1);
        for (guint i = 0; i < cells->len; i++)
          width[i % n_columns] =
            MAX (width[i % n_columns], (gsize) g_utf8_strlen (g_ptr_array_index (cells, i), -1));

        for (guint c = 0; c < n_columns; c++)
          {
            g_string_append (out, c == 0 ? " " : "  ");
            append_padded (out, headers[c], width[c], 0);
          }
        g_string_append_c (out, '\n');
        for (guint c = 0; c < n_columns; c++)
          {
            g_string_append (out, c == 0 ? " " : "  ");
            for (gsize i = 0; i < width[c]; i++)
              g_string_append_c (out, '-');
          }
        g_string_append_c (out, '\n');
        for (guint r = 0; r < n_rows; r++)
          {
            for (guint c = 0; c < n_columns; c++)
              {
                g_string_append (out, c == 0 ? " " : "  ");
                append_padded (out, g_ptr_array_index (cells, r * n_columns + c), width[c],
                               numeric[c] ? 1 : -1);
              }
            g_string_append_c (out, '\n');
          }
        return;
    }
}
