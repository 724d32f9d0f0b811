/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include <json-glib/json-glib.h>

#include "ws-error.h"
#include "ws-input.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"
#include "ws-nsys-reader.h"
#include "ws-nsys-stats-reader.h"
#include "ws-run-loader.h"
#include "ws-stats.h"

/* The ncu CSVs of a run, read together (a raw and a details export of one
 * report give each launch once).  A file named on its own must read; one a
 * folder brought along that holds only ncu's error messages is left out
 * with a warning, so that the rest of the capture still opens. */
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
    return results;

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
  return ws_ncu_reader_load ((const char *const *) kept->pdata, cancellable, error);
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

static WsInputKind
classify (const char *path, GError **error)
{
  WsInputKind kind = ws_input_detect (path, error);

  switch (kind)
    {
      case WS_INPUT_NSYS_REPORT:
        g_set_error (
          error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
          "%s: an Nsight Systems report; export it to SQLite first: nsys export --type sqlite %s",
          path, path);
        return WS_INPUT_UNKNOWN;
      case WS_INPUT_NCU_REPORT:
        g_set_error (
          error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
          "%s: an Nsight Compute report; export it to CSV first: ncu --import %s --csv --page raw",
          path, path);
        return WS_INPUT_UNKNOWN;
      case WS_INPUT_UNKNOWN:
      case WS_INPUT_FOLDER:
      case WS_INPUT_NSYS_SQLITE:
      case WS_INPUT_NSYS_STATS_CSV:
      case WS_INPUT_NCU_CSV:
      default:
        return kind;
    }
}

static gboolean
run_has_events (const WsRun *run, WsReportKind kind)
{
  switch (kind)
    {
      case WS_REPORT_KERN_SUM:
        return run->kernels.n > 0;
      case WS_REPORT_NVTX_SUM:
        return run->nvtx.n > 0;
      case WS_REPORT_API_SUM:
        return run->api.n > 0;
      case WS_REPORT_MEM_TIME_SUM:
      case WS_REPORT_MEM_SIZE_SUM:
        return run->memops.n > 0;
      case WS_N_REPORTS:
      default:
        return FALSE;
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
  if (run_has_events (run, summary->kind))
    return TRUE;
  if (run->summaries[summary->kind] != NULL)
    {
      ws_run_add_warning (run, "%s: a second %s report; the first one is used", path,
                          ws_report_kind_to_string (summary->kind));
      return TRUE;
    }
  run->summaries[summary->kind] = g_steal_pointer (&summary);
  return TRUE;
}

/**
 * ws_run_load:
 * @paths: (array zero-terminated=1): the files of one run: at most one nsys
 *   export, `nsys stats` CSVs, ncu CSVs, or a capture folder
 *
 * Loads a run synchronously, on the calling thread.  The nsys export gives
 * the events; a stats CSV gives its summary where the export has no such
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
  g_autoptr (WsNcuResults) ncu = NULL;
  g_autofree char *run_json = NULL;
  g_autoptr (WsRun) run = NULL;
  const char *export = NULL;
  gboolean from_folder = FALSE;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      WsInputKind kind = classify (paths[i], error);

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
      const char *path = g_ptr_array_index (files, i);
      WsInputKind kind = classify (path, error);

      if (kind == WS_INPUT_UNKNOWN)
        return NULL;
      if (kind == WS_INPUT_NSYS_SQLITE)
        {
          if (export != NULL)
            {
              g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                           "%s: a run holds one nsys export, and %s is another; open it in a "
                           "window of its own",
                           path, export);
              return NULL;
            }
          export = path;
        }
      if (kind == WS_INPUT_NCU_CSV)
        {
          g_ptr_array_add (ncu_paths, (gpointer) path);
          g_array_append_val (ncu_in_folder, g_array_index (in_folder, gboolean, i));
        }
      g_array_append_val (kinds, kind);
    }

  if (ncu_paths->len > 0)
    {
      ncu = load_ncu (ncu_paths, ncu_in_folder, ncu_warnings, cancellable, error);
      if (ncu == NULL)
        return NULL;
    }
  if (export != NULL)
    {
      run = ws_nsys_reader_load (export, flags, cancellable, progress, progress_data, error);
      if (run == NULL)
        return NULL;
      if (ncu != NULL)
        ws_run_attach_ncu (run, ncu);
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

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      WsInputKind kind = g_array_index (kinds, WsInputKind, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (kind == WS_INPUT_NSYS_STATS_CSV && !attach_stats (run, path, error))
        return NULL;
    }

  if (run_json != NULL)
    read_manifest (run, run_json);
  return g_steal_pointer (&run);
}

/* Progress crosses from the worker to the caller's main context through a
 * relay that outlives both; deliveries after the task finished are dropped. */
typedef struct
{
  gatomicrefcount ref_count;
  GMainContext *context;
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

  if (!g_atomic_int_get (&event->relay->finished))
    event->relay->func (event->fraction, event->what, event->relay->data);
  return G_SOURCE_REMOVE;
}

static void
relay_progress (double fraction, const char *what, gpointer data)
{
  ProgressRelay *relay = data;
  ProgressEvent *event = g_new0 (ProgressEvent, 1);

  event->relay = relay_ref (relay);
  event->fraction = fraction;
  event->what = g_strdup (what);
  g_main_context_invoke_full (relay->context, G_PRIORITY_DEFAULT, deliver_progress, event,
                              progress_event_free);
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
    ws_run_compute_summaries (run);
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
