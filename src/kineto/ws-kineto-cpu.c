/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kineto"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-kineto-private.h"
#include "ws-sort.h"

/* CPU ops (cpu_op, python_function) are traced, not sampled: each is a span
 * on its thread, and spans nest.  Each stretch of a thread's time with the
 * same innermost op becomes one span of the profile (ws_cpu_profile_add_span:
 * its stack, the ops open around it, root first, and its times on the
 * trace's clock), so that the Flame Graph's widths are the ops' inclusive
 * times and the Timeline shows, on each thread, which op ran when. */

/* Deeper stacks are cut: each distinct stack is stored whole. */
#define MAX_STACK 512

/* Spans are handed to the profile in batches of this many. */
#define SPAN_BATCH 4096

typedef struct
{
  gint64 end;
  gsize op; /* index in the sorted order */
} Open;

/* The spans of one thread's ops, in the sorted order (enclosing first),
 * each ending at @end (clipped to its parent): a sweep that gives each
 * stretch between two boundaries to the innermost op open in it. */
typedef struct
{
  WsCpuProfile *profile;
  const guint32 *stack_of;
  const gint64 *end;
  GArray *open; /* Open */
  gint64 cursor;
  guint32 thread;

  /* The spans of @thread not yet added to @profile. */
  guint32 *batch_stack;
  gint64 *batch_start, *batch_end;
  gsize n_batch;
} Sweep;

static void
sweep_flush (Sweep *s)
{
  ws_cpu_profile_add_spans (s->profile, s->batch_stack, s->thread, s->batch_start, s->batch_end,
                            s->n_batch);
  s->n_batch = 0;
}

static void
sweep_emit (Sweep *s, gsize i, gint64 until)
{
  if (until > s->cursor)
    {
      s->batch_stack[s->n_batch] = s->stack_of[i];
      s->batch_start[s->n_batch] = s->cursor;
      s->batch_end[s->n_batch] = until;
      if (++s->n_batch == SPAN_BATCH)
        sweep_flush (s);
    }
  s->cursor = MAX (s->cursor, until);
}

/* Closes the ops that end by @time, each with its last stretch. */
static void
sweep_close (Sweep *s, gint64 time)
{
  while (s->open->len > 0)
    {
      Open *top = &g_array_index (s->open, Open, s->open->len - 1);

      if (top->end > time)
        break;
      sweep_emit (s, top->op, top->end);
      g_array_set_size (s->open, s->open->len - 1);
    }
}

/* Op @i of the order starts at @start: the op it interrupts gets the
 * stretch until then. */
static void
sweep_open (Sweep *s, gsize i, gint64 start)
{
  Open o = { s->end[i], i };

  sweep_close (s, start);
  if (s->open->len > 0)
    sweep_emit (s, g_array_index (s->open, Open, s->open->len - 1).op, start);
  s->cursor = start;
  g_array_append_val (s->open, o);
}

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
/* Each op's stack (@stack_of) and its end clipped to its parent's
 * (@clip_end), in the sorted @order. */
static void
stack_ops (KinetoReader *r, WsCpuProfile *profile, const guint32 *order, guint32 *stack_of,
           gint64 *clip_end)
{
  KinetoColumns *c = &r->cpu_ops;
  gsize n = c->start->len;
  const gint64 *start = (const gint64 *) c->start->data;
  const gint64 *end = (const gint64 *) c->end->data;
  const guint32 *name = (const guint32 *) c->name->data;
  const guint32 *thread = (const guint32 *) c->thread->data;
  g_autoptr (GArray) open = g_array_new (FALSE, FALSE, sizeof (Open));
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* Each op's name is split into a frame once, and each stack is found
   * from its parent's and its last frame: (parent + 1) << 32 | frame →
   * stack + 1. */
  guint n_names = ws_string_table_size (r->run->strings);
  g_autofree guint32 *frame_of = g_new0 (guint32, n_names + 1); /* name id → frame + 1 */
  g_autoptr (GHashTable) child_of =
    g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  guint32 current = G_MAXUINT32;

  for (gsize i = 0; i < n; i++)
    {
      guint32 op = order[i];
      Open o = { end[op], i };
      gpointer found;
      guint32 frame;
      gint64 key;

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
      /* A child that outlives its parent counts only inside it. */
      if (open->len > 0)
        o.end = MIN (end[op], g_array_index (open, Open, open->len - 1).end);
      clip_end[i] = o.end;
      if (open->len >= MAX_STACK)
        {
          /* Deeper than a flame graph can show: its time stays its parent's. */
          stack_of[i] = stack_of[g_array_index (open, Open, open->len - 1).op];
          continue;
        }
      if (name[op] < n_names && frame_of[name[op]] != 0)
        frame = frame_of[name[op]] - 1;
      else
        {
          frame = intern_frame (profile, ws_run_string (r->run, name[op]));
          if (name[op] < n_names)
            frame_of[name[op]] = frame + 1;
        }
      key = open->len > 0 ? stack_of[g_array_index (open, Open, open->len - 1).op] + 1 : 0;
      key = key << 32 | frame;
      g_array_append_val (frames, frame);
      g_array_append_val (open, o);
      found = g_hash_table_lookup (child_of, &key);
      if (found != NULL)
        stack_of[i] = GPOINTER_TO_UINT (found) - 1;
      else
        {
          stack_of[i] =
            ws_cpu_profile_intern_stack (profile, (const guint32 *) frames->data, frames->len);
          g_hash_table_insert (child_of, g_memdup2 (&key, sizeof key),
                               GUINT_TO_POINTER (stack_of[i] + 1));
        }
    }
}

void
ws_kineto_build_cpu_profile (KinetoReader *r)
{
  KinetoColumns *c = &r->cpu_ops;
  gsize n = c->start->len;
  const gint64 *start = (const gint64 *) c->start->data;
  const guint32 *thread = (const guint32 *) c->thread->data;
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *stack_of = NULL;
  g_autofree gint64 *clip_end = NULL;
  g_autofree guint32 *batch_stack = g_new (guint32, SPAN_BATCH);
  g_autofree gint64 *batch_start = g_new (gint64, SPAN_BATCH);
  g_autofree gint64 *batch_end = g_new (gint64, SPAN_BATCH);
  g_autoptr (GHashTable) threads = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) open = g_array_new (FALSE, FALSE, sizeof (Open));
  WsCpuProfile *profile;
  Sweep s = { NULL };

  if (n == 0)
    return;
  profile = ws_cpu_profile_new (r->path, "kineto", "ns");
  order = order_by_thread (c, r->run->threads->len);
  stack_of = g_new (guint32, n);
  clip_end = g_new (gint64, n);
  stack_ops (r, profile, order, stack_of, clip_end);

  /* Each op opens one span and ends at most one more. */
  ws_cpu_profile_reserve_samples (profile, 2 * n);
  s.profile = profile;
  s.stack_of = stack_of;
  s.end = clip_end;
  s.open = open;
  s.batch_stack = batch_stack;
  s.batch_start = batch_start;
  s.batch_end = batch_end;
  for (gsize i = 0; i < n; i++)
    {
      if (i == 0 || thread[order[i]] != thread[order[i - 1]])
        {
          sweep_close (&s, G_MAXINT64);
          sweep_flush (&s);
          s.thread = profile_thread (profile, r->run, threads, thread[order[i]]);
          s.cursor = start[order[i]];
        }
      sweep_open (&s, i, start[order[i]]);
    }
  sweep_close (&s, G_MAXINT64);
  sweep_flush (&s);
  /* The spans are on the trace's clock, the run's. */
  profile->times_absolute = TRUE;
  ws_cpu_profile_finish (profile);
  g_ptr_array_add (r->run->cpu_profiles, profile);
}
