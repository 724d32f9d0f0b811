/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-window"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-kernels-page.h"
#include "ws-run-loader.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

struct _WsWindow
{
  GtkApplicationWindow parent_instance;

  WsRun *run;
  GCancellable *cancellable;
  char **paths;
  char *error_text;

  GtkWidget *view_switcher; /* the header bar's title while views show */

  /* Template widgets */
  GtkHeaderBar *header_bar;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkStack *main_stack;
  GtkStack *view_stack;
  GtkLabel *loading_label;
  GtkProgressBar *progress_bar;
  WsKernelsPage *kernels_page;
  WsTimelinePage *timeline_page;
};

G_DEFINE_FINAL_TYPE (WsWindow, ws_window, GTK_TYPE_APPLICATION_WINDOW)

enum
{
  LOAD_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_error (WsWindow *self, const char *message)
{
  g_free (self->error_text);
  self->error_text = g_strdup (message);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
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

static void
set_title_for (WsWindow *self)
{
  g_autofree char *title = NULL;

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
  g_autofree char *text = g_strdup_printf (_ ("Reading %s — %.0f%%"), what, fraction * 100);

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

static void
load_finished (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (LoadData) load = data;
  WsWindow *self = load->window;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load_finish (result, &error);

  /* A load that a later one replaced, or that closing the window cancelled. */
  if (load->cancellable != self->cancellable)
    return;
  g_clear_object (&self->cancellable);

  if (run == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* Cancelled by the user: not an error to show. */
      show_views_or_welcome (self);
      g_signal_emit (self, signals[LOAD_FINISHED], 0, FALSE);
      return;
    }

  if (run == NULL)
    {
      show_error (self, error->message);
      show_views_or_welcome (self);
      g_signal_emit (self, signals[LOAD_FINISHED], 0, FALSE);
      return;
    }

  g_clear_pointer (&self->run, ws_run_unref);
  self->run = g_steal_pointer (&run);
  ws_kernels_page_set_run (self->kernels_page, self->run);
  ws_timeline_page_set_run (self->timeline_page, self->run);
  gtk_stack_set_visible_child_name (self->main_stack, "views");
  g_signal_emit (self, signals[LOAD_FINISHED], 0, TRUE);
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
  set_title_for (self);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);

  name = g_path_get_basename (paths[0]);
  gtk_label_set_text (self->loading_label, name);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_progress_bar_set_text (self->progress_bar, _ ("Opening…"));
  gtk_stack_set_visible_child_name (self->main_stack, "loading");

  {
    LoadData *load = g_new0 (LoadData, 1);

    load->window = g_object_ref (self);
    load->cancellable = g_object_ref (self->cancellable);
    ws_run_load_async (paths, WS_LOAD_ALL, self->cancellable, load_progress, g_object_ref (self),
                       g_object_unref, load_finished, load);
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
  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_object (&self->view_switcher);

  G_OBJECT_CLASS (ws_window_parent_class)->dispose (object);
}

static void
ws_window_finalize (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  g_strfreev (self->paths);
  g_free (self->error_text);

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

  g_type_ensure (WS_TYPE_KERNELS_PAGE);
  g_type_ensure (WS_TYPE_TIMELINE_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, kernels_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, timeline_page);
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, main_stack_changed_cb);
}

static const GActionEntry win_actions[] = {
  { "cancel-load", cancel_load_action },
  { "show-page", show_page_action, "s" },
};

static void
ws_window_init (WsWindow *self)
{
  static const GtkTargetEntry targets[] = { { (char *) "text/uri-list", 0, 0 } };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->view_switcher = g_object_ref_sink (gtk_stack_switcher_new ());
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (self->view_switcher), self->view_stack);
  gtk_widget_show (self->view_switcher);
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions),
                                   self);

  gtk_drag_dest_set (GTK_WIDGET (self), GTK_DEST_DEFAULT_ALL, targets, G_N_ELEMENTS (targets),
                     GDK_ACTION_COPY);
  g_signal_connect (self, "drag-data-received", G_CALLBACK (drag_data_received_cb), NULL);
  gtk_stack_set_visible_child_name (self->main_stack, "welcome");
}

WsWindow *
ws_window_new (GtkApplication *application)
{
  return g_object_new (WS_TYPE_WINDOW, "application", application, NULL);
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

GtkWidget *
ws_window_get_kernels_page (WsWindow *self)
{
  return GTK_WIDGET (self->kernels_page);
}
