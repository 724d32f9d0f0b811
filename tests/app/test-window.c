/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "ws-application.h"
#include "ws-bars-view.h"
#include "ws-compare-window.h"
#include "ws-gauges-page.h"
#include "ws-gauges-view.h"
#include "ws-kernels-page.h"
#include "ws-preferences-window.h"
#include "ws-ncu-match.h"
#include "ws-summaries-page.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-window.h"

static WsApplication *app;

static guint
table_rows (WsWindow *window, WsSummaryKind kind)
{
  WsSummariesPage *page = WS_SUMMARIES_PAGE (ws_window_get_view (window, "summaries"));

  return (guint) gtk_tree_model_iter_n_children (
    gtk_tree_view_get_model (ws_summaries_page_get_view (page, kind)), NULL);
}

static guint
csv_rows (const char *name)
{
  g_autofree char *path = ws_test_data ("nsys-stats", name, NULL);
  g_autofree char *contents = NULL;
  guint lines = 0;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  for (const char *p = contents; *p != '\0'; p++)
    lines += *p == '\n';
  return lines - 1;
}

static void
test_opens_export (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  WsWindow *window = ws_test_gui_open_and_load (path);
  WsKernelsPage *page = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
  WsBarsView *bars = ws_kernels_page_get_bars_view (page);
  const WsBarsModel *model = ws_bars_view_get_model (bars);

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  g_assert_cmpstr (ws_window_get_page (window), ==, "kernels");
  g_assert_null (ws_window_get_error (window));
  g_assert_cmpuint (ws_window_get_run (window)->kernels.n, ==, 336);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "v2025.3_h100_probe.sqlite");

  /* Six kernels, largest first: barrier_heavy (1358714 ns). */
  g_assert_cmpuint (model->bars->len, ==, 6);
  g_assert_cmpstr (ws_bars_model_get (model, 0)->name, ==, "barrier_heavy(float *, int)");
  g_assert_cmpint (ws_bars_model_get (model, 0)->total, ==, 1358714);

  /* The summary tables have the rows of nsys stats. */
  g_assert_cmpuint (table_rows (window, WS_SUMMARY_KERN_SUM), ==,
                    csv_rows ("v2025.3_h100_probe_cuda_gpu_kern_sum.csv"));
  g_assert_cmpuint (table_rows (window, WS_SUMMARY_NVTX_SUM), ==,
                    csv_rows ("v2025.3_h100_probe_nvtx_sum.csv"));
  g_assert_cmpuint (table_rows (window, WS_SUMMARY_API_SUM), ==,
                    csv_rows ("v2025.3_h100_probe_cuda_api_sum.csv"));
  g_assert_cmpuint (table_rows (window, WS_SUMMARY_MEM_TIME_SUM), ==,
                    csv_rows ("v2025.3_h100_probe_cuda_gpu_mem_time_sum.csv"));
  g_assert_cmpuint (table_rows (window, WS_SUMMARY_MEM_SIZE_SUM), ==,
                    csv_rows ("v2025.3_h100_probe_cuda_gpu_mem_size_sum.csv"));

  /* The imbalanced kernel: 4 launches of grid 64, block 256 (probe.cu). */
  ws_bars_view_select (bars, 5);
  {
    g_autofree char *details = ws_kernels_page_get_details_text (page);

    g_assert_nonnull (strstr (details, "imbalanced(float *, int, int)"));
    g_assert_nonnull (
      strstr (details, "grid 64×1×1, block 256×1×1, 16 registers, 0 B shared — 4×"));
  }

  /* Selecting a kernel shows its details. */
  ws_bars_view_select (bars, 3);
  {
    g_autofree char *details = ws_kernels_page_get_details_text (page);

    g_assert_nonnull (strstr (details, "tiny(float *)"));
    g_assert_nonnull (strstr (details, "320"));
  }

  gtk_widget_destroy (GTK_WIDGET (window));
}

/* nsys stats CSVs alone: bars and tables from the files' numbers. */
static void
test_opens_stats_csvs (void)
{
  g_autofree char *kern =
    ws_test_data ("nsys-stats", "v2025.3_h100_train_bf16_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *nvtx = ws_test_data ("nsys-stats", "v2025.3_h100_train_bf16_nvtx_sum.csv", NULL);
  const char *paths[] = { kern, nvtx, NULL };
  WsWindow *window = ws_test_gui_wait_for_load (ws_test_gui_open (paths));
  WsKernelsPage *page = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
  const WsBarsModel *model = ws_bars_view_get_model (ws_kernels_page_get_bars_view (page));

  g_assert_cmpstr (ws_window_get_page (window), ==, "kernels");
  g_assert_cmpuint (model->n_kernels, ==,
                    csv_rows ("v2025.3_h100_train_bf16_cuda_gpu_kern_sum.csv"));
  g_assert_cmpuint (table_rows (window, WS_SUMMARY_NVTX_SUM), ==,
                    csv_rows ("v2025.3_h100_train_bf16_nvtx_sum.csv"));
  g_assert_cmpuint (table_rows (window, WS_SUMMARY_API_SUM), ==, 0);
  ws_bars_view_select (ws_kernels_page_get_bars_view (page), 0);
  {
    g_autofree char *details = ws_kernels_page_get_details_text (page);

    g_assert_nonnull (strstr (details, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"));
    g_assert_nonnull (strstr (details, "Only the summary is known"));
  }
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* A capture folder: the export and the ncu CSV inside it. */
static void
test_opens_capture_folder (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *nsys_dir = g_build_filename (dir, "probe", "nsys", NULL);
  g_autofree char *target = g_build_filename (dir, "probe", NULL);
  g_autofree char *fixture = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *copy = g_build_filename (nsys_dir, "probe.sqlite", NULL);
  g_autofree char *ncu_dir = g_build_filename (dir, "probe", "ncu", NULL);
  g_autofree char *ncu_fixture = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *ncu_copy = g_build_filename (ncu_dir, "probe_ncu_raw.csv", NULL);
  g_autofree char *contents = NULL;
  gsize len;
  WsWindow *window;

  g_assert_cmpint (g_mkdir_with_parents (nsys_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (ncu_dir, 0755), ==, 0);
  g_assert_true (g_file_get_contents (fixture, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, len, NULL));
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (ncu_fixture, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (ncu_copy, contents, len, NULL));
  window = ws_test_gui_open_and_load (target);
  g_assert_cmpstr (ws_window_get_page (window), ==, "kernels");
  g_assert_cmpstr (ws_window_get_run (window)->prov.kind, ==, "capture-folder");
  g_assert_cmpuint (ws_window_get_run (window)->kernels.n, ==, 336);
  /* The ncu CSV's eight profiled launches, matched to the export. */
  g_assert_nonnull (ws_window_get_run (window)->ncu);
  g_assert_cmpuint (ws_ncu_results_n_launches (ws_window_get_run (window)->ncu), ==, 8);
  g_assert_cmpstr (ws_ncu_results_match (ws_window_get_run (window)->ncu, 0)->nsys_name, ==,
                   "fma_heavy(float *, int, int)");
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

/* ncu CSVs alone: the window opens on their gauges. */
static void
test_opens_ncu_csv (void)
{
  g_autofree char *path = ws_test_data ("ncu", "h100_probe_full_details.csv", NULL);
  WsWindow *window = ws_test_gui_open_and_load (path);
  WsGaugesPage *page = WS_GAUGES_PAGE (ws_window_get_view (window, "gauges"));

  g_assert_cmpstr (ws_window_get_page (window), ==, "gauges");
  g_assert_cmpstr (ws_window_get_run (window)->prov.kind, ==, "ncu-csv");
  g_assert_false (ws_gauges_page_is_empty (page));
  /* The details page holds the same eight launches as the raw one. */
  g_assert_cmpuint (ws_gauges_view_get_n_rows (ws_gauges_page_get_overview (page)), ==, 8);
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* CPU profiles alone open on their flame graph, not on an empty Kernels
 * page: py-spy's speedscope file and a cProfile table (tests/data/cpu). */
static void
test_opens_cpu_profile (void)
{
  static const char *const names[] = { "cs336_bpe_train.speedscope.json",
                                       "cprofile_clair_standard_name.txt" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = ws_test_data ("cpu", names[i], NULL);
      WsWindow *window = ws_test_gui_open_and_load (path);

      g_assert_cmpstr (ws_window_get_run (window)->prov.kind, ==, "cpu-profile");
      g_assert_cmpstr (ws_window_get_page (window), ==, "flame");
      gtk_widget_destroy (GTK_WIDGET (window));
    }
  /* An nsys export still opens on its kernels. */
  {
    g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
    WsWindow *window = ws_test_gui_open_and_load (path);

    g_assert_cmpstr (ws_window_get_page (window), ==, "kernels");
    gtk_widget_destroy (GTK_WIDGET (window));
  }
}

/* An nvprof console log has no kernel events: the Kernels page's line
 * counts the launches its bars show, from the GPU activities rows (11
 * kernels, 3120 + 12480 + 6240 + 1560 + 1040 + 520 + 520 + 260 + 364 +
 * 130 + 30 = 26,264 calls, summed by hand from the file). */
static void
test_opens_nvprof_log (void)
{
  g_autofree char *path = ws_test_data ("nvprof", "summary_written_small_copies.txt", NULL);
  WsWindow *window = ws_test_gui_open_and_load (path);
  WsKernelsPage *page = WS_KERNELS_PAGE (ws_window_get_view (window, "kernels"));

  g_assert_cmpstr (ws_window_get_page (window), ==, "kernels");
  g_assert_true (
    g_str_has_prefix (ws_kernels_page_get_summary_text (page), "11 kernels, 26,264 launches, "));
  gtk_widget_destroy (GTK_WIDGET (window));
}

typedef struct
{
  const char *path;  /* the file or folder being written */
  gboolean finished; /* export-finished came */
  gboolean ok;
  guint ticks_writing; /* main loop turns seen before @path existed */
} Export;

static void
export_finished_cb (gpointer window, int kind, const char *path, gboolean ok, Export *export)
{
  if (g_strcmp0 (path, export->path) != 0)
    return;
  export->finished = TRUE;
  export->ok = ok;
}

static gboolean
export_tick (gpointer data)
{
  Export *export = data;

  if (!export->finished && !g_file_test (export->path, G_FILE_TEST_EXISTS))
    export->ticks_writing++;
  return G_SOURCE_CONTINUE;
}

static gboolean
exports_finished (gpointer data)
{
  Export *exports = data;

  for (guint i = 0; exports[i].path != NULL; i++)
    if (!exports[i].finished)
      return FALSE;
  return TRUE;
}

/* Starts the @n exports through the window, all at once, as the Export
 * menu does, and waits for them; a timeout source counts the turns of the
 * main loop while each is being written. */
static void
export_all (WsWindow *window, const WsWindowExport *kinds, Export *exports, guint n)
{
  gulong handlers[8];

  g_assert_cmpuint (n, <=, G_N_ELEMENTS (handlers));
  for (guint i = 0; i < n; i++)
    handlers[i] =
      g_signal_connect (window, "export-finished", G_CALLBACK (export_finished_cb), &exports[i]);
  {
    guint ticks[8];

    for (guint i = 0; i < n; i++)
      ticks[i] = g_timeout_add (1, export_tick, &exports[i]);
    for (guint i = 0; i < n; i++)
      {
        ws_window_export (window, kinds[i], exports[i].path);
        /* It returns at once: the result comes back through the main loop. */
        g_assert_false (exports[i].finished);
      }
    ws_test_gui_iterate_until (exports_finished, exports);
    for (guint i = 0; i < n; i++)
      g_source_remove (ticks[i]);
  }
  for (guint i = 0; i < n; i++)
    {
      g_signal_handler_disconnect (window, handlers[i]);
      g_test_message ("%s: %u turns of the main loop while it was written", exports[i].path,
                      exports[i].ticks_writing);
      g_assert_true (exports[i].ok);
      g_assert_true (g_file_test (exports[i].path, G_FILE_TEST_EXISTS));
    }
  g_assert_null (ws_window_get_error (window));
  g_assert_nonnull (ws_window_get_export_message (window));
}

static void
assert_same_file (const char *ours, const char *theirs)
{
  g_autofree char *a = NULL, *b = NULL;
  gsize a_len, b_len;

  g_test_message ("%s", ours);
  g_assert_true (g_file_get_contents (ours, &a, &a_len, NULL));
  g_assert_true (g_file_get_contents (theirs, &b, &b_len, NULL));
  g_assert_cmpmem (a, a_len, b, b_len);
}

/* The chart exports are images of the right kind with the bars in them,
 * the PNG the very image `warpscope-cli render` draws. */
static void
test_export_chart (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *cli_png = g_build_filename (dir, "cli.png", NULL);
  const char *argv[] = { ws_test_cli (), "render", "-o", cli_png, path, NULL };
  g_autofree char *out = NULL, *err = NULL;
  static const char *const magic[] = { "\x89PNG", "<?xml", "%PDF" };
  const WsWindowExport kinds[] = { WS_WINDOW_EXPORT_CHART, WS_WINDOW_EXPORT_CHART,
                                   WS_WINDOW_EXPORT_CHART };
  g_autofree char *png = g_build_filename (dir, "k.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "k.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "k.pdf", NULL);
  Export exports[] = { { png }, { svg }, { pdf }, { NULL } };
  WsWindow *window = ws_test_gui_open_and_load (path);

  export_all (window, kinds, exports, 3);
  for (gsize i = 0; i < G_N_ELEMENTS (magic); i++)
    {
      g_autofree char *contents = NULL;

      g_assert_true (g_file_get_contents (exports[i].path, &contents, NULL, NULL));
      g_assert_true (g_str_has_prefix (contents, magic[i]));
    }
  {
    g_autofree char *contents = NULL;

    /* Text is drawn as glyphs, so count the bars: six fills in the bar colour (#3584e4). */
    g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
    guint bars = 0;

    for (const char *p = contents;
         (p = strstr (p, "fill:rgb(20.784314%,51.764706%,89.411765%)")) != NULL; p++)
      bars++;
    g_assert_cmpuint (bars, ==, 6);
  }
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  assert_same_file (png, cli_png);
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

/* Export ▸ Markdown Report and Export ▸ Summaries as CSV of an export with
 * its ncu CSV, started together: both run on workers (the report computes
 * the findings there) while the main loop keeps turning, and write what
 * `warpscope-cli export --markdown --csv-dir` writes, byte for byte,
 * figures included. */
static void
test_export_off_main_loop (void)
{
  g_autofree char *nsys = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *ncu = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  const char *paths[] = { nsys, ncu, NULL };
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *window_dir = g_build_filename (dir, "window", NULL);
  g_autofree char *md = g_build_filename (window_dir, "report.md", NULL);
  g_autofree char *csv = g_build_filename (dir, "window", "csv", NULL);
  g_autofree char *cli_md = g_build_filename (dir, "cli", "report.md", NULL);
  g_autofree char *cli_csv = g_build_filename (dir, "cli", "csv", NULL);
  const char *argv[] = { ws_test_cli (), "export", "--markdown", cli_md, "--csv-dir",
                         cli_csv,        nsys,     ncu,          NULL };
  const WsWindowExport kinds[] = { WS_WINDOW_EXPORT_MARKDOWN, WS_WINDOW_EXPORT_CSV };
  Export exports[] = { { md }, { csv }, { NULL } };
  g_autofree char *out = NULL, *err = NULL;
  WsWindow *window = ws_test_gui_wait_for_load (ws_test_gui_open (paths));

  g_assert_nonnull (ws_window_get_run (window)->ncu);
  g_assert_cmpint (g_mkdir_with_parents (window_dir, 0755), ==, 0);
  export_all (window, kinds, exports, 2);
  /* The Markdown report took milliseconds (findings, two figures): the
   * main loop turned while it was written. */
  g_assert_cmpuint (exports[0].ticks_writing, >, 0);
  /* The info bar names the file of the last export to end. */
  g_assert_true (strstr (ws_window_get_export_message (window), md) != NULL ||
                 strstr (ws_window_get_export_message (window), csv) != NULL);

  /* The CLI writes into a folder that exists (issue 46, item 5). */
  {
    g_autofree char *cli_dir = g_path_get_dirname (cli_md);

    g_assert_cmpint (g_mkdir_with_parents (cli_dir, 0755), ==, 0);
  }
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  assert_same_file (md, cli_md);
  {
    const char *figures[] = { "v2025.3_h100_probe_kernels.png", "v2025.3_h100_probe_gauges.png" };

    for (gsize i = 0; i < G_N_ELEMENTS (figures); i++)
      {
        g_autofree char *a = g_build_filename (dir, "window", "figs", figures[i], NULL);
        g_autofree char *b = g_build_filename (dir, "cli", "figs", figures[i], NULL);

        assert_same_file (a, b);
      }
  }
  {
    g_autoptr (GDir) listing = g_dir_open (cli_csv, 0, NULL);
    const char *name;
    guint n = 0;

    g_assert_nonnull (listing);
    while ((name = g_dir_read_name (listing)) != NULL)
      {
        g_autofree char *a = g_build_filename (csv, name, NULL);
        g_autofree char *b = g_build_filename (cli_csv, name, NULL);

        assert_same_file (a, b);
        n++;
      }
    g_assert_cmpuint (n, ==, 6);
  }
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

/* Starts a comparison window's export, as its Export menu does, and waits
 * for it. */
static void
compare_export (WsCompareWindow *window, WsCompareWindowExport kind, const char *path)
{
  Export export = { path };
  Export exports[] = { export, { NULL } };
  gulong handler =
    g_signal_connect (window, "export-finished", G_CALLBACK (export_finished_cb), &exports[0]);

  ws_compare_window_export (window, kind, path);
  g_assert_false (exports[0].finished);
  ws_test_gui_iterate_until (exports_finished, exports);
  g_signal_handler_disconnect (window, handler);
  g_assert_true (exports[0].ok);
  g_assert_nonnull (strstr (ws_compare_window_get_export_message (window), path));
}

static gboolean
compared (gpointer window)
{
  return !ws_compare_window_is_loading (window);
}

/* A comparison window, as "Compare…" and --compare open it. */
static void
test_compare_window (void)
{
  g_autofree char *fp32 = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *bf16 = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *csv = g_build_filename (dir, "compare.csv", NULL);
  g_autofree char *written = NULL, *cli_out = NULL, *cli_err = NULL;
  const char *argv[] = { ws_test_cli (), "compare", "--format", "csv", fp32, bf16, NULL };
  const char *whole_argv[] = { ws_test_cli (), "compare", "--whole-run", "--format",
                               "csv",          fp32,      bf16,          NULL };
  WsCompareWindow *window = ws_application_compare (app, fp32, bf16);
  WsComparison *cmp;

  ws_test_gui_iterate_until (compared, window);
  /* Both runs have steps: their steady states are compared, as `compare`
   * compares them, and the window says which steps. */
  g_assert_true (g_str_has_prefix (ws_compare_window_get_headline (window), "per step: GPU 8.7× "
                                                                            "faster"));
  compare_export (window, WS_COMPARE_WINDOW_EXPORT_CSV, csv);
  g_assert_true (g_file_get_contents (csv, &written, NULL, NULL));
  g_assert_cmpint (ws_test_run (argv, &cli_out, &cli_err), ==, 0);
  g_assert_cmpstr (written, ==, cli_out);
  g_clear_pointer (&written, g_free);
  g_clear_pointer (&cli_out, g_free);
  g_clear_pointer (&cli_err, g_free);

  /* The whole runs: 17 kernels only before, 20 only after, 6 in both (SQL
   * over the exports). */
  ws_compare_window_set_whole_run (window, TRUE);
  /* The comparison is rebuilt on a worker. */
  ws_test_gui_iterate_until (compared, window);
  cmp = ws_compare_window_get_comparison (window);
  g_assert_nonnull (cmp);
  g_assert_cmpuint (cmp->kernels->len, ==, 43);
  g_assert_cmpint (gtk_tree_model_iter_n_children (
                     gtk_tree_view_get_model (ws_compare_window_get_table (window)), NULL),
                   ==, 43);
  g_assert_true (
    g_str_has_prefix (ws_compare_window_get_headline (window), "after is 8.6× faster on the GPU"));

  /* For people: a removed kernel reads "gone", with no ratio (it read
   * "only_before" and 0.000); the first row, the removed fp32 GEMM. */
  {
    GtkTreeModel *model = gtk_tree_view_get_model (ws_compare_window_get_table (window));
    GtkTreeIter iter;
    g_autofree char *kernel = NULL, *status = NULL;
    double ratio;

    g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
    gtk_tree_model_get (model, &iter, 0, &kernel, 1, &status, 5, &ratio, -1);
    g_test_message ("%s: status “%s”, ratio %g", kernel, status, ratio);
    g_assert_true (g_str_has_prefix (kernel, "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n"));
    g_assert_cmpstr (status, ==, "gone");
    g_assert_true (isnan (ratio));
  }

  /* The export is what the CLI prints. */
  compare_export (window, WS_COMPARE_WINDOW_EXPORT_CSV, csv);
  g_assert_true (g_file_get_contents (csv, &written, NULL, NULL));
  g_assert_cmpint (ws_test_run (whole_argv, &cli_out, &cli_err), ==, 0);
  g_assert_cmpstr (written, ==, cli_out);

  ws_compare_window_set_match (window, WS_MATCH_NORMALIZED);
  ws_test_gui_iterate_until (compared, window);
  g_assert_cmpuint (ws_compare_window_get_comparison (window)->kernels->len, <, 43);
  ws_compare_window_swap (window);
  ws_test_gui_iterate_until (compared, window);
  g_assert_true (
    g_str_has_prefix (ws_compare_window_get_headline (window), "after is 8.6× slower on the GPU"));

  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

static gboolean
timelines_ready (gpointer timelines)
{
  return ws_compare_timelines_is_ready (timelines);
}

/* Both views have their width. */
static gboolean
timelines_sized (gpointer timelines)
{
  for (int after = 0; after < 2; after++)
    if (ws_time_window_get_width (
          ws_timeline_view_get_window (ws_compare_timelines_get_view (timelines, after))) < 100)
      return FALSE;
  return TRUE;
}

/* x of an absolute time in one of the stacked timelines. */
static double
x_of (WsCompareTimelines *timelines, gboolean after, gint64 time)
{
  return ws_time_window_time_to_x (
    ws_timeline_view_get_window (ws_compare_timelines_get_view (timelines, after)), time);
}

/* The stacked timelines put "step 3" of fp32 (starts at 6,542,959,714 ns)
 * over "step 3" of bf16 (6,658,745,480 ns), and the third "forward"
 * (6,541,740,733 and 6,657,474,364: SQL over the exports) over the third;
 * zooming one zooms the other around the same point. */
static void
test_compare_timelines (void)
{
  g_autofree char *fp32 = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *bf16 = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  WsCompareWindow *window = ws_application_compare (app, fp32, bf16);
  WsCompareTimelines *timelines;
  WsTimeWindow *before, *after;

  ws_test_gui_iterate_until (compared, window);
  /* Instances counted over the whole runs, as the SQL above counts them. */
  ws_compare_window_set_whole_run (window, TRUE);
  ws_compare_window_show_view (window, "timelines");
  timelines = ws_compare_window_get_timelines (window);
  ws_test_gui_iterate_until (timelines_ready, timelines);
  before = ws_timeline_view_get_window (ws_compare_timelines_get_view (timelines, FALSE));
  after = ws_timeline_view_get_window (ws_compare_timelines_get_view (timelines, TRUE));
  gtk_window_present (GTK_WINDOW (window));
  ws_test_gui_iterate_until (timelines_sized, timelines);

  g_assert_true (ws_compare_timelines_align (timelines, "step 3", 1));
  g_assert_cmpfloat_with_epsilon (x_of (timelines, FALSE, 6542959714),
                                  x_of (timelines, TRUE, 6658745480), 0.5);
  /* Each ruler reads its own run's clock: at step 3, the time since the
   * start of that run (the after side read the before run's clock). */
  {
    WsComparison *cmp = ws_compare_window_get_comparison (window);
    double at_before = ws_time_window_clock_at_x (before, x_of (timelines, FALSE, 6542959714));
    double at_after = ws_time_window_clock_at_x (after, x_of (timelines, TRUE, 6658745480));

    g_test_message ("rulers at step 3: before %.0f ns (run start %" G_GINT64_FORMAT
                    "), after %.0f ns (run start %" G_GINT64_FORMAT ")",
                    at_before, cmp->before->origin, at_after, cmp->after->origin);
    g_assert_cmpfloat_with_epsilon (at_before, 6542959714 - cmp->before->origin,
                                    ws_time_window_get_ns_per_px (before));
    g_assert_cmpfloat_with_epsilon (at_after, 6658745480 - cmp->after->origin,
                                    ws_time_window_get_ns_per_px (after));
  }
  /* The longer step (1,181,054 ns, bf16: 6,659,926,534 − 6,658,745,480) fills the view but a tenth on each side. */
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (before), 1181054 * 1.2, 1);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (after), 1181054 * 1.2, 1);

  /* One scale for both memory lanes, the higher peak of the two: SQL's
   * running sum of CUDA_GPU_MEMORY_USAGE_EVENTS (allocations less frees),
   * raised by its lowest point when that is below zero. */
  {
    const char *peak_sql =
      "SELECT max(r) - min(0, min(r)) FROM (SELECT sum(CASE memoryOperationType WHEN 0 THEN "
      "bytes ELSE -bytes END) OVER (ORDER BY start, rowid) AS r FROM "
      "CUDA_GPU_MEMORY_USAGE_EVENTS)";
    g_autofree char *peak_before = ws_test_sqlite_text (fp32, peak_sql);
    g_autofree char *peak_after = ws_test_sqlite_text (bf16, peak_sql);
    double top = MAX (g_ascii_strtod (peak_before, NULL), g_ascii_strtod (peak_after, NULL));

    g_test_message ("memory peaks: before %s, after %s bytes", peak_before, peak_after);
    /* The lanes keep their values as floats: equal within a float's 24 bits. */
    for (int side = 0; side < 2; side++)
      g_assert_cmpfloat_with_epsilon (
        ws_timeline_view_get_memory_top (ws_compare_timelines_get_view (timelines, side)), top,
        top * 1e-7);
  }

  ws_timeline_view_zoom (ws_compare_timelines_get_view (timelines, TRUE), 4);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (before), ws_time_window_get_span (after),
                                  1e-6);
  g_assert_cmpfloat (ws_time_window_get_span (before), <, 1181054 * 1.2 / 2);
  g_assert_cmpfloat_with_epsilon (x_of (timelines, FALSE, 6542959714),
                                  x_of (timelines, TRUE, 6658745480), 0.5);

  /* As the NVTX summary names it, in the default domain. */
  g_assert_true (ws_compare_timelines_align (timelines, ":forward", 3));
  g_assert_cmpfloat_with_epsilon (x_of (timelines, FALSE, 6541740733),
                                  x_of (timelines, TRUE, 6657474364), 0.5);
  /* A range one run lacks: both start at their beginnings, and it says so. */
  g_assert_false (ws_compare_timelines_align (timelines, "no such range", 1));
  g_assert_nonnull (strstr (ws_compare_timelines_get_status (timelines), "Not in both runs"));
  gtk_widget_destroy (GTK_WIDGET (window));
}

static void
test_broken_file_shows_info_bar (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "broken.sqlite", NULL);
  WsWindow *window;

  g_assert_true (g_file_set_contents (path, "not a database\n", -1, NULL));
  window = ws_test_gui_open_and_load (path);
  g_assert_cmpstr (ws_window_get_page (window), ==, "welcome");
  g_assert_nonnull (ws_window_get_error (window));
  g_assert_nonnull (strstr (ws_window_get_error (window), path));
  g_assert_nonnull (strstr (ws_window_get_error (window), "not an SQLite database"));
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

/* Closing the window while it loads cancels the load; nothing crashes. */
static void
test_close_while_loading (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2026.2_nsysai_mfu_before.sqlite", NULL);
  const char *paths[] = { path, NULL };
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  WsWindow *window;

  window = ws_test_gui_open (paths);
  gtk_widget_destroy (GTK_WIDGET (window));
  /* Let the worker finish and its callback run against the closed window. */
  while (g_get_monotonic_time () < deadline && g_main_context_iteration (NULL, FALSE))
    ;
  g_usleep (G_USEC_PER_SEC / 2);
  ws_test_gui_flush ();
}

/* Every key the Keyboard Shortcuts window shows, as "key:mods". */
static GHashTable *
overlay_accels (const char *text)
{
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *tag = "<property name=\"accelerator\">";

  for (const char *p = strstr (text, tag); p != NULL; p = strstr (p, tag))
    {
      g_autofree char *value = NULL;
      g_auto (GStrv) parts = NULL;
      const char *end;

      p += strlen (tag);
      end = strchr (p, '<');
      g_assert_nonnull (end);
      value = g_strndup (p, end - p);
      {
        g_autoptr (GString) plain = g_string_new (value);

        g_string_replace (plain, "&lt;", "<", 0);
        g_string_replace (plain, "&gt;", ">", 0);
        parts = g_strsplit (plain->str, " ", -1);
      }
      for (guint i = 0; parts[i] != NULL; i++)
        {
          guint key;
          GdkModifierType mods;

          gtk_accelerator_parse (parts[i], &key, &mods);
          if (key != 0)
            g_hash_table_add (set, g_strdup_printf ("%u:%u", key, (guint) mods));
        }
    }
  return set;
}

/* A read-only selectable label (kernel details, a finding's text) that
 * gets the focus shows no selection: GTK selects all of one on focus unless
 * told otherwise, which read as every such label highlighted. */
static void
test_focused_label_not_selected (void)
{
  GtkWidget *top = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *label = gtk_label_new ("Duration 129.02 µs, 4 launches");
  GtkWidget *other = gtk_label_new ("avg 3.10 µs");
  gint start = -1, end = -1;

  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (other), TRUE);
  gtk_container_add (GTK_CONTAINER (box), label);
  gtk_container_add (GTK_CONTAINER (box), other);
  gtk_container_add (GTK_CONTAINER (top), box);
  gtk_window_set_application (GTK_WINDOW (top), GTK_APPLICATION (app));
  gtk_widget_show_all (top);
  ws_test_gui_flush ();
  gtk_widget_grab_focus (other);
  gtk_widget_grab_focus (label);
  ws_test_gui_flush ();
  g_assert_true (gtk_widget_is_focus (label));
  g_assert_false (gtk_label_get_selection_bounds (GTK_LABEL (label), &start, &end) && start != end);
  /* GTK's default, for contrast: the same focus selects all of it. */
  g_object_set (gtk_widget_get_settings (label), "gtk-label-select-on-focus", TRUE, NULL);
  gtk_widget_grab_focus (other);
  gtk_widget_grab_focus (label);
  g_assert_true (gtk_label_get_selection_bounds (GTK_LABEL (label), &start, &end) && start != end);
  g_object_set (gtk_widget_get_settings (label), "gtk-label-select-on-focus", FALSE, NULL);
  gtk_label_select_region (GTK_LABEL (label), 0, 0);
  /* Selecting by hand still works: the labels are there to be copied. */
  gtk_label_select_region (GTK_LABEL (label), 0, 8);
  g_assert_true (gtk_label_get_selection_bounds (GTK_LABEL (label), &start, &end));
  g_assert_cmpint (end - start, ==, 8);
  gtk_widget_destroy (top);
}

/* Every selectable label below @widget: none takes the focus. */
static void
check_labels (GtkWidget *widget, gpointer data)
{
  guint *n = data;

  if (GTK_IS_LABEL (widget) && gtk_label_get_selectable (GTK_LABEL (widget)))
    {
      (*n)++;
      if (gtk_widget_get_can_focus (widget))
        g_error ("a selectable label takes the focus: \"%.60s\"",
                 gtk_label_get_text (GTK_LABEL (widget)));
      gtk_widget_grab_focus (widget);
      g_assert_false (gtk_widget_has_focus (widget));
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), check_labels, data);
}

/* Issue 40, item 9: a read-only label showed a text caret when focused.
 * Selectable labels (kernel details, findings, summaries) stay selectable
 * for copying but take no focus, so none draws a caret; every page of a
 * loaded export, with a kernel's details and the findings shown. */
static void
test_selectable_labels_take_no_focus (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  WsWindow *window = ws_test_gui_open_and_load (path);
  static const char *const pages[] = { "kernels", "findings", "timeline", "summaries" };
  guint n = 0;

  gtk_window_present (GTK_WINDOW (window));
  for (gsize i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                      g_variant_new_string (pages[i]));
      ws_test_gui_flush ();
    }
  check_labels (GTK_WIDGET (window), &n);
  g_test_message ("%u selectable labels", n);
  g_assert_cmpuint (n, >=, 10);
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_gui_flush ();
}

/* The README's page keys are the application's: "The **Ranks** page
 * (Alt+8)" against the accelerator of win.show-page('ranks'). */
static void
test_readme_page_keys (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "README.md", NULL);
  g_autofree char *readme = ws_test_read (path);
  g_autoptr (GRegex) said =
    g_regex_new ("\\*\\*([A-Z][a-z]+)\\*\\* page \\(Alt\\+([0-9])\\)", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  guint checked = 0;

  for (g_regex_match (said, readme, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *name = g_match_info_fetch (match, 1);
      g_autofree char *digit = g_match_info_fetch (match, 2);
      g_autofree char *page = g_ascii_strdown (name, -1);
      g_autofree char *action = g_strdup_printf ("win.show-page('%s')", page);
      g_autofree char *expected = g_strdup_printf ("<Alt>%s", digit);
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action);

      g_test_message ("README: %s is Alt+%s", name, digit);
      g_assert_nonnull (accels[0]);
      g_assert_cmpstr (accels[0], ==, expected);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 1);
  {
    g_auto (GStrv) ranks =
      gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.show-page('ranks')");

    g_assert_cmpstr (ranks[0], ==, "<Alt>8");
  }
}

/* The Keyboard Shortcuts window lists every accelerator the application
 * sets (the first of each action's; the Alt+1…8 pages as one range), the
 * timeline's too once a window is shown. */
static void
test_shortcuts_listed (void)
{
  g_autoptr (GBytes) overlay = g_resources_lookup_data (
    "/org/warpscope/Warpscope/gtk/help-overlay.ui", G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  const char *text = g_bytes_get_data (overlay, NULL);
  g_autoptr (GHashTable) listed = overlay_accels (text);
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));
  g_auto (GStrv) actions = NULL;
  guint checked = 0;

  gtk_widget_show (GTK_WIDGET (window));
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string ("timeline"));
  ws_test_gui_flush ();
  actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto (GStrv) accels =
        gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);
      g_autofree char *key_mods = NULL;
      guint key;
      GdkModifierType mods;

      if (accels[0] == NULL || g_str_has_prefix (actions[i], "win.show-page"))
        continue;
      gtk_accelerator_parse (accels[0], &key, &mods);
      key_mods = g_strdup_printf ("%u:%u", key, (guint) mods);
      g_test_message ("%s: %s", actions[i], accels[0]);
      if (!g_hash_table_contains (listed, key_mods))
        g_error ("%s (%s) is not in the Keyboard Shortcuts window", actions[i], accels[0]);
      checked++;
    }
  g_assert_nonnull (strstr (text, "&lt;Alt&gt;1...9"));
  /* app.open, new-window, quit, preferences, win.close, win.find and the
   * timeline's seven. */
  g_assert_cmpuint (checked, >=, 12);
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* Preferences: the tool paths and the output folder are the settings'
 * keys; the recent runs are counted and cleared. */
static void
test_preferences (void)
{
  g_autoptr (GSettings) settings = g_object_ref (ws_application_get_settings (app));
  WsPreferencesWindow *prefs = ws_preferences_window_new (NULL, settings);
  const char *recent[] = { "/data/a.sqlite", "/data/b.sqlite", NULL };
  g_autofree char *nsys = NULL;

  gtk_entry_set_text (ws_preferences_window_get_entry (prefs, "nsys-path"), "/opt/nsys/bin/nsys");
  nsys = g_settings_get_string (settings, "nsys-path");
  g_assert_cmpstr (nsys, ==, "/opt/nsys/bin/nsys");
  g_settings_set_strv (settings, "recent-runs", recent);
  g_settings_set_strv (settings, "recent-comparisons", NULL);
  g_assert_cmpstr (ws_preferences_window_get_recent_text (prefs), ==,
                   "2 runs and 0 comparisons in the Open Recent menu");
  gtk_button_clicked (ws_preferences_window_get_clear_button (prefs));
  {
    g_auto (GStrv) left = g_settings_get_strv (settings, "recent-runs");

    g_assert_cmpuint (g_strv_length (left), ==, 0);
  }
  g_assert_false (
    gtk_widget_get_sensitive (GTK_WIDGET (ws_preferences_window_get_clear_button (prefs))));
  g_settings_reset (settings, "nsys-path");
  gtk_widget_destroy (GTK_WIDGET (prefs));
}

/* A capture folder says how it was made, before a kernel is selected: the
 * target's row, the tools and GPUs, and every command the launcher ran, as
 * its run.json has them (read here with json-glib). */
static void
test_capture_folder_says_how (void)
{
  g_autofree char *folder = ws_test_data ("capture-h200", "probe", NULL);
  g_autofree char *manifest = ws_test_data ("capture-h200", "probe", "run.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  WsWindow *window = ws_test_gui_open_and_load (folder);
  WsKernelsPage *page = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
  g_autofree char *details = ws_kernels_page_get_details_text (page);
  JsonObject *root, *target;
  JsonArray *steps;
  guint commands = 0;

  g_test_message ("%s", details);
  g_assert_true (json_parser_load_from_file (parser, manifest, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  target = json_object_get_object_member (root, "target");
  g_assert_nonnull (strstr (details, "How this run was made"));
  g_assert_nonnull (strstr (details, json_object_get_string_member (target, "name")));
  g_assert_nonnull (strstr (details, json_object_get_string_member (target, "cmd")));
  g_assert_nonnull (strstr (
    details, json_array_get_string_element (json_object_get_array_member (root, "gpus"), 0)));
  g_assert_nonnull (strstr (details, "nsys 2025.3.1.0 (/tmp/probe/nsys)"));
  g_assert_nonnull (strstr (details, "$ cd /tmp/probe && /tmp/probe/nsys profile "
                                     "--force-overwrite=true --trace=cuda,nvtx,osrt --sample=none "
                                     "--output /tmp/probe/out/targets/probe/nsys/probe bash -lc "
                                     "./probe"));
  steps = json_object_get_array_member (root, "steps");
  for (guint i = 0; i < json_array_get_length (steps); i++)
    commands += json_array_get_length (
      json_object_get_array_member (json_array_get_object_element (steps, i), "commands"));
  g_assert_cmpuint (commands, ==, 8);
  {
    guint lines = 0;

    for (const char *p = strstr (details, "\n$ "); p != NULL; p = strstr (p + 1, "\n$ "))
      lines++;
    g_assert_cmpuint (lines, ==, commands);
  }
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* In Chinese, the launch configurations of the selected kernel read in
 * Chinese (they were always English).  In a child process, which switches
 * to zh_CN and the build tree's translations before any window exists. */
static void
test_zh_cn_launch_configurations (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
      WsWindow *window;
      WsKernelsPage *page;
      g_autofree char *details = NULL;

      g_setenv ("LANGUAGE", "zh_CN", TRUE);
      if (setlocale (LC_ALL, "zh_CN.UTF-8") == NULL)
        {
          ws_test_child_skip (
            "no zh_CN.UTF-8 locale: build-aux/warpscope-dev makes it (localedef)");
          return;
        }
      bindtextdomain (GETTEXT_PACKAGE, BUILD_LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
      window = ws_test_gui_open_and_load (path);
      page = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
      /* The imbalanced kernel: 4 launches of grid 64, block 256 (probe.cu). */
      ws_bars_view_select (ws_kernels_page_get_bars_view (page), 5);
      details = ws_kernels_page_get_details_text (page);
      g_printerr ("%s\n", details);
      g_assert_nonnull (strstr (details, "网格 64×1×1，线程块 256×1×1，16 个寄存器，共享内存 0 B"));
      g_assert_null (strstr (details, "registers"));
      gtk_widget_destroy (GTK_WIDGET (window));
      return;
    }
  ws_test_trap_child (120);
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);

  g_test_add_func ("/window/open/nsys-export-shows-bars", test_opens_export);
  g_test_add_func ("/window/open/broken-file-shows-info-bar", test_broken_file_shows_info_bar);
  g_test_add_func ("/window/labels/selectable-take-no-focus", test_selectable_labels_take_no_focus);
  g_test_add_func ("/window/open/nsys-stats-csvs", test_opens_stats_csvs);
  g_test_add_func ("/window/open/capture-folder", test_opens_capture_folder);
  g_test_add_func ("/window/open/capture-folder-says-how-it-was-made",
                   test_capture_folder_says_how);
  g_test_add_func ("/window/open/ncu-csv-shows-gauges", test_opens_ncu_csv);
  g_test_add_func ("/window/open/cpu-profile-shows-flame-graph", test_opens_cpu_profile);
  g_test_add_func ("/window/open/nvprof-log-counts-launches", test_opens_nvprof_log);
  g_test_add_func ("/window/export/chart-png-svg-pdf", test_export_chart);
  g_test_add_func ("/window/export/markdown-and-csv-off-the-main-loop", test_export_off_main_loop);
  g_test_add_func ("/window/compare/opens-and-matches", test_compare_window);
  g_test_add_func ("/window/compare/timelines-aligned", test_compare_timelines);
  g_test_add_func ("/window/close-while-loading", test_close_while_loading);
  g_test_add_func ("/window/help/shortcuts-listed", test_shortcuts_listed);
  g_test_add_func ("/window/preferences/tools-and-recent", test_preferences);
  g_test_add_func ("/window/labels/focus-selects-nothing", test_focused_label_not_selected);
  g_test_add_func ("/window/help/readme-page-keys", test_readme_page_keys);
  g_test_add_func ("/window/zh-cn/launch-configurations-in-chinese",
                   test_zh_cn_launch_configurations);

  return ws_test_gui_run ();
}
