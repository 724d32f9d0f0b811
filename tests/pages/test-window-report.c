/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window opens Nsight reports as a double-click would (GApplication
 * open), with the nsys and ncu stand-ins, which replay what the real tools
 * did with the real reports of tests/data/capture-h200. */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "ws-application.h"
#include "ws-ncu-match.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-tool-find.h"
#include "ws-window.h"

static WsApplication *app;
static char *cache_home;
static char *converted_dir;
static char *stand_in_path; /* PATH with the stand-ins first */
static char *bare_path;     /* PATH as the tests got it */

typedef struct
{
  WsWindow *window;
  GPtrArray *texts; /* what the progress bar said, in order */
} Opened;

static void
progress_text_cb (GtkProgressBar *bar, GParamSpec *pspec, Opened *opened)
{
  const char *text = gtk_progress_bar_get_text (bar);

  if (text != NULL)
    g_ptr_array_add (opened->texts, g_strdup (text));
}

static void
find_progress_bar (GtkWidget *widget, gpointer data)
{
  GtkProgressBar **bar = data;

  if (GTK_IS_PROGRESS_BAR (widget) && *bar == NULL)
    *bar = GTK_PROGRESS_BAR (widget);
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_progress_bar, data);
}

/* Opens @path through the application and follows the new window's
 * progress bar until the load ends (ws_test_gui_wait_for_load()). */
static Opened
open_report (const char *path)
{
  const char *paths[] = { path, NULL };
  Opened opened = { ws_test_gui_open (paths), g_ptr_array_new_with_free_func (g_free) };
  GtkProgressBar *bar = NULL;

  find_progress_bar (GTK_WIDGET (opened.window), &bar);
  g_assert_nonnull (bar);
  g_signal_connect (bar, "notify::text", G_CALLBACK (progress_text_cb), &opened);
  ws_test_gui_wait_for_load (opened.window);
  g_signal_handlers_disconnect_by_data (bar, &opened);
  return opened;
}

static void
opened_clear (Opened *opened)
{
  gtk_widget_destroy (GTK_WIDGET (opened->window));
  g_ptr_array_unref (opened->texts);
}

static gboolean
said (const Opened *opened, const char *prefix)
{
  for (guint i = 0; i < opened->texts->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (opened->texts, i), prefix))
      return TRUE;
  return FALSE;
}

static char *
copy_report (const char *dir, const char *kind, const char *name)
{
  g_autofree char *from = ws_test_data ("capture-h200", "probe", kind, name, NULL);
  g_autofree char *contents = NULL;
  char *to = g_build_filename (dir, name, NULL);
  gsize len;

  g_assert_true (g_file_get_contents (from, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (to, contents, len, NULL));
  return to;
}

static void
clear_cache (void)
{
  ws_test_rmtree (converted_dir);
}

/* The report converts with progress ("Converting probe.nsys-rep with nsys
 * export… — 42%", nsys's own figures), then shows its 336 kernels
 * (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL of the real export). */
static void
test_opens_nsys_report (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *report = copy_report (dir, "nsys", "probe.nsys-rep");
  Opened opened;

  clear_cache ();
  opened = open_report (report);
  g_assert_null (ws_window_get_error (opened.window));
  g_assert_cmpstr (ws_window_get_page (opened.window), ==, "kernels");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (opened.window)), ==, "probe.nsys-rep");
  g_assert_cmpstr (ws_window_get_run (opened.window)->prov.kind, ==, "nsys-rep");
  g_assert_cmpuint (ws_window_get_run (opened.window)->kernels.n, ==, 336);
  g_assert_true (said (&opened, "Converting probe.nsys-rep with nsys export… — 42%"));
  g_assert_true (said (&opened, "Reading "));
  opened_clear (&opened);
  ws_test_rmtree (dir);
}

/* The ncu report: its one profiled launch, on the Gauges page. */
static void
test_opens_ncu_report (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *report = copy_report (dir, "ncu", "strided_read.ncu-rep");
  Opened opened;

  clear_cache ();
  opened = open_report (report);
  g_assert_null (ws_window_get_error (opened.window));
  g_assert_cmpstr (ws_window_get_page (opened.window), ==, "gauges");
  g_assert_cmpuint (ws_ncu_results_n_launches (ws_window_get_run (opened.window)->ncu), ==, 1);
  g_assert_cmpstr (ws_ncu_results_launch (ws_window_get_run (opened.window)->ncu, 0)->kernel, ==,
                   "strided_read(const float *, float *, int, int)");
  g_assert_true (said (&opened, "Converting strided_read.ncu-rep with ncu --import…"));
  opened_clear (&opened);
  ws_test_rmtree (dir);
}

/* Without nsys the info bar says what to install and where its path is
 * set; once the settings name the stand-in, the report opens. */
static void
test_missing_tool_then_settings (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *report = copy_report (dir, "nsys", "probe.nsys-rep");
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *nsys = g_build_filename (stand_ins, "nsys", NULL);
  GSettings *settings = ws_application_get_settings (app);
  Opened opened;

  /* No nsys anywhere: not the stand-ins, nor one this machine installed. */
  g_setenv ("PATH", bare_path, TRUE);
  g_setenv (WS_TOOL_PATH_ENV, "", TRUE);
  clear_cache ();
  opened = open_report (report);
  g_assert_cmpstr (ws_window_get_page (opened.window), ==, "welcome");
  g_assert_nonnull (ws_window_get_error (opened.window));
  g_assert_true (g_str_has_prefix (ws_window_get_error (opened.window), report));
  g_assert_nonnull (
    strstr (ws_window_get_error (opened.window),
            ": an Nsight Systems report, and nsys was not found: install Nsight Systems "
            "(https://developer.nvidia.com/nsight-systems) or set its path in Preferences, or "
            "export it yourself: nsys export --type sqlite --output "));
  opened_clear (&opened);

  /* A path in the settings that is no program is named as such. */
  g_assert_nonnull (settings);
  g_settings_set_string (settings, "nsys-path", "/nonexistent/nsys");
  opened = open_report (report);
  g_assert_nonnull (ws_window_get_error (opened.window));
  g_assert_nonnull (
    strstr (ws_window_get_error (opened.window),
            ": an Nsight Systems report, and the nsys set in Preferences, "
            "/nonexistent/nsys, is not a program: install Nsight Systems "
            "(https://developer.nvidia.com/nsight-systems) or correct its path, or export it "
            "yourself: nsys export --type sqlite --output "));
  opened_clear (&opened);

  g_settings_set_string (settings, "nsys-path", nsys);
  opened = open_report (report);
  g_assert_null (ws_window_get_error (opened.window));
  g_assert_cmpuint (ws_window_get_run (opened.window)->kernels.n, ==, 336);
  opened_clear (&opened);
  g_settings_reset (settings, "nsys-path");
  g_setenv ("PATH", stand_in_path, TRUE);
  g_setenv (WS_TOOL_PATH_ENV, stand_ins, TRUE);
  ws_test_rmtree (dir);
}

/* Closing the window while nsys export hangs ends the tool and everything
 * it started, and leaves nothing in the cache. */
static void
test_close_while_converting (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *report = copy_report (dir, "nsys", "probe.nsys-rep");
  g_autofree char *pids = g_build_filename (dir, "pids", NULL);
  const char *paths[] = { report, NULL };
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  g_autofree char *logged = NULL;
  WsWindow *window;
  GPid tool;

  clear_cache ();
  g_setenv ("WS_NSYS_MODE", "hang", TRUE);
  g_setenv ("WS_STANDIN_PIDS", pids, TRUE);
  window = ws_test_gui_open (paths);
  while ((logged = ws_test_read (pids)) == NULL || strchr (logged, '\n') == NULL)
    {
      g_clear_pointer (&logged, g_free);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  tool = (GPid) g_ascii_strtoll (logged, NULL, 10);
  g_assert_true (ws_test_group_alive (tool));
  gtk_widget_destroy (GTK_WIDGET (window));
  while (ws_test_group_alive (tool))
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  /* The worker removes the temporary folder once the tool is gone. */
  while (g_file_test (converted_dir, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GPtrArray) entries = ws_test_list_dir (converted_dir);

      if (entries->len == 0)
        break;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  g_setenv ("WS_NSYS_MODE", "", TRUE);
  g_setenv ("WS_STANDIN_PIDS", "", TRUE);
  ws_test_gui_flush ();
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_autofree char *stand_ins = NULL;
  int status;

  /* Before anything asks GLib for the cache folder, which it reads once. */
  cache_home = ws_test_tmpdir ();
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  converted_dir = g_build_filename (cache_home, "warpscope", "converted", NULL);
  bare_path = g_strdup (g_getenv ("PATH"));
  stand_ins = ws_test_stand_ins ();
  stand_in_path = g_strconcat (stand_ins, ":", bare_path, NULL);
  g_setenv ("PATH", stand_in_path, TRUE);
  /* The stand-ins are the only nsys and ncu, whatever this machine has. */
  g_setenv (WS_TOOL_PATH_ENV, stand_ins, TRUE);

  app = ws_test_gui_init (&argc, &argv);

  g_test_add_func ("/window-report/open/nsys-report-converts-with-progress",
                   test_opens_nsys_report);
  g_test_add_func ("/window-report/open/ncu-report-shows-gauges", test_opens_ncu_report);
  g_test_add_func ("/window-report/open/missing-tool-then-settings",
                   test_missing_tool_then_settings);
  g_test_add_func ("/window-report/close-while-converting-leaves-nothing",
                   test_close_while_converting);

  status = ws_test_gui_run ();
  ws_test_rmtree (cache_home);
  g_free (cache_home);
  g_free (converted_dir);
  g_free (stand_in_path);
  g_free (bare_path);
  return status;
}
