/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPT-2 capture (about 16,000 NVTX ranges under 1,650 names, on two
 * threads) through every page and tab of the window and of a comparison.
 * X11 cannot make a window or pixmap taller or wider than 32,767 px: a
 * list that is not virtualised or capped grows past it and the X server
 * answers BadAlloc, which ends the process.  So the walk runs in a child
 * process, checks after each step that no GdkWindow is beyond the limit,
 * makes a round trip to the server (where the error would arrive) and
 * waits for a new frame; the parent checks that the child lived. */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "ws-application.h"
#include "ws-bars-view.h"
#include "ws-compare-window.h"
#include "ws-findings-page.h"
#include "ws-flame-page.h"
#include "ws-gauges-page.h"
#include "ws-gauges-view.h"
#include "ws-kernels-page.h"
#include "ws-nvtx-kernels.h"
#include "ws-summaries-page.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

static WsApplication *app;
static char *unpacked;

/* Unpacks the capture (xz) into a temporary folder: the target's folder. */
static char *
unpack_capture (void)
{
  g_autofree char *archive = ws_test_data ("captures", "h100_gpt2_capture.tar.xz", NULL);
  g_autofree char *tar = g_find_program_in_path ("tar");
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { tar, "-xJf", archive, "-C", NULL, NULL };

  g_assert_nonnull (tar);
  unpacked = ws_test_tmpdir ();
  argv[4] = unpacked;
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  return g_build_filename (unpacked, "out", "targets-20261125-023446", "GPT2__", NULL);
}

static gboolean
timeline_ready (gpointer page)
{
  return ws_timeline_page_is_ready (page) && ws_timeline_page_has_projection (page) &&
         gtk_widget_get_mapped (GTK_WIDGET (ws_timeline_page_get_view (page)));
}

static gboolean
grouped (gpointer page)
{
  return !ws_kernels_page_is_grouping (page);
}

static gboolean
why_ready (gpointer page)
{
  return ws_gauges_page_get_why (page) != NULL;
}

static gboolean
findings_ready (gpointer page)
{
  return !ws_findings_page_is_busy (page);
}

/* The NVTX range with the most GPU time launched inside it. */
static gsize
heaviest_range (const WsRun *run, WsNvtxKernels *nvtx_kernels)
{
  gsize best = 0;

  for (gsize r = 1; r < run->nvtx.n; r++)
    if (ws_nvtx_kernels_gpu_time (nvtx_kernels, r) > ws_nvtx_kernels_gpu_time (nvtx_kernels, best))
      best = r;
  return best;
}

static void
show_page (WsWindow *window, const char *page)
{
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string (page));
  g_assert_cmpstr (ws_window_get_page (window), ==, page);
}

static void
walk_window (const char *folder)
{
  WsWindow *window = ws_test_gui_open_and_load (folder);
  GtkWidget *top = GTK_WIDGET (window);
  WsKernelsPage *kernels = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
  WsTimelinePage *timeline = WS_TIMELINE_PAGE (ws_window_get_view (window, "timeline"));
  WsSummariesPage *summaries = WS_SUMMARIES_PAGE (ws_window_get_view (window, "summaries"));
  WsGaugesPage *gauges = WS_GAUGES_PAGE (ws_window_get_view (window, "gauges"));
  WsFindingsPage *findings = WS_FINDINGS_PAGE (ws_window_get_view (window, "findings"));
  const WsRun *run = ws_window_get_run (window);
  g_autofree char *sqlite = g_build_filename (folder, "nsys", "GPT2__.sqlite", NULL);
  /* NVTX ranges: push/pop and start/end, of NVTX and NVTXT (nsys's event
   * types 59, 60, 70, 71), 16,164 here, all push/pop. */
  g_autofree char *nvtx_ranges = ws_test_sqlite_text (
    sqlite, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71)");

  g_assert_null (ws_window_get_error (window));
  g_assert_nonnull (nvtx_ranges);
  g_assert_cmpint ((gint64) run->nvtx.n, ==, g_ascii_strtoll (nvtx_ranges, NULL, 10));
  gtk_window_resize (GTK_WINDOW (window), 1600, 1000);
  ws_test_gui_assert_drawing (top, "kernels");

  ws_bars_view_select (ws_kernels_page_get_bars_view (kernels), 0);
  gtk_spin_button_set_value (ws_kernels_page_get_top_n_spin (kernels), G_MAXINT);
  ws_test_gui_assert_drawing (top, "kernels, the most bars, the first selected");
  for (WsNameForm form = WS_NAME_MANGLED + 1; form-- > 0;)
    {
      g_autofree char *step = g_strdup_printf ("kernels, name form %d", form);

      ws_kernels_page_set_name_form (kernels, form);
      ws_test_gui_iterate_until (grouped, kernels);
      ws_test_gui_assert_drawing (top, step);
    }

  show_page (window, "timeline");
  ws_test_gui_iterate_until (timeline_ready, timeline);
  g_assert_cmpint (
    gtk_tree_model_iter_n_children (ws_timeline_page_get_side_model (timeline), NULL), >, 1000);
  ws_test_gui_assert_drawing (top, "timeline, GPU time by NVTX range");
  {
    WsTimelineView *view = ws_timeline_page_get_view (timeline);
    WsNvtxKernels *nvtx_kernels = ws_timeline_view_get_nvtx_kernels (view);
    WsEventRef event;

    g_assert_nonnull (nvtx_kernels);
    event = ws_event_ref (WS_EVENT_NVTX, heaviest_range (run, nvtx_kernels));
    ws_timeline_view_select (view, event);
    ws_timeline_view_reveal (view, event);
    g_assert_cmpuint (ws_timeline_view_get_selected (view), ==, event);
    g_assert_cmpstr (ws_timeline_page_get_side_title (timeline), ==, "Selected");
  }
  ws_test_gui_assert_drawing (top, "timeline, the heaviest range selected");
  g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  ws_test_gui_assert_drawing (top, "timeline, search");

  show_page (window, "summaries");
  for (WsSummaryKind kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
    {
      g_autofree char *step = g_strdup_printf ("summaries, report %d", kind);

      ws_summaries_page_show (summaries, kind);
      ws_test_gui_assert_drawing (top, step);
    }
  {
    GtkTreeModel *nvtx =
      gtk_tree_view_get_model (ws_summaries_page_get_view (summaries, WS_SUMMARY_NVTX_SUM));
    int ranges = gtk_tree_model_iter_n_children (nvtx, NULL);

    /* emit_nvtx() named the ranges after ops: one row per operator. */
    g_assert_true (ws_summaries_page_can_group_ops (summaries));
    ws_summaries_page_show (summaries, WS_SUMMARY_NVTX_SUM);
    ws_summaries_page_set_group_ops (summaries, TRUE);
    g_assert_cmpint (gtk_tree_model_iter_n_children (nvtx, NULL), >, 1);
    g_assert_cmpint (gtk_tree_model_iter_n_children (nvtx, NULL), <, ranges);
    ws_test_gui_assert_drawing (top, "summaries, ops grouped by operator");
    ws_summaries_page_set_group_ops (summaries, FALSE);
    g_assert_cmpint (gtk_tree_model_iter_n_children (nvtx, NULL), ==, ranges);
  }

  show_page (window, "gauges");
  g_assert_false (ws_gauges_page_is_empty (gauges));
  ws_test_gui_assert_drawing (top, "gauges");
  {
    static const char *const tabs[] = { "why",    "stalls",       "roofline",
                                        "memory", "roofline-all", "gauges" };

    ws_gauges_view_select_launch (ws_gauges_page_get_overview (gauges), 0);
    ws_test_gui_iterate_until (why_ready, gauges);
    for (guint i = 0; i < G_N_ELEMENTS (tabs); i++)
      {
        g_autofree char *step = g_strdup_printf ("gauges, the first launch, %s", tabs[i]);

        gtk_stack_set_visible_child_name (ws_gauges_page_get_why_stack (gauges), tabs[i]);
        ws_test_gui_assert_drawing (top, step);
      }
  }

  show_page (window, "findings");
  ws_test_gui_iterate_until (findings_ready, findings);
  for (guint i = 0; i < ws_findings_page_get_findings (findings)->len; i++)
    {
      g_autofree char *step = g_strdup_printf ("findings, finding %u", i);

      ws_findings_page_select (findings, i);
      ws_test_gui_assert_drawing (top, step);
    }

  show_page (window, "flame");
  ws_test_gui_assert_drawing (top, "flame");

  show_page (window, "capture");
  ws_test_gui_assert_drawing (top, "capture");
  gtk_widget_destroy (top);
  ws_test_gui_flush ();
}

static gboolean
compared (gpointer window)
{
  return !ws_compare_window_is_loading (window) &&
         !ws_compare_findings_page_is_busy (ws_compare_window_get_findings_page (window));
}

static void
walk_comparison (const char *folder)
{
  WsCompareWindow *window = ws_application_compare (app, folder, folder);
  GtkWidget *top = GTK_WIDGET (window);
  const char *views[] = { "kernels", "table", "nvtx", "gauges", "findings", "timelines" };

  ws_test_gui_iterate_until (compared, window);
  g_assert_nonnull (ws_compare_window_get_comparison (window));
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autofree char *step = g_strdup_printf ("comparison, %s", views[i]);

      ws_compare_window_show_view (window, views[i]);
      ws_test_gui_assert_drawing (top, step);
    }
  for (WsMatchBy by = WS_MATCH_DEMANGLED; by <= WS_MATCH_NORMALIZED; by++)
    {
      g_autofree char *step = g_strdup_printf ("comparison, match by %d", by);

      ws_compare_window_set_match (window, by);
      ws_test_gui_iterate_until (compared, window);
      ws_test_gui_assert_drawing (top, step);
    }
  gtk_widget_destroy (top);
  ws_test_gui_flush ();
}

static void
walk (void)
{
  g_autofree char *folder = unpack_capture ();

  walk_window (folder);
  walk_comparison (folder);
  ws_test_rmtree (unpacked);
  g_clear_pointer (&unpacked, g_free);
}

/* The walk runs in a child: an X error ends the process that made it. */
static void
test_every_page_alive (void)
{
  if (g_test_subprocess ())
    {
      walk ();
      return;
    }
  ws_test_trap_child (300);
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);
  g_test_add_func ("/gpt2-window/every-page/alive-and-drawing", test_every_page_alive);
  return ws_test_gui_run ();
}
