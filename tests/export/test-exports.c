/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-markdown-document.h"
#include "ws-nsys-reader.h"
#include "ws-run-loader.h"
#include "ws-summary-table.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

static void
assert_same_lines (const char *a_text, const char *b_text)
{
  g_auto (GStrv) a = g_strsplit (a_text, "\n", -1);
  g_auto (GStrv) b = g_strsplit (b_text, "\n", -1);

  g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
  g_assert_cmpstr (a[0], ==, b[0]);
  for (guint i = 0; a[i] != NULL; i++)
    g_assert_true (g_strv_contains ((const char *const *) b, a[i]));
}

/* One CSV per report, named and written as nsys stats writes them. */
static void
test_csv_dir (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2025.3_h100_probe.sqlite");
  g_autofree char *dir = ws_test_tmpdir ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) written =
    ws_summary_table_write_csv_dir (run, dir, "v2025.3_h100_probe", &error);

  g_assert_no_error (error);
  /* The five GPU reports and osrt_sum (the probe traced OS runtime calls;
   * fixtures hold nsys's osrt_sum for the GPT-2 capture only, which
   * test-osrt compares). */
  g_assert_cmpuint (written->len, ==, 6);
  for (guint i = 0; i < written->len; i++)
    {
      const char *path = g_ptr_array_index (written, i);
      g_autofree char *name = g_path_get_basename (path);
      g_autofree char *truth = ws_test_data ("nsys-stats", name, NULL);
      g_autofree char *ours = NULL, *theirs = NULL;

      if (g_str_has_suffix (name, "_osrt_sum.csv"))
        continue;

      g_test_message ("%s", name);
      g_assert_true (g_file_get_contents (path, &ours, NULL, NULL));
      g_assert_true (g_file_get_contents (truth, &theirs, NULL, NULL));
      assert_same_lines (ours, theirs);
    }
  ws_test_rmtree (dir);
}

/* The Markdown report: the kernel chart as a PNG in figs/, the top kernels
 * with the ground-truth numbers, and the other summaries. */
static void
test_markdown_report (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2025.3_h100_probe.sqlite");
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *md = g_build_filename (dir, "summary_probe.md", NULL);
  g_autofree char *png = g_build_filename (dir, "figs", "v2025.3_h100_probe_kernels.png", NULL);
  g_autofree char *text = NULL, *image = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;

  g_assert_true (ws_markdown_document_write (run, md, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (md, &text, NULL, NULL));
  g_assert_true (g_file_get_contents (png, &image, &len, NULL));
  g_assert_true (len > 1000 && memcmp (image, "\x89PNG", 4) == 0);

  g_assert_nonnull (strstr (
    text,
    "![GPU time by kernel — v2025.3_h100_probe.sqlite](figs/v2025.3_h100_probe_kernels.png)"));
  /* barrier_heavy: 1358714 ns, 33.3 %, 3 launches (the CSV's numbers). */
  g_assert_nonnull (strstr (text, "| 1 | barrier\\_heavy | 1.36 ms | 33.3% | 3 |"));
  g_assert_nonnull (strstr (text, "| 4 | tiny | 327 µs | 8.0% | 320 |"));
  g_assert_nonnull (strstr (text, "NVIDIA H100 80GB HBM3"));
  g_assert_nonnull (strstr (text, "## NVTX ranges"));
  g_assert_nonnull (strstr (text, "PushPop | :批量传输示例 |"));
  g_assert_nonnull (strstr (text, "## CUDA API calls"));
  g_assert_nonnull (strstr (text, "| 82.0 | 110,658,408 | 23 |"));
  ws_test_rmtree (dir);
}

/* `warpscope-cli export --markdown --csv-dir` of an export with its ncu
 * CSV: the CSVs equal nsys stats', the report has the gauges figure, the
 * verdict of each profiled launch with the CSV's numbers (launch 2,
 * strided_read: DRAM "83.222345", SM "7.028654") and the findings. */
static void
test_cli_export_with_ncu (void)
{
  g_autofree char *nsys = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *ncu = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *md = g_build_filename (dir, "report.md", NULL);
  g_autofree char *csv = g_build_filename (dir, "csv", NULL);
  g_autofree char *kern = g_build_filename (csv, "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *truth =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *gauges_png =
    g_build_filename (dir, "figs", "v2025.3_h100_probe_gauges.png", NULL);
  const char *argv[] = { ws_test_cli (), "export", "--markdown", md, "--csv-dir", csv,
                         nsys,           ncu,      NULL };
  const char *nothing[] = { ws_test_cli (), "export", nsys, NULL };
  g_autofree char *out = NULL, *err = NULL, *text = NULL, *ours = NULL, *theirs = NULL,
                  *image = NULL;
  gsize len;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_true (g_file_get_contents (md, &text, NULL, NULL));
  g_assert_true (g_file_get_contents (kern, &ours, NULL, NULL));
  g_assert_true (g_file_get_contents (truth, &theirs, NULL, NULL));
  assert_same_lines (ours, theirs);
  g_assert_true (g_file_get_contents (gauges_png, &image, &len, NULL));
  g_assert_true (len > 1000 && memcmp (image, "\x89PNG", 4) == 0);

  g_assert_nonnull (strstr (text, "## Gauges and bottleneck verdicts"));
  g_assert_nonnull (strstr (text, "(figs/v2025.3_h100_probe_gauges.png)"));
  g_assert_nonnull (strstr (text, "- 2  Memory: L2 92.78% ≥ 60% of peak, the busiest unit"));
  /* Kernels by their display names (issue 15). */
  g_assert_nonnull (strstr (text, "| 2 | strided\\_read | 409 µs | 7.0% |"));
  g_assert_nonnull (strstr (text, "## Findings"));
  g_assert_nonnull (strstr (text, "### Severe: Memory allocation inside a loop"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Nothing asked for: a usage error. */
  g_assert_cmpint (ws_test_run (nothing, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--markdown OUT.md"));
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/exports/csv-dir-equals-nsys-stats", test_csv_dir);
  g_test_add_func ("/exports/markdown-report", test_markdown_report);
  g_test_add_func ("/exports/cli-markdown-and-csv-with-ncu", test_cli_export_with_ncu);

  return g_test_run ();
}
