/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-manifest-reader"
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-json-depth.h"
#include "ws-loader-error.h"
#include "ws-manifest-reader.h"

/* A capture folder's run.json, as the launcher writes it
 * (ws-capture-manifest.c): what the viewer shows of how the run was made,
 * and the tools that made it.  Members that are missing or of another type
 * are left out: the file may come from another version. */

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

static JsonArray *
member_array (JsonObject *object, const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

#define PLAIN "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=,:@%+"

/* @word as the shell reads it: quoted unless plain (plain words read better). */
static void
append_word (GString *line, const char *word)
{
  if (word[0] != '\0' && strspn (word, PLAIN) == strlen (word))
    g_string_append (line, word);
  else
    {
      g_autofree char *quoted = g_shell_quote (word);

      g_string_append (line, quoted);
    }
}

/* A command as a shell line that redoes it: "$ cd DIR && A='1' nsys …". */
static char *
command_line (JsonObject *command)
{
  JsonArray *argv = member_array (command, "argv");
  JsonArray *env = member_array (command, "env");
  const char *cwd = member_string (command, "cwd");
  GString *line = g_string_new ("$");

  if (argv == NULL || json_array_get_length (argv) == 0)
    return g_string_free (line, TRUE);
  if (cwd != NULL)
    {
      g_string_append (line, " cd ");
      append_word (line, cwd);
      g_string_append (line, " &&");
    }
  for (guint i = 0; env != NULL && i < json_array_get_length (env); i++)
    {
      JsonNode *pair = json_array_get_element (env, i);

      const char *text, *eq;

      if (!JSON_NODE_HOLDS_VALUE (pair) || json_node_get_value_type (pair) != G_TYPE_STRING)
        continue;
      text = json_node_get_string (pair);
      eq = strchr (text, '=');
      if (eq == NULL)
        continue;
      g_string_append_printf (line, " %.*s=", (int) (eq - text), text);
      append_word (line, eq + 1);
    }
  for (guint i = 0; i < json_array_get_length (argv); i++)
    {
      JsonNode *arg = json_array_get_element (argv, i);
      const char *word;

      if (!JSON_NODE_HOLDS_VALUE (arg) || json_node_get_value_type (arg) != G_TYPE_STRING)
        continue;
      word = json_node_get_string (arg);
      g_string_append_c (line, ' ');
      append_word (line, word);
    }
  if (member_string (command, "stdout") != NULL)
    {
      g_string_append (line, " > ");
      append_word (line, member_string (command, "stdout"));
    }
  return g_string_free (line, FALSE);
}

/**
 * ws_manifest_read:
 *
 * Returns: (transfer full): what @path (a run.json) says of the capture,
 *   or %NULL with @error set when it is not a readable manifest
 */
WsCaptureRecord *
ws_manifest_read (const char *path, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (WsCaptureRecord) record = NULL;
  JsonObject *root, *target, *tools;
  JsonArray *steps, *gpus;

  g_autofree char *text = NULL;
  gsize len = 0;

  if (!ws_json_read_file (path, WS_JSON_MANIFEST_MAX_BYTES, &text, &len, error))
    return NULL;
  if (!json_parser_load_from_data (parser, text, (gssize) len, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_FORMAT,
                   "%s: not a readable capture manifest", path);
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  record = g_new0 (WsCaptureRecord, 1);
  record->commands = g_ptr_array_new_with_free_func (g_free);
  record->gpus = g_ptr_array_new_with_free_func (g_free);

  target = member_object (root, "target");
  record->name = g_strdup (member_string (target, "name"));
  record->cmd = g_strdup (member_string (target, "cmd"));
  record->workdir = g_strdup (member_string (target, "workdir"));
  record->envs = g_strdup (member_string (target, "envs"));
  record->targets_file = g_strdup (member_string (target, "targets_file"));
  if (target != NULL && json_object_has_member (target, "line"))
    record->line = (int) CLAMP (json_object_get_int_member (target, "line"), 0, G_MAXINT);
  record->status = g_strdup (member_string (root, "status"));
  record->started = g_strdup (member_string (root, "started"));

  tools = member_object (root, "tools");
  record->nsys_path = g_strdup (member_string (member_object (tools, "nsys"), "path"));
  record->nsys_version = g_strdup (member_string (member_object (tools, "nsys"), "version"));
  record->ncu_path = g_strdup (member_string (member_object (tools, "ncu"), "path"));
  record->ncu_version = g_strdup (member_string (member_object (tools, "ncu"), "version"));

  gpus = member_array (root, "gpus");
  for (guint i = 0; gpus != NULL && i < json_array_get_length (gpus); i++)
    {
      JsonNode *gpu = json_array_get_element (gpus, i);

      if (JSON_NODE_HOLDS_VALUE (gpu) && json_node_get_value_type (gpu) == G_TYPE_STRING)
        g_ptr_array_add (record->gpus, g_strdup (json_node_get_string (gpu)));
    }

  steps = member_array (root, "steps");
  for (guint s = 0; steps != NULL && s < json_array_get_length (steps); s++)
    {
      JsonNode *step = json_array_get_element (steps, s);
      JsonArray *commands = JSON_NODE_HOLDS_OBJECT (step)
                              ? member_array (json_node_get_object (step), "commands")
                              : NULL;

      for (guint c = 0; commands != NULL && c < json_array_get_length (commands); c++)
        {
          JsonNode *command = json_array_get_element (commands, c);
          char *line =
            JSON_NODE_HOLDS_OBJECT (command) ? command_line (json_node_get_object (command)) : NULL;

          if (line != NULL)
            g_ptr_array_add (record->commands, line);
        }
    }
  return g_steal_pointer (&record);
}
