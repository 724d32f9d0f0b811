/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-json-text"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-json-text.h"

/**
 * ws_json_format_double:
 *
 * Formats @value with the fewest significant digits (1 to 17) whose
 * decimal reads back to exactly @value: 35.17, not 35.170000000000002.
 * Infinities and NaN have no JSON form: "null".
 *
 * Returns: (transfer none): @buf
 */
const char *
ws_json_format_double (char buf[WS_JSON_DOUBLE_BUF], double value)
{
  if (!isfinite (value))
    return strcpy (buf, "null");
  for (int digits = 1; digits <= 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, WS_JSON_DOUBLE_BUF, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  return buf;
}

void
ws_json_append_double (GString *out, double value)
{
  char buf[WS_JSON_DOUBLE_BUF];

  g_string_append (out, ws_json_format_double (buf, value));
}

/* @text as a JSON string: quotes, backslashes and control characters
 * escaped, other UTF-8 as it is. */
void
ws_json_append_string (GString *out, const char *text)
{
  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) (text != NULL ? text : ""); *p != '\0'; p++)
    switch (*p)
      {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
      }
  g_string_append_c (out, '"');
}

/* @ns as µs, exactly: the integer part and a three-digit fraction
 * ("1234.567"; "-0.500"), with no rounding through a double. */
void
ws_json_append_micros (GString *out, gint64 ns)
{
  guint64 magnitude = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;

  g_string_append_printf (out, "%s%" G_GUINT64_FORMAT ".%03u", ns < 0 ? "-" : "", magnitude / 1000,
                          (guint) (magnitude % 1000));
}
