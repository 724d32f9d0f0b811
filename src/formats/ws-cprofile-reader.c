/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cprofile"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-cpu-reader-private.h"
#include "ws-reader-error.h"

/* cProfile's printed statistics (`python -m cProfile -s time script`, or
 * pstats' print_stats()), after whatever the program printed first:
 *
 *          3448105 function calls (3441782 primitive calls) in 7.058 seconds
 *
 *    Ordered by: internal time
 *
 *    ncalls  tottime  percall  cumtime  percall filename:lineno(function)
 *    402218    3.139    0.000    6.511    0.000 delaunay.py:95(inCircleFast)
 *     333/1    0.011    0.000    7.058    7.058 {built-in method builtins.exec}
 *
 * A flat profile: no stacks, so a table of functions (times in ns). */

#define SUMMARY_RE                                                                                 \
  "^\\s*(\\d+) function calls(?: \\((\\d+) primitive calls\\))? in ([0-9.]+) seconds\\s*$"
#define ROW_RE                                                                                     \
  "^\\s*(\\d+)(?:/(\\d+))?\\s+([0-9.]+)\\s+([0-9.]+|nan|inf)\\s+([0-9.]+)\\s+([0-9.]+|nan|inf)"    \
  "\\s+(\\S.*?)\\s*$"

static GRegex *
summary_regex (void)
{
  return g_regex_new (SUMMARY_RE, G_REGEX_MULTILINE, 0, NULL);
}

/**
 * ws_cprofile_sniff:
 *
 * Whether @head holds cProfile's summary line and, after it, its table
 * header.
 */
gboolean
ws_cprofile_sniff (const char *head, gsize len)
{
  g_autoptr (GRegex) re = summary_regex ();
  g_autoptr (GMatchInfo) match = NULL;
  g_autofree char *text = g_strndup (head, len);
  gint start, end;

  if (!g_utf8_validate (text, -1, NULL) || !g_regex_match (re, text, 0, &match) ||
      !g_match_info_fetch_pos (match, 0, &start, &end))
    return FALSE;
  return strstr (text + end, "ncalls") != NULL &&
         strstr (text + end, "filename:lineno(function)") != NULL;
}

/* `file:line(function)`, or `{built-in method …}` / `<frozen …>` forms. */
static guint32
intern_location (WsCpuProfile *profile, const char *where)
{
  gsize len = strlen (where);
  const char *open = NULL;
  const char *colon = NULL;

  if (len > 3 && where[len - 1] == ')' && where[0] != '{')
    {
      /* The function's parenthesis: the first one after the last ':'. */
      colon = strrchr (where, ':');
      if (colon != NULL)
        open = strchr (colon, '(');
    }
  if (open != NULL && colon != NULL && open > colon + 1)
    {
      g_autofree char *file = g_strndup (where, (gsize) (colon - where));
      g_autofree char *line = g_strndup (colon + 1, (gsize) (open - colon - 1));
      g_autofree char *name = g_strndup (open + 1, (gsize) (where + len - 1 - open - 1));
      char *end = NULL;
      gint64 n = g_ascii_strtoll (line, &end, 10);

      if (end != NULL && *end == '\0' && n >= 0 && n <= G_MAXINT32)
        return ws_cpu_profile_intern_frame (profile, name, file, (gint32) n);
    }
  return ws_cpu_profile_intern_frame (profile, where, NULL, -1);
}

WsCpuProfile *
ws_cprofile_read (const char *path, const char *data, gsize len, GError **error)
{
  g_autoptr (WsCpuProfile) profile = ws_cpu_profile_new (path, "cprofile", "ns");
  g_autoptr (GRegex) row_re = g_regex_new (ROW_RE, 0, 0, NULL);
  g_autoptr (GRegex) re = summary_regex ();
  g_autoptr (GMatchInfo) match = NULL;
  g_auto (GStrv) lines = NULL;
  const char *text = data;
  gint start, end;
  gboolean in_table = FALSE;
  guint line_no = 0;

  if (!g_regex_match (re, text, 0, &match) || !g_match_info_fetch_pos (match, 0, &start, &end))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: cProfile text: no \"N function calls … in S seconds\" line", path);
      return NULL;
    }
  {
    g_autofree char *calls = g_match_info_fetch (match, 1);
    g_autofree char *seconds = g_match_info_fetch (match, 3);

    profile->flat_calls = g_ascii_strtoll (calls, NULL, 10);
    profile->flat_total = g_ascii_strtod (seconds, NULL) * 1e9;
  }
  for (const char *p = text; p < text + start; p++)
    line_no += *p == '\n';
  ws_cpu_profile_add_thread (profile, "all", -1, -1);

  lines = g_strsplit (text + end, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GMatchInfo) row = NULL;
      const char *line = lines[i];
      char *stripped = g_strstrip (g_strdup (line));
      gboolean blank = stripped[0] == '\0';
      gboolean header = g_str_has_prefix (stripped, "ncalls");

      g_free (stripped);
      line_no++;
      if (!in_table)
        {
          in_table = header;
          continue;
        }
      if (blank)
        {
          if (profile->functions->len > 0)
            break;
          continue;
        }
      if (g_regex_match (row_re, line, 0, &row))
        {
          g_autofree char *calls = g_match_info_fetch (row, 1);
          g_autofree char *primitive = g_match_info_fetch (row, 2);
          g_autofree char *tottime = g_match_info_fetch (row, 3);
          g_autofree char *cumtime = g_match_info_fetch (row, 5);
          g_autofree char *where = g_match_info_fetch (row, 7);
          WsCpuFunction f;

          f.frame = intern_location (profile, where);
          f.calls = g_ascii_strtoll (calls, NULL, 10);
          f.primitive_calls = primitive != NULL && primitive[0] != '\0'
                                ? g_ascii_strtoll (primitive, NULL, 10)
                                : f.calls;
          f.self = g_ascii_strtod (tottime, NULL) * 1e9;
          f.total = g_ascii_strtod (cumtime, NULL) * 1e9;
          if (!isfinite (f.self) || !isfinite (f.total) || f.calls < 0 || f.primitive_calls < 0)
            continue;
          g_array_append_val (profile->functions, f);
        }
      else
        {
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                       "%s:%u: cProfile text: a row that is not `ncalls tottime percall cumtime "
                       "percall filename:lineno(function)`",
                       path, line_no + 1);
          return NULL;
        }
    }
  if (profile->functions->len == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   "%s: cProfile text: no function rows under the summary line", path);
      return NULL;
    }
  return g_steal_pointer (&profile);
}
