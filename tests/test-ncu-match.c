/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-gauges.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"
#include "ws-run-loader.h"
#include "ws-test-util.h"

static WsRun *
load_run (const char *nsys, const char *ncu)
{
  g_autofree char *nsys_path = ws_test_data ("nsys", nsys, NULL);
  g_autofree char *ncu_path = ws_test_data ("ncu", ncu, NULL);
  const char *paths[] = { nsys_path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autoptr (WsNcuResults) results = ws_ncu_reader_load_file (ncu_path, &error);

  g_assert_no_error (error);
  ws_gauges_compute_all (results);
  ws_ncu_match_attach (run, results);
  return g_steal_pointer (&run);
}

static void
test_key (void)
{
  static const char *const pairs[][2] = {
    /* nsys (demangled) and ncu 2025 (simplified) print one kernel so: */
    { "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, "
      "at::native::MeanOps<float, float, float, float>, unsigned int, float, (int)4, (int)4>>(T3)",
      "void at::reduce_kernel<512, 1, at::ReduceOp<float, at::MeanOps<float, float, float, "
      "float>, unsigned int, float, 4, 4>>(T3)" },
    { "void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, (bool)0>"
      "(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
      "void at::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, 0>(int, T2, const "
      "T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)" },
    { "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
      "std::array<char *, (unsigned long)1>>(int, T2, T3)",
      "void at::vectorized_elementwise_kernel<4, at::FillFunctor<float>, std::array<char *, 1>>"
      "(int, T2, T3)" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autofree char *a = ws_ncu_match_key (pairs[i][0]);
      g_autofree char *b = ws_ncu_match_key (pairs[i][1]);

      g_assert_cmpstr (a, ==, b);
    }
  {
    /* Different template arguments stay different. */
    g_autofree char *a = ws_ncu_match_key ("void k<(int)4>(int)");
    g_autofree char *b = ws_ncu_match_key ("void k<8>(int)");
    g_autofree char *c = ws_ncu_match_key ("void k<(int)-1>(int)");
    g_autofree char *base = ws_ncu_match_base ("void at::native::k<(int)4>(int)");

    g_assert_cmpstr (a, !=, b);
    g_assert_cmpstr (c, ==, "voidk<-1>(int)");
    g_assert_cmpstr (base, ==, "k");
  }
}

/* Checks through SQLite itself that @name is a kernel of the export
 * launched with @grid and @block. */
static void
assert_nsys_kernel (const char *sqlite, const char *name, const char *grid, const char *block)
{
  g_autofree char *path = ws_test_data ("nsys", sqlite, NULL);
  g_autofree char *quoted = NULL;
  g_autofree char *sql = NULL;
  g_autofree char *count = NULL;
  GString *escaped = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append_c (escaped, '\'');
      g_string_append_c (escaped, *p);
    }
  quoted = g_string_free (escaped, FALSE);
  sql = g_strdup_printf ("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                         "ON s.id = k.demangledName WHERE s.value = '%s' AND "
                         "'(' || gridX || ', ' || gridY || ', ' || gridZ || ')' = '%s' AND "
                         "'(' || blockX || ', ' || blockY || ', ' || blockZ || ')' = '%s'",
                         quoted, grid, block);
  count = ws_test_sqlite_text (path, sql);
  g_assert_nonnull (count);
  g_assert_cmpint (g_ascii_strtoll (count, NULL, 10), >, 0);
}

/* The bf16 training loop: every profiled launch is one of the nsys
 * export's kernels.  Expected names below are the export's StringIds
 * values; SQLite confirms that each was launched with ncu's grid and block. */
static void
test_bf16_all_matched (void)
{
  g_autoptr (WsRun) run =
    load_run ("v2025.3_h100_train_bf16.sqlite", "h100_train_bf16_sections_raw.csv");
  WsNcuResults *ncu = run->ncu;
  g_autoptr (GArray) unmatched = ws_ncu_match_unmatched (ncu);
  static const struct
  {
    guint launch;
    WsNcuMatchKind kind;
    const char *nsys;
  } expected[] = {
    { 1, WS_NCU_MATCH_EXACT, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT" },
    { 7, WS_NCU_MATCH_NORMALIZED,
      "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, "
      "at::native::MeanOps<float, float, float, float>, unsigned int, float, (int)4, "
      "(int)4>>(T3)" },
    { 3, WS_NCU_MATCH_NORMALIZED,
      "void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, (bool)0>"
      "(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)" },
    { 8, WS_NCU_MATCH_NORMALIZED,
      "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
      "std::array<char *, (unsigned long)1>>(int, T2, T3)" },
  };

  g_assert_cmpuint (ws_ncu_results_n_launches (ncu), ==, 14);
  g_assert_cmpuint (unmatched->len, ==, 0);
  for (guint i = 0; i < 14; i++)
    {
      const WsNcuMatch *m = ws_ncu_results_match (ncu, i);
      const WsNcuLaunch *l = ws_ncu_results_launch (ncu, i);

      g_assert_nonnull (m->nsys_name);
      assert_nsys_kernel ("v2025.3_h100_train_bf16.sqlite", m->nsys_name, l->grid, l->block);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const WsNcuMatch *m = ws_ncu_results_match (ncu, expected[i].launch);

      g_assert_cmpint (m->kind, ==, expected[i].kind);
      g_assert_cmpstr (m->nsys_name, ==, expected[i].nsys);
    }
  /* The run lists both files it was read from. */
  g_assert_cmpuint (run->prov.files->len, ==, 2);
}

/* ncu results of another program: nothing matches, nothing is dropped. */
static void
test_unmatched_listed (void)
{
  g_autoptr (WsRun) run =
    load_run ("v2025.3_h100_probe.sqlite", "h100_train_bf16_sections_raw.csv");
  g_autoptr (GArray) unmatched = ws_ncu_match_unmatched (run->ncu);

  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 14);
  g_assert_cmpuint (unmatched->len, ==, 14);
  for (guint i = 0; i < 14; i++)
    {
      const WsNcuMatch *m = ws_ncu_results_match (run->ncu, i);

      g_assert_cmpuint (g_array_index (unmatched, guint, i), ==, i);
      g_assert_cmpint (m->kind, ==, WS_NCU_MATCH_UNMATCHED);
      g_assert_null (m->nsys_name);
      g_assert_cmpstr (m->why, ==, "no nsys kernel has this name");
      /* Still gauged. */
      g_assert_true (ws_ncu_results_gauges (run->ncu, i)->gauge[WS_GAUGE_SM].collected);
    }
}

/* The kernel bars take the verdict of a kernel's longest profiled launch. */
static void
test_verdict_for_bars (void)
{
  g_autoptr (WsRun) run = load_run ("v2025.3_h100_probe.sqlite", "h100_probe_full_raw.csv");
  g_autoptr (GArray) unmatched = ws_ncu_match_unmatched (run->ncu);

  g_assert_cmpuint (unmatched->len, ==, 0);
  g_assert_cmpint (ws_ncu_results_match (run->ncu, 0)->kind, ==, WS_NCU_MATCH_EXACT);
  g_assert_cmpint (ws_ncu_match_verdict_for (run->ncu, "fma_heavy(float *, int, int)"), ==,
                   WS_VERDICT_COMPUTE);
  g_assert_cmpint (
    ws_ncu_match_verdict_for (run->ncu, "stream_copy(const float4 *, float4 *, int)"), ==,
    WS_VERDICT_MEMORY);
  /* barrier_heavy's launches 3 and 7 both took "561.312000" us: the first
   * of equals is shown; fma_heavy's 0 ("381.792000") outlasts 4 ("381.664000"). */
  g_assert_cmpint (ws_ncu_match_launch_for (run->ncu, "barrier_heavy(float *, int)"), ==, 3);
  g_assert_cmpint (ws_ncu_match_launch_for (run->ncu, "fma_heavy(float *, int, int)"), ==, 0);
  g_assert_cmpint (ws_ncu_match_launch_for (run->ncu, "tiny(float *)"), ==, -1);
  /* tiny(float *) runs in the export but was not profiled. */
  g_assert_cmpint (ws_ncu_match_verdict_for (run->ncu, "tiny(float *)"), ==, WS_VERDICT_NONE);
}

static void
test_run_from_ncu (void)
{
  g_autofree char *path = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsNcuResults) results = ws_ncu_reader_load_file (path, &error);
  g_autoptr (WsRun) run = ws_run_new_from_ncu (results);
  const WsGpu *gpu;

  ws_gauges_compute_all (results);

  g_assert_cmpstr (run->prov.kind, ==, "ncu-csv");
  g_assert_true (run->ncu == results);
  g_assert_cmpuint (run->kernels.n, ==, 0);
  g_assert_cmpstr (ws_run_display_name (run), ==, "h100_probe_full_raw.csv");
  g_assert_cmpuint (run->prov.processes->len, ==, 1);
  g_assert_cmpuint (g_array_index (run->prov.processes, WsProcess, 0).pid, ==, 980);
  g_assert_cmpuint (run->prov.gpus->len, ==, 1);
  gpu = &g_array_index (run->prov.gpus, WsGpu, 0);
  /* device__attribute_display_name, CC "9.0", device__attribute_multiprocessor_count "132" */
  g_assert_cmpstr (gpu->name, ==, "NVIDIA H100 80GB HBM3");
  g_assert_cmpint (gpu->cc_major, ==, 9);
  g_assert_cmpint (gpu->sm_count, ==, 132);
  /* Without an nsys run, bars compare ncu's own names. */
  g_assert_null (ws_ncu_results_match (results, 0));
  g_assert_cmpint (ws_ncu_match_verdict_for (results, "barrier_heavy(float *, int)"), ==,
                   WS_VERDICT_COMPUTE);
}

/* Bars in short names: several kernels fold into one short name and the
 * longest profiled launch of them stands for it.  From the CSV: the
 * vectorized_elementwise_kernel launches are 2 (54.880 us, GELU), 8
 * (2.368, fill), 10 (129.792, mul) and 12 (62.784, bf16 copy); the
 * bias_TNT GEMM ran as 1 (405.536) and 4 (403.584). */
static void
test_launches_by_short_name (void)
{
  g_autoptr (WsRun) run =
    load_run ("v2025.3_h100_train_bf16.sqlite", "h100_train_bf16_sections_raw.csv");
  g_autoptr (GHashTable) by_short = ws_ncu_match_launches_by_name (run->ncu, run, WS_NAME_SHORT);
  g_autoptr (GHashTable) by_demangled =
    ws_ncu_match_launches_by_name (run->ncu, run, WS_NAME_DEMANGLED);

  g_assert_cmpint (
    GPOINTER_TO_INT (g_hash_table_lookup (by_short, "vectorized_elementwise_kernel")) - 1, ==, 10);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (
                     by_short, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT")) -
                     1,
                   ==, 1);
  /* Kernels that ran but were not profiled have no entry. */
  g_assert_null (g_hash_table_lookup (by_short, "layer_norm_grad_input_kernel_vectorized"));
  /* Demangled: each of the fourteen launches is its own kernel but the GEMM. */
  g_assert_cmpuint (g_hash_table_size (by_demangled), ==, 13);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (
                     by_demangled, "void at::native::vectorized_elementwise_kernel<(int)4, "
                                   "at::native::FillFunctor<float>, std::array<char *, "
                                   "(unsigned long)1>>(int, T2, T3)")) -
                     1,
                   ==, 8);
}

/* The loader reads the ncu CSVs given with an export and matches them. */
static void
test_loader_attaches (void)
{
  g_autofree char *nsys = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *ncu = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  const char *paths[] = { ncu, nsys, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (run->ncu);
  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 8);
  g_assert_cmpstr (run->prov.kind, ==, "nsys-sqlite");
  g_assert_cmpint (ws_ncu_results_match (run->ncu, 2)->kind, ==, WS_NCU_MATCH_EXACT);
  g_assert_cmpstr (ws_ncu_results_match (run->ncu, 2)->nsys_name, ==,
                   "strided_read(const float *, float *, int, int)");
  /* The file is listed once. */
  g_assert_cmpuint (run->prov.files->len, ==, 2);
}

/* An export of only ncu's errors: named on its own it is an error naming
 * it; brought along by a folder it is skipped with a warning. */
static void
test_loader_errors_only (void)
{
  g_autofree char *bad = ws_test_data ("ncu", "rtx5090_llmperf_raw_errors_only.csv", NULL);
  g_autofree char *good = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *bad_copy = g_build_filename (dir, "a_ncu_raw.csv", NULL);
  g_autofree char *good_copy = g_build_filename (dir, "b_ncu_raw.csv", NULL);
  g_autofree char *data = NULL;
  const char *alone[] = { bad, NULL };
  const char *folder[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) failed = ws_run_load (alone, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autoptr (WsRun) run = NULL;

  g_assert_null (failed);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "rtx5090_llmperf_raw_errors_only.csv"));
  g_clear_error (&error);

  g_assert_true (g_file_get_contents (bad, &data, NULL, NULL));
  g_assert_true (g_file_set_contents (bad_copy, data, -1, NULL));
  g_clear_pointer (&data, g_free);
  g_assert_true (g_file_get_contents (good, &data, NULL, NULL));
  g_assert_true (g_file_set_contents (good_copy, data, -1, NULL));
  run = ws_run_load (folder, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 8);
  g_assert_cmpuint (run->prov.warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (run->prov.warnings, 0), "a_ncu_raw.csv"));
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ncu-match/key/ncu-and-nsys-agree", test_key);
  g_test_add_func ("/ncu-match/bf16/all-matched", test_bf16_all_matched);
  g_test_add_func ("/ncu-match/other-program/unmatched-listed", test_unmatched_listed);
  g_test_add_func ("/ncu-match/probe/verdict-for-bars", test_verdict_for_bars);
  g_test_add_func ("/ncu-match/run-from-ncu", test_run_from_ncu);
  g_test_add_func ("/ncu-match/short-names/longest-launch", test_launches_by_short_name);
  g_test_add_func ("/ncu-match/loader/attaches", test_loader_attaches);
  g_test_add_func ("/ncu-match/loader/errors-only", test_loader_errors_only);

  return g_test_run ();
}
