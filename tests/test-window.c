/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "ws-application.h"
#include "ws-bars-view.h"
#include "ws-kernels-page.h"
#include "ws-test-util.h"
#include "ws-window.h"

static WsApplication *app;

/* Runs the main loop until @window has finished loading, or fails after 30 s. */
static void
wait_for_load (WsWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (ws_window_is_loading (window))
    {
      g_main_context_iteration (NULL, FALSE);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

static WsWindow *
open_through_application (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GList *before = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));
  WsWindow *opened = NULL;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (WS_IS_WINDOW (l->data) && ws_window_is_loading (l->data))
      opened = l->data;
  g_list_free (before);
  g_assert_nonnull (opened);
  wait_for_load (opened);
  return opened;
}

static void
test_opens_export (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  WsWindow *window = open_through_application (path);
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

  /* Selecting a kernel shows its details. */
  ws_bars_view_select (bars, 3);
  g_assert_nonnull (strstr (ws_kernels_page_get_details_text (page), "tiny(float *)"));
  g_assert_nonnull (strstr (ws_kernels_page_get_details_text (page), "320"));

  gtk_widget_destroy (GTK_WIDGET (window));
}

static void
test_broken_file_shows_info_bar (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "broken.sqlite", NULL);
  WsWindow *window;

  g_assert_true (g_file_set_contents (path, "not a database\n", -1, NULL));
  window = open_through_application (path);
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
  g_autoptr (GFile) file = g_file_new_for_path (path);
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  WsWindow *window = NULL;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (WS_IS_WINDOW (l->data) && ws_window_is_loading (l->data))
      window = l->data;
  g_assert_nonnull (window);
  gtk_widget_destroy (GTK_WIDGET (window));
  /* Let the worker finish and its callback run against the closed window. */
  while (g_get_monotonic_time () < deadline && g_main_context_iteration (NULL, FALSE))
    ;
  g_usleep (G_USEC_PER_SEC / 2);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  int status;

  gtk_test_init (&argc, &argv, NULL);
  app = ws_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_application_hold (G_APPLICATION (app));

  g_test_add_func ("/window/open/nsys-export-shows-bars", test_opens_export);
  g_test_add_func ("/window/open/broken-file-shows-info-bar", test_broken_file_shows_info_bar);
  g_test_add_func ("/window/close-while-loading", test_close_while_loading);

  status = g_test_run ();
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  return status;
}
