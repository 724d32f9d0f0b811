/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-findings-bands.h"
#include "ws-findings-private.h"
#include "ws-format.h"

/* The checks that can run on summary tables alone (an nvprof console log,
 * `nsys stats` CSVs): counts, totals and averages, no event and so no
 * loop, place or busy time.  They raise the same findings as the checks
 * on events, with what a summary can say; a run with events of the kind
 * is left to those. */

/* A copy between host and device whose average is under this: at PCIe
 * rates (10 GB/s and more) it moves under about 100 kB, where the fixed
 * cost of a copy dominates. */
#define SMALL_COPY_AVG_NS 10000.0
#define SMALL_MIN_COPIES 10
/* As the check on events: kernels shorter than 5 µs, at least 20 of them. */
#define TINY_KERNEL_NS 5000.0
#define LAUNCH_MIN_TINY 20

static gboolean
crosses_host (const char *name)
{
  return strstr (name, "Host-to-Device") != NULL || strstr (name, "Device-to-Host") != NULL ||
         strstr (name, "HtoD") != NULL || strstr (name, "DtoH") != NULL;
}

/* The summed count and total of the API rows whose name starts with one of
 * @prefixes. */
static void
api_calls (const WsSummary *api, const char *const *prefixes, gint64 *count, gint64 *total)
{
  *count = 0;
  *total = 0;
  if (api == NULL)
    return;
  for (guint i = 0; i < api->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (api->rows, WsSummaryRow, i);

      for (guint p = 0; prefixes[p] != NULL; p++)
        if (g_str_has_prefix (row->name, prefixes[p]) &&
            (row->name[strlen (prefixes[p])] == '\0' || row->name[strlen (prefixes[p])] == '_'))
          {
            *count += row->count;
            *total += row->total;
            break;
          }
    }
}

static gint64
summary_total (const WsSummary *summary)
{
  gint64 total = 0;

  if (summary == NULL)
    return 0;
  for (guint i = 0; i < summary->rows->len; i++)
    total += g_array_index (summary->rows, WsSummaryRow, i).total;
  return total;
}

static const char *const memcpy_calls[] = { "cudaMemcpy",
                                            "cudaMemcpyAsync",
                                            "cuMemcpyHtoD",
                                            "cuMemcpyDtoH",
                                            "cuMemcpyHtoDAsync",
                                            "cuMemcpyDtoHAsync",
                                            NULL };
static const char *const launch_calls[] = { "cudaLaunch", "cudaLaunchKernel", "cuLaunchKernel",
                                            NULL };
static const char *const graph_launch_calls[] = { "cudaGraphLaunch", "cuGraphLaunch", NULL };

/* A summary's kernels include those that CUDA graph replays ran, which it
 * cannot tell apart (docs/cuda-graphs.md).  A kernel launch call launches
 * at most one kernel, so at most @calls kernels were launched one by one;
 * the others ran in graphs, paying one launch per replay.  Bounds @tiny
 * and @launches by that; returns the kernels that ran in graphs at least. */
static gint64
leave_out_graphs (const WsSummary *api, gint64 calls, gint64 *tiny, gint64 *tiny_time,
                  gint64 *launches, gint64 *graph_launches)
{
  gint64 graph_time, in_graphs, alone;

  api_calls (api, graph_launch_calls, graph_launches, &graph_time);
  if (*graph_launches == 0)
    return 0;
  in_graphs = MAX (*launches - calls, 0);
  alone = MIN (*tiny, calls);
  /* Their GPU time at the short kernels' average. */
  if (*tiny > 0)
    *tiny_time = (gint64) ((double) *tiny_time * (double) alone / (double) *tiny);
  *tiny = alone;
  *launches = calls + *graph_launches;
  return in_graphs;
}

static void
check_transfers (const WsRun *run, GPtrArray *findings)
{
  const WsSummary *memops = ws_run_get_summary (run, WS_SUMMARY_MEM_TIME_SUM);
  const WsSummary *kernels = ws_run_get_summary (run, WS_SUMMARY_KERN_SUM);
  g_autoptr (WsFinding) finding = NULL;
  g_autoptr (GString) kinds = g_string_new (NULL);
  g_autofree char *count_str = NULL, *avg_str = NULL, *time_str = NULL, *share_str = NULL;
  gint64 copies = 0, time = 0, gpu_time, call_count, call_time;
  double share, avg;

  if (memops == NULL || ws_run_has_summary_events (run, WS_SUMMARY_MEM_TIME_SUM))
    return;
  for (guint i = 0; i < memops->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (memops->rows, WsSummaryRow, i);
      g_autoptr (GString) n = g_string_new (NULL);

      if (!crosses_host (row->name) || row->count < SMALL_MIN_COPIES ||
          (double) row->total / (double) row->count >= SMALL_COPY_AVG_NS)
        continue;
      copies += row->count;
      time += row->total;
      ws_format_int (n, row->count, TRUE);
      g_string_append_printf (kinds, "%s%s %s", kinds->len > 0 ? ", " : "", n->str, row->name);
    }
  if (copies == 0)
    return;

  gpu_time = summary_total (memops) + summary_total (kernels);
  share = 100.0 * (double) time / (double) MAX (gpu_time, 1);
  avg = (double) time / (double) copies;
  finding = ws_finding_new (WS_FINDING_SMALL_TRANSFERS);
  ws_findings_bands_judge (WS_FINDINGS_BANDS_SUMMARY_TRANSFERS, share, &finding->severity);
  finding->cost = time;
  finding->title = g_strdup (_ ("Many small memory transfers"));
  count_str = ws_findings_count_string ((double) copies);
  avg_str = ws_format_duration (avg);
  time_str = ws_format_duration ((double) time);
  share_str = ws_findings_percent_string (share);
  /* TRANSLATORS: "228,119 copies between host and device of 3.10 µs on average (228,119 [CUDA memcpy Host-to-Device]): 707 ms, 52.1% of the GPU time in the summary." */
  finding->summary = g_strdup_printf (
    _ ("%s copies between host and device of %s on average (%s): %s, %s of the GPU time in the "
       "summary."),
    count_str, avg_str, kinds->str, time_str, share_str);
  finding->rule = g_strdup_printf (
    _ ("From a summary table (no events): raised for copy rows between host and device of at "
       "least %d copies averaging under 10 µs, which at PCIe rates move under about 100 kB each; "
       "severe when they take more than %.0f%% of the GPU time in the summary, medium from %.0f%%, "
       "minor below."),
    SMALL_MIN_COPIES, ws_findings_bands[WS_FINDINGS_BANDS_SUMMARY_TRANSFERS].severe.bound,
    ws_findings_bands[WS_FINDINGS_BANDS_SUMMARY_TRANSFERS].medium.bound);
  finding->fix = g_strdup (_ ("Batch small copies into one larger copy or keep the data on the "
                              "GPU; use pinned memory and cudaMemcpyAsync so that copies overlap "
                              "with work."));
  ws_finding_add_note (finding, _ ("Read from summary tables: no copy sizes, times or places are "
                                   "known, only counts and averages."));
  ws_finding_add_evidence (finding, "copies", _ ("Copies averaging under 10 µs"), WS_UNIT_COUNT,
                           (double) copies);
  ws_finding_add_evidence_text (finding, "kinds", _ ("Kinds"), kinds->str);
  ws_finding_add_evidence (finding, "avg_copy_ns", _ ("Average copy"), WS_UNIT_NS, avg);
  ws_finding_add_evidence (finding, "gpu_time_ns", _ ("GPU time of these copies"), WS_UNIT_NS,
                           (double) time);
  ws_finding_add_evidence (finding, "gpu_time_share_pct", _ ("Share of the GPU time"),
                           WS_UNIT_PERCENT, share);
  api_calls (ws_run_get_summary (run, WS_SUMMARY_API_SUM), memcpy_calls, &call_count, &call_time);
  if (call_count > 0)
    {
      ws_finding_add_evidence (finding, "copy_calls", _ ("Copy calls"), WS_UNIT_COUNT,
                               (double) call_count);
      ws_finding_add_evidence (finding, "call_time_ns", _ ("Time in the copy calls"), WS_UNIT_NS,
                               (double) call_time);
    }
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}

/* The fix, and what the summary says of graphs where it has some: the
 * kernels of replays are no short kernels paying a launch of their own. */
static void
describe_graphs (WsFinding *finding, gint64 in_graphs, gint64 graph_launches)
{
  g_autofree char *kernels_str = NULL, *launches_str = NULL, *note = NULL;

  if (graph_launches == 0)
    {
      finding->fix = g_strdup (_ ("Give each launch more work (fuse kernels, larger batches) or "
                                  "capture the sequence in a CUDA graph, so that launch cost no "
                                  "longer paces the GPU."));
      return;
    }
  finding->fix = g_strdup (_ ("Give each launch more work (fuse kernels, larger batches), or "
                              "capture these kernels too in the CUDA graphs the run already "
                              "replays, so that launch cost no longer paces the GPU."));
  kernels_str = ws_findings_count_string ((double) in_graphs);
  launches_str = ws_findings_count_string ((double) graph_launches);
  /* TRANSLATORS: "At least 3,640 of the summary's kernels ran in 40 CUDA graph replays, which it cannot tell apart: only the kernels of the launch calls count, a replay as one launch." */
  note = g_strdup_printf (_ ("At least %s of the summary's kernels ran in %s CUDA graph replays, "
                             "which it cannot tell apart: only the kernels of the launch calls "
                             "count, a replay as one launch."),
                          kernels_str, launches_str);
  ws_finding_add_note (finding, note);
  ws_finding_add_evidence (finding, "graph_launches", _ ("CUDA graph launches"), WS_UNIT_COUNT,
                           (double) graph_launches);
  ws_finding_add_evidence (finding, "graph_kernels", _ ("Kernels in CUDA graph replays (left out)"),
                           WS_UNIT_COUNT, (double) in_graphs);
}

static void
check_launch (const WsRun *run, GPtrArray *findings)
{
  const WsSummary *kernels = ws_run_get_summary (run, WS_SUMMARY_KERN_SUM);
  g_autoptr (WsFinding) finding = NULL;
  g_autofree char *count_str = NULL, *avg_str = NULL, *call_str = NULL, *share_str = NULL;
  g_autofree char *all_str = NULL;
  gint64 tiny = 0, tiny_time = 0, launches = 0, call_count, call_time;
  gint64 in_graphs, graph_launches = 0;
  double call_avg = 0, share;
  guint rows = 0;

  if (kernels == NULL || ws_run_has_summary_events (run, WS_SUMMARY_KERN_SUM))
    return;
  api_calls (ws_run_get_summary (run, WS_SUMMARY_API_SUM), launch_calls, &call_count, &call_time);
  if (call_count > 0)
    call_avg = (double) call_time / (double) call_count;
  for (guint i = 0; i < kernels->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (kernels->rows, WsSummaryRow, i);
      double avg = (double) row->total / (double) MAX (row->count, 1);

      launches += row->count;
      if (avg < TINY_KERNEL_NS || avg < call_avg)
        {
          tiny += row->count;
          tiny_time += row->total;
          rows++;
        }
    }
  in_graphs = leave_out_graphs (ws_run_get_summary (run, WS_SUMMARY_API_SUM), call_count, &tiny,
                                &tiny_time, &launches, &graph_launches);
  if (tiny < LAUNCH_MIN_TINY)
    return;

  share = 100.0 * (double) tiny / (double) launches;
  finding = ws_finding_new (WS_FINDING_LAUNCH_OVERHEAD);
  ws_findings_bands_judge (WS_FINDINGS_BANDS_SUMMARY_LAUNCH, share, &finding->severity);
  finding->cost = tiny_time;
  finding->title = g_strdup (_ ("Kernels too short for their launch cost"));
  count_str = ws_findings_count_string ((double) tiny);
  all_str = ws_findings_count_string ((double) launches);
  share_str = ws_findings_percent_string (share);
  avg_str = ws_format_duration ((double) tiny_time / (double) tiny);
  if (call_count > 0)
    {
      call_str = ws_format_duration (call_avg);
      /* TRANSLATORS: "19,664 of the 26,264 launches (74.9%) are of kernels averaging under 5 µs or their launch call (2.30 µs on average; the launch call 4.81 µs)." */
      finding->summary = g_strdup_printf (
        _ ("%s of the %s launches (%s) are of kernels averaging under 5 µs or their launch call "
           "(%s on average; the launch call %s)."),
        count_str, all_str, share_str, avg_str, call_str);
    }
  else
    finding->summary = g_strdup_printf (
      _ ("%s of the %s launches (%s) are of kernels averaging under 5 µs (%s on average)."),
      count_str, all_str, share_str, avg_str);
  /* The medium band's bound, 50%, reads "half" here (tests/findings/test-findings-bands.c). */
  finding->rule = g_strdup_printf (
    _ ("From a summary table (no events): raised for at least 20 launches of kernels whose "
       "average is under 5 µs or under the launch call's; medium when they are half of the "
       "launches or more, minor below (how idle the GPU was needs events)."));
  ws_finding_add_note (finding, _ ("Read from summary tables: no loop, place or GPU busy time is "
                                   "known, only counts and averages."));
  ws_finding_add_evidence (finding, "tiny_kernels", _ ("Short kernels"), WS_UNIT_COUNT,
                           (double) tiny);
  ws_finding_add_evidence (finding, "short_kernel_names", _ ("Kernels of that kind"), WS_UNIT_COUNT,
                           rows);
  ws_finding_add_evidence (finding, "kernels", _ ("Kernels launched"), WS_UNIT_COUNT,
                           (double) launches);
  ws_finding_add_evidence (finding, "tiny_share_pct", _ ("Share of short kernels"), WS_UNIT_PERCENT,
                           share);
  ws_finding_add_evidence (finding, "avg_kernel_ns", _ ("Average short kernel"), WS_UNIT_NS,
                           (double) tiny_time / (double) tiny);
  ws_finding_add_evidence (finding, "tiny_gpu_time_ns", _ ("GPU time of the short kernels"),
                           WS_UNIT_NS, (double) tiny_time);
  if (call_count > 0)
    ws_finding_add_evidence (finding, "avg_launch_ns", _ ("Average launch call"), WS_UNIT_NS,
                             call_avg);
  describe_graphs (finding, in_graphs, graph_launches);
  g_ptr_array_add (findings, g_steal_pointer (&finding));
}

void
ws_findings_check_summaries (WsFindingsCtx *ctx, GPtrArray *findings)
{
  check_transfers (ctx->run, findings);
  check_launch (ctx->run, findings);
}
