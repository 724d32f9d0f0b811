/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ws-cli.h"
#include "ws-graphs.h"
#include "ws-cpu-profile.h"
#include "ws-format.h"
#include "ws-ranks.h"
#include "ws-table-writer.h"

/* The event kinds `info` counts, in the order it prints them. */
static const char *const event_kinds[] = {
  "kernels",     "memcpy",     "memset",     "replays",    "cuda-api",    "driver-api", "nvtx",
  "nvtx-ranges", "nvtx-marks", "nvtx-other", "gpu-memory", "gpu-metrics", "os-runtime", "metrics",
};

static const char *
kind_label (const char *kind)
{
  if (g_strcmp0 (kind, "nsys-sqlite") == 0)
    return _ ("Nsight Systems SQLite export");
  if (g_strcmp0 (kind, "nsys-rep") == 0)
    return _ ("Nsight Systems report, read through its SQLite export (nsys export)");
  if (g_strcmp0 (kind, "ncu-rep") == 0)
    return _ ("Nsight Compute report, read through its raw CSV page (ncu --import)");
  if (g_strcmp0 (kind, "nvprof-sqlite") == 0)
    return _ ("nvprof export (SQLite)");
  if (g_strcmp0 (kind, "nvprof-log") == 0)
    return _ ("nvprof summary tables (console or --csv output: summaries, no events)");
  if (g_strcmp0 (kind, "nvprof-gpu-trace") == 0)
    return _ ("nvprof GPU trace (--print-gpu-trace: kernels and copies)");
  if (g_strcmp0 (kind, "kineto-json") == 0)
    return _ ("PyTorch profiler trace (Kineto JSON)");
  if (g_strcmp0 (kind, "cpu-profile") == 0)
    return _ ("CPU profile (speedscope JSON, collapsed stacks or cProfile text; no GPU data)");
  if (g_strcmp0 (kind, "nvprof-metrics") == 0)
    return _ ("nvprof metrics and events (--metrics, --events: per-kernel values, no events)");
  return kind;
}

static char *
gpu_line (const WsGpu *gpu)
{
  /* nvprof's metric output names the device and nothing else. */
  if (gpu->cc_major == 0 && gpu->sm_count == 0 && gpu->memory_bytes <= 0 &&
      gpu->bus_location == NULL)
    /* TRANSLATORS: GPU 0: Tesla V100-PCIE-32GB */
    return g_strdup_printf (_ ("GPU %d: %s"), gpu->id,
                            gpu->name != NULL ? gpu->name : _ ("unnamed"));

  g_autofree char *memory =
    g_format_size_full ((guint64) MAX (gpu->memory_bytes, 0), G_FORMAT_SIZE_IEC_UNITS);

  /* TRANSLATORS: GPU 0: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB, bus 0000:00:06.0) */
  return g_strdup_printf (_ ("GPU %d: %s (sm_%d%d, %d SMs, %s, bus %s)"), gpu->id,
                          gpu->name != NULL ? gpu->name : _ ("unnamed"), gpu->cc_major,
                          gpu->cc_minor, gpu->sm_count, memory,
                          gpu->bus_location != NULL ? gpu->bus_location : "?");
}

static int
compare_ints (gconstpointer a, gconstpointer b)
{
  const gint32 *x = a, *y = b;

  return (*x > *y) - (*x < *y);
}

/* GPUs named in TARGET_INFO_GPU, or else the device ids the events use. */
static GArray *
devices_seen (const WsRun *run)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint32));

  for (guint i = 0; i < run->streams->len; i++)
    {
      gint32 device = g_array_index (run->streams, WsStream, i).device_id;
      gboolean seen = FALSE;

      for (guint j = 0; j < ids->len; j++)
        seen |= g_array_index (ids, gint32, j) == device;
      if (!seen)
        g_array_append_val (ids, device);
    }
  g_array_sort (ids, compare_ints);
  return ids;
}

static int
compare_gpus (gconstpointer a, gconstpointer b)
{
  const WsGpu *x = a, *y = b;

  return (x->id > y->id) - (x->id < y->id);
}

/* Which rank is which, how they were numbered, how their clocks were put
 * together, and what is odd about the set. */
static void
append_ranks (GString *out, const WsRanks *ranks)
{
  g_autofree char *title = ws_ranks_title (ranks);
  g_autofree char *how = ws_ranks_describe (ranks);

  g_string_append_printf (out, "%-16s%s\n", _ ("Job:"), title);
  g_string_append_printf (out, "%-16s%s\n", _ ("Ranks:"), how);
  for (guint i = 0; i < ws_ranks_get_n (ranks); i++)
    {
      const WsRank *rank = ws_ranks_get (ranks, i);
      g_autofree char *base = g_path_get_basename (rank->file);
      g_autofree char *offset = ws_format_duration ((double) rank->offset);

      /* TRANSLATORS: rank 3: rank3.sqlite, python3 (pid 559), from “rank3”, clock +62.5 ms */
      g_string_append_printf (out, _ ("  rank %u: %s, %s (pid %u), from “%s”, clock +%s\n"),
                              rank->rank, base, rank->process != NULL ? rank->process : "?",
                              rank->pid, rank->how, offset);
      if (rank->gpus != NULL)
        {
          g_auto (GStrv) gpus = g_strsplit (rank->gpus, ";", -1);
          g_autofree char *list = g_strjoinv ("; ", gpus);

          /* TRANSLATORS: the GPUs a rank ran on: "NVIDIA H200 as device 1",
           * "NVIDIA H100 on vm at 0000:00:06.0" */
          g_string_append_printf (out, _ ("    on %s\n"), list);
        }
    }
  for (guint i = 0; i < ranks->notes->len; i++)
    g_string_append_printf (out, "%s %s\n", _ ("Note:"),
                            (const char *) g_ptr_array_index (ranks->notes, i));
}

static void
add_ranks_json (JsonBuilder *builder, const WsRanks *ranks)
{
  json_builder_set_member_name (builder, "ranks");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "numbered_by");
  json_builder_add_string_value (builder, ws_ranks_source_to_string (ranks->source));
  json_builder_set_member_name (builder, "clocks_aligned");
  json_builder_add_boolean_value (builder, ranks->aligned);
  json_builder_set_member_name (builder, "session_start_spread_ns");
  json_builder_add_int_value (builder, ranks->spread);
  json_builder_set_member_name (builder, "jobs");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ranks->jobs->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (ranks->jobs, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "ranks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ws_ranks_get_n (ranks); i++)
    {
      const WsRank *rank = ws_ranks_get (ranks, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "rank");
      json_builder_add_int_value (builder, rank->rank);
      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, rank->file);
      json_builder_set_member_name (builder, "process");
      json_builder_add_string_value (builder, rank->process);
      json_builder_set_member_name (builder, "pid");
      json_builder_add_int_value (builder, rank->pid);
      json_builder_set_member_name (builder, "file_pid");
      json_builder_add_int_value (builder, rank->file_pid);
      json_builder_set_member_name (builder, "numbered_from");
      json_builder_add_string_value (builder, rank->how);
      json_builder_set_member_name (builder, "session_start_utc_ns");
      json_builder_add_int_value (builder, rank->session_start);
      json_builder_set_member_name (builder, "offset_ns");
      json_builder_add_int_value (builder, rank->offset);
      json_builder_set_member_name (builder, "host");
      json_builder_add_string_value (builder, rank->host);
      json_builder_set_member_name (builder, "job");
      json_builder_add_string_value (builder, rank->job);
      json_builder_set_member_name (builder, "gpus");
      json_builder_add_string_value (builder, rank->gpus);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ranks->notes->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (ranks->notes, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

/* nvprof --metrics/--events: the kernels and what was collected of each. */
static void
append_nvprof_metrics (GString *out, const WsNcuResults *ncu)
{
  guint metrics = 0, events = 0;

  for (guint i = 0; i < ncu->metrics->len; i++)
    {
      const WsNcuMetric *m = g_ptr_array_index (ncu->metrics, i);

      if (m->section != NULL)
        events++;
      else
        metrics++;
    }
  g_string_append_printf (out, "%-16s%u\n", _ ("Kernels:"), ws_ncu_results_n_launches (ncu));
  g_string_append_printf (out, "%-16s%u\n", _ ("Metrics:"), metrics);
  g_string_append_printf (out, "%-16s%u\n", _ ("Event counters:"), events);
}

/* Each CPU profile: who wrote it and what it holds. */
static void
append_cpu_profiles (GString *out, const WsRun *run)
{
  for (guint i = 0; i < run->cpu_profiles->len; i++)
    {
      const WsCpuProfile *profile = g_ptr_array_index (run->cpu_profiles, i);
      g_autoptr (GString) number = g_string_new (NULL);
      gint64 total = ws_cpu_profile_total_ns (profile);

      g_string_append_printf (out, "%-16s%s\n", _ ("Profiler:"), ws_cpu_profile_profiler (profile));
      if (profile->title != NULL)
        g_string_append_printf (out, "%-16s%s\n", _ ("Title:"), profile->title);
      if (profile->functions->len > 0)
        {
          ws_format_int (number, profile->functions->len, TRUE);
          g_string_append_printf (out, "%-16s%s\n", _ ("Functions:"), number->str);
          g_string_truncate (number, 0);
          ws_format_int (number, profile->flat_calls, TRUE);
          g_string_append_printf (out, "%-16s%s\n", _ ("Calls:"), number->str);
        }
      if (ws_cpu_profile_has_stacks (profile))
        {
          g_string_truncate (number, 0);
          ws_format_int (number, (gint64) ws_cpu_profile_n_samples (profile), TRUE);
          g_string_append_printf (out, "%-16s%s\n", _ ("Samples:"), number->str);
          g_string_truncate (number, 0);
          ws_format_int (number, profile->stack_first->len, TRUE);
          g_string_append_printf (out, "%-16s%s\n", _ ("Stacks:"), number->str);
        }
      g_string_truncate (number, 0);
      ws_format_int (number, profile->frames->len, TRUE);
      g_string_append_printf (out, "%-16s%s\n", _ ("Frames:"), number->str);
      g_string_append_printf (out, "%-16s%u\n", _ ("Threads:"), profile->threads->len);
      if (total >= 0)
        {
          g_autofree char *text = ws_format_duration ((double) total);

          g_string_append_printf (out, "%-16s%s\n", _ ("Total time:"), text);
        }
      else
        {
          g_string_truncate (number, 0);
          ws_format_int (number, (gint64) (ws_cpu_profile_total_weight (profile, -1) + 0.5), TRUE);
          /* TRANSLATORS: the summed weight of a profile whose weights are counts */
          g_string_append_printf (out, "%-16s%s %s\n", _ ("Total weight:"), number->str,
                                  profile->unit);
        }
    }
}

static void
print_cpu_only (const WsRun *run, const char *path)
{
  g_autoptr (GString) out = g_string_new (NULL);

  g_string_append_printf (out, "%-16s%s\n", _ ("File:"), path);
  g_string_append_printf (out, "%-16s%s\n", _ ("Kind:"), kind_label (run->prov.kind));
  append_cpu_profiles (out, run);
  for (guint i = 0; i < run->cpu_profiles->len; i++)
    {
      const WsCpuProfile *profile = g_ptr_array_index (run->cpu_profiles, i);

      for (guint w = 0; w < profile->warnings->len; w++)
        g_string_append_printf (out, "%s %s\n", _ ("Warning:"),
                                (const char *) g_ptr_array_index (profile->warnings, w));
    }
  g_print ("%s", out->str);
}

/* The summaries read from tables (nvprof logs, nsys stats CSVs) where the
 * run has no events of their kind: what such a run holds. */
static gboolean
append_table_summaries (GString *out, const WsRun *run)
{
  static const struct
  {
    WsSummaryKind kind;
    const char *what;
  } kinds[] = {
    { WS_SUMMARY_KERN_SUM, N_ ("kernels") },
    { WS_SUMMARY_MEM_TIME_SUM, N_ ("memory ops") },
    { WS_SUMMARY_API_SUM, N_ ("CUDA API") },
  };
  gboolean any = FALSE;

  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      const WsSummary *summary = run->summaries[kinds[i].kind];
      g_autoptr (GString) rows = g_string_new (NULL);
      g_autoptr (GString) count = g_string_new (NULL);
      g_autofree char *total = NULL;

      if (summary == NULL || ws_run_has_summary_events (run, kinds[i].kind))
        continue;
      if (!any)
        g_string_append_printf (out, "\n%-14s %8s %12s %10s\n", _ ("Summaries"), _ ("names"),
                                _ ("calls"), _ ("time"));
      any = TRUE;
      ws_format_int (rows, summary->rows->len, TRUE);
      ws_format_int (count, ws_summary_count (summary), TRUE);
      total = ws_format_duration ((double) summary->grand_total);
      g_string_append_printf (out, "  %-12s %8s %12s %10s\n", _ (kinds[i].what), rows->str,
                              count->str, total);
    }
  return any;
}

static void
print_text (const WsRun *run, const char *path)
{
  const WsProvenance *prov = &run->prov;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GArray) devices = devices_seen (run);
  g_autofree char *span = ws_format_duration ((double) (run->end_time - run->origin));
  g_autoptr (GString) tables = g_string_new (NULL);
  gboolean has_tables;

  g_string_append_printf (out, "%-16s%s\n", _ ("File:"), path);
  g_string_append_printf (out, "%-16s%s\n", _ ("Kind:"), kind_label (prov->kind));
  /* A run read from an export and a trace of it: what each file gave. */
  for (guint i = 0; i < prov->contributions->len; i++)
    g_string_append_printf (out, "%-16s%s\n", i == 0 ? _ ("Read from:") : "",
                            (const char *) g_ptr_array_index (prov->contributions, i));
  if (g_strcmp0 (prov->kind, "nvprof-sqlite") == 0)
    g_string_append_printf (out, "%-16s%s\n", _ ("Version:"),
                            prov->schema_version != NULL ? prov->schema_version : "?");
  else if (g_str_has_prefix (prov->kind != NULL ? prov->kind : "", "nvprof-"))
    ; /* nvprof's text output records no version */
  else if (g_strcmp0 (prov->kind, "kineto-json") == 0)
    {
      /* A trace records no nsys version; a distributed job's its rank. */
      if (prov->dist_rank >= 0)
        g_string_append_printf (out, "%-16s%d of %d (%s)\n", _ ("Rank:"), prov->dist_rank,
                                prov->dist_world_size,
                                prov->dist_backend != NULL ? prov->dist_backend : "?");
    }
  else if (prov->nsys_version != NULL)
    g_string_append_printf (out, "%-16s%s (%s %s, %s)\n", _ ("nsys version:"), prov->nsys_version,
                            _ ("schema"), prov->schema_version != NULL ? prov->schema_version : "?",
                            prov->metadata_table);
  else
    g_string_append_printf (out, "%-16s%s\n", _ ("nsys version:"),
                            _ ("unknown: the file has no metadata table (nsys 2021.2 or older)"));
  if (prov->export_time != NULL)
    g_string_append_printf (out, "%-16s%s\n", _ ("Exported:"), prov->export_time);
  if (prov->host != NULL)
    g_string_append_printf (out, "%-16s%s\n", _ ("Host:"), prov->host);
  if (prov->driver_version != NULL)
    g_string_append_printf (out, "%-16s%s\n", _ ("Driver:"), prov->driver_version);

  g_array_sort (prov->gpus, compare_gpus);
  if (prov->gpus->len > 0)
    {
      g_string_append_printf (out, "%-16s%u\n", _ ("GPUs:"), prov->gpus->len);
      for (guint i = 0; i < prov->gpus->len; i++)
        {
          g_autofree char *line = gpu_line (&g_array_index (prov->gpus, WsGpu, i));

          g_string_append_printf (out, "  %s\n", line);
        }
    }
  else if (devices->len == 0)
    g_string_append_printf (out, "%-16s%s\n", _ ("GPUs:"), _ ("not recorded"));
  else
    {
      g_string_append_printf (out, "%-16s", _ ("GPUs:"));
      g_string_append_printf (out, _ ("%u device(s) used by the events, names not recorded (ids"),
                              devices->len);
      for (guint i = 0; i < devices->len; i++)
        g_string_append_printf (out, " %d", g_array_index (devices, gint32, i));
      g_string_append (out, ")\n");
    }

  for (guint i = 0; i < prov->processes->len; i++)
    {
      const WsProcess *process = &g_array_index (prov->processes, WsProcess, i);

      g_string_append_printf (out, "%-16s%s (pid %u)\n", i == 0 ? _ ("Processes:") : "",
                              process->name != NULL ? process->name : "?", process->pid);
    }
  if (run->ncu != NULL && run->ncu->nvprof)
    append_nvprof_metrics (out, run->ncu);
  else if (run->end_time > run->origin)
    g_string_append_printf (out, "%-16s%s\n", _ ("Time span:"), span);
  if (run->ranks != NULL)
    append_ranks (out, run->ranks);
  {
    WsGraphSummary graphs;
    g_autofree char *line = NULL;

    ws_graph_summary_compute (run, &graphs);
    line = ws_graph_summary_describe (&graphs);
    if (line != NULL)
      {
        g_autofree char *label = g_strdup_printf ("%-16s", _ ("CUDA graphs:"));

        ws_format_append_wrapped (out, label, "                ", line, 100);
      }
  }
  append_cpu_profiles (out, run);

  has_tables = append_table_summaries (tables, run);
  if (run->sources->len > 0 || !has_tables)
    {
      g_string_append_printf (out, "\n%-14s %12s  %s\n", _ ("Events"), _ ("rows"),
                              _ ("source table"));
      for (gsize i = 0; i < G_N_ELEMENTS (event_kinds); i++)
        {
          const WsSourceCount *source = ws_run_source_count (run, event_kinds[i]);
          g_autoptr (GString) rows = g_string_new (NULL);

          if (source == NULL)
            continue;
          ws_format_int (rows, source->rows, TRUE);
          g_string_append_printf (out, "  %-12s %12s  %s\n", source->what, rows->str,
                                  source->table);
        }
    }
  g_string_append (out, tables->str);
  if (!has_tables && !run->has_kernel_table)
    g_string_append_printf (out, "  %s\n", _ ("(no CUDA kernel data)"));

  for (guint i = 0; i < prov->warnings->len; i++)
    g_string_append_printf (out, "%s %s\n", _ ("Warning:"),
                            (const char *) g_ptr_array_index (prov->warnings, i));

  g_print ("%s", out->str);
}

static void
add_cpu_profiles_json (JsonBuilder *builder, const WsRun *run)
{
  json_builder_set_member_name (builder, "cpu_profiles");
  json_builder_begin_array (builder);
  for (guint i = 0; i < run->cpu_profiles->len; i++)
    {
      const WsCpuProfile *profile = g_ptr_array_index (run->cpu_profiles, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, profile->path);
      json_builder_set_member_name (builder, "format");
      json_builder_add_string_value (builder, profile->kind);
      json_builder_set_member_name (builder, "profiler");
      json_builder_add_string_value (builder, ws_cpu_profile_profiler (profile));
      json_builder_set_member_name (builder, "samples");
      json_builder_add_int_value (builder, (gint64) ws_cpu_profile_n_samples (profile));
      json_builder_set_member_name (builder, "stacks");
      json_builder_add_int_value (builder, profile->stack_first->len);
      json_builder_set_member_name (builder, "frames");
      json_builder_add_int_value (builder, profile->frames->len);
      json_builder_set_member_name (builder, "threads");
      json_builder_add_int_value (builder, profile->threads->len);
      json_builder_set_member_name (builder, "functions");
      json_builder_add_int_value (builder, profile->functions->len);
      json_builder_set_member_name (builder, "weight_unit");
      json_builder_add_string_value (builder, profile->unit);
      json_builder_set_member_name (builder, "total_ns");
      if (ws_cpu_profile_total_ns (profile) >= 0)
        json_builder_add_int_value (builder, ws_cpu_profile_total_ns (profile));
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
print_json (const WsRun *run, const char *path)
{
  const WsProvenance *prov = &run->prov;
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, path);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, prov->kind);
  json_builder_set_member_name (builder, "nsys_version");
  json_builder_add_string_value (builder, prov->nsys_version);
  json_builder_set_member_name (builder, "schema_version");
  json_builder_add_string_value (builder, prov->schema_version);
  json_builder_set_member_name (builder, "metadata_table");
  json_builder_add_string_value (builder, prov->metadata_table);
  json_builder_set_member_name (builder, "gpus");
  json_builder_begin_array (builder);
  for (guint i = 0; i < prov->gpus->len; i++)
    {
      const WsGpu *gpu = &g_array_index (prov->gpus, WsGpu, i);
      g_autofree char *cc = g_strdup_printf ("%d.%d", gpu->cc_major, gpu->cc_minor);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_int_value (builder, gpu->id);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, gpu->name);
      json_builder_set_member_name (builder, "sm_count");
      json_builder_add_int_value (builder, gpu->sm_count);
      json_builder_set_member_name (builder, "compute_capability");
      json_builder_add_string_value (builder, cc);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "origin_ns");
  json_builder_add_int_value (builder, run->origin);
  json_builder_set_member_name (builder, "end_ns");
  json_builder_add_int_value (builder, run->end_time);
  json_builder_set_member_name (builder, "events");
  json_builder_begin_object (builder);
  for (guint i = 0; i < run->sources->len; i++)
    {
      const WsSourceCount *source = &g_array_index (run->sources, WsSourceCount, i);

      json_builder_set_member_name (builder, source->what);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "table");
      json_builder_add_string_value (builder, source->table);
      json_builder_set_member_name (builder, "rows");
      json_builder_add_int_value (builder, source->rows);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "loaded");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kernels");
  json_builder_add_int_value (builder, (gint64) run->kernels.n);
  json_builder_set_member_name (builder, "memory_operations");
  json_builder_add_int_value (builder, (gint64) run->memops.n);
  json_builder_set_member_name (builder, "graph_replays");
  json_builder_add_int_value (builder, (gint64) run->replays.n);
  json_builder_set_member_name (builder, "cuda_api");
  json_builder_add_int_value (builder, (gint64) run->api.n);
  json_builder_set_member_name (builder, "nvtx_ranges");
  json_builder_add_int_value (builder, (gint64) run->nvtx.n);
  json_builder_set_member_name (builder, "nvtx_marks");
  json_builder_add_int_value (builder, (gint64) run->marks.n);
  json_builder_set_member_name (builder, "gpu_memory_events");
  json_builder_add_int_value (builder, (gint64) run->mem_usage.n);
  json_builder_set_member_name (builder, "gpu_metric_samples");
  json_builder_add_int_value (builder, (gint64) run->metric_samples.n);
  json_builder_set_member_name (builder, "bytes");
  json_builder_add_int_value (builder, (gint64) ws_run_memory (run));
  json_builder_end_object (builder);
  if (run->ranks != NULL)
    add_ranks_json (builder, run->ranks);
  add_cpu_profiles_json (builder, run);
  json_builder_set_member_name (builder, "contributions");
  json_builder_begin_array (builder);
  for (guint i = 0; i < prov->contributions->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (prov->contributions, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < prov->warnings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (prov->warnings, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = ws_cli_json_text (root);
  g_print ("%s", text);
}

int
ws_cli_info (int argc, char **argv)
{
  GOptionEntry entries[] = {
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new (_ ("FILE — describe a run"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_auto (WsCliFrame) frame = { 0 };
  WsOutputFormat format;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Prints the kind of file, the nsys and schema versions, the GPUs, "
                "and how many rows each kind of event has."));
  ws_cli_frame_init (&frame, context, argv[0], WS_CLI_TABLE | WS_CLI_JSON,
                     N_ ("Output format: table (default) or json"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, NULL))
    return WS_EXIT_BAD_INPUT;
  format = frame.format;

  ws_cli_warnings_in_report ();
  run = ws_cli_load (argv + 1, WS_LOAD_ALL | WS_LOAD_NO_SUMMARIES, &error);
  if (run == NULL)
    return ws_cli_fail (error);

  if (format == WS_FORMAT_JSON)
    print_json (run, argv[1]);
  else if (ws_run_is_cpu_only (run))
    print_cpu_only (run, argv[1]);
  else
    print_text (run, argv[1]);
  return WS_EXIT_OK;
}
