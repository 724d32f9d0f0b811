/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-lanes.h"
#include "ws-ranks.h"
#include "ws-run-build.h"
#include "ws-run-loader.h"
#include "ws-sort.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

static gint64
sql_int (const char *name, const char *sql)
{
  g_autofree char *path = ws_test_data ("nsys", name, NULL);
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

static void
assert_sorted (const WsRun *run, const WsTrack *track)
{
  for (gsize i = 1; i < track->n; i++)
    {
      gint64 s0 = ws_track_start (track, run, i - 1), s1 = ws_track_start (track, run, i);

      g_assert_cmpint (s0, <=, s1);
      if (s0 == s1)
        g_assert_cmpint (ws_track_end (track, run, i - 1), >=, ws_track_end (track, run, i));
    }
}

static const WsLane *
lane_of_stream (const WsRun *run, const WsLanes *lanes, gint32 stream_id)
{
  for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);

      if (lane->kind == WS_LANE_STREAM &&
          g_array_index (run->streams, WsStream, lane->stream).stream_id == stream_id)
        return lane;
    }
  g_assert_not_reached ();
}

#define PROBE "v2025.3_h100_probe.sqlite"

/* The probe: one H100 with 7 of the metrics shown, its memory, streams 7
 * and 13–16 (one imbalanced kernel each); one process whose main thread
 * has NVTX, CUDA API, OS runtime calls and CPU samples, and three other
 * threads: 3197 and 3201 with OS runtime calls, 3198 with CPU samples. */
static void
test_probe_lane_order (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  static const WsLaneKind kinds[] = {
    WS_LANE_GROUP,   WS_LANE_METRIC, WS_LANE_METRIC, WS_LANE_METRIC,  WS_LANE_METRIC,
    WS_LANE_METRIC,  WS_LANE_METRIC, WS_LANE_METRIC, WS_LANE_MEMORY,  WS_LANE_STREAM,
    WS_LANE_STREAM,  WS_LANE_STREAM, WS_LANE_STREAM, WS_LANE_STREAM,  WS_LANE_GROUP,
    WS_LANE_NVTX,    WS_LANE_API,    WS_LANE_OSRT,   WS_LANE_SAMPLES, WS_LANE_OSRT,
    WS_LANE_SAMPLES, WS_LANE_OSRT,
  };
  static const guint32 tids[] = { 3180, 3180, 3180, 3180, 3197, 3198, 3201 };
  static const char *const metrics[] = {
    "SMs Active [Throughput %]",           "SM Issue [Throughput %]",
    "Tensor Active [Throughput %]",        "DRAM Read Bandwidth [Throughput %]",
    "DRAM Write Bandwidth [Throughput %]", "PCIe RX Throughput [Throughput %]",
    "PCIe TX Throughput [Throughput %]",
  };
  static const gint32 streams[] = { 7, 13, 14, 15, 16 };

  g_assert_cmpuint (ws_lanes_get_n_lanes (lanes), ==, G_N_ELEMENTS (kinds));
  for (guint l = 0; l < G_N_ELEMENTS (kinds); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);

      g_assert_cmpint (lane->kind, ==, kinds[l]);
      if (lane->kind == WS_LANE_GROUP)
        g_assert_cmpuint (lane->group, ==, WS_LANE_NONE);
      else
        g_assert_cmpuint (lane->group, ==, l < 14 ? 0 : 14);
    }
  g_assert_cmpint (ws_lanes_get_lane (lanes, 0)->group_kind, ==, WS_GROUP_GPU);
  g_assert_cmpint (ws_lanes_get_lane (lanes, 0)->device, ==, 0);
  g_assert_cmpint (ws_lanes_get_lane (lanes, 14)->group_kind, ==, WS_GROUP_PROCESS);
  g_assert_cmpuint (ws_lanes_get_lane (lanes, 14)->pid, ==, 3180);
  for (guint t = 0; t < G_N_ELEMENTS (tids); t++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, 15 + t);

      g_assert_cmpuint (g_array_index (run->threads, WsThread, lane->thread).tid, ==, tids[t]);
      g_assert_cmpuint (ws_lanes_find_thread_lane (lanes, lane->thread, lane->kind), ==, 15 + t);
    }

  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, 1 + m);
      const WsGpuMetric *metric = &g_array_index (run->metrics, WsGpuMetric, lane->metric);
      g_autofree char *sql = g_strdup_printf (
        "SELECT count(*) FROM GPU_METRICS g JOIN TARGET_INFO_GPU_METRICS t "
        "ON t.metricId = g.metricId AND t.typeId = g.typeId WHERE t.metricName = '%s'",
        metrics[m]);

      g_assert_cmpstr (ws_run_string (run, metric->name), ==, metrics[m]);
      g_assert_true (lane->percent);
      g_assert_cmpuint (lane->series.n, ==, sql_int (PROBE, sql));
    }

  for (guint s = 0; s < G_N_ELEMENTS (streams); s++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, 9 + s);

      g_assert_cmpint (g_array_index (run->streams, WsStream, lane->stream).stream_id, ==,
                       streams[s]);
      g_assert_cmpuint (ws_lanes_find_stream_lane (lanes, lane->stream), ==, 9 + s);
    }
}

static void
test_probe_stream_lanes (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  const WsLane *lane7 = lane_of_stream (run, lanes, 7);
  const WsTrack *track = &lane7->tracks[0];
  /* Durations of the four imbalanced kernels, streams 13 to 16, by SQL:
   * SELECT streamId, end - start FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE streamId > 7 */
  static const gint64 imbalanced[] = { 6016, 10496, 19585, 37601 };
  gsize kernels = 0, memcpys = 0, from, to;

  g_assert_cmpuint (lane7->n_tracks, ==, 1);
  g_assert_cmpuint (track->n, ==,
                    sql_int (PROBE, "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                    "WHERE streamId = 7) + (SELECT count(*) FROM "
                                    "CUPTI_ACTIVITY_KIND_MEMCPY WHERE streamId = 7)"));
  for (gsize i = 0; i < track->n; i++)
    {
      if (ws_event_ref_kind (track->events[i]) == WS_EVENT_KERNEL)
        kernels++;
      else if (ws_event_ref_kind (track->events[i]) == WS_EVENT_MEMOP)
        memcpys++;
    }
  g_assert_cmpuint (kernels, ==, 332);
  g_assert_cmpuint (memcpys, ==, 103);
  assert_sorted (run, track);

  /* Busy time: all of it, and clipped to the "compute" range's span
   * [451471271, 451628130), both by SQL over the export. */
  g_assert_cmpint (track->block_busy[track->n_blocks], ==, 20672719);
  g_assert_cmpint (ws_track_busy (track, run, 0, track->n, G_MININT64 / 2, G_MAXINT64 / 2), ==,
                   20672719);
  from = ws_track_first_ending_after (track, run, 451471271);
  to = ws_track_lower_bound (track, run, 451628130, from);
  g_assert_cmpint (ws_track_busy (track, run, from, to, 451471271, 451628130), ==, 107109);

  /* The kernel with correlation id 452 runs over [451833283, 451884356). */
  {
    WsEventRef hit = ws_track_event_at (track, run, 451850000, 0);

    g_assert_cmpint (ws_event_ref_kind (hit), ==, WS_EVENT_KERNEL);
    g_assert_cmpuint (run->kernels.correlation[ws_event_ref_index (hit)], ==, 452);
    g_assert_cmpint (ws_event_start (run, hit), ==, 451833283);
    g_assert_cmpint (ws_event_end (run, hit), ==, 451884356);
    g_assert_cmpuint (ws_lanes_find_event (lanes, hit, NULL), ==,
                      ws_lanes_find_stream_lane (lanes, lane7->stream));
  }

  for (guint s = 0; s < G_N_ELEMENTS (imbalanced); s++)
    {
      const WsLane *lane = lane_of_stream (run, lanes, 13 + (gint32) s);

      g_assert_cmpuint (lane->tracks[0].n, ==, 1);
      g_assert_cmpint (lane->tracks[0].block_busy[1], ==, imbalanced[s]);
      g_assert_cmpstr (
        ws_run_kernel_name (run, ws_event_ref_index (lane->tracks[0].events[0]), WS_NAME_SHORT), ==,
        "imbalanced");
    }
}

/* NVTX rows are nesting depths: by SQL, a range's depth is the number of
 * ranges of its thread that enclose it. */
static void
test_probe_nvtx_rows (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  const WsLane *nvtx = ws_lanes_get_lane (lanes, 15);
  const WsLane *api = ws_lanes_get_lane (lanes, 16);
#define DEPTH_SQL                                                                                  \
  "SELECT count(*) FROM (SELECT (SELECT count(*) FROM NVTX_EVENTS p WHERE p.eventType = 59 "       \
  "AND p.globalTid = n.globalTid AND p.start <= n.start AND p.end >= n.end "                       \
  "AND p.rowid != n.rowid) AS depth FROM NVTX_EVENTS n WHERE n.eventType = 59) WHERE depth = %u"

  g_assert_cmpint (nvtx->kind, ==, WS_LANE_NVTX);
  g_assert_cmpuint (nvtx->n_tracks, ==, 2);
  for (guint d = 0; d < nvtx->n_tracks; d++)
    {
      g_autofree char *sql = g_strdup_printf (DEPTH_SQL, d);

      g_assert_cmpuint (nvtx->tracks[d].n, ==, sql_int (PROBE, sql));
      assert_sorted (run, &nvtx->tracks[d]);
      for (gsize i = 0; i < nvtx->tracks[d].n; i++)
        g_assert_cmpuint (run->nvtx.depth[ws_event_ref_index (nvtx->tracks[d].events[i])], ==, d);
    }
  g_assert_cmpuint (nvtx->tracks[0].n, ==, 9);
  g_assert_cmpuint (nvtx->tracks[1].n, ==, 137);
  g_assert_cmpuint (nvtx->marks.n, ==, 1);
  g_assert_cmpstr (ws_run_string (run, run->marks.name[ws_event_ref_index (nvtx->marks.events[0])]),
                   ==, "done");
  g_assert_cmpuint (g_array_index (run->threads, WsThread, nvtx->thread).tid, ==, 3180);

  g_assert_cmpint (api->kind, ==, WS_LANE_API);
  g_assert_cmpuint (api->tracks[0].n, ==,
                    sql_int (PROBE, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
  assert_sorted (run, &api->tracks[0]);

  /* The launch of the first "compute" kernel (correlation 449) happened
   * inside "compute" and its first "fma_heavy". */
  {
    gint64 launch = sql_int (PROBE, "SELECT start FROM CUPTI_ACTIVITY_KIND_RUNTIME "
                                    "WHERE correlationId = 449");
    g_autoptr (GArray) path = ws_lanes_nvtx_enclosing (lanes, nvtx->thread, launch);

    g_assert_cmpuint (path->len, ==, 2);
    g_assert_cmpstr (ws_run_string (run, run->nvtx.name[g_array_index (path, guint32, 0)]), ==,
                     "compute");
    g_assert_cmpstr (ws_run_string (run, run->nvtx.name[g_array_index (path, guint32, 1)]), ==,
                     "fma_heavy");
  }
}

/* OS runtime calls (eventClass 27) and CPU samples (COMPOSITE_EVENTS with
 * a call chain) per thread, as SQL counts them, in start order. */
static void
test_probe_cpu_lanes (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  guint osrt_lanes = 0, sample_lanes = 0;

  for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);
      const WsThread *thread;
      g_autofree char *sql = NULL;

      if (lane->kind != WS_LANE_OSRT && lane->kind != WS_LANE_SAMPLES)
        continue;
      thread = &g_array_index (run->threads, WsThread, lane->thread);
      if (lane->kind == WS_LANE_OSRT)
        sql = g_strdup_printf ("SELECT count(*) FROM OSRT_API WHERE eventClass = 27 "
                               "AND globalTid = %" G_GINT64_FORMAT,
                               thread->global_tid);
      else
        sql = g_strdup_printf (
          "SELECT count(*) FROM COMPOSITE_EVENTS e WHERE e.globalTid = "
          "%" G_GINT64_FORMAT " AND EXISTS (SELECT 1 FROM SAMPLING_CALLCHAINS c WHERE c.id = e.id)",
          thread->global_tid);
      g_assert_cmpuint (lane->tracks[0].n, ==, sql_int (PROBE, sql));
      assert_sorted (run, &lane->tracks[0]);
      osrt_lanes += lane->kind == WS_LANE_OSRT;
      sample_lanes += lane->kind == WS_LANE_SAMPLES;
    }
  g_assert_cmpuint (osrt_lanes, ==, 3);
  g_assert_cmpuint (sample_lanes, ==, 2);
  /* 865 + 5 + 12 calls; 48 + 2 samples. */
  g_assert_cmpuint (run->osrt.n, ==, 882);
  g_assert_cmpuint (run->cpu_samples.n, ==, 50);
  g_assert_cmpuint (run->cpu_samples.outside, ==, 0);
}

/* Memory in use: the running sum of CUDA_GPU_MEMORY_USAGE_EVENTS. */
static void
test_probe_memory_lane (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  const WsLane *memory = ws_lanes_get_lane (lanes, 8);
  gint64 peak = sql_int (PROBE, "SELECT max(s) FROM (SELECT sum(CASE memoryOperationType WHEN 0 "
                                "THEN bytes ELSE -bytes END) OVER (ORDER BY start, rowid) s "
                                "FROM CUDA_GPU_MEMORY_USAGE_EVENTS)");

  g_assert_cmpint (memory->kind, ==, WS_LANE_MEMORY);
  g_assert_cmpuint (memory->series.n, ==,
                    sql_int (PROBE, "SELECT count(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS"));
  g_assert_cmpint (peak, ==, 138412032);
  g_assert_cmpfloat (memory->series.max, ==, (float) peak);
  g_assert_cmpfloat (memory->series.value[memory->series.n - 1], ==, 0);
}

/* Two processes, each on its own GPU: the ranks of a job (issue 30, item
 * 5), a group per rank in rank order with its stream (on its GPU), its
 * NVTX rows and API calls; the GPU groups, if any, hold no stream. */
static void
test_two_gpus (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2026.2_nsysai_h100_2gpu.sqlite");
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  /* By SQL: per process, kernels + memcpy + memset on its one stream, and
   * NVTX ranges per nesting depth (as above, over eventType 59 and 60). */
  static const struct
  {
    guint32 pid;
    gint32 device, stream;
    gsize gpu_events, api;
    gsize rows[5];
  } expect[] = {
    { 111, 0, 7, 2184, 2898, { 2169, 2882, 2297, 1013, 30 } },
    { 112, 1, 15, 2184, 2898, { 0 } },
  };
  guint process_groups = 0;

  g_assert_nonnull (run->ranks);
  g_assert_cmpint (run->ranks->source, ==, WS_RANK_BY_PROCESS);
  for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);

      if (lane->kind == WS_LANE_STREAM)
        g_assert_cmpint (ws_lanes_get_lane (lanes, lane->group)->group_kind, ==, WS_GROUP_PROCESS);
      if (lane->kind == WS_LANE_GROUP && lane->group_kind == WS_GROUP_PROCESS)
        {
          const WsLane *stream = ws_lanes_get_lane (lanes, l + 1);
          const WsLane *nvtx = ws_lanes_get_lane (lanes, l + 2);
          const WsLane *api = ws_lanes_get_lane (lanes, l + 3);

          g_assert_cmpuint (process_groups, <, G_N_ELEMENTS (expect));
          g_assert_cmpuint (lane->pid, ==, expect[process_groups].pid);
          g_assert_cmpint (lane->rank, ==, (gint32) process_groups);
          g_assert_cmpint (stream->kind, ==, WS_LANE_STREAM);
          g_assert_cmpuint (stream->pid, ==, expect[process_groups].pid);
          g_assert_cmpint (stream->device, ==, expect[process_groups].device);
          g_assert_cmpint (stream->rank, ==, (gint32) process_groups);
          g_assert_cmpint (g_array_index (run->streams, WsStream, stream->stream).stream_id, ==,
                           expect[process_groups].stream);
          g_assert_cmpuint (stream->tracks[0].n, ==, expect[process_groups].gpu_events);
          assert_sorted (run, &stream->tracks[0]);
          g_assert_cmpint (nvtx->kind, ==, WS_LANE_NVTX);
          g_assert_cmpint (api->kind, ==, WS_LANE_API);
          g_assert_cmpuint (api->tracks[0].n, ==, expect[process_groups].api);
          g_assert_cmpuint (nvtx->n_tracks, ==, 5);
          if (process_groups == 0)
            for (guint d = 0; d < 5; d++)
              g_assert_cmpuint (nvtx->tracks[d].n, ==, expect[0].rows[d]);
          process_groups++;
        }
    }
  g_assert_cmpuint (process_groups, ==, 2);
}

/* Every event of every fixture is in exactly one lane, and the lanes index
 * them in at most 16 bytes each. */
static void
test_every_event_once (void)
{
  static const char *const files[] = {
    "v2021.2_mordred.sqlite",
    "v2022.2_pipit_saxpy_mpi.sqlite",
    "v2022.4_rodinia_gaussian.sqlite",
    "v2024.5_pipit_cloverleaf_4gpu.sqlite",
    PROBE,
    "v2025.3_h100_torch_train.sqlite",
    "v2026.1_nsysai_mock.sqlite",
    "v2026.2_nsysai_mfu_before.sqlite",
  };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr (WsRun) run = ws_test_load_nsys (files[f]);
      g_autoptr (WsLanes) lanes = ws_lanes_new (run);
      gsize counts[WS_EVENT_SAMPLE + 1] = { 0 };
      gsize tracked = 0;

      for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
        {
          const WsLane *lane = ws_lanes_get_lane (lanes, l);

          for (guint r = 0; r < lane->n_tracks; r++)
            for (gsize i = 0; i < lane->tracks[r].n; i++)
              {
                guint row;

                counts[ws_event_ref_kind (lane->tracks[r].events[i])]++;
                g_assert_cmpuint (ws_lanes_find_event (lanes, lane->tracks[r].events[i], &row), ==,
                                  l);
                g_assert_cmpuint (row, ==, r);
              }
          counts[WS_EVENT_MARK] += lane->marks.n;
          for (guint r = 0; r < lane->n_tracks; r++)
            tracked += lane->tracks[r].n;
          tracked += lane->marks.n;
        }
      g_assert_cmpuint (counts[WS_EVENT_KERNEL], ==, run->kernels.n);
      g_assert_cmpuint (counts[WS_EVENT_MEMOP], ==, run->memops.n);
      g_assert_cmpuint (counts[WS_EVENT_API], ==, run->api.n);
      g_assert_cmpuint (counts[WS_EVENT_NVTX], ==, run->nvtx.n);
      g_assert_cmpuint (counts[WS_EVENT_MARK], ==, run->marks.n);
      g_assert_cmpuint (counts[WS_EVENT_OSRT], ==, run->osrt.n);
      g_assert_cmpuint (counts[WS_EVENT_SAMPLE], ==, run->cpu_samples.n);
      /* 4 bytes of reference and 0.75 of block summaries per event, plus
       * a few hundred bytes per lane. */
      g_assert_cmpuint (ws_lanes_memory (lanes), <=,
                        16 * ws_lanes_n_events (lanes) + 512 * ws_lanes_get_n_lanes (lanes) + 1024);
      g_assert_cmpuint (tracked, <=, ws_lanes_n_events (lanes));
    }
}

/* The one search every time column uses: the first index at or above a
 * value, within a range; ties go to the first equal value. */
static void
test_lower_bound (void)
{
  const gint64 t[] = { 10, 20, 20, 20, 35, 50 };

  g_assert_cmpuint (ws_sort_lower_bound (t, 0, 6, 5), ==, 0);
  g_assert_cmpuint (ws_sort_lower_bound (t, 0, 6, 10), ==, 0);
  g_assert_cmpuint (ws_sort_lower_bound (t, 0, 6, 11), ==, 1);
  g_assert_cmpuint (ws_sort_lower_bound (t, 0, 6, 20), ==, 1);
  g_assert_cmpuint (ws_sort_lower_bound (t, 0, 6, 21), ==, 4);
  g_assert_cmpuint (ws_sort_lower_bound (t, 0, 6, 51), ==, 6);
  /* Within [2, 5): never below lo, at most hi. */
  g_assert_cmpuint (ws_sort_lower_bound (t, 2, 5, 0), ==, 2);
  g_assert_cmpuint (ws_sort_lower_bound (t, 2, 5, 36), ==, 5);
  g_assert_cmpuint (ws_sort_lower_bound (t, 3, 3, 20), ==, 3);
  g_assert_cmpuint (ws_sort_lower_bound (NULL, 0, 0, 7), ==, 0);
}

/* Event references hold 29 bits of index: past WS_EVENT_INDEX_MAX events of
 * a kind the lanes stop, and say how many they left out.  Counted from the
 * tables' sizes alone (no 2^29-event file is needed to check the sum). */
static void
test_left_out_counted (void)
{
  g_autoptr (WsRun) run = ws_run_new ();

  g_assert_cmpuint (ws_lanes_count_left_out (run), ==, 0);
  run->kernels.n = WS_EVENT_INDEX_MAX + 7;
  run->api.n = WS_EVENT_INDEX_MAX;
  run->nvtx.n = (gsize) WS_EVENT_INDEX_MAX * 2;
  g_assert_cmpuint (ws_lanes_count_left_out (run), ==, 7 + (guint64) WS_EVENT_INDEX_MAX);
  run->kernels.n = run->api.n = run->nvtx.n = 0;
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lanes/sort/lower-bound", test_lower_bound);
  g_test_add_func ("/lanes/probe/order", test_probe_lane_order);
  g_test_add_func ("/lanes/probe/streams-match-sql", test_probe_stream_lanes);
  g_test_add_func ("/lanes/probe/nvtx-rows-are-depths", test_probe_nvtx_rows);
  g_test_add_func ("/lanes/probe/memory-is-running-sum", test_probe_memory_lane);
  g_test_add_func ("/lanes/probe/osrt-and-samples-per-thread", test_probe_cpu_lanes);
  g_test_add_func ("/lanes/two-gpus/a-group-per-rank", test_two_gpus);
  g_test_add_func ("/lanes/fixtures/every-event-once", test_every_event_once);
  g_test_add_func ("/lanes/limits/left-out-counted", test_left_out_counted);
  return g_test_run ();
}
