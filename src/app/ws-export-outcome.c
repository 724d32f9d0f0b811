/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-export-outcome.h"

/**
 * ws_export_outcome:
 * @path: the file an export wrote to
 * @error: (nullable): what went wrong, or %NULL when it succeeded
 * @type: (out): the info bar's kind for the line
 *
 * The one line a window's info bar shows when an export ends: where the
 * file went, or what went wrong, naming the file once.  The main window and
 * the compare window both say it this way.
 *
 * Returns: (transfer full) (nullable): the line, or %NULL for an export
 * cancelled because its window closed (nobody to tell)
 */
char *
ws_export_outcome (const char *path, const GError *error, GtkMessageType *type)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return NULL;
  *type = error == NULL ? GTK_MESSAGE_INFO : GTK_MESSAGE_ERROR;
  if (error == NULL)
    return g_strdup_printf (_ ("Exported to %s."), path);
  if (strstr (error->message, path) != NULL)
    return g_strdup (error->message);
  /* TRANSLATORS: the file exported to, then what went wrong */
  return g_strdup_printf (_ ("Could not export to %s: %s"), path, error->message);
}
