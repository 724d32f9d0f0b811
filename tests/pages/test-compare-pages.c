/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "ws-application.h"
#include "ws-compare-window.h"
#include "ws-compare-gauges.h"
#include "ws-findings-diff.h"
#include "ws-surface.h"
#include "ws-test-gui.h"
#include "ws-test-pixels.h"
#include "ws-test-util.h"

#define LAYER_NORM "at::native::<unnamed>::vectorized_layer_norm_kernel"

static WsApplication *app;

typedef struct
{
  gboolean done;
  gboolean ok;
} Exported;

static void
export_finished_cb (WsCompareWindow *window, int kind, const char *path, gboolean ok,
                    Exported *exported)
{
  exported->done = TRUE;
  exported->ok = ok;
}

static gboolean
loaded (gpointer window)
{
  return !ws_compare_window_is_loading (window);
}

static gboolean
compared (gpointer window)
{
  return loaded (window) &&
         !ws_compare_findings_page_is_busy (ws_compare_window_get_findings_page (window));
}

/* The window is mapped and the view has its size. */
static gboolean
allocated (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_allocated_width (widget) > 1;
}

static char *
side (const char *nsys, const char *ncu)
{
  g_autofree char *a = ws_test_data ("nsys", nsys, NULL);
  g_autofree char *b = ncu != NULL ? ws_test_data ("ncu", ncu, NULL) : NULL;

  return b != NULL ? g_strdup_printf ("%s,%s", a, b) : g_steal_pointer (&a);
}

/* Opens a comparison as "Compare…" and --compare do, and waits for both
 * runs and both runs' findings. */
static WsCompareWindow *
compare (const char *before, const char *after)
{
  WsCompareWindow *window = ws_application_compare (app, before, after);

  ws_test_gui_iterate_until (compared, window);
  /* The figures below were checked over the whole runs (the steady states,
   * the default where both have steps, hold fewer launches). */
  ws_compare_window_set_whole_run (window, TRUE);
  g_assert_nonnull (ws_compare_window_get_comparison (window));
  return window;
}

static int
find_row (WsCompareGaugesPage *page, const char *needle)
{
  for (guint i = 0; i < ws_compare_gauges_page_get_n_kernels (page); i++)
    {
      g_autofree char *text = ws_compare_gauges_page_get_row_text (page, i);

      if (strstr (text, needle) != NULL)
        return (int) i;
    }
  return -1;
}

/* The Table's "Verdict" column: its visibility, and the text of @key. */
static gboolean
verdict_column (WsCompareWindow *window, const char *key, char **text)
{
  GtkTreeView *table = ws_compare_window_get_table (window);
  GtkTreeModel *model = gtk_tree_view_get_model (table);
  int last = gtk_tree_model_get_n_columns (model) - 1;
  gboolean visible = FALSE;
  GtkTreeIter iter;

  for (guint i = 0; i < gtk_tree_view_get_n_columns (table); i++)
    {
      GtkTreeViewColumn *column = gtk_tree_view_get_column (table, (int) i);

      if (g_strcmp0 (gtk_tree_view_column_get_title (column), "Verdict") == 0)
        visible = gtk_tree_view_column_get_visible (column);
    }
  *text = NULL;
  if (gtk_tree_model_get_iter_first (model, &iter))
    do
      {
        g_autofree char *kernel = NULL;

        gtk_tree_model_get (model, &iter, 0, &kernel, -1);
        if (g_strcmp0 (kernel, key) == 0)
          gtk_tree_model_get (model, &iter, last, text, -1);
      }
    while (*text == NULL && gtk_tree_model_iter_next (model, &iter));
  return visible;
}

/* fp32 → bf16, each side with its ncu CSV: the Gauges tab lists the
 * kernels profiled on both sides with their verdicts (hand-checked in
 * test-compare-ncu.c from the CSV cells: the layer norm goes from Memory
 * to Compute), and draws the selected one's gauges, the SM bar
 * ending at 72.752171% of its track. */
static void
test_gauges_tab (void)
{
  g_autofree char *before =
    side ("v2025.3_h100_train_fp32.sqlite", "h100_train_fp32_sections_raw.csv");
  g_autofree char *after =
    side ("v2025.3_h100_train_bf16.sqlite", "h100_train_bf16_sections_raw.csv");
  WsCompareWindow *window = compare (before, after);
  WsCompareGaugesPage *page = ws_compare_window_get_gauges_page (window);
  WsCompareGaugesView *view = ws_compare_gauges_page_get_view (page);
  g_autofree char *text = NULL, *verdict = NULL;
  WsCompareGaugeGeometry g;
  cairo_surface_t *surface;
  cairo_t *cr;
  int row, fill_end = -1, width, height;

  /* Demangled names: six kernels under one name on both sides. */
  g_assert_false (ws_compare_gauges_page_is_empty (page));
  g_assert_cmpuint (ws_compare_gauges_page_get_n_kernels (page), ==, 6);
  g_assert_cmpint (find_row (page, "vectorized_layer_norm_kernel"), ==, -1);

  ws_compare_window_set_match (window, WS_MATCH_NORMALIZED);
  ws_test_gui_iterate_until (compared, window);
  g_assert_cmpuint (ws_compare_gauges_page_get_n_kernels (page), ==, 7);
  row = find_row (page, "vectorized_layer_norm_kernel");
  g_assert_cmpint (row, >=, 0);
  text = ws_compare_gauges_page_get_row_text (page, (guint) row);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "\nMemory\n→\nCompute\n"));
  /* gpu__time_duration.sum "0.133824" ms → "66.624000" us */
  g_assert_true (g_str_has_suffix (text, "\n134 µs → 66.6 µs (−67.2 µs, 0.50×)"));
  g_clear_pointer (&text, g_free);
  text = ws_compare_gauges_page_get_row_text (page, (guint) find_row (page, "reduce_kernel"));
  g_assert_nonnull (strstr (text, "\nMemory\n(unchanged)\n"));

  ws_compare_gauges_page_select (page, (guint) row);
  g_assert_cmpstr (ws_compare_gauges_page_get_selected_key (page), ==, LAYER_NORM);
  g_assert_cmpstr (ws_compare_gauges_view_get_delta (view)->key, ==, LAYER_NORM);

  /* The view as the window draws it. */
  ws_compare_window_show_view (window, "gauges");
  ws_test_gui_iterate_until (allocated, view);
  width = gtk_widget_get_allocated_width (GTK_WIDGET (view));
  height = gtk_widget_get_allocated_height (GTK_WIDGET (view));
  g_assert_cmpint (width, >, 400);
  g_assert_true (ws_compare_gauges_view_get_geometry (view, WS_GAUGE_SM, &g));
  g_assert_cmpfloat (g.track.y + g.track.height, <, height);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  gtk_widget_draw (GTK_WIDGET (view), cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  for (int x = (int) g.track.x; x < (int) (g.track.x + g.track.width); x++)
    if (ws_test_pixel_is_color (surface, x, (int) (g.track.y + g.track.height / 2), g.fill))
      fill_end = x + 1;
  /* sm__throughput.avg.pct_of_peak_sustained_elapsed "72.752171" */
  g_assert_cmpfloat (fabs (fill_end - (g.track.x + g.track.width * 0.72752171)), <=, 1.0);
  cairo_surface_destroy (surface);

  /* Export ▸ Chart as Image on this tab: every kernel's gauges, stacked. */
  {
    g_autofree char *dir = ws_test_tmpdir ();
    g_autofree char *png = g_build_filename (dir, "gauges.png", NULL);
    WsPalette light;
    cairo_t *measure = ws_measure_context ();
    double expected;
    Exported exported = { FALSE };
    gulong handler;

    ws_palette_init_light (&light);
    expected = ceil (ws_compare_gauges_all_natural_height (
      measure, 1200, ws_compare_window_get_comparison (window),
      gtk_window_get_title (GTK_WINDOW (window)), &light));
    cairo_destroy (measure);
    handler =
      g_signal_connect (window, "export-finished", G_CALLBACK (export_finished_cb), &exported);
    /* The export runs on a worker; the window says when it is written. */
    ws_compare_window_export (window, WS_COMPARE_WINDOW_EXPORT_CHART, png);
    ws_test_wait_flag (&exported.done, 100, "the chart export");
    g_signal_handler_disconnect (window, handler);
    g_assert_true (exported.ok);
    surface = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 1200);
    g_assert_cmpint (cairo_image_surface_get_height (surface), ==, (int) expected);
    cairo_surface_destroy (surface);
    ws_test_rmtree (dir);
  }

  /* The table names the verdict change too. */
  g_assert_true (verdict_column (window, LAYER_NORM, &verdict));
  g_assert_cmpstr (verdict, ==, "Memory → Compute");

  /* Findings: both runs only leave the GPU idle, severe on both sides. */
  g_assert_cmpuint (
    ws_compare_findings_page_get_n_rows (ws_compare_window_get_findings_page (window)), ==, 1);
  g_clear_pointer (&text, g_free);
  text = ws_compare_findings_page_get_row_text (ws_compare_window_get_findings_page (window), 0);
  g_assert_true (g_str_has_prefix (text, "Unchanged\nThe GPU sits idle (gpu-idle)\n"));

  gtk_widget_destroy (GTK_WIDGET (window));
}

/* A side without ncu data: the Gauges tab says which, and how to add it;
 * the table has no Verdict column. */
static void
test_gauges_empty_state (void)
{
  g_autofree char *before = side ("v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *after =
    side ("v2025.3_h100_train_bf16.sqlite", "h100_train_bf16_sections_raw.csv");
  WsCompareWindow *window = compare (before, after);
  WsCompareGaugesPage *page = ws_compare_window_get_gauges_page (window);
  g_autofree char *verdict = NULL;

  g_assert_true (ws_compare_gauges_page_is_empty (page));
  g_assert_cmpuint (ws_compare_gauges_page_get_n_kernels (page), ==, 0);
  g_assert_true (g_str_has_prefix (ws_compare_gauges_page_get_empty_text (page),
                                   "The run before has no Nsight Compute data."));
  g_assert_nonnull (strstr (ws_compare_gauges_page_get_empty_text (page), ".sqlite,"));
  g_assert_false (verdict_column (window, LAYER_NORM, &verdict));

  /* Swapped, it is the run after that lacks them. */
  ws_compare_window_swap (window);
  ws_test_gui_iterate_until (compared, window);
  g_assert_true (g_str_has_prefix (ws_compare_gauges_page_get_empty_text (page),
                                   "The run after has no Nsight Compute data."));
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* The probe before, the bf16 training run after: six checks fixed (the
 * field's five and memory-access) and the GPU idle time worse, minor →
 * severe (each hand-checked against SQL in test-compare-ncu.c); swapped,
 * six appeared and one got better, without computing anything again. */
static void
test_findings_tab (void)
{
  g_autofree char *before = side ("v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *after = side ("v2025.3_h100_train_bf16.sqlite", NULL);
  WsCompareWindow *window = compare (before, after);
  WsCompareFindingsPage *page = ws_compare_window_get_findings_page (window);
  g_autofree char *first = NULL, *last = NULL;

  g_assert_cmpuint (ws_compare_findings_page_get_n_rows (page), ==, 7);
  first = ws_compare_findings_page_get_row_text (page, 0);
  g_test_message ("%s", first);
  /* 4,563,700 of 25,291,332 ns idle is 18.0%; 3,509,646,384 of
   * 3,536,087,144 ns is 99.3% (SQL in test-compare-ncu.c). */
  g_assert_true (g_str_has_prefix (first, "Worse\nThe GPU sits idle (gpu-idle)\nBefore:\nMinor\n→\n"
                                          "After:\nSevere\n"));
  g_assert_nonnull (strstr (first, "\nBefore: GPU 0 is idle 18.0% of the time"));
  g_assert_nonnull (strstr (first, "\nAfter: GPU 0 is idle 99.3% of the time"));
  for (guint i = 1; i < 7; i++)
    {
      g_autofree char *text = ws_compare_findings_page_get_row_text (page, i);

      g_assert_true (g_str_has_prefix (text, "Fixed\n"));
      g_assert_nonnull (strstr (text, "\nSevere\n→\nAfter:\nnot raised\nBefore: "));
    }
  /* Neither run has ncu data. */
  g_assert_true (ws_compare_gauges_page_is_empty (ws_compare_window_get_gauges_page (window)));
  g_assert_true (g_str_has_prefix (
    ws_compare_gauges_page_get_empty_text (ws_compare_window_get_gauges_page (window)),
    "Neither run has Nsight Compute data."));

  ws_compare_window_swap (window);
  ws_test_gui_iterate_until (compared, window);
  g_assert_false (ws_compare_findings_page_is_busy (page));
  for (guint i = 0; i < 6; i++)
    g_assert_cmpint (
      g_array_index (ws_compare_findings_page_get_diff (page), WsFindingChange, i).change, ==,
      WS_FINDING_APPEARED);
  last = ws_compare_findings_page_get_row_text (page, 6);
  g_assert_true (
    g_str_has_prefix (last, "Better\nThe GPU sits idle (gpu-idle)\nBefore:\nSevere\n"));
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* Closing the window while both runs' findings are computed: nothing
 * crashes when the workers finish. */
static void
test_close_while_computing (void)
{
  g_autofree char *before = side ("v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *after = side ("v2025.3_h100_train_bf16.sqlite", NULL);
  WsCompareWindow *window = ws_application_compare (app, before, after);

  ws_test_gui_iterate_until (loaded, window);
  gtk_widget_destroy (GTK_WIDGET (window));
  g_usleep (G_USEC_PER_SEC / 2);
  ws_test_gui_flush ();
}

static gboolean
budgets_judged (gpointer page)
{
  return !ws_compare_budgets_page_is_busy (page);
}

/* The Budgets tab of a real run against the one whose GELU is 10% slower
 * (tests/data/gate): each row is the line `warpscope-cli gate --budgets`
 * prints for it, verdict, budget, sentence and file line alike. */
static void
test_budgets_tab (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *before = ws_test_unxz ("gate/same01.sqlite.xz", dir);
  g_autofree char *after = ws_test_unxz ("gate/slow_kernel.sqlite.xz", dir);
  g_autofree char *file = g_build_filename (dir, "budgets.txt", NULL);
  const char *args[] = { "gate", "--budgets", file, before, after, NULL };
  g_autofree char *cli = NULL;
  g_auto (GStrv) lines = NULL;
  WsCompareWindow *window;
  WsCompareBudgetsPage *page;

  g_assert_true (g_file_set_contents (file,
                                      "# the gate of docs/ci.md\nstep=+3%\nkernel:*gelu*=+5%\n"
                                      "kernel:*nvjet*=+5%\nnvtx:data=+1ms\nkernel:nosuch*=+1%\n",
                                      -1, NULL));
  cli = ws_test_cli_expect (args, 1, NULL);
  lines = g_strsplit (cli, "\n", -1);
  window = ws_application_compare (app, before, after);
  ws_test_gui_iterate_until (compared, window);
  page = ws_compare_window_get_budgets_page (window);
  ws_compare_budgets_page_set_file (page, file);
  ws_test_gui_iterate_until (budgets_judged, page);
  g_assert_cmpuint (ws_compare_budgets_page_get_n_rows (page), ==, 5);
  g_assert_cmpstr (ws_compare_budgets_page_get_summary (page), ==,
                   "5 budgets: 1 over, 1 not judged.");
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *row = ws_compare_budgets_page_get_row_text (page, i);
      g_auto (GStrv) cells = g_strsplit (row, "\t", 4);
      g_autofree char *expected =
        g_strdup_printf ("%-12s  %s  %s  (%s)", cells[2], cells[1], cells[3], cells[0]);

      g_test_message ("%s", row);
      g_assert_cmpstr (lines[i], ==, expected);
    }
  ws_compare_window_show_view (window, "budgets");
  ws_test_gui_flush ();
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);

  g_test_add_func ("/compare-pages/gauges/ncu-on-both-sides", test_gauges_tab);
  g_test_add_func ("/compare-pages/gauges/empty-state-names-the-side", test_gauges_empty_state);
  g_test_add_func ("/compare-pages/findings/fixed-and-worse", test_findings_tab);
  g_test_add_func ("/compare-pages/findings/close-while-computing", test_close_while_computing);
  g_test_add_func ("/compare-pages/budgets/rows-are-the-gate-lines", test_budgets_tab);

  return ws_test_gui_run ();
}
