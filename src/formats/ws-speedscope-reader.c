/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-speedscope"
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-cpu-reader-private.h"
#include "ws-json-depth.h"
#include "ws-reader-error.h"

/* speedscope's file format (its file-format-schema.json): shared frames
 * ({name, file, line}) and profiles, each "sampled" (samples: stacks of
 * frame indices, root first; weights) or "evented" (O/C events at times).
 * py-spy writes one sampled profile per thread; pyinstrument one evented
 * profile.  Weights become ns for time units, samples for "none". */

#define MAX_DEPTH 4096

static double
unit_scale (const char *unit, const char **ours)
{
  static const struct
  {
    const char *name;
    double scale;
  } units[] = {
    { "nanoseconds", 1 },
    { "microseconds", 1e3 },
    { "milliseconds", 1e6 },
    { "seconds", 1e9 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_strcmp0 (unit, units[i].name) == 0)
      {
        *ours = "ns";
        return units[i].scale;
      }
  *ours = g_strcmp0 (unit, "bytes") == 0 ? "bytes" : "samples";
  return 1;
}

static gboolean
fail (GError **error, const char *path, const char *what)
{
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT, "%s: speedscope file: %s", path,
               what);
  return FALSE;
}

/* json-glib's typed getters assert on a member of another type: the file
 * decides the types, so every member is checked before it is taken. */
static JsonArray *
member_array (JsonObject *object, const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static const char *
member_string (JsonObject *object, const char *name, const char *fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return fallback;
  return json_node_get_string (node);
}

static gboolean
get_number (JsonNode *node, double *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  switch (json_node_get_value_type (node))
    {
      case G_TYPE_INT64:
        *out = (double) json_node_get_int (node);
        return TRUE;
      case G_TYPE_DOUBLE:
        *out = json_node_get_double (node);
        return isfinite (*out);
      default:
        return FALSE;
    }
}

/* The file's frames, as our frame ids. */
static gboolean
read_frames (WsCpuProfile *profile, JsonObject *root, GArray *ids, const char *path, GError **error)
{
  JsonNode *shared = json_object_get_member (root, "shared");
  JsonArray *frames;

  if (shared == NULL || !JSON_NODE_HOLDS_OBJECT (shared))
    return fail (error, path, "no \"shared\" object with its frames");
  frames = member_array (json_node_get_object (shared), "frames");
  if (frames == NULL)
    return fail (error, path, "no \"shared.frames\" array");
  for (guint i = 0; i < json_array_get_length (frames); i++)
    {
      JsonNode *node = json_array_get_element (frames, i);
      JsonObject *frame;
      const char *name;
      const char *file;
      double line = -1;
      guint32 id;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return fail (error, path, "a frame that is not an object");
      frame = json_node_get_object (node);
      name = member_string (frame, "name", NULL);
      if (name == NULL)
        return fail (error, path, "a frame without a name");
      file = member_string (frame, "file", NULL);
      if (!get_number (json_object_get_member (frame, "line"), &line) || line < 0 ||
          line > G_MAXINT32)
        line = -1;
      id = ws_cpu_profile_intern_frame (profile, name, file, (gint32) line);
      g_array_append_val (ids, id);
    }
  return TRUE;
}

static gboolean
read_sampled (WsCpuProfile *profile, JsonObject *p, GArray *frames, guint32 thread, double scale,
              const char *path, GError **error)
{
  JsonArray *samples = member_array (p, "samples");
  JsonArray *weights = member_array (p, "weights");
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  if (samples == NULL)
    return fail (error, path, "a sampled profile without \"samples\"");
  if (weights != NULL && json_array_get_length (weights) != json_array_get_length (samples))
    return fail (error, path, "\"weights\" and \"samples\" differ in length");
  for (guint s = 0; s < json_array_get_length (samples); s++)
    {
      JsonNode *node = json_array_get_element (samples, s);
      JsonArray *indexes;
      double weight = 1;

      if (!JSON_NODE_HOLDS_ARRAY (node))
        return fail (error, path, "a sample that is not an array of frame indexes");
      indexes = json_node_get_array (node);
      if (json_array_get_length (indexes) > MAX_DEPTH)
        return fail (error, path, "a stack deeper than 4096 frames");
      g_array_set_size (stack, 0);
      for (guint d = 0; d < json_array_get_length (indexes); d++)
        {
          double index;

          if (!get_number (json_array_get_element (indexes, d), &index) || index < 0 ||
              index >= frames->len || index != floor (index))
            return fail (error, path, "a sample names a frame that does not exist");
          g_array_append_val (stack, g_array_index (frames, guint32, (guint) index));
        }
      if (weights != NULL &&
          (!get_number (json_array_get_element (weights, s), &weight) || weight < 0))
        return fail (error, path, "a weight that is not a non-negative number");
      ws_cpu_profile_add_sample (
        profile, ws_cpu_profile_intern_stack (profile, (guint32 *) stack->data, stack->len),
        weight * scale, thread, -1);
    }
  return TRUE;
}

/* Evented: between two events the open frames are the stack; each such
 * stretch is a sample of its length, timed at its start. */
static gboolean
read_evented (WsCpuProfile *profile, JsonObject *p, GArray *frames, guint32 thread, double scale,
              const char *path, GError **error)
{
  JsonArray *events = member_array (p, "events");
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  double last = NAN;
  double start = 0;

  if (events == NULL)
    return fail (error, path, "an evented profile without \"events\"");
  get_number (json_object_get_member (p, "startValue"), &start);
  for (guint e = 0; e < json_array_get_length (events); e++)
    {
      JsonNode *node = json_array_get_element (events, e);
      JsonObject *event;
      const char *type;
      double at, index;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return fail (error, path, "an event that is not an object");
      event = json_node_get_object (node);
      type = member_string (event, "type", "");
      if (!get_number (json_object_get_member (event, "at"), &at) ||
          !get_number (json_object_get_member (event, "frame"), &index) || index < 0 ||
          index >= frames->len || index != floor (index))
        return fail (error, path, "an event without a time or a known frame");
      if (!isnan (last) && at < last)
        return fail (error, path, "events out of time order");
      if (!isnan (last) && at > last && stack->len > 0)
        ws_cpu_profile_add_sample (
          profile, ws_cpu_profile_intern_stack (profile, (guint32 *) stack->data, stack->len),
          (at - last) * scale, thread, (gint64) llround ((last - start) * scale));
      last = at;
      if (g_str_equal (type, "O"))
        {
          if (stack->len >= MAX_DEPTH)
            return fail (error, path, "a stack deeper than 4096 frames");
          g_array_append_val (stack, g_array_index (frames, guint32, (guint) index));
        }
      else if (g_str_equal (type, "C"))
        {
          if (stack->len == 0 || g_array_index (stack, guint32, stack->len - 1) !=
                                   g_array_index (frames, guint32, (guint) index))
            return fail (error, path, "a frame closed that is not the innermost open one");
          g_array_set_size (stack, stack->len - 1);
        }
      else
        return fail (error, path, "an event type other than \"O\" or \"C\"");
    }
  return TRUE;
}

WsCpuProfile *
ws_speedscope_read (const char *path, const char *data, gsize len, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local = NULL;
  g_autoptr (WsCpuProfile) profile = NULL;
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  JsonObject *root;
  JsonArray *profiles;
  const char *exporter;
  const char *unit = NULL;
  gboolean evented = FALSE;

  if (!ws_json_check_depth (path, data, len, WS_JSON_MAX_DEPTH, error))
    return NULL;
  if (!json_parser_load_from_data (parser, data, (gssize) len, &local))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: speedscope file: not valid JSON (%s)", path, local->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      fail (error, path, "the top level is not an object");
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  profiles = member_array (root, "profiles");
  if (profiles == NULL || json_array_get_length (profiles) == 0)
    {
      fail (error, path, "no profiles");
      return NULL;
    }
  exporter = member_string (root, "exporter", "");
  {
    JsonNode *first = json_array_get_element (profiles, 0);

    if (JSON_NODE_HOLDS_OBJECT (first))
      {
        JsonObject *p = json_node_get_object (first);

        unit = member_string (p, "unit", "none");
        evented = g_strcmp0 (member_string (p, "type", ""), "evented") == 0;
      }
  }
  {
    const char *ours;

    unit_scale (unit, &ours);
    profile = ws_cpu_profile_new (path,
                                  g_str_has_prefix (exporter, "py-spy") ? "py-spy"
                                  : evented                             ? "speedscope-evented"
                                                                        : "speedscope-sampled",
                                  ours);
  }
  profile->title = g_strdup (member_string (root, "name", NULL));
  if (!read_frames (profile, root, frames, path, error))
    return NULL;

  for (guint i = 0; i < json_array_get_length (profiles); i++)
    {
      JsonNode *node = json_array_get_element (profiles, i);
      JsonObject *p;
      const char *type, *name, *this_unit, *ours;
      g_autofree char *fallback = NULL;
      double scale;
      guint32 thread;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          fail (error, path, "a profile that is not an object");
          return NULL;
        }
      p = json_node_get_object (node);
      type = member_string (p, "type", "");
      this_unit = member_string (p, "unit", "none");
      scale = unit_scale (this_unit, &ours);
      if (!g_str_equal (ours, profile->unit))
        {
          fail (error, path, "profiles in different units");
          return NULL;
        }
      fallback = g_strdup_printf ("profile %u", i + 1);
      name = member_string (p, "name", fallback);
      thread = ws_cpu_profile_add_thread (profile, name, -1, -1);
      if (g_str_equal (type, "sampled"))
        {
          if (!read_sampled (profile, p, frames, thread, scale, path, error))
            return NULL;
        }
      else if (g_str_equal (type, "evented"))
        {
          if (!read_evented (profile, p, frames, thread, scale, path, error))
            return NULL;
        }
      else
        {
          fail (error, path, "a profile neither \"sampled\" nor \"evented\"");
          return NULL;
        }
    }
  if (ws_cpu_profile_n_samples (profile) == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   "%s: speedscope file: no samples", path);
      return NULL;
    }
  return g_steal_pointer (&profile);
}
