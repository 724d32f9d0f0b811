/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "warpscope"
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "ws-application.h"

int
main (int argc, char **argv)
{
  const char *localedir = g_getenv ("WARPSCOPE_LOCALEDIR");
  g_autoptr (WsApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name (_ ("Warpscope"));

  app = ws_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
