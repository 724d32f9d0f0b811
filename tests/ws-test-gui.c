/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the GUI tests share: the application they run in, and the main
 * loop run until what they wait for has happened. */
#include "config.h"

#include "ws-test-gui.h"
#include "ws-test-util.h"

static WsApplication *app;

/**
 * ws_test_gui_init:
 *
 * Initialises GTK for a test and makes the application its windows belong
 * to: registered, as its own instance, and held so that it outlives them.
 *
 * Returns: (transfer none): the application
 */
WsApplication *
ws_test_gui_init (int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;

  gtk_test_init (argc, argv, NULL);
  app = ws_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_application_hold (G_APPLICATION (app));
  return app;
}

/* Runs the tests, then lets the application go. */
int
ws_test_gui_run (void)
{
  int status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}

/* Dispatches what is pending: events, idle callbacks, redraws. */
void
ws_test_gui_flush (void)
{
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

/* Runs the main loop until @done says so: it sleeps until an event comes
 * (ws_test_wait_until()), not on a clock.  The bound is no race: it only
 * names the wait in the failure, before meson's 120 s end the program
 * without a word, where a load takes a few seconds even under valgrind. */
void
ws_test_gui_iterate_until (gboolean (*done) (gpointer), gpointer data)
{
  ws_test_wait_until (done, data, 100, "the window");
  ws_test_gui_flush ();
}

/**
 * ws_test_gui_open:
 * @paths: (array zero-terminated=1): the files
 *
 * Opens @paths through the application, as a double-click does.
 *
 * Returns: (transfer none): the window that opened them, still loading
 */
WsWindow *
ws_test_gui_open (const char *const *paths)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  WsWindow *opened = NULL;

  for (guint i = 0; paths[i] != NULL; i++)
    g_ptr_array_add (files, g_file_new_for_path (paths[i]));
  g_application_open (G_APPLICATION (app), (GFile **) files->pdata, (int) files->len, "");
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (WS_IS_WINDOW (l->data) && ws_window_is_loading (l->data))
      opened = l->data;
  g_assert_nonnull (opened);
  return opened;
}

static gboolean
loaded (gpointer window)
{
  return !ws_window_is_loading (window);
}

/**
 * ws_test_gui_wait_for_load:
 *
 * Runs the main loop until @window has finished loading
 * (ws_test_gui_iterate_until()).
 *
 * Returns: (transfer none): @window
 */
WsWindow *
ws_test_gui_wait_for_load (WsWindow *window)
{
  ws_test_gui_iterate_until (loaded, window);
  return window;
}

/**
 * ws_test_gui_open_and_load:
 *
 * Returns: (transfer none): the window that opened @path through the
 * application, once it has loaded it
 */
WsWindow *
ws_test_gui_open_and_load (const char *path)
{
  const char *paths[] = { path, NULL };

  return ws_test_gui_wait_for_load (ws_test_gui_open (paths));
}

static void
largest_window (GdkWindow *window, int *width, int *height)
{
  g_autoptr (GList) children = gdk_window_get_children (window);
  int scale = gdk_window_get_scale_factor (window);

  *width = MAX (*width, gdk_window_get_width (window) * scale);
  *height = MAX (*height, gdk_window_get_height (window) * scale);
  for (GList *l = children; l != NULL; l = l->next)
    largest_window (l->data, width, height);
}

static gboolean
count_frame (GtkWidget *widget, cairo_t *cr, gpointer frames)
{
  (*(guint *) frames)++;
  return GDK_EVENT_PROPAGATE;
}

static gboolean
drew (gpointer data)
{
  guint *frames = data;

  return frames[0] > frames[1];
}

/**
 * ws_test_gui_assert_drawing:
 * @step: what was done, for the log
 *
 * After a step of a test: no window of @toplevel (or of a popover or
 * menu of it, which are toplevels too) beyond X11's 32,767 px, the
 * server's answer to everything sent so far (an X error, BadAlloc for a
 * pixmap too large, ends the process here) and a new frame drawn.  Prints
 * the step and the largest window on standard error.
 */
void
ws_test_gui_assert_drawing (GtkWidget *toplevel, const char *step)
{
  g_autoptr (GList) toplevels = NULL;
  GdkDisplay *display = gtk_widget_get_display (toplevel);
  guint frames[2] = { 0, 0 };
  int width = 0, height = 0;
  gulong handler;

  ws_test_gui_flush ();
  /* Listed after the flush: a tooltip window it destroyed is gone. */
  toplevels = gtk_window_list_toplevels ();
  g_assert_true (gtk_widget_get_realized (toplevel));
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (gtk_widget_get_realized (l->data))
      largest_window (gtk_widget_get_window (l->data), &width, &height);
  g_printerr ("# %s: largest window %d×%d px\n", step, width, height);
  g_assert_cmpint (width, <=, WS_TEST_X11_MAX_EXTENT);
  g_assert_cmpint (height, <=, WS_TEST_X11_MAX_EXTENT);
  gdk_display_sync (display);
  handler = g_signal_connect (toplevel, "draw", G_CALLBACK (count_frame), frames);
  frames[1] = frames[0];
  gtk_widget_queue_draw (toplevel);
  ws_test_gui_iterate_until (drew, frames);
  g_signal_handler_disconnect (toplevel, handler);
  gdk_display_sync (display);
}
