/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-markdown-report.h"
#include "ws-nsys-reader.h"
#include "ws-report.h"
#include "ws-run-loader.h"
#include "ws-test-util.h"

static WsRun *
load_probe (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return run;
}

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
  g_autoptr (WsRun) run = load_probe ();
  g_autofree char *dir = ws_test_tmpdir ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) written = ws_report_write_csv_dir (run, dir, "v2025.3_h100_probe", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (written->len, ==, 5);
  for (guint i = 0; i < written->len; i++)
    {
      const char *path = g_ptr_array_index (written, i);
      g_autofree char *name = g_path_get_basename (path);
      g_autofree char *truth = ws_test_data ("nsys-stats", name, NULL);
      g_autofree char *ours = NULL, *theirs = NULL;

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
  g_autoptr (WsRun) run = load_probe ();
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *md = g_build_filename (dir, "summary_probe.md", NULL);
  g_autofree char *png = g_build_filename (dir, "figs", "v2025.3_h100_probe_kernels.png", NULL);
  g_autofree char *text = NULL, *image = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;

  g_assert_true (ws_markdown_report_write (run, md, NULL, &error));
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/exports/csv-dir-equals-nsys-stats", test_csv_dir);
  g_test_add_func ("/exports/markdown-report", test_markdown_report);

  return g_test_run ();
}
