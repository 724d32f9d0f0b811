/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cpu-samples"
#include "config.h"

#include <stdlib.h>

#include "ws-cpu-samples.h"
#include "ws-run-build.h"
#include "ws-sort.h"

/* The sampling period when no thread has enough samples to tell: nsys
 * samples at 1 kHz unless told otherwise. */
#define DEFAULT_INTERVAL 1000000

/* Samples a thread needs for its gaps to tell the sampling period. */
#define MIN_SAMPLES 10

static int
compare_i64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The run thread of a profile's thread: by globalTid, as nsys names both. */
static guint32
run_thread (const WsRun *run, const WsCpuThread *thread)
{
  for (guint i = 0; i < run->threads->len; i++)
    if (g_array_index (run->threads, WsThread, i).global_tid == thread->global_tid)
      return i;
  return G_MAXUINT32;
}

/* The median gap between consecutive samples of one thread (@times, sorted
 * by time). */
static gint64
median_gap (const gint64 *times, gsize n)
{
  g_autofree gint64 *gaps = NULL;
  gsize m = 0;

  if (n < 3)
    return DEFAULT_INTERVAL;
  gaps = g_new (gint64, n - 1);
  for (gsize i = 1; i < n; i++)
    if (times[i] > times[i - 1])
      gaps[m++] = times[i] - times[i - 1];
  if (m == 0)
    return DEFAULT_INTERVAL;
  qsort (gaps, m, sizeof (gint64), compare_i64);
  return gaps[m / 2];
}

static WsCpuProfile *
timed_profile (const WsRun *run)
{
  for (guint p = 0; run->cpu_profiles != NULL && p < run->cpu_profiles->len; p++)
    {
      WsCpuProfile *profile = g_ptr_array_index (run->cpu_profiles, p);

      if (profile->times_absolute && profile->sample_time->len == profile->sample_stack->len &&
          profile->sample_time->len > 0)
        return profile;
    }
  return NULL;
}

/**
 * ws_cpu_samples_widen_bounds:
 *
 * Widens [@lo, @hi] to the times of the samples ws_cpu_samples_index()
 * would place: those of a profile on @run's clock.
 */
void
ws_cpu_samples_widen_bounds (const WsRun *run, gint64 *lo, gint64 *hi)
{
  WsCpuProfile *profile = timed_profile (run);

  if (profile == NULL)
    return;
  for (guint i = 0; i < profile->sample_time->len; i++)
    {
      gint64 t = g_array_index (profile->sample_time, gint64, i);

      *lo = MIN (*lo, t);
      *hi = MAX (*hi, t);
    }
}

/* Keeps the samples of @profile that fall inside the run and on one of its
 * threads (@thread_map), sorted by time: fills c->start, c->sample and
 * c->n. */
static void
keep_samples (WsRun *run, WsCpuProfile *profile, const guint32 *thread_map)
{
  WsCpuSamples *c = &run->cpu_samples;
  const gint64 *time = (const gint64 *) profile->sample_time->data;
  const guint32 *thread = (const guint32 *) profile->sample_thread->data;
  gsize n = profile->sample_time->len, kept = 0;
  guint n_threads = profile->threads->len;
  g_autofree guint32 *order = NULL;

  c->start = g_new (gint64, n);
  c->sample = g_new (guint32, n);
  for (gsize i = 0; i < n; i++)
    {
      if (thread[i] >= n_threads || thread_map[thread[i]] == G_MAXUINT32)
        continue;
      if (time[i] < run->origin || time[i] > run->end_time)
        {
          c->outside++;
          continue;
        }
      c->start[kept] = time[i];
      c->sample[kept] = (guint32) i;
      kept++;
    }
  c->n = kept;
  if (kept == 0)
    {
      g_clear_pointer (&c->start, g_free);
      g_clear_pointer (&c->sample, g_free);
      return;
    }

  /* The profile's order is its sample ids': sort by time. */
  order = ws_sort_order (c->start, NULL, c->n);
  ws_sort_apply (c->start, sizeof (gint64), order, c->n);
  ws_sort_apply (c->sample, sizeof (guint32), order, c->n);
}

/* Each kept sample's thread in the run and the name of its leaf frame,
 * interned once per frame. */
static void
name_samples (WsRun *run, WsCpuProfile *profile, const guint32 *thread_map)
{
  WsCpuSamples *c = &run->cpu_samples;
  const guint32 *stack = (const guint32 *) profile->sample_stack->data;
  const guint32 *thread = (const guint32 *) profile->sample_thread->data;
  g_autofree guint32 *frame_name = g_new (guint32, profile->frames->len + 1);

  c->name = g_new (guint32, c->n);
  c->thread = g_new (guint32, c->n);
  for (guint f = 0; f < profile->frames->len; f++)
    frame_name[f] = WS_STRING_NONE;
  for (gsize j = 0; j < c->n; j++)
    {
      guint32 i = c->sample[j];
      guint32 s = stack[i];
      guint32 depth = g_array_index (profile->stack_depth, guint32, s);
      guint32 leaf = G_MAXUINT32;

      if (depth > 0)
        leaf = g_array_index (profile->stack_frames, guint32,
                              g_array_index (profile->stack_first, guint32, s) + depth - 1);
      c->thread[j] = thread_map[thread[i]];
      if (leaf < profile->frames->len)
        {
          if (frame_name[leaf] == WS_STRING_NONE)
            frame_name[leaf] = ws_string_table_intern (
              run->strings, ws_cpu_profile_string (
                              profile, g_array_index (profile->frames, WsCpuFrame, leaf).name));
          c->name[j] = frame_name[leaf];
        }
      else
        c->name[j] = ws_string_table_intern (run->strings, "[unknown]");
    }
}

/* The sampling period: the smallest median gap between the samples of one
 * thread, among threads with enough samples to tell (a busy thread is
 * sampled every period; a mostly idle one shows long gaps that are not its
 * samples' length). */
static gint64
sampling_period (const WsCpuSamples *c, guint n_run_threads)
{
  g_autofree gint64 *times = g_new (gint64, c->n);
  gint64 period = G_MAXINT64;

  for (guint t = 0; t < n_run_threads; t++)
    {
      gsize m = 0;

      for (gsize j = 0; j < c->n; j++)
        if (c->thread[j] == t)
          times[m++] = c->start[j];
      if (m >= MIN_SAMPLES)
        period = MIN (period, median_gap (times, m));
    }
  return period == G_MAXINT64 ? DEFAULT_INTERVAL : period;
}

/**
 * ws_cpu_samples_index:
 *
 * Fills @run's cpu_samples from the first CPU profile whose sample times
 * are on the run's clock: the samples inside [origin, end_time], sorted
 * by time, each lasting until its thread's next sample or one sampling
 * period, whichever comes first; a traced profile's spans (sample_end)
 * last as long as they ran.  Called by ws_run_finish().
 */
void
ws_cpu_samples_index (WsRun *run)
{
  WsRun *self = run;
  WsCpuSamples *c = &self->cpu_samples;
  WsCpuProfile *profile = timed_profile (self);
  g_autofree guint32 *thread_map = NULL;
  g_autofree gint64 *next = NULL;
  guint n_threads, n_run_threads;
  gint64 period;

  g_return_if_fail (self != NULL);

  if (c->profile != NULL || profile == NULL)
    return;
  c->profile = profile;
  n_threads = profile->threads->len;
  n_run_threads = self->threads->len;
  if (profile->sample_time->len > G_MAXUINT32)
    return;

  thread_map = g_new (guint32, n_threads + 1);
  for (guint t = 0; t < n_threads; t++)
    thread_map[t] = run_thread (self, &g_array_index (profile->threads, WsCpuThread, t));
  keep_samples (self, profile, thread_map);
  if (c->n == 0)
    return;
  c->end = g_new (gint64, c->n);
  name_samples (self, profile, thread_map);
  if (profile->sample_end->len == profile->sample_time->len)
    {
      for (gsize j = 0; j < c->n; j++)
        c->end[j] = g_array_index (profile->sample_end, gint64, c->sample[j]);
      return;
    }
  period = sampling_period (c, n_run_threads);

  /* Each lasts until its thread's next sample, or one period. */
  next = g_new (gint64, n_run_threads + 1);
  for (guint t = 0; t <= n_run_threads; t++)
    next[t] = -1;
  for (gsize j = c->n; j-- > 0;)
    {
      guint32 t = c->thread[j];

      c->end[j] = next[t] >= 0 && next[t] - c->start[j] < period ? next[t] : c->start[j] + period;
      next[t] = c->start[j];
    }
}
