/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include "ws-error.h"
#include "ws-nsys-reader.h"
#include "ws-run-loader.h"
#include "ws-stats.h"

/**
 * ws_run_load:
 * @paths: (array zero-terminated=1): the files of one run
 *
 * Loads a run synchronously, on the calling thread.
 *
 * Returns: (transfer full): the run, or %NULL with @error set.
 */
WsRun *
ws_run_load (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
             WsProgressFunc progress, gpointer progress_data, GError **error)
{
  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);

  return ws_nsys_reader_load (paths[0], flags, cancellable, progress, progress_data, error);
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
