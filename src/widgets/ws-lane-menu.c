/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-lane-menu"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-lane-menu.h"
#include "ws-ranks.h"
#include "ws-what-if.h"

/* The context menu of a timeline lane: what if the kernel or range under
 * the pointer took half the time or none (the window answers on the Path
 * page), collapse or expand the lane, hide it, show all lanes again. */

typedef struct
{
  WsTimelineView *view;
  guint32 lane;
  char *half; /* the what-if changes of the event under the pointer, or NULL */
  char *none;
} MenuTarget;

static void
menu_target_free (MenuTarget *target)
{
  g_free (target->half);
  g_free (target->none);
  g_free (target);
}

static void
menu_half_cb (GtkMenuItem *item, MenuTarget *target)
{
  ws_timeline_view_ask_what_if (target->view, target->half);
}

static void
menu_none_cb (GtkMenuItem *item, MenuTarget *target)
{
  ws_timeline_view_ask_what_if (target->view, target->none);
}

/* A kernel's or NVTX range's what-if changes: its name, on its rank in a
 * job (docs/critical-path.md, "What-if"). */
static void
set_changes (MenuTarget *target, WsEventRef event)
{
  WsLanes *lanes = ws_timeline_view_get_lanes (target->view);
  const WsRun *run = lanes != NULL ? ws_lanes_get_run (lanes) : NULL;
  gsize i = ws_event_ref_index (event);
  const char *kind, *name;
  guint32 pid;
  gint rank = -1;

  if (run == NULL || event == WS_EVENT_NONE)
    return;
  if (ws_event_ref_kind (event) == WS_EVENT_KERNEL)
    {
      kind = "kernel";
      name = ws_run_kernel_name (run, i, WS_NAME_DEMANGLED);
      pid = ws_run_kernel_stream (run, i) != NULL ? ws_run_kernel_stream (run, i)->pid : 0;
    }
  else if (ws_event_ref_kind (event) == WS_EVENT_NVTX)
    {
      kind = "nvtx";
      name = ws_run_string (run, run->nvtx.name[i]);
      pid = ws_run_thread_pid (run, run->nvtx.thread[i]);
    }
  else
    return;
  if (name == NULL || *name == '\0')
    return;
  if (run->ranks != NULL && ws_ranks_get_n (run->ranks) > 1 &&
      ws_ranks_index_of_pid (run->ranks, pid) >= 0)
    rank = (gint) ws_ranks_get (run->ranks, (guint) ws_ranks_index_of_pid (run->ranks, pid))->rank;
  target->half = ws_what_if_for_name (kind, name, rank, "0.5x");
  target->none = ws_what_if_for_name (kind, name, rank, "0x");
}

static void
menu_collapse_cb (GtkMenuItem *item, MenuTarget *target)
{
  ws_timeline_view_toggle_collapsed (target->view, target->lane);
}

static void
menu_hide_cb (GtkMenuItem *item, MenuTarget *target)
{
  ws_timeline_view_set_lane_flags (target->view, target->lane,
                                   ws_timeline_view_get_lane_flags (target->view, target->lane) |
                                     WS_LANE_FLAG_HIDDEN);
}

static void
menu_show_all_cb (GtkMenuItem *item, MenuTarget *target)
{
  ws_timeline_view_show_all_lanes (target->view);
}

/**
 * ws_lane_menu_popup:
 * @lane: the lane under the pointer
 * @target_event: the kernel or range under the pointer, or WS_EVENT_NONE:
 *   its "what if" items come first
 * @event: the button press that asks for the menu
 *
 * Pops up the menu of @lane at the pointer, attached to @view; it is
 * destroyed when it closes.
 */
void
ws_lane_menu_popup (WsTimelineView *view, guint32 lane, WsEventRef target_event,
                    const GdkEvent *event)
{
  GtkWidget *menu;
  MenuTarget *target;
  gboolean collapsed;
  GtkWidget *item;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (view));

  menu = gtk_menu_new ();
  target = g_new0 (MenuTarget, 1);
  collapsed = (ws_timeline_view_get_lane_flags (view, lane) & WS_LANE_FLAG_COLLAPSED) != 0;
  target->view = view;
  target->lane = lane;
  g_object_set_data_full (G_OBJECT (menu), "target", target, (GDestroyNotify) menu_target_free);
  set_changes (target, target_event);
  if (target->half != NULL)
    {
      item = gtk_menu_item_new_with_label (_ ("What if it took half the time"));
      gtk_widget_set_tooltip_text (item, target->half);
      g_signal_connect (item, "activate", G_CALLBACK (menu_half_cb), target);
      gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
      item = gtk_menu_item_new_with_label (_ ("What if it took no time"));
      gtk_widget_set_tooltip_text (item, target->none);
      g_signal_connect (item, "activate", G_CALLBACK (menu_none_cb), target);
      gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
      gtk_menu_shell_append (GTK_MENU_SHELL (menu), gtk_separator_menu_item_new ());
    }

  item = gtk_menu_item_new_with_mnemonic (collapsed ? _ ("_Expand") : _ ("_Collapse"));
  g_signal_connect (item, "activate", G_CALLBACK (menu_collapse_cb), target);
  gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
  item = gtk_menu_item_new_with_mnemonic (_ ("_Hide Lane"));
  g_signal_connect (item, "activate", G_CALLBACK (menu_hide_cb), target);
  gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
  gtk_menu_shell_append (GTK_MENU_SHELL (menu), gtk_separator_menu_item_new ());
  item = gtk_menu_item_new_with_mnemonic (_ ("_Show All Lanes"));
  g_signal_connect (item, "activate", G_CALLBACK (menu_show_all_cb), target);
  gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
  gtk_widget_show_all (menu);
  gtk_menu_attach_to_widget (GTK_MENU (menu), GTK_WIDGET (view), NULL);
  g_signal_connect (menu, "deactivate", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_menu_popup_at_pointer (GTK_MENU (menu), event);
}
