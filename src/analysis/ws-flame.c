/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-flame"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-hash.h"
#include "ws-flame.h"
#include "ws-format.h"

static guint32
add_node (GArray *nodes, guint32 frame, guint32 parent, guint32 depth)
{
  WsFlameNode node = { frame, parent, WS_FLAME_NO_NODE, WS_FLAME_NO_NODE, depth, 0, 0 };

  g_array_append_val (nodes, node);
  return nodes->len - 1;
}

static GArray *sort_nodes; /* only while sorting children, under the lock below */

static int
heavier_first (gconstpointer a, gconstpointer b)
{
  const WsFlameNode *x = &g_array_index (sort_nodes, WsFlameNode, *(const guint32 *) a);
  const WsFlameNode *y = &g_array_index (sort_nodes, WsFlameNode, *(const guint32 *) b);

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return (x->frame > y->frame) - (x->frame < y->frame);
}

/* Links each node's children, heaviest first. */
static void
link_children (GArray *nodes)
{
  static GMutex lock;
  g_autofree guint32 *order = g_new (guint32, MAX (nodes->len, 1));
  g_autofree guint32 *count = g_new0 (guint32, nodes->len + 1);
  g_autofree guint32 *first = g_new0 (guint32, nodes->len + 1);

  /* Children grouped by parent (a counting sort), then each group sorted. */
  for (guint i = 1; i < nodes->len; i++)
    count[g_array_index (nodes, WsFlameNode, i).parent]++;
  for (guint p = 1; p <= nodes->len; p++)
    first[p] = first[p - 1] + count[p - 1];
  memset (count, 0, sizeof (guint32) * (nodes->len + 1));
  for (guint i = 1; i < nodes->len; i++)
    {
      guint32 p = g_array_index (nodes, WsFlameNode, i).parent;

      order[first[p] + count[p]++] = i;
    }
  g_mutex_lock (&lock);
  sort_nodes = nodes;
  for (guint p = 0; p < nodes->len; p++)
    if (count[p] > 1)
      qsort (order + first[p], count[p], sizeof (guint32), heavier_first);
  sort_nodes = NULL;
  g_mutex_unlock (&lock);
  for (guint p = 0; p < nodes->len; p++)
    {
      WsFlameNode *parent = &g_array_index (nodes, WsFlameNode, p);

      for (guint c = count[p]; c > 0; c--)
        {
          WsFlameNode *child = &g_array_index (nodes, WsFlameNode, order[first[p] + c - 1]);

          child->next_sibling = parent->first_child;
          parent->first_child = order[first[p] + c - 1];
        }
    }
}

static int
function_heavier_first (gconstpointer a, gconstpointer b)
{
  const WsFlameFunction *x = a, *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  if (x->self != y->self)
    return x->self > y->self ? -1 : 1;
  return (x->frame > y->frame) - (x->frame < y->frame);
}

/* Each frame's function: frames of one name and file are one function. */
static guint32 *
frame_functions (const WsCpuProfile *profile, GArray *functions)
{
  g_autoptr (GHashTable) by_key = g_hash_table_new (ws_int64_hash, g_int64_equal);
  g_autoptr (GArray) keys = g_array_sized_new (FALSE, FALSE, sizeof (gint64), profile->frames->len);
  guint32 *fn = g_new (guint32, MAX (profile->frames->len, 1));

  g_array_set_size (keys, profile->frames->len);
  for (guint f = 0; f < profile->frames->len; f++)
    {
      const WsCpuFrame *frame = &g_array_index (profile->frames, WsCpuFrame, f);
      gint64 *key = &g_array_index (keys, gint64, f);
      gpointer found;

      *key = ((gint64) frame->name << 32) | frame->file;
      found = g_hash_table_lookup (by_key, key);
      if (found == NULL)
        {
          WsFlameFunction function = { f, 0, 0, -1, -1 };

          g_array_append_val (functions, function);
          found = GUINT_TO_POINTER (functions->len);
          g_hash_table_insert (by_key, key, found);
        }
      fn[f] = GPOINTER_TO_UINT (found) - 1;
    }
  return fn;
}

/**
 * ws_flame_graph_new:
 * @thread: a thread of @profile, or -1 for all threads merged
 * @from: with @to, the time range in ns on the profile's clock whose
 *   samples count; ignored when the samples have no times (@to <= @from:
 *   all)
 *
 * Builds the call tree of the samples, and the table of functions.  A
 * flat profile (cProfile) gives the table alone, with its call counts.
 *
 * Returns: (transfer full): the graph
 */
WsFlameGraph *
ws_flame_graph_new (WsCpuProfile *profile, gint thread, gint64 from, gint64 to)
{
  WsFlameGraph *self = g_new0 (WsFlameGraph, 1);
  g_autoptr (GHashTable) children = g_hash_table_new (ws_int64_hash, g_int64_equal);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree guint32 *fn = NULL;
  g_autofree gint64 *fn_seen = NULL;
  gboolean timed = profile->sample_time->len > 0 && to > from;
  gboolean uniform = TRUE;
  double unit = -1;
  gsize n_samples = ws_cpu_profile_n_samples (profile);

  g_return_val_if_fail (profile != NULL, NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->profile = ws_cpu_profile_ref (profile);
  self->thread = thread;
  self->nodes = g_array_new (FALSE, FALSE, sizeof (WsFlameNode));
  self->functions = g_array_new (FALSE, FALSE, sizeof (WsFlameFunction));
  add_node (self->nodes, WS_FLAME_ROOT_FRAME, WS_FLAME_NO_NODE, 0);
  fn = frame_functions (profile, self->functions);
  fn_seen = g_new (gint64, MAX (self->functions->len, 1));
  memset (fn_seen, 0xff, sizeof (gint64) * MAX (self->functions->len, 1));

  /* Child lookups by (parent, frame): keys live in an array that only
   * grows, so they are stored as indexes, not pointers. */
  g_array_set_size (keys, 0);
  for (gsize s = 0; s < n_samples; s++)
    {
      guint32 stack = g_array_index (profile->sample_stack, guint32, s);
      double weight = g_array_index (profile->sample_weight, double, s);
      guint32 first = g_array_index (profile->stack_first, guint32, stack);
      guint32 depth = g_array_index (profile->stack_depth, guint32, stack);
      guint32 node = 0;

      if (thread >= 0 && g_array_index (profile->sample_thread, guint32, s) != (guint32) thread)
        continue;
      if (timed)
        {
          gint64 t = g_array_index (profile->sample_time, gint64, s);

          if (t < from || t >= to)
            continue;
        }
      if (unit < 0)
        unit = weight;
      uniform &= weight == unit;
      g_array_index (self->nodes, WsFlameNode, 0).total += weight;
      for (guint32 d = 0; d < depth; d++)
        {
          guint32 frame = g_array_index (profile->stack_frames, guint32, first + d);
          guint32 f = fn[frame];
          gint64 key = ((gint64) node << 32) | frame;
          gpointer found = g_hash_table_lookup (children, &key);

          if (found == NULL)
            {
              guint32 child = add_node (self->nodes, frame, node, d + 1);
              gint64 *stored = g_new (gint64, 1);

              *stored = key;
              g_hash_table_insert (children, stored, GUINT_TO_POINTER (child + 1));
              found = GUINT_TO_POINTER (child + 1);
            }
          node = GPOINTER_TO_UINT (found) - 1;
          g_array_index (self->nodes, WsFlameNode, node).total += weight;
          self->max_depth = MAX (self->max_depth, d + 1);
          /* A recursive function counts once per sample in its total. */
          if (fn_seen[f] != (gint64) s)
            {
              g_array_index (self->functions, WsFlameFunction, f).total += weight;
              fn_seen[f] = (gint64) s;
            }
          if (d + 1 == depth)
            g_array_index (self->functions, WsFlameFunction, f).self += weight;
        }
      g_array_index (self->nodes, WsFlameNode, node).self += weight;
    }
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, children);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_free (key);
  }
  self->total = g_array_index (self->nodes, WsFlameNode, 0).total;
  self->sample_unit = uniform && unit > 0 ? unit : 0;
  link_children (self->nodes);

  /* A flat profile: its own numbers, call counts included. */
  for (guint i = 0; i < profile->functions->len; i++)
    {
      const WsCpuFunction *c = &g_array_index (profile->functions, WsCpuFunction, i);
      WsFlameFunction *f = &g_array_index (self->functions, WsFlameFunction, fn[c->frame]);

      f->self += c->self;
      f->total = MAX (f->total, c->total);
      f->calls = MAX (f->calls, 0) + c->calls;
      f->primitive_calls = MAX (f->primitive_calls, 0) + c->primitive_calls;
    }
  if (profile->functions->len > 0 && self->total == 0)
    self->total = profile->flat_total;

  /* Functions no sample reached stay out of the table. */
  for (guint i = self->functions->len; i > 0; i--)
    {
      const WsFlameFunction *f = &g_array_index (self->functions, WsFlameFunction, i - 1);

      if (f->total == 0 && f->self == 0 && f->calls < 0)
        g_array_remove_index_fast (self->functions, i - 1);
    }
  g_array_sort (self->functions, function_heavier_first);
  return self;
}

/**
 * ws_flame_graph_ref:
 *
 * Returns: (transfer full): @self
 */
WsFlameGraph *
ws_flame_graph_ref (WsFlameGraph *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_flame_graph_unref (WsFlameGraph *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  ws_cpu_profile_unref (self->profile);
  g_array_unref (self->nodes);
  g_array_unref (self->functions);
  g_free (self);
}

const WsFlameNode *
ws_flame_graph_node (const WsFlameGraph *self, guint32 node)
{
  g_return_val_if_fail (node < self->nodes->len, NULL);

  return &g_array_index (self->nodes, WsFlameNode, node);
}

/**
 * ws_flame_graph_node_label:
 *
 * Returns: (transfer full): the node's frame as `name (file:line)`, or
 * "all" for the root.
 */
char *
ws_flame_graph_node_label (const WsFlameGraph *self, guint32 node)
{
  const WsFlameNode *n = ws_flame_graph_node (self, node);

  if (n->frame == WS_FLAME_ROOT_FRAME)
    return g_strdup (_ ("all"));
  return ws_cpu_frame_label (self->profile, n->frame);
}

/**
 * ws_flame_graph_function_label:
 *
 * Returns: (transfer full): `name (file)`, or the bare name.
 */
char *
ws_flame_graph_function_label (const WsFlameGraph *self, const WsFlameFunction *function)
{
  const WsCpuFrame *f = &g_array_index (self->profile->frames, WsCpuFrame, function->frame);
  const char *name = ws_cpu_profile_string (self->profile, f->name);

  if (f->file == WS_STRING_NONE)
    return g_strdup (name);
  return g_strdup_printf ("%s (%s)", name, ws_cpu_profile_string (self->profile, f->file));
}

/**
 * ws_flame_graph_node_matches:
 *
 * Whether the node's frame label holds @query, ignoring case.
 */
gboolean
ws_flame_graph_node_matches (const WsFlameGraph *self, guint32 node, const char *query)
{
  g_autofree char *label = NULL;
  g_autofree char *folded_label = NULL;
  g_autofree char *folded_query = NULL;

  if (query == NULL || query[0] == '\0' ||
      ws_flame_graph_node (self, node)->frame == WS_FLAME_ROOT_FRAME)
    return FALSE;
  label = ws_flame_graph_node_label (self, node);
  folded_label = g_utf8_casefold (label, -1);
  folded_query = g_utf8_casefold (query, -1);
  return strstr (folded_label, folded_query) != NULL;
}

/**
 * ws_flame_graph_match_share:
 * @matches: (out caller-allocates) (array) (optional): one per node, set
 *   where the node matches
 *
 * The share of the samples whose stack holds a frame matching @query:
 * each matching node counts with its total, unless a matching ancestor
 * already counted it (FlameGraph's "Matched: N%").
 *
 * Returns: the share, in [0, 1]
 */
double
ws_flame_graph_match_share (const WsFlameGraph *self, const char *query, gboolean *matches)
{
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  double matched = 0;
  guint32 root = 0;

  if (matches != NULL)
    memset (matches, 0, sizeof (gboolean) * self->nodes->len);
  if (self->total <= 0 || query == NULL || query[0] == '\0')
    return 0;
  /* Depth first; a pair (node, covered) packed in 32 + 1 bits. */
  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      guint32 top = g_array_index (stack, guint32, stack->len - 1);
      guint32 node = top & 0x7FFFFFFF;
      gboolean covered = (top & 0x80000000) != 0;
      const WsFlameNode *n = ws_flame_graph_node (self, node);
      gboolean match = ws_flame_graph_node_matches (self, node, query);

      g_array_set_size (stack, stack->len - 1);
      if (match && matches != NULL)
        matches[node] = TRUE;
      if (match && !covered)
        matched += n->total;
      for (guint32 c = n->first_child; c != WS_FLAME_NO_NODE;
           c = ws_flame_graph_node (self, c)->next_sibling)
        {
          guint32 pushed = c | ((covered || match) ? 0x80000000 : 0);

          g_array_append_val (stack, pushed);
        }
    }
  return MIN (1.0, matched / self->total);
}

static void
write_stacks (const WsFlameGraph *self, guint32 node, GString *path, GString *out)
{
  const WsFlameNode *n = ws_flame_graph_node (self, node);
  gsize len = path->len;

  if (n->frame != WS_FLAME_ROOT_FRAME)
    {
      g_autofree char *label = ws_cpu_frame_label (self->profile, n->frame);

      if (path->len > 0)
        g_string_append_c (path, ';');
      /* ';' separates frames: one inside a name would split it. */
      for (const char *p = label; *p != '\0'; p++)
        g_string_append_c (path, *p == ';' ? ':' : *p);
    }
  if (n->self > 0 && path->len > 0)
    {
      double value = self->sample_unit > 0 ? n->self / self->sample_unit : n->self;

      g_string_append_printf (out, "%s %" G_GINT64_FORMAT "\n", path->str,
                              (gint64) llround (value));
    }
  for (guint32 c = n->first_child; c != WS_FLAME_NO_NODE;
       c = ws_flame_graph_node (self, c)->next_sibling)
    write_stacks (self, c, path, out);
  g_string_truncate (path, len);
}

/**
 * ws_flame_graph_write_collapsed:
 *
 * Writes the graph as collapsed stacks (`frame;frame;frame COUNT`, the
 * FlameGraph tools' and py-spy `--format raw`'s form), one line per
 * distinct stack, heaviest subtrees first.  COUNT is the number of
 * samples when every sample weighs the same (py-spy's 0.01 s at 100 Hz),
 * else the weight in the profile's unit (ns), rounded.
 */
void
ws_flame_graph_write_collapsed (const WsFlameGraph *self, GString *out)
{
  g_autoptr (GString) path = g_string_new (NULL);

  write_stacks (self, 0, path, out);
}

/**
 * ws_flame_format_weight:
 *
 * Returns: (transfer full): @weight for people: a duration for time
 * profiles, with the sample count where samples weigh the same; a count
 * of samples otherwise.
 */
char *
ws_flame_format_weight (const WsFlameGraph *self, double weight)
{
  const char *unit = self->profile->unit;

  gint64 samples = (gint64) llround (self->sample_unit > 0 ? weight / self->sample_unit : weight);
  g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, samples);

  if (g_strcmp0 (unit, "ns") == 0)
    {
      g_autofree char *time = ws_format_duration (weight);

      if (self->sample_unit > 0)
        return g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "%s (%s sample)", "%s (%s samples)", (gulong) samples),
          time, count);
      return g_steal_pointer (&time);
    }
  return g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples", (gulong) samples), count);
}
