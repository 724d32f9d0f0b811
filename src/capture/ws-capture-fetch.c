/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-fetch"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-atomic-file.h"
#include "ws-capture-error.h"
#include "ws-capture-fetch.h"
#include "ws-json-depth.h"
#include "ws-ssh-connection.h"
#include "ws-tools-error.h"

/* The files of a capture made on a host that are not here yet — the
 * reports left there on purpose, or what a lost connection cut — fetched
 * on request from what the folder's run.json says: where the capture ran
 * and what it made.  Partial copies resume; run.json is brought up to
 * date. */

static JsonObject *
load_manifest (const char *dir, JsonParser *parser, GError **error)
{
  g_autofree char *path = g_build_filename (dir, "run.json", NULL);
  g_autofree char *text = NULL;
  gsize len = 0;
  JsonNode *root;

  if (!ws_json_read_file (path, WS_JSON_MANIFEST_MAX_BYTES, &text, &len, error))
    return NULL;
  if (!json_parser_load_from_data (parser, text, (gssize) len, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "%s: not a capture's manifest (no object)", path);
      return NULL;
    }
  return json_node_get_object (root);
}

static const char *
member_string (JsonObject *object, const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static JsonObject *
member_object (JsonObject *object, const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* The host a capture folder's run.json names, checked as capture checks a
 * host it is given: a folder sent by someone else is data, and nothing
 * in it may reach ssh as an option. */
static WsSshHost *
manifest_host (const char *dir, JsonObject *remote, GError **error)
{
  g_autoptr (WsSshHost) host = NULL;
  g_autoptr (GError) local = NULL;
  const char *destination = member_string (remote, "destination");
  JsonNode *port = json_object_get_member (remote, "port");
  gint64 number = 0;

  if (!ws_ssh_destination_check (destination, &local))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   _ ("%s/run.json: remote.destination: %s"), dir, local->message);
      return NULL;
    }
  if (port != NULL && !JSON_NODE_HOLDS_NULL (port))
    {
      if (!JSON_NODE_HOLDS_VALUE (port) || json_node_get_value_type (port) != G_TYPE_INT64)
        {
          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                       _ ("%s/run.json: remote.port: not a number from 1 to 65535"), dir);
          return NULL;
        }
      number = json_node_get_int (port);
      if (number == 0 || !ws_ssh_port_check (number, NULL))
        {
          g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, number);

          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                       _ ("%s/run.json: remote.port: %s is not from 1 to 65535"), dir, text);
          return NULL;
        }
    }
  if (!ws_ssh_identity_check (member_string (remote, "identity"), &local))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   _ ("%s/run.json: remote.identity: %s"), dir, local->message);
      return NULL;
    }
  host = ws_ssh_host_new (member_string (remote, "host"), destination, (guint) number);
  host->identity = g_strdup (member_string (remote, "identity"));
  return g_steal_pointer (&host);
}

/**
 * ws_capture_folder_is_remote:
 *
 * Returns: whether the capture folder's run.json says it ran on a host
 */
gboolean
ws_capture_folder_is_remote (const char *dir)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *manifest = load_manifest (dir, parser, NULL);

  return member_object (manifest, "remote") != NULL;
}

/* The files a capture made, relative to its folder: the kernel summary
 * and the export, the ncu CSVs, then the reports. */
static GPtrArray *
made_files (JsonObject *manifest)
{
  GPtrArray *files = g_ptr_array_new ();
  JsonObject *outputs = member_object (manifest, "outputs");
  JsonNode *ncu_node = outputs != NULL ? json_object_get_member (outputs, "ncu") : NULL;
  JsonArray *ncu =
    ncu_node != NULL && JSON_NODE_HOLDS_ARRAY (ncu_node) ? json_node_get_array (ncu_node) : NULL;
  const char *keys[] = { "kern_sum_csv", "sqlite" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (member_string (outputs, keys[i]) != NULL)
      g_ptr_array_add (files, (gpointer) member_string (outputs, keys[i]));
  for (guint i = 0; ncu != NULL && i < json_array_get_length (ncu); i++)
    if (member_string (json_array_get_object_element (ncu, i), "raw_csv") != NULL)
      g_ptr_array_add (
        files, (gpointer) member_string (json_array_get_object_element (ncu, i), "raw_csv"));
  if (member_string (outputs, "nsys_rep") != NULL)
    g_ptr_array_add (files, (gpointer) member_string (outputs, "nsys_rep"));
  for (guint i = 0; ncu != NULL && i < json_array_get_length (ncu); i++)
    if (member_string (json_array_get_object_element (ncu, i), "report") != NULL)
      g_ptr_array_add (files,
                       (gpointer) member_string (json_array_get_object_element (ncu, i), "report"));
  return files;
}

/* A relative path that stays inside the folder. */
static gboolean
inside (const char *relative)
{
  g_auto (GStrv) parts = g_strsplit (relative, "/", -1);

  if (relative[0] == '/' || relative[0] == '\0')
    return FALSE;
  for (guint i = 0; parts[i] != NULL; i++)
    if (g_str_equal (parts[i], ".."))
      return FALSE;
  return TRUE;
}

static void
record (JsonObject *remote, const char *relative, const WsSshFetched *file)
{
  JsonNode *files_node = json_object_get_member (remote, "files");
  JsonArray *files;
  JsonObject *entry = NULL;

  if (files_node == NULL || !JSON_NODE_HOLDS_ARRAY (files_node))
    {
      json_object_set_array_member (remote, "files", json_array_new ());
      files_node = json_object_get_member (remote, "files");
    }
  files = json_node_get_array (files_node);
  for (guint i = 0; i < json_array_get_length (files) && entry == NULL; i++)
    if (g_strcmp0 (member_string (json_array_get_object_element (files, i), "path"), relative) == 0)
      entry = json_array_get_object_element (files, i);
  if (entry == NULL)
    {
      entry = json_object_new ();
      json_array_add_object_element (files, entry);
    }
  json_object_set_string_member (entry, "path", relative);
  json_object_set_string_member (entry, "remote", file->remote_path);
  if (file->size >= 0)
    json_object_set_int_member (entry, "size", file->size);
  else
    json_object_set_null_member (entry, "size");
  if (file->sha256 != NULL)
    json_object_set_string_member (entry, "sha256", file->sha256);
  json_object_set_int_member (entry, "resumed_from", file->resumed_from);
  json_object_set_string_member (entry, "state",
                                 file->size < 0 ? "missing"
                                 : file->done   ? "copied"
                                                : "partial");
}

static gboolean
save_manifest (const char *dir, JsonParser *parser, GError **error)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *path = g_build_filename (dir, "run.json", NULL);
  g_autofree char *text = NULL;
  gsize len;

  json_generator_set_root (generator, json_parser_get_root (parser));
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, &len);
  return ws_atomic_file_save (path, text, len, WS_ATOMIC_FILE_DEFAULT, error);
}

/**
 * ws_capture_fetch_folder:
 * @dir: a target's capture folder, made on a host
 * @settings: the ssh command and the bandwidth limit
 * @progress: (scope call) (nullable): bytes copied, as they come
 * @summary: (out) (transfer full) (optional): one line saying what came
 *
 * Copies from the host the files the capture made there that are not in
 * @dir yet, resuming their .part files, each checked; updates run.json.
 * Blocks: call it from a worker thread in a window.
 *
 * Returns: %FALSE with @error set when @dir is not a capture made on a
 *   host (WS_CAPTURE_ERROR_INVALID), the host cannot be reached, or a copy
 *   failed (what arrived stays)
 */
gboolean
ws_capture_fetch_folder (const char *dir, const WsCaptureSettings *settings,
                         GCancellable *cancellable, WsSshFetchProgress progress, gpointer user_data,
                         char **summary, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) made = NULL;
  g_autoptr (GPtrArray) relatives = g_ptr_array_new ();
  g_autoptr (GPtrArray) remote_paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) local_paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) fetched =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_fetched_free);
  g_autoptr (WsSshHost) host = NULL;
  g_autoptr (WsSshConnection) connection = NULL;
  g_auto (GStrv) ssh = NULL;
  JsonObject *manifest;
  JsonObject *remote;
  const char *remote_dir;
  const char *destination;
  guint here = 0, copied = 0, missing = 0;
  gboolean ok;

  g_return_val_if_fail (dir != NULL && settings != NULL, FALSE);

  manifest = load_manifest (dir, parser, error);
  if (manifest == NULL)
    return FALSE;
  remote = member_object (manifest, "remote");
  remote_dir = member_string (remote, "dir");
  destination = member_string (remote, "destination");
  if (remote == NULL || remote_dir == NULL || destination == NULL)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "%s: not a capture made on another machine (its run.json says no host)", dir);
      return FALSE;
    }
  host = manifest_host (dir, remote, error);
  if (host == NULL)
    return FALSE;

  made = made_files (manifest);
  for (guint i = 0; i < made->len; i++)
    {
      const char *relative = g_ptr_array_index (made, i);
      g_autofree char *local = NULL;

      if (!inside (relative))
        {
          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                       "%s/run.json: “%s” is not a path inside the folder", dir, relative);
          return FALSE;
        }
      local = g_build_filename (dir, relative, NULL);
      if (g_file_test (local, G_FILE_TEST_IS_REGULAR))
        {
          here++;
          continue;
        }
      g_ptr_array_add (relatives, (gpointer) relative);
      g_ptr_array_add (remote_paths, g_build_filename (remote_dir, relative, NULL));
      g_ptr_array_add (local_paths, g_steal_pointer (&local));
    }
  if (remote_paths->len > 0)
    {
      ssh = ws_capture_settings_ssh_argv (settings, error);
      if (ssh == NULL)
        return FALSE;
      connection = ws_ssh_connection_new (host, (const char *const *) ssh);
      if (!ws_ssh_connection_open (connection, cancellable, error))
        return FALSE;
      g_ptr_array_add (remote_paths, NULL);
      g_ptr_array_add (local_paths, NULL);
      ok = ws_ssh_fetch_files (connection, (const char *const *) remote_paths->pdata,
                               (const char *const *) local_paths->pdata,
                               (guint64) settings->transfer_limit * 1024, cancellable, progress,
                               user_data, fetched, error);
      ws_ssh_connection_close (connection);
      for (guint i = 0; i < fetched->len; i++)
        {
          const WsSshFetched *file = g_ptr_array_index (fetched, i);

          record (remote, g_ptr_array_index (relatives, i), file);
          copied += file->done;
          missing += file->size < 0;
        }
      if (!ok)
        {
          g_autofree char *what = ws_ssh_fetched_summary (fetched);

          g_prefix_error (error, "%s: ", dir);
          if ((*error)->domain == WS_TOOLS_ERROR)
            {
              g_autofree char *message = g_strdup_printf ("%s; %s", (*error)->message, what);

              g_free ((*error)->message);
              (*error)->message = g_steal_pointer (&message);
            }
          save_manifest (dir, parser, NULL);
          return FALSE;
        }
    }
  if (missing == 0 && json_object_has_member (remote, "reports"))
    json_object_set_string_member (remote, "reports", "copied");
  if (remote_paths->len > 0 && !save_manifest (dir, parser, error))
    return FALSE;
  if (summary != NULL)
    *summary = g_strdup_printf ("%s: %u copied, %u here already, %u not on the host", dir, copied,
                                here, missing);
  return TRUE;
}
