/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-window"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-application.h"
#include "ws-compare-window.h"
#include "ws-findings-page.h"
#include "ws-flame-page.h"
#include "ws-gauges-page.h"
#include "ws-capture-page.h"
#include "ws-kernels-page.h"
#include "ws-summaries-page.h"
#include "ws-ranks-loader.h"
#include "ws-run-loader.h"
#include "ws-steps-page.h"
#include "ws-timeline-page.h"
#include "ws-window-private.h"

G_DEFINE_FINAL_TYPE (WsWindow, ws_window, GTK_TYPE_APPLICATION_WINDOW)

enum
{
  LOAD_FINISHED,
  EXPORT_FINISHED,
  FIRST_FRAME,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void update_actions (WsWindow *self);

/* The info bar: a failed load or export (@type GTK_MESSAGE_ERROR), or an
 * export done. */
void
ws_window_show_message (WsWindow *self, GtkMessageType type, const char *message)
{
  g_free (self->error_text);
  self->error_text = type == GTK_MESSAGE_ERROR ? g_strdup (message) : NULL;
  g_free (self->export_text);
  self->export_text = type == GTK_MESSAGE_ERROR ? NULL : g_strdup (message);
  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

static void
show_error (WsWindow *self, const char *message)
{
  ws_window_show_message (self, GTK_MESSAGE_ERROR, message);
}

static void
info_bar_response_cb (WsWindow *self, int response, GtkInfoBar *info_bar)
{
  gtk_info_bar_set_revealed (info_bar, FALSE);
}

static void
show_views_or_welcome (WsWindow *self)
{
  gboolean capture =
    g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "capture") == 0;

  gtk_stack_set_visible_child_name (self->main_stack,
                                    self->run != NULL || capture ? "views" : "welcome");
}

/* The page switcher takes the title's place while the views show. */
static void
main_stack_changed_cb (WsWindow *self, GParamSpec *pspec, GtkStack *stack)
{
  gboolean views = g_strcmp0 (gtk_stack_get_visible_child_name (stack), "views") == 0;

  gtk_header_bar_set_custom_title (self->header_bar, views ? self->view_switcher : NULL);
}

/* A finished capture's folder opens in a window of its own, through the
 * application, as a double-click on it would; the launcher stays here. */
static void
capture_open_results_cb (WsWindow *self, const char *dir, WsCapturePage *page)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autoptr (GFile) folder = g_file_new_for_path (dir);

  if (app != NULL)
    g_application_open (app, &folder, 1, "");
}

/* "Show in Timeline": the timeline zooms to the finding and highlights its
 * events. */
static void
finding_activated_cb (WsWindow *self, WsFinding *finding, WsFindingsPage *page)
{
  /* The findings of a run with steps are those of its steady state: their
   * events are the steady state's, which the timeline must show. */
  if (self->steady != NULL && ws_findings_page_get_run (page) == self->steady && !self->show_steady)
    gtk_combo_box_set_active_id (self->scope_combo, "steady");
  gtk_stack_set_visible_child_name (self->view_stack, "timeline");
  ws_timeline_page_show_finding (self->timeline_page, finding);
}

/* A step from the Steps page: the timeline shows its stretch. */
static void
step_activated_cb (WsWindow *self, gint64 start, gint64 end, WsStepsPage *page)
{
  gtk_stack_set_visible_child_name (self->view_stack, "timeline");
  ws_timeline_page_show_time (self->timeline_page, start, end);
}

/* "Flame Graph of This Range": the Flame graph page, limited to the
 * samples of the stretch selected on the timeline. */
static void
flame_range_cb (WsWindow *self, gint64 start, gint64 end, WsTimelinePage *page)
{
  ws_flame_page_set_range (self->flame_page, start, end);
  gtk_stack_set_visible_child_name (self->view_stack, "flame");
}

static void
show_page_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsWindow *self = data;
  const char *page = g_variant_get_string (param, NULL);

  if (gtk_stack_get_child_by_name (self->view_stack, page) == NULL)
    return;
  gtk_stack_set_visible_child_name (self->view_stack, page);
  if (self->cancellable == NULL)
    gtk_stack_set_visible_child_name (self->main_stack, "views");
}

/* The title names the run; a job's names the job and its rank count. */
void
ws_window_set_title_for (WsWindow *self)
{
  g_autofree char *title = NULL;
  WsRanks *ranks = self->run != NULL && self->run->ranks != NULL
                     ? self->run->ranks
                     : ws_ranks_page_get_ranks (self->ranks_page);

  if (ranks != NULL && ws_ranks_get_n (ranks) > 1)
    {
      g_autofree char *how = ws_ranks_describe (ranks);

      title = ws_ranks_title (ranks);
      gtk_header_bar_set_title (self->header_bar, title);
      gtk_header_bar_set_subtitle (self->header_bar, how);
      gtk_window_set_title (GTK_WINDOW (self), title);
      return;
    }
  if (self->paths == NULL || self->paths[0] == NULL)
    {
      gtk_header_bar_set_title (self->header_bar, _ ("Warpscope"));
      gtk_header_bar_set_subtitle (self->header_bar, NULL);
      gtk_window_set_title (GTK_WINDOW (self), _ ("Warpscope"));
      return;
    }
  title = g_path_get_basename (self->paths[0]);
  gtk_header_bar_set_title (self->header_bar, title);
  gtk_header_bar_set_subtitle (self->header_bar, self->paths[0]);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static void
load_progress (double fraction, const char *what, gpointer data)
{
  WsWindow *self = data;
  /* TRANSLATORS: what is being done (Reading TABLE, Converting FILE…), then a percentage */
  g_autofree char *text = g_strdup_printf (_ ("%s — %.0f%%"), what, fraction * 100);

  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  gtk_progress_bar_set_text (self->progress_bar, text);
}

typedef struct
{
  WsWindow *window;
  GCancellable *cancellable; /* tells this load from a later one */
} LoadData;

static void
load_data_free (LoadData *load)
{
  g_object_unref (load->window);
  g_object_unref (load->cancellable);
  g_free (load);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoadData, load_data_free)

/**
 * ws_window_show_loaded:
 * @cancellable: the load's, which tells it from a later one
 * @run: (nullable) (transfer none): what was loaded, or %NULL with @error
 *
 * Shows what a load (of one run or of a job's ranks) gave.
 */
void
ws_window_show_loaded (WsWindow *self, GCancellable *cancellable, WsRun *run, GError *error)
{
  gboolean ranks;

  /* A load that a later one replaced, or that closing the window cancelled. */
  if (cancellable != self->cancellable)
    return;
  g_clear_object (&self->cancellable);
  ws_window_clear_overview (self);

  if (run == NULL)
    {
      /* Cancelled by the user: not an error to show. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error->message);
      ws_ranks_page_set_run (self->ranks_page, self->run);
      gtk_widget_set_visible (GTK_WIDGET (self->ranks_page),
                              self->run != NULL && self->run->ranks != NULL);
      ws_window_set_title_for (self);
      show_views_or_welcome (self);
      g_signal_emit (self, signals[LOAD_FINISHED], 0, FALSE);
      return;
    }

  g_clear_pointer (&self->run, ws_run_unref);
  self->run = ws_run_ref (run);
  update_actions (self);
  if (WS_IS_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))))
    ws_application_note_recent (WS_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                                (const char *const *) self->paths);
  /* A new run opens whole; its steady state becomes a choice once found. */
  self->show_steady = FALSE;
  gtk_combo_box_set_active_id (self->scope_combo, "whole");
  ws_kernels_page_set_run (self->kernels_page, self->run);
  ws_summaries_page_set_run (self->summaries_page, self->run);
  ws_findings_page_set_waiting (self->findings_page);
  ws_gauges_page_set_run (self->gauges_page, self->run);
  ws_flame_page_set_run (self->flame_page, self->run);
  ws_steps_page_set_steps (self->steps_page, self->run, NULL);
  ws_window_find_steps (self);
  ws_window_find_critical_path (self);
  ranks = self->run->ranks != NULL && ws_ranks_get_n (self->run->ranks) > 1;
  ws_ranks_page_set_run (self->ranks_page, ranks ? self->run : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->ranks_page), ranks);
  ws_window_set_title_for (self);
  /* ncu CSVs alone: their gauges are what there is to see. */
  if (self->run->kernels.n == 0 && self->run->ncu != NULL)
    gtk_stack_set_visible_child_name (self->view_stack, "gauges");
  /* CPU profiles alone: their flame graph is what there is to see. */
  else if (ws_run_is_cpu_only (self->run))
    gtk_stack_set_visible_child_name (self->view_stack, "flame");
  /* A job opens on its ranks. */
  else if (ranks && g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "kernels") == 0)
    gtk_stack_set_visible_child_name (self->view_stack, "ranks");
  ws_timeline_page_set_run (self->timeline_page, self->run);
  ws_window_show_digest (self);
  gtk_stack_set_visible_child_name (self->main_stack, "views");
  g_signal_emit (self, signals[LOAD_FINISHED], 0, TRUE);
}

static void
load_finished (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (LoadData) load = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load_finish (result, &error);

  ws_window_show_loaded (load->window, load->cancellable, run, error);
}

/**
 * ws_window_load:
 * @paths: (array zero-terminated=1): the files of one run
 *
 * Loads a run on a worker thread; the window stays responsive and shows
 * the progress.  A load in progress is cancelled first.
 */
void
ws_window_load (WsWindow *self, const char *const *paths)
{
  g_autofree char *name = NULL;

  g_return_if_fail (WS_IS_WINDOW (self));
  g_return_if_fail (paths != NULL && paths[0] != NULL);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_strfreev (self->paths);
  self->paths = g_strdupv ((char **) paths);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  gtk_info_bar_set_revealed (self->runs_bar, FALSE);
  /* The exports of a job's ranks: one run of N ranks, shown as they come. */
  if (ws_ranks_loader_is_job (paths, FALSE))
    {
      ws_window_load_job (self, paths);
      return;
    }
  ws_ranks_page_set_run (self->ranks_page, NULL);
  ws_window_set_title_for (self);

  name = g_path_get_basename (paths[0]);
  gtk_label_set_text (self->loading_label, name);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_progress_bar_set_text (self->progress_bar, _ ("Opening…"));
  ws_window_clear_overview (self);
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
  /* A big export draws its first frame before the whole load starts. */
  if (!ws_window_load_overview_first (self))
    ws_window_start_load (self);
}

/* Loads self->paths as one run, for the load self->cancellable tells. */
void
ws_window_start_load (WsWindow *self)
{
  LoadData *load = g_new0 (LoadData, 1);

  load->window = g_object_ref (self);
  load->cancellable = g_object_ref (self->cancellable);
  ws_run_load_async ((const char *const *) self->paths, WS_LOAD_ALL, self->cancellable,
                     load_progress, g_object_ref (self), g_object_unref, load_finished, load);
}

static void
update_actions (WsWindow *self)
{
  static const char *const needs_run[] = { "export-chart", "export-csv", "export-markdown",
                                           "export-chrome-trace" };

  for (gsize i = 0; i < G_N_ELEMENTS (needs_run); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), needs_run[i]);

      if (action != NULL)
        g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->run != NULL);
    }
}

static void
close_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
}

/* Ctrl+F: the filter or search entry of the page on show. */
static void
find_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsWindow *self = data;
  const char *page = ws_window_get_page (self);

  if (g_strcmp0 (page, "kernels") == 0)
    ws_kernels_page_focus_filter (self->kernels_page);
  else
    {
      GtkWidget *view = ws_window_get_view (self, page);
      /* A page's actions are "page.*", or named after it ("timeline.*"). */
      const char *prefixes[] = { "page", page };

      for (guint i = 0; view != NULL && i < G_N_ELEMENTS (prefixes); i++)
        {
          GActionGroup *group = gtk_widget_get_action_group (view, prefixes[i]);

          if (group != NULL && g_action_group_has_action (group, "find"))
            {
              g_action_group_activate_action (group, "find", NULL);
              break;
            }
        }
    }
}

static void
cancel_load_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  WsWindow *self = data;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
drag_data_received_cb (WsWindow *self, GdkDragContext *context, int x, int y,
                       GtkSelectionData *selection, guint info, guint time)
{
  g_auto (GStrv) uris = gtk_selection_data_get_uris (selection);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; uris != NULL && uris[i] != NULL; i++)
    {
      char *path = g_filename_from_uri (uris[i], NULL, NULL);

      if (path != NULL)
        g_ptr_array_add (paths, path);
    }
  if (paths->len == 0)
    {
      gtk_drag_finish (context, FALSE, FALSE, time);
      return;
    }
  g_ptr_array_add (paths, NULL);
  /* A second run dropped on a window that shows one: compare them. */
  if (self->run != NULL && self->cancellable == NULL && self->paths != NULL)
    {
      WsCompareWindow *compare =
        ws_compare_window_new (gtk_window_get_application (GTK_WINDOW (self)));

      ws_compare_window_load (compare, (const char *const *) self->paths,
                              (const char *const *) paths->pdata);
      gtk_window_present (GTK_WINDOW (compare));
    }
  else
    ws_window_load (self, (const char *const *) paths->pdata);
  gtk_drag_finish (context, TRUE, FALSE, time);
}

static void
ws_window_dispose (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  /* Closing the window cancels a load in progress. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->steps_cancellable != NULL)
    g_cancellable_cancel (self->steps_cancellable);
  g_clear_object (&self->steps_cancellable);
  ws_window_cancel_critical_path (self);
  /* And the exports not yet started (ws-window-export.c). */
  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
  g_clear_object (&self->export_cancellable);
  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_pointer (&self->steps, ws_steps_unref);
  g_clear_pointer (&self->steady, ws_run_unref);
  g_clear_pointer (&self->setup_line, g_free);
  g_clear_pointer (&self->overview, ws_overview_unref);
  g_clear_object (&self->view_switcher);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ws_window_parent_class)->dispose (object);
}

static void
ws_window_finalize (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  g_strfreev (self->paths);
  g_free (self->error_text);
  g_free (self->export_text);
  g_free (self->digest_folder);
  g_free (self->compare_before);
  g_free (self->compare_after);

  G_OBJECT_CLASS (ws_window_parent_class)->finalize (object);
}

static void
ws_window_class_init (WsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_window_dispose;
  object_class->finalize = ws_window_finalize;

  /**
   * WsWindow::load-finished:
   * @success: whether a run was loaded
   */
  signals[LOAD_FINISHED] =
    g_signal_new ("load-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  /**
   * WsWindow::export-finished:
   * @kind: the #WsWindowExport
   * @path: the file or folder written
   * @success: whether it was written
   *
   * An export ws_window_export() started has ended; the info bar says how.
   */
  signals[EXPORT_FINISHED] =
    g_signal_new ("export-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_STRING, G_TYPE_BOOLEAN);

  /**
   * WsWindow::first-frame:
   *
   * A big export's overview is drawn, before its whole load
   * (ws-window-overview.c); ws_window_get_overview() returns it.
   */
  signals[FIRST_FRAME] = g_signal_new ("first-frame", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (WS_TYPE_KERNELS_PAGE);
  g_type_ensure (WS_TYPE_SUMMARIES_PAGE);
  g_type_ensure (WS_TYPE_FINDINGS_PAGE);
  g_type_ensure (WS_TYPE_GAUGES_PAGE);
  g_type_ensure (WS_TYPE_FLAME_PAGE);
  g_type_ensure (WS_TYPE_CAPTURE_PAGE);
  g_type_ensure (WS_TYPE_TIMELINE_PAGE);
  g_type_ensure (WS_TYPE_STEPS_PAGE);
  g_type_ensure (WS_TYPE_CRITICAL_PATH_PAGE);
  g_type_ensure (WS_TYPE_RANKS_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, digest_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, runs_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, runs_label);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, runs_compare_button);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, digest_label);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, digest_folder_button);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, overview_area);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, overview_note);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, loading_box);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, kernels_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, summaries_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, findings_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, flame_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, gauges_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, timeline_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, steps_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, critical_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, scope_combo);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, ranks_page);
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, ws_window_overview_draw_cb);
  gtk_widget_class_bind_template_callback (widget_class, main_stack_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, capture_open_results_cb);
  gtk_widget_class_bind_template_callback (widget_class, finding_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_activated_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "scope_changed_cb",
                                                G_CALLBACK (ws_window_scope_changed_cb));
  gtk_widget_class_bind_template_callback (widget_class, ws_window_step_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, ws_window_compare_peers_cb);
  gtk_widget_class_bind_template_callback (widget_class, ws_window_digest_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, ws_window_runs_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, flame_range_cb);
  gtk_widget_class_bind_template_callback (widget_class, ws_window_critical_item_cb);
  gtk_widget_class_bind_template_callback (widget_class, ws_window_what_if_cb);
}

/* clang-format off */
static const GActionEntry win_actions[] = {
  { "cancel-load", cancel_load_action },
  { "show-page", show_page_action, "s" },
  { "close", close_action },
  { "find", find_action },
  { "export-chart", ws_window_export_action },
  { "export-csv", ws_window_export_action },
  { "export-markdown", ws_window_export_action },
  { "export-chrome-trace", ws_window_export_action },
};
/* clang-format on */

static void
ws_window_init (WsWindow *self)
{
  static const GtkTargetEntry targets[] = { { (char *) "text/uri-list", 0, 0 } };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->overview_min_size = WS_WINDOW_OVERVIEW_MIN_SIZE;
  self->view_switcher = g_object_ref_sink (gtk_stack_switcher_new ());
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (self->view_switcher), self->view_stack);
  /* Nine pages (a job's Ranks) and the header's other buttons must fit a
   * window 1280 pixels wide: the page buttons are a little tighter than
   * the theme's. */
  gtk_style_context_add_class (gtk_widget_get_style_context (self->view_switcher),
                               "ws-view-switcher");
  gtk_widget_show (self->view_switcher);
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions),
                                   self);

  gtk_drag_dest_set (GTK_WIDGET (self), GTK_DEST_DEFAULT_ALL, targets, G_N_ELEMENTS (targets),
                     GDK_ACTION_COPY);
  g_signal_connect (self, "drag-data-received", G_CALLBACK (drag_data_received_cb), NULL);
  gtk_stack_set_visible_child_name (self->main_stack, "welcome");
  update_actions (self);
}

static void
name_form_changed_cb (WsWindow *self, const char *key, GSettings *settings)
{
  ws_kernels_page_set_name_form (self->kernels_page,
                                 (WsNameForm) g_settings_get_enum (settings, "name-form"));
}

/* Remembers the size of the last window closed, for the next one. */
static gboolean
delete_event_cb (WsWindow *self, GdkEvent *event, gpointer data)
{
  GSettings *settings = self->settings;
  int width, height;

  if (settings == NULL)
    return GDK_EVENT_PROPAGATE;
  gtk_window_get_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)))
    {
      g_settings_set_int (settings, "window-width", width);
      g_settings_set_int (settings, "window-height", height);
    }
  return GDK_EVENT_PROPAGATE;
}

WsWindow *
ws_window_new (GtkApplication *application)
{
  WsWindow *self = g_object_new (WS_TYPE_WINDOW, "application", application, NULL);
  GSettings *settings = WS_IS_APPLICATION (application)
                          ? ws_application_get_settings (WS_APPLICATION (application))
                          : NULL;

  if (WS_IS_APPLICATION (application))
    gtk_menu_button_set_menu_model (self->recent_button,
                                    ws_application_get_recent_menu (WS_APPLICATION (application)));
  if (settings != NULL)
    {
      self->settings = g_object_ref (settings);
      gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (settings, "window-width"),
                                   g_settings_get_int (settings, "window-height"));
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      g_settings_bind (settings, "top-n", ws_kernels_page_get_top_n_spin (self->kernels_page),
                       "value", G_SETTINGS_BIND_DEFAULT);
      g_signal_connect_object (settings, "changed::name-form", G_CALLBACK (name_form_changed_cb),
                               self, G_CONNECT_SWAPPED);
      name_form_changed_cb (self, "name-form", settings);
      g_signal_connect (self, "delete-event", G_CALLBACK (delete_event_cb), NULL);
    }
  return self;
}

gboolean
ws_window_is_loading (WsWindow *self)
{
  return self->cancellable != NULL;
}

/**
 * ws_window_get_run:
 *
 * Returns: (transfer none) (nullable): the run on show
 */
WsRun *
ws_window_get_run (WsWindow *self)
{
  return self->run;
}

WsStepsPage *
ws_window_get_steps_page (WsWindow *self)
{
  return self->steps_page;
}

WsFindingsPage *
ws_window_get_findings_page (WsWindow *self)
{
  return self->findings_page;
}

WsTimelinePage *
ws_window_get_timeline_page (WsWindow *self)
{
  return self->timeline_page;
}

/* "welcome", "loading", or the name of the view on show ("kernels", …). */
const char *
ws_window_get_page (WsWindow *self)
{
  const char *main = gtk_stack_get_visible_child_name (self->main_stack);

  if (g_strcmp0 (main, "views") == 0)
    return gtk_stack_get_visible_child_name (self->view_stack);
  return main;
}

/**
 * ws_window_get_view:
 *
 * Returns: (transfer none) (nullable): the page widget named @name
 */
GtkWidget *
ws_window_get_view (WsWindow *self, const char *name)
{
  return gtk_stack_get_child_by_name (self->view_stack, name);
}

/**
 * ws_window_get_error:
 *
 * Returns: (transfer none) (nullable): the message of the last failed load
 */
const char *
ws_window_get_error (WsWindow *self)
{
  return gtk_info_bar_get_revealed (self->info_bar) ? self->error_text : NULL;
}

/**
 * ws_window_get_export_message:
 *
 * Returns: (transfer none) (nullable): what the info bar says of the last
 * export written, while it shows
 */
const char *
ws_window_get_export_message (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return gtk_info_bar_get_revealed (self->info_bar) ? self->export_text : NULL;
}

GtkWidget *
ws_window_get_kernels_page (WsWindow *self)
{
  return GTK_WIDGET (self->kernels_page);
}
