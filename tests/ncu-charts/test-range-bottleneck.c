/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-ncu-kernels.h"
#include "ws-range-bottleneck-project.h"
#include "ws-test-capture.h"
#include "ws-test-load.h"
#include "ws-test-util.h"
#include "ws-why.h"

/* Bottleneck by NVTX range on the GPT-2 capture: its four profiled
 * kernels (three cutlass_75 GEMMs, all L1-bound, and a copy kernel,
 * latency-bound, which ncu names in its function form and the join's
 * function rule matches) against SQL written here. */

static char *capture; /* the unpacked target folder */
static char *tmpdir;
static WsRun *run;
static WsNvtxKernels *nvtx_kernels;
static GArray *rows;

static char *
sqlite_path (void)
{
  return g_build_filename (capture, "nsys", "GPT2__.sqlite", NULL);
}

static const WsRangeBottleneck *
row_named (const char *name)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const WsRangeBottleneck *row = &g_array_index (rows, WsRangeBottleneck, i);

      if (g_str_equal (row->name, name))
        return row;
    }
  g_error ("no roll-up row %s", name);
}

/* The kernels launched inside the push/pop ranges named @name, on the range's
 * thread (nsys's rule, docs/formats.md, "NVTX ranges on the GPU"): their
 * summed duration, and that of the launches of the three profiled GEMMs with
 * the grid and block ncu profiled them with. */
static void
sql_range (const char *name, gint64 *gpu_ns, gint64 *gemm_ns, gint64 *copy_ns)
{
  g_autofree char *path = sqlite_path ();
  g_autofree char *quoted = g_strdup_printf ("'%s'", name);
  /* MATERIALIZED: a range is found once, not once per API call. */
  static const char with[] =
    "WITH r AS MATERIALIZED (SELECT n.start, n.end, n.globalTid FROM NVTX_EVENTS n LEFT JOIN "
    "StringIds s ON s.id = n.textId WHERE COALESCE(n.text, s.value) = %s AND n.eventType = 59), "
    "a AS MATERIALIZED (SELECT a.correlationId AS c, a.globalTid >> 24 AS pid FROM "
    "CUPTI_ACTIVITY_KIND_RUNTIME a JOIN r ON a.globalTid = r.globalTid AND a.start BETWEEN "
    "r.start AND r.end), "
    "k AS (SELECT k.end - k.start AS d, sk.value AS name, k.gridX AS gx, k.gridY AS gy, "
    "k.gridZ AS gz, k.blockX AS bx FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN a ON k.correlationId "
    "= a.c AND (k.globalPid >> 24) = a.pid JOIN StringIds sk ON sk.id = k.demangledName) ";
  g_autofree char *head = g_strdup_printf (with, quoted);
  g_autofree char *sum_sql = g_strconcat (head, "SELECT sum(d) FROM k", NULL);
  g_autofree char *gemm_sql = g_strconcat (
    head,
    "SELECT sum(d) FROM k WHERE name LIKE '%cutlass_75_tensorop_bf16_s1688gemm_bf16_%' AND "
    "((gx = 256 AND gy = 50 AND gz = 1 AND bx = 128) OR (gx = 128 AND gy = 1 AND gz = 9 AND "
    "bx = 256) OR (gx = 1576 AND gy = 1 AND gz = 1 AND bx = 256))",
    NULL);
  /* The copy kernel ncu profiled: the float direct copy, grid 24576, block 128. */
  g_autofree char *copy_sql = g_strconcat (
    head,
    "SELECT sum(d) FROM k WHERE name LIKE 'void at::native::unrolled_elementwise_kernel<"
    "at::native::direct_copy_kernel_cuda%lambda(float) (instance 1)]%' AND gx = 24576 AND "
    "gy = 1 AND gz = 1 AND bx = 128",
    NULL);
  g_autofree char *sum = ws_test_sqlite_text (path, sum_sql);
  g_autofree char *gemm = ws_test_sqlite_text (path, gemm_sql);
  g_autofree char *copy = ws_test_sqlite_text (path, copy_sql);

  *gpu_ns = sum != NULL ? g_ascii_strtoll (sum, NULL, 10) : 0;
  *gemm_ns = gemm != NULL ? g_ascii_strtoll (gemm, NULL, 10) : 0;
  *copy_ns = copy != NULL ? g_ascii_strtoll (copy, NULL, 10) : 0;
}

/* Every row's classes add up to its GPU time, and that GPU time is the
 * NVTX kernels' for the range name. */
static void
test_totals_equal_range_gpu_time (void)
{
  g_autoptr (GArray) summary = ws_nvtx_kernels_summary (nvtx_kernels);
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  gint64 all = 0;

  for (guint i = 0; i < summary->len; i++)
    {
      const WsNvtxKernelsRow *row = &g_array_index (summary, WsNvtxKernelsRow, i);

      g_hash_table_insert (by_name, row->name, (gpointer) row);
    }
  g_assert_cmpuint (rows->len, ==, summary->len);
  for (guint i = 0; i < rows->len; i++)
    {
      const WsRangeBottleneck *row = &g_array_index (rows, WsRangeBottleneck, i);
      const WsNvtxKernelsRow *truth = g_hash_table_lookup (by_name, row->name);
      gint64 sum = 0;

      for (int c = 0; c < WS_N_ROLLUP; c++)
        sum += row->ns[c];
      g_assert_cmpint (sum, ==, row->gpu_ns);
      g_assert_nonnull (truth);
      g_assert_cmpint (row->gpu_ns, ==, truth->gpu_time);
      g_assert_cmpint (row->kernels, ==, truth->kernels);
      all += row->gpu_ns;
    }
  g_assert_cmpint (all, >, 0);
}

/* The three GEMMs are memory-bound (L1); besides them only the copy
 * kernel was profiled. */
static void
test_profiled_verdicts (void)
{
  static const char *const gemms[] = { "Kernel2", "Kernel2_2", "Kernel2_3" };

  for (gsize i = 0; i < G_N_ELEMENTS (gemms); i++)
    for (guint l = 0; l < ws_ncu_results_n_launches (run->ncu); l++)
      {
        const WsNcuLaunch *launch = ws_ncu_results_launch (run->ncu, l);
        g_autofree char *file =
          g_path_get_basename (g_ptr_array_index (run->ncu->files, launch->file));
        g_autofree char *want = g_strdup_printf ("%s_ncu_raw.csv", gemms[i]);

        if (g_str_equal (file, want))
          {
            g_autoptr (WsWhy) why = ws_why_compute (run->ncu, l);

            g_assert_cmpint (why->bottleneck.kind, ==, WS_BOTTLENECK_MEMORY);
            g_assert_cmpint (why->bottleneck.unit, ==, WS_LIMIT_L1);
          }
      }
}

/* SQL: "aten::mm, seq = 645, op_id = 6589" launched one kernel, the
 * 128x128_tn GEMM with grid (256, 50, 1) and block 128, 3,338,662 ns:
 * all memory-bound.  "训练步 1" (a training step on the main thread):
 * 185 kernels, 9,801,289 ns, of which the profiled GEMMs' 3,334,726 ns
 * are memory-bound, the profiled copy kernel's four launches (166,212 ns)
 * latency-bound and the rest not profiled. */
static void
test_rows_against_sql (void)
{
  static const char *const names[] = { "aten::mm, seq = 645, op_id = 6589", "训练步 1" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *key = g_strdup_printf (":%s", names[i]);
      const WsRangeBottleneck *row = row_named (key);
      gint64 gpu_ns, gemm_ns, copy_ns;

      sql_range (names[i], &gpu_ns, &gemm_ns, &copy_ns);
      g_assert_cmpint (row->gpu_ns, ==, gpu_ns);
      g_assert_cmpint (row->ns[WS_ROLLUP_MEMORY], ==, gemm_ns);
      g_assert_cmpint (row->ns[WS_ROLLUP_LATENCY], ==, copy_ns);
      g_assert_cmpint (row->ns[WS_ROLLUP_UNPROFILED], ==, gpu_ns - gemm_ns - copy_ns);
      g_assert_cmpint (row->ns[WS_ROLLUP_COMPUTE], ==, 0);
    }
  g_assert_cmpint (row_named (":训练步 1")->gpu_ns, ==, 9801289);
  g_assert_cmpint (row_named (":训练步 1")->ns[WS_ROLLUP_MEMORY], ==, 3334726);
  g_assert_cmpint (row_named (":训练步 1")->ns[WS_ROLLUP_LATENCY], ==, 166212);
  {
    g_autofree char *text = ws_range_bottleneck_text (row_named (":训练步 1"));

    /* 6,300,351 / 9,801,289 = 64.3%, 3,334,726 / 9,801,289 = 34.0%,
     * 166,212 / 9,801,289 = 1.7% */
    g_assert_cmpstr (text, ==, "64% not profiled, 34% memory-bound, 2% latency-bound");
  }
}

/* Launches of a kernel with another grid than the profiled one stay
 * unprofiled: a copy of the run's kernels where the GEMM of "aten::mm,
 * seq = 645" ran with another configuration would not be memory-bound.
 * Here: the profiled GEMM's configuration is the only one its name has
 * in the run (SQL), so the rule is checked the other way: every kernel
 * counted memory-bound has the profiled grid and block. */
static void
test_configuration_must_match (void)
{
  g_autofree char *path = sqlite_path ();
  g_autofree char *configs = ws_test_sqlite_text (
    path, "SELECT count(DISTINCT gridX || ',' || gridY || ',' || gridZ || ',' || blockX) FROM "
          "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName WHERE s.value "
          "LIKE '%cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_align1%'");
  g_autofree gint32 *launches = NULL;

  g_assert_cmpstr (configs, ==, "1");
  launches = ws_ncu_kernel_launches (run);
  for (gsize k = 0; k < run->kernels.n; k++)
    if (launches[k] >= 0)
      {
        const WsLaunchConfig *c = ws_run_kernel_config (run, k);
        const WsNcuLaunch *l = ws_ncu_results_launch (run->ncu, (guint) launches[k]);
        g_autofree char *grid =
          g_strdup_printf ("(%u, %u, %u)", c->grid[0], c->grid[1], c->grid[2]);
        g_autofree char *block =
          g_strdup_printf ("(%u, %u, %u)", c->block[0], c->block[1], c->block[2]);

        g_assert_cmpstr (grid, ==, l->grid);
        g_assert_cmpstr (block, ==, l->block);
      }
}

/* warpscope-cli rollup --format csv: the columns; the row of
 * "训练步 1" as SQL gives it. */
static void
test_cli_csv (void)
{
  const char *argv[] = { ws_test_cli (), "rollup", "--format", "csv", capture, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean found = FALSE;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==,
                   "range,gpu_ns,compute_ns,memory_ns,latency_ns,mixed_ns,unprofiled_ns");
  for (guint i = 1; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], ":训练步 1,"))
      {
        g_assert_cmpstr (lines[i], ==, ":训练步 1,9801289,0,3334726,166212,0,6300351");
        found = TRUE;
      }
  g_assert_true (found);
}

/* warpscope-cli rollup's table fits the terminal ($COLUMNS) by shortening
 * the range names in the middle; CSV keeps them whole.  The longest range
 * name, by SQL, is 91 characters ("autograd::engine::evaluate_function:
 * ScaledDotProductCudnnAttentionBackward0, op_id = 10174"); the other
 * columns take about 112, so at 200 the names give way. */
static void
test_cli_table_fits_terminal (void)
{
  g_autofree char *sqlite = g_build_filename (capture, "nsys", "GPT2__.sqlite", NULL);
  g_autofree char *longest = ws_test_sqlite_text (
    sqlite, "SELECT COALESCE(e.text, s.value) AS t FROM NVTX_EVENTS e LEFT JOIN StringIds s ON "
            "s.id = e.textId WHERE e.eventType = 59 ORDER BY length(t) DESC, t LIMIT 1");
  g_autofree char *env = g_find_program_in_path ("env");
  const char *table_argv[] = { env, "COLUMNS=200", ws_test_cli (), "rollup", capture, NULL };
  const char *csv_argv[] = { env,        "COLUMNS=200", ws_test_cli (), "rollup",
                             "--format", "csv",         capture,        NULL };
  g_autofree char *table = NULL, *csv = NULL;
  g_auto (GStrv) lines = NULL;
  glong widest = 0;
  guint shortened = 0;

  g_assert_cmpint (g_utf8_strlen (longest, -1), ==, 91);
  g_assert_cmpint (ws_test_run (table_argv, &table, NULL), ==, 0);
  g_assert_cmpint (ws_test_run (csv_argv, &csv, NULL), ==, 0);
  lines = g_strsplit (table, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      widest = MAX (widest, g_utf8_strlen (lines[i], -1));
      shortened += strstr (lines[i], "…") != NULL;
    }
  g_test_message ("COLUMNS=200: %u lines, %u names shortened, widest line %ld",
                  g_strv_length (lines), shortened, widest);
  g_assert_cmpint (widest, <=, 200);
  g_assert_cmpuint (shortened, >, 0);
  g_assert_null (strstr (table, longest));
  g_assert_nonnull (strstr (table, "\n 训练步 1 "));
  g_assert_nonnull (strstr (csv, longest));
}

/* An export without NVTX: one line naming the file, exit status 2. */
static void
test_cli_no_nvtx (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2021.2_mordred.sqlite", NULL);
  const char *argv[] = { ws_test_cli (), "rollup", path, NULL };
  g_autofree char *err = NULL;

  g_assert_cmpint (ws_test_run (argv, NULL, &err), ==, 2);
  g_assert_true (strstr (err, "v2021.2_mordred.sqlite: the run has no NVTX ranges") != NULL);
  g_assert_cmpuint (strlen (err) - 1, ==, strcspn (err, "\n"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  capture = ws_test_unpack_capture ("h100_gpt2_capture.tar.xz",
                                    "out/targets-20261125-023446/GPT2__", &tmpdir);
  {
    const char *paths[] = { capture, NULL };
    run = ws_test_load_paths (paths);
    nvtx_kernels = ws_nvtx_kernels_new (run);
    rows = ws_range_bottleneck_project (run, nvtx_kernels);
  }

  g_test_add_func ("/range-bottleneck/gpt2/totals-equal-range-gpu-time",
                   test_totals_equal_range_gpu_time);
  g_test_add_func ("/range-bottleneck/gpt2/profiled-verdicts", test_profiled_verdicts);
  g_test_add_func ("/range-bottleneck/gpt2/rows-against-sql", test_rows_against_sql);
  g_test_add_func ("/range-bottleneck/gpt2/configuration-must-match",
                   test_configuration_must_match);
  g_test_add_func ("/range-bottleneck/cli/table-fits-terminal", test_cli_table_fits_terminal);
  g_test_add_func ("/range-bottleneck/cli/csv", test_cli_csv);
  g_test_add_func ("/range-bottleneck/cli/no-nvtx", test_cli_no_nvtx);

  status = g_test_run ();
  g_array_unref (rows);
  ws_nvtx_kernels_unref (nvtx_kernels);
  ws_run_unref (run);
  ws_test_rmtree (tmpdir);
  g_free (tmpdir);
  g_free (capture);
  return status;
}
