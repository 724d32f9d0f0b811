/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ws-cpu-reader.h"
#include "ws-error.h"
#include "ws-gauges.h"
#include "ws-input.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"
#include "ws-nsys-reader.h"
#include "ws-nsys-stats-reader.h"
#include "ws-nvprof-log.h"
#include "ws-nvprof-reader.h"
#include "ws-nvprof-trace.h"
#include "ws-report-convert.h"
#include "ws-run-loader.h"
#include "ws-stats.h"

/* The ncu CSVs of a run, read together (a raw and a details export of one
 * report give each launch once), with the gauges of each launch.  A file
 * named on its own must read; one a folder brought along that holds only
 * ncu's error messages is left out with a warning, so that the rest of
 * the capture still opens. */
static WsNcuResults *
load_ncu (GPtrArray *paths, GArray *from_folder, GPtrArray *warnings, GCancellable *cancellable,
          GError **error)
{
  g_autoptr (GPtrArray) kept = NULL;
  g_autoptr (GError) first_error = NULL;
  WsNcuResults *results;

  g_ptr_array_add (paths, NULL);
  results = ws_ncu_reader_load ((const char *const *) paths->pdata, cancellable, &first_error);
  g_ptr_array_remove_index (paths, paths->len - 1);
  if (results != NULL)
    {
      ws_gauges_compute_all (results);
      return results;
    }

  kept = g_ptr_array_new ();
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr (GError) file_error = NULL;
      g_autoptr (WsNcuResults) probe = NULL;

      if (!g_array_index (from_folder, gboolean, i))
        {
          g_ptr_array_add (kept, (gpointer) path);
          continue;
        }
      probe = ws_ncu_reader_load_file (path, &file_error);
      if (probe != NULL)
        g_ptr_array_add (kept, (gpointer) path);
      else
        g_ptr_array_add (warnings, g_strdup_printf ("skipped %s", file_error->message));
    }
  if (kept->len == paths->len || kept->len == 0)
    {
      /* Nothing to leave out, or nothing left: the first error stands. */
      g_propagate_error (error, g_steal_pointer (&first_error));
      return NULL;
    }
  g_ptr_array_add (kept, NULL);
  results = ws_ncu_reader_load ((const char *const *) kept->pdata, cancellable, error);
  if (results != NULL)
    ws_gauges_compute_all (results);
  return results;
}

static void
read_manifest (WsRun *run, const char *run_json)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonNode *target;

  if (!json_parser_load_from_file (parser, run_json, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      ws_run_add_warning (run, "%s: not a readable capture manifest", run_json);
      return;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  target = json_object_get_member (root, "target");
  if (target != NULL && JSON_NODE_HOLDS_OBJECT (target))
    {
      JsonNode *cmd = json_object_get_member (json_node_get_object (target), "cmd");

      if (cmd != NULL && JSON_NODE_HOLDS_VALUE (cmd) &&
          json_node_get_value_type (cmd) == G_TYPE_STRING)
        run->prov.capture_command = g_strdup (json_node_get_string (cmd));
    }
  g_ptr_array_add (run->prov.files, g_strdup (run_json));
}

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
                 GPtrArray *warnings, GCancellable *cancellable, WsProgressFunc progress,
                 gpointer progress_data, GError **error)
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
      converted = ws_report_convert (
        path, kind == WS_INPUT_NSYS_REPORT ? WS_REPORT_TOOL_NSYS : WS_REPORT_TOOL_NCU, cancellable,
        progress, progress_data, &local);
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

/* An nvprof console log or `--csv` summary: its first profiling result
 * gives the kernel, memory-operation and API summaries the run has no
 * events for; the others, and its Unified Memory rows, are said. */
static gboolean
attach_nvprof_log (WsRun *run, const char *path, GError **error)
{
  g_autoptr (GPtrArray) results = ws_nvprof_log_read (path, error);
  WsNvprofResult *first;
  WsSummary *summaries[3];
  g_autoptr (GString) others = g_string_new (NULL);

  if (results == NULL)
    return FALSE;
  g_ptr_array_add (run->prov.files, g_strdup (path));
  first = g_ptr_array_index (results, 0);
  summaries[0] = first->kernels;
  summaries[1] = first->memops;
  summaries[2] = first->api;
  for (guint i = 0; i < G_N_ELEMENTS (summaries); i++)
    if (summaries[i] != NULL && !ws_run_has_summary_events (run, summaries[i]->kind) &&
        run->summaries[summaries[i]->kind] == NULL)
      run->summaries[summaries[i]->kind] = ws_summary_ref (summaries[i]);
  if (first->no_kernels)
    ws_run_add_warning (run, "%s: No kernels were profiled (process %u)", path, first->pid);
  for (guint i = 0; i < first->unified->len; i++)
    ws_run_add_warning (run, "%s: Unified Memory: %s", path,
                        (const char *) g_ptr_array_index (first->unified, i));
  for (guint i = 1; i < results->len; i++)
    g_string_append_printf (others, "%s%u", i > 1 ? ", " : "",
                            ((WsNvprofResult *) g_ptr_array_index (results, i))->pid);
  if (results->len > 1)
    ws_run_add_warning (run,
                        "%s: %u more profiling results in the log (processes %s); the first "
                        "(process %u) is shown",
                        path, results->len - 1, others->str, first->pid);
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
 * matched to the export's kernels when there is one.
 *
 * Returns: (transfer full): the run, or %NULL with @error set.
 */
WsRun *
ws_run_load (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
             WsProgressFunc progress, gpointer progress_data, GError **error)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) kinds = g_array_new (FALSE, FALSE, sizeof (WsInputKind));
  g_autoptr (GArray) in_folder = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr (GPtrArray) ncu_paths = g_ptr_array_new ();
  g_autoptr (GArray) ncu_in_folder = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr (GPtrArray) ncu_warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) reports = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (WsNcuResults) ncu = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *run_json = NULL;
  g_autoptr (WsRun) run = NULL;
  ReadingProgress reading = { progress, progress_data };
  const char *export = NULL;
  WsInputKind export_kind = WS_INPUT_NSYS_SQLITE;
  WsInputKind first_kind;
  gboolean from_folder = FALSE;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      WsInputKind kind = ws_input_detect (paths[i], error);

      if (kind == WS_INPUT_UNKNOWN)
        return NULL;
      if (kind == WS_INPUT_FOLDER)
        {
          gboolean yes = TRUE;

          from_folder = TRUE;
          if (!ws_input_expand_folder (paths[i], files, run_json == NULL ? &run_json : NULL, error))
            return NULL;
          while (in_folder->len < files->len)
            g_array_append_val (in_folder, yes);
        }
      else
        {
          gboolean no = FALSE;

          g_ptr_array_add (files, g_strdup (paths[i]));
          g_array_append_val (in_folder, no);
        }
    }

  for (guint i = 0; i < files->len; i++)
    {
      WsInputKind kind = ws_input_detect (g_ptr_array_index (files, i), error);

      if (kind == WS_INPUT_UNKNOWN)
        return NULL;
      g_array_append_val (kinds, kind);
    }
  first_kind = g_array_index (kinds, WsInputKind, 0);
  if (!convert_reports (files, kinds, in_folder, reports, ncu_warnings, cancellable, progress,
                        progress_data, error))
    return NULL;

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      WsInputKind kind = g_array_index (kinds, WsInputKind, i);

      if (kind == WS_INPUT_NSYS_SQLITE || kind == WS_INPUT_NVPROF_SQLITE ||
          kind == WS_INPUT_NVPROF_TRACE)
        {
          if (export != NULL)
            {
              const char *report = g_hash_table_lookup (reports, path);
              const char *other = g_hash_table_lookup (reports, export);

              g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                           "%s: a run holds one nsys export, and %s is another; open it in a "
                           "window of its own",
                           report != NULL ? report : path, other != NULL ? other : export);
              return NULL;
            }
          export = path;
          export_kind = kind;
        }
      if (kind == WS_INPUT_NCU_CSV)
        {
          g_ptr_array_add (ncu_paths, (gpointer) path);
          g_array_append_val (ncu_in_folder, g_array_index (in_folder, gboolean, i));
        }
    }

  if (ncu_paths->len > 0)
    {
      ncu = load_ncu (ncu_paths, ncu_in_folder, ncu_warnings, cancellable, &local);
      if (ncu == NULL)
        {
          name_report (reports, local);
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
    }
  if (export != NULL)
    {
      if (export_kind == WS_INPUT_NVPROF_TRACE)
        run = ws_nvprof_trace_read (export, &local);
      else if (export_kind == WS_INPUT_NVPROF_SQLITE)
        run = ws_nvprof_reader_load (export, flags, cancellable,
                                     progress != NULL ? reading_progress : NULL, &reading, &local);
      else
        run = ws_nsys_reader_load (export, flags, cancellable,
                                   progress != NULL ? reading_progress : NULL, &reading, &local);
      if (run == NULL)
        {
          name_report (reports, local);
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (ncu != NULL)
        ws_ncu_match_attach (run, ncu);
    }
  else if (ncu != NULL)
    run = ws_run_new_from_ncu (ncu);
  else
    {
      run = ws_run_new ();
      run->prov.kind = g_strdup (ws_input_kind_to_string (g_array_index (kinds, WsInputKind, 0)));
    }
  for (guint i = 0; i < ncu_warnings->len; i++)
    ws_run_add_warning (run, "%s", (const char *) g_ptr_array_index (ncu_warnings, i));
  if (from_folder)
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
  {
    GHashTableIter iter;
    gpointer report;

    g_hash_table_iter_init (&iter, reports);
    while (g_hash_table_iter_next (&iter, NULL, &report))
      g_ptr_array_add (run->prov.files, g_strdup (report));
  }

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      WsInputKind kind = g_array_index (kinds, WsInputKind, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (kind == WS_INPUT_NSYS_STATS_CSV && !attach_stats (run, path, error))
        return NULL;
      if (kind == WS_INPUT_NVPROF_LOG && !attach_nvprof_log (run, path, error))
        return NULL;
      if (kind == WS_INPUT_CPU_PROFILE)
        {
          WsCpuProfile *profile = ws_cpu_reader_load (path, error);

          if (profile == NULL)
            return NULL;
          g_ptr_array_add (run->cpu_profiles, profile);
          g_ptr_array_add (run->prov.files, g_strdup (path));
        }
    }

  if (run_json != NULL)
    read_manifest (run, run_json);
  return g_steal_pointer (&run);
}

/* Progress crosses from the worker to the caller's main context through a
 * relay that outlives both; deliveries after the task finished or was
 * cancelled are dropped (a window that cancels as it goes must not hear
 * of the load again). */
typedef struct
{
  gatomicrefcount ref_count;
  GMainContext *context;
  GCancellable *cancellable;
  WsProgressFunc func;
  gpointer data;
  GDestroyNotify notify;
  gint finished; /* atomic */
} ProgressRelay;

typedef struct
{
  ProgressRelay *relay;
  double fraction;
  char *what;
} ProgressEvent;

static ProgressRelay *
relay_ref (ProgressRelay *relay)
{
  g_atomic_ref_count_inc (&relay->ref_count);
  return relay;
}

static void
relay_unref (ProgressRelay *relay)
{
  if (!g_atomic_ref_count_dec (&relay->ref_count))
    return;
  if (relay->notify != NULL)
    relay->notify (relay->data);
  g_main_context_unref (relay->context);
  g_clear_object (&relay->cancellable);
  g_free (relay);
}

static void
progress_event_free (gpointer data)
{
  ProgressEvent *event = data;

  relay_unref (event->relay);
  g_free (event->what);
  g_free (event);
}

static gboolean
deliver_progress (gpointer data)
{
  ProgressEvent *event = data;

  if (!g_atomic_int_get (&event->relay->finished) &&
      !g_cancellable_is_cancelled (event->relay->cancellable))
    event->relay->func (event->fraction, event->what, event->relay->data);
  return G_SOURCE_REMOVE;
}

static void
relay_progress (double fraction, const char *what, gpointer data)
{
  ProgressRelay *relay = data;
  ProgressEvent *event = g_new0 (ProgressEvent, 1);
  g_autoptr (GSource) source = NULL;

  event->relay = relay_ref (relay);
  event->fraction = fraction;
  event->what = g_strdup (what);
  /* Always through the caller's loop: g_main_context_invoke() would call
   * it right here, on the worker, whenever the worker's thread-default
   * context is the caller's and nobody iterates it at that moment. */
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, deliver_progress, event, progress_event_free);
  g_source_attach (source, relay->context);
}

typedef struct
{
  char **paths;
  WsLoadFlags flags;
  ProgressRelay *relay;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *load = data;

  g_strfreev (load->paths);
  if (load->relay != NULL)
    {
      g_atomic_int_set (&load->relay->finished, TRUE);
      relay_unref (load->relay);
    }
  g_free (load);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LoadData *load = task_data;
  GError *error = NULL;
  WsRun *run;

  run = ws_run_load ((const char *const *) load->paths, load->flags, cancellable,
                     load->relay != NULL ? relay_progress : NULL, load->relay, &error);
  if (run != NULL)
    ws_stats_compute_summaries (run);
  if (run == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, run, (GDestroyNotify) ws_run_unref);
}

/**
 * ws_run_load_async:
 * @progress: (nullable): called on the caller's thread-default main context
 * @progress_notify: (nullable): frees @progress_data once no progress is pending
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
    {
      load->relay = g_new0 (ProgressRelay, 1);
      g_atomic_ref_count_init (&load->relay->ref_count);
      load->relay->context = g_main_context_ref_thread_default ();
      load->relay->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
      load->relay->func = progress;
      load->relay->data = progress_data;
      load->relay->notify = progress_notify;
    }
  else if (progress_notify != NULL)
    progress_notify (progress_data);

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
