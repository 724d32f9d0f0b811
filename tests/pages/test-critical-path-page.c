/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Path page (issue 43): the critical path of the steady steps and
 * what-if in the window, on the gloo job of tests/data/critical (two
 * ranks, rank 1 sleeping 8 ms more in `data`).  Every figure and sentence
 * is the library's, as `warpscope-cli critical-path` prints it; a row
 * opens the median step's path on the Timeline. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "ws-critical-path-page.h"
#include "ws-format.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-timeline-page.h"
#include "ws-timeline-view.h"
#include "ws-window.h"

static WsApplication *app;

static gboolean
path_known (gpointer page)
{
  return ws_critical_path_page_get_path (page) != NULL;
}

static char *
cell (GtkTreeModel *model, int row, int column)
{
  GtkTreeIter iter;
  char *text = NULL;

  g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, row));
  gtk_tree_model_get (model, &iter, column, &text, -1);
  return text;
}

static void
test_gloo_job (void)
{
  g_autofree char *tmp = ws_test_tmpdir ();
  g_autofree char *r0 = ws_test_unxz ("critical/gloo_slow_rank0.sqlite.xz", tmp);
  g_autofree char *r1 = ws_test_unxz ("critical/gloo_slow_rank1.sqlite.xz", tmp);
  const char *paths[] = { r0, r1, NULL };
  WsWindow *window = ws_test_gui_wait_for_load (ws_test_gui_open (paths));
  WsCriticalPathPage *page = WS_CRITICAL_PATH_PAGE (ws_window_get_view (window, "path"));
  const WsCriticalPath *cp;
  GtkTreeModel *model, *kinds;
  g_autoptr (WsWhatIf) change = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *median = NULL;
  g_autofree char *rank1 = NULL;
  g_autofree char *rank1_on = NULL;
  g_autofree char *first_kind = NULL;
  WsCpPrediction p;
  const WsCpItem *item;

  ws_test_gui_iterate_until (path_known, page);
  cp = ws_critical_path_page_get_path (page);
  g_assert_cmpuint (cp->graph->n_ranks, ==, 2);
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string ("path"));
  g_assert_cmpstr (ws_window_get_page (window), ==, "path");
  ws_test_gui_assert_drawing (GTK_WIDGET (window), "path page");

  /* The headline's median is the library's. */
  median = ws_format_duration (cp->median_time);
  g_assert_nonnull (strstr (ws_critical_path_page_get_headline (page), median));
  /* Five kinds; the ranks first in a job, rank 1 (the slowed one) holding
   * most of the path, as the library says. */
  kinds = ws_critical_path_page_get_kinds (page);
  g_assert_cmpint (gtk_tree_model_iter_n_children (kinds, NULL), ==, WS_CP_N_KINDS);
  first_kind = cell (kinds, 0, 0);
  g_assert_cmpstr (first_kind, ==, ws_cp_kind_label (WS_CP_COMPUTE));
  model = ws_critical_path_page_get_model (page);
  rank1 = cell (model, 1, 2);
  g_assert_cmpstr (rank1, ==, "1");
  item = g_ptr_array_index (cp->ranks, 1);
  g_assert_cmpfloat (item->on_path, >, ((WsCpItem *) g_ptr_array_index (cp->ranks, 0))->on_path);
  rank1_on = ws_format_duration (item->on_path);
  {
    g_autofree char *shown = cell (model, 1, 3);

    g_assert_cmpstr (shown, ==, rank1_on);
  }

  /* What-if: the page prints the library's prediction, word for word. */
  change = ws_what_if_parse ("nvtx:data@rank1=-8ms", NULL);
  ws_critical_path_predict (cp, &change, 1, &p);
  expected = ws_cp_prediction_text ("nvtx:data@rank1=-8ms", &p);
  ws_critical_path_page_predict (page, "nvtx:data@rank1=-8ms");
  g_assert_cmpstr (ws_critical_path_page_get_prediction (page), ==, expected);
  ws_critical_path_page_predict (page, "nvtx:data=0.5");
  g_assert_nonnull (strstr (ws_critical_path_page_get_prediction (page), "nvtx:data=0.5"));
  ws_critical_path_page_predict (page, "kernel:nosuch=0.5x");
  g_assert_nonnull (strstr (ws_critical_path_page_get_prediction (page), "matches nothing"));

  /* A row opens the Timeline with the median step's path drawn. */
  g_signal_emit_by_name (page, "show-item", WS_CP_ROW_RANK, "1");
  g_assert_cmpstr (ws_window_get_page (window), ==, "timeline");
  g_assert_nonnull (
    ws_timeline_view_get_path (ws_timeline_page_get_view (ws_window_get_timeline_page (window))));
  ws_test_gui_assert_drawing (GTK_WIDGET (window), "timeline with the path");

  /* A range's context menu on the Timeline: the Path page answers. */
  {
    g_autofree char *asked = ws_what_if_for_name ("nvtx", "data", 1, "0x");
    g_autoptr (WsWhatIf) none = ws_what_if_parse (asked, NULL);
    g_autofree char *line = NULL;

    g_assert_cmpstr (asked, ==, "nvtx:data@rank1=0x");
    ws_critical_path_predict (cp, &none, 1, &p);
    line = ws_cp_prediction_text (asked, &p);
    ws_timeline_view_ask_what_if (ws_timeline_page_get_view (ws_window_get_timeline_page (window)),
                                  asked);
    g_assert_cmpstr (ws_window_get_page (window), ==, "path");
    g_assert_cmpstr (ws_critical_path_page_get_prediction (page), ==, line);
  }
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_gui_flush ();
  g_remove (r0);
  g_remove (r1);
  ws_test_rmtree (tmp);
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);
  g_test_add_func ("/critical-path-page/gloo/rows-what-if-and-timeline", test_gloo_job);
  return ws_test_gui_run ();
}
