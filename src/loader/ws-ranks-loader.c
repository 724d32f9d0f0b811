/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include <glib/gi18n.h>
#include <glob.h>
#include <string.h>

#include "ws-input.h"
#include "ws-kineto-reader.h"
#include "ws-load-relay.h"
#include "ws-loader-error.h"
#include "ws-ncu-match.h"
#include "ws-nsys-reader.h"
#include "ws-rank-measure.h"
#include "ws-ranks-loader-private.h"
#include "ws-ranks-loader.h"
#include "ws-run-build.h"
#include "ws-run-loader.h"
#include "ws-run-merge.h"
#include "ws-stats-build.h"
#include "ws-stats.h"

/**
 * ws_ranks_loader_main_pid:
 *
 * The process of a rank's export that is the rank: the one that ran the
 * most on a GPU, else the one that called CUDA or NVTX most.
 */
guint32
ws_ranks_loader_main_pid (const WsRun *run)
{
  g_autoptr (GHashTable) counts = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key, value;
  guint32 best = 0;
  guint64 best_count = 0;

  for (gsize i = 0; run->kernels.stream != NULL && i < run->kernels.n; i++)
    {
      guint32 pid = g_array_index (run->streams, WsStream, run->kernels.stream[i]).pid;
      gpointer old = g_hash_table_lookup (counts, GUINT_TO_POINTER (pid + 1));

      g_hash_table_insert (counts, GUINT_TO_POINTER (pid + 1),
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (old) + 1000));
    }
  for (gsize i = 0; run->api.thread != NULL && i < run->api.n; i++)
    {
      guint32 pid = g_array_index (run->threads, WsThread, run->api.thread[i]).pid;
      gpointer old = g_hash_table_lookup (counts, GUINT_TO_POINTER (pid + 1));

      g_hash_table_insert (counts, GUINT_TO_POINTER (pid + 1),
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (old) + 1));
    }
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_SIZE (value) > best_count ||
        (GPOINTER_TO_SIZE (value) == best_count && GPOINTER_TO_UINT (key) - 1 < best))
      {
        best = GPOINTER_TO_UINT (key) - 1;
        best_count = GPOINTER_TO_SIZE (value);
      }
  if (best_count == 0 && run->prov.processes->len > 0)
    best = g_array_index (run->prov.processes, WsProcess, 0).pid;
  return best;
}

/**
 * ws_ranks_loader_gpus_of:
 *
 * Returns: (transfer full) (nullable): "NVIDIA H100 80GB HBM3 on vm at
 * 0000:00:06.0" for each GPU @pid ran on (ws_run_devices_used()), joined
 * by ";"
 */
char *
ws_ranks_loader_gpus_of (const WsRun *run, guint32 pid)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GArray) devices = ws_run_devices_used (run, pid);

  for (guint d = 0; d < devices->len; d++)
    {
      gint32 device = g_array_index (devices, gint32, d);
      const WsGpu *gpu = NULL;

      for (guint g = 0; g < run->prov.gpus->len && gpu == NULL; g++)
        if (g_array_index (run->prov.gpus, WsGpu, g).id == device)
          gpu = &g_array_index (run->prov.gpus, WsGpu, g);
      if (out->len > 0)
        g_string_append_c (out, ';');
      if (gpu == NULL)
        g_string_append_printf (out, "GPU %d", device);
      else
        {
          const char *where =
            gpu->bus_location != NULL && *gpu->bus_location != '\0' ? gpu->bus_location : gpu->uuid;

          g_string_append (out, gpu->name != NULL ? gpu->name : "GPU");
          if (run->prov.host != NULL)
            g_string_append_printf (out, _ (" on %s"), run->prov.host);
          if (where != NULL)
            g_string_append_printf (out, _ (" at %s"), where);
          else
            /* TRANSLATORS: a GPU known by its CUDA device number alone (a
             * PyTorch profiler trace names no bus or UUID) */
            g_string_append_printf (out, _ (" as device %d"), device);
        }
    }
  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

/**
 * ws_ranks_loader_attach_processes:
 *
 * Makes a run whose export holds several processes that used a GPU (an
 * MPI job or torchrun under one `nsys profile`) a run of that many ranks,
 * each measured from the run.
 */
void
ws_ranks_loader_attach_processes (WsRun *run)
{
  g_autoptr (WsRanks) ranks = NULL;

  g_return_if_fail (run != NULL);

  if (run->ranks != NULL || run->kernels.stream == NULL)
    return;
  ranks = ws_ranks_new_for_processes (run);
  if (ranks == NULL)
    return;
  for (guint i = 0; i < ranks->ranks->len; i++)
    {
      WsRank *rank = &g_array_index (ranks->ranks, WsRank, i);

      rank->gpus = ws_ranks_loader_gpus_of (run, rank->pid);
      g_ptr_array_add (ranks->figures, ws_rank_measure (run, rank->pid, rank->rank));
    }
  /* One warm-up for the job (docs/NOTES.md, "The warm-up rule"). */
  ws_rank_measure_join_warmup (ranks->figures);
  ws_ranks_add_gpu_notes (ranks);
  run->ranks = g_steal_pointer (&ranks);
}

/* One load of a job: shared by the worker threads that read its ranks. */
typedef struct
{
  WsRanks *ranks;
  WsLoadFlags flags;
  GCancellable *cancellable; /* cancelled by the caller's, or by the first error */
  WsRun **runs;              /* per rank index */
  guint32 *pids;             /* per rank index: the rank's process in its export */
  WsProgressFunc progress;   /* called under @lock */
  gpointer progress_data;
  WsRanksLoaderFunc rank_func;
  WsLoadRelay *relay;

  GMutex lock;
  double *fractions; /* per rank index */
  double reported;
  guint done;
  GError *error;
} JobLoad;

static void
report (JobLoad *job)
{
  g_autofree char *what = NULL;
  double sum = 0, fraction;
  guint n = job->ranks->ranks->len;

  for (guint i = 0; i < n; i++)
    sum += job->fractions[i];
  fraction = sum / MAX (n, 1);
  /* A redraw per percent is plenty; each finished rank shows. */
  if (fraction < job->reported + 0.01 && fraction < 1.0)
    return;
  job->reported = fraction;
  what = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "Reading %u rank: %u read", "Reading %u ranks: %u read", n), n,
    job->done);
  if (job->relay != NULL)
    ws_load_relay_progress (fraction * 0.95, what, job->relay);
  else if (job->progress != NULL)
    job->progress (fraction * 0.95, what, job->progress_data);
}

typedef struct
{
  JobLoad *job;
  guint index;
} RankProgress;

static void
rank_progress (double fraction, const char *what, gpointer data)
{
  RankProgress *rp = data;

  g_mutex_lock (&rp->job->lock);
  rp->job->fractions[rp->index] = CLAMP (fraction, 0.0, 1.0);
  report (rp->job);
  g_mutex_unlock (&rp->job->lock);
}

typedef struct
{
  WsRanksLoaderFunc func;
  WsRanks *ranks;
  guint index;
  WsRankFigures *figures;
  gpointer data;
} RankEvent;

static void
rank_event_free (gpointer data)
{
  RankEvent *event = data;

  ws_ranks_unref (event->ranks);
  g_clear_pointer (&event->figures, ws_rank_figures_unref);
  g_free (event);
}

static gboolean
deliver_rank_event (gpointer data)
{
  RankEvent *event = data;

  event->func (event->ranks, event->index, event->figures, event->data);
  return G_SOURCE_REMOVE;
}

static void
send_rank_event (JobLoad *job, guint index, WsRankFigures *figures)
{
  RankEvent *event;

  if (job->rank_func == NULL || job->relay == NULL)
    return;
  event = g_new0 (RankEvent, 1);
  event->func = job->rank_func;
  event->ranks = ws_ranks_ref (job->ranks);
  event->index = index;
  event->figures = figures != NULL ? ws_rank_figures_ref (figures) : NULL;
  event->data = ws_load_relay_get_data (job->relay);
  ws_load_relay_invoke (job->relay, deliver_rank_event, event, rank_event_free);
}

static void
load_rank (gpointer data, gpointer user_data)
{
  JobLoad *job = user_data;
  guint index = GPOINTER_TO_UINT (data) - 1;
  WsRank *rank = &g_array_index (job->ranks->ranks, WsRank, index);
  const char *paths[] = { rank->file, NULL };
  RankProgress rp = { job, index };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRankFigures) figures = NULL;
  WsRun *run;

  if (g_cancellable_is_cancelled (job->cancellable))
    return;
  run = ws_run_load (paths, job->flags | WS_LOAD_NO_RANKS | WS_LOAD_NO_SUMMARIES, job->cancellable,
                     rank_progress, &rp, &error);
  if (run != NULL)
    {
      job->pids[index] = ws_ranks_loader_main_pid (run);
      figures = ws_rank_measure (run, job->pids[index], rank->rank);
      figures->offset = rank->offset;
    }
  g_mutex_lock (&job->lock);
  if (run == NULL)
    {
      if (job->error == NULL)
        job->error = g_steal_pointer (&error);
      g_cancellable_cancel (job->cancellable);
    }
  else
    {
      job->runs[index] = run;
      g_ptr_array_index (job->ranks->figures, index) = ws_rank_figures_ref (figures);
      job->fractions[index] = 1.0;
      job->done++;
      report (job);
    }
  g_mutex_unlock (&job->lock);
  if (run != NULL)
    send_rank_event (job, index, figures);
}

static void
forward_cancel (GCancellable *caller, gpointer data)
{
  g_cancellable_cancel (data);
}

/* What the exports record of their processes numbers the ranks and places
 * their clocks, before any event is read. */
static WsRanks *
probe_ranks (GPtrArray *exports, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) probes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_run_unref);

  for (guint i = 0; i < exports->len; i++)
    {
      const char *path = g_ptr_array_index (exports, i);
      WsRun *probe = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      probe = ws_ranks_probe_file (path, cancellable, error);
      if (probe == NULL)
        return NULL;
      g_ptr_array_add (probes, probe);
    }
  return ws_ranks_new_for_files ((const char *const *) exports->pdata,
                                 (WsRun *const *) probes->pdata, exports->len);
}

/* The ranks' runs of @job as one run on the first rank's clock, with the
 * ranks' processes and GPUs, and the ncu results a capture of the job
 * made. */
static WsRun *
merge_ranks (JobLoad *job, guint n, const char *const *paths, GCancellable *cancellable)
{
  g_autofree GHashTable **pid_maps = g_new0 (GHashTable *, n);
  g_autofree gint64 *offsets = g_new0 (gint64, n);
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (WsNcuResults) ncu = NULL;
  WsRun *merged;

  if (job->progress != NULL || job->relay != NULL)
    {
      const char *what = _ ("Putting the ranks on one clock");

      if (job->relay != NULL)
        ws_load_relay_progress (0.96, what, job->relay);
      else
        job->progress (0.96, what, job->progress_data);
    }
  for (guint i = 0; i < n; i++)
    offsets[i] = g_array_index (job->ranks->ranks, WsRank, i).offset;
  merged = ws_run_merge (job->runs, n, offsets, pid_maps);
  for (guint i = 0; i < n; i++)
    {
      WsRank *rank = &g_array_index (job->ranks->ranks, WsRank, i);
      const char *name;

      rank->file_pid = job->pids[i];
      rank->pid = ws_run_merge_map_pid (pid_maps[i], job->pids[i]);
      name = ws_run_process_name (merged, rank->pid);
      rank->process = name != NULL ? g_strdup (name) : NULL;
      rank->gpus = ws_ranks_loader_gpus_of (merged, rank->pid);
      g_hash_table_unref (pid_maps[i]);
    }
  ws_ranks_add_gpu_notes (job->ranks);
  merged->ranks = ws_ranks_ref (job->ranks);

  /* A job's capture profiled its kernels with ncu on one rank: the
   * results join the job's kernels. */
  ncu = ws_run_load_ncu (paths, warnings, cancellable, &job->error);
  if (ncu != NULL)
    ws_ncu_match_attach (merged, ncu);
  for (guint i = 0; i < warnings->len; i++)
    ws_run_add_warning (merged, "%s", (const char *) g_ptr_array_index (warnings, i));
  return merged;
}

static WsRun *
load_job (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
          WsProgressFunc progress, gpointer progress_data, WsRanksLoaderFunc rank_func,
          WsLoadRelay *relay, GError **error)
{
  g_autoptr (GPtrArray) exports = NULL;
  g_autoptr (WsRun) merged = NULL;
  GThreadPool *pool;
  JobLoad job = { 0 };
  gulong handler = 0;
  guint n;

  exports = ws_ranks_loader_expand (paths, error);
  if (exports == NULL)
    return NULL;
  n = exports->len;
  if (n > G_MAXUINT16)
    {
      g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_TOO_LARGE,
                   "%s: %u exports; a run holds at most %u ranks", paths[0], n, G_MAXUINT16);
      return NULL;
    }
  job.ranks = probe_ranks (exports, cancellable, error);
  if (job.ranks == NULL)
    return NULL;

  job.flags = flags;
  job.cancellable = g_cancellable_new ();
  job.runs = g_new0 (WsRun *, n);
  job.pids = g_new0 (guint32, n);
  job.fractions = g_new0 (double, n);
  job.progress = progress;
  job.progress_data = progress_data;
  job.rank_func = rank_func;
  job.relay = relay;
  g_mutex_init (&job.lock);
  g_ptr_array_set_size (job.ranks->figures, n);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel),
                                     g_object_ref (job.cancellable), g_object_unref);
  send_rank_event (&job, G_MAXUINT, NULL);

  pool = g_thread_pool_new (load_rank, &job, (gint) MIN (MAX (g_get_num_processors (), 1), n),
                            FALSE, NULL);
  for (guint i = 0; i < n; i++)
    g_thread_pool_push (pool, GUINT_TO_POINTER (i + 1), NULL);
  g_thread_pool_free (pool, FALSE, TRUE);
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, handler);

  if (job.error == NULL && g_cancellable_is_cancelled (job.cancellable))
    g_set_error_literal (&job.error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _ ("Cancelled"));
  if (job.error == NULL)
    {
      /* One warm-up for the job (docs/NOTES.md, "The warm-up rule"). */
      ws_rank_measure_join_warmup (job.ranks->figures);
      merged = merge_ranks (&job, n, paths, cancellable);
    }
  for (guint i = 0; i < n; i++)
    g_clear_pointer (&job.runs[i], ws_run_unref);
  g_free (job.runs);
  g_free (job.pids);
  g_free (job.fractions);
  g_mutex_clear (&job.lock);
  g_object_unref (job.cancellable);
  ws_ranks_unref (job.ranks);
  if (job.error != NULL)
    {
      g_propagate_error (error, job.error);
      return NULL;
    }
  if (relay != NULL)
    ws_load_relay_progress (0.98, _ ("Computing the summaries"), relay);
  else if (progress != NULL)
    progress (0.98, _ ("Computing the summaries"), progress_data);
  if (!(flags & WS_LOAD_NO_SUMMARIES))
    ws_stats_set_summaries (merged);
  return g_steal_pointer (&merged);
}

/**
 * ws_ranks_loader_load:
 * @paths: (array zero-terminated=1): the exports (or reports) of the ranks,
 *   folders of them, or globs
 * @progress: (nullable): called from the worker threads, one at a time
 *
 * Reads a job's ranks in parallel and merges them onto one clock: the run
 * holds every rank's events and its ranks (run->ranks, with their figures).
 * A file that cannot be read fails the whole load, named in @error.
 *
 * Returns: (transfer full): the run, or %NULL with @error set
 */
WsRun *
ws_ranks_loader_load (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
                      WsProgressFunc progress, gpointer progress_data, GError **error)
{
  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);

  return load_job (paths, flags, cancellable, progress, progress_data, NULL, NULL, error);
}

typedef struct
{
  char **paths;
  WsLoadFlags flags;
  WsRanksLoaderFunc rank_func;
  WsLoadRelay *relay;
} AsyncLoad;

static void
async_load_free (gpointer data)
{
  AsyncLoad *load = data;

  g_strfreev (load->paths);
  ws_load_relay_finish (load->relay);
  ws_load_relay_unref (load->relay);
  g_free (load);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  AsyncLoad *load = task_data;
  GError *error = NULL;
  WsRun *run;

  run = load_job ((const char *const *) load->paths, load->flags, cancellable, NULL, NULL,
                  load->rank_func, load->relay, &error);
  if (run == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, run, (GDestroyNotify) ws_run_unref);
}

/**
 * ws_ranks_loader_load_async:
 * @progress: (nullable): the progress, on the caller's main context
 * @rank_func: (nullable): each rank as it is measured, on the caller's
 *   main context
 * @data: for @progress and @rank_func
 * @notify: (nullable): frees @data once nothing is pending
 *
 * ws_ranks_loader_load() on a worker thread, with the summaries of the
 * merged run computed there too.
 */
void
ws_ranks_loader_load_async (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
                            WsProgressFunc progress, WsRanksLoaderFunc rank_func, gpointer data,
                            GDestroyNotify notify, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  AsyncLoad *load;

  g_return_if_fail (paths != NULL && paths[0] != NULL);

  load = g_new0 (AsyncLoad, 1);
  load->paths = g_strdupv ((char **) paths);
  load->flags = flags;
  load->rank_func = rank_func;
  load->relay = ws_load_relay_new (progress, data, notify, cancellable);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_ranks_loader_load_async);
  g_task_set_task_data (task, load, async_load_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * ws_ranks_loader_load_finish:
 *
 * Returns: (transfer full): the job's run, or %NULL with @error set
 */
WsRun *
ws_ranks_loader_load_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ws_ranks_loader_load_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
