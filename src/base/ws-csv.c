/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-csv"
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-error.h"
#include "ws-file.h"

struct _WsCsvReader
{
  char *path; /* for messages */
  const char *data;
  const char *end;
  const char *pos;
  guint line; /* 1-based line of pos */
  char separator;
  GString *field;
};

/**
 * ws_csv_reader_new:
 * @path: the file's name, for messages
 * @data: (transfer none): the text; must outlive the reader
 * @separator: ',' for CSV, '\t' for TSV
 *
 * Returns: (transfer full): a reader at the first line (after a UTF-8 BOM).
 */
WsCsvReader *
ws_csv_reader_new (const char *path, const char *data, gsize len, char separator)
{
  WsCsvReader *self = g_new0 (WsCsvReader, 1);

  self->path = g_strdup (path);
  self->data = data;
  self->end = data + len;
  self->pos = data;
  self->line = 1;
  self->separator = separator;
  self->field = g_string_new (NULL);
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    self->pos += 3;
  return self;
}

void
ws_csv_reader_free (WsCsvReader *self)
{
  if (self == NULL)
    return;
  g_string_free (self->field, TRUE);
  g_free (self->path);
  g_free (self);
}

guint
ws_csv_reader_line (const WsCsvReader *self)
{
  return self->line;
}

/* Moves to the start of the next line without parsing this one. */
gboolean
ws_csv_reader_skip_line (WsCsvReader *self)
{
  const char *nl;

  if (self->pos >= self->end)
    return FALSE;
  nl = memchr (self->pos, '\n', self->end - self->pos);
  self->pos = nl != NULL ? nl + 1 : self->end;
  self->line++;
  return TRUE;
}

void
ws_csv_reader_seek_line (WsCsvReader *self, const char *line_start, guint line)
{
  g_return_if_fail (line_start >= self->data && line_start <= self->end);

  self->pos = line_start;
  self->line = line;
}

static gboolean
push_field (WsCsvReader *self, GPtrArray *fields, GError **error)
{
  if (fields->len >= WS_CSV_MAX_FIELDS)
    {
      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_TOO_LARGE,
                   "%s: line %u has more than %d fields", self->path, self->line,
                   WS_CSV_MAX_FIELDS);
      return FALSE;
    }
  g_ptr_array_add (fields, g_strndup (self->field->str, self->field->len));
  g_string_truncate (self->field, 0);
  return TRUE;
}

static gboolean
append (WsCsvReader *self, const char *from, gsize len, GError **error)
{
  if (self->field->len + len > WS_CSV_MAX_FIELD_BYTES)
    {
      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_TOO_LARGE,
                   "%s: line %u has a field longer than %d MB", self->path, self->line,
                   WS_CSV_MAX_FIELD_BYTES / (1024 * 1024));
      return FALSE;
    }
  g_string_append_len (self->field, from, len);
  return TRUE;
}

/**
 * ws_csv_reader_next:
 * @fields: (element-type utf8): cleared, then filled with the row's fields
 *
 * Reads one row.  Returns %FALSE at the end of the text (error unset) or
 * on a malformed row (error set: an unterminated quote, a row too wide).
 */
gboolean
ws_csv_reader_next (WsCsvReader *self, GPtrArray *fields, GError **error)
{
  const char *p = self->pos;
  guint start_line = self->line;

  g_ptr_array_set_size (fields, 0);
  g_string_truncate (self->field, 0);
  if (p >= self->end)
    return FALSE;

  for (;;)
    {
      if (p < self->end && *p == '"')
        {
          /* A quoted field: up to the closing quote, "" is one quote. */
          p++;
          for (;;)
            {
              const char *q = memchr (p, '"', self->end - p);

              if (q == NULL)
                {
                  g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_FORMAT,
                               "%s: line %u: a quoted field is never closed", self->path,
                               start_line);
                  self->pos = self->end;
                  return FALSE;
                }
              for (const char *c = p; c < q; c++)
                if (*c == '\n')
                  self->line++;
              if (!append (self, p, q - p, error))
                return FALSE;
              p = q + 1;
              if (p < self->end && *p == '"')
                {
                  if (!append (self, "\"", 1, error))
                    return FALSE;
                  p++;
                  continue;
                }
              break;
            }
          /* Text after the closing quote belongs to the field (lenient). */
          while (p < self->end && *p != self->separator && *p != '\n' && *p != '\r')
            {
              if (!append (self, p, 1, error))
                return FALSE;
              p++;
            }
        }
      else
        {
          const char *q = p;

          while (q < self->end && *q != self->separator && *q != '\n' && *q != '\r')
            q++;
          if (!append (self, p, q - p, error))
            return FALSE;
          p = q;
        }

      if (!push_field (self, fields, error))
        return FALSE;

      if (p >= self->end)
        break;
      if (*p == self->separator)
        {
          p++;
          /* A separator at the very end leaves one empty field. */
          if (p >= self->end || *p == '\n' || *p == '\r')
            {
              if (!push_field (self, fields, error))
                return FALSE;
            }
          else
            continue;
        }
      if (p < self->end && *p == '\r')
        p++;
      if (p < self->end && *p == '\n')
        p++;
      break;
    }

  self->pos = p;
  self->line++;
  return TRUE;
}

/* Reads a text file whole, refusing one larger than @max_bytes with a
 * message that names it, rather than allocating without bound. */
gboolean
ws_csv_load_file (const char *path, gsize max_bytes, char **contents, gsize *len, GError **error)
{
  GStatBuf st;

  if (!ws_file_stat (path, &st, error))
    return FALSE;
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_FORMAT, "%s: a folder, not a file", path);
      return FALSE;
    }
  if ((guint64) st.st_size > max_bytes)
    {
      g_autofree char *size = g_format_size ((guint64) st.st_size);
      g_autofree char *limit = g_format_size (max_bytes);

      g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_TOO_LARGE,
                   "%s: %s is larger than the %s a text file may have", path, size, limit);
      return FALSE;
    }
  if (!ws_file_check_not_empty (path, &st, error))
    return FALSE;
  if (!ws_file_read_bounded (path, max_bytes, contents, len, error))
    return FALSE;
  /* Spreadsheets save CSV with a UTF-8 byte order mark: it is not text. */
  if (*len >= 3 && memcmp (*contents, "\xef\xbb\xbf", 3) == 0)
    {
      memmove (*contents, *contents + 3, *len - 3 + 1);
      *len -= 3;
    }
  return TRUE;
}

/* The ways ncu and nsys write a value that is not there. */
gboolean
ws_csv_is_missing (const char *cell)
{
  while (g_ascii_isspace (*cell))
    cell++;
  return cell[0] == '\0' || g_ascii_strcasecmp (cell, "n/a") == 0 ||
         g_ascii_strcasecmp (cell, "nan") == 0 || g_ascii_strcasecmp (cell, "no data") == 0 ||
         g_ascii_strcasecmp (cell, "-nan") == 0 || g_str_equal (cell, "-");
}

/* Parses "13,485", "97.83", "381.792000", "1.5e+06", "-3"; thousands
 * separators are dropped.  ncu's instance form "0 (0; 0; …)" gives its
 * aggregate, the first number.  Returns FALSE for a missing or non-numeric
 * cell. */
static gboolean
number_text (const char *cell, char *buf, gsize size)
{
  gsize n = 0;

  if (cell == NULL || ws_csv_is_missing (cell))
    return FALSE;
  while (g_ascii_isspace (*cell))
    cell++;
  for (const char *p = cell; *p != '\0' && *p != ' ' && *p != '(' && n < size - 1; p++)
    if (*p != ',')
      buf[n++] = *p;
  buf[n] = '\0';
  return n > 0;
}

gboolean
ws_csv_parse_number (const char *cell, double *value)
{
  char buf[128];
  char *end = NULL;
  double v;

  if (!number_text (cell, buf, sizeof buf))
    return FALSE;
  v = g_ascii_strtod (buf, &end);
  if (end == buf || *end != '\0' || !isfinite (v))
    return FALSE;
  *value = v;
  return TRUE;
}

/**
 * ws_csv_parse_number_scaled:
 * @scale: what to multiply the number by: 1000 for "us" to ns
 *
 * ws_csv_parse_number() times @scale.  A power of ten moves the decimal
 * point of the text instead of multiplying: "260.48" us is 260480 ns
 * exactly, where 260.48 × 1000 in doubles is 260480.00000000003.
 */
gboolean
ws_csv_parse_number_scaled (const char *cell, double scale, double *value)
{
  char buf[128];
  char *end = NULL;
  double v, exponent;
  long shift = 0;

  if (!ws_csv_parse_number (cell, &v))
    return FALSE;
  exponent = round (log10 (scale));
  if (scale <= 0 || fabs (exponent) > 300 || pow (10, exponent) != scale ||
      !number_text (cell, buf, sizeof buf - 32))
    {
      *value = v * scale;
      return TRUE;
    }
  {
    char *e = strpbrk (buf, "eE");
    g_autofree char *text = NULL;

    /* "1.5e+06" keeps its mantissa and adds to its exponent. */
    if (e != NULL)
      {
        shift = strtol (e + 1, NULL, 10);
        *e = '\0';
      }
    text = g_strdup_printf ("%se%ld", buf, shift + (long) exponent);
    v = g_ascii_strtod (text, &end);
    if (end == text || *end != '\0' || !isfinite (v))
      return FALSE;
  }
  *value = v;
  return TRUE;
}
