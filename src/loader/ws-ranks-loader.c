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
#include "ws-ranks-loader.h"
#include "ws-run-build.h"
#include "ws-run-loader.h"
#include "ws-run-merge.h"
#include "ws-stats-build.h"
#include "ws-stats.h"

static gboolean
has_suffix_ci (const char *name, const char *suffix)
{
  gsize n = strlen (name), m = strlen (suffix);

  return n >= m && g_ascii_strcasecmp (name + n - m, suffix) == 0;
}

static gboolean
is_nsys_report (const char *name)
{
  return has_suffix_ci (name, ".nsys-rep") || has_suffix_ci (name, ".qdrep");
}

/* A PyTorch profiler trace, by its name and then its head. */
static gboolean
is_kineto_trace (const char *path)
{
  return (has_suffix_ci (path, ".json") || has_suffix_ci (path, ".json.gz")) &&
         ws_input_detect (path, NULL) == WS_INPUT_KINETO;
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The nsys exports under @folder (and its folders, as a capture nests
 * them: every .sqlite file); a report only where no export of its name
 * lies beside it. */
static void
scan_folder (const char *folder, int depth, GPtrArray *out)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_paths);
  for (guint i = 0; i < names->len; i++)
    {
      const char *base = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (folder, base, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (depth > 0 && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
            scan_folder (path, depth - 1, out);
        }
      /* A damaged export is a rank too: reading it says what is wrong. */
      else if (has_suffix_ci (base, ".sqlite") || is_kineto_trace (path))
        g_ptr_array_add (out, g_steal_pointer (&path));
      else if (is_nsys_report (base))
        {
          g_autofree char *stem = g_strndup (path, strrchr (path, '.') - path);
          g_autofree char *export = g_strconcat (stem, ".sqlite", NULL);

          if (!g_file_test (export, G_FILE_TEST_EXISTS))
            g_ptr_array_add (out, g_steal_pointer (&path));
        }
    }
}

static gboolean
is_glob (const char *path)
{
  return strpbrk (path, "*?[") != NULL && !g_file_test (path, G_FILE_TEST_EXISTS);
}

/* The ranks of a job are all nsys exports (or reports) or all PyTorch
 * profiler traces: their clocks and processes are not read alike. */
static gboolean
check_one_kind (GPtrArray *files, GError **error)
{
  const char *trace = NULL, *export = NULL;

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);

      if (is_kineto_trace (path))
        trace = trace != NULL ? trace : path;
      else
        export = export != NULL ? export : path;
    }
  if (trace == NULL || export == NULL)
    return TRUE;
  g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_FORMAT,
               _ ("%s is a PyTorch profiler trace and %s an nsys export: the ranks of a job are "
                  "all traces or all exports (one trace and one export of the same run open "
                  "together as one run)"),
               trace, export);
  return FALSE;
}

/* What a rank's file records before its events: an export's provenance
 * (ws_nsys_reader_probe()), a trace's header (ws_kineto_reader_probe());
 * a report's nothing yet. */
static WsRun *
probe_file (const char *path, GCancellable *cancellable, GError **error)
{
  if (has_suffix_ci (path, ".sqlite"))
    return ws_nsys_reader_probe (path, error);
  if (is_kineto_trace (path))
    return ws_kineto_reader_probe (path, cancellable, error);
  return ws_run_new ();
}

/* ws_ranks_loader_expand() without its check of the files' kinds. */
static GPtrArray *
expand_files (const char *const *paths, GError **error)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) unique = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (paths != NULL, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      const char *path = paths[i];

      if (is_glob (path))
        {
          glob_t matches = { 0 };

          if (glob (path, 0, NULL, &matches) == 0)
            for (gsize m = 0; m < matches.gl_pathc; m++)
              {
                const char *match = matches.gl_pathv[m];

                if (g_file_test (match, G_FILE_TEST_IS_DIR))
                  scan_folder (match, 3, out);
                else if (is_nsys_report (match) || is_kineto_trace (match) ||
                         (has_suffix_ci (match, ".sqlite") && ws_nsys_reader_sniff (match, NULL)))
                  g_ptr_array_add (out, g_strdup (match));
              }
          globfree (&matches);
          continue;
        }
      switch (ws_input_detect (path, error))
        {
          case WS_INPUT_UNKNOWN:
            return NULL;
          case WS_INPUT_FOLDER:
            scan_folder (path, 3, out);
            break;
          case WS_INPUT_NSYS_SQLITE:
          case WS_INPUT_NSYS_REPORT:
          case WS_INPUT_KINETO:
            g_ptr_array_add (out, g_strdup (path));
            break;
          case WS_INPUT_NSYS_STATS_CSV:
          case WS_INPUT_NCU_CSV:
          case WS_INPUT_NCU_REPORT:
          default:
            /* A rank's stats CSVs and ncu files stay out of the job's run. */
            break;
        }
    }
  for (guint i = 0; i < out->len; i++)
    if (g_hash_table_add (seen, g_ptr_array_index (out, i)))
      g_ptr_array_add (unique, g_strdup (g_ptr_array_index (out, i)));
  if (!ws_input_check_distinct (unique, error))
    return NULL;
  if (unique->len == 0)
    {
      g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_NO_DATA,
                   "%s: no nsys export, report or PyTorch profiler trace to open as a rank",
                   paths[0]);
      return NULL;
    }
  return g_steal_pointer (&unique);
}

/**
 * ws_ranks_loader_expand:
 * @paths: (array zero-terminated=1): exports and reports, folders of them,
 *   or globs (`out/rank*.sqlite`, for a shell that did not expand them)
 *
 * Returns: (transfer full) (element-type filename): the exports, in the
 * order given (a folder's and a glob's sorted by name), or %NULL with
 * @error set when there is none
 */
GPtrArray *
ws_ranks_loader_expand (const char *const *paths, GError **error)
{
  g_autoptr (GPtrArray) files = NULL;

  g_return_val_if_fail (paths != NULL, NULL);

  files = expand_files (paths, error);
  if (files == NULL || !check_one_kind (files, error))
    return NULL;
  return g_steal_pointer (&files);
}

void
ws_launch_free (WsLaunch *launch)
{
  if (launch == NULL)
    return;
  g_free (launch->name);
  g_free (launch->path);
  g_ptr_array_unref (launch->exports);
  g_free (launch);
}

/* The capture target folder an export was written in
 * (OUT/<group>/<NAME>/nsys/X.sqlite, with run.json in OUT/<group>/<NAME>),
 * or NULL. */
static char *
capture_target_of (const char *export)
{
  g_autofree char *nsys = g_path_get_dirname (export);
  g_autofree char *nsys_name = g_path_get_basename (nsys);
  g_autofree char *target = NULL;
  g_autofree char *manifest = NULL;

  if (!g_str_equal (nsys_name, "nsys"))
    return NULL;
  target = g_path_get_dirname (nsys);
  manifest = g_build_filename (target, "run.json", NULL);
  return g_file_test (manifest, G_FILE_TEST_IS_REGULAR) ? g_steal_pointer (&target) : NULL;
}

/**
 * ws_ranks_loader_launches:
 * @paths: (array zero-terminated=1): as for ws_ranks_loader_expand()
 *
 * Splits the exports that @paths name into launches.  A job is one launch
 * (docs/ARCHITECTURE.md, "Past one machine"): the per-rank exports of one
 * capture target (`capture --per-rank`), or files given together outside any
 * capture (one `%q{RANK}` naming, one multi-process export).  The targets of a
 * capture folder are separate launches, however close their commands and
 * times: BERT and ViT captured one after the other are two runs, not two
 * ranks.
 *
 * Returns: (transfer full) (element-type WsLaunch): the launches, capture
 *   targets first in the order found, then the files of no capture; empty
 *   when @paths names no export
 */
GPtrArray *
ws_ranks_loader_launches (const char *const *paths)
{
  GPtrArray *launches = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_launch_free);
  g_autoptr (GPtrArray) exports = ws_ranks_loader_expand (paths, NULL);
  g_autoptr (GHashTable) by_target = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  WsLaunch *loose = NULL;

  g_return_val_if_fail (paths != NULL, launches);

  for (guint i = 0; exports != NULL && i < exports->len; i++)
    {
      const char *export = g_ptr_array_index (exports, i);
      g_autofree char *target = capture_target_of (export);
      WsLaunch *launch;

      if (target == NULL)
        {
          if (loose == NULL)
            {
              loose = g_new0 (WsLaunch, 1);
              loose->exports = g_ptr_array_new_with_free_func (g_free);
            }
          g_ptr_array_add (loose->exports, g_strdup (export));
          continue;
        }
      launch = g_hash_table_lookup (by_target, target);
      if (launch == NULL)
        {
          launch = g_new0 (WsLaunch, 1);
          launch->name = g_path_get_basename (target);
          launch->path = g_strdup (target);
          launch->exports = g_ptr_array_new_with_free_func (g_free);
          g_hash_table_insert (by_target, g_strdup (target), launch);
          g_ptr_array_add (launches, launch);
        }
      g_ptr_array_add (launch->exports, g_strdup (export));
    }
  if (loose != NULL)
    g_ptr_array_add (launches, loose);
  return launches;
}

/**
 * ws_ranks_loader_launch_names:
 * @launches: (element-type WsLaunch)
 *
 * Returns: (transfer full): "bert_inf, vit_inf": the launches' names, for
 *   a message
 */
char *
ws_ranks_loader_launch_names (GPtrArray *launches)
{
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; i < launches->len; i++)
    {
      const WsLaunch *launch = g_ptr_array_index (launches, i);

      if (out->len > 0)
        g_string_append (out, ", ");
      /* TRANSLATORS: the files of a job that lie outside any capture target */
      g_string_append (out, launch->name != NULL ? launch->name : _ ("other files"));
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * ws_ranks_loader_is_job:
 *
 * @probe: whether to read what the exports record (their environment):
 *   a few queries per file, for worker threads and the command line
 *
 * Whether files opened together are the ranks of one job rather than runs
 * to open apart: a folder or a glob that holds several exports of one
 * launch (ws_ranks_loader_launches()), or several exports whose names (or
 * recorded environments) number them.
 */
gboolean
ws_ranks_loader_is_job (const char *const *paths, gboolean probe)
{
  g_autoptr (GPtrArray) exports = NULL;
  g_autoptr (GPtrArray) probes = NULL;
  g_autoptr (WsRanks) ranks = NULL;
  gboolean folder_or_glob = FALSE;

  for (guint i = 0; paths[i] != NULL; i++)
    folder_or_glob =
      folder_or_glob || is_glob (paths[i]) || g_file_test (paths[i], G_FILE_TEST_IS_DIR);
  exports = expand_files (paths, NULL);
  if (exports == NULL || exports->len < 2)
    return FALSE;
  /* One trace and one export are one run seen by both (ws_run_load());
   * more files of both kinds are a job, which refuses them in one line. */
  if (!check_one_kind (exports, NULL))
    return exports->len > 2;
  /* Files of several launches are several runs, whatever folder holds
   * them. */
  {
    g_autoptr (GPtrArray) launches = ws_ranks_loader_launches (paths);

    if (launches->len > 1)
      return FALSE;
  }
  if (folder_or_glob)
    return TRUE;
  probes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_run_unref);
  /* A trace's header is read either way: it is the file's first bytes. */
  for (guint i = 0; i < exports->len; i++)
    {
      const char *path = g_ptr_array_index (exports, i);
      WsRun *read = probe || is_kineto_trace (path) ? probe_file (path, NULL, NULL) : NULL;

      g_ptr_array_add (probes, read != NULL ? read : ws_run_new ());
    }
  ranks = ws_ranks_new_for_files ((const char *const *) exports->pdata,
                                  (WsRun *const *) probes->pdata, exports->len);
  return ranks->source == WS_RANK_BY_NAME || ranks->source == WS_RANK_BY_ENVIRONMENT;
}

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
      probe = probe_file (path, cancellable, error);
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
    merged = merge_ranks (&job, n, paths, cancellable);
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
