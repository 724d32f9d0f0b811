/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-run"
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ws-digest.h"
#include "ws-kernel-display.h"
#include "ws-cpu-samples.h"
#include "ws-ncu-results.h"
#include "ws-ranks.h"
#include "ws-run-build.h"
#include "ws-run.h"

static void
gpu_clear (gpointer data)
{
  WsGpu *gpu = data;

  g_free (gpu->name);
  g_free (gpu->bus_location);
  g_free (gpu->chip);
  g_free (gpu->uuid);
}

static void
process_clear (gpointer data)
{
  WsProcess *process = data;

  g_free (process->name);
}

static void
source_clear (gpointer data)
{
  WsSourceCount *source = data;

  g_free (source->table);
}

/**
 * ws_run_new:
 *
 * Returns: (transfer full): an empty run, for readers to fill.
 */
WsRun *
ws_run_new (void)
{
  WsRun *self = g_new0 (WsRun, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->strings = ws_string_table_new ();
  self->streams = g_array_new (FALSE, TRUE, sizeof (WsStream));
  self->threads = g_array_new (FALSE, TRUE, sizeof (WsThread));
  self->configs = g_array_new (FALSE, TRUE, sizeof (WsLaunchConfig));
  self->domains = g_array_new (FALSE, TRUE, sizeof (WsNvtxDomain));
  self->metrics = g_array_new (FALSE, TRUE, sizeof (WsGpuMetric));
  self->sources = g_array_new (FALSE, TRUE, sizeof (WsSourceCount));
  g_array_set_clear_func (self->sources, source_clear);

  self->prov.files = g_ptr_array_new_with_free_func (g_free);
  self->prov.gpus = g_array_new (FALSE, TRUE, sizeof (WsGpu));
  g_array_set_clear_func (self->prov.gpus, gpu_clear);
  self->prov.processes = g_array_new (FALSE, TRUE, sizeof (WsProcess));
  g_array_set_clear_func (self->prov.processes, process_clear);
  self->prov.warnings = g_ptr_array_new_with_free_func (g_free);
  self->prov.contributions = g_ptr_array_new_with_free_func (g_free);
  self->prov.dist_rank = -1;
  self->prov.dist_world_size = -1;

  /* The default NVTX domain is always index 0 with an empty name. */
  {
    WsNvtxDomain domain = { 0, ws_string_table_intern (self->strings, "") };
    g_array_append_val (self->domains, domain);
  }

  self->cpu_profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_cpu_profile_unref);
  return self;
}

/**
 * ws_run_ref:
 *
 * Returns: (transfer full): @self
 */
WsRun *
ws_run_ref (WsRun *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_capture_record_free (WsCaptureRecord *record)
{
  if (record == NULL)
    return;
  g_free (record->name);
  g_free (record->cmd);
  g_free (record->workdir);
  g_free (record->envs);
  g_free (record->targets_file);
  g_free (record->status);
  g_free (record->started);
  g_clear_pointer (&record->commands, g_ptr_array_unref);
  g_free (record->nsys_path);
  g_free (record->nsys_version);
  g_free (record->ncu_path);
  g_free (record->ncu_version);
  g_clear_pointer (&record->gpus, g_ptr_array_unref);
  g_free (record);
}

static void
provenance_clear (WsProvenance *prov)
{
  g_clear_pointer (&prov->files, g_ptr_array_unref);
  g_clear_pointer (&prov->kind, g_free);
  g_clear_pointer (&prov->product, g_free);
  g_clear_pointer (&prov->nsys_version, g_free);
  g_clear_pointer (&prov->schema_version, g_free);
  g_clear_pointer (&prov->metadata_table, g_free);
  g_clear_pointer (&prov->export_time, g_free);
  g_clear_pointer (&prov->host, g_free);
  g_clear_pointer (&prov->driver_version, g_free);
  g_clear_pointer (&prov->os, g_free);
  g_clear_pointer (&prov->gpus, g_array_unref);
  g_clear_pointer (&prov->processes, g_array_unref);
  g_clear_pointer (&prov->warnings, g_ptr_array_unref);
  g_clear_pointer (&prov->contributions, g_ptr_array_unref);
  g_clear_pointer (&prov->capture_command, g_free);
  g_clear_pointer (&prov->capture_env, g_strfreev);
  g_clear_pointer (&prov->capture, ws_capture_record_free);
  g_clear_pointer (&prov->target_command, g_free);
  g_clear_pointer (&prov->target_env, g_strfreev);
  g_clear_pointer (&prov->thread_rank_name, g_free);
  g_clear_pointer (&prov->dist_backend, g_free);
}

static void
ws_run_free (WsRun *self)
{
  g_free (self->kernels.start);
  g_free (self->kernels.end);
  g_free (self->kernels.demangled);
  g_free (self->kernels.short_name);
  g_free (self->kernels.mangled);
  g_free (self->kernels.stream);
  g_free (self->kernels.correlation);
  g_free (self->kernels.config);
  g_free (self->kernels.replay);

  g_free (self->memops.start);
  g_free (self->memops.end);
  g_free (self->memops.bytes);
  g_free (self->memops.kind);
  g_free (self->memops.src_kind);
  g_free (self->memops.dst_kind);
  g_free (self->memops.stream);
  g_free (self->memops.correlation);
  g_free (self->memops.replay);

  g_free (self->replays.start);
  g_free (self->replays.end);
  g_free (self->replays.stream);
  g_free (self->replays.correlation);
  g_free (self->replays.graph);
  g_free (self->replays.nodes);

  g_free (self->api.start);
  g_free (self->api.end);
  g_free (self->api.name);
  g_free (self->api.thread);
  g_free (self->api.correlation);
  g_free (self->api.return_value);

  g_free (self->nvtx.start);
  g_free (self->nvtx.end);
  g_free (self->nvtx.name);
  g_free (self->nvtx.thread);
  g_free (self->nvtx.color);
  g_free (self->nvtx.domain);
  g_free (self->nvtx.depth);
  g_free (self->nvtx.style);

  g_free (self->marks.time);
  g_free (self->marks.name);
  g_free (self->marks.thread);
  g_free (self->marks.color);
  g_free (self->marks.domain);

  g_free (self->mem_usage.time);
  g_free (self->mem_usage.bytes);
  g_free (self->mem_usage.device);
  g_free (self->mem_usage.mem_kind);

  g_clear_pointer (&self->cpu_profiles, g_ptr_array_unref);
  g_free (self->osrt.start);
  g_free (self->osrt.end);
  g_free (self->osrt.name);
  g_free (self->osrt.thread);
  g_free (self->cpu_samples.start);
  g_free (self->cpu_samples.end);
  g_free (self->cpu_samples.name);
  g_free (self->cpu_samples.thread);
  g_free (self->cpu_samples.sample);
  g_free (self->metric_samples.time);
  g_free (self->metric_samples.value);

  for (guint i = 0; i < WS_N_SUMMARY_KINDS; i++)
    g_clear_pointer (&self->summaries[i], ws_summary_unref);
  g_clear_pointer (&self->ncu, ws_ncu_results_unref);
  g_clear_pointer (&self->display_names, g_hash_table_unref);
  g_clear_pointer (&self->ranks, ws_ranks_unref);
  g_clear_pointer (&self->digest, ws_digest_unref);

  g_clear_pointer (&self->streams, g_array_unref);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->configs, g_array_unref);
  g_clear_pointer (&self->domains, g_array_unref);
  g_clear_pointer (&self->metrics, g_array_unref);
  g_clear_pointer (&self->sources, g_array_unref);
  /* A slice borrows its run's strings. */
  if (self->base != NULL)
    self->strings = NULL;
  g_clear_pointer (&self->strings, ws_string_table_free);
  g_clear_pointer (&self->base, ws_run_unref);
  provenance_clear (&self->prov);
  g_free (self);
}

void
ws_run_unref (WsRun *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    ws_run_free (self);
}

/**
 * ws_run_string:
 *
 * Returns: (transfer none): the string of @id; "" for an unknown id, so
 * that callers can print it without a check.
 */
const char *
ws_run_string (const WsRun *self, guint32 id)
{
  const char *str = ws_string_table_get (self->strings, id);

  return str != NULL ? str : "";
}

static guint
name_column (WsNameForm form)
{
  switch (form)
    {
      case WS_NAME_SHORT:
        return WS_KERNEL_COL_SHORT;
      case WS_NAME_MANGLED:
        return WS_KERNEL_COL_MANGLED;
      case WS_NAME_DISPLAY: /* made from the demangled names */
      case WS_NAME_DEMANGLED:
      default:
        return WS_KERNEL_COL_DEMANGLED;
    }
}

/**
 * ws_run_has_kernel_names:
 *
 * Returns: whether the run holds its kernels' names in @form, as the file
 * has them (an export before nsys 2022.1 has no mangled names; a lean load
 * reads one form)
 */
gboolean
ws_run_has_kernel_names (const WsRun *self, WsNameForm form)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return (self->kernels.columns & name_column (form)) != 0;
}

/**
 * ws_run_kernel_name_form:
 *
 * Returns: @form when the run holds kernel names in it, otherwise the
 * nearest form it holds: demangled for mangled (as nsys falls back), then
 * short, then mangled
 */
WsNameForm
ws_run_kernel_name_form (const WsRun *self, WsNameForm form)
{
  static const WsNameForm nearest[] = { WS_NAME_DEMANGLED, WS_NAME_SHORT, WS_NAME_MANGLED };

  g_return_val_if_fail (self != NULL, WS_NAME_DEMANGLED);

  if (ws_run_has_kernel_names (self, form))
    return form;
  for (guint i = 0; i < G_N_ELEMENTS (nearest); i++)
    if (ws_run_has_kernel_names (self, nearest[i]))
      return nearest[i];
  return WS_NAME_DEMANGLED;
}

static const guint32 *
name_array (const WsKernels *k, WsNameForm form)
{
  switch (form)
    {
      case WS_NAME_SHORT:
        return k->short_name;
      case WS_NAME_MANGLED:
        return k->mangled;
      case WS_NAME_DISPLAY:
      case WS_NAME_DEMANGLED:
      default:
        return k->demangled;
    }
}

/* The name of kernel @i in @form, or in the nearest form the run holds
 * (ws_run_kernel_name_form()); WS_STRING_NONE when it holds none. */
guint32
ws_run_kernel_name_id (const WsRun *self, gsize i, WsNameForm form)
{
  const guint32 *names;

  g_return_val_if_fail (i < self->kernels.n, WS_STRING_NONE);

  form = ws_run_kernel_name_form (self, form);
  names = name_array (&self->kernels, form);
  if (names == NULL)
    return WS_STRING_NONE;
  if (form == WS_NAME_DISPLAY)
    return ws_run_kernel_display_id (self, names[i]);
  /* A row without a mangled name (NULL in the file): nsys shows the
   * demangled one, and so do we. */
  if (names[i] == WS_STRING_NONE && names != self->kernels.demangled &&
      self->kernels.demangled != NULL)
    return self->kernels.demangled[i];
  return names[i];
}

/**
 * ws_run_kernel_display_id:
 * @demangled: the string id of a kernel's demangled name
 *
 * Returns: the string id of the kernel's display name: short, readable
 * and unique in the run; @demangled itself when the run has none
 */
guint32
ws_run_kernel_display_id (const WsRun *self, guint32 demangled)
{
  gpointer found;

  if (self->display_names == NULL)
    return demangled;
  found = g_hash_table_lookup (self->display_names, GUINT_TO_POINTER (demangled));
  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : demangled;
}

/**
 * ws_run_kernel_display:
 * @demangled: a kernel's demangled name
 *
 * Returns: (transfer none): the kernel's display name in this run, or
 * @demangled when the run has no kernel of that name
 */
const char *
ws_run_kernel_display (const WsRun *self, const char *demangled)
{
  guint32 id;

  g_return_val_if_fail (demangled != NULL, "");

  id = ws_string_table_lookup_id (self->strings, demangled);
  if (id == WS_STRING_NONE || self->display_names == NULL ||
      !g_hash_table_contains (self->display_names, GUINT_TO_POINTER (id)))
    return demangled;
  return ws_run_string (self, ws_run_kernel_display_id (self, id));
}

const char *
ws_run_kernel_name (const WsRun *self, gsize i, WsNameForm form)
{
  return ws_run_string (self, ws_run_kernel_name_id (self, i, form));
}

const WsStream *
ws_run_kernel_stream (const WsRun *self, gsize i)
{
  g_return_val_if_fail (i < self->kernels.n, NULL);

  if (self->kernels.stream == NULL)
    return NULL;
  return &g_array_index (self->streams, WsStream, self->kernels.stream[i]);
}

const WsLaunchConfig *
ws_run_kernel_config (const WsRun *self, gsize i)
{
  g_return_val_if_fail (i < self->kernels.n, NULL);

  if (self->kernels.config == NULL)
    return NULL;
  return &g_array_index (self->configs, WsLaunchConfig, self->kernels.config[i]);
}

const WsThread *
ws_run_thread (const WsRun *self, guint32 index)
{
  g_return_val_if_fail (index < self->threads->len, NULL);

  return &g_array_index (self->threads, WsThread, index);
}

/**
 * ws_run_thread_pid:
 * @thread: an index into the run's threads, as the event tables hold them
 *
 * Returns: the process of @thread, or %G_MAXUINT32 for an index the run
 * does not hold (no process has that pid)
 */
guint32
ws_run_thread_pid (const WsRun *self, guint32 thread)
{
  g_return_val_if_fail (self != NULL, G_MAXUINT32);

  return thread < self->threads->len ? g_array_index (self->threads, WsThread, thread).pid
                                     : G_MAXUINT32;
}

/**
 * ws_run_process_name:
 *
 * Returns: (transfer none) (nullable): the name of process @pid, when the
 * capture named it
 */
const char *
ws_run_process_name (const WsRun *self, guint32 pid)
{
  for (guint i = 0; i < self->prov.processes->len; i++)
    {
      const WsProcess *process = &g_array_index (self->prov.processes, WsProcess, i);

      if (process->pid == pid && process->name != NULL)
        return process->name;
    }
  return NULL;
}

/**
 * ws_run_gpu_name:
 *
 * Returns: (transfer none) (nullable): the name of GPU @device, when the
 * capture named it
 */
const char *
ws_run_gpu_name (const WsRun *self, gint32 device)
{
  for (guint i = 0; i < self->prov.gpus->len; i++)
    {
      const WsGpu *gpu = &g_array_index (self->prov.gpus, WsGpu, i);

      if (gpu->id == device && gpu->name != NULL)
        return gpu->name;
    }
  return NULL;
}

const char *
ws_run_nvtx_domain_name (const WsRun *self, guint16 domain)
{
  if (domain >= self->domains->len)
    return "";
  return ws_run_string (self, g_array_index (self->domains, WsNvtxDomain, domain).name);
}

/**
 * ws_run_display_name:
 *
 * Returns: (transfer none): the base name of the first file read, for titles.
 */
const char *
ws_run_display_name (const WsRun *self)
{
  const char *path;
  const char *slash;

  if (self->prov.files->len == 0)
    return "";
  path = g_ptr_array_index (self->prov.files, 0);
  slash = strrchr (path, G_DIR_SEPARATOR);
  return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

/* The events the run holds: what a job digest records of each rank. */
gsize
ws_run_n_events (const WsRun *self)
{
  return self->kernels.n + self->memops.n + self->replays.n + self->api.n + self->nvtx.n +
         self->marks.n + self->mem_usage.n + self->metric_samples.n;
}

/* The bytes the run's own arrays hold: what the benchmark divides by events. */
gsize
ws_run_memory (const WsRun *self)
{
  gsize total = 0;

  total += self->kernels.n *
           (2 * sizeof (gint64) + (self->kernels.stream != NULL ? 6 : 1) * sizeof (guint32));
  total += self->memops.n * (2 * sizeof (gint64) + sizeof (guint64) + 3 + 2 * sizeof (guint32));
  total += self->replays.n * (2 * sizeof (gint64) + 4 * sizeof (guint32));
  if (self->kernels.replay != NULL)
    total += self->kernels.n * sizeof (guint32);
  if (self->memops.replay != NULL)
    total += self->memops.n * sizeof (guint32);
  total +=
    self->api.n * (2 * sizeof (gint64) + (self->api.thread != NULL ? 4 : 1) * sizeof (guint32));
  total += self->nvtx.n * (2 * sizeof (gint64) + 3 * sizeof (guint32) + 2 * sizeof (guint16) + 1);
  total += self->marks.n * (sizeof (gint64) + 3 * sizeof (guint32) + sizeof (guint16));
  total += self->osrt.n * (2 * sizeof (gint64) + 2 * sizeof (guint32));
  total += self->cpu_samples.n * (2 * sizeof (gint64) + 3 * sizeof (guint32));
  total += self->mem_usage.n * (2 * sizeof (gint64) + sizeof (gint32) + 1);
  total += self->metric_samples.n * (sizeof (gint64) + sizeof (float));
  total += self->streams->len * sizeof (WsStream);
  total += self->threads->len * sizeof (WsThread);
  total += self->configs->len * sizeof (WsLaunchConfig);
  total += ws_string_table_memory (self->strings);
  return total;
}

/**
 * ws_run_source_count:
 *
 * Returns: (transfer none) (nullable): the source table that fed @what.
 */
const WsSourceCount *
ws_run_source_count (const WsRun *self, const char *what)
{
  for (guint i = 0; i < self->sources->len; i++)
    {
      const WsSourceCount *source = &g_array_index (self->sources, WsSourceCount, i);

      if (g_str_equal (source->what, what))
        return source;
    }
  return NULL;
}

/**
 * ws_run_get_summary:
 *
 * Returns: (transfer none) (nullable): the summary computed at load, with
 * demangled kernel names; %NULL when the run has no such data.
 */
const WsSummary *
ws_run_get_summary (const WsRun *run, WsSummaryKind kind)
{
  g_return_val_if_fail (kind < WS_N_SUMMARY_KINDS, NULL);

  return run->summaries[kind];
}

/* Whether the run holds the events that summary @kind adds up. */
gboolean
ws_run_has_summary_events (const WsRun *run, WsSummaryKind kind)
{
  switch (kind)
    {
      case WS_SUMMARY_KERN_SUM:
        return run->kernels.n > 0;
      case WS_SUMMARY_NVTX_SUM:
        return run->nvtx.n > 0;
      case WS_SUMMARY_API_SUM:
        return run->api.n > 0;
      case WS_SUMMARY_MEM_TIME_SUM:
      case WS_SUMMARY_MEM_SIZE_SUM:
        return run->memops.n > 0;
      case WS_SUMMARY_OSRT_SUM:
        return run->osrt.n > 0;
      case WS_N_SUMMARY_KINDS:
      default:
        return FALSE;
    }
}

/* Whether summary @kind has something to show: its events, or a summary
 * read from a CSV. */
gboolean
ws_run_has_summary_data (const WsRun *run, WsSummaryKind kind)
{
  if (kind < WS_N_SUMMARY_KINDS && run->summaries[kind] != NULL)
    return TRUE;
  return ws_run_has_summary_events (run, kind);
}

/**
 * ws_run_is_cpu_only:
 *
 * Whether @run holds CPU profiles and nothing of a GPU: opened from
 * py-spy, speedscope, collapsed-stack or cProfile files alone.
 */
gboolean
ws_run_is_cpu_only (const WsRun *run)
{
  return g_strcmp0 (run->prov.kind, "cpu-profile") == 0 && run->cpu_profiles->len > 0 &&
         run->kernels.n == 0 && run->memops.n == 0 && run->ncu == NULL && !run->has_kernel_table;
}

/**
 * ws_run_nvtx_instance:
 * @range: an NVTX range as `nvtx_sum` names it, "DOMAIN:NAME" (":NAME" in
 *   the default domain), or a bare NAME in any domain
 * @n: which instance, from 0, in the order they start
 *
 * Where the @n-th instance of the NVTX range is: what two runs are aligned
 * on ("step 3" with "step 3", or the third "forward" with the third).
 *
 * Returns: whether there is one
 */
gboolean
ws_run_nvtx_instance (const WsRun *run, const char *range, guint n, gint64 *start, gint64 *end)
{
  const char *colon;
  g_autofree char *domain = NULL;
  const char *name = range;
  guint seen = 0;

  g_return_val_if_fail (run != NULL && range != NULL, FALSE);

  colon = strchr (range, ':');
  if (colon != NULL)
    {
      domain = g_strndup (range, colon - range);
      name = colon + 1;
    }
  /* The ranges are sorted by start. */
  for (gsize i = 0; run->nvtx.name != NULL && i < run->nvtx.n; i++)
    if (g_strcmp0 (ws_run_string (run, run->nvtx.name[i]), name) == 0 &&
        (domain == NULL ||
         g_strcmp0 (ws_run_nvtx_domain_name (run, run->nvtx.domain[i]), domain) == 0) &&
        seen++ == n)
      {
        if (start != NULL)
          *start = run->nvtx.start[i];
        if (end != NULL)
          *end = run->nvtx.end[i];
        return TRUE;
      }
  return FALSE;
}

/**
 * ws_launch_config_describe:
 *
 * Returns: (transfer full): "grid 64×1×1, block 256×1×1, 16 registers,
 * 4096 B shared"
 */
char *
ws_launch_config_describe (const WsLaunchConfig *config)
{
  /* TRANSLATORS: a kernel's launch configuration: grid and block sizes, the
   * registers per thread, the bytes of shared memory */
  return g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "grid %u×%u×%u, block %u×%u×%u, %u register, %u B shared",
                 "grid %u×%u×%u, block %u×%u×%u, %u registers, %u B shared", config->registers),
    config->grid[0], config->grid[1], config->grid[2], config->block[0], config->block[1],
    config->block[2], config->registers, config->static_smem + config->dynamic_smem);
}

const char *
ws_memop_kind_label (guint kind)
{
  static const char *const labels[] = {
    "Unknown",
    "Host-to-Device",
    "Device-to-Host",
    "Host-to-Array",
    "Array-to-Host",
    "Array-to-Array",
    "Array-to-Device",
    "Device-to-Array",
    "Device-to-Device",
    "Host-to-Host",
    "Peer-to-Peer",
    "Unified Host-to-Device",
    "Unified Device-to-Host",
    "Unified Device-to-Device",
  };

  if (kind == WS_MEMOP_MEMSET)
    return "memset";
  if (kind < G_N_ELEMENTS (labels))
    return labels[kind];
  return "Unknown";
}

const char *
ws_mem_kind_label (guint kind)
{
  static const char *const labels[] = {
    "Pageable", "Pinned",        "Device",         "Array",
    "Managed",  "Device Static", "Managed Static", "Unknown",
  };

  if (kind < G_N_ELEMENTS (labels))
    return labels[kind];
  return "Unknown";
}

static int
compare_device_ids (gconstpointer a, gconstpointer b)
{
  gint32 x = *(const gint32 *) a, y = *(const gint32 *) b;

  return (x > y) - (x < y);
}

/**
 * ws_run_devices_used:
 * @pid: a process of the run (a rank), or %WS_RUN_ANY_PID
 *
 * The GPUs @pid used: the devices of the streams its kernels and memory
 * operations ran on (the kernels' deviceId), never a GPU the export merely
 * describes.  The one place a rank's GPUs are computed: the run index
 * (idle, findings), the ranks' GPU descriptions and the lanes ask it.
 *
 * Returns: (transfer full) (element-type gint32): the device ids, sorted
 */
GArray *
ws_run_devices_used (const WsRun *self, guint32 pid)
{
  GArray *devices = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autofree gboolean *used = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  g_return_val_if_fail (self != NULL, devices);

  used = g_new0 (gboolean, MAX (self->streams->len, 1));
  for (gsize k = 0; self->kernels.stream != NULL && k < self->kernels.n; k++)
    used[self->kernels.stream[k]] = TRUE;
  for (gsize m = 0; self->memops.stream != NULL && m < self->memops.n; m++)
    used[self->memops.stream[m]] = TRUE;
  for (guint s = 0; s < self->streams->len; s++)
    {
      const WsStream *stream = &g_array_index (self->streams, WsStream, s);

      if (!used[s] || (pid != WS_RUN_ANY_PID && stream->pid != pid))
        continue;
      if (g_hash_table_add (seen, GINT_TO_POINTER ((gintptr) stream->device_id + 1)))
        g_array_append_val (devices, stream->device_id);
    }
  g_array_sort (devices, compare_device_ids);
  return devices;
}
