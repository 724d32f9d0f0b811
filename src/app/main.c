/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "warpscope"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-application.h"
#include "ws-uninstalled.h"

int
main (int argc, char **argv)
{
  g_autoptr (WsApplication) app = NULL;

  ws_i18n_init ();
  g_set_application_name (_ ("Warpscope"));

  app = ws_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
