/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-run"
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ws-cpu-samples.h"
#include "ws-kernel-display.h"
#include "ws-ncu-results.h"
#include "ws-run-build.h"
#include "ws-run.h"

/* What changes a run while it is built (ws-run-build.h): its sources,
 * warnings, files and summaries, its bounds and display names when every
 * table is read, and a run made of profiled launches alone. */

/* The display name of each distinct kernel, unique in the run. */
static void
compute_display_names (WsRun *self)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree const char **names = NULL;
  g_auto (GStrv) labels = NULL;

  g_clear_pointer (&self->display_names, g_hash_table_unref);
  if (self->kernels.n == 0 || self->kernels.demangled == NULL)
    return;
  for (gsize i = 0; i < self->kernels.n; i++)
    if (g_hash_table_add (seen, GUINT_TO_POINTER (self->kernels.demangled[i] + 1)))
      g_array_append_val (ids, self->kernels.demangled[i]);
  names = g_new0 (const char *, ids->len + 1);
  for (guint i = 0; i < ids->len; i++)
    names[i] = ws_run_string (self, g_array_index (ids, guint32, i));
  labels = ws_kernel_display_names (names, ids->len);
  self->display_names = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < ids->len; i++)
    g_hash_table_insert (self->display_names, GUINT_TO_POINTER (g_array_index (ids, guint32, i)),
                         GUINT_TO_POINTER (ws_string_table_intern (self->strings, labels[i]) + 1));
}

void
ws_run_add_source (WsRun *self, const char *what, const char *table, gint64 rows)
{
  WsSourceCount source = { what, g_strdup (table), rows };

  g_array_append_val (self->sources, source);
}

void
ws_run_add_warning (WsRun *self, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (self->prov.warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Adds @path to the files the run was read from. */
void
ws_run_add_file (WsRun *self, const char *path)
{
  g_ptr_array_add (self->prov.files, g_strdup (path));
}

/* Sets summary @kind, taking @summary (or clearing it with %NULL). */
void
ws_run_set_summary (WsRun *self, WsSummaryKind kind, WsSummary *summary)
{
  g_return_if_fail (kind < WS_N_SUMMARY_KINDS);

  g_clear_pointer (&self->summaries[kind], ws_summary_unref);
  self->summaries[kind] = summary;
}

static void
extend_bounds (gint64 *lo, gint64 *hi, const gint64 *start, const gint64 *end, gsize n)
{
  if (n == 0)
    return;

  /* Every table is sorted by start, so the first row is the earliest. */
  *lo = MIN (*lo, start[0]);
  for (gsize i = 0; i < n; i++)
    *hi = MAX (*hi, end != NULL ? end[i] : start[i]);
}

/* Computes the run's time bounds once every table is loaded and sorted,
 * places the CPU samples on the timeline, and the display names of its
 * kernels.  The bounds are those of the whole capture: OS runtime calls
 * and the export's own CPU samples count, since they are recorded from the
 * start of the program (the probe's first sample comes 315 ms before its
 * first CUDA call), and a timeline that cut them off would hide where the
 * program waited. */
void
ws_run_finish (WsRun *self)
{
  ws_run_update_bounds (self);
  compute_display_names (self);
}

/* The run's origin and end from its tables. */
void
ws_run_update_bounds (WsRun *self)
{
  gint64 lo = G_MAXINT64;
  gint64 hi = G_MININT64;

  extend_bounds (&lo, &hi, self->kernels.start, self->kernels.end, self->kernels.n);
  extend_bounds (&lo, &hi, self->memops.start, self->memops.end, self->memops.n);
  extend_bounds (&lo, &hi, self->api.start, self->api.end, self->api.n);
  extend_bounds (&lo, &hi, self->nvtx.start, self->nvtx.end, self->nvtx.n);
  extend_bounds (&lo, &hi, self->marks.time, NULL, self->marks.n);
  extend_bounds (&lo, &hi, self->osrt.start, self->osrt.end, self->osrt.n);
  extend_bounds (&lo, &hi, self->mem_usage.time, NULL, self->mem_usage.n);
  ws_cpu_samples_widen_bounds (self, &lo, &hi);

  if (lo > hi)
    lo = hi = 0;
  self->origin = lo;
  self->end_time = hi;
  ws_cpu_samples_index (self);
}

static void
add_process (WsRun *run, const WsNcuLaunch *launch)
{
  WsProcess process = { launch->pid, g_strdup (launch->process) };

  for (guint i = 0; i < run->prov.processes->len; i++)
    if (g_array_index (run->prov.processes, WsProcess, i).pid == launch->pid)
      {
        g_free (process.name);
        return;
      }
  g_array_append_val (run->prov.processes, process);
}

static void
add_gpu (WsRun *run, const WsNcuResults *ncu, guint index)
{
  const WsNcuLaunch *launch = ws_ncu_results_launch (ncu, index);
  WsGpu gpu = { 0 };
  double sms;

  for (guint i = 0; i < run->prov.gpus->len; i++)
    if (g_array_index (run->prov.gpus, WsGpu, i).id == launch->device)
      return;
  gpu.id = launch->device;
  gpu.name = g_strdup (ws_ncu_results_text (ncu, index, "device__attribute_display_name"));
  if (gpu.name == NULL)
    gpu.name = g_strdup (launch->device_name);
  if (launch->cc != NULL)
    sscanf (launch->cc, "%d.%d", &gpu.cc_major, &gpu.cc_minor);
  if (ws_ncu_results_value (ncu, index, "device__attribute_multiprocessor_count", &sms, NULL) &&
      sms >= 0 && sms <= 1e6)
    gpu.sm_count = (gint) sms;
  g_array_append_val (run->prov.gpus, gpu);
}

/**
 * ws_run_new_from_ncu:
 *
 * A run of ncu results alone: no timeline, the gauges of its launches.
 *
 * Returns: (transfer full): the run
 */
WsRun *
ws_run_new_from_ncu (WsNcuResults *ncu)
{
  WsRun *run;

  g_return_val_if_fail (ncu != NULL, NULL);

  run = ws_run_new ();
  /* nvprof's --metrics/--events output reads into the same results. */
  run->prov.kind = g_strdup (ncu->nvprof ? "nvprof-metrics" : "ncu-csv");
  run->prov.product = g_strdup (ncu->nvprof ? "NVIDIA nvprof" : "NVIDIA Nsight Compute");
  for (guint i = 0; i < ncu->files->len; i++)
    g_ptr_array_add (run->prov.files, g_strdup (g_ptr_array_index (ncu->files, i)));
  for (guint i = 0; i < ws_ncu_results_n_launches (ncu); i++)
    {
      add_process (run, ws_ncu_results_launch (ncu, i));
      add_gpu (run, ncu, i);
    }
  run->ncu = ws_ncu_results_ref (ncu);
  ws_run_finish (run);
  return run;
}
