/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-steps"
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ws-launch-index.h"
#include "ws-sort.h"
#include "ws-steps.h"

/* A step slower than this many times the median of its process's other
 * steps is warm-up too (cudnn.benchmark trials, a recompilation). */
#define SLOW_FACTOR 2.0

static gboolean
has_letter (const char *text, gsize len)
{
  for (const char *p = text; p < text + len && *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_isalpha (g_utf8_get_char (p)))
      return TRUE;
  return FALSE;
}

/**
 * ws_steps_counter_prefix:
 * @counter: (out) (optional): the counter
 *
 * "step 3" → "step" with 3; "训练步 12" → "训练步" with 12.  PyTorch's op
 * ranges ("aten::mm, seq = 3, op_id = 7") carry numbers but no counter.
 *
 * Returns: (transfer full) (nullable): the name without its counter and the
 * separator before it, or %NULL when the name does not end in a counter
 */
char *
ws_steps_counter_prefix (const char *name, guint *counter)
{
  gsize len = strlen (name), digits = 0, end;
  guint64 value;

  while (digits < len && g_ascii_isdigit (name[len - 1 - digits]))
    digits++;
  if (digits == 0 || digits > 9 || strstr (name, "op_id = ") != NULL ||
      strstr (name, ", seq = ") != NULL)
    return NULL;
  end = len - digits;
  value = g_ascii_strtoull (name + end, NULL, 10);
  while (end > 0 && strchr (" _-#:=.", name[end - 1]) != NULL)
    end--;
  if (end == 0 || !has_letter (name, end))
    return NULL;
  if (counter != NULL)
    *counter = (guint) value;
  return g_strndup (name, end);
}

typedef struct
{
  char *prefix;
  guint counter;
} NameInfo;

static void
name_info_free (gpointer data)
{
  NameInfo *info = data;

  g_free (info->prefix);
  g_free (info);
}

/* The counter prefix of each name id, computed once per name. */
static const NameInfo *
name_info (GHashTable *cache, const WsRun *run, guint32 name)
{
  NameInfo *info = g_hash_table_lookup (cache, GUINT_TO_POINTER (name));

  if (info == NULL)
    {
      info = g_new0 (NameInfo, 1);
      info->prefix = ws_steps_counter_prefix (ws_run_string (run, name), &info->counter);
      g_hash_table_insert (cache, GUINT_TO_POINTER (name), info);
    }
  return info;
}

static guint32
range_pid (const WsRun *run, gsize r)
{
  guint32 t = run->nvtx.thread[r];

  return t < run->threads->len ? g_array_index (run->threads, WsThread, t).pid : 0;
}

typedef struct
{
  guint count;
  gint64 first;
  guint16 domain;
  GHashTable *counters;
} Candidate;

static void
candidate_free (gpointer data)
{
  Candidate *c = data;

  g_hash_table_unref (c->counters);
  g_free (c);
}

/* The prefix and domain of the top-level ranges that repeat with a
 * counter most often (the earliest on a tie). */
static gboolean
detect (const WsRun *run, guint32 pid, GHashTable *names, char **prefix, guint16 *domain)
{
  g_autoptr (GHashTable) candidates =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, candidate_free);
  GHashTableIter iter;
  gpointer key, value;
  const Candidate *best = NULL;
  const char *best_key = NULL;

  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      const NameInfo *info;
      Candidate *c;
      char *k;

      if (run->nvtx.depth[r] != 0 || (pid != WS_PID_ANY && range_pid (run, r) != pid))
        continue;
      info = name_info (names, run, run->nvtx.name[r]);
      if (info->prefix == NULL)
        continue;
      k = g_strdup_printf ("%u:%s", run->nvtx.domain[r], info->prefix);
      c = g_hash_table_lookup (candidates, k);
      if (c == NULL)
        {
          c = g_new0 (Candidate, 1);
          c->first = run->nvtx.start[r];
          c->domain = run->nvtx.domain[r];
          c->counters = g_hash_table_new (NULL, NULL);
          g_hash_table_insert (candidates, k, c);
        }
      else
        g_free (k);
      c->count++;
      g_hash_table_add (c->counters, GUINT_TO_POINTER (info->counter + 1));
    }

  g_hash_table_iter_init (&iter, candidates);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const Candidate *c = value;

      if (g_hash_table_size (c->counters) < 2)
        continue;
      if (best == NULL || c->count > best->count ||
          (c->count == best->count && c->first < best->first))
        {
          best = c;
          best_key = key;
        }
    }
  if (best == NULL)
    return FALSE;
  *prefix = g_strdup (strchr (best_key, ':') + 1);
  *domain = best->domain;
  return TRUE;
}

/* "训练步 0" → "训练步 N". */
static char *
pattern_of (const char *name)
{
  gsize len = strlen (name);

  while (len > 0 && g_ascii_isdigit (name[len - 1]))
    len--;
  return g_strdup_printf ("%.*sN", (int) len, name);
}

typedef struct
{
  WsBusyIndex *all;
  WsBusyIndex *kernels;
  GArray *launches; /* gint64: launch times of the process's kernels, sorted */
} ProcessGpu;

static void
process_gpu_free (gpointer data)
{
  ProcessGpu *p = data;

  ws_busy_index_free (p->all);
  ws_busy_index_free (p->kernels);
  g_array_unref (p->launches);
  g_free (p);
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static guint32
kernel_pid (const WsRun *run, gsize k)
{
  guint32 s;

  if (run->kernels.stream == NULL)
    return 0;
  s = run->kernels.stream[k];
  return s < run->streams->len ? g_array_index (run->streams, WsStream, s).pid : 0;
}

/* The GPU side of one process, built when a step of it first needs it. */
static ProcessGpu *
process_gpu (GHashTable *cache, const WsRun *run, const WsLaunchIndex *launch_index, guint32 pid)
{
  ProcessGpu *p = g_hash_table_lookup (cache, GUINT_TO_POINTER (pid));

  if (p != NULL)
    return p;
  p = g_new0 (ProcessGpu, 1);
  p->all = ws_busy_index_new (run, pid, WS_BUSY_ALL);
  p->kernels = ws_busy_index_new (run, pid, WS_BUSY_KERNELS);
  p->launches = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gssize a;
      gint64 at;

      if (run->kernels.stream != NULL && kernel_pid (run, k) != pid)
        continue;
      a = launch_index != NULL ? ws_launch_index_kernel (launch_index, k) : -1;
      /* Without the launch call, the kernel's own start stands for it. */
      at = a >= 0 ? run->api.start[a] : run->kernels.start[k];
      g_array_append_val (p->launches, at);
    }
  g_array_sort (p->launches, compare_i64);
  g_hash_table_insert (cache, GUINT_TO_POINTER (pid), p);
  return p;
}

static guint64
count_in (GArray *times, gint64 from, gint64 to)
{
  const gint64 *t = (const gint64 *) times->data;

  return ws_sort_lower_bound (t, 0, times->len, to + 1) -
         ws_sort_lower_bound (t, 0, times->len, from);
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Median of @n values (the mean of the two middle ones for an even n). */
static double
median (double *values, gsize n)
{
  if (n == 0)
    return 0;
  qsort (values, n, sizeof (double), compare_double);
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* Per process: the first step is warm-up, and so is a step that took
 * over SLOW_FACTOR × the median of the process's other steps.  A process
 * with one step has no warm-up to tell. */
static void
mark_warmup (GArray *steps)
{
  g_autoptr (GHashTable) pids = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key;

  for (guint i = 0; i < steps->len; i++)
    g_hash_table_add (pids, GUINT_TO_POINTER (g_array_index (steps, WsStep, i).pid + 1));

  g_hash_table_iter_init (&iter, pids);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint32 pid = GPOINTER_TO_UINT (key) - 1;
      g_autoptr (GArray) walls = g_array_new (FALSE, FALSE, sizeof (double));
      gboolean first = TRUE;
      double med;

      for (guint i = 0; i < steps->len; i++)
        {
          const WsStep *s = &g_array_index (steps, WsStep, i);
          double w = (double) s->wall;

          if (s->pid != pid)
            continue;
          if (!first)
            g_array_append_val (walls, w);
          first = FALSE;
        }
      if (walls->len == 0)
        continue;
      med = median ((double *) walls->data, walls->len);
      first = TRUE;
      for (guint i = 0; i < steps->len; i++)
        {
          WsStep *s = &g_array_index (steps, WsStep, i);

          if (s->pid != pid)
            continue;
          s->slow = !first && (double) s->wall > SLOW_FACTOR * med;
          s->warmup = first || s->slow;
          first = FALSE;
        }
    }
}

static void
compute_medians (WsSteps *self)
{
  guint n = self->steps->len;
  g_autofree double *v = g_new (double, MAX (n, 1));
  WsStepMedians *m = &self->median;
  gsize k;

#define MEDIAN_OF(field)                                                                           \
  k = 0;                                                                                           \
  for (guint i = 0; i < n; i++)                                                                    \
    if (!g_array_index (self->steps, WsStep, i).warmup)                                            \
      v[k++] = (double) g_array_index (self->steps, WsStep, i).field;                              \
  m->field = median (v, k);

  MEDIAN_OF (wall);
  MEDIAN_OF (gpu_busy);
  MEDIAN_OF (kernel);
  MEDIAN_OF (memory);
  MEDIAN_OF (idle);
  MEDIAN_OF (launches);
#undef MEDIAN_OF
}

static gboolean
is_step (const WsRun *run, gsize r, GHashTable *names, const char *prefix, guint16 domain,
         const char *range_name, guint32 pid)
{
  const NameInfo *info;

  if (pid != WS_PID_ANY && range_pid (run, r) != pid)
    return FALSE;
  if (range_name != NULL)
    {
      if (g_str_equal (ws_run_string (run, run->nvtx.name[r]), range_name))
        return TRUE;
      info = name_info (names, run, run->nvtx.name[r]);
      return info->prefix != NULL && g_str_equal (info->prefix, range_name);
    }
  if (run->nvtx.depth[r] != 0 || run->nvtx.domain[r] != domain)
    return FALSE;
  info = name_info (names, run, run->nvtx.name[r]);
  return info->prefix != NULL && g_str_equal (info->prefix, prefix);
}

/**
 * ws_steps_compute:
 * @options: (nullable): the range to take and the process; %NULL detects
 *   the steps of every process
 *
 * Finds the steps of @run and measures each.  Safe on a worker thread.
 *
 * Returns: (transfer full): the steps, with none when the run has no
 * ranges that repeat with a counter (or none named @options->range)
 */
WsSteps *
ws_steps_compute (const WsRun *run, const WsStepsOptions *options)
{
  WsSteps *self = g_new0 (WsSteps, 1);
  g_autoptr (GHashTable) names = g_hash_table_new_full (NULL, NULL, NULL, name_info_free);
  g_autoptr (GHashTable) gpus = g_hash_table_new_full (NULL, NULL, NULL, process_gpu_free);
  g_autoptr (WsLaunchIndex) launch_index = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *range_name = NULL;
  guint16 domain = 0;
  guint32 pid = options != NULL ? options->pid : WS_PID_ANY;
  guint ordinal = 0;

  g_return_val_if_fail (run != NULL, NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->pid = pid;
  self->steps = g_array_new (FALSE, TRUE, sizeof (WsStep));
  if (run->nvtx.n == 0 || run->nvtx.depth == NULL)
    return self;

  if (options != NULL && options->range != NULL)
    range_name = g_strstrip (g_strdup (options->range));
  else if (!detect (run, pid, names, &prefix, &domain))
    return self;

  if (run->api.n > 0 && run->api.correlation != NULL && run->kernels.correlation != NULL &&
      run->kernels.stream != NULL)
    launch_index = ws_launch_index_new (run);

  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      WsStep step = { 0 };
      const NameInfo *info;
      ProcessGpu *gpu;

      if (!is_step (run, r, names, prefix, domain, range_name, pid))
        continue;
      info = name_info (names, run, run->nvtx.name[r]);
      step.number = info->prefix != NULL ? info->counter : ordinal;
      ordinal++;
      step.name = run->nvtx.name[r];
      step.range = r;
      step.pid = range_pid (run, r);
      step.start = run->nvtx.start[r];
      step.end = run->nvtx.end[r];
      step.wall = step.end - step.start;
      gpu = process_gpu (gpus, run, launch_index, step.pid);
      step.gpu_busy = ws_busy_index_busy (gpu->all, step.start, step.end);
      step.kernel = ws_busy_index_busy (gpu->kernels, step.start, step.end);
      step.memory = step.gpu_busy - step.kernel;
      step.idle = step.wall - step.gpu_busy;
      step.launches = count_in (gpu->launches, step.start, step.end);
      g_array_append_val (self->steps, step);
    }
  if (self->steps->len == 0)
    return self;

  self->pattern = range_name != NULL
                    ? g_strdup (range_name)
                    : pattern_of (ws_run_string (run, g_array_index (self->steps, WsStep, 0).name));
  mark_warmup (self->steps);
  for (guint i = 0; i < self->steps->len; i++)
    {
      if (g_array_index (self->steps, WsStep, i).warmup)
        self->n_warmup++;
      else
        self->n_steady++;
    }
  compute_medians (self);
  return self;
}

/**
 * ws_steps_ref:
 *
 * Returns: (transfer full): @self
 */
WsSteps *
ws_steps_ref (WsSteps *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_steps_unref (WsSteps *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->pattern);
  g_array_unref (self->steps);
  g_free (self);
}

/* Whether the run has steps past its warm-up. */
gboolean
ws_steps_has_steady_state (const WsSteps *self)
{
  return self != NULL && self->n_steady > 0 && self->n_warmup > 0;
}

static int
compare_spans (gconstpointer a, gconstpointer b)
{
  const WsSpan *x = a, *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

/**
 * ws_steps_spans:
 * @warmup: the warm-up steps, or the steady ones
 *
 * Returns: (transfer full) (element-type WsSpan): the time the steps
 * cover, as sorted spans that do not overlap
 */
GArray *
ws_steps_spans (const WsSteps *self, gboolean warmup)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (WsSpan));
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (WsSpan));

  for (guint i = 0; i < self->steps->len; i++)
    {
      const WsStep *s = &g_array_index (self->steps, WsStep, i);
      WsSpan span = { s->start, s->end };

      if (s->warmup == warmup)
        g_array_append_val (all, span);
    }
  g_array_sort (all, compare_spans);
  for (guint i = 0; i < all->len; i++)
    {
      WsSpan span = g_array_index (all, WsSpan, i);

      if (spans->len > 0 && span.start <= g_array_index (spans, WsSpan, spans->len - 1).end)
        {
          WsSpan *last = &g_array_index (spans, WsSpan, spans->len - 1);

          last->end = MAX (last->end, span.end);
          continue;
        }
      g_array_append_val (spans, span);
    }
  return spans;
}

/* ns: the wall time of the warm-up steps together. */
gint64
ws_steps_warmup_time (const WsSteps *self)
{
  gint64 total = 0;

  for (guint i = 0; i < self->steps->len; i++)
    if (g_array_index (self->steps, WsStep, i).warmup)
      total += g_array_index (self->steps, WsStep, i).wall;
  return total;
}
