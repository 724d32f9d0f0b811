/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-cli.h"
#include "ws-json-text.h"

/* The CLI's JSON text: json-glib's indented layout, with every double the
 * shortest decimal that reads back to it, written from a tree or, for the
 * big arrays, one element's tree at a time with the same text. */

static void
write_indent (GString *out, guint depth)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

/* @node as indented JSON, as json-glib's generator lays it out, but with
 * every double the shortest decimal that reads back to it
 * (ws_json_append_double()) where json-glib prints 17 digits. */
/* A string value that starts with WS_CLI_JSON_STREAM_MARK stands for an
 * array written in its place by a WsCliJsonStream. */
typedef struct
{
  WsCliJsonStreamFunc func;
  gpointer data;
} Stream;

static void write_node_streamed (GString *out, JsonNode *node, guint depth, const Stream *stream);

static void
write_node (GString *out, JsonNode *node, guint depth)
{
  write_node_streamed (out, node, depth, NULL);
}

static void
write_node_streamed (GString *out, JsonNode *node, guint depth, const Stream *stream)
{
  switch (JSON_NODE_TYPE (node))
    {
      case JSON_NODE_OBJECT:
        {
          JsonObject *object = json_node_get_object (node);
          g_autoptr (GList) members = json_object_get_members (object);

          if (members == NULL)
            {
              g_string_append (out, "{ }");
              break;
            }
          g_string_append_c (out, '{');
          for (GList *l = members; l != NULL; l = l->next)
            {
              write_indent (out, depth + 1);
              ws_json_append_string (out, l->data);
              g_string_append (out, " : ");
              write_node_streamed (out, json_object_get_member (object, l->data), depth + 1,
                                   stream);
              if (l->next != NULL)
                g_string_append_c (out, ',');
            }
          write_indent (out, depth);
          g_string_append_c (out, '}');
          break;
        }
      case JSON_NODE_ARRAY:
        {
          JsonArray *array = json_node_get_array (node);
          guint n = json_array_get_length (array);

          if (n == 0)
            {
              g_string_append (out, "[ ]");
              break;
            }
          g_string_append_c (out, '[');
          for (guint i = 0; i < n; i++)
            {
              write_indent (out, depth + 1);
              write_node_streamed (out, json_array_get_element (array, i), depth + 1, stream);
              if (i + 1 < n)
                g_string_append_c (out, ',');
            }
          write_indent (out, depth);
          g_string_append_c (out, ']');
          break;
        }
      case JSON_NODE_NULL:
        g_string_append (out, "null");
        break;
      case JSON_NODE_VALUE:
      default:
        switch (json_node_get_value_type (node))
          {
            case G_TYPE_BOOLEAN:
              g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
              break;
            case G_TYPE_DOUBLE:
            case G_TYPE_FLOAT:
              ws_json_append_double (out, json_node_get_double (node));
              break;
            case G_TYPE_STRING:
              if (stream != NULL &&
                  g_str_has_prefix (json_node_get_string (node), WS_CLI_JSON_STREAM_MARK))
                stream->func (out, json_node_get_string (node) + strlen (WS_CLI_JSON_STREAM_MARK),
                              depth, stream->data);
              else
                ws_json_append_string (out, json_node_get_string (node));
              break;
            default:
              g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          }
    }
}

/**
 * ws_cli_terminal_width:
 *
 * Returns: the width tables fit in: $COLUMNS, else 120
 */
guint
ws_cli_terminal_width (void)
{
  const char *columns = g_getenv ("COLUMNS");
  guint64 width = columns != NULL ? g_ascii_strtoull (columns, NULL, 10) : 0;

  return width >= 20 && width <= 10000 ? (guint) width : 120;
}

/**
 * ws_cli_json_text:
 *
 * Returns: (transfer full): @root as `--format json` prints it: indented,
 * with a line end, numbers in their shortest exact form
 */
/**
 * ws_cli_json_append:
 * @depth: the depth @node sits at, for its indentation
 *
 * Appends @node as ws_cli_json_text() lays it out inside a document: a
 * command that writes one launch at a time (`gauges`) keeps one launch's
 * tree at a time, and its text is the same as the whole tree's.
 */
void
ws_cli_json_append (GString *out, JsonNode *node, guint depth)
{
  write_node (out, node, depth);
}

/**
 * ws_cli_json_append_each:
 * @element: makes the tree of element @i, freed once written
 *
 * Appends an array of @n elements at @depth, one element's tree at a
 * time, laid out as ws_cli_json_text() lays out the whole array.
 */
void
ws_cli_json_append_each (GString *out, guint n, guint depth, WsCliJsonElementFunc element,
                         gconstpointer data)
{
  if (n == 0)
    {
      g_string_append (out, "[ ]");
      return;
    }
  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (JsonNode) node = element (i, data);

      write_indent (out, depth + 1);
      write_node (out, node, depth + 1);
      if (i + 1 < n)
        g_string_append_c (out, ',');
    }
  write_indent (out, depth);
  g_string_append_c (out, ']');
}

/* A line break and the indentation of @depth, as ws_cli_json_text() writes them. */
void
ws_cli_json_indent (GString *out, guint depth)
{
  write_indent (out, depth);
}

/**
 * ws_cli_json_text_streamed:
 * @func: writes, in the place of a string value WS_CLI_JSON_STREAM_MARK
 *   NAME, the value NAME stands for (at @depth, as ws_cli_json_append()
 *   lays it out)
 *
 * ws_cli_json_text() of a tree whose big arrays are written by @func one
 * element at a time: the text is the whole tree's, the tree holds one
 * element at a time.
 */
char *
ws_cli_json_text_streamed (JsonNode *root, WsCliJsonStreamFunc func, gpointer data)
{
  GString *out = g_string_new (NULL);
  Stream stream = { func, data };

  write_node_streamed (out, root, 0, &stream);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

char *
ws_cli_json_text (JsonNode *root)
{
  GString *out = g_string_new (NULL);

  write_node (out, root, 0);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}
