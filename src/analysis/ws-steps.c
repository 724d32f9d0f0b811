/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-steps"
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "ws-limits.h"
#include "ws-format.h"
#include "ws-launch-index.h"
#include "ws-ranks.h"
#include "ws-run-derive.h"
#include "ws-run-slice.h"
#include "ws-sort.h"
#include "ws-stats.h"
#include "ws-steps.h"

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

/* Where each kernel, memory operation and graph replay was launched: its
 * launch call's start, or its own start where the call is unknown. */
static void
launch_times (const WsRun *run, gint64 **kernels, gint64 **memops, gint64 **replays)
{
  g_autoptr (WsLaunchIndex) index = NULL;

  if (run->api.n > 0 && run->api.correlation != NULL && run->kernels.correlation != NULL &&
      run->kernels.stream != NULL)
    index = ws_launch_index_new (run);
  *kernels = g_new (gint64, MAX (run->kernels.n, 1));
  *memops = g_new (gint64, MAX (run->memops.n, 1));
  *replays = g_new (gint64, MAX (run->replays.n, 1));
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gssize a = index != NULL ? ws_launch_index_kernel (index, k) : -1;

      (*kernels)[k] = a >= 0 ? run->api.start[a] : run->kernels.start[k];
    }
  for (gsize m = 0; m < run->memops.n; m++)
    {
      gssize a = index != NULL && run->memops.correlation != NULL && run->memops.stream != NULL
                   ? ws_launch_index_memop (index, m)
                   : -1;

      (*memops)[m] = a >= 0 ? run->api.start[a] : run->memops.start[m];
    }
  for (gsize r = 0; r < run->replays.n; r++)
    {
      gssize a = index != NULL ? ws_launch_index_replay (index, r) : -1;

      (*replays)[r] = a >= 0 ? run->api.start[a] : run->replays.start[r];
    }
}

/* Launches of one process sorted by time, with the running sum of their
 * GPU time, so that a step's launches are two binary searches. */
typedef struct
{
  GArray *times; /* gint64 */
  GArray *sums;  /* gint64: the GPU time of the launches before each, then the total */
} Launches;

typedef struct
{
  gint64 time;
  gint64 duration;
} Launch;

static int
compare_launches (gconstpointer a, gconstpointer b)
{
  const Launch *x = a, *y = b;

  return (x->time > y->time) - (x->time < y->time);
}

static void
launches_init (Launches *self, GArray *list)
{
  gint64 sum = 0;

  g_array_sort (list, compare_launches);
  self->times = g_array_sized_new (FALSE, FALSE, sizeof (gint64), list->len);
  self->sums = g_array_sized_new (FALSE, FALSE, sizeof (gint64), list->len + 1);
  for (guint i = 0; i < list->len; i++)
    {
      const Launch *l = &g_array_index (list, Launch, i);

      g_array_append_val (self->times, l->time);
      g_array_append_val (self->sums, sum);
      sum += l->duration;
    }
  g_array_append_val (self->sums, sum);
}

static void
launches_clear (Launches *self)
{
  g_array_unref (self->times);
  g_array_unref (self->sums);
}

typedef struct
{
  WsBusyIndex *all;
  WsBusyIndex *kernels;
  Launches kernel_launches;
  Launches memop_launches;
} ProcessGpu;

static void
process_gpu_free (gpointer data)
{
  ProcessGpu *p = data;

  ws_busy_index_free (p->all);
  ws_busy_index_free (p->kernels);
  launches_clear (&p->kernel_launches);
  launches_clear (&p->memop_launches);
  g_free (p);
}

static guint32
stream_pid (const WsRun *run, const guint32 *streams, gsize i)
{
  guint32 s;

  if (streams == NULL)
    return 0;
  s = streams[i];
  return s < run->streams->len ? g_array_index (run->streams, WsStream, s).pid : 0;
}

typedef struct
{
  gint64 *kernel_times;
  gint64 *memop_times;
  gint64 *replay_times;
} Times;

/* The GPU side of one process, built when a step of it first needs it. */
static ProcessGpu *
process_gpu (GHashTable *cache, const WsRun *run, const Times *times, guint32 pid)
{
  ProcessGpu *p = g_hash_table_lookup (cache, GUINT_TO_POINTER (pid));
  g_autoptr (GArray) kernels = g_array_new (FALSE, FALSE, sizeof (Launch));
  g_autoptr (GArray) memops = g_array_new (FALSE, FALSE, sizeof (Launch));

  if (p != NULL)
    return p;
  p = g_new0 (ProcessGpu, 1);
  p->all = ws_busy_index_new (run, pid, WS_BUSY_ALL);
  p->kernels = ws_busy_index_new (run, pid, WS_BUSY_COMPUTE);
  /* A launch call is counted once: a replay stands for the kernels it
   * ran (docs/cuda-graphs.md, "Steps"). */
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      Launch l = { times->kernel_times[k], run->kernels.end[k] - run->kernels.start[k] };

      if (!ws_run_kernel_in_graph (run, k) &&
          (run->kernels.stream == NULL || stream_pid (run, run->kernels.stream, k) == pid))
        g_array_append_val (kernels, l);
    }
  for (gsize r = 0; r < run->replays.n; r++)
    {
      Launch l = { times->replay_times[r], run->replays.end[r] - run->replays.start[r] };

      if (stream_pid (run, run->replays.stream, r) == pid)
        g_array_append_val (kernels, l);
    }
  for (gsize m = 0; m < run->memops.n; m++)
    {
      Launch l = { times->memop_times[m], run->memops.end[m] - run->memops.start[m] };

      if ((run->memops.replay == NULL || run->memops.replay[m] == WS_REPLAY_NONE) &&
          (run->memops.stream == NULL || stream_pid (run, run->memops.stream, m) == pid))
        g_array_append_val (memops, l);
    }
  launches_init (&p->kernel_launches, kernels);
  launches_init (&p->memop_launches, memops);
  g_hash_table_insert (cache, GUINT_TO_POINTER (pid), p);
  return p;
}

/* How many launches of @l fall in [@from, @to], and their GPU time. */
static guint64
launches_in (const Launches *l, gint64 from, gint64 to, gint64 *gpu_time)
{
  const gint64 *t = (const gint64 *) l->times->data;
  gsize lo = ws_sort_lower_bound (t, 0, l->times->len, from);
  gsize hi = ws_sort_lower_bound (t, lo, l->times->len, to + 1);

  *gpu_time = g_array_index (l->sums, gint64, hi) - g_array_index (l->sums, gint64, lo);
  return hi - lo;
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

/* The median of @values without one element equal to @without (sorted
 * @values, @n of them, @without among them). */
static double
median_without (const double *values, gsize n, double without)
{
  gsize p = 0, m = n - 1, lo = 0, hi = n;
  double a, b;

  /* The first element equal to @without: removing any of them leaves the same values. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (values[mid] < without)
        lo = mid + 1;
      else
        hi = mid;
    }
  p = lo;
#define AT(q) ((q) < p ? values[(q)] : values[(q) + 1])
  if (m % 2 == 1)
    return AT (m / 2);
  a = AT (m / 2 - 1);
  b = AT (m / 2);
#undef AT
  return (a + b) / 2;
}

/* One rank's steps (@index into @steps, @m of them, in start order). */
static void
rule_one_rank (const WsStepWall *steps, const guint *index, guint m, gboolean first_warm,
               WsWarmup *out)
{
  guint k0 = first_warm ? 1 : 0;
  g_autofree double *walls = NULL;
  guint n_walls;

  if (m < 2)
    return;
  if (first_warm)
    out[index[0]] = WS_WARMUP_FIRST;
  n_walls = m - k0;
  if (n_walls < 2)
    return;
  walls = g_new (double, n_walls);
  for (guint j = k0; j < m; j++)
    walls[j - k0] = (double) steps[index[j]].wall;
  qsort (walls, n_walls, sizeof (double), compare_double);
  for (guint j = k0; j < m; j++)
    {
      double w = (double) steps[index[j]].wall;

      if (w > WS_STEPS_SLOW_FACTOR * median_without (walls, n_walls, w))
        out[index[j]] = WS_WARMUP_SLOW;
    }
}

/**
 * ws_steps_warmup_join:
 * @numbers: each step's number
 * @why: (inout): each step's warm-up as its own rank decided it; steady
 *   steps of a number that is warm-up on some rank become %WS_WARMUP_RANK
 * @n: how many steps
 *
 * The job's part of the warm-up rule: a step number is warm-up on every
 * rank when it is warm-up on any.
 */
void
ws_steps_warmup_join (const guint *numbers, WsWarmup *why, guint n)
{
  g_autoptr (GHashTable) warm = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < n; i++)
    if (why[i] != WS_WARMUP_NONE)
      g_hash_table_add (warm, GUINT_TO_POINTER (numbers[i] + 1));
  for (guint i = 0; i < n; i++)
    if (why[i] == WS_WARMUP_NONE && g_hash_table_contains (warm, GUINT_TO_POINTER (numbers[i] + 1)))
      why[i] = WS_WARMUP_RANK;
}

/**
 * ws_steps_warmup_rule:
 * @steps: (array length=n): the steps, each rank's in start order (the
 *   ranks may interleave)
 * @first_warm: whether a rank's first step is warm-up (FALSE for a PyTorch
 *   profiler trace, whose steps are its schedule's active ones)
 * @out: (out caller-allocates) (array length=n): why each step is warm-up
 *
 * The warm-up rule, the one every page and command uses (docs/NOTES.md,
 * "The warm-up rule").  Per rank, with at least two steps: the first step
 * is warm-up (when @first_warm), and a later step is warm-up when its
 * wall time is over %WS_STEPS_SLOW_FACTOR × the median wall time of the
 * rank's other steps (the first step and the step itself left out; the
 * mean of the two middle ones for an even count; with no other step it is
 * not slow).  A rank with one step has no warm-up.  Then, for a job, a
 * step number that is warm-up on any rank is warm-up on all of them
 * (ws_steps_warmup_join()).
 */
void
ws_steps_warmup_rule (const WsStepWall *steps, guint n, gboolean first_warm, WsWarmup *out)
{
  g_autoptr (GHashTable) by_rank =
    g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  g_autofree guint *numbers = g_new (guint, MAX (n, 1));
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < n; i++)
    {
      GArray *index = g_hash_table_lookup (by_rank, GUINT_TO_POINTER (steps[i].rank + 1));

      out[i] = WS_WARMUP_NONE;
      numbers[i] = steps[i].number;
      if (index == NULL)
        {
          index = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (by_rank, GUINT_TO_POINTER (steps[i].rank + 1), index);
        }
      g_array_append_val (index, i);
    }
  g_hash_table_iter_init (&iter, by_rank);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GArray *index = value;

      rule_one_rank (steps, (const guint *) index->data, index->len, first_warm, out);
    }
  ws_steps_warmup_join (numbers, out, n);
}

/* The rule on the steps found (a rank is a process: a job's ranks are its
 * processes).  The steps of a PyTorch profiler trace are its schedule's
 * active ones, the profiler's warm-up steps already behind them: only a
 * slow one is warm-up (@first_warm FALSE). */
static void
mark_warmup (GArray *steps, gboolean first_warm)
{
  g_autofree WsStepWall *walls = g_new (WsStepWall, MAX (steps->len, 1));
  g_autofree WsWarmup *why = g_new (WsWarmup, MAX (steps->len, 1));

  for (guint i = 0; i < steps->len; i++)
    {
      const WsStep *s = &g_array_index (steps, WsStep, i);

      walls[i] = (WsStepWall){ s->pid, s->number, s->wall };
    }
  ws_steps_warmup_rule (walls, steps->len, first_warm, why);
  for (guint i = 0; i < steps->len; i++)
    {
      WsStep *s = &g_array_index (steps, WsStep, i);

      s->why = why[i];
      s->warmup = why[i] != WS_WARMUP_NONE;
      s->slow = why[i] == WS_WARMUP_SLOW;
    }
}

/* The medians of the steady steps of @rank (-1: of every rank). */
static void
medians_of (const GArray *steps, gint rank, gboolean all, WsStepMedians *m, guint *n_steady)
{
  guint n = steps->len;
  g_autofree double *v = g_new (double, MAX (n, 1));
  gsize k;

#define STEADY(i)                                                                                  \
  (!g_array_index (steps, WsStep, i).warmup &&                                                     \
   (all || g_array_index (steps, WsStep, i).rank == rank))
#define MEDIAN_OF(field)                                                                           \
  k = 0;                                                                                           \
  for (guint i = 0; i < n; i++)                                                                    \
    if (STEADY (i))                                                                                \
      v[k++] = (double) g_array_index (steps, WsStep, i).field;                                    \
  m->field = median (v, k);

  MEDIAN_OF (wall);
  *n_steady = (guint) k;
  MEDIAN_OF (gpu_busy);
  MEDIAN_OF (kernel);
  MEDIAN_OF (memory);
  MEDIAN_OF (idle);
  MEDIAN_OF (launches);
  MEDIAN_OF (gpu_launched);
#undef MEDIAN_OF
#undef STEADY
}

static int
compare_ints (gconstpointer a, gconstpointer b)
{
  gint x = *(const gint *) a, y = *(const gint *) b;

  return (x > y) - (x < y);
}

/* The medians over every steady step, and per rank. */
static void
compute_medians (WsSteps *self)
{
  g_autoptr (GArray) ranks = g_array_new (FALSE, FALSE, sizeof (gint));
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  guint n_steady;

  medians_of (self->steps, -1, TRUE, &self->median, &n_steady);
  for (guint i = 0; i < self->steps->len; i++)
    {
      gint rank = g_array_index (self->steps, WsStep, i).rank;

      if (g_hash_table_add (seen, GINT_TO_POINTER (rank + 2)))
        g_array_append_val (ranks, rank);
    }
  g_array_sort (ranks, compare_ints);
  for (guint r = 0; r < ranks->len; r++)
    {
      WsStepsRank out = { g_array_index (ranks, gint, r), 0, 0, { 0 } };

      for (guint i = 0; i < self->steps->len; i++)
        out.n_steps += g_array_index (self->steps, WsStep, i).rank == out.rank;
      medians_of (self->steps, out.rank, FALSE, &out.median, &out.n_steady);
      g_array_append_val (self->ranks, out);
    }
}

/* The job's rank of each step's process, or -1. */
static gboolean
assign_ranks (const WsRun *run, GArray *steps)
{
  gboolean job = FALSE;

  for (guint i = 0; i < steps->len; i++)
    {
      WsStep *s = &g_array_index (steps, WsStep, i);

      s->rank = -1;
      for (guint r = 0; run->ranks != NULL && r < ws_ranks_get_n (run->ranks); r++)
        if (ws_ranks_get (run->ranks, r)->pid == s->pid)
          {
            s->rank = (gint) ws_ranks_get (run->ranks, r)->rank;
            job = TRUE;
            break;
          }
    }
  return job;
}

/* A job's rows: by number, then rank, then start. */
static int
compare_job_steps (gconstpointer a, gconstpointer b)
{
  const WsStep *x = a, *y = b;

  if (x->number != y->number)
    return x->number < y->number ? -1 : 1;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->start > y->start) - (x->start < y->start);
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
  Times times = { NULL, NULL, NULL };
  g_autofree char *prefix = NULL;
  g_autofree char *range_name = NULL;
  guint16 domain = 0;
  guint32 pid = options != NULL ? options->pid : WS_PID_ANY;
  g_autoptr (GHashTable) ordinals = g_hash_table_new (NULL, NULL);

  g_return_val_if_fail (run != NULL, NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->pid = pid;
  self->steps = g_array_new (FALSE, TRUE, sizeof (WsStep));
  self->ranks = g_array_new (FALSE, TRUE, sizeof (WsStepsRank));
  if (run->nvtx.n == 0 || run->nvtx.depth == NULL)
    return self;

  if (options != NULL && options->range != NULL)
    range_name = g_strstrip (g_strdup (options->range));
  else if (!detect (run, pid, names, &prefix, &domain))
    return self;

  launch_times (run, &times.kernel_times, &times.memop_times, &times.replay_times);
  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      WsStep step = { 0 };
      const NameInfo *info;
      ProcessGpu *gpu;

      if (!is_step (run, r, names, prefix, domain, range_name, pid))
        continue;
      info = name_info (names, run, run->nvtx.name[r]);
      step.name = run->nvtx.name[r];
      step.range = r;
      step.pid = range_pid (run, r);
      {
        /* Without a counter, its place among its process's steps. */
        guint ordinal =
          GPOINTER_TO_UINT (g_hash_table_lookup (ordinals, GUINT_TO_POINTER (step.pid + 1)));

        step.number = info->prefix != NULL ? info->counter : ordinal;
        g_hash_table_insert (ordinals, GUINT_TO_POINTER (step.pid + 1),
                             GUINT_TO_POINTER (ordinal + 1));
      }
      step.start = run->nvtx.start[r];
      step.end = run->nvtx.end[r];
      step.wall = step.end - step.start;
      gpu = process_gpu (gpus, run, &times, step.pid);
      step.gpu_busy = ws_busy_index_busy (gpu->all, step.start, step.end);
      step.kernel = ws_busy_index_busy (gpu->kernels, step.start, step.end);
      step.memory = step.gpu_busy - step.kernel;
      step.idle = step.wall - step.gpu_busy;
      {
        gint64 kernel_time, memop_time;

        step.launches = launches_in (&gpu->kernel_launches, step.start, step.end, &kernel_time);
        launches_in (&gpu->memop_launches, step.start, step.end, &memop_time);
        step.gpu_launched = kernel_time + memop_time;
      }
      g_array_append_val (self->steps, step);
    }
  g_free (times.kernel_times);
  g_free (times.memop_times);
  g_free (times.replay_times);
  if (self->steps->len == 0)
    return self;

  self->pattern = range_name != NULL
                    ? g_strdup (range_name)
                    : pattern_of (ws_run_string (run, g_array_index (self->steps, WsStep, 0).name));
  mark_warmup (self->steps, g_strcmp0 (run->prov.kind, "kineto-json") != 0);
  if (assign_ranks (run, self->steps))
    g_array_sort (self->steps, compare_job_steps);
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
  g_array_unref (self->ranks);
  g_free (self);
}

/* Whether the run has steps past its warm-up. */
gboolean
ws_steps_has_steady_state (const WsSteps *self)
{
  return self != NULL && self->n_steady > 0 && self->n_warmup > 0;
}

static int
compare_step_starts (gconstpointer a, gconstpointer b)
{
  const WsStep *x = a, *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

/**
 * ws_steps_spans:
 * @warmup: the warm-up steps, or the steady ones
 *
 * The time the steps cover: consecutive steps of the kind asked for make
 * one span, from the first one's start to the last one's end, the gaps
 * between them (the loop's own work) included.
 *
 * Returns: (transfer full) (element-type WsSpan): sorted spans that do not
 * overlap
 */
GArray *
ws_steps_spans (const WsSteps *self, gboolean warmup)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (WsSpan));
  g_autoptr (GArray) order = g_array_copy (self->steps);
  gboolean open = FALSE;

  /* In start order (a job's steps are by number and rank). */
  g_array_sort (order, compare_step_starts);
  for (guint i = 0; i < order->len; i++)
    {
      const WsStep *s = &g_array_index (order, WsStep, i);

      if (s->warmup != warmup)
        {
          open = FALSE;
          continue;
        }
      if (open)
        {
          WsSpan *last = &g_array_index (spans, WsSpan, spans->len - 1);

          last->end = MAX (last->end, s->end);
          continue;
        }
      if (spans->len > 0 && s->start <= g_array_index (spans, WsSpan, spans->len - 1).end)
        {
          WsSpan *last = &g_array_index (spans, WsSpan, spans->len - 1);

          last->end = MAX (last->end, s->end);
        }
      else
        {
          WsSpan span = { s->start, s->end };

          g_array_append_val (spans, span);
        }
      open = TRUE;
    }
  return spans;
}

/**
 * ws_steps_first_view:
 * @max_steps: how many steady steps to show at most
 * @out: (out): the stretch
 *
 * Where a timeline opens (docs/NOTES.md, "The timeline"): the first span
 * of the steady state (ws_steps_spans()), cut after its first @max_steps
 * steps (a step of a job counted once for all its ranks), from the first
 * one's start to the last one's end on any rank.
 *
 * Returns: whether there is a steady step
 */
gboolean
ws_steps_first_view (const WsSteps *self, guint max_steps, WsSpan *out)
{
  g_autoptr (GArray) spans = NULL;
  g_autoptr (GArray) order = NULL;
  g_autoptr (GHashTable) taken = NULL;
  WsSpan first;

  g_return_val_if_fail (out != NULL, FALSE);

  if (self == NULL || self->n_steady == 0 || max_steps == 0)
    return FALSE;
  spans = ws_steps_spans (self, FALSE);
  if (spans->len == 0)
    return FALSE;
  first = g_array_index (spans, WsSpan, 0);
  order = g_array_copy (self->steps);
  g_array_sort (order, compare_step_starts);
  taken = g_hash_table_new (NULL, NULL);
  out->start = first.start;
  out->end = first.start;
  for (guint i = 0; i < order->len; i++)
    {
      const WsStep *s = &g_array_index (order, WsStep, i);
      gpointer key = GUINT_TO_POINTER (s->number + 1);

      if (s->warmup || s->start < first.start || s->end > first.end)
        continue;
      if (!g_hash_table_contains (taken, key))
        {
          if (g_hash_table_size (taken) >= max_steps)
            continue;
          g_hash_table_add (taken, key);
        }
      out->end = MAX (out->end, s->end);
    }
  return out->end > out->start;
}

/* ns: the wall time of the warm-up steps together. */
gint64
ws_steps_warmup_time (const WsSteps *self)
{
  gint64 total = 0;

  for (guint i = 0; i < self->steps->len; i++)
    if (g_array_index (self->steps, WsStep, i).warmup)
      total = ws_time_add (total, g_array_index (self->steps, WsStep, i).wall);
  return total;
}

/* The events of @run launched within @spans (a kernel belongs to the step
 * that launched it: the GPU may run it long after, in a loop that never
 * waits for its GPU; a replay to the step of its cudaGraphLaunch), with
 * their summaries. */
static WsRun *
slice_launched (const WsRun *run, const WsSpan *spans, guint n)
{
  g_autofree gint64 *starts = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *ends = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *kernel_times = NULL;
  g_autofree gint64 *memop_times = NULL;
  g_autofree gint64 *replay_times = NULL;
  WsLaunchTimes times;

  for (guint i = 0; i < n; i++)
    {
      starts[i] = spans[i].start;
      ends[i] = spans[i].end;
    }
  launch_times (run, &kernel_times, &memop_times, &replay_times);
  times = (WsLaunchTimes){ kernel_times, memop_times, replay_times };
  return ws_run_derive_slice (run, starts, ends, n, &times);
}

/**
 * ws_steps_steady_run:
 *
 * The steady state of @run: the events that start in a steady step (on
 * any thread or GPU), with their summaries.
 *
 * Returns: (transfer full) (nullable): the slice, or %NULL when the run
 * has no steady steps
 */
WsRun *
ws_steps_steady_run (const WsRun *run, const WsSteps *steps)
{
  g_autoptr (GArray) spans = NULL;

  g_return_val_if_fail (run != NULL, NULL);

  if (steps == NULL || steps->n_steady == 0)
    return NULL;
  spans = ws_steps_spans (steps, FALSE);
  return slice_launched (run, (const WsSpan *) spans->data, spans->len);
}

/**
 * ws_steps_setup_run:
 *
 * What comes before the steady state: from the start of the run to the
 * first steady step (the warm-up steps and the set-up before them).
 *
 * Returns: (transfer full) (nullable): that part of @run, or %NULL when the
 * run has no steady steps
 */
WsRun *
ws_steps_setup_run (const WsRun *run, const WsSteps *steps)
{
  g_autoptr (GArray) spans = NULL;
  WsSpan setup;

  g_return_val_if_fail (run != NULL, NULL);

  if (steps == NULL || steps->n_steady == 0)
    return NULL;
  spans = ws_steps_spans (steps, FALSE);
  setup.start = run->origin;
  setup.end = g_array_index (spans, WsSpan, 0).start;
  return slice_launched (run, &setup, 1);
}

/* A step of the loop as sentences count it: in a job, the steps of one
 * number on every rank (the longest of them its wall time); else one step. */
typedef struct
{
  guint number;
  gboolean steady;
  gint64 wall;
} LoopStep;

static GArray *
loop_steps (const WsSteps *self)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (LoopStep));
  gboolean job = self->ranks->len > 0 && g_array_index (self->ranks, WsStepsRank, 0).rank >= 0;

  for (guint i = 0; i < self->steps->len; i++)
    {
      const WsStep *s = &g_array_index (self->steps, WsStep, i);
      LoopStep *last = out->len > 0 ? &g_array_index (out, LoopStep, out->len - 1) : NULL;

      if (job && last != NULL && last->number == s->number)
        {
          /* The rule makes every rank agree on a number's warm-up. */
          last->steady = last->steady && !s->warmup;
          last->wall = MAX (last->wall, s->wall);
          continue;
        }
      g_array_append_val (out, ((LoopStep){ s->number, !s->warmup, s->wall }));
    }
  return out;
}

/**
 * ws_steps_describe_steady:
 *
 * "steps 1–5 of “训练步 N” (5 of 6; 126 ms)": which steps the steady
 * state holds, one range per span ("steps 1–3, 5–9" when step 4 is slow).
 * In a job a step is counted once for all its ranks, with the longest
 * rank's wall time.
 *
 * Returns: (transfer full): the phrase
 */
char *
ws_steps_describe_steady (const WsSteps *self)
{
  g_autoptr (GArray) loop = loop_steps (self);
  g_autoptr (GString) which = g_string_new (NULL);
  g_autofree char *wall = NULL;
  gint64 total = 0;
  guint n_steady = 0;

  for (guint i = 0; i < loop->len; i++)
    {
      const LoopStep *s = &g_array_index (loop, LoopStep, i);
      gboolean opens = s->steady && (i == 0 || !g_array_index (loop, LoopStep, i - 1).steady);
      gboolean closes =
        s->steady && (i + 1 == loop->len || !g_array_index (loop, LoopStep, i + 1).steady);

      if (!s->steady)
        continue;
      n_steady++;
      total = ws_time_add (total, s->wall);
      if (opens)
        {
          if (which->len > 0)
            /* TRANSLATORS: between two spans of steady steps: "1–3, 5–9" */
            g_string_append (which, _ (", "));
          g_string_append_printf (which, "%u", s->number);
        }
      if (closes && !opens)
        g_string_append_printf (which, "–%u", s->number);
    }
  if (n_steady == 0)
    return g_strdup ("");
  wall = ws_format_duration ((double) total);
  /* TRANSLATORS: "steps 1–3, 5–9 of “step N” (8 of 10; 126 ms)": the steady steps, one
   * range per span, the step name with its counter as N, how many of all, their wall time */
  return g_strdup_printf (_ ("steps %s of “%s” (%u of %u; %s)"), which->str, self->pattern,
                          n_steady, loop->len, wall);
}
