/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-window"
#include "config.h"

#include "ws-timeline-path.h"
#include "ws-window-private.h"

/* A run's critical paths (docs/critical-path.md): found on a worker once
 * the run is loaded, shown on the Critical Path page, and the median
 * steady step's path drawn on the Timeline while it shows the whole run. */

typedef struct
{
  WsRun *run;
  WsCriticalPath *cp;
} CriticalData;

static void
critical_data_free (CriticalData *data)
{
  g_clear_pointer (&data->run, ws_run_unref);
  g_clear_pointer (&data->cp, ws_critical_path_free);
  g_free (data);
}

static void
critical_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  CriticalData *data = task_data;

  if (data->run->api.n > 0 && data->run->kernels.n > 0)
    data->cp = ws_critical_path_new (data->run, cancellable);
  g_task_return_boolean (task, TRUE);
}

/* The median steady step's path on the Timeline, when it shows the run
 * the path was found in (not a steady-state copy, whose events differ). */
void
ws_window_show_critical_path (WsWindow *self)
{
  const WsCriticalPath *cp = ws_critical_path_page_get_path (self->critical_page);

  if (cp == NULL || cp->median < 0 || ws_window_shown_run (self) != self->run)
    return;
  ws_timeline_page_set_path (self->timeline_page, ws_timeline_path_new (cp, (guint) cp->median));
}

static void
critical_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  WsWindow *self = WS_WINDOW (source);
  CriticalData *data = g_task_get_task_data (G_TASK (result));

  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))) ||
      data->run != self->run)
    return;
  g_clear_object (&self->critical_cancellable);
  ws_critical_path_page_set_path (self->critical_page, self->run, g_steal_pointer (&data->cp));
  ws_window_show_critical_path (self);
}

/* Finds the run's critical paths on a worker thread. */
void
ws_window_find_critical_path (WsWindow *self)
{
  CriticalData *data = g_new0 (CriticalData, 1);
  g_autoptr (GTask) task = NULL;

  ws_window_cancel_critical_path (self);
  self->critical_cancellable = g_cancellable_new ();
  ws_critical_path_page_set_path (self->critical_page, NULL, NULL);
  data->run = ws_run_ref (self->run);
  task = g_task_new (self, self->critical_cancellable, critical_done, NULL);
  g_task_set_source_tag (task, ws_window_find_critical_path);
  g_task_set_task_data (task, data, (GDestroyNotify) critical_data_free);
  g_task_run_in_thread (task, critical_thread);
}

void
ws_window_cancel_critical_path (WsWindow *self)
{
  if (self->critical_cancellable != NULL)
    g_cancellable_cancel (self->critical_cancellable);
  g_clear_object (&self->critical_cancellable);
}

/* The rank a row speaks of: the rank of a rank's row, else the one with
 * the most of the path. */
static guint
row_rank (const WsCriticalPath *cp, int group, const char *name)
{
  guint best = 0;

  for (guint r = 0; r < cp->ranks->len; r++)
    {
      const WsCpItem *item = g_ptr_array_index (cp->ranks, r);

      if (group == WS_CP_ROW_RANK && g_strcmp0 (item->name, name) == 0)
        return r;
      if (item->on_path > ((WsCpItem *) g_ptr_array_index (cp->ranks, best))->on_path)
        best = r;
    }
  return best;
}

/* A row of the Critical Path page: the median step and its path on the
 * Timeline, in a job at the rank the row speaks of. */
void
ws_window_critical_item_cb (WsWindow *self, int group, const char *name, WsCriticalPathPage *page)
{
  const WsCriticalPath *cp = ws_critical_path_page_get_path (page);
  const WsCpStep *st;
  gint64 shift, span;
  guint rank;

  if (cp == NULL || cp->median < 0)
    return;
  st = &g_array_index (cp->steps, WsCpStep, cp->median);
  rank = row_rank (cp, group, name);
  shift = cp->graph->shift[st->rank];
  span = st->end - st->start;
  ws_window_set_steady (self, FALSE);
  ws_window_show_critical_path (self);
  gtk_stack_set_visible_child_name (self->view_stack, "timeline");
  if (self->run->ranks != NULL && rank < ws_ranks_get_n (self->run->ranks) &&
      cp->graph->n_ranks > 1)
    ws_timeline_page_show_rank_step (self->timeline_page,
                                     ws_ranks_get (self->run->ranks, rank)->pid, st->start - shift,
                                     st->end - shift);
  else
    ws_timeline_page_show_time (self->timeline_page, st->start - shift - span / 20,
                                st->end - shift + span / 20);
}

/* A kernel's or range's context menu on the Timeline: the Path page
 * answers. */
void
ws_window_what_if_cb (WsWindow *self, const char *change, WsTimelinePage *page)
{
  gtk_stack_set_visible_child_name (self->view_stack, "path");
  ws_critical_path_page_predict (self->critical_page, change);
}
