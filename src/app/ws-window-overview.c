/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-window"
#include "config.h"

#include "ws-nsys-overview.h"
#include "ws-overview-chart.h"
#include "ws-widget-palette.h"
#include "ws-window-private.h"

/* The first frame of a big export (docs/first-frame.md).  Before the whole
 * load starts, a worker reads the overview of the kernel table from a
 * sample of its rows, a small share of one scan; the loading page draws
 * it (the run's span, every GPU lane's density, the biggest kernels)
 * above the load's progress until the run replaces it.  The load starts
 * when the overview is drawn, or is found not to apply: the two never
 * compete for the machine, and the first frame always comes first. */

/* The one file of self->paths the overview reads, or NULL. */
static const char *
overview_path (WsWindow *self)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInfo) info = NULL;

  if (self->paths == NULL || self->paths[0] == NULL || self->paths[1] != NULL ||
      !g_str_has_suffix (self->paths[0], ".sqlite"))
    return NULL;
  file = g_file_new_for_path (self->paths[0]);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info == NULL || g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR ||
      (guint64) g_file_info_get_size (info) < self->overview_min_size)
    return NULL;
  return self->paths[0];
}

static void
read_overview (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  WsOverview *overview = ws_nsys_overview_read (data, NULL, cancellable, &error);

  if (overview != NULL)
    g_task_return_pointer (task, overview, (GDestroyNotify) ws_overview_unref);
  else
    g_task_return_error (task, error);
}

static void
show_overview (WsWindow *self, WsOverview *overview)
{
  g_clear_pointer (&self->overview, ws_overview_unref);
  self->overview = ws_overview_ref (overview);
  gtk_widget_set_vexpand (self->loading_box, FALSE);
  gtk_widget_show (self->overview_area);
  gtk_widget_show (self->overview_note);
  gtk_widget_queue_draw (self->overview_area);
  g_signal_emit_by_name (self, "first-frame");
}

static void
overview_read (GObject *source, GAsyncResult *result, gpointer data)
{
  WsWindow *self = WS_WINDOW (source);
  g_autoptr (GCancellable) cancellable = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsOverview) overview = g_task_propagate_pointer (G_TASK (result), &error);

  /* A load that a later one replaced, or that closing the window cancelled. */
  if (cancellable != self->cancellable)
    return;
  /* Not an export the overview reads: the load says what the file is.
   * Cancelled: the load that follows stops at once and says so. */
  if (overview != NULL && (overview->rows > 0 || overview->replays > 0) &&
      !g_cancellable_is_cancelled (cancellable))
    show_overview (self, overview);
  else if (error != NULL)
    g_debug ("no first frame: %s", error->message);
  ws_window_start_load (self);
}

/**
 * ws_window_load_overview_first:
 *
 * Starts reading the overview of self->paths when it is one nsys export
 * big enough to need one; the load follows when it is read.
 *
 * Returns: %TRUE when it started; %FALSE when the caller loads at once
 */
gboolean
ws_window_load_overview_first (WsWindow *self)
{
  const char *path = overview_path (self);
  g_autoptr (GTask) task = NULL;

  if (path == NULL)
    return FALSE;
  task = g_task_new (self, self->cancellable, overview_read, g_object_ref (self->cancellable));
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, read_overview);
  return TRUE;
}

/* The loading page without a first frame: a run replaced it, or a new
 * load starts. */
void
ws_window_clear_overview (WsWindow *self)
{
  g_clear_pointer (&self->overview, ws_overview_unref);
  gtk_widget_hide (self->overview_area);
  gtk_widget_hide (self->overview_note);
  gtk_widget_set_vexpand (self->loading_box, TRUE);
}

gboolean
ws_window_overview_draw_cb (WsWindow *self, cairo_t *cr, GtkWidget *area)
{
  WsPalette palette;

  ws_widget_palette (area, &palette);
  ws_overview_chart_draw (cr, gtk_widget_get_allocated_width (area),
                          gtk_widget_get_allocated_height (area), self->overview, &palette);
  return TRUE;
}

/* Exports from @bytes on get a first frame (tests open small ones). */
void
ws_window_set_overview_min_size (WsWindow *self, guint64 bytes)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  self->overview_min_size = bytes;
}

/**
 * ws_window_get_overview:
 *
 * Returns: (transfer none) (nullable): the first frame shown while the
 * run loads, or %NULL
 */
const WsOverview *
ws_window_get_overview (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->overview;
}
