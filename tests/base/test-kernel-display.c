/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-kernel-display.h"
#include "ws-stats.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* Display names that keep what tells kernels apart: the functor, the
 * function that holds a lambda, the first template argument that is not a
 * number.  Full names from the GPT-2 capture and the H100 fixtures. */
static void
test_brief (void)
{
  static const char *const cases[][2] = {
    { "void cutlass::Kernel2<cutlass_80_tensorop_f16_s16816gemm_f16_128x256_64x3_tn_align2>"
      "(T1::Params)",
      "Kernel2<cutlass_80_tensorop_f16_s16816gemm_f16_128x256_64x3_tn_align2>" },
    { "void at::native::vectorized_elementwise_kernel<(int)4, at::native::GeluCUDAKernelImpl("
      "at::TensorIteratorBase &, at::native::GeluType)::[lambda() (instance 1)]::operator ()() "
      "const::[lambda() (instance 4)]::operator ()() const::[lambda(float) (instance 1)], "
      "std::array<char *, (unsigned long)2>>(int, T2, T3)",
      "vectorized_elementwise_kernel<GeluCUDAKernelImpl…>" },
    { "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda("
      "at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() "
      "(instance 7)]::operator ()() const::[lambda(float) (instance 1)], std::array<char *, "
      "(unsigned long)2>, (int)4, TrivialOffsetCalculator<(int)1, unsigned int>, "
      "TrivialOffsetCalculator<(int)1, unsigned int>, at::native::memory::LoadWithCast<(int)1>, "
      "at::native::memory::StoreWithCast<(int)1>>(int, T1, T2, T4, T5, T6, T7)",
      "unrolled_elementwise_kernel<direct_copy_kernel_cuda…>" },
    { "void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, (bool)0>"
      "(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
      "vectorized_layer_norm_kernel<BFloat16…>" },
    { "void at::native::vectorized_elementwise_kernel<(int)8, at::native::CUDAFunctor_add<"
      "c10::BFloat16>, std::array<char *, (unsigned long)3>>(int, T2, T3)",
      "vectorized_elementwise_kernel<CUDAFunctor_add<BFloat16>…>" },
    { "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT",
      "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT" },
    { "barrier_heavy(float *, int)", "barrier_heavy" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *brief = ws_kernel_display_name (cases[i][0], WS_KERNEL_DISPLAY_BRIEF);

      g_assert_cmpstr (brief, ==, cases[i][1]);
      /* Never what the old labels left: an ellipsis before the tail. */
      g_assert_false (g_str_has_prefix (brief, "…"));
    }
}

/* Two instantiations that read alike get more detail, only they. */
static void
test_more_detail (void)
{
  const char *names[] = {
    "void at::native::vectorized_elementwise_kernel<(int)4, at::native::AUnaryFunctor<float, "
    "float, float, at::native::binary_internal::MulFunctor<float>>, std::array<char *, "
    "(unsigned long)2>>(int, T2, T3)",
    "void at::native::vectorized_elementwise_kernel<(int)8, at::native::AUnaryFunctor<float, "
    "float, float, at::native::binary_internal::MulFunctor<float>>, std::array<char *, "
    "(unsigned long)2>>(int, T2, T3)",
    "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
    "std::array<char *, (unsigned long)1>>(int, T2, T3)",
    "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
    "std::array<char *, (unsigned long)1>>(int, T2, T3)",
  };
  g_auto (GStrv) labels = ws_kernel_display_names (names, G_N_ELEMENTS (names));

  g_assert_cmpstr (labels[0], ==,
                   "vectorized_elementwise_kernel<4, AUnaryFunctor<MulFunctor<float>…>, "
                   "array<char *, 2>>");
  g_assert_cmpstr (labels[1], ==,
                   "vectorized_elementwise_kernel<8, AUnaryFunctor<MulFunctor<float>…>, "
                   "array<char *, 2>>");
  /* One kernel named twice keeps one brief name. */
  g_assert_cmpstr (labels[2], ==, "vectorized_elementwise_kernel<FillFunctor<float>…>");
  g_assert_cmpstr (labels[3], ==, labels[2]);
}

/* No two distinct kernels of a run share a display name, and none is
 * longer than WS_KERNEL_DISPLAY_MAX_CHARS. */
static void
assert_unique (const WsRun *run, const char *what)
{
  g_autoptr (GHashTable) owner = g_hash_table_new (g_str_hash, g_str_equal);
  guint distinct = 0;

  for (gsize k = 0; k < run->kernels.n; k++)
    {
      const char *full = ws_run_kernel_name (run, k, WS_NAME_DEMANGLED);
      const char *display = ws_run_kernel_name (run, k, WS_NAME_DISPLAY);
      const char *seen = g_hash_table_lookup (owner, display);

      g_assert_cmpstr (display, !=, "");
      g_assert_cmpint (g_utf8_strlen (display, -1), <=, WS_KERNEL_DISPLAY_MAX_CHARS);
      if (seen == NULL)
        {
          g_hash_table_insert (owner, (gpointer) display, (gpointer) full);
          distinct++;
        }
      else if (!g_str_equal (seen, full))
        g_error ("%s: “%s” names “%s” and “%s”", what, display, seen, full);
    }
  g_test_message ("%s: %u kernels, display names unique", what, distinct);
}

static void
test_unique_in_every_export (void)
{
  g_autofree char *dir = ws_test_data ("nsys", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autoptr (WsRun) run = NULL;

      if (!g_str_has_suffix (name, ".sqlite"))
        continue;
      run = ws_test_load_nsys (name);
      assert_unique (run, name);
      n++;
    }
  g_assert_cmpuint (n, ==, 12);
}

/* The captures: the GPT-2 one (74 kernels), the H200 probe, two DDP ranks. */
static void
test_unique_in_captures (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *dir = ws_test_unpack_gpt2 (&tmp);
  g_autofree char *gpt2 = g_build_filename (dir, "nsys", "GPT2__.sqlite", NULL);
  g_autofree char *probe = ws_test_data ("capture-h200", "probe", "nsys", "probe.sqlite", NULL);
  g_autofree char *rank0 = ws_test_unxz ("multirank/rank0.sqlite.xz", tmp);
  g_autofree char *rank3 = ws_test_unxz ("multirank/rank3.sqlite.xz", tmp);
  const char *files[] = { gpt2, probe, rank0, rank3 };

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      const char *paths[] = { files[i], NULL };
      g_autoptr (WsRun) run = ws_test_load_paths (paths);

      assert_unique (run, files[i]);
    }
  ws_test_rmtree (tmp);
}

/* `nsys stats` kernel summaries kept without their export (the llmperf
 * CSVs): their rows' display names are unique too. */
static void
test_unique_in_stats_csvs (void)
{
  g_autofree char *dir = ws_test_data ("nsys-stats", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      const char *paths[] = { NULL, NULL };
      g_autoptr (WsRun) run = NULL;
      const WsSummary *summary;
      g_autofree const char **names = NULL;
      g_auto (GStrv) labels = NULL;
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      if (!g_str_has_suffix (name, "_cuda_gpu_kern_sum.csv"))
        continue;
      path = g_build_filename (dir, name, NULL);
      paths[0] = path;
      run = ws_test_load_paths (paths);
      summary = ws_run_get_summary (run, WS_SUMMARY_KERN_SUM);
      g_assert_nonnull (summary);
      names = g_new0 (const char *, summary->rows->len + 1);
      for (guint i = 0; i < summary->rows->len; i++)
        names[i] = g_array_index (summary->rows, WsSummaryRow, i).name;
      labels = ws_kernel_display_names (names, summary->rows->len);
      for (guint i = 0; i < summary->rows->len; i++)
        {
          g_assert_true (g_hash_table_add (seen, labels[i]));
          g_assert_cmpint (g_utf8_strlen (labels[i], -1), <=, WS_KERNEL_DISPLAY_MAX_CHARS);
        }
      n++;
    }
  g_assert_cmpuint (n, >=, 9);
}

/* Issue 31: three cutlass GEMMs that differ near their end (tn, nt, nn)
 * read alike when cut at the end; fitted, each keeps its start and what
 * tells it apart.  CloverLeaf's lambdas (v2024.5_pipit_cloverleaf_4gpu:
 * display names of up to 421 characters before) differ at their end only. */
static void
test_fit_keeps_what_differs (void)
{
  static const char *const gemms[] = {
    "Kernel2<cutlass_80_tensorop_f16_s16816gemm_f16_128x256_64x3_tn_align8>",
    "Kernel2<cutlass_80_tensorop_f16_s16816gemm_f16_128x256_64x3_nt_align8>",
    "Kernel2<cutlass_80_tensorop_f16_s16816gemm_f16_128x256_64x3_nn_align8>",
    "Kernel2<cutlass_80_tensorop_f16_s16816gemm_f16_128x256_64x3_nn_align8>",
  };
  static const char *const tags[] = { "tn", "nt", "nn", "nn" };
  g_autofree char *buffers = g_strnfill (14 * 20, 'x');
  g_autofree char *a =
    g_strdup_printf ("par_ranged2d_kernel<k(%s)::[lambda(int, int) (instance 1)]>", buffers);
  g_autofree char *b =
    g_strdup_printf ("par_ranged2d_kernel<k(%s)::[lambda(int, int) (instance 11)]>", buffers);
  const char *lambdas[] = { a, b };

  for (guint max = 12; max <= 44; max += 8)
    {
      g_auto (GStrv) fitted = ws_kernel_display_fit (gemms, G_N_ELEMENTS (gemms), max);

      for (guint i = 0; i < G_N_ELEMENTS (gemms); i++)
        {
          g_assert_cmpint (g_utf8_strlen (fitted[i], -1), <=, max);
          if (strstr (fitted[i], tags[i]) == NULL)
            g_error ("%u characters: “%s” lost “%s”", max, fitted[i], tags[i]);
        }
      g_assert_cmpstr (fitted[0], !=, fitted[1]);
      g_assert_cmpstr (fitted[1], !=, fitted[2]);
      g_assert_cmpstr (fitted[0], !=, fitted[2]);
      /* Equal names stay equal. */
      g_assert_cmpstr (fitted[2], ==, fitted[3]);
    }
  {
    g_auto (GStrv) fitted = ws_kernel_display_fit (gemms, 3, 40);

    /* The start names the kernel. */
    g_assert_true (g_str_has_prefix (fitted[0], "Kernel2<cutlass_"));
  }
  {
    g_auto (GStrv) fitted = ws_kernel_display_fit (lambdas, 2, WS_KERNEL_DISPLAY_MAX_CHARS);

    g_assert_cmpint (g_utf8_strlen (fitted[0], -1), <=, WS_KERNEL_DISPLAY_MAX_CHARS);
    g_assert_true (g_str_has_prefix (fitted[0], "par_ranged2d_kernel<k(xxx"));
    g_assert_true (g_str_has_suffix (fitted[0], "instance 1)]>"));
    g_assert_true (g_str_has_suffix (fitted[1], "instance 11)]>"));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kernel-display/brief", test_brief);
  g_test_add_func ("/kernel-display/more-detail-where-alike", test_more_detail);
  g_test_add_func ("/kernel-display/fit/keeps-what-differs", test_fit_keeps_what_differs);
  g_test_add_func ("/kernel-display/unique/every-export", test_unique_in_every_export);
  g_test_add_func ("/kernel-display/unique/captures", test_unique_in_captures);
  g_test_add_func ("/kernel-display/unique/stats-csvs", test_unique_in_stats_csvs);
  return g_test_run ();
}
