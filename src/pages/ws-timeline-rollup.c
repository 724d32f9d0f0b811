/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline-page"
#include "config.h"

#include "ws-range-bottleneck-project.h"
#include "ws-timeline-rollup.h"

struct _WsTimelineRollup
{
  GArray *rows;      /* WsRangeBottleneck */
  GHashTable *index; /* range name ("domain:name") → its row */
};

typedef struct
{
  WsRun *run;
  WsNvtxKernels *nvtx_kernels;
} Job;

static void
job_free (Job *job)
{
  ws_run_unref (job->run);
  ws_nvtx_kernels_unref (job->nvtx_kernels);
  g_free (job);
}

static void
rollup_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  WsTimelineRollup *rollup = g_new0 (WsTimelineRollup, 1);

  rollup->rows = ws_range_bottleneck_project (job->run, job->nvtx_kernels);
  rollup->index = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < rollup->rows->len; i++)
    {
      WsRangeBottleneck *row = &g_array_index (rollup->rows, WsRangeBottleneck, i);

      g_hash_table_insert (rollup->index, row->name, row);
    }
  g_task_return_pointer (task, rollup, (GDestroyNotify) ws_timeline_rollup_free);
}

/**
 * ws_timeline_rollup_async:
 *
 * Works out each NVTX range's bottleneck on a worker thread (why every
 * profiled launch is slow, then the kernels of each range); the run and
 * the NVTX kernels are kept alive until it is done.
 */
void
ws_timeline_rollup_async (WsRun *run, WsNvtxKernels *nvtx_kernels, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Job *job = g_new0 (Job, 1);

  job->run = ws_run_ref (run);
  job->nvtx_kernels = ws_nvtx_kernels_ref (nvtx_kernels);
  g_task_set_source_tag (task, ws_timeline_rollup_async);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, rollup_thread);
}

/**
 * ws_timeline_rollup_finish:
 *
 * Returns: (transfer full) (nullable): the roll-up, or %NULL when it was
 * cancelled
 */
WsTimelineRollup *
ws_timeline_rollup_finish (GAsyncResult *result)
{
  WsTimelineRollup *rollup = g_task_propagate_pointer (G_TASK (result), NULL);

  if (rollup != NULL && g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    g_clear_pointer (&rollup, ws_timeline_rollup_free);
  return rollup;
}

void
ws_timeline_rollup_free (WsTimelineRollup *rollup)
{
  if (rollup == NULL)
    return;
  g_hash_table_unref (rollup->index);
  g_array_unref (rollup->rows);
  g_free (rollup);
}

/**
 * ws_timeline_rollup_rows:
 *
 * Returns: (transfer none) (element-type WsRangeBottleneck): the rows
 */
GArray *
ws_timeline_rollup_rows (const WsTimelineRollup *rollup)
{
  return rollup->rows;
}

/* Sets the row @iter of @store to the bottleneck of the range @name
 * ("domain:name"): its text in @text_column, then one share per
 * WsRollupClass from @first_share_column. */
void
ws_timeline_rollup_fill (const WsTimelineRollup *rollup, const char *name, GtkListStore *store,
                         GtkTreeIter *iter, int text_column, int first_share_column)
{
  const WsRangeBottleneck *row = g_hash_table_lookup (rollup->index, name);
  g_autofree char *text = NULL;

  if (row == NULL || row->gpu_ns <= 0)
    return;
  text = ws_range_bottleneck_text (row);
  gtk_list_store_set (store, iter, text_column, text, -1);
  for (int c = 0; c < WS_N_ROLLUP; c++)
    gtk_list_store_set (store, iter, first_share_column + c,
                        (double) row->ns[c] / (double) row->gpu_ns, -1);
}
