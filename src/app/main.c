/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "warpscope"
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <string.h>

#include "ws-application.h"
#include "ws-uninstalled.h"

/* Whether the command line asks for help, which needs no display, or
 * names its display itself (--display), which GTK opens later. */
static gboolean
skips_display_check (int argc, char **argv)
{
  for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (g_str_has_prefix (argv[i], "--help") || strcmp (argv[i], "-h") == 0 ||
        strcmp (argv[i], "-?") == 0 || g_str_has_prefix (argv[i], "--display"))
      return TRUE;
  return FALSE;
}

int
main (int argc, char **argv)
{
  g_autoptr (WsApplication) app = NULL;

  ws_i18n_init ();
  g_set_application_name (_ ("Warpscope"));

  /* Without a display GTK would end with a bare "cannot open display":
   * say so in one line, with the ways that need none. */
  if (!skips_display_check (argc, argv) && !gtk_init_check (NULL, NULL))
    {
      g_printerr (_ ("warpscope: no display found (DISPLAY and WAYLAND_DISPLAY name none that "
                     "opens): run it under a virtual one (xvfb-run -a warpscope FILE), or use "
                     "warpscope-cli\n"));
      return 1;
    }
  app = ws_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
