/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-settings"
#include "config.h"

#include "ws-settings.h"
#include "ws-uninstalled.h"

/**
 * ws_settings_new:
 *
 * The org.warpscope.Warpscope settings: installed, or compiled in the
 * build folder for uninstalled runs and tests.  Without either (a bare
 * binary copied elsewhere) there are no settings to keep, and %NULL.
 *
 * Returns: (transfer full) (nullable): the settings
 */
GSettings *
ws_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  /* Uninstalled, the build's schema matches the code; an installed one may
   * be older and lack keys, which GSettings punishes with an abort. */
  if (source != NULL && !ws_running_uninstalled ())
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    {
      g_autoptr (GSettingsSchemaSource) build =
        g_settings_schema_source_new_from_directory (BUILD_SCHEMA_DIR, source, FALSE, NULL);

      if (build != NULL)
        schema = g_settings_schema_source_lookup (build, APP_ID, FALSE);
    }
  if (schema == NULL && source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

/* Puts @entry first in the string list @key, without duplicates, keeping
 * at most @max entries. */
void
ws_settings_add_recent (GSettings *settings, const char *key, const char *entry, guint max)
{
  g_auto (GStrv) old = NULL;
  g_autoptr (GPtrArray) list = g_ptr_array_new ();

  if (settings == NULL)
    return;
  old = g_settings_get_strv (settings, key);
  g_ptr_array_add (list, (gpointer) entry);
  for (guint i = 0; old[i] != NULL && list->len < max; i++)
    if (g_strcmp0 (old[i], entry) != 0)
      g_ptr_array_add (list, old[i]);
  g_ptr_array_add (list, NULL);
  g_settings_set_strv (settings, key, (const char *const *) list->pdata);
}
