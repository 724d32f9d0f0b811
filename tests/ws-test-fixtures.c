/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every fixture of tests/data that holds ncu CSVs with an nsys export of
 * the same program: the join and the verdict tests walk them all. */
#include "config.h"

#include "ws-test-fixtures.h"
#include "ws-test-util.h"

static void
fixture_free (gpointer data)
{
  WsTestNcuFixture *f = data;

  if (f->tmpdir != NULL)
    ws_test_rmtree (f->tmpdir);
  g_free (f->tmpdir);
  g_free (f->name);
  g_free (f->sqlite);
  g_ptr_array_unref (f->paths);
  g_free (f);
}

static WsTestNcuFixture *
fixture_new (const char *name, char *sqlite)
{
  WsTestNcuFixture *f = g_new0 (WsTestNcuFixture, 1);

  f->name = g_strdup (name);
  f->sqlite = sqlite;
  f->paths = g_ptr_array_new_with_free_func (g_free);
  return f;
}

static void
add_files (GPtrArray *fixtures, const char *name, const char *nsys, const char *ncu)
{
  WsTestNcuFixture *f = fixture_new (name, ws_test_data ("nsys", nsys, NULL));

  g_ptr_array_add (f->paths, g_strdup (f->sqlite));
  g_ptr_array_add (f->paths, ws_test_data ("ncu", ncu, NULL));
  g_ptr_array_add (f->paths, NULL);
  g_ptr_array_add (fixtures, f);
}

/* A capture folder (run.json, nsys/, ncu/), loaded as the program opens it. */
static void
add_folder (GPtrArray *fixtures, const char *name, char *folder, const char *sqlite, char *tmpdir)
{
  WsTestNcuFixture *f = fixture_new (name, g_build_filename (folder, "nsys", sqlite, NULL));

  g_ptr_array_add (f->paths, folder);
  g_ptr_array_add (f->paths, NULL);
  f->tmpdir = tmpdir;
  g_ptr_array_add (fixtures, f);
}

/**
 * ws_test_ncu_fixtures:
 *
 * The probe (captured on an H200, and the H100 `--set full` report in
 * both unit forms), the PyTorch training loops (bf16, fp32, with NVTX),
 * BERT and ViT inference, GPT-2 training, and rank 3 of the DDP job with
 * the three ncu reports made on it, and the cuDNN CNN in fp32 (NCHW) and
 * bf16 (channels-last).  Archives are unpacked into temporary
 * folders that freeing the array removes.
 *
 * Returns: (transfer full) (element-type WsTestNcuFixture): the fixtures
 */
GPtrArray *
ws_test_ncu_fixtures (void)
{
  GPtrArray *fixtures = g_ptr_array_new_with_free_func (fixture_free);

  add_folder (fixtures, "h200-probe", ws_test_data ("capture-h200", "probe", NULL), "probe.sqlite",
              NULL);
  add_files (fixtures, "h100-probe", "v2025.3_h100_probe.sqlite", "h100_probe_full_raw.csv");
  add_files (fixtures, "h100-probe-base-units", "v2025.3_h100_probe.sqlite",
             "h100_probe_full_raw_base_units.csv");
  add_files (fixtures, "train-bf16", "v2025.3_h100_train_bf16.sqlite",
             "h100_train_bf16_sections_raw.csv");
  add_files (fixtures, "train-fp32", "v2025.3_h100_train_fp32.sqlite",
             "h100_train_fp32_sections_raw.csv");
  add_files (fixtures, "torch-train-nvtx", "v2025.3_h100_torch_train.sqlite",
             "h100_torch_nvtx_sections_raw.csv");
  {
    char *tmp = ws_test_unpack ("captures/h100_bert_vit_capture.tar.xz");

    add_folder (fixtures, "bert_inf", g_build_filename (tmp, "out", "targets", "bert_inf", NULL),
                "bert_inf.sqlite", NULL);
    /* The array frees in order: the archive goes with the last of its two. */
    add_folder (fixtures, "vit_inf", g_build_filename (tmp, "out", "targets", "vit_inf", NULL),
                "vit_inf.sqlite", tmp);
  }
  {
    char *tmp = NULL;
    char *dir = ws_test_unpack_gpt2 (&tmp);

    add_folder (fixtures, "gpt2", dir, "GPT2__.sqlite", tmp);
  }
  {
    char *tmp = ws_test_unpack ("captures/h100_ddp_gloo_capture.tar.xz");
    g_autofree char *ncu = g_build_filename (tmp, "ddp_gloo", "ncu", NULL);
    g_autoptr (GPtrArray) csvs = ws_test_list_dir (ncu);
    WsTestNcuFixture *f =
      fixture_new ("ddp-rank3", g_build_filename (tmp, "ddp_gloo", "nsys", "rank3.sqlite", NULL));

    g_ptr_array_add (f->paths, g_strdup (f->sqlite));
    for (guint i = 0; i < csvs->len; i++)
      if (g_str_has_suffix (g_ptr_array_index (csvs, i), ".csv"))
        g_ptr_array_add (f->paths, g_build_filename (ncu, g_ptr_array_index (csvs, i), NULL));
    g_ptr_array_add (f->paths, NULL);
    f->tmpdir = tmp;
    g_ptr_array_add (fixtures, f);
  }
  {
    /* cuDNN (issue 31): a small ResNet trained NCHW in fp32, whose layout
     * kernels nsys names cudnn::engines_precompiled::nchwToNhwcKernel<…,
     * (bool)0, (bool)1, (cudnnKernelDataType_t)2>, and channels-last in
     * bf16; captured on an H200 through the launcher, ncu over the top 5
     * kernels (tests/device/capture-jobs.sh cnn). */
    char *tmp = ws_test_unpack ("captures/h200_cnn_capture.tar.xz");

    add_folder (fixtures, "cnn_fp32", g_build_filename (tmp, "cnn_fp32", NULL), "cnn_fp32.sqlite",
                NULL);
    add_folder (fixtures, "cnn_bf16cl", g_build_filename (tmp, "cnn_bf16cl", NULL),
                "cnn_bf16cl.sqlite", tmp);
  }
  return fixtures;
}
