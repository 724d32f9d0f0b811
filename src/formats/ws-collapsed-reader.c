/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-collapsed"
#include "config.h"

#include <string.h>

#include "ws-cpu-reader-private.h"
#include "ws-reader-error.h"

/* Collapsed stacks, the FlameGraph tools' format that py-spy writes with
 * `--format raw`: one line per distinct stack, frames root first joined by
 * `;`, then a space and a count (`main;load;parse 42`).  Frames may carry
 * py-spy's `(file:line)`. */

#define MAX_DEPTH 4096

/* The count at the end of a line, after its last space: where it is. */
static const char *
line_count (const char *line, gsize len, double *count)
{
  const char *space = NULL;
  char *end = NULL;

  for (gsize i = len; i > 0; i--)
    if (line[i - 1] == ' ')
      {
        space = line + i - 1;
        break;
      }
  if (space == NULL || space == line || space + 1 == line + len)
    return NULL;
  {
    g_autofree char *num = g_strndup (space + 1, (gsize) (line + len - space - 1));

    *count = g_ascii_strtod (num, &end);
    if (end == NULL || *end != '\0' || !(*count >= 0) || *count > 1e18)
      return NULL;
  }
  return space;
}

/**
 * ws_collapsed_sniff:
 *
 * Whether the first lines read as collapsed stacks: each ends with a
 * count, and some have frames joined by `;`.
 */
gboolean
ws_collapsed_sniff (const char *head, gsize len)
{
  guint lines = 0, with_frames = 0;
  const char *p = head;
  const char *end = head + len;

  while (p < end && lines < 8)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      gsize line_len;
      double count;

      if (nl == NULL)
        break; /* the last line of the head may be cut */
      line_len = (gsize) (nl - p);
      if (line_len > 0 && p[line_len - 1] == '\r')
        line_len--;
      if (line_len > 0)
        {
          if (line_count (p, line_len, &count) == NULL || memchr (p, ',', line_len) != NULL)
            return FALSE;
          lines++;
          with_frames += memchr (p, ';', line_len) != NULL;
        }
      p = nl + 1;
    }
  return lines > 0 && with_frames > 0;
}

WsCpuProfile *
ws_collapsed_read (const char *path, const char *data, gsize len, GError **error)
{
  g_autoptr (WsCpuProfile) profile = ws_cpu_profile_new (path, "collapsed", "samples");
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  const char *p = data;
  const char *end = data + len;
  guint32 thread = ws_cpu_profile_add_thread (profile, "all", -1, -1);
  guint line_no = 0;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      gsize line_len = nl != NULL ? (gsize) (nl - p) : (gsize) (end - p);
      const char *space;
      double count;

      line_no++;
      if (line_len > 0 && p[line_len - 1] == '\r')
        line_len--;
      if (line_len == 0)
        {
          p = nl != NULL ? nl + 1 : end;
          continue;
        }
      space = line_count (p, line_len, &count);
      if (space == NULL)
        {
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                       "%s:%u: collapsed stacks: the line does not end with a count", path,
                       line_no);
          return NULL;
        }
      g_array_set_size (stack, 0);
      for (const char *f = p; f < space;)
        {
          const char *semi = memchr (f, ';', (gsize) (space - f));
          const char *f_end = semi != NULL ? semi : space;
          g_autofree char *label = g_strndup (f, (gsize) (f_end - f));
          g_autofree char *name = NULL, *file = NULL;
          gint32 line;
          guint32 id;

          if (stack->len >= MAX_DEPTH)
            {
              g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                           "%s:%u: collapsed stacks: a stack deeper than 4096 frames", path,
                           line_no);
              return NULL;
            }
          if (label[0] != '\0')
            {
              ws_cpu_frame_parse (label, &name, &file, &line);
              id = ws_cpu_profile_intern_frame (profile, name, file, line);
              g_array_append_val (stack, id);
            }
          f = semi != NULL ? semi + 1 : space;
        }
      if (stack->len > 0 && count > 0)
        ws_cpu_profile_add_sample (
          profile, ws_cpu_profile_intern_stack (profile, (guint32 *) stack->data, stack->len),
          count, thread, -1);
      p = nl != NULL ? nl + 1 : end;
    }
  if (ws_cpu_profile_n_samples (profile) == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   "%s: collapsed stacks: no stack with a count above zero", path);
      return NULL;
    }
  return g_steal_pointer (&profile);
}
