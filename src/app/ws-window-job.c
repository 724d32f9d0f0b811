/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-window"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-compare-window.h"
#include "ws-ranks-loader.h"
#include "ws-run-derive.h"
#include "ws-run-slice.h"
#include "ws-stats.h"
#include "ws-window-private.h"

/* A window opening a job's ranks: the Ranks page shows every rank from the
 * first frame and fills in as each is read (in parallel, one progress,
 * one Cancel); the other pages follow once the ranks are merged. */

typedef struct
{
  WsWindow *window;
  GCancellable *cancellable; /* tells this load from a later one */
} JobData;

static void
job_data_free (JobData *job)
{
  g_object_unref (job->window);
  g_object_unref (job->cancellable);
  g_free (job);
}

static void
job_progress (double fraction, const char *what, gpointer data)
{
  WsWindow *self = data;
  /* TRANSLATORS: what is being done (Reading TABLE, Converting FILE…), then a percentage */
  g_autofree char *text = g_strdup_printf (_ ("%s — %.0f%%"), what, fraction * 100);

  ws_ranks_page_set_progress (self->ranks_page, fraction, text);
}

static void
job_rank (WsRanks *ranks, guint index, WsRankFigures *figures, gpointer data)
{
  WsWindow *self = data;

  if (index == G_MAXUINT)
    {
      ws_ranks_page_begin (self->ranks_page, ranks);
      ws_window_set_title_for (self);
      return;
    }
  ws_ranks_page_add_figures (self->ranks_page, index, figures);
}

static void
job_finished (GObject *source, GAsyncResult *result, gpointer data)
{
  JobData *job = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_ranks_loader_load_finish (result, &error);

  ws_window_show_loaded (job->window, job->cancellable, run, error);
  job_data_free (job);
}

/**
 * ws_window_load_job:
 * @paths: (array zero-terminated=1): the exports of a job's ranks, a
 *   folder or a glob of them
 *
 * Opens a job as one run of N ranks, on the Ranks page.
 */
void
ws_window_load_job (WsWindow *self, const char *const *paths)
{
  JobData *job = g_new0 (JobData, 1);

  g_clear_pointer (&self->run, ws_run_unref);
  ws_kernels_page_set_run (self->kernels_page, NULL);
  ws_summaries_page_set_run (self->summaries_page, NULL);
  ws_findings_page_set_run (self->findings_page, NULL);
  ws_gauges_page_set_run (self->gauges_page, NULL);
  ws_flame_page_set_run (self->flame_page, NULL);
  ws_timeline_page_set_run (self->timeline_page, NULL);
  ws_ranks_page_set_run (self->ranks_page, NULL);
  ws_window_set_title_for (self);
  gtk_widget_show (GTK_WIDGET (self->ranks_page));
  gtk_stack_set_visible_child_name (self->view_stack, "ranks");
  gtk_stack_set_visible_child_name (self->main_stack, "views");

  job->window = g_object_ref (self);
  job->cancellable = g_object_ref (self->cancellable);
  ws_ranks_loader_load_async (paths, WS_LOAD_ALL, self->cancellable, job_progress, job_rank,
                              g_object_ref (self), g_object_unref, job_finished, job);
}

/* A cell of the heatmap (or a rank's row): that rank's timeline at that
 * step, its group open. */
void
ws_window_step_activated_cb (WsWindow *self, guint index, guint step, WsRanksPage *page)
{
  WsRanks *ranks = self->run != NULL ? self->run->ranks : NULL;
  WsRankFigures *figures = ws_ranks_page_get_figures (page, index);
  const WsRankStep *found;

  /* A digest has no events: the rank's own export opens. */
  if (self->run != NULL && self->run->digest != NULL)
    {
      ws_window_open_digest_rank (self, index, step);
      return;
    }
  /* Until every rank is read, there is no timeline to open. */
  if (ranks == NULL || figures == NULL || index >= ws_ranks_get_n (ranks))
    return;
  found = ws_rank_figures_find_step (figures, step);
  if (found == NULL)
    return;
  gtk_stack_set_visible_child_name (self->view_stack, "timeline");
  ws_timeline_page_show_rank_step (self->timeline_page, ws_ranks_get (ranks, index)->pid,
                                   found->start + figures->offset, found->end + figures->offset);
}

typedef struct
{
  WsRun *run;
  guint32 pids[2];
} PeersData;

static void
peers_data_free (PeersData *data)
{
  ws_run_unref (data->run);
  g_free (data);
}

/* Each rank's events as a run of its own, with its summaries. */
static void
peers_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  PeersData *data = task_data;
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_run_unref);

  for (guint i = 0; i < 2; i++)
    {
      g_ptr_array_add (runs, ws_run_derive_pids (data->run, &data->pids[i], 1));
    }
  g_task_return_pointer (task, runs, (GDestroyNotify) g_ptr_array_unref);
}

static void
peers_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  WsWindow *self = WS_WINDOW (source);
  g_autoptr (GPtrArray) runs = g_task_propagate_pointer (G_TASK (result), NULL);
  const char *const *names = g_object_get_data (G_OBJECT (result), "names");
  WsCompareWindow *compare;

  if (runs == NULL)
    return;
  compare = ws_compare_window_new (gtk_window_get_application (GTK_WINDOW (self)));
  ws_compare_window_set_peers (compare, names[0], names[1]);
  ws_compare_window_set_runs (compare, g_ptr_array_index (runs, 0), g_ptr_array_index (runs, 1));
  gtk_window_present (GTK_WINDOW (compare));
}

/* Two ranks of the job side by side, as peers, in a comparison window. */
void
ws_window_compare_peers_cb (WsWindow *self, guint a, guint b, WsRanksPage *page)
{
  WsRanks *ranks = self->run != NULL ? self->run->ranks : NULL;
  PeersData *data;
  char **names;
  GTask *task;

  if (ranks == NULL || a >= ws_ranks_get_n (ranks) || b >= ws_ranks_get_n (ranks))
    return;
  data = g_new0 (PeersData, 1);
  data->run = ws_run_ref (self->run);
  data->pids[0] = ws_ranks_get (ranks, a)->pid;
  data->pids[1] = ws_ranks_get (ranks, b)->pid;
  names = g_new0 (char *, 3);
  /* TRANSLATORS: %u is a rank of a distributed job */
  names[0] = g_strdup_printf (_ ("rank %u"), ws_ranks_get (ranks, a)->rank);
  names[1] = g_strdup_printf (_ ("rank %u"), ws_ranks_get (ranks, b)->rank);
  task = g_task_new (self, NULL, peers_ready, NULL);
  g_task_set_source_tag (task, ws_window_compare_peers_cb);
  g_task_set_task_data (task, data, (GDestroyNotify) peers_data_free);
  g_object_set_data_full (G_OBJECT (task), "names", names, (GDestroyNotify) g_strfreev);
  g_task_run_in_thread (task, peers_thread);
  g_object_unref (task);
}
