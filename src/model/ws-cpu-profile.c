/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cpu-profile"
#include "config.h"

#include <string.h>

#include "ws-cpu-profile.h"

/**
 * ws_cpu_profile_new:
 * @unit: what sample weights count: "s", "ns" or "samples"
 *
 * Returns: (transfer full): an empty profile, for a reader to fill.
 */
WsCpuProfile *
ws_cpu_profile_new (const char *path, const char *kind, const char *unit)
{
  WsCpuProfile *self = g_new0 (WsCpuProfile, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->strings = ws_string_table_new ();
  self->path = g_strdup (path);
  self->kind = g_strdup (kind);
  self->unit = g_strdup (unit);
  self->frames = g_array_new (FALSE, FALSE, sizeof (WsCpuFrame));
  self->threads = g_array_new (FALSE, FALSE, sizeof (WsCpuThread));
  self->stack_first = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->stack_depth = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->stack_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->sample_stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->sample_weight = g_array_new (FALSE, FALSE, sizeof (double));
  self->sample_thread = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->sample_time = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->sample_end = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->functions = g_array_new (FALSE, FALSE, sizeof (WsCpuFunction));
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->frame_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stack_index =
    g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  return self;
}

/**
 * ws_cpu_profile_ref:
 *
 * Returns: (transfer full): @self
 */
WsCpuProfile *
ws_cpu_profile_ref (WsCpuProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_cpu_profile_unref (WsCpuProfile *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  ws_string_table_free (self->strings);
  g_free (self->path);
  g_free (self->kind);
  g_free (self->unit);
  g_free (self->title);
  g_array_unref (self->frames);
  g_array_unref (self->threads);
  g_array_unref (self->stack_first);
  g_array_unref (self->stack_depth);
  g_array_unref (self->stack_frames);
  g_array_unref (self->sample_stack);
  g_array_unref (self->sample_weight);
  g_array_unref (self->sample_thread);
  g_array_unref (self->sample_time);
  g_array_unref (self->sample_end);
  g_array_unref (self->functions);
  g_ptr_array_unref (self->warnings);
  g_clear_pointer (&self->frame_index, g_hash_table_unref);
  g_clear_pointer (&self->stack_index, g_hash_table_unref);
  g_free (self);
}

const char *
ws_cpu_profile_string (const WsCpuProfile *self, guint32 id)
{
  return id == WS_STRING_NONE ? "" : ws_string_table_get (self->strings, id);
}

/**
 * ws_cpu_frame_label:
 *
 * A frame as py-spy and the FlameGraph tools write it: `name (file:line)`,
 * `name (file)`, or the bare name.
 *
 * Returns: (transfer full): the label
 */
char *
ws_cpu_frame_label (const WsCpuProfile *self, guint32 frame)
{
  const WsCpuFrame *f = &g_array_index (self->frames, WsCpuFrame, frame);
  const char *name = ws_cpu_profile_string (self, f->name);

  if (f->file == WS_STRING_NONE)
    return g_strdup (name);
  if (f->line < 0)
    return g_strdup_printf ("%s (%s)", name, ws_cpu_profile_string (self, f->file));
  return g_strdup_printf ("%s (%s:%d)", name, ws_cpu_profile_string (self, f->file), f->line);
}

const char *
ws_cpu_profile_thread_name (const WsCpuProfile *self, guint thread)
{
  g_return_val_if_fail (thread < self->threads->len, "");

  return ws_cpu_profile_string (self, g_array_index (self->threads, WsCpuThread, thread).name);
}

gsize
ws_cpu_profile_n_samples (const WsCpuProfile *self)
{
  return self->sample_stack->len;
}

/**
 * ws_cpu_profile_total_weight:
 * @thread: a thread index, or -1 for all threads
 *
 * Returns: the summed weight of the samples of @thread.
 */
double
ws_cpu_profile_total_weight (const WsCpuProfile *self, gint thread)
{
  double total = 0;

  for (guint i = 0; i < self->sample_stack->len; i++)
    if (thread < 0 || g_array_index (self->sample_thread, guint32, i) == (guint32) thread)
      total += g_array_index (self->sample_weight, double, i);
  return total;
}

gboolean
ws_cpu_profile_has_stacks (const WsCpuProfile *self)
{
  return self->sample_stack->len > 0;
}

/**
 * ws_cpu_profile_profiler:
 *
 * Returns: (transfer none): the program that wrote the profile and its
 * form, as its users name it: "py-spy (speedscope, sampled)", "cProfile"…
 */
const char *
ws_cpu_profile_profiler (const WsCpuProfile *self)
{
  static const struct
  {
    const char *kind, *name;
  } names[] = {
    { "py-spy", "py-spy (speedscope, sampled)" },
    { "speedscope-sampled", "speedscope (sampled)" },
    { "speedscope-evented", "speedscope (evented, as pyinstrument writes it)" },
    { "collapsed", "collapsed stacks (py-spy --format raw, stackcollapse)" },
    { "cprofile", "cProfile (pstats table)" },
    { "nsys-cpu-samples", "Nsight Systems CPU sampling" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (self->kind, names[i].kind) == 0)
      return names[i].name;
  return self->kind;
}

/**
 * ws_cpu_profile_total_ns:
 *
 * Returns: the time the profile covers, in ns: cProfile's "in N seconds",
 * or the summed sample weights where they are times; -1 where the weights
 * are counts (collapsed stacks, nsys samples) and no time is known.
 */
gint64
ws_cpu_profile_total_ns (const WsCpuProfile *self)
{
  if (self->flat_total > 0)
    return (gint64) (self->flat_total + 0.5);
  if (g_strcmp0 (self->unit, "ns") == 0 && self->sample_stack->len > 0)
    return (gint64) (ws_cpu_profile_total_weight (self, -1) + 0.5);
  return -1;
}

/* A frame's name or file longer than this is kept as its first and last
 * WS_CPU_NAME_KEEP bytes: a profile whose names are megabytes made every
 * collapsed line and every flame bar that long (issue 46). */
#define WS_CPU_NAME_MAX 4096
#define WS_CPU_NAME_KEEP 2000

static char *
join_ends (const char *text, const char *head_end, const char *tail)
{
  GString *out = g_string_new_len (text, head_end - text);

  g_string_append (out, "…");
  g_string_append (out, tail);
  return g_string_free (out, FALSE);
}

/* @text, or when longer than WS_CPU_NAME_MAX its two ends around "…",
 * cut on character boundaries; counts what it shortens. */
static char *
bounded_name (WsCpuProfile *self, const char *text)
{
  gsize len = strlen (text);
  const char *head_end, *tail;

  if (len <= WS_CPU_NAME_MAX)
    return g_strdup (text);
  self->n_long_names++;
  head_end = text + WS_CPU_NAME_KEEP;
  while (head_end > text && ((guchar) *head_end & 0xc0) == 0x80)
    head_end--;
  tail = text + len - WS_CPU_NAME_KEEP;
  while (*tail != '\0' && ((guchar) *tail & 0xc0) == 0x80)
    tail++;
  return join_ends (text, head_end, tail);
}

guint32
ws_cpu_profile_intern_frame (WsCpuProfile *self, const char *name, const char *file, gint32 line)
{
  g_autofree char *key = g_strdup_printf ("%s\x1f%s\x1f%d", name, file != NULL ? file : "", line);
  gpointer found = g_hash_table_lookup (self->frame_index, key);
  WsCpuFrame frame;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  {
    g_autofree char *short_name = bounded_name (self, name);
    g_autofree char *short_file =
      file != NULL && file[0] != '\0' ? bounded_name (self, file) : NULL;

    frame.name = ws_string_table_intern (self->strings, short_name);
    frame.file =
      short_file != NULL ? ws_string_table_intern (self->strings, short_file) : WS_STRING_NONE;
  }
  frame.line = line;
  g_array_append_val (self->frames, frame);
  g_hash_table_insert (self->frame_index, g_steal_pointer (&key),
                       GUINT_TO_POINTER (self->frames->len));
  return self->frames->len - 1;
}

guint32
ws_cpu_profile_add_thread (WsCpuProfile *self, const char *name, gint64 tid, gint64 global_tid)
{
  WsCpuThread thread = { ws_string_table_intern (self->strings, name), tid, global_tid };

  g_array_append_val (self->threads, thread);
  return self->threads->len - 1;
}

/**
 * ws_cpu_profile_intern_stack:
 * @frames: (array length=depth): frame ids, root first
 *
 * Returns: the id of that stack, the same for every equal stack.
 */
guint32
ws_cpu_profile_intern_stack (WsCpuProfile *self, const guint32 *frames, guint32 depth)
{
  g_autoptr (GBytes) key = g_bytes_new (frames, depth * sizeof (guint32));
  gpointer found = g_hash_table_lookup (self->stack_index, key);
  guint32 first = self->stack_frames->len;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_array_append_vals (self->stack_frames, frames, depth);
  g_array_append_val (self->stack_first, first);
  g_array_append_val (self->stack_depth, depth);
  g_hash_table_insert (self->stack_index, g_steal_pointer (&key),
                       GUINT_TO_POINTER (self->stack_first->len));
  return self->stack_first->len - 1;
}

/**
 * ws_cpu_profile_add_sample:
 * @time: ns on the profile's clock, or -1 when the format has no times
 */
void
ws_cpu_profile_add_sample (WsCpuProfile *self, guint32 stack, double weight, guint32 thread,
                           gint64 time)
{
  g_array_append_val (self->sample_stack, stack);
  g_array_append_val (self->sample_weight, weight);
  g_array_append_val (self->sample_thread, thread);
  if (time >= 0)
    g_array_append_val (self->sample_time, time);
}

/* A span of a traced profile: @stack ran on @thread from @start to @end
 * (ns), weighted by its length. */
void
ws_cpu_profile_add_span (WsCpuProfile *self, guint32 stack, guint32 thread, gint64 start,
                         gint64 end)
{
  ws_cpu_profile_add_sample (self, stack, (double) (end - start), thread, start);
  g_array_append_val (self->sample_end, end);
}

/* Room for @n more samples (with times and ends) in the columns, so that
 * adding them moves no column. */
void
ws_cpu_profile_reserve_samples (WsCpuProfile *self, gsize n)
{
  GArray *columns[] = { self->sample_stack, self->sample_weight, self->sample_thread,
                        self->sample_time, self->sample_end };

  for (gsize c = 0; c < G_N_ELEMENTS (columns); c++)
    {
      guint len = columns[c]->len;

      g_array_set_size (columns[c], len + n);
      g_array_set_size (columns[c], len);
    }
}

/**
 * ws_cpu_profile_add_spans:
 * @stack: (array length=n): each span's stack
 * @start: (array length=n): each span's start (ns)
 * @end: (array length=n): each span's end (ns)
 *
 * Adds @n spans of @thread, as @n calls of ws_cpu_profile_add_span() in
 * order would, growing each column once.
 */
void
ws_cpu_profile_add_spans (WsCpuProfile *self, const guint32 *stack, guint32 thread,
                          const gint64 *start, const gint64 *end, gsize n)
{
  guint first = self->sample_stack->len;
  guint first_time = self->sample_time->len;
  guint first_end = self->sample_end->len;
  guint n_time = 0;

  g_array_set_size (self->sample_stack, first + n);
  g_array_set_size (self->sample_weight, first + n);
  g_array_set_size (self->sample_thread, first + n);
  g_array_set_size (self->sample_time, first_time + n);
  g_array_set_size (self->sample_end, first_end + n);
  for (gsize i = 0; i < n; i++)
    {
      g_array_index (self->sample_stack, guint32, first + i) = stack[i];
      g_array_index (self->sample_weight, double, first + i) = (double) (end[i] - start[i]);
      g_array_index (self->sample_thread, guint32, first + i) = thread;
      if (start[i] >= 0)
        g_array_index (self->sample_time, gint64, first_time + n_time++) = start[i];
      g_array_index (self->sample_end, gint64, first_end + i) = end[i];
    }
  g_array_set_size (self->sample_time, first_time + n_time);
}

void
ws_cpu_profile_add_warning (WsCpuProfile *self, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (self->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Drops what only building needed.  Times are kept only when every sample
 * has one. */
void
ws_cpu_profile_finish (WsCpuProfile *self)
{
  if (self->sample_time->len != self->sample_stack->len)
    g_array_set_size (self->sample_time, 0);
  if (self->sample_end->len != self->sample_time->len)
    g_array_set_size (self->sample_end, 0);
  g_clear_pointer (&self->frame_index, g_hash_table_unref);
  g_clear_pointer (&self->stack_index, g_hash_table_unref);
  if (self->n_long_names > 0)
    ws_cpu_profile_add_warning (self,
                                "%u frame names or files longer than %d bytes were shortened to "
                                "their first and last %d bytes",
                                self->n_long_names, WS_CPU_NAME_MAX, WS_CPU_NAME_KEEP);
  self->n_long_names = 0;
}
