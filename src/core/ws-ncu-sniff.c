/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ncu"
#include "config.h"

#include <string.h>

#include "ws-ncu-sniff.h"

/* Whether the first bytes of a file are an ncu CSV export: a raw page
 * ("ID","Process ID",…,"Kernel Name",…), a details page (…"Section Name",
 * "Metric Name"…), possibly after ==PROF== lines of a live run, or an
 * export that holds only ncu's error messages. */
gboolean
ws_ncu_sniff (const char *head, gsize len)
{
  g_autofree char *text = g_strndup (head, len);

  if (strstr (text, "\"Kernel Name\"") != NULL && strstr (text, "\"ID\"") != NULL)
    return TRUE;
  if (strstr (text, "\"Metric Name\"") != NULL && strstr (text, "\"Section Name\"") != NULL)
    return TRUE;
  if (g_str_has_prefix (text, "==PROF==") || g_str_has_prefix (text, "==ERROR==") ||
      g_str_has_prefix (text, "==WARNING=="))
    return TRUE;
  return FALSE;
}
