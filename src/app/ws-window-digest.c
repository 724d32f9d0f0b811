/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-window"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-digest-export.h"
#include "ws-digest-loader.h"
#include "ws-window-private.h"

/* A window showing a job digest: the Ranks page, the merged summaries and
 * the findings, without events (no Timeline).  Clicking a rank opens its
 * export in a window of its own, at the step clicked, when the export can
 * be found: at its path relative to the digest, in a folder the user
 * points to, or where it was when the digest was made; otherwise the bar
 * says where it was and offers to choose the folder. */

/* Lines of the digest's warnings the bar shows before "N more". */
#define BAR_MAX_LINES 6

enum
{
  RESPONSE_CHOOSE_FOLDER = 1,
};

static void
show_bar (WsWindow *self, const char *text, gboolean offer_folder)
{
  gtk_label_set_text (self->digest_label, text);
  gtk_widget_set_visible (self->digest_folder_button, offer_folder);
  gtk_info_bar_set_revealed (self->digest_bar, TRUE);
}

/**
 * ws_window_show_digest:
 *
 * Called once a digest is loaded: hides the Timeline (a digest has no
 * events) and says what the digest says of itself: exports that changed
 * since it was made, files that could not be digested.
 */
void
ws_window_show_digest (WsWindow *self)
{
  const GPtrArray *warnings;
  g_autoptr (GString) text = g_string_new (NULL);

  gtk_info_bar_set_revealed (self->digest_bar, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->timeline_page),
                          self->run == NULL || self->run->digest == NULL);
  if (self->run == NULL || self->run->digest == NULL)
    return;
  warnings = self->run->prov.warnings;
  for (guint i = 0; i < warnings->len && i < BAR_MAX_LINES; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "\n" : "",
                            (const char *) g_ptr_array_index (warnings, i));
  if (warnings->len > BAR_MAX_LINES)
    g_string_append_printf (
      text, g_dngettext (GETTEXT_PACKAGE, "\n%u more", "\n%u more", warnings->len - BAR_MAX_LINES),
      warnings->len - BAR_MAX_LINES);
  if (text->len > 0)
    show_bar (self, text->str, FALSE);
}

typedef struct
{
  guint32 pid;
  gint64 start;
  gint64 end;
} StepData;

/* The export's window is loaded: its timeline at the step clicked. */
static void
export_loaded_cb (WsWindow *window, gboolean ok, gpointer data)
{
  StepData *step = data;

  g_signal_handlers_disconnect_by_func (window, export_loaded_cb, data);
  if (ok && step->end > step->start)
    {
      gtk_stack_set_visible_child_name (window->view_stack, "timeline");
      ws_timeline_page_show_rank_step (window->timeline_page, step->pid, step->start, step->end);
    }
  g_free (step);
}

typedef struct
{
  WsWindow *window;
  WsRun *run;
  const WsDigestRank *rank; /* owned by run->digest */
  char *path;
  guint step;
} OpenData;

static void
open_data_free (gpointer data)
{
  OpenData *open = data;

  g_object_unref (open->window);
  ws_run_unref (open->run);
  g_free (open->path);
  g_free (open);
}

/* On a worker: reading the first MiB to compare checksums may take a
 * while on a cluster's file system. */
static void
check_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  OpenData *open = task_data;

  g_task_return_pointer (task,
                         ws_digest_loader_check_export (
                           open->rank, open->path, WS_DIGEST_CHECK_STAT | WS_DIGEST_CHECK_CHECKSUM),
                         g_free);
}

static void
checked_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  OpenData *open = g_task_get_task_data (G_TASK (result));
  g_autofree char *change = g_task_propagate_pointer (G_TASK (result), NULL);
  WsWindow *self = open->window;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  const char *paths[] = { open->path, NULL };
  const WsRankStep *step = ws_rank_figures_find_step (open->rank->figures, open->step);
  StepData *at = g_new0 (StepData, 1);
  WsWindow *window;

  if (change != NULL)
    {
      /* TRANSLATORS: what changed in an export, then that it opens anyway */
      g_autofree char *text = g_strdup_printf (_ ("%s. It opens as it is now."), change);

      show_bar (self, text, FALSE);
    }
  window = ws_window_new (app);
  at->pid = open->rank->rank.file_pid;
  if (step != NULL)
    {
      at->start = step->start;
      at->end = step->end;
    }
  g_signal_connect (window, "load-finished", G_CALLBACK (export_loaded_cb), at);
  ws_window_load (window, paths);
  gtk_window_present (GTK_WINDOW (window));
}

/* Opens rank @number's export, or says where it was. */
static void
open_rank (WsWindow *self, guint number, guint step)
{
  const WsDigest *digest = self->run->digest;
  const WsDigestRank *rank = ws_digest_find_rank (digest, number);
  g_autofree char *path = NULL;
  g_autofree char *refused = NULL;
  OpenData *open;
  GTask *task;

  if (rank == NULL)
    return;
  path = ws_digest_export_find (digest, rank, self->digest_folder, &refused);
  if (path == NULL && refused != NULL)
    {
      self->digest_pending = TRUE;
      self->digest_pending_rank = number;
      self->digest_pending_step = step;
      show_bar (self, refused, TRUE);
      return;
    }
  if (path == NULL)
    {
      g_autofree char *text = g_strdup_printf (
        /* TRANSLATORS: a rank, where its export was, its path relative to the digest */
        _ ("Rank %u's export is not here: it was %s (%s from the digest's folder). Choose the "
           "folder that holds the job's exports now."),
        number, rank->path, rank->file);

      self->digest_pending = TRUE;
      self->digest_pending_rank = number;
      self->digest_pending_step = step;
      show_bar (self, text, TRUE);
      return;
    }
  self->digest_pending = FALSE;
  gtk_info_bar_set_revealed (self->digest_bar, FALSE);
  open = g_new0 (OpenData, 1);
  open->window = g_object_ref (self);
  open->run = ws_run_ref (self->run);
  open->rank = rank;
  open->path = g_steal_pointer (&path);
  open->step = step;
  task = g_task_new (NULL, NULL, checked_cb, NULL);
  g_task_set_source_tag (task, open_rank);
  g_task_set_task_data (task, open, open_data_free);
  g_task_run_in_thread (task, check_thread);
  g_object_unref (task);
}

/**
 * ws_window_open_digest_rank:
 * @index: the rank's place on the Ranks page
 * @step: the step clicked
 */
void
ws_window_open_digest_rank (WsWindow *self, guint index, guint step)
{
  g_return_if_fail (WS_IS_WINDOW (self));

  if (self->run == NULL || self->run->digest == NULL || self->run->ranks == NULL ||
      index >= ws_ranks_get_n (self->run->ranks))
    return;
  open_rank (self, ws_ranks_get (self->run->ranks, index)->rank, step);
}

/**
 * ws_window_set_digest_folder:
 * @folder: (nullable): where the job's exports are now
 *
 * Looks for a digest's exports in @folder first; a rank whose export could
 * not be found a moment ago is opened if it is there.
 */
void
ws_window_set_digest_folder (WsWindow *self, const char *folder)
{
  g_return_if_fail (WS_IS_WINDOW (self));

  g_free (self->digest_folder);
  self->digest_folder = g_strdup (folder);
  if (self->digest_pending && self->run != NULL && self->run->digest != NULL)
    open_rank (self, self->digest_pending_rank, self->digest_pending_step);
}

static void
folder_chosen_cb (GtkNativeDialog *dialog, int response, gpointer data)
{
  WsWindow *self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *folder = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));

      ws_window_set_digest_folder (self, folder);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

void
ws_window_digest_bar_response_cb (WsWindow *self, int response, GtkInfoBar *bar)
{
  GtkFileChooserNative *chooser;

  if (response != RESPONSE_CHOOSE_FOLDER)
    {
      gtk_info_bar_set_revealed (bar, FALSE);
      return;
    }
  chooser = gtk_file_chooser_native_new (_ ("The Folder of the Job's Exports"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _ ("_Choose"),
                                         _ ("_Cancel"));
  g_signal_connect (chooser, "response", G_CALLBACK (folder_chosen_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/**
 * ws_window_get_digest_message:
 *
 * Returns: (nullable): what the digest bar says, when it shows (for tests)
 */
const char *
ws_window_get_digest_message (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);

  return gtk_info_bar_get_revealed (self->digest_bar) ? gtk_label_get_text (self->digest_label)
                                                      : NULL;
}
