/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-rank-measure"
#include "config.h"

#include <string.h>

#include "ws-limits.h"
#include "ws-gpu-busy.h"
#include "ws-launch-index.h"
#include "ws-nccl.h"
#include "ws-rank-measure.h"
#include "ws-nvtx-gpu.h"
#include "ws-sort.h"
#include "ws-stats.h"
#include "ws-steps.h"

/* The ranges kept per rank: enough to name where a straggler's extra
 * time goes, bounded for runs with an NVTX range per operator. */
#define MAX_RANGES 256

/* OS runtime calls in which a thread sleeps until something else happens:
 * a peer's data, another thread's signal.  Gloo's collectives wait in
 * these; so does any thread waiting for a collective to finish. */
static const char *const wait_calls[] = {
  "poll",
  "ppoll",
  "select",
  "pselect",
  "pselect6",
  "epoll_wait",
  "epoll_pwait",
  "recv",
  "recvfrom",
  "recvmsg",
  "recvmmsg",
  "accept",
  "accept4",
  "pthread_cond_wait",
  "pthread_cond_timedwait",
  "pthread_cond_clockwait",
  "pthread_barrier_wait",
  "pthread_join",
  "sem_wait",
  "sem_timedwait",
  "sem_clockwait",
  "futex",
  "nanosleep",
  "clock_nanosleep",
  "usleep",
  "sleep",
};

/* CUDA calls in which the host waits for its own GPU, not for its peers. */
static const char *const sync_calls[] = {
  "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cudaThreadSynchronize",
  "cuCtxSynchronize",      "cuStreamSynchronize",   "cuEventSynchronize",
};

static gboolean
name_in (const char *name, const char *const *list, gsize n)
{
  gsize len = strlen (name);
  const char *v;

  /* API names carry a version suffix: cudaDeviceSynchronize_v3020. */
  v = strstr (name, "_v");
  if (v != NULL && v > name)
    len = (gsize) (v - name);
  for (gsize i = 0; i < n; i++)
    if (strlen (list[i]) == len && strncmp (name, list[i], len) == 0)
      return TRUE;
  return FALSE;
}

/* Whether an OS runtime call of this name blocks waiting for others. */
gboolean
ws_rank_measure_is_wait_call (const char *name)
{
  return name != NULL && name_in (name, wait_calls, G_N_ELEMENTS (wait_calls));
}

/* Whether a CUDA API call of this name waits for the GPU. */
gboolean
ws_rank_measure_is_sync_call (const char *name)
{
  return name != NULL && name_in (name, sync_calls, G_N_ELEMENTS (sync_calls));
}

static gboolean
is_mpi_range (const WsRun *run, gsize r)
{
  const char *name = ws_run_string (run, run->nvtx.name[r]);

  return g_str_has_prefix (name, "MPI_") && !g_str_equal (name, "MPI_Init") &&
         !g_str_equal (name, "MPI_Init_thread") && !g_str_equal (name, "MPI_Finalize");
}

static gboolean
kernel_of (const WsRun *run, gsize i, guint32 pid)
{
  guint32 s;

  if (pid == WS_PID_ANY || run->kernels.stream == NULL)
    return TRUE;
  s = run->kernels.stream[i];
  return s < run->streams->len && g_array_index (run->streams, WsStream, s).pid == pid;
}

/* The thread of @pid that called CUDA most: where a process without
 * steps waits, if it waits anywhere. */
static guint32
main_thread (const WsRun *run, guint32 pid)
{
  g_autofree guint *calls = g_new0 (guint, MAX (run->threads->len, 1));
  guint32 best = G_MAXUINT32;

  for (gsize i = 0; run->api.thread != NULL && i < run->api.n; i++)
    if (run->api.thread[i] < run->threads->len)
      calls[run->api.thread[i]]++;
  for (guint t = 0; t < run->threads->len; t++)
    if ((pid == WS_PID_ANY || ws_run_thread_pid (run, t) == pid) &&
        (best == G_MAXUINT32 || calls[t] > calls[best]))
      best = t;
  return best;
}

/* ns of [@from, @to) that @thread spent in events of a sorted table that
 * @pick takes; events of one thread do not overlap, so they add up. */
typedef gboolean (*PickFunc) (const WsRun *run, gsize i, gpointer data);

static gint64
thread_time (const WsRun *run, const gint64 *start, const gint64 *end, const guint32 *thread,
             gsize n, guint32 which, gint64 from, gint64 to, PickFunc pick, gpointer data)
{
  gint64 total = 0;
  gint64 covered = G_MININT64;

  if (start == NULL || thread == NULL)
    return 0;
  /* A thread inside a step range cannot have been inside a call when the
   * step began on it: the calls that count start in the window. */
  for (gsize i = ws_sort_lower_bound (start, 0, n, from); i < n && start[i] < to; i++)
    {
      gint64 a, b;

      if (thread[i] != which || end[i] <= from || !pick (run, i, data))
        continue;
      a = MAX (MAX (start[i], from), covered);
      b = MIN (end[i], to);
      if (b > a)
        {
          total = ws_time_add (total, b - a);
          covered = b;
        }
    }
  return total;
}

static gboolean
pick_sync (const WsRun *run, gsize i, gpointer data)
{
  GHashTable *cache = data;
  guint32 name = run->api.name[i];
  gpointer known;

  if (!g_hash_table_lookup_extended (cache, GUINT_TO_POINTER (name), NULL, &known))
    {
      known = GUINT_TO_POINTER (ws_rank_measure_is_sync_call (ws_run_string (run, name)));
      g_hash_table_insert (cache, GUINT_TO_POINTER (name), known);
    }
  return GPOINTER_TO_UINT (known);
}

static gboolean
pick_mpi (const WsRun *run, gsize i, gpointer data)
{
  return is_mpi_range (run, i);
}

static gboolean
pick_wait (const WsRun *run, gsize i, gpointer data)
{
  GHashTable *cache = data;
  guint32 name = run->osrt.name[i];
  gpointer known;

  if (!g_hash_table_lookup_extended (cache, GUINT_TO_POINTER (name), NULL, &known))
    {
      known = GUINT_TO_POINTER (ws_rank_measure_is_wait_call (ws_run_string (run, name)));
      g_hash_table_insert (cache, GUINT_TO_POINTER (name), known);
    }
  return GPOINTER_TO_UINT (known);
}

/* The run's tables of CPU-side waiting: where a rank waits without NCCL. */
typedef struct
{
  GHashTable *sync_names;
  GHashTable *wait_names;
  gboolean has_mpi;
  gboolean has_osrt;
} CpuWaits;

static gint64
cpu_wait (const WsRun *run, const CpuWaits *waits, guint32 thread, gint64 from, gint64 to)
{
  gint64 wait = 0;

  if (waits->has_mpi)
    wait += thread_time (run, run->nvtx.start, run->nvtx.end, run->nvtx.thread, run->nvtx.n, thread,
                         from, to, pick_mpi, NULL);
  if (waits->has_osrt)
    wait += thread_time (run, run->osrt.start, run->osrt.end, run->osrt.thread, run->osrt.n, thread,
                         from, to, pick_wait, waits->wait_names);
  return wait;
}

static gint64
sync_time (const WsRun *run, const CpuWaits *waits, guint32 thread, gint64 from, gint64 to)
{
  /* A lean load may read the calls' threads without their names (the NVTX
   * GPU reports): which of them wait is then unknown. */
  if (run->api.name == NULL)
    return 0;
  return thread_time (run, run->api.start, run->api.end, run->api.thread, run->api.n, thread, from,
                      to, pick_sync, waits->sync_names);
}

/* Each NCCL kernel's time, and the part of it during which a compute
 * kernel (any other kernel of the rank) ran too, by collective. */
static void
add_collectives (WsRankFigures *self, const WsRun *run, guint32 pid, const guint8 *mask,
                 const WsBusyIndex *compute)
{
  g_autoptr (GHashTable) by_kind = g_hash_table_new (g_str_hash, g_str_equal);

  for (gsize i = 0; i < run->kernels.n; i++)
    {
      const char *kind;
      gpointer found;
      WsRankCollective *c;
      gint64 duration, hidden;

      if (!mask[i] || !kernel_of (run, i, pid))
        continue;
      kind = ws_nccl_kind (ws_run_kernel_name (run, i, WS_NAME_DEMANGLED));
      if (kind == NULL)
        continue;
      found = g_hash_table_lookup (by_kind, kind);
      if (found == NULL)
        {
          WsRankCollective fresh = { g_strdup (kind), 0, 0, 0 };

          g_array_append_val (self->collectives, fresh);
          found = GUINT_TO_POINTER (self->collectives->len);
          g_hash_table_insert (by_kind, (gpointer) kind, found);
        }
      c = &g_array_index (self->collectives, WsRankCollective, GPOINTER_TO_UINT (found) - 1);
      duration = run->kernels.end[i] - run->kernels.start[i];
      hidden = ws_busy_index_busy (compute, run->kernels.start[i], run->kernels.end[i]);
      c->count++;
      c->total = ws_time_add (c->total, duration);
      c->overlap += hidden;
      self->comm_time = ws_time_add (self->comm_time, duration);
      self->overlap_time += hidden;
    }
}

static int
compare_calls (gconstpointer a, gconstpointer b)
{
  const WsRankCall *x = a, *y = b;

  if (x->comm != y->comm)
    return x->comm < y->comm ? -1 : 1;
  return (x->start > y->start) - (x->start < y->start);
}

/* The step whose range holds @t, or else (unless @inside) the last one
 * begun before it.  Steps are sorted by start: a binary search. */
static gint
step_at (const WsRankFigures *self, gint64 t, gboolean inside)
{
  const WsRankStep *steps = (const WsRankStep *) (gpointer) self->steps->data;
  guint lo = 0, hi = self->steps->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (steps[mid].start <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return -1;
  if (t < steps[lo - 1].end || !inside)
    return (gint) steps[lo - 1].number;
  return -1;
}

/* Every NCCL kernel of the rank, for matching collectives across ranks.
 * A communicator runs its kernels on a stream of its own, so each NCCL
 * stream is a communicator; the ranks create their communicators in the
 * same order, so a stream's place among the rank's NCCL streams, by its
 * first kernel, names the same communicator on every rank.  A kernel
 * belongs to the step its launch call started in (the GPU may run it
 * later; a launch outside the steps is in none), or without a launch call
 * in the run, to the last step begun before the kernel.
 *
 * A run that records launch calls but begins after its process started
 * (a PyTorch profiler trace holds its active steps only; nsys with a
 * capture range) may open on NCCL kernels launched before it: collectives
 * begun earlier, which the other ranks' runs may not hold, so that the
 * n-th call would no longer be the same call on every rank.  A stream's
 * kernels without a launch call in such a run, before its first kernel
 * with one, are left out. */
static void
add_calls (WsRankFigures *self, const WsRun *run, guint32 pid, const guint8 *mask,
           WsLaunchIndex *launches)
{
  g_autoptr (GHashTable) comms = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) launched = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (gsize));
  gboolean has_launches = run->api.n > 0;

  for (gsize i = 0; i < run->kernels.n; i++)
    if (mask[i] && kernel_of (run, i, pid))
      g_array_append_val (order, i);
  /* Kernels are sorted by start, so streams are met in the order of their
   * first kernel. */
  for (guint o = 0; o < order->len; o++)
    {
      gsize i = g_array_index (order, gsize, o);
      guint32 stream = run->kernels.stream != NULL ? run->kernels.stream[i] : 0;
      const char *kind = ws_nccl_kind (ws_run_kernel_name (run, i, WS_NAME_DEMANGLED));
      gpointer comm;
      WsRankCall call;
      gssize api = ws_launch_index_kernel (launches, i);

      if (kind == NULL)
        continue;
      if (api >= 0)
        g_hash_table_add (launched, GUINT_TO_POINTER (stream));
      else if (has_launches && !g_hash_table_contains (launched, GUINT_TO_POINTER (stream)))
        continue;
      if (!g_hash_table_lookup_extended (comms, GUINT_TO_POINTER (stream), NULL, &comm))
        {
          comm = GUINT_TO_POINTER (g_hash_table_size (comms));
          g_hash_table_insert (comms, GUINT_TO_POINTER (stream), comm);
        }
      call.comm = GPOINTER_TO_UINT (comm);
      call.kind = g_intern_static_string (kind);
      call.start = run->kernels.start[i];
      call.end = run->kernels.end[i];
      call.step =
        api >= 0 ? step_at (self, run->api.start[api], TRUE) : step_at (self, call.start, FALSE);
      g_array_append_val (self->calls, call);
    }
  g_array_sort (self->calls, compare_calls);
}

static int
compare_collectives (gconstpointer a, gconstpointer b)
{
  const WsRankCollective *x = a, *y = b;

  return x->total > y->total ? -1 : x->total < y->total;
}

static int
compare_ranges (gconstpointer a, gconstpointer b)
{
  const WsRankRange *x = a, *y = b;

  if (x->per_step != y->per_step)
    return x->per_step > y->per_step ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

static double
median_of (GArray *values)
{
  g_autoptr (GArray) copy = NULL;
  WsGroupStats stats;

  if (values->len == 0)
    return 0;
  copy = g_array_copy (values);
  ws_group_stats ((gint64 *) (gpointer) copy->data, copy->len, &stats);
  return stats.med;
}

typedef struct
{
  guint depth;
  GArray *per_step; /* gint64 per steady step */
} RangeTimes;

static void
range_times_free (gpointer data)
{
  RangeTimes *times = data;

  g_array_unref (times->per_step);
  g_free (times);
}

/* The run's launch index, built the first time it is asked for. */
static WsLaunchIndex *
launches_of (const WsRun *run, WsLaunchIndex **launches)
{
  if (*launches == NULL)
    *launches = ws_launch_index_new (run);
  return *launches;
}

/* The time of each NVTX range name inside the steady steps, on the step's
 * thread: where a rank's work in a step goes.  A range's time is the
 * longer of its time on the host and the GPU time of what it launched
 * (nsys's projection): a slow data loader shows on the host, extra kernels
 * (launched in microseconds, run for milliseconds) on the GPU. */
static void
add_ranges (WsRankFigures *self, const WsRun *run, const WsSteps *steps, WsLaunchIndex *launches)
{
  g_autoptr (GHashTable) by_name = g_hash_table_new_full (NULL, NULL, NULL, range_times_free);
  g_autoptr (WsNvtxJoin) join = run->kernels.n > 0 ? ws_nvtx_join_new (launches) : NULL;
  g_autoptr (WsNvtxGpu) gpu = join != NULL ? ws_nvtx_gpu_new_for_join (join) : NULL;
  GHashTableIter iter;
  gpointer key, value;
  guint steady = 0;

  for (guint s = 0; s < steps->steps->len; s++)
    {
      const WsStep *step = &g_array_index (steps->steps, WsStep, s);
      guint32 thread = run->nvtx.thread[step->range];
      guint16 depth = run->nvtx.depth[step->range];

      if (step->warmup)
        continue;
      for (gsize r = ws_sort_lower_bound (run->nvtx.start, 0, run->nvtx.n, step->start);
           r < run->nvtx.n && run->nvtx.start[r] < step->end; r++)
        {
          RangeTimes *times;

          if (r == step->range || run->nvtx.thread[r] != thread || run->nvtx.depth[r] <= depth ||
              run->nvtx.end[r] > step->end)
            continue;
          times = g_hash_table_lookup (by_name, GUINT_TO_POINTER (run->nvtx.name[r] + 1));
          if (times == NULL)
            {
              times = g_new0 (RangeTimes, 1);
              times->depth = run->nvtx.depth[r] - depth;
              times->per_step = g_array_new (FALSE, TRUE, sizeof (gint64));
              g_hash_table_insert (by_name, GUINT_TO_POINTER (run->nvtx.name[r] + 1), times);
            }
          if (times->per_step->len < steady + 1)
            g_array_set_size (times->per_step, steady + 1);
          g_array_index (times->per_step, gint64, steady) =
            ws_time_add (g_array_index (times->per_step, gint64, steady),
                         MAX (run->nvtx.end[r] - run->nvtx.start[r],
                              gpu != NULL ? ws_nvtx_gpu_projection (gpu, r) : 0));
          times->depth = MIN (times->depth, (guint) (run->nvtx.depth[r] - depth));
        }
      steady++;
    }
  g_hash_table_iter_init (&iter, by_name);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      RangeTimes *times = value;
      WsRankRange range;

      /* A step without the range counts as zero time in it. */
      g_array_set_size (times->per_step, steady);
      range.name = g_strdup (ws_run_string (run, GPOINTER_TO_UINT (key) - 1));
      range.depth = times->depth;
      range.per_step = median_of (times->per_step);
      g_array_append_val (self->ranges, range);
    }
  g_array_sort (self->ranges, compare_ranges);
  if (self->ranges->len > MAX_RANGES)
    g_array_set_size (self->ranges, MAX_RANGES);
}

/* The GPU's busy time of a rank, by what ran: @all (kernels and memory
 * operations), @kernels (every kernel), @comm (NCCL kernels), @compute
 * (the other kernels) and @work (the other kernels and the memory
 * operations: what a rank does before it can meet the others). */
typedef struct
{
  WsBusyIndex *all;
  WsBusyIndex *kernels;
  WsBusyIndex *comm;
  WsBusyIndex *compute;
  WsBusyIndex *work;
} BusyIndexes;

/* ns of [@from, @to) in which an NCCL kernel and a compute kernel ran at
 * once: |comm ∩ compute| = |comm| + |compute| − |comm ∪ compute|. */
static gint64
overlap_during (const BusyIndexes *busy, gint64 from, gint64 to)
{
  return ws_busy_index_busy (busy->comm, from, to) + ws_busy_index_busy (busy->compute, from, to) -
         ws_busy_index_busy (busy->kernels, from, to);
}

static void
add_steps (WsRankFigures *self, const WsRun *run, guint32 pid, const WsSteps *steps,
           const BusyIndexes *busy, const CpuWaits *waits)
{
  g_autoptr (GArray) walls = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) wait_values = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) work_values = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint s = 0; s < steps->steps->len; s++)
    {
      const WsStep *step = &g_array_index (steps->steps, WsStep, s);
      guint32 thread = run->nvtx.thread[step->range];
      WsRankStep out = { 0 };
      gint64 wall = step->end - step->start;

      out.number = step->number;
      out.start = step->start;
      out.end = step->end;
      out.warmup = step->warmup;
      out.gpu_busy = ws_busy_index_busy (busy->all, step->start, step->end);
      if (busy->comm != NULL)
        {
          out.comm = ws_busy_index_busy (busy->comm, step->start, step->end);
          out.overlap = overlap_during (busy, step->start, step->end);
          out.work = ws_busy_index_busy (busy->work, step->start, step->end);
          /* What the rank loses (docs/NOTES.md, "What a straggler costs"):
           * time in which an NCCL kernel of it runs and nothing of its own
           * work does, |comm \ work| = |comm ∪ work| − |work|; never more
           * than the step's wall less its own work. */
          out.wait = MAX (0, out.gpu_busy - out.work);
        }
      else
        {
          out.wait = self->wait_source == WS_WAIT_CPU
                       ? cpu_wait (run, waits, thread, step->start, step->end)
                       : 0;
          out.work =
            MAX (0, wall - out.wait - sync_time (run, waits, thread, step->start, step->end));
        }
      self->wait_time += out.wait;
      g_array_append_val (self->steps, out);
      if (!out.warmup)
        {
          g_array_append_val (walls, wall);
          g_array_append_val (wait_values, out.wait);
          g_array_append_val (work_values, out.work);
        }
    }
  self->n_steady = walls->len;
  self->step_median = median_of (walls);
  self->wait_median = median_of (wait_values);
  self->work_median = median_of (work_values);
}

/**
 * ws_rank_measure:
 * @run: a run holding the rank (its own export, or a job's merged run)
 * @pid: the rank's process, or %WS_PID_ANY when @run holds only the rank
 * @rank: the rank's number
 *
 * Returns: (transfer full): the rank's figures, on @run's clock (offset 0)
 */
WsRankFigures *
ws_rank_measure (const WsRun *run, guint32 pid, guint rank)
{
  g_autoptr (WsRankFigures) self = ws_rank_figures_new ();
  g_autoptr (WsBusyIndex) all = NULL;
  g_autoptr (WsBusyIndex) kernels = NULL;
  g_autoptr (WsBusyIndex) comm = NULL;
  g_autoptr (WsBusyIndex) compute = NULL;
  g_autoptr (WsBusyIndex) work = NULL;
  BusyIndexes busy = { NULL };
  g_autoptr (WsSteps) steps = NULL;
  g_autoptr (WsLaunchIndex) launches = NULL;
  g_autofree guint8 *mask = NULL;
  g_autoptr (GHashTable) sync_names = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) wait_names = g_hash_table_new (NULL, NULL);
  CpuWaits waits = { sync_names, wait_names, FALSE, FALSE };
  WsStepsOptions options = { NULL, pid };
  gint64 first = G_MAXINT64, last = G_MININT64;
  guint n_nccl = 0;
  const char *name;

  g_return_val_if_fail (run != NULL, NULL);

  self->rank = rank;
  self->file = run->prov.files->len > 0 ? g_strdup (g_ptr_array_index (run->prov.files, 0)) : NULL;
  name = pid != WS_PID_ANY ? ws_run_process_name (run, pid) : NULL;
  self->process = name != NULL ? g_strdup (name) : NULL;

  all = ws_busy_index_new (run, pid, WS_BUSY_ALL);
  self->gpu_time = ws_busy_index_total (all);
  for (gsize i = 0; i < run->kernels.n; i++)
    if (kernel_of (run, i, pid))
      self->kernel_time =
        ws_time_add (self->kernel_time, run->kernels.end[i] - run->kernels.start[i]);
  /* A replay traced whole stands for its kernels. */
  for (gsize i = 0; i < run->replays.n; i++)
    if (run->replays.nodes[i] == 0 &&
        (pid == WS_PID_ANY || ws_run_replay_stream (run, i)->pid == pid))
      self->kernel_time =
        ws_time_add (self->kernel_time, run->replays.end[i] - run->replays.start[i]);
  if (ws_busy_index_extent (all, &first, &last) && last > first)
    self->idle_time = (last - first) - self->gpu_time;

  mask = ws_nccl_kernel_mask (run, &n_nccl);
  if (mask != NULL)
    {
      compute = ws_busy_index_new_masked (run, pid, WS_BUSY_COMPUTE, mask, 0);
      work = ws_busy_index_new_masked (run, pid, WS_BUSY_ALL, mask, 0);
      kernels = ws_busy_index_new (run, pid, WS_BUSY_COMPUTE);
      add_collectives (self, run, pid, mask, compute);
      g_array_sort (self->collectives, compare_collectives);
      if (self->comm_time > 0)
        comm = ws_busy_index_new_masked (run, pid, WS_BUSY_KERNELS, mask, 1);
    }
  for (gsize r = 0; r < run->nvtx.n && !waits.has_mpi; r++)
    waits.has_mpi = (pid == WS_PID_ANY || ws_run_thread_pid (run, run->nvtx.thread[r]) == pid) &&
                    is_mpi_range (run, r);
  for (gsize i = 0; run->osrt.thread != NULL && i < run->osrt.n && !waits.has_osrt; i++)
    waits.has_osrt = pid == WS_PID_ANY || ws_run_thread_pid (run, run->osrt.thread[i]) == pid;
  if (comm != NULL)
    self->wait_source = WS_WAIT_NCCL;
  else if (waits.has_mpi || waits.has_osrt)
    self->wait_source = WS_WAIT_CPU;

  busy = (BusyIndexes){ all, kernels, comm, compute, work };
  steps = ws_steps_compute (run, &options);
  if (steps != NULL && steps->steps->len > 0)
    {
      self->step_pattern = g_strdup (steps->pattern);
      add_steps (self, run, pid, steps, &busy, &waits);
      add_ranges (self, run, steps, launches_of (run, &launches));
    }
  else if (comm != NULL)
    self->wait_time = MAX (0, ws_busy_index_total (all) - ws_busy_index_total (work));
  else if (self->wait_source == WS_WAIT_CPU)
    {
      guint32 thread = main_thread (run, pid);

      if (thread != G_MAXUINT32)
        self->wait_time = cpu_wait (run, &waits, thread, G_MININT64 / 2, G_MAXINT64 / 2);
    }
  /* The NCCL kernels for matching collectives across ranks (after the
   * steps: each call is placed in its step). */
  if (mask != NULL)
    add_calls (self, run, pid, mask, launches_of (run, &launches));
  if (self->wait_source == WS_WAIT_CPU && comm == NULL && mask == NULL)
    {
      /* Without NCCL, MPI calls are the communication. */
      for (gsize r = 0; r < run->nvtx.n; r++)
        if ((pid == WS_PID_ANY || ws_run_thread_pid (run, run->nvtx.thread[r]) == pid) &&
            is_mpi_range (run, r))
          self->comm_time = ws_time_add (self->comm_time, run->nvtx.end[r] - run->nvtx.start[r]);
    }
  return g_steal_pointer (&self);
}

/**
 * ws_rank_measure_steady_idle:
 * @f: a rank's figures
 * @idle: (out) (optional): ns of its steady steps in which nothing of the
 *   rank ran on its GPU (no kernel, copy or set)
 * @span: (out) (optional): ns of its steady steps: their wall times summed
 *
 * The rank's idle share in the steady state: 1 − its GPU busy time within
 * the steady steps over their span.  Computed from the steps alone, so
 * that figures read from a digest give the same.
 *
 * Returns: the share (0–1), or -1 when the rank has no steady step
 */
double
ws_rank_measure_steady_idle (const WsRankFigures *f, gint64 *idle, gint64 *span)
{
  gint64 busy = 0, total = 0;

  g_return_val_if_fail (f != NULL, -1);

  for (guint s = 0; s < f->steps->len; s++)
    {
      const WsRankStep *step = &g_array_index (f->steps, WsRankStep, s);

      if (step->warmup)
        continue;
      busy = ws_time_add (busy, step->gpu_busy);
      total = ws_time_add (total, step->end - step->start);
    }
  if (idle != NULL)
    *idle = total - busy;
  if (span != NULL)
    *span = total;
  return total > 0 ? 1.0 - (double) busy / (double) total : -1;
}

/* The rank's steady medians again, after its warm-up changed. */
static void
remeasure_steady (WsRankFigures *f)
{
  g_autoptr (GArray) walls = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) waits = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) works = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint s = 0; s < f->steps->len; s++)
    {
      const WsRankStep *step = &g_array_index (f->steps, WsRankStep, s);
      gint64 wall = step->end - step->start;

      if (step->warmup)
        continue;
      g_array_append_val (walls, wall);
      g_array_append_val (waits, step->wait);
      g_array_append_val (works, step->work);
    }
  f->n_steady = walls->len;
  f->step_median = median_of (walls);
  f->wait_median = median_of (waits);
  f->work_median = median_of (works);
}

/**
 * ws_rank_measure_join_warmup:
 * @figures: (element-type WsRankFigures): a job's ranks, measured one by
 *   one; %NULL entries are left out
 *
 * The job's part of the warm-up rule (ws_steps_warmup_join()): each rank's
 * steps were marked by the rule on that rank alone; a step number that is
 * warm-up on any rank becomes warm-up on every rank, and the steady
 * medians of a rank whose steps changed are measured again.  Such a rank's
 * figures are replaced in @figures by a changed copy (others may be reading
 * the first), dropping the array's reference to them.
 */
void
ws_rank_measure_join_warmup (GPtrArray *figures)
{
  g_autoptr (GArray) numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) why = g_array_new (FALSE, FALSE, sizeof (WsWarmup));
  guint k = 0;

  g_return_if_fail (figures != NULL);

  for (guint r = 0; r < figures->len; r++)
    {
      const WsRankFigures *f = g_ptr_array_index (figures, r);

      for (guint s = 0; f != NULL && s < f->steps->len; s++)
        {
          const WsRankStep *step = &g_array_index (f->steps, WsRankStep, s);
          WsWarmup w = step->warmup ? WS_WARMUP_FIRST : WS_WARMUP_NONE;

          g_array_append_val (numbers, step->number);
          g_array_append_val (why, w);
        }
    }
  ws_steps_warmup_join ((const guint *) (gpointer) numbers->data, (WsWarmup *) (gpointer) why->data,
                        numbers->len);
  for (guint r = 0; r < figures->len; r++)
    {
      WsRankFigures *f = g_ptr_array_index (figures, r);
      WsRankFigures *copy = NULL;

      for (guint s = 0; f != NULL && s < f->steps->len; s++, k++)
        {
          gboolean warmup = g_array_index (why, WsWarmup, k) != WS_WARMUP_NONE;

          if (g_array_index (f->steps, WsRankStep, s).warmup == warmup)
            continue;
          if (copy == NULL)
            copy = ws_rank_figures_copy (f);
          g_array_index (copy->steps, WsRankStep, s).warmup = warmup;
        }
      if (copy == NULL)
        continue;
      remeasure_steady (copy);
      g_ptr_array_index (figures, r) = copy;
      ws_rank_figures_unref (f);
    }
}
