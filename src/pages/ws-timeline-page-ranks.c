/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline-page"
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>

#include "ws-lanes-align.h"
#include "ws-ranks.h"
#include "ws-timeline-page-private.h"

/* A job's ranks on the timeline: each rank a collapsible group (open at
 * first in a job of up to WS_TIMELINE_OPEN_RANKS ranks, else collapsed,
 * its GPU activity in its header), the processes without GPU work
 * collapsed, the common clock or the ranks aligned on one step, and a
 * rank's step opened from the Ranks page (its group open, the other
 * ranks' closed). */

#define ALIGN_CLOCK "clock"

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* The processes that ran work on a GPU (a kernel, a memory operation or a
 * graph replay on one of their streams): ws_ranks_new_for_processes()'s
 * rule. */
static GHashTable *
gpu_pids (const WsRun *run)
{
  GHashTable *pids = g_hash_table_new (NULL, NULL);
  g_autofree gboolean *used = g_new0 (gboolean, run->streams->len + 1);
  const struct
  {
    gsize n;
    const guint32 *stream;
  } kinds[] = {
    { run->kernels.n, run->kernels.stream },
    { run->memops.n, run->memops.stream },
    { run->replays.n, run->replays.stream },
  };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (gsize i = 0; kinds[k].stream != NULL && i < kinds[k].n; i++)
      if (kinds[k].stream[i] < run->streams->len)
        used[kinds[k].stream[i]] = TRUE;
  for (guint s = 0; s < run->streams->len; s++)
    if (used[s])
      g_hash_table_add (pids, GUINT_TO_POINTER (g_array_index (run->streams, WsStream, s).pid + 1));
  return pids;
}

/* Which process groups start open: those of processes with GPU work (a
 * job's ranks, up to WS_TIMELINE_OPEN_RANKS of them); the others (a
 * launcher such as torchrun, helpers) start closed, as long as some
 * process ran GPU work.  GPU groups stay open. */
static void
open_groups (WsTimelinePage *self)
{
  g_autoptr (GHashTable) pids = gpu_pids (self->run);
  gboolean many_ranks =
    self->run->ranks != NULL && ws_ranks_get_n (self->run->ranks) > WS_TIMELINE_OPEN_RANKS;

  for (guint l = 0; l < ws_lanes_get_n_lanes (self->lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);
      guint8 flags = ws_timeline_view_get_lane_flags (self->timeline_view, l);
      gboolean gpu;

      if (lane->kind != WS_LANE_GROUP || lane->group_kind != WS_GROUP_PROCESS)
        continue;
      gpu = g_hash_table_contains (pids, GUINT_TO_POINTER (lane->pid + 1));
      if ((gpu && !(many_ranks && lane->rank >= 0)) || g_hash_table_size (pids) == 0)
        flags &= ~WS_LANE_FLAG_COLLAPSED;
      else
        flags |= WS_LANE_FLAG_COLLAPSED;
      ws_timeline_view_set_lane_flags (self->timeline_view, l, flags);
    }
}

/* Called once the lanes are shown: the process groups opened or closed
 * (open_groups()) and a job's steps to align on offered. */
void
ws_timeline_page_setup_ranks (WsTimelinePage *self)
{
  const WsRanks *ranks = self->run != NULL ? self->run->ranks : NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) steps = g_array_new (FALSE, FALSE, sizeof (guint));

  if (self->run != NULL && self->lanes != NULL)
    open_groups (self);
  g_signal_handlers_block_by_func (self->align_combo, ws_timeline_page_align_changed_cb, self);
  gtk_combo_box_text_remove_all (self->align_combo);
  if (ranks == NULL || ws_ranks_get_n (ranks) < 2 || self->lanes == NULL)
    {
      gtk_widget_hide (GTK_WIDGET (self->align_combo));
      g_signal_handlers_unblock_by_func (self->align_combo, ws_timeline_page_align_changed_cb,
                                         self);
      return;
    }
  gtk_combo_box_text_append (self->align_combo, ALIGN_CLOCK, _ ("Ranks on one clock"));
  for (guint r = 0; r < ranks->figures->len; r++)
    {
      const WsRankFigures *f = g_ptr_array_index (ranks->figures, r);

      for (guint s = 0; f != NULL && s < f->steps->len; s++)
        {
          guint number = g_array_index (f->steps, WsRankStep, s).number;

          if (g_hash_table_add (seen, GUINT_TO_POINTER (number + 1)))
            g_array_append_val (steps, number);
        }
    }
  g_array_sort (steps, compare_u32);
  /* The combo's list stays short: a few hundred steps at most. */
  for (guint i = 0; i < MIN (steps->len, 500); i++)
    {
      guint number = g_array_index (steps, guint, i);
      g_autofree char *id = g_strdup_printf ("%u", number);
      /* TRANSLATORS: %u is a step's number */
      g_autofree char *label = g_strdup_printf (_ ("Ranks aligned on step %u"), number);

      gtk_combo_box_text_append (self->align_combo, id, label);
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->align_combo), ALIGN_CLOCK);
  gtk_widget_show (GTK_WIDGET (self->align_combo));
  g_signal_handlers_unblock_by_func (self->align_combo, ws_timeline_page_align_changed_cb, self);
}

void
ws_timeline_page_align_changed_cb (WsTimelinePage *self, GtkComboBox *combo)
{
  const char *id = gtk_combo_box_get_active_id (combo);
  g_autofree gint64 *shifts = NULL;
  gint64 reference = 0;

  if (self->lanes == NULL || id == NULL)
    return;
  if (!g_str_equal (id, ALIGN_CLOCK))
    shifts = ws_lanes_align_on_step (self->lanes, (guint) strtoul (id, NULL, 10), &reference);
  ws_timeline_view_set_lane_shifts (self->timeline_view, shifts);
  if (shifts != NULL)
    {
      const WsRanks *ranks = self->run->ranks;
      const WsRankFigures *f = NULL;
      const WsRankStep *step = NULL;

      /* Show the step, as long as it is on the first rank that has it. */
      for (guint r = 0; r < ranks->figures->len && step == NULL; r++)
        {
          f = g_ptr_array_index (ranks->figures, r);
          step = f != NULL ? ws_rank_figures_find_step (f, (guint) strtoul (id, NULL, 10)) : NULL;
        }
      if (step != NULL)
        {
          gint64 margin = MAX ((step->end - step->start) / 20, 1000);

          ws_time_window_zoom_to (ws_timeline_view_get_window (self->timeline_view),
                                  reference - margin,
                                  reference + (step->end - step->start) + margin);
        }
    }
}

/**
 * ws_timeline_page_show_rank_step:
 * @pid: the rank's process in the run
 * @start: ns: the step's start on the run's clock
 * @end: ns
 *
 * Opens a rank's group at one of its steps: the group expanded and
 * scrolled into view, the time zoomed to the step and marked on the ruler.
 */
void
ws_timeline_page_show_rank_step (WsTimelinePage *self, guint32 pid, gint64 start, gint64 end)
{
  WsTimelineView *view;
  guint32 group;
  gint64 shift, margin;

  g_return_if_fail (WS_IS_TIMELINE_PAGE (self));

  view = self->timeline_view;
  if (end <= start)
    return;
  /* A run just opened (a digest's rank): once its lanes are sorted. */
  if (self->lanes == NULL)
    {
      self->pending_step = TRUE;
      self->pending_pid = pid;
      self->pending_start = start;
      self->pending_end = end;
      return;
    }
  group = ws_lanes_align_rank_group (self->lanes, pid);
  shift = group != WS_LANE_NONE ? ws_timeline_view_get_lane_shift (view, group) : 0;
  margin = MAX ((end - start) / 20, 1000);
  ws_time_window_zoom_to (ws_timeline_view_get_window (view), start + shift - margin,
                          end + shift + margin);
  /* The side panel speaks of the rank while the range is its step. */
  self->rank_range = TRUE;
  self->rank_pid = pid;
  self->rank_start = start;
  self->rank_end = end;
  self->rank_shift = shift;
  ws_timeline_view_set_range (view, start + shift, end + shift);
  if (group == WS_LANE_NONE)
    return;
  /* The rank asked for open, the other ranks closed. */
  for (guint l = 0; l < ws_lanes_get_n_lanes (self->lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);
      guint8 flags = ws_timeline_view_get_lane_flags (view, l);

      if (l == group)
        ws_timeline_view_set_lane_flags (view, l, flags & ~WS_LANE_FLAG_COLLAPSED);
      else if (lane->kind == WS_LANE_GROUP && lane->rank >= 0)
        ws_timeline_view_set_lane_flags (view, l, flags | WS_LANE_FLAG_COLLAPSED);
    }
  ws_timeline_view_scroll_to_lane (view, group);
}
