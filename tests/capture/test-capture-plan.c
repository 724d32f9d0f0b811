/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-capture-error.h"
#include "ws-capture-launch.h"
#include "ws-capture-plan.h"
#include "ws-capture-settings.h"
#include "ws-kernel-name.h"
#include "ws-test-util.h"
#include "ws-tool-find.h"
#include "ws-tool-query.h"
#include "ws-tools-error.h"

static const char *const base_env[] = { "PATH=/usr/bin:/bin", "HOME=/home/u", NULL };

static void
assert_argv (char **argv, const char *const *expected)
{
  g_autofree char *got = g_strjoinv ("\n", argv);
  g_autofree char *want = g_strjoinv ("\n", (char **) expected);

  g_assert_cmpstr (got, ==, want);
}

static WsCapturePlan *
make_plan (const WsCaptureSettings *settings, const char *envs)
{
  const WsCaptureTarget target = {
    .name = "bert inf",
    .cmd = "python infer.py --bs 8 | tee log.txt",
    .workdir = "/work/models",
    .envs = envs,
  };
  g_autoptr (GError) error = NULL;
  WsCapturePlan *plan = ws_capture_plan_new (&target, "bert_inf", "/out/targets", settings,
                                             "/opt/nsys", "/opt/ncu", base_env, &error);

  g_assert_no_error (error);
  g_assert_nonnull (plan);
  return plan;
}

/* The command lines of steps 2 and 3 (docs/formats.md, "The six steps"),
 * written out by hand. */
static void
test_nsys_steps (void)
{
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (WsCapturePlan) plan = NULL;
  const WsCaptureCommand *profile, *stats;
  const char *const profile_argv[] = {
    "/opt/nsys",
    "profile",
    "--force-overwrite=true",
    "--trace=cuda,nvtx",
    "--sample=none",
    "--capture-range=nvtx",
    "--nvtx-capture=训练 step@probe",
    "--capture-range-end=stop",
    "--duration=30",
    "--cuda-graph-trace=graph",
    "--output",
    "/out/targets/bert_inf/nsys/bert_inf",
    "bash",
    "-lc",
    "python infer.py --bs 8 | tee log.txt",
    NULL,
  };
  const char *const stats_argv[] = {
    "/opt/nsys",
    "stats",
    "--report",
    "cuda_gpu_kern_sum",
    "--format",
    "csv",
    "--force-export=true",
    "--force-overwrite=true",
    "--output",
    "/out/targets/bert_inf/nsys/bert_inf",
    "/out/targets/bert_inf/nsys/bert_inf.nsys-rep",
    NULL,
  };

  g_free (settings->nsys_trace);
  settings->nsys_trace = g_strdup ("cuda,nvtx");
  settings->nvtx_range = g_strdup ("训练 step@probe");
  settings->nsys_duration = 30;
  g_free (settings->nsys_cuda_graph_trace);
  settings->nsys_cuda_graph_trace = g_strdup ("graph");
  plan = make_plan (settings, "CUDA_VISIBLE_DEVICES=0, A=1=2");

  g_assert_cmpstr (plan->dir, ==, "/out/targets/bert_inf");
  g_assert_cmpuint (plan->steps[WS_CAPTURE_STEP_PREPARE]->len, ==, 0);
  g_assert_cmpuint (plan->steps[WS_CAPTURE_STEP_NSYS_PROFILE]->len, ==, 1);
  profile = g_ptr_array_index (plan->steps[WS_CAPTURE_STEP_NSYS_PROFILE], 0);
  assert_argv (profile->argv, profile_argv);
  g_assert_cmpstr (profile->cwd, ==, "/work/models");
  g_assert_cmpstr (profile->outputs[0], ==, "/out/targets/bert_inf/nsys/bert_inf.nsys-rep");
  g_assert_null (profile->stdout_path);

  /* ENVS go to the environment, PATH stays, nothing is spliced into CMD. */
  g_assert_cmpstr (g_environ_getenv (profile->envp, "CUDA_VISIBLE_DEVICES"), ==, "0");
  g_assert_cmpstr (g_environ_getenv (profile->envp, "A"), ==, "1=2");
  g_assert_cmpstr (g_environ_getenv (profile->envp, "PATH"), ==, "/usr/bin:/bin");
  g_assert_cmpstr (g_environ_getenv (profile->envp, "NSYS_NVTX_PROFILER_REGISTER_ONLY"), ==, "0");
  g_assert_cmpuint (g_strv_length (profile->env_added), ==, 3);

  stats = g_ptr_array_index (plan->steps[WS_CAPTURE_STEP_NSYS_STATS], 0);
  assert_argv (stats->argv, stats_argv);
  g_assert_cmpstr (stats->outputs[0], ==, "/out/targets/bert_inf/nsys/bert_inf.sqlite");
  g_assert_cmpstr (plan->kern_sum_csv, ==,
                   "/out/targets/bert_inf/nsys/bert_inf_cuda_gpu_kern_sum.csv");
}

/* Without a range or a duration those options are absent, and an empty
 * ENVS adds nothing to the environment. */
static void
test_nsys_defaults (void)
{
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (WsCapturePlan) plan = make_plan (settings, "-");
  const WsCaptureCommand *profile = g_ptr_array_index (plan->steps[2], 0);
  const char *const expected[] = {
    "/opt/nsys",
    "profile",
    "--force-overwrite=true",
    "--trace=cuda,nvtx,osrt",
    "--sample=none",
    /* The launcher's default: each kernel of a CUDA graph in the kernel
     * table (docs/cuda-graphs.md). */
    "--cuda-graph-trace=node",
    "--output",
    "/out/targets/bert_inf/nsys/bert_inf",
    "bash",
    "-lc",
    "python infer.py --bs 8 | tee log.txt",
    NULL,
  };

  assert_argv (profile->argv, expected);
  assert_argv (profile->envp, base_env);
  g_assert_cmpuint (g_strv_length (profile->env_added), ==, 0);
}

static GPtrArray *
real_top (guint n)
{
  g_autofree char *csv =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autoptr (GError) error = NULL;
  GPtrArray *kernels = ws_capture_read_top_kernels (csv, n, NULL, NULL, &error);

  g_assert_no_error (error);
  return kernels;
}

/* Steps 5 and 6, one ncu run per kernel: the kernels are those of the real
 * kernel summary, largest total first. */
static void
test_ncu_multi_run (void)
{
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (WsCapturePlan) plan = make_plan (settings, "A=1");
  const WsCaptureCommand *profile, *export;
  const char *const profile_argv[] = {
    "/opt/ncu",
    "-f",
    "-o",
    "/out/targets/bert_inf/ncu/barrier_heavy",
    "--kernel-name-base",
    "demangled",
    "--kernel-name",
    "regex:barrier_heavy\\(float \\*, int\\)",
    "--set",
    "full",
    "--cache-control",
    "all",
    "--clock-control",
    "base",
    "--target-processes",
    "all",
    "--graph-profiling",
    "node",
    "bash",
    "-lc",
    "python infer.py --bs 8 | tee log.txt",
    NULL,
  };
  const char *const export_argv[] = {
    "/opt/ncu",      "--import", "/out/targets/bert_inf/ncu/strided_read.ncu-rep",
    "--csv",         "--page",   "raw",
    "--print-units", "base",     "--print-kernel-base",
    "mangled",       NULL,
  };

  ws_capture_plan_set_kernels (plan, real_top (2));
  g_assert_cmpuint (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE]->len, ==, 2);
  g_assert_cmpuint (plan->steps[WS_CAPTURE_STEP_NCU_EXPORT]->len, ==, 2);
  profile = g_ptr_array_index (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE], 0);
  assert_argv (profile->argv, profile_argv);
  g_assert_cmpstr (profile->cwd, ==, "/work/models");
  g_assert_cmpstr (profile->outputs[0], ==, "/out/targets/bert_inf/ncu/barrier_heavy.ncu-rep");
  g_assert_cmpstr (g_environ_getenv (profile->envp, "A"), ==, "1");

  export = g_ptr_array_index (plan->steps[WS_CAPTURE_STEP_NCU_EXPORT], 1);
  assert_argv (export->argv, export_argv);
  g_assert_cmpstr (export->stdout_path, ==, "/out/targets/bert_inf/ncu/strided_read_ncu_raw.csv");
  g_assert_cmpstr (export->kernel, ==, "strided_read(const float *, float *, int, int)");
}

/* A kernel that also ran inside CUDA graphs: ncu skips the launches made
 * before its first replay (WsCaptureKernel.skip, from the export), so
 * that the launch it profiles is one of a replay; the plan is made anew
 * once step 4's lookup has said so. */
static void
test_ncu_launch_skip (void)
{
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (WsCapturePlan) plan = make_plan (settings, "A=1");
  const WsCaptureCommand *first, *second;
  gboolean skipped = FALSE;

  ws_capture_plan_set_kernels (plan, real_top (2));
  ((WsCaptureKernel *) g_ptr_array_index (plan->kernels, 0))->skip = 48;
  ws_capture_plan_refresh_ncu (plan);
  g_assert_cmpuint (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE]->len, ==, 2);
  first = g_ptr_array_index (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE], 0);
  second = g_ptr_array_index (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE], 1);
  for (guint i = 0; first->argv[i] != NULL; i++)
    if (g_str_equal (first->argv[i], "--launch-skip"))
      {
        g_assert_cmpstr (first->argv[i + 1], ==, "48");
        skipped = TRUE;
      }
  g_assert_true (skipped);
  for (guint i = 0; second->argv[i] != NULL; i++)
    g_assert_cmpstr (second->argv[i], !=, "--launch-skip");
}

/* One combined ncu run (NCU_MULTI_RUN=0) with sections instead of a set,
 * a launch count and the NVTX range. */
static void
test_ncu_single_run (void)
{
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (WsCapturePlan) plan = NULL;
  const WsCaptureCommand *profile, *export;
  const char *const profile_argv[] = {
    "/opt/ncu",
    "-f",
    "-o",
    "/out/targets/bert_inf/ncu/bert_inf",
    "--kernel-name-base",
    "demangled",
    "--kernel-name",
    "regex:(barrier_heavy\\(float \\*, int\\)|strided_read\\(const float \\*, float \\*, int, "
    "int\\))",
    /* ncu counts launches over every kernel of its filter: 2 each of 2. */
    "--launch-count",
    "4",
    "--section",
    "SpeedOfLight",
    "--section",
    "WarpStateStats",
    "--cache-control",
    "none",
    "--clock-control",
    "none",
    "--target-processes",
    "all",
    "--graph-profiling",
    "node",
    "--nvtx",
    "bash",
    "-lc",
    "python infer.py --bs 8 | tee log.txt",
    NULL,
  };

  settings->ncu_multi_run = FALSE;
  settings->ncu_sections = g_strdup ("SpeedOfLight, WarpStateStats");
  settings->ncu_launch_count = 2;
  settings->nvtx_range = g_strdup ("step@probe");
  g_free (settings->cache_control);
  settings->cache_control = g_strdup ("none");
  g_free (settings->clock_control);
  settings->clock_control = g_strdup ("none");
  plan = make_plan (settings, NULL);
  ws_capture_plan_set_kernels (plan, real_top (2));

  g_assert_cmpuint (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE]->len, ==, 1);
  profile = g_ptr_array_index (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE], 0);
  assert_argv (profile->argv, profile_argv);
  export = g_ptr_array_index (plan->steps[WS_CAPTURE_STEP_NCU_EXPORT], 0);
  g_assert_cmpstr (export->stdout_path, ==, "/out/targets/bert_inf/ncu/bert_inf_ncu_raw.csv");
}

/* The kernels of the real summary by total time (its rows, which nsys
 * sorts by total), and a regex that an independent engine (PCRE, through
 * GRegex) finds in each kernel's own name and in no other. */
static void
test_top_kernels (void)
{
  g_autoptr (GPtrArray) all = real_top (10);
  g_autoptr (GPtrArray) three = real_top (3);
  const char *const names[] = {
    "barrier_heavy(float *, int)",
    "strided_read(const float *, float *, int, int)",
    "fma_heavy(float *, int, int)",
    "tiny(float *)",
    "stream_copy(const float4 *, float4 *, int)",
    "imbalanced(float *, int, int)",
  };
  const gint64 totals[] = { 1358714, 1243736, 924306, 327111, 151811, 73698 };
  const char *const files[] = { "barrier_heavy", "strided_read", "fma_heavy",
                                "tiny",          "stream_copy",  "imbalanced" };

  g_assert_cmpuint (all->len, ==, 6);
  g_assert_cmpuint (three->len, ==, 3);
  for (guint i = 0; i < all->len; i++)
    {
      const WsCaptureKernel *kernel = g_ptr_array_index (all, i);
      g_autofree char *arg = ws_capture_kernel_regex (all, i, 1);
      g_autoptr (GRegex) regex = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_cmpstr (kernel->name, ==, names[i]);
      g_assert_cmpint (kernel->total, ==, totals[i]);
      g_assert_cmpstr (kernel->file, ==, files[i]);

      g_assert_true (g_str_has_prefix (arg, "regex:"));
      regex = g_regex_new (arg + strlen ("regex:"), 0, 0, &error);
      g_assert_no_error (error);
      for (guint j = 0; j < G_N_ELEMENTS (names); j++)
        g_assert_cmpint (g_regex_match (regex, names[j], 0, NULL), ==, i == j);
    }

  {
    g_autofree char *arg = ws_capture_kernel_regex (all, 0, 3);
    g_autoptr (GRegex) regex = g_regex_new (arg + strlen ("regex:"), 0, 0, NULL);

    for (guint j = 0; j < G_N_ELEMENTS (names); j++)
      g_assert_cmpint (g_regex_match (regex, names[j], 0, NULL), ==, j < 3);
  }
}

/* A job's top kernels add up the ranks' summaries, and each is profiled
 * on the rank whose summary gives it the most time: a kernel that only the
 * straggler runs (its extra work) is no kernel of rank 0's.  Summaries
 * written here, totals by hand: C 500 (rank 3 alone), A 100 + 120 (rank 1
 * runs it most), B 10 + 10 + 10. */
static void
test_top_kernels_of_ranks (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  const char *header = "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),"
                       "StdDev (ns),Name\n";
  const char *rows[] = {
    "50.0,100,1,100.0,100.0,100,100,0.0,A\n10.0,10,1,10.0,10.0,10,10,0.0,B\n",
    "60.0,120,1,120.0,120.0,120,120,0.0,A\n10.0,10,1,10.0,10.0,10,10,0.0,B\n",
    "100.0,10,1,10.0,10.0,10,10,0.0,B\n",
    "100.0,500,1,500.0,500.0,500,500,0.0,C\n",
  };
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) top = NULL;
  g_autoptr (GError) error = NULL;
  WsCaptureLaunch launch = { 0 };
  g_autofree char *line = NULL;
  char *ncu[] = { (char *) "ncu", (char *) "-o", (char *) "k", NULL };

  for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
    {
      g_autofree char *name = g_strdup_printf ("rank%u_cuda_gpu_kern_sum.csv", r);
      char *path = g_build_filename (dir, name, NULL);
      g_autofree char *text = g_strconcat (header, rows[r], NULL);

      g_assert_true (g_file_set_contents (path, text, -1, NULL));
      g_ptr_array_add (paths, path);
    }
  g_ptr_array_add (paths, NULL);
  top =
    ws_capture_read_top_kernels_merged ((const char *const *) paths->pdata, 2, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (top->len, ==, 2);
  g_assert_cmpstr (((WsCaptureKernel *) g_ptr_array_index (top, 0))->name, ==, "C");
  g_assert_cmpint (((WsCaptureKernel *) g_ptr_array_index (top, 0))->total, ==, 500);
  g_assert_cmpuint (((WsCaptureKernel *) g_ptr_array_index (top, 0))->rank, ==, 3);
  g_assert_cmpstr (((WsCaptureKernel *) g_ptr_array_index (top, 1))->name, ==, "A");
  g_assert_cmpint (((WsCaptureKernel *) g_ptr_array_index (top, 1))->total, ==, 220);
  g_assert_cmpuint (((WsCaptureKernel *) g_ptr_array_index (top, 1))->rank, ==, 1);

  /* ncu goes over that rank alone. */
  g_assert_true (ws_capture_launch_parse ("torchrun --nproc_per_node 4 train.py", &launch, &error));
  g_assert_no_error (error);
  line = ws_capture_launch_on_rank (&launch, 3, ncu);
  g_test_message ("%s", line);
  g_assert_nonnull (strstr (line, "\"${RANK:-0}\" = 3 ]"));
  ws_capture_launch_clear (&launch);
  ws_test_rmtree (dir);
}

/* A summary with its header only, or none at all: step 4 fails and says
 * which file. */
static void
test_top_kernels_missing (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *empty = g_build_filename (dir, "x_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *missing = g_build_filename (dir, "y_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *csv =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *kernels;

  g_assert_true (g_file_get_contents (csv, &contents, NULL, NULL));
  *strchr (contents, '\n') = '\0';
  g_assert_true (g_file_set_contents (empty, contents, -1, NULL));

  kernels = ws_capture_read_top_kernels (empty, 10, NULL, NULL, &error);
  g_assert_null (kernels);
  g_assert_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_STEP_FAILED);
  g_assert_true (g_str_has_prefix (error->message, empty));
  g_assert_nonnull (strstr (error->message, "lists no kernels"));
  g_clear_error (&error);

  kernels = ws_capture_read_top_kernels (missing, 10, NULL, NULL, &error);
  g_assert_null (kernels);
  g_assert_true (g_str_has_prefix (error->message, missing));
  ws_test_rmtree (dir);
}

/* Template and overloaded kernels get short file names, unique. */
static void
test_kernel_file_names (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *csv = g_build_filename (dir, "k_cuda_gpu_kern_sum.csv", NULL);
  g_autoptr (GPtrArray) kernels = NULL;
  g_autoptr (GError) error = NULL;
  const char *text =
    "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
    "50.0,300,1,300.0,300.0,300,300,0.0,\"void at::native::vectorized_elementwise_kernel<4, "
    "at::native::FillFunctor<float>, std::array<char *, 1>>(int, T2, T3)\"\n"
    "30.0,200,1,200.0,200.0,200,200,0.0,\"gemm(float *, int)\"\n"
    "20.0,100,1,100.0,100.0,100,100,0.0,\"gemm(double *, int)\"\n";

  g_assert_true (g_file_set_contents (csv, text, -1, NULL));
  kernels = ws_capture_read_top_kernels (csv, 10, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (kernels->len, ==, 3);
  /* Named after display names: the functor says which elementwise kernel,
   * the parameters which overload. */
  g_assert_cmpstr (((WsCaptureKernel *) kernels->pdata[0])->file, ==,
                   "vectorized_elementwise_kernel_FillFunctor_float");
  g_assert_cmpstr (((WsCaptureKernel *) kernels->pdata[1])->file, ==, "gemm_float_int");
  g_assert_cmpstr (((WsCaptureKernel *) kernels->pdata[2])->file, ==, "gemm_double_int");
  g_assert_cmpstr (((WsCaptureKernel *) kernels->pdata[1])->display, ==, "gemm(float *, int)");
  ws_test_rmtree (dir);
}

/* The GPT-2 capture's kernel summary (what nsys stats wrote in step 3):
 * its top three are instantiations of cutlass's Kernel2, whose reports
 * were named Kernel2, Kernel2_2 and Kernel2_3; now their names tell them
 * apart. */
static void
test_gpt2_file_names (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *target = ws_test_unpack_gpt2 (&tmp);
  g_autofree char *csv = g_build_filename (target, "nsys", "GPT2___cuda_gpu_kern_sum.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) kernels = ws_capture_read_top_kernels (csv, 4, NULL, NULL, &error);
  static const char *const files[] = {
    "Kernel2_cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_align1",
    "Kernel2_cutlass_75_tensorop_bf16_s1688gemm_bf16_256x128_nn_align1",
    "Kernel2_cutlass_75_tensorop_bf16_s1688gemm_bf16_128x256_nt_align1",
    "unrolled_elementwise_kernel_direct_copy_kernel_cuda",
  };

  g_assert_no_error (error);
  g_assert_cmpuint (kernels->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpstr (((WsCaptureKernel *) kernels->pdata[i])->file, ==, files[i]);
  ws_test_rmtree (tmp);
}

/* NAMEs become one path component under the output folder, whatever they
 * hold, and stay unique in a group.  Printable characters stay: a target
 * named GPT2训练 got the folder GPT2__, and 推理 got __. */
static void
test_safe_names (void)
{
  const char *const hostile[] = { "../../etc",      "..",      ".",    "",         "/",
                                  "a/../../b",      ".hidden", "x\ny", "柴犬推理", "a b:c*?",
                                  "bad\xff\xfeutf8" };
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *first = NULL, *second = NULL, *chinese = NULL, *other = NULL, *plain = NULL;
  g_autofree char *gpt2 = NULL, *inference = NULL, *controls = NULL;
  g_autofree char *long_name = g_strnfill (300, 'x');
  g_autofree char *long_safe = ws_capture_safe_name (long_name);
  g_autoptr (GString) long_chinese = g_string_new (NULL);
  g_autofree char *long_chinese_safe = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autofree char *safe = ws_capture_safe_name (hostile[i]);
      g_autofree char *joined = g_build_filename ("/out/group", safe, NULL);
      g_autoptr (GFile) file = g_file_new_for_path (joined);
      g_autoptr (GFile) out = g_file_new_for_path ("/out/group");
      g_autoptr (GFile) parent = g_file_get_parent (file);
      g_autofree char *shown = g_strescape (hostile[i], NULL);

      /* Escaped: TAP output must stay valid UTF-8 (meson reads it). */
      g_test_message ("%s → %s", shown, safe);
      g_assert_cmpuint (strlen (safe), >, 0);
      g_assert_null (strchr (safe, '/'));
      g_assert_cmpint (safe[0], !=, '.');
      g_assert_true (g_utf8_validate (safe, -1, NULL));
      g_assert_true (g_file_equal (parent, out));
      for (const char *p = safe; *p != '\0'; p = g_utf8_next_char (p))
        g_assert_true (g_unichar_isprint (g_utf8_get_char (p)));
    }

  gpt2 = ws_capture_safe_name ("GPT2训练");
  g_assert_cmpstr (gpt2, ==, "GPT2训练");
  inference = ws_capture_safe_name ("推理");
  g_assert_cmpstr (inference, ==, "推理");
  controls = ws_capture_safe_name (".a/b\tc\x7f");
  g_assert_cmpstr (controls, ==, "_a_b_c_");
  chinese = ws_capture_safe_name ("柴犬推理");
  g_assert_cmpstr (chinese, ==, "柴犬推理");
  plain = ws_capture_safe_name ("resnet-50_v1.5");
  g_assert_cmpstr (plain, ==, "resnet-50_v1.5");
  g_assert_cmpuint (strlen (long_safe), <=, 80);
  /* Cut between characters: 26 of 3 bytes fit in 80. */
  for (int i = 0; i < 40; i++)
    g_string_append (long_chinese, "训");
  long_chinese_safe = ws_capture_safe_name (long_chinese->str);
  g_assert_true (g_utf8_validate (long_chinese_safe, -1, NULL));
  g_assert_cmpuint (strlen (long_chinese_safe), ==, 78);

  first = ws_capture_unique_name (used, chinese);
  other = ws_capture_safe_name ("柴犬推理");
  second = ws_capture_unique_name (used, other);
  g_assert_cmpstr (first, ==, "柴犬推理");
  g_assert_cmpstr (second, ==, "柴犬推理_2");
}

static void
test_settings_environment (void)
{
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (GPtrArray) applied = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  const char *const env[] = {
    "OUT_DIR=/data/out",
    "TOPN=3",
    "CAPTURE_RANGE=nvtx",
    "NVTX_NAME=train@app",
    "NSYS_DURATION=20",
    "NCU_SET=detailed",
    "NCU_MULTI_RUN=0",
    "NCU_LAUNCH_COUNT=1",
    "CACHE_CONTROL=none",
    "CLOCK_CONTROL=none",
    "CONTINUE_ON_ERROR=yes",
    "GLOBAL_LOG=/tmp/l",
    "NSYS_TRACE=",
    "NSYS_CUDA_GRAPH_TRACE=graph",
    NULL,
  };
  const char *const bad_graph_trace[] = { "NSYS_CUDA_GRAPH_TRACE=nodes", NULL };
  const char *const bad_topn[] = { "TOPN=ten", NULL };
  const char *const bad_range[] = { "CAPTURE_RANGE=nvtx", NULL };
  const char *const none_range[] = { "CAPTURE_RANGE=none", "NVTX_NAME=x@y", NULL };

  g_assert_true (ws_capture_settings_apply_environment (settings, env, applied, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (settings->output_dir, ==, "/data/out");
  g_assert_cmpuint (settings->topn, ==, 3);
  g_assert_cmpstr (settings->nvtx_range, ==, "train@app");
  g_assert_cmpuint (settings->nsys_duration, ==, 20);
  g_assert_cmpstr (settings->ncu_set, ==, "detailed");
  g_assert_false (settings->ncu_multi_run);
  g_assert_cmpuint (settings->ncu_launch_count, ==, 1);
  g_assert_cmpstr (settings->cache_control, ==, "none");
  g_assert_cmpstr (settings->clock_control, ==, "none");
  g_assert_true (settings->continue_on_error);
  g_assert_cmpstr (settings->global_log, ==, "/tmp/l");
  /* An empty variable counts as unset. */
  g_assert_cmpstr (settings->nsys_trace, ==, "cuda,nvtx,osrt");
  g_assert_cmpstr (settings->nsys_cuda_graph_trace, ==, "graph");
  g_assert_cmpuint (applied->len, ==, 13);
  g_assert_true (ws_capture_settings_validate (settings, &error));

  g_assert_false (ws_capture_settings_apply_environment (settings, bad_graph_trace, NULL, &error));
  g_assert_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "NSYS_CUDA_GRAPH_TRACE=nodes: expected node or graph");
  g_clear_error (&error);

  g_assert_false (ws_capture_settings_apply_environment (settings, bad_topn, NULL, &error));
  g_assert_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, "TOPN=ten"));
  g_clear_error (&error);

  g_clear_pointer (&settings->nvtx_range, g_free);
  g_assert_false (ws_capture_settings_apply_environment (settings, bad_range, NULL, &error));
  g_assert_nonnull (strstr (error->message, "NVTX_NAME"));
  g_clear_error (&error);

  settings->nvtx_range = g_strdup ("a@b");
  g_assert_true (ws_capture_settings_apply_environment (settings, none_range, NULL, &error));
  g_assert_null (settings->nvtx_range);
}

/* GSettings (memory backend in tests) first, then the environment. */
static void
test_settings_gsettings (void)
{
  g_autoptr (GSettings) gsettings = ws_capture_settings_open_gsettings ();
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (WsCaptureSettings) defaults = ws_capture_settings_new ();
  g_autoptr (GError) error = NULL;
  const char *const env[] = { "TOPN=7", NULL };

  g_assert_nonnull (gsettings);
  /* The schema's defaults are the struct's. */
  ws_capture_settings_load (settings, gsettings);
  g_assert_cmpstr (settings->output_dir, ==, defaults->output_dir);
  g_assert_cmpuint (settings->topn, ==, defaults->topn);
  g_assert_cmpstr (settings->ncu_set, ==, defaults->ncu_set);
  g_assert_cmpstr (settings->nsys_trace, ==, defaults->nsys_trace);
  g_assert_cmpstr (settings->nsys_cuda_graph_trace, ==, "node");
  g_assert_cmpstr (defaults->nsys_cuda_graph_trace, ==, "node");
  g_assert_true (settings->ncu_multi_run == defaults->ncu_multi_run);
  g_assert_null (settings->nvtx_range);

  g_settings_set_uint (gsettings, "capture-topn", 4);
  g_settings_set_string (gsettings, "capture-range", "step@app");
  g_settings_set_string (gsettings, "ncu-set", "basic");
  ws_capture_settings_load (settings, gsettings);
  g_assert_cmpuint (settings->topn, ==, 4);
  g_assert_cmpstr (settings->nvtx_range, ==, "step@app");
  g_assert_cmpstr (settings->ncu_set, ==, "basic");
  g_assert_true (ws_capture_settings_apply_environment (settings, env, NULL, &error));
  g_assert_cmpuint (settings->topn, ==, 7);
  g_settings_reset (gsettings, "capture-topn");
  g_settings_reset (gsettings, "capture-range");
  g_settings_reset (gsettings, "ncu-set");
}

static void
touch_program (const char *root, const char *relative)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, "#!/bin/sh\n", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

/* Looking for @tool on @path under @root finds @expected_dir/@expected. */
static void
assert_finds (const char *tool, const char *path, const char *root, const char *expected_dir,
              const char *expected)
{
  g_autofree char *found = ws_tool_find_in (tool, path, root);
  g_autofree char *expected_path = g_build_filename (expected_dir, expected, NULL);

  g_assert_cmpstr (found, ==, expected_path);
}

/* PATH first, then /usr/local/cuda, then the install folders, newest
 * version first (2025.10 is newer than 2025.9). */
static void
test_tools_find (void)
{
  g_autofree char *root = ws_test_tmpdir ();
  g_autofree char *bin = g_build_filename (root, "bin", NULL);
  g_autofree char *found = NULL;

  touch_program (root, "opt/nvidia/nsight-systems/2025.9.1/bin/nsys");
  touch_program (root, "opt/nvidia/nsight-systems/2025.10.1/bin/nsys");
  touch_program (root, "opt/nvidia/nsight-systems-2023.4.1/bin/nsys");
  touch_program (root, "opt/nvidia/nsight-compute/2024.1.0/ncu");
  touch_program (root, "opt/nvidia/nsight-compute/2025.3.1/ncu");
  touch_program (root, "usr/local/cuda-12.4/bin/ncu");
  touch_program (root, "usr/local/cuda-12.10/bin/ncu");

  assert_finds ("nsys", "/nonexistent", root, root, "opt/nvidia/nsight-systems/2025.10.1/bin/nsys");
  assert_finds ("ncu", "/nonexistent", root, root, "usr/local/cuda-12.10/bin/ncu");

  touch_program (root, "usr/local/cuda/bin/ncu");
  assert_finds ("ncu", "/nonexistent", root, root, "usr/local/cuda/bin/ncu");

  touch_program (root, "bin/ncu");
  assert_finds ("ncu", bin, root, bin, "ncu");

  found = ws_tool_find_in ("nsys", NULL, "/nonexistent-root");
  g_assert_null (found);
  ws_test_rmtree (root);
}

/* WARPSCOPE_TOOL_PATH, where set, is the only place looked in: a tool on
 * PATH is not found when it names a folder without one, and the one in its
 * folder is found when PATH has none; the error names the variable. */
static void
test_tools_find_tool_path (void)
{
  g_autofree char *root = ws_test_tmpdir ();
  g_autofree char *on_path = g_build_filename (root, "on-path", NULL);
  g_autofree char *only = g_build_filename (root, "only", NULL);
  g_autofree char *empty = g_build_filename (root, "empty", NULL);
  g_autofree char *saved_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path = g_strconcat (on_path, ":", saved_path, NULL);
  g_autofree char *expected_error =
    g_strdup_printf ("nsys: not found in WARPSCOPE_TOOL_PATH (%s)", empty);
  g_autofree char *expected_only = g_build_filename (only, "ncu", NULL);
  g_autofree char *found = NULL, *resolved = NULL, *found_only = NULL;
  g_autoptr (GError) error = NULL;

  touch_program (root, "on-path/nsys");
  touch_program (root, "only/ncu");
  g_assert_cmpint (g_mkdir_with_parents (empty, 0755), ==, 0);
  g_setenv ("PATH", path, TRUE);
  g_setenv (WS_TOOL_PATH_ENV, empty, TRUE);
  found = ws_tool_find ("nsys");
  resolved = ws_tool_resolve ("nsys", NULL, &error);
  g_setenv (WS_TOOL_PATH_ENV, only, TRUE);
  found_only = ws_tool_find ("ncu");
  g_unsetenv (WS_TOOL_PATH_ENV);
  g_setenv ("PATH", saved_path, TRUE);

  g_assert_null (found);
  g_assert_null (resolved);
  g_assert_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING);
  g_assert_cmpstr (error->message, ==, expected_error);
  g_assert_cmpstr (found_only, ==, expected_only);
  ws_test_rmtree (root);
}

/* What the real ncu 2025.3.1 listed (tests/data/tools), read through the
 * stand-in; the versions as the real tools printed them. */
static void
test_tools_lists (void)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *ncu = g_build_filename (stand_ins, "ncu", NULL);
  g_autofree char *nsys = g_build_filename (stand_ins, "nsys", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) sets = ws_tool_list (ncu, "sets", NULL, &error);
  g_autoptr (GPtrArray) sections = ws_tool_list (ncu, "sections", NULL, &error);
  g_autofree char *ncu_version = ws_tool_version (ncu, NULL, &error);
  g_autofree char *nsys_version = ws_tool_version (nsys, NULL, &error);
  const char *const expected_sets[] = { "basic",  "detailed",   "full",
                                        "nvlink", "pmsampling", "roofline" };

  g_assert_no_error (error);
  g_assert_cmpuint (sets->len, ==, G_N_ELEMENTS (expected_sets));
  for (guint i = 0; i < sets->len; i++)
    g_assert_cmpstr (g_ptr_array_index (sets, i), ==, expected_sets[i]);
  g_assert_cmpuint (sections->len, ==, 24);
  g_assert_cmpstr (g_ptr_array_index (sections, 0), ==, "C2CLink");
  g_assert_cmpstr (g_ptr_array_index (sections, 23), ==, "WorkloadDistribution");
  g_assert_cmpstr (ncu_version, ==, "2025.3.1.0");
  g_assert_cmpstr (nsys_version, ==, "2025.3.1.0");
}

/* What ncu 2025.3.1 offers (tests/data/tools, through the stand-in):
 * `speed-of-light` is no longer a set and `basic` is; SpeedOfLight and
 * WarpStateStats are sections, NoSuchSection is not. */
static void
test_settings_fit_ncu (void)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *ncu = g_build_filename (stand_ins, "ncu", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) sets = ws_tool_list (ncu, "sets", NULL, &error);
  g_autoptr (GPtrArray) sections = ws_tool_list (ncu, "sections", NULL, &error);
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);

  g_assert_no_error (error);

  /* Tools that did not say what they offer: nothing is changed. */
  g_free (settings->ncu_set);
  settings->ncu_set = g_strdup ("speed-of-light");
  ws_capture_settings_fit_ncu (settings, NULL, NULL, warnings);
  g_assert_cmpstr (settings->ncu_set, ==, "speed-of-light");
  g_assert_cmpuint (warnings->len, ==, 0);

  /* Nor with empty lists (a tool that printed no set): there is no first
   * set to fall back to. */
  {
    g_autoptr (GPtrArray) none = g_ptr_array_new ();

    settings->ncu_sections = g_strdup ("SpeedOfLight");
    ws_capture_settings_fit_ncu (settings, none, none, warnings);
    g_assert_cmpstr (settings->ncu_set, ==, "speed-of-light");
    g_assert_cmpstr (settings->ncu_sections, ==, "SpeedOfLight");
    g_assert_cmpuint (warnings->len, ==, 0);
    g_clear_pointer (&settings->ncu_sections, g_free);
  }

  ws_capture_settings_fit_ncu (settings, sets, sections, warnings);
  g_assert_cmpstr (settings->ncu_set, ==, "basic");
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (warnings, 0), ==,
                   "ncu has no set “speed-of-light” (ncu --list-sets); using “basic”");

  /* Sections replace the set: only the unknown one is left out. */
  g_ptr_array_set_size (warnings, 0);
  g_free (settings->ncu_set);
  settings->ncu_set = g_strdup ("speed-of-light");
  settings->ncu_sections = g_strdup ("SpeedOfLight, NoSuchSection ,WarpStateStats");
  ws_capture_settings_fit_ncu (settings, sets, sections, warnings);
  g_assert_cmpstr (settings->ncu_sections, ==, "SpeedOfLight,WarpStateStats");
  g_assert_cmpstr (settings->ncu_set, ==, "speed-of-light");
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (warnings, 0), ==,
                   "ncu has no section “NoSuchSection” (ncu --list-sections); left out");

  /* No section left: back to the set, which must then exist. */
  g_ptr_array_set_size (warnings, 0);
  g_free (settings->ncu_sections);
  settings->ncu_sections = g_strdup ("NoSuchSection");
  ws_capture_settings_fit_ncu (settings, sets, sections, warnings);
  g_assert_null (settings->ncu_sections);
  g_assert_cmpstr (settings->ncu_set, ==, "basic");
  g_assert_cmpuint (warnings->len, ==, 2);
}

/* A tool that does not answer is killed with its process group: the
 * shell (the group's leader) and the sleep it left in the background,
 * whose pids it writes down first, are both gone when ws_tool_run()
 * returns, well before either sleep would have ended. */
static void
test_tools_timeout (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *pids_path = g_build_filename (dir, "pids", NULL);
  g_autofree char *script =
    g_strdup_printf ("sleep 30 & echo $$ $! > '%s.part' && mv '%s.part' '%s'; sleep 30", pids_path,
                     pids_path, pids_path);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *pids = NULL;
  g_auto (GStrv) fields = NULL;
  gint64 start = g_get_monotonic_time ();
  double elapsed;
  GPid shell, background;

  g_assert_false (ws_tool_run (argv, 1, NULL, NULL, NULL, NULL, &error));
  elapsed = (g_get_monotonic_time () - start) / 1e6;
  g_assert_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TIMEOUT);
  g_test_message ("returned after %.1f s", elapsed);

  pids = ws_test_read (pids_path);
  fields = g_strsplit (g_strstrip (pids), " ", -1);
  g_assert_cmpuint (g_strv_length (fields), ==, 2);
  shell = (GPid) g_ascii_strtoll (fields[0], NULL, 10);
  background = (GPid) g_ascii_strtoll (fields[1], NULL, 10);
  g_assert_cmpint (shell, >, 1);
  g_assert_cmpint (background, >, 1);
  g_assert_false (ws_test_process_alive (shell));
  g_assert_false (ws_test_process_alive (background));
  g_assert_false (ws_test_group_alive (shell));
  /* Not before the 1 s asked for; and far from the sleeps' 30 s: a
   * seconds timer fires within 2 s, SIGKILL follows at once (no grace),
   * and the group is reaped within the 2 s the runner gives zombies.  The
   * rest is room for a loaded machine or valgrind. */
  g_assert_cmpfloat (elapsed, >=, 1.0);
  g_assert_cmpfloat (elapsed, <, 15.0);
  ws_test_rmtree (dir);
}

typedef struct
{
  char *name;
  gint64 total;
} SqlKernel;

static int
compare_sql_kernels (gconstpointer a, gconstpointer b)
{
  const SqlKernel *ka = a, *kb = b;

  return ka->total < kb->total ? 1 : ka->total > kb->total ? -1 : 0;
}

/* The real two-GPU NCCL job (tests/data/multirank-nccl): rank 0 spends a
 * fifth of its GPU time in ncclDevKernel_AllReduce_Sum_f32_RING_LL, most
 * of it waiting for rank 1.  Step 4 leaves every ncclDevKernel_* out, says
 * how much time they had, and names the next kernels: the three largest
 * non-NCCL kernels by SQL over the two exports, added up across ranks. */
static void
test_top_kernels_leave_out_nccl (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autoptr (GPtrArray) csvs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) left_out =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_capture_kernel_free);
  g_autoptr (GArray) truth = g_array_new (FALSE, FALSE, sizeof (SqlKernel));
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) nccl_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) top = NULL;
  g_autoptr (GPtrArray) raw = NULL;
  g_autoptr (GError) error = NULL;
  gint64 all_total = 0, sql_all = 0, sql_nccl = 0, left_total = 0;

  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank-nccl/rank%u.sqlite.xz", r);
      g_autofree char *csv_name = g_strdup_printf ("rank%u_cuda_gpu_kern_sum.csv", r);
      g_autofree char *db = ws_test_unxz (xz, dir);
      g_autofree char *rows = ws_test_sqlite_text (
        db, "SELECT group_concat(name || char(9) || total, char(10)) FROM (SELECT s.value AS "
            "name, sum(k.end - k.start) AS total FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
            "StringIds s ON s.id = k.demangledName WHERE s.value NOT LIKE '%nccl%' GROUP BY "
            "k.demangledName)");
      g_autofree char *all =
        ws_test_sqlite_text (db, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
      g_autofree char *nccl = ws_test_sqlite_text (
        db, "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
            "ON s.id = k.demangledName WHERE s.value LIKE 'ncclDevKernel%'");
      g_auto (GStrv) lines = g_strsplit (rows, "\n", -1);
      /* The NCCL kernels by name, on either rank: what step 4 leaves out. */
      g_autofree char *names = ws_test_sqlite_text (
        db, "SELECT group_concat(v, char(10)) FROM (SELECT DISTINCT s.value AS v FROM "
            "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName WHERE s.value "
            "LIKE 'ncclDevKernel%')");
      g_auto (GStrv) split = g_strsplit (names, "\n", -1);

      for (guint i = 0; split[i] != NULL; i++)
        g_hash_table_add (nccl_names, g_strdup (split[i]));
      g_ptr_array_add (csvs, ws_test_data ("multirank-nccl", csv_name, NULL));
      sql_all += g_ascii_strtoll (all, NULL, 10);
      sql_nccl += g_ascii_strtoll (nccl, NULL, 10);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          char *tab = strrchr (lines[i], '\t');
          gpointer at;

          *tab = '\0';
          at = g_hash_table_lookup (by_name, lines[i]);
          if (at == NULL)
            {
              SqlKernel kernel = { g_strdup (lines[i]), 0 };

              g_array_append_val (truth, kernel);
              at = GUINT_TO_POINTER (truth->len);
              g_hash_table_insert (by_name, kernel.name, at);
            }
          g_array_index (truth, SqlKernel, GPOINTER_TO_UINT (at) - 1).total +=
            g_ascii_strtoll (tab + 1, NULL, 10);
        }
    }
  g_ptr_array_add (csvs, NULL);
  g_array_sort (truth, compare_sql_kernels);

  /* Without leaving them out, the all-reduce comes first: what hung. */
  raw =
    ws_capture_read_top_kernels_merged ((const char *const *) csvs->pdata, 3, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (((WsCaptureKernel *) g_ptr_array_index (raw, 0))->name,
                                   "ncclDevKernel_AllReduce_Sum_f32_RING_LL"));

  top = ws_capture_read_top_kernels_merged ((const char *const *) csvs->pdata, 3, left_out,
                                            &all_total, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (top->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const WsCaptureKernel *kernel = g_ptr_array_index (top, i);
      const SqlKernel *want = &g_array_index (truth, SqlKernel, i);

      g_test_message ("%u. %s %" G_GINT64_FORMAT, i + 1, kernel->name, kernel->total);
      g_assert_cmpstr (kernel->name, ==, want->name);
      g_assert_cmpint (kernel->total, ==, want->total);
    }
  g_assert_cmpint (all_total, ==, sql_all);
  g_assert_cmpuint (left_out->len, ==, g_hash_table_size (nccl_names));
  for (guint i = 0; i < left_out->len; i++)
    {
      const WsCaptureKernel *kernel = g_ptr_array_index (left_out, i);

      g_assert_true (g_str_has_prefix (kernel->name, "ncclDevKernel_"));
      left_total += kernel->total;
    }
  g_assert_true (g_str_has_prefix (((WsCaptureKernel *) g_ptr_array_index (left_out, 0))->name,
                                   "ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
  g_assert_cmpint (left_total, ==, sql_nccl);

  for (guint i = 0; i < truth->len; i++)
    g_free (g_array_index (truth, SqlKernel, i).name);
  ws_test_rmtree (dir);
}

/* What counts as a communication kernel: one function for the launcher
 * and the findings. */
static void
test_communication_names (void)
{
  const char *const yes[] = {
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)",
    "ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)",
    "_Z28ncclDevKernel_Generic_4ncclDevKernelArgsStorage",
    "void nvshmemi_transfer_rma_nbi_translate_kernel<(int)1>()",
    "void c10d::symmetric_memory::one_shot_all_reduce_kernel<float, (int)8>(float **, int)",
    "void vllm::cross_device_reduce_1stage<__nv_bfloat16, (int)4>(int)",
  };
  const char *const no[] = {
    "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT",
    "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>>(int)",
    "ampere_sgemm_128x64_tn",
  };

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    g_assert_true (ws_kernel_name_is_communication (yes[i]));
  for (guint i = 0; i < G_N_ELEMENTS (no); i++)
    g_assert_false (ws_kernel_name_is_communication (no[i]));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture-plan/nsys/command-lines", test_nsys_steps);
  g_test_add_func ("/capture-plan/nsys/defaults", test_nsys_defaults);
  g_test_add_func ("/capture-plan/ncu/one-run-per-kernel", test_ncu_multi_run);
  g_test_add_func ("/capture-plan/ncu/one-combined-run", test_ncu_single_run);
  g_test_add_func ("/capture-plan/ncu/launch-skip-to-a-replay", test_ncu_launch_skip);
  g_test_add_func ("/capture-plan/top-kernels/real-summary-and-regex", test_top_kernels);
  g_test_add_func ("/capture-plan/top-kernels/empty-or-missing", test_top_kernels_missing);
  g_test_add_func ("/capture-plan/top-kernels/ranks-added-profiled-where-they-run",
                   test_top_kernels_of_ranks);
  g_test_add_func ("/capture-plan/top-kernels/nccl-left-out-next-kernels-taken",
                   test_top_kernels_leave_out_nccl);
  g_test_add_func ("/capture-plan/top-kernels/communication-names", test_communication_names);
  g_test_add_func ("/capture-plan/gpt2/kernel-file-names", test_gpt2_file_names);
  g_test_add_func ("/capture-plan/top-kernels/file-names", test_kernel_file_names);
  g_test_add_func ("/capture-plan/safe-names", test_safe_names);
  g_test_add_func ("/capture-settings/environment", test_settings_environment);
  g_test_add_func ("/capture-settings/gsettings-then-environment", test_settings_gsettings);
  g_test_add_func ("/capture-settings/ncu-choices-fit-what-ncu-offers", test_settings_fit_ncu);
  g_test_add_func ("/capture-tools/find", test_tools_find);
  g_test_add_func ("/capture-tools/find/tool-path-only", test_tools_find_tool_path);
  g_test_add_func ("/capture-tools/real-lists-and-versions", test_tools_lists);
  g_test_add_func ("/capture-tools/timeout-kills-group", test_tools_timeout);

  return g_test_run ();
}
