/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-nvtx-gpu.h"
#include "ws-run-build.h"
#include "ws-stats.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

static char *gpt2_tmp;
static char *gpt2_db;

/* `warpscope-cli stats --report R --format csv` on the GPT-2 capture
 * equals what nsys stats 2025.3.2 printed for its export (the truths of
 * tests/data/captures/gpt2-truth), byte for byte. */
static void
check_report_equals_nsys (const char *report)
{
  g_autofree char *truth_name = g_strdup_printf ("captures/gpt2-truth/GPT2___%s.csv.xz", report);
  g_autofree char *truth = ws_test_xz_text (truth_name);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { ws_test_cli (), "stats", "--report", report,
                         "--format",     "csv",   gpt2_db,    NULL };

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpuint (strlen (out), ==, strlen (truth));
  g_assert_true (g_str_equal (out, truth));
}

static void
test_proj_sum (void)
{
  check_report_equals_nsys ("nvtx_gpu_proj_sum");
}

static void
test_kern_sum (void)
{
  check_report_equals_nsys ("nvtx_kern_sum");
}

static gint64
sql_int (const char *db, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (db, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* PyTorch's backward runs on its autograd thread (pt_autograd_0): the
 * backward ranges of the main thread launch almost nothing, while the GPU
 * works through them.  Per instance of "autograd::engine::evaluate_function:
 * AddmmBackward0…" ranges, the busy figure is the union of the process's
 * GPU work within the range, computed in SQL. */
static void
test_busy_during_range (void)
{
  const char *paths[] = { gpt2_db, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (WsNvtxGpu) gpu = ws_nvtx_gpu_new (run);
  guint checked = 0, step = 0;

  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      const char *name = ws_run_string (run, run->nvtx.name[r]);
      g_autofree char *sql = NULL;

      if (!g_str_has_prefix (name, "训练步 "))
        continue;
      /* The union of kernels, copies and memsets clipped to the step. */
      sql = g_strdup_printf (
        "WITH ops AS (SELECT max(start, %1$" G_GINT64_FORMAT ") a, min(end, %2$" G_GINT64_FORMAT
        ") b FROM (SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end"
        " FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end FROM"
        " CUPTI_ACTIVITY_KIND_MEMSET) WHERE end > %1$" G_GINT64_FORMAT
        " AND start < %2$" G_GINT64_FORMAT
        "), o AS (SELECT a, b, max(b) OVER (ORDER BY a, b ROWS BETWEEN UNBOUNDED PRECEDING AND"
        " 1 PRECEDING) p FROM ops) SELECT coalesce(sum(CASE WHEN p IS NULL OR a >= p THEN b - a"
        " WHEN b > p THEN b - p ELSE 0 END), 0) FROM o",
        run->nvtx.start[r], run->nvtx.end[r]);
      g_assert_cmpint (ws_nvtx_gpu_busy (gpu, r), ==, sql_int (gpt2_db, sql));
      /* Launched from the step's own thread: 193 launch calls in steps
       * 1-5 (nsys's Total GPU Ops), where the steps test counts 433
       * kernels launched from both threads. */
      if (step++ > 0)
        g_assert_cmpuint (ws_nvtx_gpu_ops (gpu, r), ==, 193);
      checked++;
    }
  g_assert_cmpuint (checked, ==, 6);
}

/* Levels and children against nsys's Avg Range Lvl and Avg Num Child of
 * single-instance ranges (from the truth file): the attention call nests
 * four deep under step 0, which has 98 children that launched work. */
static void
test_levels (void)
{
  const char *paths[] = { gpt2_db, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (WsNvtxGpu) gpu = ws_nvtx_gpu_new (run);
  gboolean seen_step = FALSE, seen_attention = FALSE;

  for (gsize r = 0; r < run->nvtx.n; r++)
    {
      const char *name = ws_run_string (run, run->nvtx.name[r]);

      if (g_str_equal (name, "训练步 0"))
        {
          g_assert_cmpuint (ws_nvtx_gpu_level (gpu, r), ==, 0);
          g_assert_cmpuint (ws_nvtx_gpu_children (gpu, r), ==, 98);
          g_assert_cmpuint (ws_nvtx_gpu_ops (gpu, r), ==, 299);
          seen_step = TRUE;
        }
      if (g_str_equal (name, "aten::_cudnn_attention_forward, op_id = 107"))
        {
          g_assert_cmpuint (ws_nvtx_gpu_level (gpu, r), ==, 4);
          g_assert_cmpint (ws_nvtx_gpu_projection (gpu, r), ==, 1060128043);
          seen_attention = TRUE;
        }
    }
  g_assert_true (seen_step && seen_attention);
}

/* --group-ops: one row per PyTorch operator.  "aten::addmm" against SQL:
 * its ranges are those named "aten::addmm, …" (seq and op_id vary). */
static void
test_group_ops (void)
{
  g_autofree char *out = NULL;
  const char *argv[] = { ws_test_cli (), "stats", "--report", "nvtx_sum", "--group-ops",
                         "--format",     "csv",   gpt2_db,    NULL };
  const char *from = "FROM NVTX_EVENTS WHERE eventType = 59 AND text LIKE 'aten::addmm, %'";
  g_autofree char *q_count = g_strdup_printf ("SELECT count(*) %s", from);
  g_autofree char *q_total = g_strdup_printf ("SELECT sum(end - start) %s", from);
  g_autofree char *expected =
    g_strdup_printf (",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",", sql_int (gpt2_db, q_total),
                     sql_int (gpt2_db, q_count));
  g_auto (GStrv) lines = NULL;
  guint found = 0;

  g_assert_cmpint (ws_test_run (argv, &out, NULL), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_assert_null (strstr (lines[i], "op_id = "));
      if (g_str_has_suffix (lines[i], ",PushPop,:aten::addmm"))
        {
          g_assert_nonnull (strstr (lines[i], expected));
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 1);
}

/* nsys counts a launch in a range only when the call lies wholly inside
 * it: a run made by hand, one thread, the range [100, 200) and three
 * launch calls, [110, 120) inside, [190, 210) across its end, [90, 105)
 * across its start; each launches one kernel of 10 ns. */
static void
test_call_inside (void)
{
  g_autoptr (WsRun) run = ws_run_new ();
  static gint64 a_start[] = { 90, 110, 190 }, a_end[] = { 105, 120, 210 };
  static guint32 a_thread[] = { 0, 0, 0 }, a_corr[] = { 1, 2, 3 };
  static gint64 k_start[] = { 300, 320, 340 }, k_end[] = { 310, 330, 350 };
  static guint32 k_stream[] = { 0, 0, 0 }, k_corr[] = { 1, 2, 3 };
  static gint64 r_start[] = { 100 }, r_end[] = { 200 };
  static guint32 r_thread[] = { 0 };
  static guint16 r_domain[] = { 0 }, r_depth[] = { 0 };
  static guint8 r_style[] = { WS_NVTX_PUSH_POP };
  WsThread thread = { (7LL << 24) | 7, 7, 7, WS_STRING_NONE };
  WsStream stream = { 7LL << 24, 7, 0, 1, 7 };
  guint32 name = ws_string_table_intern (run->strings, "k");
  guint32 k_name[] = { name, name, name };
  guint32 r_name[] = { ws_string_table_intern (run->strings, "range") };
  g_autoptr (WsNvtxGpu) gpu = NULL;
  gint64 start = 0, end = 0;

  g_array_append_val (run->threads, thread);
  g_array_append_val (run->streams, stream);
  run->api.n = 3;
  run->api.start = g_memdup2 (a_start, sizeof a_start);
  run->api.end = g_memdup2 (a_end, sizeof a_end);
  run->api.thread = g_memdup2 (a_thread, sizeof a_thread);
  run->api.correlation = g_memdup2 (a_corr, sizeof a_corr);
  run->kernels.n = 3;
  run->kernels.start = g_memdup2 (k_start, sizeof k_start);
  run->kernels.end = g_memdup2 (k_end, sizeof k_end);
  run->kernels.stream = g_memdup2 (k_stream, sizeof k_stream);
  run->kernels.correlation = g_memdup2 (k_corr, sizeof k_corr);
  run->kernels.demangled = g_memdup2 (k_name, sizeof k_name);
  run->nvtx.n = 1;
  run->nvtx.start = g_memdup2 (r_start, sizeof r_start);
  run->nvtx.end = g_memdup2 (r_end, sizeof r_end);
  run->nvtx.thread = g_memdup2 (r_thread, sizeof r_thread);
  run->nvtx.name = g_memdup2 (r_name, sizeof r_name);
  run->nvtx.domain = g_memdup2 (r_domain, sizeof r_domain);
  run->nvtx.depth = g_memdup2 (r_depth, sizeof r_depth);
  run->nvtx.style = g_memdup2 (r_style, sizeof r_style);
  ws_run_finish (run);

  gpu = ws_nvtx_gpu_new (run);
  g_assert_cmpuint (ws_nvtx_gpu_ops (gpu, 0), ==, 1);
  g_assert_true (ws_nvtx_gpu_projected (gpu, 0, &start, &end));
  g_assert_cmpint (start, ==, 320);
  g_assert_cmpint (end, ==, 330);
  /* Nothing ran on the GPU while the range was open. */
  g_assert_cmpint (ws_nvtx_gpu_busy (gpu, 0), ==, 0);

  /* "range" is no PyTorch op; "aten::mm, seq = 3, op_id = 7" is. */
  g_assert_false (ws_nvtx_has_op_ranges (run));
  run->nvtx.name[0] = ws_string_table_intern (run->strings, "aten::mm, seq = 3, op_id = 7");
  g_assert_true (ws_nvtx_has_op_ranges (run));
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  dir = ws_test_unpack_gpt2 (&gpt2_tmp);
  gpt2_db = g_build_filename (dir, "nsys", "GPT2__.sqlite", NULL);
  g_test_add_func ("/nvtx-gpu/gpt2/nvtx-gpu-proj-sum-equals-nsys", test_proj_sum);
  g_test_add_func ("/nvtx-gpu/gpt2/nvtx-kern-sum-equals-nsys", test_kern_sum);
  g_test_add_func ("/nvtx-gpu/gpt2/busy-during-range-equals-sql", test_busy_during_range);
  g_test_add_func ("/nvtx-gpu/gpt2/levels-and-children", test_levels);
  g_test_add_func ("/nvtx-gpu/launch-call-wholly-inside", test_call_inside);
  g_test_add_func ("/nvtx-gpu/gpt2/nvtx-sum-group-ops", test_group_ops);
  status = g_test_run ();
  ws_test_rmtree (gpt2_tmp);
  g_free (gpt2_tmp);
  g_free (gpt2_db);
  return status;
}
