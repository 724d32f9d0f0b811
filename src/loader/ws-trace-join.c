/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-format.h"
#include "ws-run-build.h"
#include "ws-run-merge.h"
#include "ws-trace-join.h"

/* An nsys export and a PyTorch profiler trace of the same run (torch.profiler
 * inside `nsys profile`) as one run: each table from the export where it
 * has rows, else from the trace, on the export's clock (docs/formats.md,
 * "PyTorch profiler traces", "A trace beside an nsys export"). */

static void
drop_kernels (WsKernels *k)
{
  g_free (k->start);
  g_free (k->end);
  g_free (k->demangled);
  g_free (k->short_name);
  g_free (k->mangled);
  g_free (k->stream);
  g_free (k->correlation);
  g_free (k->config);
  g_free (k->replay);
  memset (k, 0, sizeof *k);
}

static void
drop_memops (WsMemops *m)
{
  g_free (m->start);
  g_free (m->end);
  g_free (m->bytes);
  g_free (m->kind);
  g_free (m->src_kind);
  g_free (m->dst_kind);
  g_free (m->stream);
  g_free (m->correlation);
  g_free (m->replay);
  memset (m, 0, sizeof *m);
}

static void
drop_replays (WsGraphReplays *g)
{
  g_free (g->start);
  g_free (g->end);
  g_free (g->stream);
  g_free (g->correlation);
  g_free (g->graph);
  g_free (g->nodes);
  memset (g, 0, sizeof *g);
}

static void
drop_api (WsApiCalls *a)
{
  g_free (a->start);
  g_free (a->end);
  g_free (a->name);
  g_free (a->thread);
  g_free (a->correlation);
  g_free (a->return_value);
  memset (a, 0, sizeof *a);
}

static void
drop_nvtx (WsNvtxRanges *v)
{
  g_free (v->start);
  g_free (v->end);
  g_free (v->name);
  g_free (v->thread);
  g_free (v->color);
  g_free (v->domain);
  g_free (v->depth);
  g_free (v->style);
  memset (v, 0, sizeof *v);
}

static void
drop_mem_usage (WsMemUsage *u)
{
  g_free (u->time);
  g_free (u->bytes);
  g_free (u->device);
  g_free (u->mem_kind);
  memset (u, 0, sizeof *u);
}

/* The trace's sources that it still gives, named with its file. */
static void
keep_sources (WsRun *trace, const char *name, const char *const *kept)
{
  g_autoptr (GPtrArray) tables = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) whats = g_array_new (FALSE, FALSE, sizeof (WsSourceCount));

  for (guint i = 0; i < trace->sources->len; i++)
    {
      WsSourceCount source = g_array_index (trace->sources, WsSourceCount, i);

      if (!g_strv_contains (kept, source.what))
        continue;
      g_ptr_array_add (tables, g_strdup_printf ("%s: %s", name, source.table));
      g_array_append_val (whats, source);
    }
  g_array_set_size (trace->sources, 0);
  for (guint i = 0; i < whats->len; i++)
    {
      const WsSourceCount *source = &g_array_index (whats, WsSourceCount, i);

      ws_run_add_source (trace, source->what, g_ptr_array_index (tables, i), source->rows);
    }
}

static char *
count (gint64 value)
{
  GString *out = g_string_new (NULL);

  ws_format_int (out, value, TRUE);
  return g_string_free (out, FALSE);
}

/* What the export records of the GPU side, for its line in `info`. */
static char *
export_line (const WsRun *export, const char *name)
{
  g_autofree char *kernels = count ((gint64) export->kernels.n);
  g_autofree char *memops = count ((gint64) export->memops.n);
  g_autofree char *api = count ((gint64) export->api.n);

  /* TRANSLATORS: a file, then counts of what it gave a run read from an
   * nsys export and a PyTorch profiler trace together */
  return g_strdup_printf (_ ("%s: nsys export: the GPU side, %s kernels, %s memory operations, "
                             "%s CUDA API calls"),
                          name, kernels, memops, api);
}

/* Drops from @trace what @export holds; says what is left in @line. */
static void
trim_trace (const WsRun *export, WsRun *trace, const char *name, GString *line)
{
  const char *kept[16];
  guint n_kept = 0;
  gboolean gpu_side = export->kernels.n > 0 || export->api.n > 0 || export->memops.n > 0;

  if (gpu_side)
    {
      drop_kernels (&trace->kernels);
      drop_memops (&trace->memops);
      drop_replays (&trace->replays);
      drop_api (&trace->api);
      g_array_set_size (trace->prov.gpus, 0);
    }
  else if (trace->kernels.n + trace->api.n > 0)
    {
      kept[n_kept++] = "kernels";
      kept[n_kept++] = "memcpy";
      kept[n_kept++] = "memset";
      kept[n_kept++] = "cuda-api";
      kept[n_kept++] = "driver-api";
      g_autofree char *n = count ((gint64) trace->kernels.n);

      g_string_append_printf (line, _ (", the GPU side (%s kernels)"), n);
    }
  if (export->nvtx.n > 0)
    drop_nvtx (&trace->nvtx);
  else if (trace->nvtx.n > 0)
    {
      g_autofree char *n = count ((gint64) trace->nvtx.n);

      kept[n_kept++] = "nvtx-ranges";
      g_string_append_printf (line, _ (", %s record_function ranges as NVTX ranges"), n);
    }
  if (export->mem_usage.n > 0)
    drop_mem_usage (&trace->mem_usage);
  else if (trace->mem_usage.n > 0)
    {
      kept[n_kept++] = "gpu-memory";
      g_autofree char *n = count ((gint64) trace->mem_usage.n);

      g_string_append_printf (line, _ (", %s GPU memory events"), n);
    }
  if (trace->cpu_profiles->len > 0)
    {
      const WsSourceCount *ops = ws_run_source_count (trace, "cpu-ops");
      g_autofree char *n = count (ops != NULL ? ops->rows : 0);

      kept[n_kept++] = "cpu-ops";
      g_string_append_printf (line, _ (", the CPU-op profile (%s ops)"), n);
    }
  kept[n_kept] = NULL;
  keep_sources (trace, name, kept);
}

/* The ns that put @trace's times on @export's clock: both record the same
 * process, the export's session start and the trace's base time in UTC. */
static gboolean
clock_offset (const WsRun *export, const WsRun *trace, gint64 *offset)
{
  if (export->prov.session_start_utc_ns <= 0 || trace->prov.session_start_utc_ns <= 0)
    return FALSE;
  *offset = trace->prov.session_start_utc_ns - export->prov.session_start_utc_ns;
  return TRUE;
}

static void
shift_profiles (WsRun *trace, gint64 offset)
{
  for (guint p = 0; p < trace->cpu_profiles->len; p++)
    {
      WsCpuProfile *profile = g_ptr_array_index (trace->cpu_profiles, p);

      for (guint i = 0; i < profile->sample_time->len; i++)
        g_array_index (profile->sample_time, gint64, i) += offset;
    }
}

/**
 * ws_trace_join:
 * @export: (transfer full): the run of an nsys export, held by the caller
 *   alone
 * @trace: (transfer full): the run of a PyTorch profiler trace of the same
 *   process
 *
 * One run of the two: the export's tables, and the trace's where the
 * export has none (record_function ranges as NVTX ranges, GPU memory
 * events, the GPU side for an export without it) with the trace's CPU-op
 * profile, the trace's times moved onto the export's clock by the
 * difference of the trace's base time and the export's session start.
 * The run's contributions say what each file gave, one line each.
 *
 * Returns: (transfer full): the run
 */
WsRun *
ws_trace_join (WsRun *export, WsRun *trace, const char *export_path, const char *trace_path)
{
  g_autofree char *export_name = g_path_get_basename (export_path);
  g_autofree char *trace_name = g_path_get_basename (trace_path);
  g_autoptr (GString) line = g_string_new (NULL);
  g_autofree char *first = export_line (export, export_name);
  WsRun *runs[2] = { export, trace };
  gint64 offsets[2] = { 0, 0 };
  gboolean aligned;
  WsRun *joined;

  g_string_printf (line, _ ("%s: PyTorch profiler trace"), trace_name);
  trim_trace (export, trace, trace_name, line);
  aligned = clock_offset (export, trace, &offsets[1]);
  if (aligned)
    {
      g_autofree char *shift = count (offsets[1]);

      /* TRANSLATORS: how a trace's times were put on an export's clock */
      g_string_append_printf (
        line, _ ("; on the export's clock by its baseTimeNanoseconds (%s ns)"), shift);
    }
  else
    g_string_append (line, _ ("; no base time or session start: the clocks are not aligned"));
  shift_profiles (trace, offsets[1]);
  joined = ws_run_merge_views (runs, 2, offsets);
  if (!aligned)
    ws_run_add_warning (joined,
                        _ ("%s and %s record no common clock: the trace's times are "
                           "not aligned with the export's"),
                        trace_name, export_name);
  g_ptr_array_add (joined->prov.contributions, g_steal_pointer (&first));
  g_ptr_array_add (joined->prov.contributions, g_string_free (g_steal_pointer (&line), FALSE));
  ws_run_unref (export);
  ws_run_unref (trace);
  return joined;
}
