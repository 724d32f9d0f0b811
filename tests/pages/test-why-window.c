/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "ws-application.h"
#include "ws-range-bottleneck.h"
#include "ws-test-gui.h"
#include "ws-test-load.h"
#include "ws-test-util.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

/* The Timeline page's NVTX range table with ncu data: its Bottleneck
 * column, worked out on a worker once the NVTX projection is ready. */

static WsApplication *app;

static gboolean
rollup_shown (gpointer page)
{
  return ws_timeline_page_get_rollup (page) != NULL;
}

/* The probe with its ncu CSV: "compute" launches fma_heavy (924,306 ns,
 * compute-bound), barrier_heavy, stream_copy and strided_read
 * (2,754,261 ns, memory-bound), 3,678,567 ns in all (SQL in
 * test-why-render.c); its row carries that split, as text and shares. */
static void
test_range_table_bottleneck (void)
{
  g_autofree char *nsys = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *ncu = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  const char *paths[] = { nsys, ncu, NULL };
  WsWindow *window = ws_test_gui_wait_for_load (ws_test_gui_open (paths));
  WsTimelinePage *page;
  GtkTreeModel *model;
  GtkTreeIter iter;
  gboolean found = FALSE;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string ("timeline"));
  page = WS_TIMELINE_PAGE (ws_window_get_view (window, "timeline"));
  ws_test_gui_iterate_until (rollup_shown, page);
  ws_test_gui_flush ();
  model = ws_timeline_page_get_side_model (page);
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok;
       ok = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *name = NULL, *text = NULL;
      double compute, memory, unprofiled;

      gtk_tree_model_get (model, &iter, 0, &name, 6, &text, 7, &compute, 8, &memory, 11,
                          &unprofiled, -1);
      if (g_strcmp0 (name, "compute") != 0)
        continue;
      found = TRUE;
      g_assert_cmpstr (text, ==, "75% memory-bound, 25% compute-bound");
      g_assert_cmpfloat_with_epsilon (compute, 924306.0 / 3678567, 1e-9);
      g_assert_cmpfloat_with_epsilon (memory, 2754261.0 / 3678567, 1e-9);
      g_assert_cmpfloat (unprofiled, ==, 0);
    }
  g_assert_true (found);
  ws_test_gui_assert_drawing (GTK_WIDGET (window), "range table with its bottleneck column");
  gtk_widget_destroy (GTK_WIDGET (window));
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);
  g_test_add_func ("/why-window/timeline/range-table-bottleneck", test_range_table_bottleneck);
  return ws_test_gui_run ();
}
