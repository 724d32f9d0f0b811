/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-comparison.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

static WsRun *
load (const char *name)
{
  WsRun *run = ws_test_load_nsys (name);

  ws_stats_compute_summaries (run);
  return run;
}

/* SELECT sum(end - start) of the kernels named @name, through SQLite. */
static gint64
sql_total (const char *file, const char *name, gint64 *count)
{
  g_autofree char *path = ws_test_data ("nsys", file, NULL);
  g_auto (GStrv) parts = g_strsplit (name, "'", -1);
  g_autofree char *quoted = g_strjoinv ("''", parts);
  g_autofree char *sql =
    g_strdup_printf ("SELECT coalesce(sum(k.end - k.start), 0) || ' ' || count(*) "
                     "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                     "WHERE s.value = '%s'",
                     quoted);
  g_autofree char *text = ws_test_sqlite_text (path, sql);
  g_auto (GStrv) fields = g_strsplit (text, " ", 2);

  *count = g_ascii_strtoll (fields[1], NULL, 10);
  return g_ascii_strtoll (fields[0], NULL, 10);
}

/* Matched by demangled name, each side's totals and instances are that
 * run's own, as SQLite sums them; Δ and ratio follow. */
static void
test_sides_equal_sql (void)
{
  g_autoptr (WsRun) before = load ("v2025.3_h100_train_fp32.sqlite");
  g_autoptr (WsRun) after = load ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_DEMANGLED);
  gint64 sum_before = 0, sum_after = 0;

  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);
      gint64 bc = 0, ac = 0;
      gint64 bt = sql_total ("v2025.3_h100_train_fp32.sqlite", d->key, &bc);
      gint64 at = sql_total ("v2025.3_h100_train_bf16.sqlite", d->key, &ac);

      g_assert_cmpint (d->before_total, ==, bt);
      g_assert_cmpint (d->after_total, ==, at);
      g_assert_cmpint (d->before_count, ==, bc);
      g_assert_cmpint (d->after_count, ==, ac);
      g_assert_cmpint (d->delta, ==, at - bt);
      if (bt > 0)
        g_assert_cmpfloat (d->ratio, ==, (double) at / (double) bt);
      else
        g_assert_true (isnan (d->ratio));
      if (i > 0)
        g_assert_cmpint (ABS (g_array_index (cmp->kernels, WsDelta, i - 1).delta), >=,
                         ABS (d->delta));
      sum_before += d->before_total;
      sum_after += d->after_total;
    }
  /* The two runs' kernel time, as nsys stats sums it. */
  g_assert_cmpint (sum_before, ==, ws_run_get_summary (before, WS_SUMMARY_KERN_SUM)->grand_total);
  g_assert_cmpint (sum_after, ==, ws_run_get_summary (after, WS_SUMMARY_KERN_SUM)->grand_total);
  g_assert_cmpfloat (cmp->gpu_time.before, ==, (double) sum_before);
}

static guint
count_presence (const WsComparison *cmp, WsPresence presence)
{
  guint n = 0;

  for (guint i = 0; i < cmp->kernels->len; i++)
    n += g_array_index (cmp->kernels, WsDelta, i).presence == presence;
  return n;
}

/* fp32 → bf16 by demangled name: 23 names before, 26 after; 17 only
 * before, 20 only after, 6 in both (counted with SQL over the two
 * exports: names of one not among the names of the other). */
static void
test_presence_sets (void)
{
  g_autoptr (WsRun) before = load ("v2025.3_h100_train_fp32.sqlite");
  g_autoptr (WsRun) after = load ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_DEMANGLED);
  const WsDelta *d;

  g_assert_cmpuint (count_presence (cmp, WS_PRESENT_ONLY_BEFORE), ==, 17);
  g_assert_cmpuint (count_presence (cmp, WS_PRESENT_ONLY_AFTER), ==, 20);
  g_assert_cmpuint (count_presence (cmp, WS_PRESENT_BOTH), ==, 6);
  g_assert_cmpfloat (cmp->n_kernels.before, ==, 23);
  g_assert_cmpfloat (cmp->n_kernels.after, ==, 26);

  /* The fp32 SIMT GEMM is gone, the Hopper bf16 GEMMs are new. */
  d = ws_comparison_find (
    cmp, "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>(T1::Params)");
  g_assert_nonnull (d);
  g_assert_cmpint (d->presence, ==, WS_PRESENT_ONLY_BEFORE);
  g_assert_cmpint (d->before_total, ==, 62387132);
  d = ws_comparison_find (cmp, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT");
  g_assert_nonnull (d);
  g_assert_cmpint (d->presence, ==, WS_PRESENT_ONLY_AFTER);
}

/* Normalised names ignore template arguments and parameters: the float
 * and bfloat16 instantiations of a PyTorch kernel become one. */
static void
test_normalized_matching (void)
{
  g_autoptr (WsRun) before = load ("v2025.3_h100_train_fp32.sqlite");
  g_autoptr (WsRun) after = load ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_NORMALIZED);
  const WsDelta *d =
    ws_comparison_find (cmp, "at::native::<unnamed>::vectorized_layer_norm_kernel");
  gint64 bc, ac;
  gint64 bt = sql_total ("v2025.3_h100_train_fp32.sqlite",
                         "void at::native::<unnamed>::vectorized_layer_norm_kernel<float, float, "
                         "(bool)0>(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
                         &bc);
  gint64 at =
    sql_total ("v2025.3_h100_train_bf16.sqlite",
               "void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, "
               "(bool)0>(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
               &ac);

  g_assert_nonnull (d);
  g_assert_cmpint (d->presence, ==, WS_PRESENT_BOTH);
  g_assert_cmpint (bt, >, 0);
  g_assert_cmpint (d->before_total, ==, bt);
  g_assert_cmpint (d->after_total, ==, at);
  g_assert_cmpint (d->before_count, ==, bc);

  /* Seven multi_tensor_apply_kernel instantiations fold into one key. */
  d = ws_comparison_find (cmp, "at::native::<unnamed>::multi_tensor_apply_kernel");
  g_assert_nonnull (d);
  g_assert_cmpuint (d->n_before_names, ==, 7);
  g_assert_cmpuint (d->n_after_names, ==, 7);
}

static void
test_keys (void)
{
  static const char *const name =
    "void at::native::<unnamed>::cunn_SoftMaxForwardReg<float, float, float, "
    "at::native::<unnamed>::SoftMaxForwardEpilogue, long, (int)8>(T2 *, const T1 *, T4)";
  g_autofree char *normalized = ws_comparison_key (name, WS_MATCH_NORMALIZED);
  g_autofree char *shortname = ws_comparison_key (name, WS_MATCH_SHORT);
  g_autofree char *plain = ws_comparison_key ("tiny(float *)", WS_MATCH_SHORT);
  g_autofree char *op =
    ws_comparison_key ("void foo::bar<(bool)1>::operator()<int>(int)", WS_MATCH_NORMALIZED);

  g_assert_cmpstr (normalized, ==, "at::native::<unnamed>::cunn_SoftMaxForwardReg");
  g_assert_cmpstr (shortname, ==, "cunn_SoftMaxForwardReg");
  g_assert_cmpstr (plain, ==, "tiny");
  g_assert_cmpstr (op, ==, "foo::bar::operator()");
}

/* The MFU pair: the same 27 kernels, less time after. */
static void
test_mfu_pair (void)
{
  g_autoptr (WsRun) before = load ("v2026.2_nsysai_mfu_before.sqlite");
  g_autoptr (WsRun) after = load ("v2026.2_nsysai_mfu_after.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_DEMANGLED);
  g_autofree char *headline = ws_comparison_headline (cmp);

  g_assert_cmpuint (cmp->kernels->len, ==, 27);
  g_assert_cmpuint (count_presence (cmp, WS_PRESENT_BOTH), ==, 27);
  g_assert_cmpfloat (cmp->launches.before, ==, 4010);
  g_assert_cmpfloat (cmp->launches.after, ==, 3587);
  g_assert_cmpfloat (cmp->gpu_time.after, <, cmp->gpu_time.before);
  g_assert_true (g_str_has_prefix (headline, "after is 1.1× faster on the GPU: −"));
  g_test_message ("%s", headline);
}

/* fp32 → bf16: 8.6× less kernel time, most of it the fp32 xmma GEMM. */
static void
test_headline (void)
{
  g_autoptr (WsRun) before = load ("v2025.3_h100_train_fp32.sqlite");
  g_autoptr (WsRun) after = load ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_DEMANGLED);
  g_autofree char *headline = ws_comparison_headline (cmp);
  g_autofree char *swapped_headline = NULL;
  g_autoptr (WsComparison) swapped = ws_comparison_new (after, before, WS_MATCH_DEMANGLED);
  double factor = cmp->gpu_time.before / cmp->gpu_time.after;

  /* 173,xxx,xxx ns before and 20,0xx,xxx ns after (nsys stats totals). */
  g_assert_cmpfloat (factor, >, 8.55);
  g_assert_cmpfloat (factor, <, 8.65);
  g_assert_true (g_str_has_prefix (
    headline, "after is 8.6× faster on the GPU: −153 ms, 42% of it in sm80_xmma_gem"));
  swapped_headline = ws_comparison_headline (swapped);
  g_assert_true (g_str_has_prefix (swapped_headline, "after is 8.6× slower on the GPU: +153 ms"));
}

static void
test_cli_csv (void)
{
  g_autofree char *a = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *b = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  const char *argv[] = { ws_test_cli (), "compare", "--format", "csv", a, b, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  guint only_before = 0, only_after = 0, both = 0;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (
    lines[0], ==,
    "kernel,before_total_ns,after_total_ns,delta_ns,ratio,before_instances,after_instances,status");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      only_before += g_str_has_suffix (lines[i], ",only_before");
      only_after += g_str_has_suffix (lines[i], ",only_after");
      both += g_str_has_suffix (lines[i], ",both");
    }
  g_assert_cmpuint (only_before, ==, 17);
  g_assert_cmpuint (only_after, ==, 20);
  g_assert_cmpuint (both, ==, 6);
  /* The largest change first: the removed fp32 xmma GEMM, 64379009 ns. */
  g_assert_true (g_str_has_prefix (
    lines[1],
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize256x64x8_stage3_warpsize2x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas,64379009,0,-64379009,0.000,12,0,only_before"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/comparison/sides-equal-sql", test_sides_equal_sql);
  g_test_add_func ("/comparison/only-before-and-after-sets", test_presence_sets);
  g_test_add_func ("/comparison/normalized-names-match-instantiations", test_normalized_matching);
  g_test_add_func ("/comparison/keys", test_keys);
  g_test_add_func ("/comparison/mfu-pair", test_mfu_pair);
  g_test_add_func ("/comparison/headline", test_headline);
  g_test_add_func ("/comparison/cli-csv", test_cli_csv);

  return g_test_run ();
}
