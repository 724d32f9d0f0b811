/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-window"
#include "config.h"

#include "ws-findings-setup.h"
#include "ws-rank-set.h"
#include "ws-window-private.h"

/* A run's steps and steady state: found on a worker once the run is
 * loaded, shown on the Steps page, and what the pages show when the
 * header's scope says "Steady state". */

/* The run the pages show: its steady state when the header says so. */
WsRun *
ws_window_shown_run (WsWindow *self)
{
  return self->show_steady && self->steady != NULL ? self->steady : self->run;
}

static void
show_run_on_pages (WsWindow *self)
{
  WsRun *run = ws_window_shown_run (self);

  ws_kernels_page_set_run (self->kernels_page, run);
  ws_summaries_page_set_run (self->summaries_page, run);
  ws_gauges_page_set_run (self->gauges_page, run);
  ws_timeline_page_set_run (self->timeline_page, run);
  ws_window_show_critical_path (self);
}

void
ws_window_scope_changed_cb (WsWindow *self, GtkComboBox *combo)
{
  gboolean steady = g_strcmp0 (gtk_combo_box_get_active_id (combo), "steady") == 0;

  if (steady == self->show_steady || self->run == NULL)
    return;
  self->show_steady = steady;
  show_run_on_pages (self);
}

typedef struct
{
  WsRun *run;
  WsSteps *steps;
  WsRun *steady;
  char *setup_line;
  gint straggler; /* the job's straggler (ws-rank-set.h), or -1 */
} StepsData;

static void
steps_data_free (StepsData *data)
{
  g_clear_pointer (&data->run, ws_run_unref);
  g_clear_pointer (&data->steps, ws_steps_unref);
  g_clear_pointer (&data->steady, ws_run_unref);
  g_free (data->setup_line);
  g_free (data);
}

static void
steps_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  StepsData *data = task_data;

  data->steps = ws_steps_compute (data->run, NULL);
  data->straggler = -1;
  if (data->run->ranks != NULL && data->steps->steps->len > 0)
    {
      /* The straggler the Ranks page names, marked on the Steps page. */
      g_autoptr (WsRankSet) set = ws_rank_set_new_for_run (data->run);

      if (set != NULL && set->straggler.index >= 0)
        data->straggler = (gint) set->straggler.rank;
    }
  if (ws_steps_has_steady_state (data->steps))
    {
      data->steady = ws_steps_steady_run (data->run, data->steps);
      data->setup_line = ws_findings_setup_line (data->run, data->steps);
    }
  g_task_return_boolean (task, TRUE);
}

static void
steps_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  WsWindow *self = WS_WINDOW (source);
  StepsData *data = g_task_get_task_data (G_TASK (result));

  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))) ||
      data->run != self->run)
    return;
  g_clear_object (&self->steps_cancellable);
  self->steps = g_steal_pointer (&data->steps);
  self->steady = g_steal_pointer (&data->steady);
  self->setup_line = g_steal_pointer (&data->setup_line);
  ws_steps_page_set_straggler (self->steps_page, data->straggler);
  ws_steps_page_set_steps (self->steps_page, self->run, self->steps);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scope_combo), self->steady != NULL);
  /* Set-up is not what a loop does: with steps, the checks look at the
   * steady state, whatever the pages show, and say what they left out. */
  ws_findings_page_set_scope (self->findings_page, self->setup_line);
  ws_findings_page_set_run (self->findings_page, self->steady != NULL ? self->steady : self->run);
  if (self->show_steady && self->steady != NULL)
    show_run_on_pages (self);
}

/* Finds the run's steps and its steady state on a worker thread. */
void
ws_window_find_steps (WsWindow *self)
{
  StepsData *data = g_new0 (StepsData, 1);
  g_autoptr (GTask) task = NULL;

  if (self->steps_cancellable != NULL)
    g_cancellable_cancel (self->steps_cancellable);
  g_clear_object (&self->steps_cancellable);
  self->steps_cancellable = g_cancellable_new ();
  g_clear_pointer (&self->steps, ws_steps_unref);
  g_clear_pointer (&self->steady, ws_run_unref);
  g_clear_pointer (&self->setup_line, g_free);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scope_combo), FALSE);
  data->run = ws_run_ref (self->run);
  task = g_task_new (self, self->steps_cancellable, steps_done, NULL);
  g_task_set_source_tag (task, ws_window_find_steps);
  g_task_set_task_data (task, data, (GDestroyNotify) steps_data_free);
  g_task_run_in_thread (task, steps_thread);
}

/**
 * ws_window_get_shown_run:
 *
 * Returns: (transfer none) (nullable): what the pages show: the run, or
 * its steady state when the header says so
 */
WsRun *
ws_window_get_shown_run (WsWindow *self)
{
  return ws_window_shown_run (self);
}

/* Whole run (FALSE) or steady state (TRUE), as the header's choice does. */
void
ws_window_set_steady (WsWindow *self, gboolean steady)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  gtk_combo_box_set_active_id (self->scope_combo, steady ? "steady" : "whole");
}

/* Whether the run's steps are known (and its steady state, where it has one). */
gboolean
ws_window_has_steps (WsWindow *self)
{
  return self->steps != NULL;
}
