/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-name-pattern"
#include "config.h"

#include <string.h>

#include "ws-name-pattern.h"

/* Numbered names ("iter 0" … "iter 24999", "ProfilerStep#2", "decode 7")
 * are instances of one thing: its pattern writes each run of ASCII digits
 * as N ("iter N", "ProfilerStep#N").  docs/NOTES.md, "Where findings
 * happen", says where the pattern is used. */

/* Whether @name holds an ASCII digit. */
gboolean
ws_name_is_numbered (const char *name)
{
  for (const char *p = name; p != NULL && *p != '\0'; p++)
    if (g_ascii_isdigit (*p))
      return TRUE;
  return FALSE;
}

/* Returns (transfer full): @name with each run of ASCII digits replaced by
 * "N"; a copy of @name where it has none. */
char *
ws_name_pattern (const char *name)
{
  GString *out = g_string_sized_new (name != NULL ? strlen (name) : 0);

  for (const char *p = name; p != NULL && *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        g_string_append_c (out, *p);
      else if (p == name || !g_ascii_isdigit (p[-1]))
        g_string_append_c (out, 'N');
    }
  return g_string_free (out, FALSE);
}
