/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ws-gauges.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"
#include "ws-run-loader.h"
#include "ws-test-fixtures.h"
#include "ws-test-load.h"
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

/* ncu's default name form (--print-kernel-base function) as the BERT and
 * ViT captures printed it, against nsys's demangled names: qualifiers cut
 * in the middle ("unnamed>::"), "const::[" dropped before lambdas, no
 * return type or parameters. */
static void
test_function_form (void)
{
  static const char *const pairs[][2] = {
    { "void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, (bool)0>"
      "(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
      "unnamed>::vectorized_layer_norm_kernel<BFloat16, float, 0>" },
    { "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda("
      "at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() "
      "(instance 7)]::operator ()() const::[lambda(float) (instance 1)], std::array<char *, "
      "(unsigned long)2>, (int)4, TrivialOffsetCalculator<(int)1, unsigned int>, "
      "TrivialOffsetCalculator<(int)1, unsigned int>, at::native::memory::LoadWithCast<(int)1>, "
      "at::native::memory::StoreWithCast<(int)1>>(int, T1, T2, T4, T5, T6, T7)",
      "unrolled_elementwise_kernel<direct_copy_kernel_cuda(TensorIteratorBase &)::[lambda() "
      "(instance 3)]::operator ()() lambda() (instance 7)]::operator ()() lambda(float) (instance "
      "1)], array<char *, 2>, 4, TrivialOffsetCalculator<1, unsigned int>, "
      "TrivialOffsetCalculator<1, unsigned int>, LoadWithCast<1>, StoreWithCast<1>>" },
    { "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
      "std::array<char *, (unsigned long)1>>(int, T2, T3)",
      "vectorized_elementwise_kernel<4, FillFunctor<float>, array<char *, 1>>" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autofree char *a = ws_ncu_match_function_key (pairs[i][0]);
      g_autofree char *b = ws_ncu_match_function_key (pairs[i][1]);

      g_assert_cmpstr (a, ==, b);
    }
  {
    /* The float and bfloat16 layer norms stay apart. */
    g_autofree char *a = ws_ncu_match_function_key (
      "void at::native::<unnamed>::vectorized_layer_norm_kernel<float, float, (bool)0>(int, T2)");
    g_autofree char *b =
      ws_ncu_match_function_key ("unnamed>::vectorized_layer_norm_kernel<BFloat16, float, 0>");

    g_assert_cmpstr (a, !=, b);
  }
}

/* The GPT-2 capture made through `warpscope-cli capture` (ncu 2025.3.1,
 * function-form CSVs): every profiled launch joins the nsys kernel that
 * run.json says its report was made for. */
static void
test_gpt2_capture (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *dir = ws_test_unpack_gpt2 (&tmp);
  const char *paths[] = { dir, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (GArray) unmatched = ws_ncu_match_unmatched (run->ncu);
  g_autofree char *manifest = g_build_filename (dir, "run.json", NULL);
  g_autofree char *text = ws_test_read (manifest);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *kernels;
  guint checked = 0;

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  kernels =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "kernels");
  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 4);
  g_assert_cmpuint (unmatched->len, ==, 0);
  for (guint i = 0; i < ws_ncu_results_n_launches (run->ncu); i++)
    {
      const WsNcuLaunch *launch = ws_ncu_results_launch (run->ncu, i);
      g_autofree char *file =
        g_path_get_basename (g_ptr_array_index (run->ncu->files, launch->file));

      for (guint k = 0; k < json_array_get_length (kernels); k++)
        {
          JsonObject *kernel = json_array_get_object_element (kernels, k);
          g_autofree char *expected_file =
            g_strdup_printf ("%s_ncu_raw.csv", json_object_get_string_member (kernel, "file"));

          if (!g_str_equal (file, expected_file))
            continue;
          g_assert_cmpstr (ws_ncu_results_match (run->ncu, i)->nsys_name, ==,
                           json_object_get_string_member (kernel, "name"));
          checked++;
        }
    }
  g_assert_cmpuint (checked, ==, 4);
  ws_test_rmtree (tmp);
}

/* Whether the run launched kernel @name with @grid and @block. */
static gboolean
nsys_launched_with (const WsRun *run, const char *name, const char *grid, const char *block)
{
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      const WsLaunchConfig *c = ws_run_kernel_config (run, k);
      g_autofree char *g = g_strdup_printf ("(%u, %u, %u)", c->grid[0], c->grid[1], c->grid[2]);
      g_autofree char *b = g_strdup_printf ("(%u, %u, %u)", c->block[0], c->block[1], c->block[2]);

      if (g_str_equal (ws_run_kernel_name (run, k, WS_NAME_DEMANGLED), name) &&
          g_str_equal (g, grid) && g_str_equal (b, block))
        return TRUE;
    }
  return FALSE;
}

/* BERT and ViT inference captured through `warpscope-cli capture` on an
 * H100 (tests/data/captures/h100_bert_vit_capture.log): step 6 exported
 * mangled names, which nsys records too, so every launch joins its
 * kernel exactly, the one run.json says its report was made for, with the
 * grid and block it recorded; the gauge list shows the display name the
 * capture named the report after. */
static void
test_bert_vit_capture (void)
{
  g_autofree char *tmp = ws_test_unpack ("captures/h100_bert_vit_capture.tar.xz");
  const char *targets[] = { "bert_inf", "vit_inf" };

  for (gsize t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autofree char *dir = g_build_filename (tmp, "out", "targets", targets[t], NULL);
      g_autofree char *manifest = g_build_filename (dir, "run.json", NULL);
      g_autofree char *ncu_dir = g_build_filename (dir, "ncu", NULL);
      const char *paths[] = { dir, NULL };
      const char *ncu_paths[] = { ncu_dir, NULL };
      g_autoptr (WsRun) run = ws_test_load_paths (paths);
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonArray *kernels;
      guint checked = 0;

      g_assert_true (json_parser_load_from_file (parser, manifest, NULL));
      kernels = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                              "kernels");
      g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 5);
      for (guint i = 0; i < 5; i++)
        {
          const WsNcuLaunch *launch = ws_ncu_results_launch (run->ncu, i);
          const WsNcuMatch *match = ws_ncu_results_match (run->ncu, i);
          g_autofree char *file =
            g_path_get_basename (g_ptr_array_index (run->ncu->files, launch->file));
          g_autofree char *label = ws_ncu_launch_label (run, run->ncu, i);

          g_assert_cmpint (match->kind, ==, WS_NCU_MATCH_EXACT);
          for (guint k = 0; k < json_array_get_length (kernels); k++)
            {
              JsonObject *kernel = json_array_get_object_element (kernels, k);
              g_autofree char *csv =
                g_strdup_printf ("%s_ncu_raw.csv", json_object_get_string_member (kernel, "file"));

              if (!g_str_equal (csv, file))
                continue;
              g_assert_cmpstr (launch->kernel, ==,
                               json_object_get_string_member (kernel, "mangled"));
              g_assert_cmpstr (match->nsys_name, ==,
                               json_object_get_string_member (kernel, "name"));
              /* The manifest's grid and block are those the kernel ran with
               * most; ncu profiled its first launch, which nsys saw too. */
              g_assert_true (
                nsys_launched_with (run, match->nsys_name, launch->grid, launch->block));
              g_assert_nonnull (json_object_get_string_member (kernel, "grid"));
              g_assert_cmpstr (label, ==, json_object_get_string_member (kernel, "display"));
              checked++;
            }
        }
      g_assert_cmpuint (checked, ==, 5);

      /* The ncu CSVs alone, without the export: the manifest still names
       * each launch's kernel for people. */
      {
        g_autoptr (WsRun) alone = ws_test_load_paths (ncu_paths);

        for (guint i = 0; i < ws_ncu_results_n_launches (alone->ncu); i++)
          {
            g_autofree char *label = ws_ncu_launch_label (alone, alone->ncu, i);

            g_assert_false (g_str_has_prefix (label, "_Z"));
          }
      }
    }
  ws_test_rmtree (tmp);
}

/* ncu's function form of a C kernel ("strided_read", no parameters, as
 * ncu 2025.3.1 printed it for the H200 probe report) joins the export's
 * "strided_read(const float *, float *, int, int)" (by nsys's short name);
 * its mangled form
 * "_Z12strided_readPKfPfii" joins exactly. */
static void
test_function_and_mangled_forms (void)
{
  g_autofree char *db = ws_test_data ("capture-h200", "probe", "nsys", "probe.sqlite", NULL);
  g_autofree char *function =
    ws_test_data ("tools", "ncu-2025.3.1_import_strided_read_function.csv", NULL);
  g_autofree char *mangled =
    ws_test_data ("tools", "ncu-2025.3.1_import_strided_read_mangled.csv", NULL);
  const char *function_paths[] = { db, function, NULL };
  const char *mangled_paths[] = { db, mangled, NULL };
  g_autoptr (WsRun) a = ws_test_load_paths (function_paths);
  g_autoptr (WsRun) b = ws_test_load_paths (mangled_paths);

  g_assert_cmpstr (ws_ncu_results_launch (a->ncu, 0)->kernel, ==, "strided_read");
  g_assert_cmpstr (ws_ncu_results_match (a->ncu, 0)->nsys_name, ==,
                   "strided_read(const float *, float *, int, int)");
  /* nsys's short name is the function form: an exact match. */
  g_assert_cmpint (ws_ncu_results_match (a->ncu, 0)->kind, ==, WS_NCU_MATCH_EXACT);
  g_assert_cmpstr (ws_ncu_results_launch (b->ncu, 0)->kernel, ==, "_Z12strided_readPKfPfii");
  g_assert_cmpint (ws_ncu_results_match (b->ncu, 0)->kind, ==, WS_NCU_MATCH_EXACT);
  g_assert_cmpstr (ws_ncu_results_match (b->ncu, 0)->nsys_name, ==,
                   "strided_read(const float *, float *, int, int)");
}

/* The GPT-2 capture's ncu CSVs with the export of another program (the
 * fp32 training loop): its cutlass_80 Kernel2 is the closest name to the
 * GPT-2 capture's cutlass_75 ones, and the list says where they part. */
static void
test_closest_candidate (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *dir = ws_test_unpack_gpt2 (&tmp);
  g_autofree char *csv = g_build_filename (dir, "ncu", "Kernel2_ncu_raw.csv", NULL);
  g_autofree char *db = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  const char *paths[] = { db, csv, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  const WsNcuMatch *m = ws_ncu_results_match (run->ncu, 0);
  g_autofree char *reason = ws_ncu_unmatched_reason (run, run->ncu, 0);

  g_assert_cmpint (m->kind, ==, WS_NCU_MATCH_UNMATCHED);
  g_assert_true (g_str_has_prefix (m->closest, "void cutlass::Kernel2<cutlass_80_simt_sgemm_"));
  /* "Kernel2<cutlass_" is shared: the names part at character 17. */
  g_assert_true (g_str_has_prefix (m->differs, "from character 17: “75_tensorop"));
  g_assert_nonnull (strstr (reason, "closest: Kernel2<cutlass_80_simt_sgemm_"));
  ws_test_rmtree (tmp);
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
  /* l1tex__throughput "89.906975", the busiest unit */
  g_assert_cmpint (ws_ncu_match_verdict_for (results, "barrier_heavy(float *, int)"), ==,
                   WS_VERDICT_MEMORY);
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

/* How ncu and nsys spell one kernel, as read in real files (issue 31):
 * cuDNN's layout kernels, where nsys adds an inner namespace and casts
 * every template argument, and the other spellings of arguments. */
static void
test_spellings (void)
{
  static const char *const pairs[][2] = {
    { "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, (bool)0, (bool)1, "
      "(cudnnKernelDataType_t)2>(cudnn::engines_precompiled::nchw2nhwc_params_t<T3>, const T1 *, "
      "T2 *)",
      "cudnn::nchwToNhwcKernel<float, float, float, 0, 1, 2>" },
    { "void cudnn::engines_precompiled::nchwToNhwcKernel<__nv_bfloat16, __nv_bfloat16, float, "
      "(bool)0, (bool)1, (cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t"
      "<T3>, const T1 *, T2 *)",
      "nchwToNhwcKernel<__nv_bfloat16, __nv_bfloat16, float, false, true, 0>" },
    /* Integer suffixes, and an enum cast with a qualified type. */
    { "void k<(unsigned long)1, (cutlass::FloatRoundStyle)2, (int)-1>(int)", "k<1ul, 2, -1>" },
    { "void k<(unsigned int)4, (long long)8>(int)", "ns::k<4u, 8LL>" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autofree char *a = ws_ncu_match_function_key (pairs[i][0]);
      g_autofree char *b = ws_ncu_match_function_key (pairs[i][1]);

      g_assert_cmpstr (a, ==, b);
    }
  {
    /* Arguments that differ stay apart; names that only end in a
     * suffix letter keep it. */
    g_autofree char *a = ws_ncu_match_function_key ("cudnn::nchwToNhwcKernel<float, 0, 1, 2>");
    g_autofree char *b = ws_ncu_match_function_key ("cudnn::nchwToNhwcKernel<float, 0, 1, 0>");
    g_autofree char *c = ws_ncu_match_function_key ("k<sm90u, 4ux>");

    g_assert_cmpstr (a, !=, b);
    g_assert_cmpstr (c, ==, "k<sm90u,4ux>");
  }
}

/* cuDNN's layout kernel as issue 31 met it: the probe's export and ncu
 * CSV with fma_heavy renamed to it, each tool spelling it its own way.
 * Both launches of it join, and its bars show a verdict, not "Not
 * profiled". */
static void
test_cudnn_layout_kernel (void)
{
  static const char nsys_name[] =
    "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, (bool)0, (bool)1, "
    "(cudnnKernelDataType_t)2>(cudnn::engines_precompiled::nchw2nhwc_params_t<T3>, const T1 *, "
    "T2 *)";
  static const char ncu_name[] = "cudnn::nchwToNhwcKernel<float, float, float, 0, 1, 2>";
  g_autofree char *db_src = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *csv_src = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *db = ws_test_copy_to_tmp (db_src, "cudnn.sqlite");
  g_autofree char *csv = ws_test_copy_to_tmp (csv_src, "cudnn_ncu_raw.csv");
  g_autofree char *text = ws_test_read (csv);
  g_autoptr (GString) renamed = g_string_new (text);
  g_autofree char *sql = g_strdup_printf (
    "UPDATE StringIds SET value = '%s' WHERE value = 'fma_heavy(float *, int, int)';"
    "UPDATE StringIds SET value = 'nchwToNhwcKernel' WHERE value = 'fma_heavy';",
    nsys_name);
  const char *paths[] = { db, csv, NULL };
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GArray) unmatched = NULL;
  g_autofree char *db_dir = g_path_get_dirname (db);
  g_autofree char *csv_dir = g_path_get_dirname (csv);

  g_assert_cmpuint (g_string_replace (renamed, "fma_heavy(float *, int, int)", ncu_name, 0), ==, 2);
  g_assert_true (g_file_set_contents (csv, renamed->str, renamed->len, NULL));
  ws_test_sqlite_exec (db, sql);
  run = ws_test_load_paths (paths);
  unmatched = ws_ncu_match_unmatched (run->ncu);
  g_assert_cmpuint (unmatched->len, ==, 0);
  for (guint i = 0; i < ws_ncu_results_n_launches (run->ncu); i++)
    if (g_str_equal (ws_ncu_results_launch (run->ncu, i)->kernel, ncu_name))
      g_assert_cmpstr (ws_ncu_results_match (run->ncu, i)->nsys_name, ==, nsys_name);
  g_assert_cmpint (ws_ncu_match_launch_for (run->ncu, nsys_name), ==, 0);
  g_assert_cmpint (ws_ncu_match_verdict_for (run->ncu, nsys_name), !=, WS_VERDICT_NONE);
  ws_test_rmtree (db_dir);
  ws_test_rmtree (csv_dir);
}

/* Two kernels whose names differ only in namespaces, launched with the
 * same grid and block: the probe's fma_heavy and strided_read (both
 * (65536, 1, 1) × (256, 1, 1)) renamed in the export to
 * "void one::k<(int)1>(float *)" and "void two::k<(int)1>(float *)", and
 * in the CSV both to "k<1>".  ncu profiled the program's launches in order
 * (fma_heavy, stream_copy, strided_read, barrier_heavy, twice), so order
 * tells them apart; what each launch was comes from the original CSV. */
static void
test_order_decides (void)
{
  g_autofree char *db_src = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *csv_src = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *db = ws_test_copy_to_tmp (db_src, "order.sqlite");
  g_autofree char *csv = ws_test_copy_to_tmp (csv_src, "order_ncu_raw.csv");
  g_autofree char *text = ws_test_read (csv);
  g_autoptr (GString) renamed = g_string_new (text);
  const char *paths[] = { db, csv, NULL };
  g_autoptr (WsRun) original = load_run ("v2025.3_h100_probe.sqlite", "h100_probe_full_raw.csv");
  g_autoptr (WsRun) run = NULL;
  g_autofree char *db_dir = g_path_get_dirname (db);
  g_autofree char *csv_dir = g_path_get_dirname (csv);
  guint checked = 0;

  g_assert_cmpuint (g_string_replace (renamed, "fma_heavy(float *, int, int)", "k<1>", 0), ==, 2);
  g_assert_cmpuint (
    g_string_replace (renamed, "strided_read(const float *, float *, int, int)", "k<1>", 0), ==, 2);
  g_assert_true (g_file_set_contents (csv, renamed->str, renamed->len, NULL));
  ws_test_sqlite_exec (db, "UPDATE StringIds SET value = 'void one::k<(int)1>(float *)' WHERE "
                           "value = 'fma_heavy(float *, int, int)';"
                           "UPDATE StringIds SET value = 'void two::k<(int)1>(float *)' WHERE "
                           "value = 'strided_read(const float *, float *, int, int)';"
                           "UPDATE StringIds SET value = 'k' WHERE value IN ('fma_heavy', "
                           "'strided_read');");
  run = ws_test_load_paths (paths);
  for (guint i = 0; i < ws_ncu_results_n_launches (run->ncu); i++)
    {
      const char *was = ws_ncu_results_launch (original->ncu, i)->kernel;
      const char *expected = g_str_has_prefix (was, "fma_heavy") ? "void one::k<(int)1>(float *)"
                             : g_str_has_prefix (was, "strided_read")
                               ? "void two::k<(int)1>(float *)"
                               : NULL;

      if (expected == NULL)
        continue;
      g_assert_cmpstr (ws_ncu_results_launch (run->ncu, i)->kernel, ==, "k<1>");
      g_assert_cmpstr (ws_ncu_results_match (run->ncu, i)->nsys_name, ==, expected);
      checked++;
    }
  g_assert_cmpuint (checked, ==, 4);
  ws_test_rmtree (db_dir);
  ws_test_rmtree (csv_dir);
}

/* SQL's text literal of @text. */
static char *
sql_quote (const char *text)
{
  GString *out = g_string_new ("'");

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append_c (out, '\'');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

/* The function's own name as ncu wrote it, cut by hand: the last
 * identifier before the first "<" or "(" ("void at::<unnamed>::k<4>(int)"
 * gives "k"). */
static char *
ncu_base_name (const char *kernel)
{
  g_autofree char *plain = g_strdup (kernel);
  char *p, *cut, *start;

  while ((p = strstr (plain, "<unnamed>")) != NULL)
    memcpy (p, " unnamed ", 9);
  cut = plain + strcspn (plain, "<(");
  *cut = '\0';
  start = g_strrstr (plain, "::");
  start = start != NULL ? start + 2 : plain;
  if (strrchr (start, ' ') != NULL)
    start = strrchr (start, ' ') + 1;
  return g_strdup (start);
}

/* The nsys kernel a launch was made by, decided by SQLite over the export
 * from ncu's own cells: the mangled name where ncu gives one, else nsys's
 * short name with every word of ncu's name inside the demangled one; and
 * the grid, block and registers per thread the launch ran with.  Fails
 * the test unless exactly one kernel name fits. */
static char *
expected_kernel (const char *sqlite, const WsNcuResults *ncu, guint i)
{
  const WsNcuLaunch *launch = ws_ncu_results_launch (ncu, i);
  g_autoptr (GString) sql =
    g_string_new ("SELECT count(*) || char(31) || max(v) FROM (SELECT DISTINCT d.value AS v FROM "
                  "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName ");
  g_autofree char *name = sql_quote (launch->kernel);
  g_autofree char *answer = NULL;
  g_auto (GStrv) parts = NULL;
  double registers = 0;
  guint g[3], b[3];

  g_assert_cmpint (sscanf (launch->grid, "(%u, %u, %u)", &g[0], &g[1], &g[2]), ==, 3);
  g_assert_cmpint (sscanf (launch->block, "(%u, %u, %u)", &b[0], &b[1], &b[2]), ==, 3);
  g_assert_true (ws_ncu_results_value (ncu, i, "launch__registers_per_thread", &registers, NULL));
  if (g_str_has_prefix (launch->kernel, "_Z"))
    g_string_append_printf (sql, "JOIN StringIds m ON m.id = k.mangledName WHERE m.value = %s ",
                            name);
  else
    {
      g_autofree char *base = ncu_base_name (launch->kernel);
      g_autofree char *quoted = sql_quote (base);
      g_autoptr (GRegex) word = g_regex_new ("[A-Za-z_][A-Za-z0-9_]*", 0, 0, NULL);
      g_autoptr (GMatchInfo) info = NULL;

      g_string_append_printf (sql, "JOIN StringIds s ON s.id = k.shortName WHERE s.value = %s ",
                              quoted);
      for (g_regex_match (word, launch->kernel, 0, &info); g_match_info_matches (info);
           g_match_info_next (info, NULL))
        {
          g_autofree char *w = g_match_info_fetch (info, 0);
          g_autofree char *q = sql_quote (w);

          g_string_append_printf (sql, "AND instr(d.value, %s) > 0 ", q);
        }
    }
  g_string_append_printf (sql,
                          "AND gridX = %u AND gridY = %u AND gridZ = %u AND blockX = %u AND "
                          "blockY = %u AND blockZ = %u AND registersPerThread = %.0f)",
                          g[0], g[1], g[2], b[0], b[1], b[2], registers);
  answer = ws_test_sqlite_text (sqlite, sql->str);
  g_assert_nonnull (answer);
  parts = g_strsplit (answer, "\x1f", 2);
  if (!g_str_equal (parts[0], "1"))
    g_error ("%s launch %u (%s): %s nsys kernels fit", sqlite, i, launch->kernel, parts[0]);
  return g_strdup (parts[1]);
}

/* Every fixture with ncu CSVs and the export of the same program: every
 * launch joins, and joins the kernel that SQLite finds for it. */
static void
test_every_fixture_joins (void)
{
  g_autoptr (GPtrArray) fixtures = ws_test_ncu_fixtures ();
  guint total = 0;

  for (guint f = 0; f < fixtures->len; f++)
    {
      const WsTestNcuFixture *fixture = g_ptr_array_index (fixtures, f);
      g_autoptr (WsRun) run = ws_test_load_paths ((const char *const *) fixture->paths->pdata);
      guint n;

      g_assert_nonnull (run->ncu);
      n = ws_ncu_results_n_launches (run->ncu);
      g_assert_cmpuint (n, >, 0);
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *expected = expected_kernel (fixture->sqlite, run->ncu, i);
          const WsNcuMatch *match = ws_ncu_results_match (run->ncu, i);

          if (g_strcmp0 (match->nsys_name, expected) != 0)
            g_error ("%s launch %u (%s) joined %s, not %s", fixture->name, i,
                     ws_ncu_results_launch (run->ncu, i)->kernel,
                     match->nsys_name != NULL ? match->nsys_name : "nothing", expected);
        }
      g_test_message ("%s: %u launches joined", fixture->name, n);
      total += n;
    }
  g_test_message ("%u fixtures, %u launches", fixtures->len, total);
  g_assert_cmpuint (fixtures->len, ==, 12);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ncu-match/key/ncu-and-nsys-agree", test_key);
  g_test_add_func ("/ncu-match/bf16/all-matched", test_bf16_all_matched);
  g_test_add_func ("/ncu-match/key/function-form", test_function_form);
  g_test_add_func ("/ncu-match/key/spellings-of-both-tools", test_spellings);
  g_test_add_func ("/ncu-match/cudnn/layout-kernel-joins", test_cudnn_layout_kernel);
  g_test_add_func ("/ncu-match/same-name-and-grid/order-decides", test_order_decides);
  g_test_add_func ("/ncu-match/fixtures/every-launch-joins-its-sql-kernel",
                   test_every_fixture_joins);
  g_test_add_func ("/ncu-match/gpt2-capture/every-launch-joins", test_gpt2_capture);
  g_test_add_func ("/ncu-match/other-program/closest-candidate", test_closest_candidate);
  g_test_add_func ("/ncu-match/bert-vit-capture/every-launch-joins-exactly", test_bert_vit_capture);
  g_test_add_func ("/ncu-match/probe/function-and-mangled-forms", test_function_and_mangled_forms);
  g_test_add_func ("/ncu-match/other-program/unmatched-listed", test_unmatched_listed);
  g_test_add_func ("/ncu-match/probe/verdict-for-bars", test_verdict_for_bars);
  g_test_add_func ("/ncu-match/run-from-ncu", test_run_from_ncu);
  g_test_add_func ("/ncu-match/short-names/longest-launch", test_launches_by_short_name);
  g_test_add_func ("/ncu-match/loader/attaches", test_loader_attaches);
  g_test_add_func ("/ncu-match/loader/errors-only", test_loader_errors_only);

  return g_test_run ();
}
