/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-lane-menu"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-lane-menu.h"

/* The context menu of a timeline lane: collapse or expand it, hide it,
 * show all lanes again. */

typedef struct
{
  WsTimelineView *view;
  guint32 lane;
} MenuTarget;

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
 * @event: the button press that asks for the menu
 *
 * Pops up the menu of @lane at the pointer, attached to @view; it is
 * destroyed when it closes.
 */
void
ws_lane_menu_popup (WsTimelineView *view, guint32 lane, const GdkEvent *event)
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
  g_object_set_data_full (G_OBJECT (menu), "target", target, g_free);

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
