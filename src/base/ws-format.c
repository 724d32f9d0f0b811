/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-format"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-format.h"

static void
append_grouped (GString *out, const char *digits, gsize len, gboolean grouping)
{
  for (gsize i = 0; i < len; i++)
    {
      if (grouping && i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
}

#ifdef __SIZEOF_INT128__
/* ws_format_fixed()'s rounding done in integers: @magnitude is m·2^e
 * exactly (m < 2^53), so m·10^decimals·2^e, rounded half up, is the
 * answer's digits, when that product fits 128 bits (e ≤ 30) and the
 * decimal expansion of @magnitude has at most 60 digits after the point
 * (e ≥ -60, where the printed expansion is exact too).  A stats CSV of
 * 10^5 rows formats some 10^5 such numbers: printing 60 more digits each
 * was a quarter of the report's time. */
static gboolean
fixed_digits (double magnitude, int decimals, char *digits, gsize *len, gsize *int_len)
{
  static const guint64 tens[] = { 1,      10,      100,      1000,      10000,
                                  100000, 1000000, 10000000, 100000000, 1000000000 };
  unsigned __int128 q;
  char reversed[48];
  gsize n = 0;
  int exponent = 0;
  guint64 m = (guint64) ldexp (frexp (magnitude, &exponent), 53);
  int e = magnitude == 0 ? 0 : exponent - 53;

  if (e > 30 || e < -60)
    return FALSE;
  q = (unsigned __int128) m * tens[decimals];
  if (e >= 0)
    q <<= e;
  else
    {
      unsigned __int128 half = (unsigned __int128) 1 << (-e - 1);
      unsigned __int128 rest = q & ((half << 1) - 1);

      q >>= -e;
      if (rest >= half)
        q++;
    }
  do
    {
      reversed[n++] = (char) ('0' + (int) (q % 10));
      q /= 10;
    }
  while (q > 0);
  while (n < (gsize) decimals + 1)
    reversed[n++] = '0';
  for (gsize i = 0; i < n; i++)
    digits[i] = reversed[n - 1 - i];
  digits[n] = '\0';
  *len = n;
  *int_len = n - (gsize) decimals;
  return TRUE;
}
#else
static gboolean
fixed_digits (double magnitude, int decimals, char *digits, gsize *len, gsize *int_len)
{
  return FALSE;
}
#endif

/* Formats @value with @decimals digits, rounding half away from zero on the
 * exact binary value, as `nsys stats` does: 309437 / 4 = 77359.25 is exactly
 * representable and gives 77359.3 (printf's round-half-even gives 77359.2),
 * while 52041.35 is stored as 52041.34999… and gives 52041.3.
 * In integers where they suffice (fixed_digits()); else the exact
 * expansion is printed first (glibc prints it exactly), then rounded as
 * decimal digits. */
void
ws_format_fixed (GString *out, double value, int decimals, gboolean grouping)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 400];
  char format[16];
  char *digits;
  char *point;
  gsize int_len;
  gsize len;
  gboolean negative;
  gboolean all_zero = TRUE;

  g_return_if_fail (decimals >= 0 && decimals <= 9);

  if (!isfinite (value))
    {
      g_string_append (out, isnan (value) ? "nan" : value > 0 ? "inf" : "-inf");
      return;
    }

  negative = signbit (value) != 0;
  if (fixed_digits (fabs (value), decimals, buf, &len, &int_len))
    {
      for (gsize i = 0; i < len; i++)
        if (buf[i] != '0')
          all_zero = FALSE;
      digits = buf;
      goto print;
    }
  g_snprintf (format, sizeof format, "%%.%df", decimals + 60);
  g_ascii_formatd (buf, sizeof buf, format, fabs (value));

  point = strchr (buf, '.');
  g_assert (point != NULL);
  int_len = point - buf;
  /* Move the fraction digits up to the point: buf becomes all digits. */
  memmove (point, point + 1, strlen (point + 1) + 1);
  digits = buf;

  {
    gsize keep = int_len + decimals;

    if (digits[keep] >= '5')
      {
        gssize i = (gssize) keep - 1;

        while (i >= 0 && digits[i] == '9')
          digits[i--] = '0';
        if (i >= 0)
          digits[i]++;
        else
          {
            memmove (digits + 1, digits, keep);
            digits[0] = '1';
            int_len++;
            keep++;
          }
      }
    digits[keep] = '\0';

    for (gsize i = 0; i < keep; i++)
      if (digits[i] != '0')
        all_zero = FALSE;
  }

print:
  if (negative && !all_zero)
    g_string_append_c (out, '-');
  append_grouped (out, digits, int_len, grouping);
  if (decimals > 0)
    {
      g_string_append_c (out, '.');
      g_string_append_len (out, digits + int_len, decimals);
    }
}

void
ws_format_int (GString *out, gint64 value, gboolean grouping)
{
  char buf[32];
  const char *digits = buf;

  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, value);
  if (buf[0] == '-')
    {
      g_string_append_c (out, '-');
      digits++;
    }
  append_grouped (out, digits, strlen (digits), grouping);
}

/**
 * ws_format_count:
 *
 * A count as the pages show it: "100,049", with thousands separators.
 *
 * Returns: (transfer full): ws_format_int() with grouping as a new string.
 */
char *
ws_format_count (gint64 value)
{
  GString *out = g_string_new (NULL);

  ws_format_int (out, value, TRUE);
  return g_string_free (out, FALSE);
}

/**
 * ws_format_fixed_string:
 *
 * Returns: (transfer full): ws_format_fixed() as a new string, without grouping.
 */
char *
ws_format_fixed_string (double value, int decimals)
{
  GString *out = g_string_new (NULL);

  ws_format_fixed (out, value, decimals, FALSE);
  return g_string_free (out, FALSE);
}

/**
 * ws_format_duration:
 *
 * Returns: (transfer full): a duration for people: "812 ns", "3.42 µs",
 * "1.36 ms", "2.71 s", with three significant digits.
 */
char *
ws_format_duration (double ns)
{
  static const struct
  {
    double scale;
    const char *unit;
  } units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "µs" }, { 1, "ns" } };
  double magnitude = fabs (ns);

  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (magnitude >= units[i].scale || units[i].scale == 1)
      {
        double v = ns / units[i].scale;
        int decimals = fabs (v) >= 100 || units[i].scale == 1 ? 0 : fabs (v) >= 10 ? 1 : 2;
        g_autofree char *num = ws_format_fixed_string (v, decimals);

        return g_strdup_printf ("%s %s", num, units[i].unit);
      }
  g_assert_not_reached ();
}

/**
 * ws_format_bytes:
 *
 * Returns: (transfer full): a size in decimal units ("4.10 kB", "67.1 MB").
 */
char *
ws_format_bytes (double bytes)
{
  static const struct
  {
    double scale;
    const char *unit;
  } units[] = { { 1e12, "TB" }, { 1e9, "GB" }, { 1e6, "MB" }, { 1e3, "kB" }, { 1, "B" } };

  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (fabs (bytes) >= units[i].scale || units[i].scale == 1)
      {
        double v = bytes / units[i].scale;
        int decimals = units[i].scale == 1 || fabs (v) >= 100 ? 0 : fabs (v) >= 10 ? 1 : 2;
        g_autofree char *num = ws_format_fixed_string (v, decimals);

        return g_strdup_printf ("%s %s", num, units[i].unit);
      }
  g_assert_not_reached ();
}

/* RFC 4180, quoting only where needed, as `nsys stats` writes. */
void
ws_csv_append_field (GString *out, const char *field)
{
  if (field == NULL)
    return;
  if (strpbrk (field, ",\"\r\n") == NULL)
    {
      g_string_append (out, field);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = field; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/**
 * ws_format_ellipsize_middle:
 *
 * Returns: (transfer full): @text in at most @max_chars characters (at
 * least 3): the start and the end kept, "…" in the middle where it did not
 * fit, since both ends of a kernel name tell kernels apart (the function
 * and its parameters)
 */
char *
ws_format_ellipsize_middle (const char *text, guint max_chars)
{
  glong len = g_utf8_strlen (text, -1);
  glong head, tail;
  const char *head_end, *tail_start;

  max_chars = MAX (max_chars, 3);
  if (len <= (glong) max_chars)
    return g_strdup (text);
  head = (max_chars - 1 + 1) / 2;
  tail = (glong) max_chars - 1 - head;
  head_end = g_utf8_offset_to_pointer (text, head);
  tail_start = g_utf8_offset_to_pointer (text, len - tail);
  return g_strdup_printf ("%.*s…%s", (int) (head_end - text), text, tail_start);
}

/* The character at @p, when it needs no escape: its length in bytes;
 * 0 when it does (a control character, a byte that is not UTF-8), or at
 * the end.  @keep_lines lets line breaks and tabs pass. */
static gsize
plain_char (const char *p, gboolean keep_lines)
{
  guchar b = (guchar) *p;
  gunichar c;

  if (b == '\0')
    return 0;
  if (b < 0x80)
    return (b >= 0x20 && b != 0x7f) || (keep_lines && (b == '\n' || b == '\t')) ? 1 : 0;
  c = g_utf8_get_char_validated (p, -1);
  if (c == (gunichar) -1 || c == (gunichar) -2 || g_unichar_iscntrl (c))
    return 0;
  return (gsize) (g_utf8_next_char (p) - p);
}

/* The length of @text's longest start that needs no escape. */
static gsize
plain_prefix (const char *text, gboolean keep_lines)
{
  const char *p = text;
  gsize n;

  while ((n = plain_char (p, keep_lines)) > 0)
    p += n;
  return (gsize) (p - text);
}

/* The one escaping of text for a terminal: @keep_lines leaves line breaks
 * and tabs as they are (a whole report), otherwise they are escaped too
 * (one name, one cell).  Text with nothing to escape, the common case, is
 * copied in one pass. */
static char *
escape_control (const char *text, gboolean keep_lines)
{
  GString *out;
  const char *p;
  gsize plain = plain_prefix (text, keep_lines);

  if (text[plain] == '\0')
    return g_strndup (text, plain);
  out = g_string_sized_new (plain + 2 * strlen (text + plain));
  g_string_append_len (out, text, (gssize) plain);
  for (p = text + plain; *p != '\0';)
    {
      gunichar c = g_utf8_get_char_validated (p, -1);
      gsize n = plain_char (p, keep_lines);

      if (n > 0)
        {
          g_string_append_len (out, p, (gssize) n);
          p += n;
          continue;
        }
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x80)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_printf (out, "\\u%04x", c);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

/**
 * ws_format_is_terminal_safe:
 * @keep_lines: line breaks and tabs pass
 *
 * Returns: whether @text needs no escape before a terminal
 * (ws_format_escape_control(), ws_format_escape_terminal() would copy it
 * unchanged)
 */
gboolean
ws_format_is_terminal_safe (const char *text, gboolean keep_lines)
{
  g_return_val_if_fail (text != NULL, TRUE);

  return text[plain_prefix (text, keep_lines)] == '\0';
}

/**
 * ws_format_escape_control:
 *
 * For text printed to a terminal, where a name read from a file must not
 * clear the screen, set the window's title or break a table's row: line
 * breaks and tabs become `\n`, `\r`, `\t`, other control characters
 * (ESC, DEL, C1) `\x1b`, `\u009b`, and bytes that are not UTF-8 `\xff`.
 * Backslashes stay as they are, so that escaping twice changes nothing.
 * CSV and JSON keep the text exact, with their own quoting.
 *
 * Returns: (transfer full): @text with its control characters visible
 */
char *
ws_format_escape_control (const char *text)
{
  g_return_val_if_fail (text != NULL, NULL);

  return escape_control (text, FALSE);
}

/**
 * ws_format_escape_terminal:
 *
 * The same escaping for a whole text of lines bound for a terminal (a
 * report, a message): its line breaks and tabs stay, every other control
 * character and every byte that is not UTF-8 becomes visible.
 *
 * Returns: (transfer full): @text safe to print
 */
char *
ws_format_escape_terminal (const char *text)
{
  g_return_val_if_fail (text != NULL, NULL);

  return escape_control (text, TRUE);
}

/**
 * ws_format_percent_short:
 *
 * Returns: (transfer full): "12.5%", "100%", "16.67%": two decimals at
 * most, trailing zeros dropped
 */
char *
ws_format_percent_short (double value)
{
  g_autofree char *num = ws_format_fixed_string (value, 2);
  char *end = num + strlen (num) - 1;

  if (strchr (num, '.') != NULL)
    {
      while (*end == '0')
        *end-- = '\0';
      if (*end == '.')
        *end = '\0';
    }
  return g_strdup_printf ("%s%%", num);
}

/**
 * ws_format_rate:
 * @unit: "FLOP/s", "B/s"
 *
 * Returns: (transfer full): a rate with an SI prefix and three
 * significant digits: "75.6 TFLOP/s", "117 GB/s"
 */
char *
ws_format_rate (double value, const char *unit)
{
  static const struct
  {
    double scale;
    const char *prefix;
  } prefixes[] = {
    { 1e15, "P" }, { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" }, { 1, "" }
  };

  for (gsize i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (fabs (value) >= prefixes[i].scale || prefixes[i].scale == 1)
      {
        double v = value / prefixes[i].scale;
        int decimals = fabs (v) >= 100 ? 0 : fabs (v) >= 10 ? 1 : 2;
        g_autofree char *num = ws_format_fixed_string (v, decimals);

        return g_strdup_printf ("%s %s%s", num, prefixes[i].prefix, unit);
      }
  g_assert_not_reached ();
}

/* Terminal columns of a character: CJK ideographs and full-width forms
 * take two, combining marks none. */
static guint
char_columns (gunichar c)
{
  if (g_unichar_iszerowidth (c))
    return 0;
  return g_unichar_iswide (c) ? 2 : 1;
}

/**
 * ws_format_columns:
 *
 * Returns: the terminal columns @text takes (a CJK character two).
 */
guint
ws_format_columns (const char *text)
{
  guint columns = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    columns += char_columns (g_utf8_get_char (p));
  return columns;
}

/**
 * ws_format_append_wrapped:
 * @first: what the first line starts with ("  Usual fix: ")
 * @indent: what each further line starts with
 * @width: the columns a line may take; 0 for one line
 *
 * Appends @text as lines of at most @width columns and a line end.  Lines
 * break at spaces, or after a wide (CJK) character, which needs none; a
 * word longer than a line is cut where the line ends.
 */
void
ws_format_append_wrapped (GString *out, const char *first, const char *indent, const char *text,
                          guint width)
{
  guint indent_columns = ws_format_columns (indent);
  guint col = ws_format_columns (first);
  gboolean empty = TRUE;
  const char *p = text;

  g_string_append (out, first);
  while (*p != '\0')
    {
      gboolean spaced = FALSE;
      const char *word = NULL;
      guint word_columns = 0;

      while (*p == ' ' || *p == '\n')
        {
          if (*p == '\n')
            {
              g_string_append_c (out, '\n');
              g_string_append (out, indent);
              col = indent_columns;
              empty = TRUE;
            }
          spaced = TRUE;
          p++;
        }
      if (*p == '\0')
        break;
      word = p;
      /* A word ends at a space, or after a wide character. */
      while (*p != '\0' && *p != ' ' && *p != '\n')
        {
          gunichar c = g_utf8_get_char (p);

          word_columns += char_columns (c);
          p = g_utf8_next_char (p);
          if (g_unichar_iswide (c))
            break;
        }
      if (!empty && width > 0 && col + (spaced ? 1 : 0) + word_columns > width)
        {
          g_string_append_c (out, '\n');
          g_string_append (out, indent);
          col = indent_columns;
          empty = TRUE;
        }
      if (spaced && !empty)
        {
          g_string_append_c (out, ' ');
          col++;
        }
      /* A word longer than a whole line (a kernel's name) is cut at the
       * width. */
      for (const char *q = word; q < p; q = g_utf8_next_char (q))
        {
          guint c = char_columns (g_utf8_get_char (q));

          if (width > 0 && col + c > width && col > indent_columns)
            {
              g_string_append_c (out, '\n');
              g_string_append (out, indent);
              col = indent_columns;
            }
          g_string_append_len (out, q, g_utf8_next_char (q) - q);
          col += c;
        }
      empty = FALSE;
    }
  g_string_append_c (out, '\n');
}
