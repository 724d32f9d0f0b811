/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "ws-application.h"
#include "ws-gauges-chart.h"
#include "ws-gauges-page.h"
#include "ws-kernels-page.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"
#include "ws-run-loader.h"
#include "ws-test-gui.h"
#include "ws-test-load.h"
#include "ws-test-util.h"
#include "ws-window.h"

static WsApplication *app;

static gboolean
laid_out (gpointer page)
{
  return gtk_widget_get_allocated_width (GTK_WIDGET (ws_gauges_page_get_overview (page))) >= 100;
}

/* A real window holding the page, shown and laid out. */
static GtkWidget *
show_page (WsRun *run, WsGaugesPage **page)
{
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);

  *page = g_object_new (WS_TYPE_GAUGES_PAGE, "visible", TRUE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 760);
  gtk_container_add (GTK_CONTAINER (window), GTK_WIDGET (*page));
  ws_gauges_page_set_run (*page, run);
  gtk_widget_show (window);
  ws_test_gui_iterate_until (laid_out, *page);
  return window;
}

/* Clicks the middle of overview row @row, as a pointer would. */
static void
click_row (WsGaugesView *view, guint row)
{
  GtkWidget *widget = GTK_WIDGET (view);
  GdkSeat *seat = gdk_display_get_default_seat (gtk_widget_get_display (widget));
  GdkRectangle rect;
  GdkEvent *event;

  g_assert_true (ws_gauges_view_get_row_rect (view, row, &rect));
  event = gdk_event_new (GDK_BUTTON_PRESS);
  event->button.window = g_object_ref (gtk_widget_get_window (widget));
  event->button.x = rect.x + rect.width / 3.0;
  event->button.y = rect.y + rect.height / 2.0;
  event->button.button = GDK_BUTTON_PRIMARY;
  event->button.time = GDK_CURRENT_TIME;
  gdk_event_set_device (event, gdk_seat_get_pointer (seat));
  gtk_widget_event (widget, event);
  gdk_event_free (event);
  ws_test_gui_flush ();
}

/* ncu results alone: eight rows, the longest launch selected; a click on
 * stream_copy's row shows its verdict, memory-bound. */
static void
test_ncu_only (void)
{
  g_autoptr (WsNcuResults) ncu = ws_test_load_ncu ("h100_probe_full_raw.csv");
  g_autoptr (WsRun) run = ws_run_new_from_ncu (ncu);
  WsGaugesPage *page;
  GtkWidget *window = show_page (run, &page);
  WsGaugesView *overview = ws_gauges_page_get_overview (page);
  WsGaugesView *panel = ws_gauges_page_get_panel (page);
  const WsGaugesOverview *rows = ws_gauges_view_get_overview (overview);
  guint longest = 0;
  int row;

  g_assert_false (ws_gauges_page_is_empty (page));
  g_assert_cmpuint (ws_gauges_view_get_n_rows (overview), ==, 8);

  /* Sorted by duration: the first row is the longest launch, and it is selected. */
  for (guint i = 1; i < 8; i++)
    if (ws_ncu_results_gauges (ncu, i)->gauge[WS_GAUGE_DURATION].value >
        ws_ncu_results_gauges (ncu, longest)->gauge[WS_GAUGE_DURATION].value)
      longest = i;
  g_assert_cmpuint (ws_gauges_overview_launch (rows, 0), ==, longest);
  g_assert_cmpint (ws_gauges_view_get_launch (panel), ==, (int) longest);
  g_assert_true (g_str_has_prefix (ws_gauges_page_get_details_text (page),
                                   "barrier_heavy(float *, int)\nMemory: L1/shared memory "
                                   "89.91% ≥ 60% of peak"));

  /* stream_copy (launch 1): L2 75.829297, DRAM 75.023901, instruction
   * issue 2.851456 in the CSV. */
  row = ws_gauges_overview_row_of (rows, 1);
  g_assert_cmpint (row, >=, 0);
  click_row (overview, (guint) row);
  g_assert_cmpint (ws_gauges_view_get_launch (overview), ==, 1);
  g_assert_cmpint (ws_gauges_view_get_launch (panel), ==, 1);
  g_assert_true (g_str_has_prefix (
    ws_gauges_page_get_details_text (page),
    "stream_copy(const float4 *, float4 *, int)\nMemory: L2 75.83% ≥ 60% of peak, "
    "the busiest unit (DRAM 75.02%); busiest on the other side: Instruction "
    "issue 2.85%\nSpeed of light: Memory-dominated"));

  gtk_widget_destroy (window);
}

static void
test_sort_combo (void)
{
  g_autoptr (WsNcuResults) ncu = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");
  g_autoptr (WsRun) run = ws_run_new_from_ncu (ncu);
  WsGaugesPage *page;
  GtkWidget *window = show_page (run, &page);
  WsGaugesView *overview = ws_gauges_page_get_overview (page);
  GtkWidget *combo = NULL;
  GList *children = NULL;

  /* The toolbar's combo, found as a user would: the only one on the page. */
  children = gtk_container_get_children (GTK_CONTAINER (page));
  for (GList *l = children; l != NULL; l = l->next)
    {
      GtkWidget *stack_child = gtk_stack_get_child_by_name (GTK_STACK (l->data), "gauges");
      GList *rows = gtk_container_get_children (GTK_CONTAINER (stack_child));
      GList *tools = gtk_container_get_children (GTK_CONTAINER (rows->data));

      for (GList *t = tools; t != NULL; t = t->next)
        if (GTK_IS_COMBO_BOX (t->data))
          combo = t->data;
      g_list_free (tools);
      g_list_free (rows);
    }
  g_list_free (children);
  g_assert_nonnull (combo);

  gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), "tensor");
  ws_test_gui_flush ();
  g_assert_cmpint (ws_gauges_view_get_sort (overview), ==, WS_GAUGE_TENSOR);
  /* Tensor pipe: "95.913926" (13) leads. */
  g_assert_cmpuint (ws_gauges_overview_launch (ws_gauges_view_get_overview (overview), 0), ==, 13);
  gtk_widget_destroy (window);
}

/* ncu results of another program on an nsys run: all fourteen rows stay,
 * and the page lists them as not matched. */
static void
test_unmatched_listed (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2025.3_h100_probe.sqlite");
  g_autoptr (WsNcuResults) ncu = ws_test_load_ncu ("h100_train_bf16_sections_raw.csv");
  WsGaugesPage *page;
  GtkWidget *window;
  const char *text;

  ws_ncu_match_attach (run, ncu);
  window = show_page (run, &page);
  g_assert_cmpuint (ws_gauges_view_get_n_rows (ws_gauges_page_get_overview (page)), ==, 14);
  text = ws_gauges_page_get_unmatched_text (page);
  g_assert_true (
    g_str_has_prefix (text, "14 profiled launches match no kernel of the nsys run:\n0  "));
  g_assert_nonnull (strstr (text, "\n1  nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"));
  g_assert_nonnull (strstr (ws_gauges_page_get_details_text (page),
                            "Matches no kernel of the nsys run (no nsys kernel has this name)"));
  gtk_widget_destroy (window);
}

static void
test_matched_to_nsys (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2025.3_h100_probe.sqlite");
  g_autoptr (WsNcuResults) ncu = ws_test_load_ncu ("h100_probe_full_raw.csv");
  WsGaugesPage *page;
  GtkWidget *window;

  ws_ncu_match_attach (run, ncu);
  window = show_page (run, &page);
  ws_gauges_view_select_launch (ws_gauges_page_get_overview (page), 0);
  ws_test_gui_flush ();
  g_assert_nonnull (strstr (ws_gauges_page_get_details_text (page),
                            "nsys kernel: fma_heavy(float *, int, int) (by the same name)"));
  g_assert_cmpstr (ws_gauges_page_get_unmatched_text (page), ==, "");
  gtk_widget_destroy (window);
}

/* The window's Gauges page, for an nsys export without ncu results, says
 * how to get them. */
static void
test_window_empty_state (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));
  const char *paths[] = { path, NULL };
  GtkWidget *page;

  ws_window_load (window, paths);
  ws_test_gui_wait_for_load (window);
  page = ws_window_get_view (window, "gauges");
  g_assert_true (WS_IS_GAUGES_PAGE (page));
  g_assert_true (ws_gauges_page_is_empty (WS_GAUGES_PAGE (page)));
  g_assert_cmpuint (ws_gauges_view_get_n_rows (ws_gauges_page_get_overview (WS_GAUGES_PAGE (page))),
                    ==, 0);
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* The window opens an export with its ncu CSV: the kernel bars take the
 * verdict colours, and a kernel's details show the gauges of its longest
 * profiled launch.  strided_read's longest is launch 2 (409.152 us), L2
 * "92.775735", DRAM "83.222345" in the CSV; tiny(float *) was not profiled. */
static void
test_window_kernels_verdicts (void)
{
  g_autofree char *nsys = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *ncu = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));
  const char *paths[] = { nsys, ncu, NULL };
  WsKernelsPage *page;
  WsBarsView *bars;
  const WsBarsModel *model;
  int strided = -1, tiny = -1;

  ws_window_load (window, paths);
  ws_test_gui_wait_for_load (window);
  page = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
  bars = ws_kernels_page_get_bars_view (page);
  model = ws_bars_view_get_model (bars);
  g_assert_true (model->has_verdicts);
  for (guint i = 0; i < model->bars->len; i++)
    {
      const WsBar *bar = ws_bars_model_get (model, i);

      if (g_str_has_prefix (bar->name, "strided_read"))
        strided = (int) i;
      if (g_str_has_prefix (bar->name, "tiny"))
        tiny = (int) i;
    }
  g_assert_cmpint (strided, >=, 0);
  g_assert_cmpint (tiny, >=, 0);
  g_assert_cmpint (ws_bars_model_get (model, (guint) strided)->verdict, ==, WS_VERDICT_MEMORY);
  g_assert_cmpint (ws_bars_model_get (model, (guint) tiny)->verdict, ==, WS_VERDICT_NONE);

  ws_bars_view_select (bars, strided);
  ws_test_gui_flush ();
  {
    g_autofree char *details = ws_kernels_page_get_details_text (page);

    g_assert_nonnull (strstr (details, "Memory: L2 92.78% ≥ 60% of peak, the busiest unit"));
  }
  ws_bars_view_select (bars, tiny);
  ws_test_gui_flush ();
  {
    g_autofree char *details = ws_kernels_page_get_details_text (page);

    g_assert_nonnull (strstr (details, "Nsight Compute did not profile this kernel"));
  }
  gtk_widget_destroy (GTK_WIDGET (window));
}

static gboolean
why_ready (gpointer page)
{
  const WsWhy *why = ws_gauges_page_get_why (page);

  return why != NULL && why->launch == 3 &&
         ws_why_view_get_roofline (ws_gauges_page_get_why_view (page, WS_WHY_CHART_ROOFLINE_RUN)) !=
           NULL;
}

/* The longest launch (barrier_heavy, 561 µs) selected: its why is worked
 * out on a worker and every tab shows it: the verdict (L1/shared memory
 * 89.91%, shared-memory wavefronts 88.12%), the same in the details'
 * headline and bottom line, then each chart drawn in the window. */
static void
test_why_tabs (void)
{
  g_autoptr (WsNcuResults) ncu = ws_test_load_ncu ("h100_probe_full_raw.csv");
  g_autoptr (WsRun) run = ws_run_new_from_ncu (ncu);
  WsGaugesPage *page;
  GtkWidget *window = show_page (run, &page);
  GtkStack *stack = ws_gauges_page_get_why_stack (page);
  static const char *const tabs[] = { "why",    "stalls",       "roofline",
                                      "memory", "roofline-all", "gauges" };

  ws_test_gui_iterate_until (why_ready, page);
  g_assert_cmpstr (ws_ncu_results_launch (ncu, 3)->kernel, ==, "barrier_heavy(float *, int)");
  g_assert_nonnull (
    strstr (ws_gauges_page_get_why_text (page), "Memory-bound: L1/shared memory 89.91%"));
  g_assert_null (strstr (ws_gauges_page_get_why_text (page), "Workflow's verdict"));
  g_assert_true (g_str_has_prefix (ws_gauges_page_get_details_text (page),
                                   "barrier_heavy(float *, int)\nMemory: L1/shared memory 89.91%"));
  g_assert_nonnull (strstr (ws_gauges_page_get_details_text (page),
                            "Bottleneck: Memory-bound: L1/shared memory 89.91% (see Why)"));
  g_assert_true (ws_why_view_get_why (ws_gauges_page_get_why_view (page, WS_WHY_CHART_STALLS)) ==
                 ws_gauges_page_get_why (page));
  /* One point per kernel: fma_heavy, stream_copy, strided_read, barrier_heavy. */
  g_assert_cmpuint (
    ws_why_view_get_roofline (ws_gauges_page_get_why_view (page, WS_WHY_CHART_ROOFLINE_RUN))
      ->points->len,
    ==, 4);
  for (gsize i = 0; i < G_N_ELEMENTS (tabs); i++)
    {
      gtk_stack_set_visible_child_name (stack, tabs[i]);
      ws_test_gui_assert_drawing (window, tabs[i]);
    }
  gtk_widget_destroy (window);
}

/* nvprof `--metrics all` of darknet19 on a V100, opened as a file: the
 * window shows the Gauges page, one row per kernel (16 `Kernel:` lines),
 * the selected kernel's SM gauge from sm_efficiency and its DRAM gauge
 * saying it is a 0–10 level, and the window draws.  With no durations the
 * rows are sorted by SM: first the kernel whose sm_efficiency Avg is the
 * file's highest (volta_sgemm_128x32_nn, 84.16%, by awk over the file). */
static void
test_window_nvprof_metrics (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = ws_test_unxz ("nvprof/v100_darknet19_metrics.txt.xz", dir);
  const char *paths[] = { path, NULL };
  WsWindow *window;
  GtkWidget *page;
  WsGaugesView *panel;
  g_autoptr (WsRun) run = NULL;
  const WsNcuResults *ncu;
  int launch;
  g_autofree char *sm = NULL, *dram = NULL;

  /* Opened as the desktop opens a file. */
  window = ws_test_gui_wait_for_load (ws_test_gui_open (paths));
  g_assert_cmpstr (ws_window_get_page (window), ==, "gauges");
  page = ws_window_get_view (window, "gauges");
  g_assert_false (ws_gauges_page_is_empty (WS_GAUGES_PAGE (page)));
  g_assert_cmpuint (ws_gauges_view_get_n_rows (ws_gauges_page_get_overview (WS_GAUGES_PAGE (page))),
                    ==, 16);
  panel = ws_gauges_page_get_panel (WS_GAUGES_PAGE (page));
  launch = ws_gauges_view_get_launch (panel);
  g_assert_cmpint (launch, >=, 0);
  /* The same file loaded again, as the window's loader did: the same launches. */
  run = ws_test_load_paths (paths);
  ncu = run->ncu;
  g_assert_nonnull (ncu);
  {
    WsGaugesView *overview = ws_gauges_page_get_overview (WS_GAUGES_PAGE (page));
    guint first = ws_gauges_overview_launch (ws_gauges_view_get_overview (overview), 0);

    g_assert_cmpint (ws_gauges_view_get_sort (overview), ==, WS_GAUGE_SM);
    g_assert_true (
      g_str_has_prefix (ws_ncu_results_launch (ncu, first)->kernel, "volta_sgemm_128x32_nn"));
  }
  sm = ws_gauges_panel_tooltip (ncu, (guint) launch, WS_GAUGE_SM);
  dram = ws_gauges_panel_tooltip (ncu, (guint) launch, WS_GAUGE_DRAM);
  g_test_message ("%s / %s", sm, dram);
  g_assert_nonnull (strstr (sm, "from sm_efficiency"));
  g_assert_nonnull (strstr (dram, "from dram_utilization"));
  g_assert_nonnull (strstr (dram, "0–10"));
  g_assert_nonnull (strstr (ws_gauges_page_get_details_text (WS_GAUGES_PAGE (page)),
                            ws_ncu_results_launch (ncu, (guint) launch)->kernel));
  ws_test_gui_assert_drawing (GTK_WIDGET (window), "nvprof metrics, gauges page");
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);

  g_test_add_func ("/gauges-page/ncu-only/rows-and-selected-verdict", test_ncu_only);
  g_test_add_func ("/gauges-page/sort-combo", test_sort_combo);
  g_test_add_func ("/gauges-page/why-tabs", test_why_tabs);
  g_test_add_func ("/gauges-page/nsys/unmatched-listed", test_unmatched_listed);
  g_test_add_func ("/gauges-page/nsys/matched-name-shown", test_matched_to_nsys);
  g_test_add_func ("/gauges-page/window/empty-state", test_window_empty_state);
  g_test_add_func ("/gauges-page/window/kernel-verdicts-and-details", test_window_kernels_verdicts);
  g_test_add_func ("/gauges-page/window/nvprof-metrics", test_window_nvprof_metrics);

  return ws_test_gui_run ();
}
