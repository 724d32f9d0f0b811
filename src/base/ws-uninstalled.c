/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-uninstalled"
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "ws-uninstalled.h"

/**
 * ws_running_uninstalled:
 *
 * Whether this program runs from its build tree: then the build's GSettings
 * schema and translations are the ones that match it, not what an earlier
 * `meson install` left in the prefix.
 */
gboolean
ws_running_uninstalled (void)
{
  static gsize once;
  static gboolean uninstalled;

  if (g_once_init_enter (&once))
    {
      g_autofree char *exe = realpath ("/proc/self/exe", NULL);
      g_autofree char *root = realpath (BUILD_ROOT, NULL);

      uninstalled = exe != NULL && root != NULL && g_str_has_prefix (exe, root) &&
                    exe[strlen (root)] == G_DIR_SEPARATOR;
      g_once_init_leave (&once, 1);
    }
  return uninstalled;
}

/**
 * ws_i18n_init:
 *
 * Sets the locale and binds the translations: from $WARPSCOPE_LOCALEDIR
 * when set, from the build tree when running uninstalled, or else from
 * the installed prefix.
 */
void
ws_i18n_init (void)
{
  const char *localedir = g_getenv ("WARPSCOPE_LOCALEDIR");

  setlocale (LC_ALL, "");
  if (localedir == NULL)
    localedir = ws_running_uninstalled () ? BUILD_LOCALEDIR : LOCALEDIR;
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
