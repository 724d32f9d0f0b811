/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-table-writer"
#include "config.h"

#include <math.h>
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

/* @out's text in a block of its own size: a table of a million rows
 * holds millions of cells, and a GString keeps at least 64 bytes. */
static char *
cell_text (GString *out)
{
  char *text = g_strndup (out->str, out->len);

  g_string_free (out, TRUE);
  return text;
}

/**
 * ws_table_fixed_cell:
 * @grouping: thousands separators (the console table), or none (CSV)
 *
 * A cell of a table: @value with @decimals decimals, rounded as nsys
 * rounds them.
 *
 * Returns: (transfer full): the cell's text
 */
char *
ws_table_fixed_cell (double value, int decimals, gboolean grouping)
{
  GString *out;

  /* A value the source does not give (nvprof prints no median): "-". */
  if (isnan (value))
    return g_strdup ("-");
  out = g_string_new (NULL);
  ws_format_fixed (out, value, decimals, grouping);
  return cell_text (out);
}

/**
 * ws_table_int_cell:
 * @grouping: thousands separators (the console table), or none (CSV)
 *
 * Returns: (transfer full): the cell's text
 */
char *
ws_table_int_cell (gint64 value, gboolean grouping)
{
  GString *out = g_string_new (NULL);

  ws_format_int (out, value, grouping);
  return cell_text (out);
}

/* Columns a terminal gives @text: CJK characters take two. */
static gsize
text_width (const char *text)
{
  gsize width = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    width += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
  return width;
}

static void
append_padded (GString *out, const char *text, gsize width, int align)
{
  gsize len = text_width (text);
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
 * line breaks become spaces and other control characters visible escapes
 * (ws_format_escape_control()).
 */
void
ws_markdown_append_cell (GString *out, const char *text)
{
  /* Line breaks become spaces, other control characters escapes. */
  g_autofree char *spaced = g_strdelimit (g_strdup (text), "\n", ' ');
  g_autofree char *visible = ws_format_escape_control (spaced);

  for (const char *p = visible; *p != '\0'; p++)
    {
      if (strchr ("|\\*_<>[]`", *p) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
}

/* Each column's width in characters: its header's or its widest cell's. */
static gsize *
column_widths (guint n_columns, const char *const *headers, GPtrArray *cells)
{
  gsize *width = g_new0 (gsize, n_columns);

  for (guint c = 0; c < n_columns; c++)
    width[c] = text_width (headers[c]);
  for (guint i = 0; i < cells->len; i++)
    width[i % n_columns] = MAX (width[i % n_columns], text_width (g_ptr_array_index (cells, i)));
  return width;
}

/**
 * ws_table_fit_width:
 * @column: the column of names, which gives way
 *
 * Shortens the names of @column in the middle (ws_format_ellipsize_middle())
 * so that the aligned table of @cells is at most @max_width characters
 * wide; names keep at least 16 characters, so a table whose other columns
 * are wider than @max_width stays wider.  For terminals: CSV and Markdown
 * keep full names.  The names' control characters are made visible first
 * (ws_format_escape_control()), as the table prints them.
 */
void
ws_table_fit_width (guint n_columns, const char *const *headers, GPtrArray *cells, guint column,
                    guint max_width)
{
  g_autofree gsize *width = NULL;
  gsize total = 1 + 2 * (n_columns - 1);
  gsize target;

  g_return_if_fail (column < n_columns);

  for (guint i = column; i < cells->len; i += n_columns)
    {
      char *visible = ws_format_escape_control (g_ptr_array_index (cells, i));

      g_free (g_ptr_array_index (cells, i));
      g_ptr_array_index (cells, i) = visible;
    }
  width = column_widths (n_columns, headers, cells);
  for (guint c = 0; c < n_columns; c++)
    total += width[c];
  if (total <= max_width)
    return;
  target = MAX (16, (gssize) width[column] - (gssize) (total - max_width));
  target = MAX (target, (gsize) g_utf8_strlen (headers[column], -1));
  for (guint i = column; i < cells->len; i += n_columns)
    {
      char *shorter = ws_format_ellipsize_middle (g_ptr_array_index (cells, i), (guint) target);

      g_free (g_ptr_array_index (cells, i));
      g_ptr_array_index (cells, i) = shorter;
    }
}

/* nsys's aligned console table of cells already made visible. */
static void
write_aligned (guint n_columns, const char *const *headers, const gboolean *numeric,
               GPtrArray *cells, GString *out)
{
  guint n_rows = n_columns > 0 ? cells->len / n_columns : 0;
  g_autofree gsize *width = column_widths (n_columns, headers, cells);

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
}

static const char *
visible_cell (const char *cell, GPtrArray *copies)
{
  char *copy;

  if (ws_format_is_terminal_safe (cell, FALSE))
    return cell;
  copy = ws_format_escape_control (cell);
  g_ptr_array_add (copies, copy);
  return copy;
}

/* Writes rows of cells as CSV, as nsys's aligned console table (centred
 * headers, numbers right, text left, two spaces between; control
 * characters shown as escapes, ws_format_escape_control()), or Markdown. */
void
ws_table_write (guint n_columns, const char *const *headers, const gboolean *numeric,
                GPtrArray *cells, WsOutputFormat format, GString *out)
{
  guint n_rows = n_columns > 0 ? cells->len / n_columns : 0;

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
        {
          /* The cells as shown: the cell itself where it needs no escape
           * (nearly all of them), an escaped copy (kept in @copies) where
           * it does. */
          g_autoptr (GPtrArray) visible = g_ptr_array_sized_new (cells->len);
          g_autoptr (GPtrArray) visible_headers = g_ptr_array_sized_new (n_columns);
          g_autoptr (GPtrArray) copies = g_ptr_array_new_with_free_func (g_free);

          for (guint c = 0; c < n_columns; c++)
            g_ptr_array_add (visible_headers, (gpointer) visible_cell (headers[c], copies));
          for (guint i = 0; i < cells->len; i++)
            g_ptr_array_add (visible,
                             (gpointer) visible_cell (g_ptr_array_index (cells, i), copies));
          write_aligned (n_columns, (const char *const *) visible_headers->pdata, numeric, visible,
                         out);
        }
        return;
    }
}
