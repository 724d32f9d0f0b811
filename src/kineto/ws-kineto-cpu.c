/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kineto"
#include "config.h"

#include <string.h>

#include "ws-kineto-private.h"
#include "ws-sort.h"

/* CPU ops (cpu_op, python_function) are traced, not sampled: each is a span
 * on its thread, and spans nest.  Each becomes one sample of its stack (the
 * spans open around it, root first) weighted by its self time in ns, so
 * that the Flame Graph's widths are the ops' inclusive times. */

/* Deeper stacks are cut: each distinct stack is stored whole. */
#define MAX_STACK 512

typedef struct
{
  gint64 end;
  gsize op; /* index in the sorted order */
} Open;

static guint32
profile_thread (WsCpuProfile *profile, WsRun *run, GHashTable *map, guint32 thread)
{
  gpointer found = g_hash_table_lookup (map, GUINT_TO_POINTER (thread + 1));
  const WsThread *t = ws_run_thread (run, thread);
  const char *name = ws_run_string (run, t->name);
  g_autofree char *fallback = NULL;
  guint32 index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  if (name == NULL || *name == '\0')
    name = fallback = g_strdup_printf ("thread %u", t->tid);
  index = ws_cpu_profile_add_thread (profile, name, t->tid, t->global_tid);
  g_hash_table_insert (map, GUINT_TO_POINTER (thread + 1), GUINT_TO_POINTER (index + 1));
  return index;
}

/* The ops' indices by thread, and by time (enclosing span first) inside a
 * thread: a counting sort over the threads of the time order keeps it. */
static guint32 *
order_by_thread (const KinetoColumns *c, guint n_threads)
{
  gsize n = c->start->len;
  const guint32 *thread = (const guint32 *) c->thread->data;
  g_autofree guint32 *by_time =
    ws_sort_order ((const gint64 *) c->start->data, (const gint64 *) c->end->data, n);
  g_autofree gsize *first = g_new0 (gsize, n_threads + 1);
  guint32 *order = g_new (guint32, MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    first[thread[i] + 1]++;
  for (guint t = 0; t < n_threads; t++)
    first[t + 1] += first[t];
  for (gsize i = 0; i < n; i++)
    order[first[thread[by_time[i]]]++] = by_time[i];
  return order;
}

/* A frame of @text: python_function events name theirs "FILE(LINE): NAME"
 * ("torch/nn/modules/module.py(1783): _call_impl"), split so that the
 * Flame Graph knows the function, its file and its line; cpu_op names
 * ("aten::mm") are names alone. */
static guint32
intern_frame (WsCpuProfile *profile, const char *text)
{
  const char *colon = strstr (text, "): ");
  const char *open = NULL;
  gint64 line;

  if (colon != NULL)
    {
      const char *p = colon - 1;

      while (p > text && g_ascii_isdigit (*p))
        p--;
      if (p > text && *p == '(' && p < colon - 1)
        open = p;
    }
  if (open != NULL && open > text && colon - open > 1)
    {
      g_autofree char *file = g_strndup (text, open - text);
      g_autofree char *number = g_strndup (open + 1, colon - open - 1);

      if (g_ascii_string_to_signed (number, 10, 0, G_MAXINT32, &line, NULL))
        return ws_cpu_profile_intern_frame (profile, colon + 3, file, (gint32) line);
    }
  return ws_cpu_profile_intern_frame (profile, text, NULL, -1);
}

/**
 * ws_kineto_build_cpu_profile:
 *
 * Adds the CPU ops of @r to its run as a CPU profile (kind "kineto", unit
 * ns), when there are any.
 */
void
ws_kineto_build_cpu_profile (KinetoReader *r)
{
  KinetoColumns *c = &r->cpu_ops;
  gsize n = c->start->len;
  const gint64 *start = (const gint64 *) c->start->data;
  const gint64 *end = (const gint64 *) c->end->data;
  const guint32 *name = (const guint32 *) c->name->data;
  const guint32 *thread = (const guint32 *) c->thread->data;
  g_autofree guint32 *order = NULL;
  g_autofree gint64 *self_ns = NULL;
  g_autofree guint32 *stack_of = NULL;
  g_autoptr (GArray) open = g_array_new (FALSE, FALSE, sizeof (Open));
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GHashTable) threads = g_hash_table_new (NULL, NULL);
  WsCpuProfile *profile;
  guint32 current = G_MAXUINT32;
  gint64 first = G_MAXINT64;

  if (n == 0)
    return;
  profile = ws_cpu_profile_new (r->path, "kineto", "ns");
  order = order_by_thread (c, r->run->threads->len);
  self_ns = g_new (gint64, n);
  stack_of = g_new (guint32, n);
  for (gsize i = 0; i < n; i++)
    {
      guint32 op = order[i];
      Open o = { end[op], i };
      guint32 frame;

      first = MIN (first, start[op]);
      if (thread[op] != current)
        {
          g_array_set_size (open, 0);
          g_array_set_size (frames, 0);
          current = thread[op];
        }
      while (open->len > 0 && g_array_index (open, Open, open->len - 1).end <= start[op])
        {
          g_array_set_size (open, open->len - 1);
          g_array_set_size (frames, frames->len - 1);
        }
      self_ns[i] = end[op] - start[op];
      if (open->len >= MAX_STACK)
        {
          /* Deeper than a flame graph can show: its time stays its parent's. */
          self_ns[i] = 0;
          stack_of[i] = stack_of[g_array_index (open, Open, open->len - 1).op];
          continue;
        }
      if (open->len > 0)
        {
          Open *parent = &g_array_index (open, Open, open->len - 1);

          /* A child that outlives its parent counts only inside it. */
          o.end = MIN (end[op], parent->end);
          self_ns[parent->op] -= o.end - start[op];
        }
      frame = intern_frame (profile, ws_run_string (r->run, name[op]));
      g_array_append_val (frames, frame);
      g_array_append_val (open, o);
      stack_of[i] =
        ws_cpu_profile_intern_stack (profile, (const guint32 *) frames->data, frames->len);
    }
  for (gsize i = 0; i < n; i++)
    if (self_ns[i] > 0)
      ws_cpu_profile_add_sample (profile, stack_of[i], (double) self_ns[i],
                                 profile_thread (profile, r->run, threads, thread[order[i]]),
                                 start[order[i]] - first);
  ws_cpu_profile_finish (profile);
  g_ptr_array_add (r->run->cpu_profiles, profile);
}
