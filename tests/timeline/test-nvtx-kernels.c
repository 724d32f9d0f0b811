/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-nvtx-kernels.h"
#include "ws-run-loader.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

#define PROBE "v2025.3_h100_probe.sqlite"

static gssize
find_range (const WsRun *run, const char *name, guint nth)
{
  for (gsize r = 0; r < run->nvtx.n; r++)
    if (g_str_equal (ws_run_string (run, run->nvtx.name[r]), name) && nth-- == 0)
      return (gssize) r;
  return -1;
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

/* The correlation ids of the kernels launched inside a range, sorted and
 * joined with commas. */
static char *
correlations (const WsRun *run, GArray *kernels)
{
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < kernels->len; i++)
    g_array_append_val (ids, run->kernels.correlation[g_array_index (kernels, guint32, i)]);
  g_array_sort (ids, compare_u32);
  for (guint i = 0; i < ids->len; i++)
    g_string_append_printf (out, "%s%u", i > 0 ? "," : "", g_array_index (ids, guint32, i));
  return g_string_free (out, FALSE);
}

/* Hand-computed from the export: the RUNTIME rows of the range's thread
 * that lie wholly within it, joined to KERNEL on correlationId
 * (docs/formats.md, "NVTX ranges on the GPU"):
 *
 *   SELECT n.text, count(k.rowid), sum(k.end - k.start), group_concat(k.correlationId)
 *   FROM NVTX_EVENTS n
 *   JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.globalTid = n.globalTid
 *     AND r.start >= n.start AND r.end <= n.end
 *   JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON k.correlationId = r.correlationId
 *   WHERE n.eventType = 59 GROUP BY n.rowid;
 *
 * Ranges not listed launched nothing. */
static const struct
{
  const char *name;
  guint nth; /* which instance of the name, in start order */
  guint32 kernels;
  gint64 gpu_time;          /* ns */
  const char *correlations; /* the whole set where it is small */
} expected[] = {
  { "频繁内存分配示例", 0, 20, 27808, NULL },
  { "内存重用示例", 0, 20, 20480, NULL },
  { "频繁数据传输示例", 0, 50, 49057, NULL },
  { "compute", 0, 12, 3678567, "449,452,455,458,460,462,464,466,468,470,472,474" },
  { "fma_heavy", 0, 1, 308230, "449" },
  { "stream_copy", 0, 1, 51073, "452" },
  { "strided_read", 0, 1, 414536, "455" },
  { "barrier_heavy", 0, 1, 453000, "458" },
  { "fma_heavy", 1, 1, 308230, "460" },
  { "barrier_heavy", 2, 1, 453001, "474" },
  { "频繁同步示例", 0, 30, 30401, NULL },
  { "小内核", 0, 200, 199365, NULL },
  { "负载不均衡", 0, 4, 73698, "972,974,976,978" },
  { "任务0", 0, 1, 6016, "972" },
  { "任务1", 0, 1, 10496, "974" },
  { "任务2", 0, 1, 19585, "976" },
  { "任务3", 0, 1, 37601, "978" },
  { "setup", 0, 0, 0, "" },
  { "等待所有任务完成", 0, 0, 0, "" },
  { "批量传输示例", 0, 0, 0, "" },
};

static void
test_probe_hand_computed (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsNvtxKernels) nvtx_kernels = ws_nvtx_kernels_new (run);

  /* Every kernel of the probe has its launch in the export. */
  g_assert_cmpuint (ws_launch_index_n_kernels_found (ws_nvtx_kernels_get_launches (nvtx_kernels)),
                    ==, 336);

  for (guint e = 0; e < G_N_ELEMENTS (expected); e++)
    {
      gssize r = find_range (run, expected[e].name, expected[e].nth);
      g_autoptr (GArray) kernels = NULL;
      gint64 sum = 0;

      g_assert_cmpint (r, >=, 0);
      kernels = ws_nvtx_kernels_in_range (nvtx_kernels, (gsize) r);
      g_assert_cmpuint (ws_nvtx_kernels_count (nvtx_kernels, (gsize) r), ==, expected[e].kernels);
      g_assert_cmpint (ws_nvtx_kernels_gpu_time (nvtx_kernels, (gsize) r), ==,
                       expected[e].gpu_time);
      g_assert_cmpuint (kernels->len, ==, expected[e].kernels);
      for (guint i = 0; i < kernels->len; i++)
        {
          guint32 k = g_array_index (kernels, guint32, i);

          sum += run->kernels.end[k] - run->kernels.start[k];
          g_assert_true (ws_nvtx_kernels_contains (nvtx_kernels, (gsize) r, k));
        }
      g_assert_cmpint (sum, ==, expected[e].gpu_time);
      if (expected[e].correlations != NULL)
        {
          g_autofree char *ids = correlations (run, kernels);

          g_assert_cmpstr (ids, ==, expected[e].correlations);
        }
    }
}

/* Every range against the same join run by SQLite, kernel by kernel. */
static void
test_probe_matches_sql (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsNvtxKernels) nvtx_kernels = ws_nvtx_kernels_new (run);
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  guint checked = 0;

  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      g_autoptr (GArray) kernels = ws_nvtx_kernels_in_range (nvtx_kernels, r);
      g_autofree char *ours = correlations (run, kernels);
      g_autofree char *sql = g_strdup_printf (
        "SELECT coalesce(group_concat(c), '') FROM (SELECT k.correlationId AS c "
        "FROM NVTX_EVENTS n JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.globalTid = n.globalTid "
        "AND r.start >= n.start AND r.start <= n.end JOIN CUPTI_ACTIVITY_KIND_KERNEL k "
        "ON k.correlationId = r.correlationId WHERE n.eventType = 59 AND n.start = "
        "%" G_GINT64_FORMAT " AND n.end = %" G_GINT64_FORMAT " ORDER BY k.correlationId)",
        run->nvtx.start[r], run->nvtx.end[r]);
      g_autofree char *theirs = ws_test_sqlite_text (path, sql);

      g_assert_cmpstr (ours, ==, theirs);
      checked++;
    }
  g_assert_cmpuint (checked, ==, 146);
}

/* GPU time per range name adds up the ranges of that name. */
static void
test_probe_summary (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys (PROBE);
  g_autoptr (WsNvtxKernels) nvtx_kernels = ws_nvtx_kernels_new (run);
  g_autoptr (GArray) rows = ws_nvtx_kernels_summary (nvtx_kernels);
  const WsNvtxKernelsRow *first = &g_array_index (rows, WsNvtxKernelsRow, 0);
  gboolean seen = FALSE;

  /* "compute" launched the most GPU time: its 12 kernels, 3678567 ns. */
  g_assert_cmpstr (first->name, ==, ":compute");
  g_assert_cmpstr (first->style, ==, "PushPop");
  g_assert_cmpint (first->gpu_time, ==, 3678567);
  g_assert_cmpint (first->kernels, ==, 12);
  g_assert_cmpint (first->ranges, ==, 1);

  for (guint i = 0; i < rows->len; i++)
    {
      const WsNvtxKernelsRow *row = &g_array_index (rows, WsNvtxKernelsRow, i);

      if (i > 0)
        g_assert_cmpint (g_array_index (rows, WsNvtxKernelsRow, i - 1).gpu_time, >=, row->gpu_time);
      if (g_str_equal (row->name, ":barrier_heavy"))
        {
          /* Three ranges: 453000 + 452713 + 453001 ns (the three barrier_heavy kernels). */
          g_assert_cmpint (row->ranges, ==, 3);
          g_assert_cmpint (row->kernels, ==, 3);
          g_assert_cmpint (row->gpu_time, ==, 1358714);
          seen = TRUE;
        }
    }
  g_assert_true (seen);
}

/* Two processes with the same correlation ids: a kernel matches only the
 * launch of its own process. */
static void
test_two_processes (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2026.2_nsysai_h100_2gpu.sqlite");
  g_autoptr (WsNvtxKernels) nvtx_kernels = ws_nvtx_kernels_new (run);
  g_autofree char *path = ws_test_data ("nsys", "v2026.2_nsysai_h100_2gpu.sqlite", NULL);
  g_autofree char *matched = ws_test_sqlite_text (
    path,
    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
    "ON r.correlationId = k.correlationId AND r.globalTid / 16777216 = k.globalPid / 16777216");

  g_assert_cmpuint (ws_launch_index_n_kernels_found (ws_nvtx_kernels_get_launches (nvtx_kernels)),
                    ==, g_ascii_strtoull (matched, NULL, 10));
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      gssize a = ws_launch_index_kernel (ws_nvtx_kernels_get_launches (nvtx_kernels), k);
      const WsStream *stream = ws_run_kernel_stream (run, k);

      if (a < 0)
        continue;
      g_assert_cmpuint (run->api.correlation[a], ==, run->kernels.correlation[k]);
      g_assert_cmpuint (ws_run_thread (run, run->api.thread[a])->pid, ==, stream->pid);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nvtx-kernels/probe/hand-computed-sets", test_probe_hand_computed);
  g_test_add_func ("/nvtx-kernels/probe/every-range-matches-sql", test_probe_matches_sql);
  g_test_add_func ("/nvtx-kernels/probe/gpu-time-per-name", test_probe_summary);
  g_test_add_func ("/nvtx-kernels/two-processes/own-launches-only", test_two_processes);
  return g_test_run ();
}
