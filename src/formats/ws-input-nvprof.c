/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-input"
#include "config.h"

#include <string.h>

#include "ws-input-nvprof.h"
#include "ws-reader-error.h"
#include "ws-sqlite.h"

/* The sniffs of nvprof's inputs, for the table of inputs (ws-input.c):
 * formats says what a path is, and nvprof's readers are a library above
 * it (src/nvprof), as Kineto's are.  They moved here from that library's
 * ws-nvprof-reader.c, ws-nvprof-log.c and ws-nvprof-trace.c unchanged. */

/**
 * ws_nvprof_reader_sniff:
 *
 * Whether @path is an SQLite database laid out as nvprof writes it: a
 * StringTable and CUPTI_ACTIVITY_KIND_* tables, without nsys's StringIds.
 * An SQLite file of nvprof's CPU sampling (profStringTable, collHit) counts
 * too, so that its reader can say what it is.
 */
gboolean
ws_nvprof_reader_sniff (const char *path)
{
  g_autoptr (WsSqlite) sql = ws_sqlite_open (path, NULL, NULL);

  if (sql == NULL || ws_sqlite_find_table (sql, "StringIds") != NULL)
    return FALSE;
  if (ws_sqlite_find_table (sql, "profStringTable") != NULL &&
      ws_sqlite_find_table (sql, "collHit") != NULL)
    return TRUE;
  return ws_sqlite_find_table (sql, "StringTable") != NULL &&
         (ws_sqlite_find_table (sql, "CUPTI_ACTIVITY_KIND_KERNEL") != NULL ||
          ws_sqlite_find_table (sql, "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL") != NULL ||
          ws_sqlite_find_table (sql, "CUPTI_ACTIVITY_KIND_RUNTIME") != NULL);
}

static gboolean
has_suffix_ci (const char *path, const char *suffix)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  return g_str_has_suffix (lower, suffix);
}

/**
 * ws_nvprof_reader_sniff_head:
 * @head: the first bytes of @path, which is not an SQLite file
 *
 * Recognises what looks like an nvprof export and is not: a Visual
 * Profiler session file (XML, which names the data files it shows), or a
 * binary file with an nvprof name.
 *
 * Returns: %TRUE with @error set to the line that says what @path is.
 */
gboolean
ws_nvprof_reader_sniff_head (const char *path, const char *head, gsize len, GError **error)
{
  g_autofree char *text = g_strndup (head, len);

  if (g_str_has_prefix (g_strchug (text), "<?xml") && strstr (text, "<session") != NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: a Visual Profiler session file (XML), not an nvprof export; open the "
                   "data file it refers to, or write one with `nvprof -o FILE.nvvp`",
                   path);
      return TRUE;
    }
  if (has_suffix_ci (path, ".nvvp") || has_suffix_ci (path, ".nvprof"))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: not an nvprof export (`nvprof -o` writes SQLite databases; this file "
                   "is binary data of another kind)",
                   path);
      return TRUE;
    }
  return FALSE;
}

/**
 * ws_nvprof_pid_line:
 *
 * "==1234== rest": the pid and the rest, or FALSE.  nvprof writes each line
 * of its own this way; its log reader (src/nvprof) splits them with it too.
 */
gboolean
ws_nvprof_pid_line (const char *line, guint32 *pid, const char **rest)
{
  const char *p = line;
  guint64 v = 0;

  if (!g_str_has_prefix (p, "=="))
    return FALSE;
  p += 2;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    {
      v = v * 10 + (guint64) (*p - '0');
      if (v > G_MAXUINT32)
        return FALSE;
      p++;
    }
  if (!g_str_has_prefix (p, "=="))
    return FALSE;
  *pid = (guint32) v;
  *rest = g_strchug ((char *) p + 2);
  return TRUE;
}

/**
 * ws_nvprof_log_sniff:
 *
 * Whether @head (the first bytes of a text file) is nvprof output: a line
 * `==PID== NVPROF is profiling…`, `==PID== Profiling result:` or the like,
 * or the header of a `--csv` summary.
 */
gboolean
ws_nvprof_log_sniff (const char *head, gsize len)
{
  static const char *const phrases[] = { "NVPROF is profiling", "Profiling application:",
                                         "Profiling result:",   "Warning: Some kernel(s) will be",
                                         "Metric result:",      "Event result:" };
  g_autofree char *text = g_strndup (head, len);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint32 pid;
      const char *rest;

      if (g_str_has_prefix (lines[i], "\"Type\",\"Time(%)\"") ||
          g_str_has_prefix (lines[i], "\"Device\",\"Kernel\",\"Invocations\","))
        return TRUE;
      if (!ws_nvprof_pid_line (lines[i], &pid, &rest))
        continue;
      for (gsize k = 0; k < G_N_ELEMENTS (phrases); k++)
        if (g_str_has_prefix (rest, phrases[k]))
          return TRUE;
    }
  return FALSE;
}

/**
 * ws_nvprof_trace_sniff:
 *
 * Whether @head holds an nvprof GPU trace: a "Profiling result:" line
 * followed by a header with Start, Duration and Name.
 */
gboolean
ws_nvprof_trace_sniff (const char *head, gsize len)
{
  g_autofree char *text = g_strndup (head, len);
  const char *result = strstr (text, "== Profiling result:");
  const char *nl;
  g_autofree char *line = NULL;

  if (result == NULL || (nl = strchr (result, '\n')) == NULL)
    return FALSE;
  line = g_strndup (nl + 1, strcspn (nl + 1, "\r\n"));
  return strstr (line, "Start") != NULL && strstr (line, "Duration") != NULL &&
         strstr (line, "Name") != NULL && strstr (line, "Grid") != NULL;
}
