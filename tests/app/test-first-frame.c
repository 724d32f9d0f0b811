/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "ws-application.h"
#include "ws-bars-view.h"
#include "ws-kernels-page.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-window.h"

/* A big export's first frame (docs/first-frame.md): drawn on the loading
 * page before the whole load, then replaced by the run, and saying what
 * the run's own pages say about the same kernels. */

static WsApplication *app;

typedef struct
{
  guint frames;
  gboolean loaded;
  WsOverview *overview; /* as the first frame showed it */
  char *page;           /* the main stack's page while it showed */
} Seen;

static void
first_frame_cb (WsWindow *window, Seen *seen)
{
  seen->frames++;
  g_assert_false (seen->loaded);
  g_assert_true (ws_window_is_loading (window));
  seen->overview = ws_overview_ref ((WsOverview *) ws_window_get_overview (window));
  seen->page = g_strdup (ws_window_get_page (window));
  ws_test_gui_assert_drawing (GTK_WIDGET (window), "first frame");
}

static void
load_finished_cb (WsWindow *window, gboolean success, Seen *seen)
{
  seen->loaded = success;
}

static WsWindow *
open_watched (const char *path, guint64 min_size, Seen *seen)
{
  const char *paths[] = { path, NULL };
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));

  ws_window_set_overview_min_size (window, min_size);
  g_signal_connect (window, "first-frame", G_CALLBACK (first_frame_cb), seen);
  g_signal_connect (window, "load-finished", G_CALLBACK (load_finished_cb), seen);
  gtk_widget_show (GTK_WIDGET (window));
  ws_window_load (window, paths);
  return ws_test_gui_wait_for_load (window);
}

/* The first frame comes before the load ends, on the loading page; the
 * run then replaces it, and its kernel summary and the Kernels page's
 * bars give the same launches and totals, kernel by kernel, as the first
 * frame (read whole here, so exact). */
static void
test_before_the_load (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2022.4_rodinia_gaussian.sqlite", NULL);
  Seen seen = { 0 };
  WsWindow *window = open_watched (path, 0, &seen);
  const WsSummary *summary = ws_run_get_summary (ws_window_get_run (window), WS_SUMMARY_KERN_SUM);
  WsKernelsPage *page = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
  const WsBarsModel *bars = ws_bars_view_get_model (ws_kernels_page_get_bars_view (page));

  g_assert_cmpuint (seen.frames, ==, 1);
  g_assert_true (seen.loaded);
  g_assert_cmpstr (seen.page, ==, "loading");
  g_assert_null (ws_window_get_overview (window));
  g_assert_cmpint (seen.overview->rows, ==, (gint64) ws_window_get_run (window)->kernels.n);
  g_assert_cmpuint (seen.overview->kernels->len, ==, summary->rows->len);
  for (guint i = 0; i < seen.overview->kernels->len; i++)
    {
      const WsOverviewKernel *kernel = &g_array_index (seen.overview->kernels, WsOverviewKernel, i);
      const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);

      g_assert_cmpfloat (kernel->launches, ==, (double) row->count);
      g_assert_cmpfloat (kernel->total_ns, ==, (double) row->total);
      g_assert_cmpfloat (kernel->total_ns, ==, (double) ws_bars_model_get (bars, i)->total);
    }
  ws_overview_unref (seen.overview);
  g_free (seen.page);
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* An export under the size that needs one opens without a first frame. */
static void
test_small_exports_open_at_once (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  Seen seen = { 0 };
  WsWindow *window = open_watched (path, WS_WINDOW_OVERVIEW_MIN_SIZE, &seen);

  g_assert_cmpuint (seen.frames, ==, 0);
  g_assert_true (seen.loaded);
  g_assert_cmpuint (ws_window_get_run (window)->kernels.n, ==, 336);
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* A file that is not an export: no first frame, and the load's one line. */
static void
test_not_an_export (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "broken.sqlite", NULL);
  Seen seen = { 0 };
  WsWindow *window;

  g_assert_true (g_file_set_contents (path, "not a database\n", -1, NULL));
  window = open_watched (path, 0, &seen);
  g_assert_cmpuint (seen.frames, ==, 0);
  g_assert_false (seen.loaded);
  g_assert_nonnull (strstr (ws_window_get_error (window), path));
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

/* Cancel while the first frame is read: the load that follows stops at
 * once, the window goes back to its welcome page, and no frame shows. */
static void
test_cancel_during_first_frame (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2022.4_rodinia_gaussian.sqlite", NULL);
  const char *paths[] = { path, NULL };
  Seen seen = { 0 };
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));

  ws_window_set_overview_min_size (window, 0);
  g_signal_connect (window, "first-frame", G_CALLBACK (first_frame_cb), &seen);
  g_signal_connect (window, "load-finished", G_CALLBACK (load_finished_cb), &seen);
  gtk_widget_show (GTK_WIDGET (window));
  ws_window_load (window, paths);
  g_action_group_activate_action (G_ACTION_GROUP (window), "cancel-load", NULL);
  ws_test_gui_wait_for_load (window);
  g_assert_false (seen.loaded);
  g_assert_cmpuint (seen.frames, ==, 0);
  g_assert_null (ws_window_get_run (window));
  g_assert_null (ws_window_get_error (window));
  g_assert_cmpstr (ws_window_get_page (window), ==, "welcome");
  g_assert_null (ws_window_get_overview (window));
  g_clear_pointer (&seen.overview, ws_overview_unref);
  g_free (seen.page);
  gtk_widget_destroy (GTK_WIDGET (window));
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);

  g_test_add_func ("/first-frame/before-the-load-and-the-same-kernels", test_before_the_load);
  g_test_add_func ("/first-frame/small-exports-open-at-once", test_small_exports_open_at_once);
  g_test_add_func ("/first-frame/not-an-export", test_not_an_export);
  g_test_add_func ("/first-frame/cancel-while-it-is-read", test_cancel_during_first_frame);
  return ws_test_gui_run ();
}
