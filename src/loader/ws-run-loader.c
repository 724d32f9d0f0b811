/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ws-cpu-reader.h"
#include "ws-digest-loader.h"
#include "ws-gauges.h"
#include "ws-input.h"
#include "ws-kineto-reader.h"
#include "ws-json-depth.h"
#include "ws-load-relay.h"
#include "ws-loader-error.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"
#include "ws-ranks-loader.h"
#include "ws-nsys-reader.h"
#include "ws-nsys-stats-reader.h"
#include "ws-nvprof-log.h"
#include "ws-nvprof-reader.h"
#include "ws-nvprof-trace.h"
#include "ws-report-convert.h"
#include "ws-manifest-reader.h"
#include "ws-run-build.h"
#include "ws-run-loader-private.h"
#include "ws-run-loader.h"
#include "ws-trace-join.h"
#include "ws-stats-build.h"
#include "ws-stats.h"

static gboolean
is_report (WsInputKind kind)
{
  return kind == WS_INPUT_NSYS_REPORT || kind == WS_INPUT_NCU_REPORT;
}

/* The readers name the table they read; people read a phrase. */
typedef struct
{
  WsProgressFunc func;
  gpointer data;
} ReadingProgress;

static void
reading_progress (double fraction, const char *what, gpointer data)
{
  ReadingProgress *reading = data;
  g_autofree char *phrase = g_strdup_printf (_ ("Reading %s"), what);

  reading->func (fraction, phrase, reading->data);
}

/* Converts the reports among @files in place: each becomes the file its
 * tool wrote, and @reports maps that file back to the report.  A report
 * that a folder brought along and that fails to convert is left out with
 * a warning when it is an ncu report (the run stands without it), as a
 * CSV of only ncu errors is. */
static gboolean
convert_reports (GPtrArray *files, GArray *kinds, GArray *in_folder, GHashTable *reports,
                 const WsCaptureRecord *capture, GPtrArray *warnings, GCancellable *cancellable,
                 WsProgressFunc progress, gpointer progress_data, GError **error)
{
  g_autoptr (GError) first_skipped = NULL;

  for (guint i = 0; i < files->len;)
    {
      const char *path = g_ptr_array_index (files, i);
      WsInputKind kind = g_array_index (kinds, WsInputKind, i);
      g_autoptr (GError) local = NULL;
      char *converted;

      if (!is_report (kind))
        {
          i++;
          continue;
        }
      /* A capture folder knows the tools that made it: the last resort. */
      converted = ws_report_convert_with (
        path, kind == WS_INPUT_NSYS_REPORT ? WS_REPORT_TOOL_NSYS : WS_REPORT_TOOL_NCU,
        capture == NULL                ? NULL
        : kind == WS_INPUT_NSYS_REPORT ? capture->nsys_path
                                       : capture->ncu_path,
        cancellable, progress, progress_data, &local);
      if (converted == NULL)
        {
          if (kind == WS_INPUT_NCU_REPORT && g_array_index (in_folder, gboolean, i) &&
              !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_ptr_array_add (warnings, g_strdup_printf ("skipped %s", local->message));
              if (first_skipped == NULL)
                first_skipped = g_steal_pointer (&local);
              g_ptr_array_remove_index (files, i);
              g_array_remove_index (kinds, i);
              g_array_remove_index (in_folder, i);
              continue;
            }
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      g_hash_table_insert (reports, g_strdup (converted), g_strdup (path));
      g_ptr_array_index (files, i) = converted;
      g_free ((char *) path);
      g_array_index (kinds, WsInputKind, i) =
        kind == WS_INPUT_NSYS_REPORT ? WS_INPUT_NSYS_SQLITE : WS_INPUT_NCU_CSV;
      i++;
    }
  if (files->len == 0)
    {
      /* Nothing left: the first failure stands. */
      g_propagate_error (error, g_steal_pointer (&first_skipped));
      return FALSE;
    }
  return TRUE;
}

/* A message about a converted file names the report first: that is the
 * file the user opened. */
static void
name_report (GHashTable *reports, GError *error)
{
  GHashTableIter iter;
  gpointer converted, report;

  if (error == NULL)
    return;
  g_hash_table_iter_init (&iter, reports);
  while (g_hash_table_iter_next (&iter, &converted, &report))
    if (g_str_has_prefix (error->message, converted))
      {
        g_prefix_error (&error, "%s: ", (const char *) report);
        return;
      }
}

static gboolean
attach_stats (WsRun *run, const char *path, GError **error)
{
  g_autoptr (WsSummary) summary = ws_nsys_stats_read (path, error);

  if (summary == NULL)
    return FALSE;
  g_ptr_array_add (run->prov.files, g_strdup (path));
  /* The export's own events win over a CSV of the same report. */
  if (ws_run_has_summary_events (run, summary->kind))
    return TRUE;
  if (run->summaries[summary->kind] != NULL)
    {
      ws_run_add_warning (run, "%s: a second %s report; the first one is used", path,
                          ws_summary_kind_to_string (summary->kind));
      return TRUE;
    }
  run->summaries[summary->kind] = g_steal_pointer (&summary);
  return TRUE;
}

/* The files of one run, as the loader reads them: each path, a folder's
 * files in its place, their kinds, whether each came from a folder, the
 * reports converted to exports, and a capture folder's record. */
typedef struct
{
  GPtrArray *files;    /* char * */
  GArray *kinds;       /* WsInputKind, one per file */
  GArray *in_folder;   /* gboolean, one per file */
  GHashTable *reports; /* export path → the report it was converted from */
  GHashTable *logs;    /* nvprof log path → its results (GPtrArray) */
  GPtrArray *warnings; /* char *: what the ncu CSVs and the record said */
  char *run_json;      /* a capture folder's run.json, or NULL */
  WsCaptureRecord *capture;
  gboolean from_folder;
  WsInputKind first_kind; /* the first file's kind, before reports were converted */
  const char *export;     /* the one export among @files, or NULL */
  WsInputKind export_kind;
  const char *trace; /* a PyTorch profiler trace beside an nsys export, or NULL */
} RunFiles;

static void
run_files_clear (RunFiles *in)
{
  g_clear_pointer (&in->files, g_ptr_array_unref);
  g_clear_pointer (&in->kinds, g_array_unref);
  g_clear_pointer (&in->in_folder, g_array_unref);
  g_clear_pointer (&in->reports, g_hash_table_unref);
  g_clear_pointer (&in->logs, g_hash_table_unref);
  g_clear_pointer (&in->warnings, g_ptr_array_unref);
  g_clear_pointer (&in->run_json, g_free);
  g_clear_pointer (&in->capture, ws_capture_record_free);
}

/* Lists @paths' files (a folder's in its place) into @in.  A digest opens
 * alone and is loaded here: then @digest is set and TRUE returned. */
static gboolean
gather_files (const char *const *paths, RunFiles *in, GCancellable *cancellable, WsRun **digest,
              GError **error)
{
  for (guint i = 0; paths[i] != NULL; i++)
    {
      WsInputKind kind = ws_input_detect (paths[i], error);
      gboolean folder = kind == WS_INPUT_FOLDER;

      if (kind == WS_INPUT_UNKNOWN)
        return FALSE;
      /* A digest is a job of its own, without events to join. */
      if (kind == WS_INPUT_DIGEST)
        {
          if (i > 0 || paths[1] != NULL)
            {
              g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_FORMAT,
                           "%s: a digest opens alone, not with other files", paths[i]);
              return FALSE;
            }
          *digest = ws_digest_loader_open (paths[i], WS_DIGEST_CHECK_STAT, WS_DIGEST_READ_DEFAULT,
                                           cancellable, error);
          return *digest != NULL;
        }
      if (folder)
        {
          in->from_folder = TRUE;
          if (!ws_input_expand_folder (paths[i], in->files,
                                       in->run_json == NULL ? &in->run_json : NULL, error))
            return FALSE;
        }
      else
        g_ptr_array_add (in->files, g_strdup (paths[i]));
      while (in->in_folder->len < in->files->len)
        g_array_append_val (in->in_folder, folder);
    }

  if (!ws_input_check_distinct (in->files, error))
    return FALSE;
  for (guint i = 0; i < in->files->len; i++)
    {
      WsInputKind kind = ws_input_detect (g_ptr_array_index (in->files, i), error);

      if (kind == WS_INPUT_UNKNOWN)
        return FALSE;
      g_array_append_val (in->kinds, kind);
    }
  in->first_kind = g_array_index (in->kinds, WsInputKind, 0);
  if (in->run_json != NULL)
    {
      g_autoptr (GError) local = NULL;

      in->capture = ws_manifest_read (in->run_json, &local);
      if (in->capture == NULL)
        g_ptr_array_add (in->warnings, g_strdup (local->message));
    }
  return TRUE;
}

/* Finds the one export among @in's files and the ncu CSVs. */
static gboolean
pick_export (RunFiles *in, GPtrArray *ncu_paths, GArray *ncu_in_folder, GError **error)
{
  for (guint i = 0; i < in->files->len; i++)
    {
      const char *path = g_ptr_array_index (in->files, i);
      WsInputKind kind = g_array_index (in->kinds, WsInputKind, i);

      if (kind == WS_INPUT_NSYS_SQLITE || kind == WS_INPUT_NVPROF_SQLITE ||
          kind == WS_INPUT_NVPROF_TRACE || kind == WS_INPUT_KINETO)
        {
          /* A trace and an nsys export of one run are read together. */
          if (in->export != NULL && in->trace == NULL &&
              ((kind == WS_INPUT_KINETO && in->export_kind == WS_INPUT_NSYS_SQLITE) ||
               (kind == WS_INPUT_NSYS_SQLITE && in->export_kind == WS_INPUT_KINETO)))
            {
              in->trace = kind == WS_INPUT_KINETO ? path : in->export;
              in->export = kind == WS_INPUT_KINETO ? in->export : path;
              in->export_kind = WS_INPUT_NSYS_SQLITE;
              continue;
            }
          if (in->export != NULL)
            {
              const char *report = g_hash_table_lookup (in->reports, path);
              const char *other = g_hash_table_lookup (in->reports, in->export);

              g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_FORMAT,
                           "%s: a run holds one nsys export, and %s is another; open it in a "
                           "window of its own",
                           report != NULL ? report : path, other != NULL ? other : in->export);
              return FALSE;
            }
          in->export = path;
          in->export_kind = kind;
        }
      if (kind == WS_INPUT_NCU_CSV)
        {
          g_ptr_array_add (ncu_paths, (gpointer) path);
          g_array_append_val (ncu_in_folder, g_array_index (in->in_folder, gboolean, i));
        }
    }
  return TRUE;
}

/* The profiled launches of the run: its ncu CSVs', or an nvprof metrics
 * log's.  %NULL without an error when there are none. */
static WsNcuResults *
read_profiled (RunFiles *in, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) ncu_paths = g_ptr_array_new ();
  g_autoptr (GArray) ncu_in_folder = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr (WsNcuResults) ncu = NULL;

  if (!pick_export (in, ncu_paths, ncu_in_folder, error))
    return NULL;
  if (ncu_paths->len > 0)
    {
      g_autoptr (GError) local = NULL;

      ncu = ws_loader_read_ncu (ncu_paths, ncu_in_folder, in->warnings, cancellable, &local);
      if (ncu == NULL)
        {
          name_report (in->reports, local);
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (in->run_json != NULL)
        ws_loader_expect_manifest_kernels (ncu, in->run_json);
      else
        ws_loader_expect_beside_kernels (ncu);
    }
  if (!ws_loader_read_nvprof_logs (in->files, in->kinds, ncu != NULL, in->logs, &ncu, error))
    return NULL;
  return g_steal_pointer (&ncu);
}

/* @export's run with the PyTorch profiler trace of the same run
 * (ws_trace_join()); NULL with @error set when the trace cannot be read. */
static WsRun *
join_trace (WsRun *export, RunFiles *in, GCancellable *cancellable, GError **error)
{
  const char *report = g_hash_table_lookup (in->reports, in->export);
  WsRun *trace = ws_kineto_reader_load (in->trace, cancellable, NULL, NULL, error);

  if (trace == NULL)
    {
      ws_run_unref (export);
      return NULL;
    }
  return ws_trace_join (export, trace, report != NULL ? report : in->export, in->trace);
}

/* The run of the export, with @ncu matched to its kernels; or a run of the
 * profiled launches alone; or an empty run for the CSVs and profiles. */
static WsRun *
read_events (RunFiles *in, WsNcuResults *ncu, WsLoadFlags flags, GCancellable *cancellable,
             ReadingProgress *reading, GError **error)
{
  g_autoptr (GError) local = NULL;
  WsProgressFunc progress = reading->func != NULL ? reading_progress : NULL;
  WsRun *run;

  if (in->export == NULL && ncu != NULL)
    {
      run = ws_run_new_from_ncu (ncu);
      ws_ncu_results_compute_labels (ncu, NULL);
      return run;
    }
  if (in->export == NULL)
    {
      run = ws_run_new ();
      run->prov.kind =
        g_strdup (ws_input_kind_to_string (g_array_index (in->kinds, WsInputKind, 0)));
      return run;
    }

  if (in->export_kind == WS_INPUT_NVPROF_TRACE)
    run = ws_nvprof_trace_read (in->export, &local);
  else if (in->export_kind == WS_INPUT_KINETO)
    run = ws_kineto_reader_load (in->export, cancellable, progress, reading, &local);
  else if (in->export_kind == WS_INPUT_NVPROF_SQLITE)
    run = ws_nvprof_reader_load (in->export, flags, cancellable, progress, reading, &local);
  else
    run = ws_nsys_reader_load (in->export, flags, cancellable, progress, reading, &local);
  if (run != NULL && in->trace != NULL)
    run = join_trace (run, in, cancellable, &local);
  if (run == NULL)
    {
      name_report (in->reports, local);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (ncu != NULL)
    ws_ncu_match_attach (run, ncu);
  if (!(flags & (WS_LOAD_LEAN | WS_LOAD_NO_RANKS)))
    ws_ranks_loader_attach_processes (run);
  return run;
}

/* What the run says of where it came from: its kind, its files, the
 * warnings of its inputs, the capture's record. */
static void
set_provenance (WsRun *run, RunFiles *in)
{
  WsInputKind first_kind = in->first_kind;
  GHashTableIter iter;
  gpointer report;

  for (guint i = 0; i < in->warnings->len; i++)
    ws_run_add_warning (run, "%s", (const char *) g_ptr_array_index (in->warnings, i));
  if (in->from_folder)
    {
      g_free (run->prov.kind);
      run->prov.kind = g_strdup ("capture-folder");
    }
  else if (is_report (first_kind))
    {
      /* The run is that of the report the user opened, read through its
       * conversion. */
      g_free (run->prov.kind);
      run->prov.kind = g_strdup (ws_input_kind_to_string (first_kind));
    }
  g_hash_table_iter_init (&iter, in->reports);
  while (g_hash_table_iter_next (&iter, NULL, &report))
    ws_run_add_file (run, report);
}

/* Adds what the other files give: stats CSVs' summaries, nvprof logs'
 * tables, CPU profiles, the capture's record. */
static gboolean
attach_others (WsRun *run, RunFiles *in, GCancellable *cancellable, GError **error)
{
  for (guint i = 0; i < in->files->len; i++)
    {
      const char *path = g_ptr_array_index (in->files, i);
      WsInputKind kind = g_array_index (in->kinds, WsInputKind, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (kind == WS_INPUT_NSYS_STATS_CSV && !attach_stats (run, path, error))
        return FALSE;
      if (kind == WS_INPUT_NVPROF_LOG)
        ws_loader_attach_nvprof_log (run, path, g_hash_table_lookup (in->logs, path));
      if (kind == WS_INPUT_CPU_PROFILE)
        {
          WsCpuProfile *profile = ws_cpu_reader_load (path, error);

          if (profile == NULL)
            return FALSE;
          g_ptr_array_add (run->cpu_profiles, profile);
          ws_run_add_file (run, path);
        }
    }

  if (in->run_json != NULL)
    ws_run_add_file (run, in->run_json);
  if (in->capture != NULL)
    {
      run->prov.capture_command = g_strdup (in->capture->cmd);
      run->prov.capture = g_steal_pointer (&in->capture);
    }
  return TRUE;
}

/**
 * ws_run_load:
 * @paths: (array zero-terminated=1): the files of one run: at most one nsys
 *   export or report, `nsys stats` CSVs, ncu CSVs or reports, or a capture
 *   folder
 * @progress: (nullable): gets a phrase to show ("Reading
 *   CUPTI_ACTIVITY_KIND_KERNEL", "Converting probe.nsys-rep with nsys
 *   export…") and the fraction of that step done
 *
 * Loads a run synchronously, on the calling thread.  Nsight reports are
 * converted first (ws_report_convert()).  The nsys export gives the
 * events; a stats CSV gives its summary where the export has no such
 * events (or there is no export); the ncu CSVs give the profiled launches,
 * matched to the export's kernels when there is one.  The run comes with
 * everything the pages and commands read (ws_run_get_summary() included),
 * whichever way it was loaded, and is not changed after.
 *
 * Returns: (transfer full): the run, or %NULL with @error set.
 */
WsRun *
ws_run_load (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
             WsProgressFunc progress, gpointer progress_data, GError **error)
{
  RunFiles in = {
    .files = g_ptr_array_new_with_free_func (g_free),
    .kinds = g_array_new (FALSE, FALSE, sizeof (WsInputKind)),
    .in_folder = g_array_new (FALSE, FALSE, sizeof (gboolean)),
    .reports = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
    .logs =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref),
    .warnings = g_ptr_array_new_with_free_func (g_free),
    .export_kind = WS_INPUT_NSYS_SQLITE,
  };
  ReadingProgress reading = { progress, progress_data };
  g_autoptr (WsNcuResults) ncu = NULL;
  g_autoptr (GError) local = NULL;
  WsRun *digest = NULL;
  g_autoptr (WsRun) run = NULL;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);

  if (!gather_files (paths, &in, cancellable, &digest, error) || digest != NULL)
    {
      run_files_clear (&in);
      return digest;
    }
  if (convert_reports (in.files, in.kinds, in.in_folder, in.reports, in.capture, in.warnings,
                       cancellable, progress, progress_data, error) &&
      ((ncu = read_profiled (&in, cancellable, &local)) != NULL || local == NULL))
    run = read_events (&in, ncu, flags, cancellable, &reading, &local);
  if (run != NULL)
    {
      set_provenance (run, &in);
      if (!attach_others (run, &in, cancellable, &local))
        g_clear_pointer (&run, ws_run_unref);
    }
  run_files_clear (&in);
  if (run == NULL)
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (!(flags & WS_LOAD_NO_SUMMARIES))
    ws_stats_set_summaries (run);
  return g_steal_pointer (&run);
}

typedef struct
{
  char **paths;
  WsLoadFlags flags;
  WsLoadRelay *relay;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *load = data;

  g_strfreev (load->paths);
  if (load->relay != NULL)
    ws_load_relay_unref (load->relay);
  g_free (load);
}

typedef struct
{
  WsLoadRelay *relay;
  GAsyncReadyCallback callback;
  gpointer user_data;
} LoadDone;

/* The task's callback, on the caller's context: the progress data goes
 * before the caller hears of the end. */
static void
load_done (GObject *source, GAsyncResult *result, gpointer data)
{
  LoadDone *done = data;

  ws_load_relay_release (done->relay);
  if (done->callback != NULL)
    done->callback (source, result, done->user_data);
  ws_load_relay_unref (done->relay);
  g_free (done);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LoadData *load = task_data;
  GError *error = NULL;
  WsRun *run;

  run = ws_run_load ((const char *const *) load->paths, load->flags, cancellable,
                     load->relay != NULL ? ws_load_relay_progress : NULL, load->relay, &error);
  if (run == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, run, (GDestroyNotify) ws_run_unref);
}

/**
 * ws_run_load_async:
 * @progress: (nullable): called on the caller's thread-default main context
 * @progress_notify: (nullable): frees @progress_data on the caller's context when the
 *   load has ended, before @callback; no progress comes after it
 *
 * Loads a run on a worker thread.  The run is immutable when it arrives.
 */
void
ws_run_load_async (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
                   WsProgressFunc progress, gpointer progress_data, GDestroyNotify progress_notify,
                   GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  LoadData *load;

  g_return_if_fail (paths != NULL && paths[0] != NULL);

  load = g_new0 (LoadData, 1);
  load->paths = g_strdupv ((char **) paths);
  load->flags = flags;
  if (progress != NULL)
    load->relay = ws_load_relay_new (progress, progress_data, progress_notify, cancellable);
  else if (progress_notify != NULL)
    progress_notify (progress_data);

  if (load->relay != NULL)
    {
      LoadDone *done = g_new0 (LoadDone, 1);

      done->relay = ws_load_relay_ref (load->relay);
      done->callback = callback;
      done->user_data = user_data;
      task = g_task_new (NULL, cancellable, load_done, done);
    }
  else
    task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_run_load_async);
  g_task_set_task_data (task, load, load_data_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * ws_run_load_finish:
 *
 * Returns: (transfer full): the run, or %NULL with @error set.
 */
WsRun *
ws_run_load_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ws_run_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
