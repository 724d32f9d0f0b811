/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cpu-reader"
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "ws-compressed.h"
#include "ws-cpu-reader-private.h"
#include "ws-cpu-reader.h"
#include "ws-file.h"
#include "ws-reader-error.h"

/* How far into a file its profile may start: cProfile prints after the
 * program's own output. */
#define SNIFF_BYTES (1024 * 1024)
/* The largest CPU profile read whole. */
#define MAX_PROFILE_BYTES ((gsize) 1 << 30)
/* What a compressed file's head gives to the sniffers. */
#define SNIFF_HEAD_BYTES 8192

static gboolean
looks_like_speedscope (const char *head, gsize len)
{
  g_autofree char *text = g_strndup (head, len);
  const char *p = text;

  while (g_ascii_isspace (*p))
    p++;
  return *p == '{' && (strstr (p, "speedscope") != NULL ||
                       (strstr (p, "\"profiles\"") != NULL && strstr (p, "\"shared\"") != NULL));
}

static gboolean
refuse_lookalike (const char *path, const char *head, gsize len, GError **error)
{
  g_autofree char *text = g_strndup (head, len);

  if (strstr (text, "<svg") != NULL &&
      (strstr (text, "py-spy") != NULL || strstr (text, "inferno") != NULL ||
       strstr (text, "Flame graph") != NULL || strstr (text, "FlameGraph") != NULL))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: a flame graph already drawn as SVG (py-spy's default output), not its "
                   "samples; record with `py-spy record --format speedscope` or `--format raw`",
                   path);
      return TRUE;
    }
  if (g_str_has_prefix (text, "Process ") && strstr (text, "\nPython v") != NULL &&
      strstr (text, "\nThread ") != NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: a py-spy dump (the stacks of one moment), not a profile; record one with "
                   "`py-spy record --format speedscope`",
                   path);
      return TRUE;
    }
  return FALSE;
}

/* cProfile's table may start far into the file: read more than the head. */
static gboolean
sniff_cprofile_file (const char *path, const char *head, gsize len)
{
  g_autofree char *buf = NULL;
  FILE *file;
  gsize got;

  if (ws_cprofile_sniff (head, len))
    return TRUE;
  if (path == NULL || len < 8192)
    return FALSE;
  file = g_fopen (path, "rb");
  if (file == NULL)
    return FALSE;
  buf = g_malloc (SNIFF_BYTES);
  got = fread (buf, 1, SNIFF_BYTES, file);
  fclose (file);
  return ws_cprofile_sniff (buf, got);
}

/* Collapsed stacks of deep Python code have lines longer than the head:
 * when no line ends in it, read further. */
static gboolean
sniff_collapsed_file (const char *path, const char *head, gsize len)
{
  g_autofree char *buf = NULL;
  FILE *file;
  gsize got;

  if (ws_collapsed_sniff (head, len))
    return TRUE;
  if (path == NULL || len < 8192 || memchr (head, '\n', len) != NULL)
    return FALSE;
  file = g_fopen (path, "rb");
  if (file == NULL)
    return FALSE;
  buf = g_malloc (SNIFF_BYTES);
  got = fread (buf, 1, SNIFF_BYTES, file);
  fclose (file);
  return ws_collapsed_sniff (buf, got);
}

/**
 * ws_cpu_reader_sniff:
 * @head: the first bytes of @path
 * @error: set when @path is a Python profiler's output that is not a
 *   profile (a py-spy SVG, a py-spy dump): the line that says so
 *
 * Returns: the format of @path, or %WS_CPU_FORMAT_NONE.
 */
WsCpuFormat
ws_cpu_reader_sniff (const char *path, const char *head, gsize len, GError **error)
{
  g_autofree char *inflated = NULL;
  g_autofree char *packed = NULL;
  WsCompression compression = ws_compressed_sniff (head, len);
  const char *file = path;
  gsize sniff_len = len;

  /* A compressed profile is judged by its first decompressed megabyte (a
   * cProfile table may start that far in), from the file's first
   * compressed megabyte; the search of the file itself is left out. */
  if (compression != WS_COMPRESSION_NONE)
    {
      gsize inflated_len = 0;
      FILE *stream = path != NULL ? g_fopen (path, "rb") : NULL;

      if (stream != NULL)
        {
          packed = g_malloc (SNIFF_BYTES);
          len = fread (packed, 1, SNIFF_BYTES, stream);
          fclose (stream);
          head = packed;
        }
      inflated = ws_compressed_inflate (path, compression, head, len, SNIFF_BYTES, TRUE,
                                        &inflated_len, NULL);
      if (inflated == NULL)
        return WS_CPU_FORMAT_NONE;
      head = inflated;
      len = inflated_len;
      file = NULL;
      sniff_len = MIN (len, SNIFF_HEAD_BYTES);
    }
  if (refuse_lookalike (path, head, sniff_len, error))
    return WS_CPU_FORMAT_NONE;
  if (looks_like_speedscope (head, sniff_len))
    return WS_CPU_FORMAT_SPEEDSCOPE;
  if (sniff_cprofile_file (file, head, len))
    return WS_CPU_FORMAT_CPROFILE;
  if (sniff_collapsed_file (file, head, len))
    return WS_CPU_FORMAT_COLLAPSED;
  return WS_CPU_FORMAT_NONE;
}

/**
 * ws_cpu_reader_load_data:
 * @data: (array length=len): the whole file
 *
 * Reads a CPU profile of any format ws_cpu_reader_sniff() knows.
 *
 * Returns: (transfer full): the profile, or %NULL with @error set to one
 * line naming @path.
 */
WsCpuProfile *
ws_cpu_reader_load_data (const char *path, const char *data, gsize len, GError **error)
{
  g_autofree char *copy = NULL;
  WsCpuProfile *profile = NULL;
  GError *local = NULL;

  if (len == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_EMPTY, "%s: the file is empty", path);
      return NULL;
    }
  if (memchr (data, '\0', len) != NULL || !g_utf8_validate_len (data, len, NULL))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: not a CPU profile (binary data, or text that is not UTF-8)", path);
      return NULL;
    }
  copy = g_strndup (data, len);
  if (refuse_lookalike (path, copy, MIN (len, 8192), error))
    return NULL;
  if (looks_like_speedscope (copy, MIN (len, 8192)))
    profile = ws_speedscope_read (path, copy, len, &local);
  else if (ws_cprofile_sniff (copy, MIN (len, (gsize) SNIFF_BYTES)))
    profile = ws_cprofile_read (path, copy, len, &local);
  else if (ws_collapsed_sniff (copy, MIN (len, (gsize) SNIFF_BYTES)))
    profile = ws_collapsed_read (path, copy, len, &local);
  else
    g_set_error (&local, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                 "%s: not a CPU profile Warpscope reads (speedscope JSON, collapsed stacks, or "
                 "cProfile text)",
                 path);
  if (profile == NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  ws_cpu_profile_finish (profile);
  return profile;
}

/**
 * ws_cpu_reader_load:
 *
 * Returns: (transfer full): the profile in @path, or %NULL with @error set.
 */
WsCpuProfile *
ws_cpu_reader_load (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  WsCompression compression;
  GStatBuf st;
  gsize len = 0;

  if (!ws_file_stat (path, &st, error))
    return NULL;
  if ((gsize) st.st_size > MAX_PROFILE_BYTES)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE,
                   "%s: a CPU profile of more than 1 GiB", path);
      return NULL;
    }
  if (!ws_file_read_bounded (path, MAX_PROFILE_BYTES, &data, &len, error))
    return NULL;
  /* gzip and xz by their magic bytes, whatever the name; the bound is on
   * what they decompress to. */
  compression = ws_compressed_sniff (data, len);
  if (compression != WS_COMPRESSION_NONE)
    {
      g_autofree char *inflated =
        ws_compressed_inflate (path, compression, data, len, MAX_PROFILE_BYTES, FALSE, &len, error);

      if (inflated == NULL)
        return NULL;
      g_clear_pointer (&data, g_free);
      return ws_cpu_reader_load_data (path, inflated, len, error);
    }
  return ws_cpu_reader_load_data (path, data, len, error);
}

/**
 * ws_cpu_frame_parse:
 * @label: `name (file:line)`, `name (file)` or `name`
 *
 * Splits a frame as py-spy writes it.
 */
void
ws_cpu_frame_parse (const char *label, char **name, char **file, gint32 *line)
{
  gsize len = strlen (label);
  const char *open = NULL;

  *file = NULL;
  *line = -1;
  if (len > 3 && label[len - 1] == ')')
    {
      int depth = 0;

      for (const char *p = label + len - 1; p > label; p--)
        {
          depth += *p == ')';
          depth -= *p == '(';
          if (depth == 0)
            {
              open = p;
              break;
            }
        }
    }
  if (open == NULL || open == label || open[-1] != ' ')
    {
      *name = g_strdup (label);
      return;
    }
  *name = g_strndup (label, (gsize) (open - 1 - label));
  {
    g_autofree char *inside = g_strndup (open + 1, (gsize) (label + len - 1 - (open + 1)));
    char *colon = strrchr (inside, ':');
    char *end = NULL;
    gint64 n;

    if (colon != NULL && colon[1] != '\0')
      {
        n = g_ascii_strtoll (colon + 1, &end, 10);
        if (end != NULL && *end == '\0' && n >= 0 && n <= G_MAXINT32)
          {
            *colon = '\0';
            *line = (gint32) n;
          }
      }
    *file = g_strdup (inside);
  }
}
