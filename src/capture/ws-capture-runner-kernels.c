/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-runner"
#include "config.h"

#include "ws-capture-runner-private.h"

/* Step 4 of a target: the top kernels of its nsys export picked
 * (ws-capture-plan.c), then their mangled names, grids and blocks read
 * from the export on a worker, so that each ncu report is made for a
 * launch the manifest names. */

/* Step 4's end: the kernels picked, and what the export said of them. */
static void
top_kernels_done (WsCaptureRunner *self, const char *lookup_error)
{
  WsCaptureTargetRun *target = g_ptr_array_index (self->targets, self->current);
  GPtrArray *kernels = target->plan->kernels;
  GPtrArray *left_out = target->plan->left_out;
  g_autofree char *detail = g_strdup_printf ("%u kernels", kernels->len);

  if (left_out != NULL && left_out->len > 0)
    {
      gint64 sum = 0;

      for (guint i = 0; i < left_out->len; i++)
        sum += ((WsCaptureKernel *) g_ptr_array_index (left_out, i))->total;
      ws_capture_runner_log_info (
        self, WS_CAPTURE_STEP_TOP_KERNELS,
        "  left out: %u communication kernels, %.1f%% of the GPU time (ncu cannot replay one "
        "without its peers; NCU_COMM_REPLAY=range profiles them):",
        left_out->len, 100.0 * (double) sum / (double) MAX (target->plan->kernels_total, 1));
      for (guint i = 0; i < left_out->len; i++)
        {
          const WsCaptureKernel *kernel = g_ptr_array_index (left_out, i);

          ws_capture_runner_log_info (
            self, WS_CAPTURE_STEP_TOP_KERNELS, "     %s (%" G_GINT64_FORMAT " ns, %.1f%%)",
            kernel->name, kernel->total,
            100.0 * (double) kernel->total / (double) MAX (target->plan->kernels_total, 1));
        }
      g_free (detail);
      detail = g_strdup_printf ("%u kernels, %u communication kernels left out", kernels->len,
                                left_out->len);
    }
  for (guint i = 0; i < kernels->len; i++)
    {
      const WsCaptureKernel *kernel = g_ptr_array_index (kernels, i);

      ws_capture_runner_log_info (self, WS_CAPTURE_STEP_TOP_KERNELS,
                                  "  %u. %s (%" G_GINT64_FORMAT " ns) → %s", i + 1, kernel->name,
                                  kernel->total, kernel->file);
      if (kernel->grid != NULL)
        ws_capture_runner_log_info (self, WS_CAPTURE_STEP_TOP_KERNELS, "     grid %s, block %s, %s",
                                    kernel->grid, kernel->block,
                                    kernel->mangled != NULL ? kernel->mangled : "");
      if (kernel->skip > 0)
        ws_capture_runner_log_info (self, WS_CAPTURE_STEP_TOP_KERNELS,
                                    "     ncu skips its first %u launches, made before its first "
                                    "one inside a CUDA graph",
                                    kernel->skip);
    }
  /* Graph-level tracing leaves the kernels of replays out of the summary
   * step 4 reads (docs/cuda-graphs.md). */
  if (g_strcmp0 (target->plan->settings->nsys_cuda_graph_trace, "graph") == 0)
    ws_capture_runner_log_info (
      self, WS_CAPTURE_STEP_TOP_KERNELS,
      "  (nsys traced CUDA graphs whole, NSYS_CUDA_GRAPH_TRACE=graph: kernels that ran inside "
      "graph replays are in no kernel summary, so none is among these; "
      "NSYS_CUDA_GRAPH_TRACE=node records them)");
  /* Not fatal: ncu profiles the kernels all the same; a reader then joins
   * them by name. */
  if (lookup_error != NULL)
    ws_capture_runner_log_info (self, WS_CAPTURE_STEP_TOP_KERNELS,
                                "  (the export did not say which launches: %s)", lookup_error);
  ws_capture_runner_step_finished (self, TRUE, detail);
}

typedef struct
{
  WsCaptureKernelLookup lookup;
  char *export_path;
  GPtrArray *names; /* char * */
  char **mangled;
  char **grid;
  char **block;
  guint *skip;
} Lookup;

static void
lookup_free (Lookup *lookup)
{
  guint n = lookup->names->len;

  for (guint i = 0; i < n; i++)
    {
      g_free (lookup->mangled[i]);
      g_free (lookup->grid[i]);
      g_free (lookup->block[i]);
    }
  g_free (lookup->mangled);
  g_free (lookup->grid);
  g_free (lookup->block);
  g_free (lookup->skip);
  g_ptr_array_unref (lookup->names);
  g_free (lookup->export_path);
  g_free (lookup);
}

static void
lookup_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Lookup *lookup = data;
  GError *error = NULL;

  if (lookup->lookup (lookup->export_path, lookup->names->len,
                      (const char *const *) lookup->names->pdata, lookup->mangled, lookup->grid,
                      lookup->block, lookup->skip, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
lookup_done (GObject *source, GAsyncResult *result, gpointer data)
{
  WsCaptureRunner *self = WS_CAPTURE_RUNNER (source);
  Lookup *lookup = g_task_get_task_data (G_TASK (result));
  WsCaptureTargetRun *target = g_ptr_array_index (self->targets, self->current);
  g_autoptr (GError) error = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    {
      for (guint i = 0; i < target->plan->kernels->len; i++)
        {
          WsCaptureKernel *kernel = g_ptr_array_index (target->plan->kernels, i);

          kernel->mangled = g_steal_pointer (&lookup->mangled[i]);
          kernel->grid = g_steal_pointer (&lookup->grid[i]);
          kernel->block = g_steal_pointer (&lookup->block[i]);
          kernel->skip = lookup->skip[i];
        }
      /* The launches to skip are known only now. */
      ws_capture_plan_refresh_ncu (target->plan);
    }
  top_kernels_done (self, error != NULL ? error->message : NULL);
}

/* Reads the picked kernels' mangled names, grids and blocks from the
 * export on a worker: a large export takes a while to scan. */
static void
look_up_kernels (WsCaptureRunner *self, WsCaptureTargetRun *target)
{
  GPtrArray *kernels = target->plan->kernels;
  Lookup *lookup = g_new0 (Lookup, 1);
  g_autoptr (GTask) task = g_task_new (self, NULL, lookup_done, NULL);

  lookup->lookup = self->lookup;
  lookup->export_path = g_strconcat (target->plan->nsys_base, ".sqlite", NULL);
  lookup->names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < kernels->len; i++)
    g_ptr_array_add (lookup->names,
                     g_strdup (((WsCaptureKernel *) g_ptr_array_index (kernels, i))->name));
  lookup->mangled = g_new0 (char *, kernels->len + 1);
  lookup->grid = g_new0 (char *, kernels->len + 1);
  lookup->block = g_new0 (char *, kernels->len + 1);
  lookup->skip = g_new0 (guint, kernels->len + 1);
  g_task_set_source_tag (task, look_up_kernels);
  g_task_set_task_data (task, lookup, (GDestroyNotify) lookup_free);
  g_task_run_in_thread (task, lookup_thread);
}

/**
 * ws_capture_runner_pick_kernels:
 *
 * Runs step 4 of @target: the step ends (ws_capture_runner_step_finished())
 * once the kernels are picked and, where the runner has a lookup, looked
 * up in the export.
 */
void
ws_capture_runner_pick_kernels (WsCaptureRunner *self, WsCaptureTargetRun *target)
{
  g_autoptr (GError) error = NULL;

  if (!ws_capture_plan_pick_kernels (target->plan, &error))
    ws_capture_runner_step_finished (self, FALSE, error->message);
  else if (self->lookup != NULL)
    look_up_kernels (self, target);
  else
    top_kernels_done (self, NULL);
}
