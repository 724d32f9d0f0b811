/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "ws-application.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

/* CUDA graph replays in the window's Timeline (issue 39), on issue 39's
 * H200 captures: hovering one says what it is, clicking selects it and
 * shows it, the search finds and walks them, and selecting a replay of a
 * node trace highlights its kernels. */

static WsApplication *app;
static char *unpacked;

typedef struct
{
  WsWindow *window;
  WsTimelinePage *page;
  WsTimelineView *view;
  WsTimeWindow *time;
  const WsRun *run;
} Fixture;

static gboolean
ready (gpointer data)
{
  Fixture *f = data;

  return ws_timeline_page_is_ready (f->page) && ws_timeline_page_has_projection (f->page) &&
         gtk_widget_get_allocated_width (GTK_WIDGET (f->view)) > 600 &&
         gtk_widget_get_window (GTK_WIDGET (f->view)) != NULL;
}

static void
fixture_open (Fixture *f, const char *mode)
{
  g_autofree char *path =
    g_build_filename (unpacked, mode, "decode_graph", "nsys", "decode_graph.sqlite", NULL);

  f->window = ws_test_gui_open_and_load (path);
  g_action_group_activate_action (G_ACTION_GROUP (f->window), "show-page",
                                  g_variant_new_string ("timeline"));
  f->page = WS_TIMELINE_PAGE (ws_window_get_view (f->window, "timeline"));
  f->view = ws_timeline_page_get_view (f->page);
  ws_test_gui_iterate_until (ready, f);
  f->time = ws_timeline_view_get_window (f->view);
  f->run = ws_window_get_run (f->window);
}

static void
fixture_close (Fixture *f)
{
  gtk_widget_destroy (GTK_WIDGET (f->window));
  ws_test_gui_flush ();
}

static void
assert_contains (const char *text, const char *part)
{
  if (text == NULL || strstr (text, part) == NULL)
    g_error ("“%s” not in “%s”", part, text);
}

/* Clicks at (@x, @y) of the view. */
static void
click (Fixture *f, double x, double y)
{
  GdkSeat *seat = gdk_display_get_default_seat (gtk_widget_get_display (GTK_WIDGET (f->view)));
  GdkEventType types[] = { GDK_BUTTON_PRESS, GDK_BUTTON_RELEASE };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      GdkEvent *event = gdk_event_new (types[i]);

      event->any.window = g_object_ref (gtk_widget_get_window (GTK_WIDGET (f->view)));
      event->any.send_event = TRUE;
      gdk_event_set_device (event, gdk_seat_get_pointer (seat));
      event->button.x = x;
      event->button.y = y;
      event->button.button = GDK_BUTTON_PRIMARY;
      event->button.time = GDK_CURRENT_TIME;
      gtk_widget_event (GTK_WIDGET (f->view), event);
      gdk_event_free (event);
      ws_test_gui_flush ();
    }
}

/* A graph-level trace: the first replay's tooltip and details name its
 * graph, say that its kernels were not recorded and where it was
 * launched; the search for "CUDA graph" finds the 40 replays (SQL:
 * count(*) of CUPTI_ACTIVITY_KIND_GRAPH_TRACE) and walks them in order. */
static void
test_graph_trace (void)
{
  Fixture f = { 0 };
  g_autofree char *path = NULL;
  WsEventRef event = ws_event_ref (WS_EVENT_REPLAY, 0);
  cairo_rectangle_t rect;
  g_autofree char *markup = NULL;
  gint64 replays;

  fixture_open (&f, "graph");
  path = g_build_filename (unpacked, "graph", "decode_graph", "nsys", "decode_graph.sqlite", NULL);
  replays = ws_test_sqlite_count (path, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
  g_assert_cmpint (replays, ==, 40);
  g_assert_cmpuint (f.run->replays.n, ==, replays);

  ws_time_window_zoom_to (f.time, f.run->replays.start[0] - 20000, f.run->replays.end[0] + 20000);
  g_assert_true (ws_timeline_view_event_rect (f.view, event, &rect));
  markup =
    ws_timeline_view_tooltip_markup (f.view, rect.x + rect.width / 2, rect.y + rect.height / 2);
  assert_contains (markup, "<b>CUDA graph 2</b>");
  assert_contains (markup, "kernels not recorded (graph-level trace)");
  assert_contains (markup, "forward");

  click (&f, rect.x + rect.width / 2, rect.y + rect.height / 2);
  g_assert_cmpuint (ws_timeline_view_get_selected (f.view), ==, event);
  /* Its kernels are not drawn: nothing to highlight. */
  g_assert_cmpuint (ws_timeline_view_get_replay_focus (f.view), ==, G_MAXSIZE);
  assert_contains (ws_timeline_page_get_details_text (f.page), "CUDA graph replay");
  assert_contains (ws_timeline_page_get_details_text (f.page), "Launched in NVTX");

  g_assert_cmpuint (ws_timeline_view_set_search (f.view, "CUDA graph"), ==, replays);
  for (gint64 n = 1; n <= replays; n++)
    {
      g_assert_true (ws_timeline_view_find (f.view, FALSE));
      g_assert_cmpuint (ws_timeline_view_get_selected (f.view), ==,
                        ws_event_ref (WS_EVENT_REPLAY, n % replays));
    }
  fixture_close (&f);
}

/* A node trace: a click on the band over stream 7's kernels selects that
 * replay and highlights its kernels; a click on one of those kernels
 * selects the kernel, which says whose replay it ran in. */
static void
test_node_trace (void)
{
  Fixture f = { 0 };
  WsEventRef event = ws_event_ref (WS_EVENT_REPLAY, 3);
  cairo_rectangle_t band;
  WsEventRef kernel;

  fixture_open (&f, "node");
  g_assert_cmpuint (f.run->replays.nodes[3], ==, 91);
  ws_time_window_zoom_to (f.time, f.run->replays.start[3] - 20000, f.run->replays.end[3] + 20000);
  g_assert_true (ws_timeline_view_event_rect (f.view, event, &band));
  click (&f, band.x + band.width / 2, band.y + band.height / 2);
  g_assert_cmpuint (ws_timeline_view_get_selected (f.view), ==, event);
  g_assert_cmpuint (ws_timeline_view_get_replay_focus (f.view), ==, 3);
  assert_contains (ws_timeline_page_get_details_text (f.page), "91 kernels and memory operations");

  /* Below the band: a kernel of the replay. */
  click (&f, band.x + band.width / 2, band.y + band.height + 8);
  kernel = ws_timeline_view_get_selected (f.view);
  g_assert_cmpuint (ws_event_ref_kind (kernel), ==, WS_EVENT_KERNEL);
  g_assert_cmpuint (f.run->kernels.replay[ws_event_ref_index (kernel)], ==, 3);
  g_assert_cmpuint (ws_timeline_view_get_replay_focus (f.view), ==, G_MAXSIZE);
  assert_contains (ws_timeline_page_get_details_text (f.page), "Ran in a replay of");
  fixture_close (&f);
}

int
main (int argc, char **argv)
{
  int status;

  app = ws_test_gui_init (&argc, &argv);
  unpacked = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  g_test_add_func ("/timeline/graph-replays/graph-trace-hover-click-search", test_graph_trace);
  g_test_add_func ("/timeline/graph-replays/node-trace-band-selects-and-highlights",
                   test_node_trace);
  status = ws_test_gui_run ();
  ws_test_rmtree (unpacked);
  g_free (unpacked);
  return status;
}
