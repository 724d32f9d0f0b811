/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-application"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-application.h"
#include "ws-compare-dialog.h"
#include "ws-compare-window.h"
#include "ws-input.h"
#include "ws-preferences-window.h"
#include "ws-report-convert.h"
#include "ws-settings.h"
#include "ws-ranks-loader.h"
#include "ws-window.h"

struct _WsApplication
{
  GtkApplication parent_instance;

  GSettings *settings; /* NULL when no schema is installed */
  GMenu *recent_menu;
};

G_DEFINE_FINAL_TYPE (WsApplication, ws_application, GTK_TYPE_APPLICATION)

#define DEMO_NAME "h100_probe.sqlite"

/**
 * ws_application_demo_path:
 *
 * The bundled demo capture: WARPSCOPE_DEMO when set, the installed copy, or
 * the one in the source tree for uninstalled runs.
 *
 * Returns: (transfer full): its path
 */
char *
ws_application_demo_path (void)
{
  const char *env = g_getenv ("WARPSCOPE_DEMO");
  g_autofree char *installed = g_build_filename (PKGDATADIR, "demo", DEMO_NAME, NULL);

  if (env != NULL)
    return g_strdup (env);
  if (g_file_test (installed, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&installed);
  return g_build_filename (SOURCE_DIR, "data", "demo", DEMO_NAME, NULL);
}

/* WARPSCOPE_EXIT_AFTER_LOAD: print what a window loaded and quit, so
 * that tests (and scripts) can drive the real binary end to end. */
static void
report_and_quit (WsApplication *self, const char *what)
{
  if (g_getenv ("WARPSCOPE_EXIT_AFTER_LOAD") == NULL)
    return;
  g_print ("%s\n", what);
  g_application_quit (G_APPLICATION (self));
}

static void
window_loaded_cb (WsWindow *window, gboolean success, WsApplication *self)
{
  WsRun *run = ws_window_get_run (window);
  g_autofree char *line = g_strdup_printf (
    "loaded %s page=%s kernels=%" G_GSIZE_FORMAT " error=%s", success ? "yes" : "no",
    ws_window_get_page (window), run != NULL ? run->kernels.n : 0,
    ws_window_get_error (window) != NULL ? ws_window_get_error (window) : "");

  report_and_quit (self, line);
}

static void
compare_ready_cb (WsCompareWindow *window, gboolean success, WsApplication *self)
{
  WsComparison *cmp = ws_compare_window_get_comparison (window);
  g_autofree char *line =
    g_strdup_printf ("compared %s kernels=%u headline=%s profiled=%u", success ? "yes" : "no",
                     cmp != NULL ? cmp->kernels->len : 0, ws_compare_window_get_headline (window),
                     cmp != NULL ? cmp->n_profiled : 0);

  report_and_quit (self, line);
}

static WsWindow *
new_window (WsApplication *self)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (self));

  g_signal_connect_object (window, "load-finished", G_CALLBACK (window_loaded_cb), self, 0);
  return window;
}

static WsWindow *
empty_window (WsApplication *self)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));

  /* Reuse a window that shows nothing yet, but not one whose launcher is
   * in use; otherwise a new one per run. */
  for (GList *l = windows; l != NULL; l = l->next)
    if (WS_IS_WINDOW (l->data) && ws_window_get_run (l->data) == NULL &&
        !ws_window_is_loading (l->data) && g_strcmp0 (ws_window_get_page (l->data), "capture") != 0)
      return l->data;
  return new_window (self);
}

static void
ws_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (new_window (WS_APPLICATION (app)));
  gtk_window_present (window);
}

/* Files opened together are grouped into runs (ws_input_group_runs): an
 * export with the CSVs that belong to it is one run, one window. */
static void
ws_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  WsApplication *self = WS_APPLICATION (app);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) runs = NULL;

  for (int i = 0; i < n_files; i++)
    {
      char *path = g_file_get_path (files[i]);

      if (path != NULL)
        g_ptr_array_add (paths, path);
    }
  if (paths->len == 0)
    return;
  g_ptr_array_add (paths, NULL);

  /* A capture folder of several targets holds several launches: each
   * opens as a run of its own, in a window of its own (a per-rank target
   * as a job), never as the ranks of one job. */
  {
    g_autoptr (GPtrArray) launches = ws_ranks_loader_launches ((const char *const *) paths->pdata);

    if (launches->len > 1)
      {
        g_autofree char *names = ws_ranks_loader_launch_names (launches);
        /* TRANSLATORS: a number of runs, then their names */
        g_autofree char *message = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE,
                       "These files hold %1$u separate run (%2$s), not the ranks of one job: "
                       "each opens in a window of its own.",
                       "These files hold %1$u separate runs (%2$s), not the ranks of one job: "
                       "each opens in a window of its own.",
                       launches->len),
          launches->len, names);
        WsLaunch *first = g_ptr_array_index (launches, 0);
        WsLaunch *second = g_ptr_array_index (launches, 1);
        gboolean pair = launches->len == 2 && first->path != NULL && second->path != NULL;

        for (guint i = 0; i < launches->len; i++)
          {
            WsLaunch *launch = g_ptr_array_index (launches, i);
            WsWindow *window = empty_window (self);

            if (launch->path != NULL)
              {
                const char *one[] = { launch->path, NULL };

                ws_window_load (window, one);
              }
            else
              {
                g_ptr_array_add (launch->exports, NULL);
                ws_window_load (window, (const char *const *) launch->exports->pdata);
              }
            /* The first window says why, and offers to compare two. */
            if (i == 0)
              ws_window_offer_compare (window, message, pair ? first->path : NULL,
                                       pair ? second->path : NULL);
            gtk_window_present (GTK_WINDOW (window));
          }
        return;
      }
  }

  /* The exports of a job's ranks (names that number them, a folder or a
   * glob of them) open as one run of N ranks, in one window. */
  if (ws_ranks_loader_is_job ((const char *const *) paths->pdata, FALSE))
    {
      WsWindow *window = empty_window (self);

      ws_window_load (window, (const char *const *) paths->pdata);
      gtk_window_present (GTK_WINDOW (window));
      return;
    }
  runs = ws_input_group_runs ((const char *const *) paths->pdata);
  for (guint r = 0; r < runs->len; r++)
    {
      GPtrArray *run = g_ptr_array_index (runs, r);
      WsWindow *window = empty_window (self);

      ws_window_load (window, (const char *const *) run->pdata);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
open_response_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  WsApplication *self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GSList) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GPtrArray) array = g_ptr_array_new ();

      for (GSList *l = files; l != NULL; l = l->next)
        g_ptr_array_add (array, l->data);
      if (array->len > 0)
        g_application_open (G_APPLICATION (self), (GFile **) array->pdata, (int) array->len, "");
      g_slist_free_full (g_steal_pointer (&files), g_object_unref);
    }
  g_object_unref (dialog);
}

static void
open_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsApplication *self = data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter;

  dialog = gtk_file_chooser_native_new (_ ("Open a Run"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _ ("_Open"), _ ("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _ ("Nsight reports, exports and CSVs"));
  gtk_file_filter_add_pattern (filter, "*.sqlite");
  gtk_file_filter_add_pattern (filter, "*.csv");
  gtk_file_filter_add_pattern (filter, "*.log");
  gtk_file_filter_add_pattern (filter, "*.nsys-rep");
  gtk_file_filter_add_pattern (filter, "*.qdrep");
  gtk_file_filter_add_pattern (filter, "*.ncu-rep");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _ ("All files"));
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);

  g_signal_connect (dialog, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_demo_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsApplication *self = data;
  g_autofree char *path = ws_application_demo_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);

  g_application_open (G_APPLICATION (self), &file, 1, "");
}

static void
new_window_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  gtk_window_present (GTK_WINDOW (new_window (WS_APPLICATION (data))));
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsApplication *self = data;
  static const char *authors[] = { "The Warpscope developers", NULL };

  gtk_show_about_dialog (
    gtk_application_get_active_window (GTK_APPLICATION (self)), "program-name", _ ("Warpscope"),
    "logo-icon-name", APP_ID, "version", PACKAGE_VERSION, "comments",
    _ ("See where your GPU time goes: Nsight Systems and Nsight Compute results, drawn and "
       "compared."),
    "license-type", GTK_LICENSE_GPL_3_0, "authors", authors, "translator-credits",
    _ ("translator-credits"), "website", "https://warpscope.org", NULL);
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_application_quit (G_APPLICATION (data));
}

static void open_recent_action (GSimpleAction *action, GVariant *param, gpointer data);
static void compare_action (GSimpleAction *action, GVariant *param, gpointer data);
static void preferences_action (GSimpleAction *action, GVariant *param, gpointer data);
static void compare_files_action (GSimpleAction *action, GVariant *param, gpointer data);

/* clang-format off */
static const GActionEntry app_actions[] = {
  { "open", open_action },
  { "open-demo", open_demo_action },
  { "new-window", new_window_action },
  { "about", about_action },
  { "quit", quit_action },
  { "open-recent", open_recent_action, "s" },
  { "compare", compare_action },
  { "preferences", preferences_action },
  { "compare-files", compare_files_action, "(sss)" },
};
/* clang-format on */

static void
ws_application_startup (GApplication *app)
{
  static const char *open_accels[] = { "<Control>o", NULL };
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *new_accels[] = { "<Control>n", NULL };
  static const char *close_accels[] = { "<Control>w", NULL };
  static const char *find_accels[] = { "<Control>f", NULL };
  static const char *prefs_accels[] = { "<Control>comma", NULL };
  /* Alt+1 … Alt+9, then Alt+0. */
  static const char *const pages[] = { "kernels", "timeline", "summaries", "gauges",  "findings",
                                       "flame",   "steps",    "ranks",     "capture", "path" };
  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();

  G_APPLICATION_CLASS (ws_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.new-window", new_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.close", close_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.find", find_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences", prefs_accels);
  for (gsize i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autofree char *detailed = g_strdup_printf ("win.show-page('%s')", pages[i]);
      g_autofree char *accel = g_strdup_printf ("<Alt>%" G_GSIZE_FORMAT, (i + 1) % 10);
      const char *accels[] = { accel, NULL };

      gtk_application_set_accels_for_action (GTK_APPLICATION (app), detailed, accels);
    }

  /* Read-only labels are selectable for copying; focus reaching one by Tab
   * or a click must not select all of it.  Nor do they take the focus at
   * all (can-focus FALSE after selectable TRUE, in the .ui files and in
   * code), as read-only text in GTK 3 applications is usually set up: a
   * focused selectable label draws a text caret, which read as an entry.
   * The mouse still selects their text; the label's context menu copies
   * it, and so does a middle click (the primary selection). */
  g_object_set (gtk_settings_get_default (), "gtk-label-select-on-focus", FALSE, NULL);

  gtk_css_provider_load_from_resource (css, "/org/warpscope/Warpscope/ui/style.css");
  gtk_style_context_add_provider_for_screen (gdk_screen_get_default (), GTK_STYLE_PROVIDER (css),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_window_set_default_icon_name (APP_ID);
  /* Uninstalled runs find the icons in the source tree. */
  if (!gtk_icon_theme_has_icon (gtk_icon_theme_get_default (), APP_ID))
    gtk_icon_theme_append_search_path (gtk_icon_theme_get_default (), SOURCE_DIR "/data/icons");
}

#define MAX_RECENT 12

/* The Recent menu: one item per run (its files joined by newlines in
 * GSettings), labelled with the first file's name. */
static void
rebuild_recent_menu (WsApplication *self)
{
  g_auto (GStrv) entries =
    self->settings != NULL ? g_settings_get_strv (self->settings, "recent-runs") : NULL;

  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; entries != NULL && entries[i] != NULL; i++)
    {
      g_auto (GStrv) paths = g_strsplit (entries[i], "\n", -1);
      g_autofree char *base = g_path_get_basename (paths[0]);
      g_autofree char *label =
        g_strv_length (paths) > 1
          ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s and %u more file",
                                          "%s and %u more files", g_strv_length (paths) - 1),
                             base, g_strv_length (paths) - 1)
          : g_strdup (base);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "app.open-recent",
                                               g_variant_new_string (entries[i]));
      g_menu_append_item (self->recent_menu, item);
    }
  if (g_menu_model_get_n_items (G_MENU_MODEL (self->recent_menu)) == 0)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (_ ("No recent runs"), "app.no-recent");

      g_menu_append_item (self->recent_menu, item);
    }
}

/**
 * ws_application_get_recent_menu:
 *
 * Returns: (transfer none): the Recent menu every window shows
 */
GMenuModel *
ws_application_get_recent_menu (WsApplication *self)
{
  return G_MENU_MODEL (self->recent_menu);
}

/* Remembers the files of a run that loaded, for the Recent menu and for
 * GTK's recent files. */
void
ws_application_note_recent (WsApplication *self, const char *const *paths)
{
  g_autofree char *entry = NULL;
  GtkRecentManager *manager = gtk_recent_manager_get_default ();

  if (paths == NULL || paths[0] == NULL)
    return;
  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *uri = g_filename_to_uri (paths[i], NULL, NULL);

      if (uri != NULL)
        gtk_recent_manager_add_item (manager, uri);
    }
  entry = g_strjoinv ("\n", (char **) paths);
  ws_settings_add_recent (self->settings, "recent-runs", entry, MAX_RECENT);
  rebuild_recent_menu (self);
}

static void
open_recent_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsApplication *self = data;
  g_auto (GStrv) paths = g_strsplit (g_variant_get_string (param, NULL), "\n", -1);
  WsWindow *window = empty_window (self);

  ws_window_load (window, (const char *const *) paths);
  gtk_window_present (GTK_WINDOW (window));
}

static void
preferences_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsApplication *self = data;
  WsPreferencesWindow *window = ws_preferences_window_new (
    gtk_application_get_active_window (GTK_APPLICATION (self)), self->settings);

  g_signal_connect (window, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_window_present (GTK_WINDOW (window));
}

/**
 * ws_application_get_settings:
 *
 * Returns: (transfer none) (nullable): the app's settings; %NULL when no
 * schema is installed
 */
GSettings *
ws_application_get_settings (WsApplication *self)
{
  return self->settings;
}

/**
 * ws_application_compare:
 *
 * Opens a comparison window for BEFORE and AFTER (each a file, a folder, or
 * the files of one run joined by commas: "run.sqlite,run_ncu_raw.csv") and
 * remembers the pair.
 */
WsCompareWindow *
ws_application_compare (WsApplication *self, const char *before, const char *after)
{
  WsCompareWindow *window = ws_compare_window_new (GTK_APPLICATION (self));
  g_auto (GStrv) b = ws_input_split_side (before);
  g_auto (GStrv) a = ws_input_split_side (after);
  g_autofree char *entry = g_strdup_printf ("%s\n%s", before, after);

  g_signal_connect_object (window, "ready", G_CALLBACK (compare_ready_cb), self, 0);
  ws_compare_window_load (window, (const char *const *) b, (const char *const *) a);
  ws_settings_add_recent (self->settings, "recent-comparisons", entry, MAX_RECENT);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* (before, after, budget file or ""): the budgets judged in the Budgets
 * tab, shown. */
static void
compare_files_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  const char *before, *after, *budgets;
  WsCompareWindow *window;

  g_variant_get (param, "(&s&s&s)", &before, &after, &budgets);
  window = ws_application_compare (WS_APPLICATION (data), before, after);
  if (*budgets != '\0')
    {
      ws_compare_budgets_page_set_file (ws_compare_window_get_budgets_page (window), budgets);
      ws_compare_window_show_view (window, "budgets");
    }
}

static void
compare_response_cb (GtkDialog *dialog, int response, gpointer data)
{
  WsApplication *self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *before = ws_compare_dialog_get_path (WS_COMPARE_DIALOG (dialog), FALSE);
      g_autofree char *after = ws_compare_dialog_get_path (WS_COMPARE_DIALOG (dialog), TRUE);

      ws_application_compare (self, before, after);
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

/* "Compare…": the window's own run is offered as BEFORE. */
static void
compare_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsApplication *self = data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  WsRun *run = WS_IS_WINDOW (parent) ? ws_window_get_run (WS_WINDOW (parent)) : NULL;
  const char *before =
    run != NULL && run->prov.files->len > 0 ? g_ptr_array_index (run->prov.files, 0) : NULL;
  WsCompareDialog *dialog = ws_compare_dialog_new (parent, before);

  g_signal_connect (dialog, "response", G_CALLBACK (compare_response_cb), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* One side of --compare with every path made absolute, for an instance
 * that runs in another folder: a file, a folder, or files joined by commas. */
static char *
absolute_side (const char *arg)
{
  g_auto (GStrv) parts = ws_input_split_side (arg);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_commandline_arg (parts[i]);
      char *path = g_file_get_path (file);

      g_ptr_array_add (paths, path != NULL ? path : g_strdup (parts[i]));
    }
  g_ptr_array_add (paths, NULL);
  return g_strjoinv (",", (char **) paths->pdata);
}

/* `warpscope --compare BEFORE AFTER`: sent as an action, so that a running
 * instance opens the comparison. */
static int
ws_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  g_auto (GStrv) files = NULL;
  g_autoptr (GError) error = NULL;
  gboolean compare = g_variant_dict_contains (options, "compare");
  g_autofree char *budgets = NULL;
  guint n;

  /* With G_OPTION_REMAINING among our options, GApplication leaves the
   * file arguments to us: open them (or compare them) here. */
  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^aay", &files);
  n = files != NULL ? g_strv_length (files) : 0;
  g_variant_dict_lookup (options, "budgets", "^ay", &budgets);
  if (budgets != NULL && !compare)
    {
      g_printerr (_ ("warpscope: --budgets goes with --compare BEFORE AFTER\n"));
      return 2;
    }
  if (compare && n != 2)
    {
      g_printerr (_ ("warpscope: --compare takes two runs: warpscope --compare BEFORE AFTER\n"));
      return 2;
    }
  if (n == 0)
    return -1;
  if (!g_application_register (app, NULL, &error))
    {
      g_printerr ("warpscope: %s\n", error->message);
      return 1;
    }
  if (compare)
    {
      g_autofree char *b = absolute_side (files[0]);
      g_autofree char *a = absolute_side (files[1]);
      g_autofree char *budget_file = NULL;

      if (budgets != NULL)
        {
          g_autoptr (GFile) file = g_file_new_for_commandline_arg (budgets);

          budget_file = g_file_get_path (file);
        }
      g_action_group_activate_action (
        G_ACTION_GROUP (app), "compare-files",
        g_variant_new ("(sss)", b, a, budget_file != NULL ? budget_file : ""));
    }
  else
    {
      g_autoptr (GPtrArray) gfiles = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (gfiles, g_file_new_for_commandline_arg (files[i]));
      g_application_open (app, (GFile **) gfiles->pdata, (int) gfiles->len, "");
    }
  /* A primary instance runs its main loop for the windows just opened. */
  if (!g_application_get_is_remote (app))
    return -1;
  return 0;
}

static void
ws_application_dispose (GObject *object)
{
  WsApplication *self = WS_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->recent_menu);
  G_OBJECT_CLASS (ws_application_parent_class)->dispose (object);
}

static void
ws_application_class_init (WsApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_application_dispose;
  app_class->handle_local_options = ws_application_handle_local_options;

  app_class->startup = ws_application_startup;
  app_class->activate = ws_application_activate;
  app_class->open = ws_application_open;
}

/* Reports are converted with the tools the launcher uses. */
static void
tool_paths_changed_cb (WsApplication *self)
{
  g_autofree char *nsys = g_settings_get_string (self->settings, "nsys-path");
  g_autofree char *ncu = g_settings_get_string (self->settings, "ncu-path");

  ws_report_convert_set_tools (nsys, ncu);
}

static void
ws_application_init (WsApplication *self)
{
  const GOptionEntry options[] = {
    { "compare", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_ ("Compare two runs: warpscope --compare BEFORE AFTER (each a file, a folder, or the "
          "files of one run joined by commas)"),
      NULL },
    { "budgets", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_ ("With --compare: judge a budget file's lines between the runs, as warpscope-cli gate "
          "does, in the Budgets tab"),
      N_ ("FILE") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, N_ ("FILE…") },
    { NULL },
  };

  g_application_add_main_option_entries (G_APPLICATION (self), options);
  self->settings = ws_settings_new ();
  if (self->settings != NULL)
    {
      g_signal_connect_object (self->settings, "changed::nsys-path",
                               G_CALLBACK (tool_paths_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->settings, "changed::ncu-path",
                               G_CALLBACK (tool_paths_changed_cb), self, G_CONNECT_SWAPPED);
      tool_paths_changed_cb (self);
    }
  self->recent_menu = g_menu_new ();
  rebuild_recent_menu (self);
}

WsApplication *
ws_application_new (GApplicationFlags flags)
{
  return g_object_new (WS_TYPE_APPLICATION, "application-id", APP_ID, "flags",
                       flags | G_APPLICATION_HANDLES_OPEN, "resource-base-path",
                       "/org/warpscope/Warpscope", NULL);
}
