/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "ws-what-if.h"
#include "ws-application.h"
#include "ws-flame-page.h"
#include "ws-flame-view.h"
#include "ws-stats.h"
#include "ws-test-gui.h"
#include "ws-test-load.h"
#include "ws-test-util.h"
#include "ws-timeline-input.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

#define PROBE "v2025.3_h100_probe.sqlite"

static WsApplication *app;

typedef struct
{
  WsWindow *window;
  WsTimelinePage *page;
  WsTimelineView *view;
  WsTimeWindow *time;
  const WsRun *run;
  double header;
  guint selected_signals;
  WsEventRef last_selected;
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
selected_cb (WsTimelineView *view, guint event, Fixture *f)
{
  f->selected_signals++;
  f->last_selected = event;
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  WsPalette palette;

  memset (f, 0, sizeof *f);
  f->window = ws_test_gui_open_and_load (path);
  g_action_group_activate_action (G_ACTION_GROUP (f->window), "show-page",
                                  g_variant_new_string ("timeline"));
  f->page = WS_TIMELINE_PAGE (ws_window_get_view (f->window, "timeline"));
  f->view = ws_timeline_page_get_view (f->page);
  ws_test_gui_iterate_until (ready, f);
  g_assert_cmpstr (ws_window_get_page (f->window), ==, "timeline");
  f->time = ws_timeline_view_get_window (f->view);
  f->run = ws_window_get_run (f->window);
  ws_palette_init_light (&palette);
  f->header =
    gtk_widget_get_allocated_width (GTK_WIDGET (f->view)) - ws_time_window_get_width (f->time);
  g_signal_connect (f->view, "event-selected", G_CALLBACK (selected_cb), f);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_signal_handlers_disconnect_by_data (f->view, f);
  gtk_widget_destroy (GTK_WIDGET (f->window));
  ws_test_gui_flush ();
}

/* ---- synthesized input ------------------------------------------------- */

static GdkEvent *
new_event (Fixture *f, GdkEventType type)
{
  GdkEvent *event = gdk_event_new (type);
  GdkSeat *seat = gdk_display_get_default_seat (gtk_widget_get_display (GTK_WIDGET (f->view)));

  event->any.window = g_object_ref (gtk_widget_get_window (GTK_WIDGET (f->view)));
  event->any.send_event = TRUE;
  gdk_event_set_device (event, gdk_seat_get_pointer (seat));
  return event;
}

static void
send (Fixture *f, GdkEvent *event)
{
  gtk_widget_event (GTK_WIDGET (f->view), event);
  gdk_event_free (event);
  ws_test_gui_flush ();
}

static void
button (Fixture *f, GdkEventType type, double x, double y)
{
  GdkEvent *event = new_event (f, type);

  event->button.x = x;
  event->button.y = y;
  event->button.button = GDK_BUTTON_PRIMARY;
  event->button.time = GDK_CURRENT_TIME;
  send (f, event);
}

static void
motion (Fixture *f, double x, double y, GdkModifierType state)
{
  GdkEvent *event = new_event (f, GDK_MOTION_NOTIFY);

  event->motion.x = x;
  event->motion.y = y;
  event->motion.state = state;
  event->motion.time = GDK_CURRENT_TIME;
  send (f, event);
}

static void
click (Fixture *f, double x, double y)
{
  motion (f, x, y, 0);
  button (f, GDK_BUTTON_PRESS, x, y);
  button (f, GDK_BUTTON_RELEASE, x, y);
}

static void
drag (Fixture *f, double x0, double y0, double x1, double y1)
{
  motion (f, x0, y0, 0);
  button (f, GDK_BUTTON_PRESS, x0, y0);
  motion (f, (x0 + x1) / 2, (y0 + y1) / 2, GDK_BUTTON1_MASK);
  motion (f, x1, y1, GDK_BUTTON1_MASK);
  button (f, GDK_BUTTON_RELEASE, x1, y1);
}

static void
key (Fixture *f, guint keyval)
{
  GdkEvent *event = new_event (f, GDK_KEY_PRESS);

  event->key.keyval = keyval;
  event->key.time = GDK_CURRENT_TIME;
  send (f, event);
}

static void
scroll (Fixture *f, double x, double y, GdkScrollDirection direction, GdkModifierType state)
{
  GdkEvent *event = new_event (f, GDK_SCROLL);

  event->scroll.x = x;
  event->scroll.y = y;
  event->scroll.direction = direction;
  event->scroll.state = state;
  event->scroll.time = GDK_CURRENT_TIME;
  send (f, event);
}

static gssize
range_named (const WsRun *run, const char *name)
{
  for (gsize r = 0; r < run->nvtx.n; r++)
    if (g_str_equal (ws_run_string (run, run->nvtx.name[r]), name))
      return (gssize) r;
  return -1;
}

/* A point inside the lanes, below the ruler, for zooming and dragging. */
static void
lanes_point (Fixture *f, double *x, double *y)
{
  cairo_rectangle_t rect;

  g_assert_true (ws_timeline_view_lane_rect (f->view, 9, &rect));
  *x = f->header + 300.5;
  *y = rect.y + rect.height / 2;
}

/* ---- tests ------------------------------------------------------------- */

/* Ctrl+wheel zooms at the pointer: the time under it stays under it. */
static void
test_wheel_zoom_keeps_point (Fixture *f, gconstpointer data)
{
  double x, y, before, span;

  lanes_point (f, &x, &y);
  before = ws_time_window_x_to_offset (f->time, x - f->header);
  span = ws_time_window_get_span (f->time);
  scroll (f, x, y, GDK_SCROLL_UP, GDK_CONTROL_MASK);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (f->time), span / 1.25, 1e-3);
  g_assert_cmpfloat_with_epsilon (ws_time_window_x_to_offset (f->time, x - f->header), before,
                                  1e-3);
  scroll (f, x, y, GDK_SCROLL_UP, GDK_CONTROL_MASK);
  scroll (f, x, y, GDK_SCROLL_DOWN, GDK_CONTROL_MASK);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (f->time), span / 1.25, 1e-3);
  g_assert_cmpfloat_with_epsilon (ws_time_window_x_to_offset (f->time, x - f->header), before,
                                  1e-3);
}

/* W/S zoom, A/D pan by 15 % of the view, Home/End go to the ends, 0 fits. */
static void
test_keys (Fixture *f, gconstpointer data)
{
  double span, start;

  ws_time_window_zoom_to (f->time, f->run->origin + 110000000, f->run->origin + 120000000);
  span = ws_time_window_get_span (f->time);
  start = ws_time_window_get_start (f->time);
  key (f, GDK_KEY_w);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (f->time), span / 1.5, 1e-3);
  key (f, GDK_KEY_s);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (f->time), span, 1e-3);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (f->time), start, 1e-3);
  key (f, GDK_KEY_d);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (f->time), start + 0.15 * span, 1e-3);
  key (f, GDK_KEY_a);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (f->time), start, 1e-3);
  key (f, GDK_KEY_End);
  /* The run and 2.5 % of it after its end (half the 5 % of "fit"). */
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_end (f->time),
                                  (double) (f->run->end_time - f->run->origin) * 1.025, 1);
  key (f, GDK_KEY_Home);
  g_assert_cmpfloat (ws_time_window_get_start (f->time), <, 0);
  key (f, GDK_KEY_0);
  g_assert_true (ws_time_window_is_fit (f->time));
}

/* A key pressed on the window, as the X server would deliver it: the
 * window's accelerators first, then the focus widget. */
static void
window_key (Fixture *f, guint keyval, GdkModifierType state)
{
  GtkWidget *top = GTK_WIDGET (f->window);
  GdkKeymap *keymap = gdk_keymap_get_for_display (gtk_widget_get_display (top));
  GdkEvent *event = gdk_event_new (GDK_KEY_PRESS);
  GdkSeat *seat = gdk_display_get_default_seat (gtk_widget_get_display (top));
  g_autofree GdkKeymapKey *keys = NULL;
  int n_keys = 0;

  g_assert_true (gdk_keymap_get_entries_for_keyval (keymap, keyval, &keys, &n_keys));
  event->key.window = g_object_ref (gtk_widget_get_window (top));
  event->key.send_event = TRUE;
  event->key.time = GDK_CURRENT_TIME;
  event->key.keyval = keyval;
  event->key.state = state;
  event->key.hardware_keycode = (guint16) keys[0].keycode;
  event->key.group = (guint8) keys[0].group;
  gdk_event_set_device (event, gdk_seat_get_keyboard (seat));
  gtk_main_do_event (event);
  gdk_event_free (event);
  ws_test_gui_flush ();
}

/* Ctrl+F with the focus on the lanes goes to the search entry, and what is
 * typed then is searched for, not taken as zoom keys (W zooms, S
 * unzooms). */
static void
test_ctrl_f_focuses_search (Fixture *f, gconstpointer data)
{
  GtkEntry *search = GTK_ENTRY (
    gtk_widget_get_template_child (GTK_WIDGET (f->page), WS_TYPE_TIMELINE_PAGE, "search_entry"));
  double span;

  gtk_window_present (GTK_WINDOW (f->window));
  gtk_widget_grab_focus (GTK_WIDGET (f->view));
  ws_test_gui_flush ();
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (f->view)));
  span = ws_time_window_get_span (f->time);
  window_key (f, GDK_KEY_f, GDK_CONTROL_MASK);
  g_test_message ("after Ctrl+F the focus is on %s",
                  G_OBJECT_TYPE_NAME (gtk_window_get_focus (GTK_WINDOW (f->window))));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (search)));
  window_key (f, GDK_KEY_w, 0);
  window_key (f, GDK_KEY_s, 0);
  g_assert_cmpstr (gtk_entry_get_text (search), ==, "ws");
  g_assert_cmpfloat (ws_time_window_get_span (f->time), ==, span);
}

/* The toolbar's time in view: clamped to the run (a fitted view reaches
 * 2.5% before its start, which printed "-0.590318 ms"), and only the
 * decimals a thousandth of the span needs (it printed ns: "7.368123120 s").
 * A view of 10 ms to 10.07 ms: a thousandth is 70 ns, 5 decimals of a ms,
 * and its length is printed as its ends are. */
static void
test_range_label (Fixture *f, gconstpointer data)
{
  GtkLabel *label = GTK_LABEL (
    gtk_widget_get_template_child (GTK_WIDGET (f->page), WS_TYPE_TIMELINE_PAGE, "range_label"));
  g_autoptr (GRegex) fit = g_regex_new ("^0\\.0+ ms – [0-9]+\\.[0-9]{1,3} ms \\(", 0, 0, NULL);

  ws_timeline_view_zoom_fit (f->view);
  ws_test_gui_flush ();
  g_test_message ("fit: %s", gtk_label_get_text (label));
  g_assert_true (g_regex_match (fit, gtk_label_get_text (label), 0, NULL));
  ws_time_window_zoom_to (f->time, f->run->origin + 10000000, f->run->origin + 10070000);
  ws_test_gui_flush ();
  g_test_message ("zoomed: %s", gtk_label_get_text (label));
  g_assert_cmpstr (gtk_label_get_text (label), ==, "10.00000 ms – 10.07000 ms (0.07000 ms)");
}

/* Dragging the lanes pans by the distance dragged, and selects nothing. */
static void
test_drag_pans (Fixture *f, gconstpointer data)
{
  double x, y, start, npp;

  ws_time_window_zoom_to (f->time, f->run->origin + 110000000, f->run->origin + 120000000);
  start = ws_time_window_get_start (f->time);
  npp = ws_time_window_get_ns_per_px (f->time);
  lanes_point (f, &x, &y);
  drag (f, x, y, x - 100, y);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (f->time), start + 100 * npp, 1e-3);
  g_assert_cmpuint (f->selected_signals, ==, 0);
  g_assert_cmpuint (ws_timeline_view_get_selected (f->view), ==, WS_EVENT_NONE);
}

/* Hovering a kernel names it, its launch's NVTX path, grid and block. */
static void
test_hover_tooltip (Fixture *f, gconstpointer data)
{
  gssize k = ws_test_kernel_by_correlation (f->run, 458);
  WsEventRef event = ws_event_ref (WS_EVENT_KERNEL, (gsize) k);
  cairo_rectangle_t rect;
  g_autofree char *markup = NULL;

  ws_time_window_zoom_to (f->time, 452306116, 453306116);
  g_assert_true (ws_timeline_view_event_rect (f->view, event, &rect));
  motion (f, rect.x + rect.width / 2, rect.y + rect.height / 2, 0);
  g_assert_cmpuint (ws_timeline_view_get_hover (f->view), ==, event);
  markup =
    ws_timeline_view_tooltip_markup (f->view, rect.x + rect.width / 2, rect.y + rect.height / 2);
  g_assert_nonnull (strstr (markup, "barrier_heavy(float *, int)"));
  /* Its launch (correlation 458) ran inside "compute" and the first
   * "barrier_heavy" range in it (test-nvtx-kernels has the SQL). */
  g_assert_nonnull (strstr (markup, "compute › barrier_heavy"));
  g_assert_nonnull (strstr (markup, "Grid"));
  g_assert_nonnull (strstr (markup, "453 µs (453,000 ns)"));

  /* Moving away from every event clears the hover. */
  motion (f, rect.x + rect.width / 2, 2, 0);
  g_assert_cmpuint (ws_timeline_view_get_hover (f->view), ==, WS_EVENT_NONE);
}

/* A click selects what is under it and shows its details; a click on
 * nothing clears the selection. */
static void
test_click_selects (Fixture *f, gconstpointer data)
{
  gssize k = ws_test_kernel_by_correlation (f->run, 458);
  WsEventRef event = ws_event_ref (WS_EVENT_KERNEL, (gsize) k);
  cairo_rectangle_t rect;

  ws_time_window_zoom_to (f->time, 452306116, 453306116);
  g_assert_true (ws_timeline_view_event_rect (f->view, event, &rect));
  click (f, rect.x + 100, rect.y + rect.height / 2);
  g_assert_cmpuint (ws_timeline_view_get_selected (f->view), ==, event);
  g_assert_cmpuint (f->selected_signals, ==, 1);
  g_assert_cmpuint (f->last_selected, ==, event);
  g_assert_cmpstr (ws_timeline_page_get_side_title (f->page), ==, "Selected");
  g_assert_nonnull (strstr (ws_timeline_page_get_details_text (f->page), "barrier_heavy"));
  g_assert_nonnull (strstr (ws_timeline_page_get_details_text (f->page), "Registers per thread"));

  /* A millisecond where the GPU and the CPU did nothing. */
  ws_time_window_zoom_to (f->time, 452306116 - 100000000, 452306116 - 99000000);
  click (f, f->header + 500, rect.y + rect.height / 2);
  g_assert_cmpuint (ws_timeline_view_get_selected (f->view), ==, WS_EVENT_NONE);
  g_assert_cmpuint (f->selected_signals, ==, 2);
}

/* Selecting "负载不均衡" highlights its 4 imbalanced kernels (one per
 * stream 13–16) and lists them: test-nvtx-kernels has the SQL. */
static void
test_nvtx_selection_projects (Fixture *f, gconstpointer data)
{
  gssize r = range_named (f->run, "负载不均衡");
  WsEventRef event = ws_event_ref (WS_EVENT_NVTX, (gsize) r);
  GtkTreeModel *model = ws_timeline_page_get_side_model (f->page);
  cairo_rectangle_t rect;
  GtkTreeIter iter;
  g_autofree char *name = NULL, *count = NULL;

  g_assert_cmpint (r, >=, 0);
  ws_time_window_zoom_to (f->time, f->run->nvtx.start[r] - 10000, f->run->nvtx.end[r] + 10000);
  g_assert_true (ws_timeline_view_event_rect (f->view, event, &rect));
  click (f, rect.x + 20, rect.y + rect.height / 2);
  g_assert_cmpuint (ws_timeline_view_get_selected (f->view), ==, event);
  g_assert_cmpuint (ws_timeline_view_get_nvtx_focus (f->view), ==, (gsize) r);
  g_assert_nonnull (
    strstr (ws_timeline_page_get_details_text (f->page), "Kernels launched inside  4"));
  /* Both answers: what it launched (nsys's projection, four launch calls)
   * and how long its process's GPU work ran during it. */
  g_assert_nonnull (strstr (ws_timeline_page_get_details_text (f->page),
                            "Launched from the range (nsys projection)  "));
  g_assert_nonnull (strstr (ws_timeline_page_get_details_text (f->page), ", 4 launch calls"));
  g_assert_nonnull (
    strstr (ws_timeline_page_get_details_text (f->page), "GPU busy during the range  "));

  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  gtk_tree_model_get (model, &iter, 0, &name, 2, &count, -1);
  /* Its display name: the function, without its parameters. */
  g_assert_cmpstr (name, ==, "imbalanced");
  g_assert_cmpstr (count, ==, "4");
  g_assert_false (gtk_tree_model_iter_next (model, &iter));
}

/* Dragging on the ruler selects a stretch of time and sums up its kernels
 * as ws_stats_compute_kernels_in() does. */
static void
test_ruler_range (Fixture *f, gconstpointer data)
{
  GtkTreeModel *model = ws_timeline_page_get_side_model (f->page);
  g_autoptr (WsSummary) summary = NULL;
  gint64 start, end, want_start, want_end;
  GtkTreeIter iter;
  guint rows = 0;
  double y = 60; /* in the ruler: below the overview */
  cairo_rectangle_t lane;

  ws_time_window_zoom_to (f->time, 451400000, 452700000);
  g_assert_true (ws_timeline_view_lane_rect (f->view, 0, &lane));
  y = lane.y - 8;
  want_start = ws_time_window_x_to_time (f->time, 100);
  want_end = ws_time_window_x_to_time (f->time, 600);
  drag (f, f->header + 100, y, f->header + 600, y);
  g_assert_true (ws_timeline_view_get_range (f->view, &start, &end));
  g_assert_cmpint (start, ==, want_start);
  g_assert_cmpint (end, ==, want_end);
  g_assert_true (g_str_has_prefix (ws_timeline_page_get_side_title (f->page), "From "));

  summary = ws_stats_compute_kernels_in (f->run, WS_NAME_DISPLAY, start, end);
  g_assert_cmpuint (summary->rows->len, >, 0);
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok;
       ok = gtk_tree_model_iter_next (model, &iter))
    {
      const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, rows);
      g_autofree char *name = NULL, *count = NULL;
      g_autofree char *want = g_strdup_printf ("%" G_GINT64_FORMAT, row->count);

      gtk_tree_model_get (model, &iter, 0, &name, 2, &count, -1);
      g_assert_cmpstr (name, ==, row->name);
      g_assert_cmpstr (count, ==, want);
      rows++;
    }
  g_assert_cmpuint (rows, ==, summary->rows->len);

  /* Zoom to selection shows exactly the range. */
  g_assert_true (ws_timeline_view_zoom_selection (f->view));
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (f->time),
                                  (double) (start - f->run->origin), 1e-3);
  /* A click on the ruler clears it. */
  click (f, f->header + 300, y);
  g_assert_false (ws_timeline_view_get_range (f->view, NULL, NULL));
}

/* Search by name: every instance counts; next and previous walk them. */
static void
test_search (Fixture *f, gconstpointer data)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  /* SQLite's LIKE ignores ASCII case, as the search does. */
  g_autofree char *sql = ws_test_sqlite_text (
    path, "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = "
          "k.demangledName JOIN StringIds s ON s.id = k.shortName WHERE d.value LIKE '%tiny%' OR "
          "s.value LIKE '%tiny%') + (SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE '%tiny%') + "
          "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds n ON n.id = "
          "r.nameId WHERE n.value LIKE '%tiny%')");
  WsEventRef first, second;

  g_assert_cmpuint (ws_timeline_view_set_search (f->view, "TINY"), ==,
                    g_ascii_strtoull (sql, NULL, 10));
  g_assert_cmpuint (ws_timeline_view_set_search (f->view, "TINY"), ==, 320);

  g_assert_true (ws_timeline_view_find (f->view, FALSE));
  first = ws_timeline_view_get_selected (f->view);
  g_assert_cmpint (ws_event_ref_kind (first), ==, WS_EVENT_KERNEL);
  g_assert_cmpstr (ws_run_kernel_name (f->run, ws_event_ref_index (first), WS_NAME_SHORT), ==,
                   "tiny");
  g_assert_true (ws_timeline_view_find (f->view, FALSE));
  second = ws_timeline_view_get_selected (f->view);
  g_assert_cmpint (ws_event_start (f->run, second), >, ws_event_start (f->run, first));
  /* Revealed: it is on screen. */
  {
    double x = ws_time_window_time_to_x (f->time, ws_event_start (f->run, second));

    g_assert_cmpfloat (x, >=, 0);
    g_assert_cmpfloat (x, <=, ws_time_window_get_width (f->time));
  }
  g_assert_true (ws_timeline_view_find (f->view, TRUE));
  g_assert_cmpuint (ws_timeline_view_get_selected (f->view), ==, first);

  g_assert_cmpuint (ws_timeline_view_set_search (f->view, "no such kernel"), ==, 0);
  g_assert_false (ws_timeline_view_find (f->view, FALSE));
}

/* Issue 40, item 9: the page opens with the focus on the lanes, not in the
 * search entry (first in the tab order), so W/A/S/D zoom and pan at once;
 * so does coming back to it from another page.  A click in the entry
 * (which focuses it) still types there. */
static void
test_opens_focus_on_lanes (Fixture *f, gconstpointer data)
{
  GtkWidget *search = GTK_WIDGET (
    gtk_widget_get_template_child (GTK_WIDGET (f->page), WS_TYPE_TIMELINE_PAGE, "search_entry"));
  double span;

  gtk_window_present (GTK_WINDOW (f->window));
  ws_test_gui_flush ();
  g_test_message ("on opening the focus is on %s",
                  G_OBJECT_TYPE_NAME (gtk_window_get_focus (GTK_WINDOW (f->window))));
  g_assert_false (gtk_widget_is_focus (search));
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (f->view)));
  span = ws_time_window_get_span (f->time);
  window_key (f, GDK_KEY_w, 0);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (f->time), span / 1.5, 1e-3);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (search)), ==, "");

  /* Away and back: the lanes again. */
  gtk_widget_grab_focus (search);
  g_action_group_activate_action (G_ACTION_GROUP (f->window), "show-page",
                                  g_variant_new_string ("kernels"));
  ws_test_gui_flush ();
  g_action_group_activate_action (G_ACTION_GROUP (f->window), "show-page",
                                  g_variant_new_string ("timeline"));
  ws_test_gui_flush ();
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (f->view)));

  /* Clicked, the entry takes the letters. */
  gtk_widget_grab_focus (search);
  span = ws_time_window_get_span (f->time);
  window_key (f, GDK_KEY_a, 0);
  window_key (f, GDK_KEY_d, 0);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (search)), ==, "ad");
  g_assert_cmpfloat (ws_time_window_get_span (f->time), ==, span);
}

static gboolean
match_label_set (gpointer data)
{
  return gtk_label_get_text (data)[0] != '\0';
}

static gboolean
match_label_empty (gpointer data)
{
  return gtk_label_get_text (data)[0] == '\0';
}

/* Issue 40, item 9: what is typed in the search entry is trimmed ("tiny "
 * finds the tiny kernels), and a match comes into view, selected, from a
 * view far from every match. */
static void
test_search_trims_and_reveals (Fixture *f, gconstpointer data)
{
  GtkEntry *search = GTK_ENTRY (
    gtk_widget_get_template_child (GTK_WIDGET (f->page), WS_TYPE_TIMELINE_PAGE, "search_entry"));
  GtkLabel *match = GTK_LABEL (
    gtk_widget_get_template_child (GTK_WIDGET (f->page), WS_TYPE_TIMELINE_PAGE, "match_label"));
  WsEventRef hit;
  double x0, x1;

  /* A microsecond at the very start of the run: no kernel runs there. */
  ws_time_window_zoom_to (f->time, f->run->origin, f->run->origin + 1000);
  gtk_entry_set_text (search, "  tiny ");
  ws_test_gui_iterate_until (match_label_set, match);
  g_assert_cmpstr (gtk_label_get_text (match), ==, "320 matches");
  hit = ws_timeline_view_get_selected (f->view);
  g_assert_cmpint (ws_event_ref_kind (hit), ==, WS_EVENT_KERNEL);
  g_assert_cmpstr (ws_run_kernel_name (f->run, ws_event_ref_index (hit), WS_NAME_SHORT), ==,
                   "tiny");
  x0 = ws_time_window_time_to_x (f->time, ws_event_start (f->run, hit));
  x1 = ws_time_window_time_to_x (f->time, ws_event_end (f->run, hit));
  g_test_message ("the hit is drawn from %.1f to %.1f px of %.0f", x0, x1,
                  ws_time_window_get_width (f->time));
  g_assert_cmpfloat (x0, >=, 0);
  g_assert_cmpfloat (x1, <=, ws_time_window_get_width (f->time));

  /* Only spaces: no search, nothing said. */
  gtk_entry_set_text (search, "   ");
  ws_test_gui_iterate_until (match_label_empty, match);
  g_assert_cmpuint (ws_timeline_view_set_search (f->view, " \t "), ==, 0);
}

static void
count_cb (WsTimelineView *view, guint *count)
{
  (*count)++;
}

/* A click on a lane's name collapses it to a strip; hiding removes it. */
static void
test_lanes_collapse_and_hide (Fixture *f, gconstpointer data)
{
  cairo_rectangle_t before, collapsed, next;
  guint lanes_changed = 0;
  gulong handler =
    g_signal_connect (f->view, "lanes-changed", G_CALLBACK (count_cb), &lanes_changed);

  g_assert_true (ws_timeline_view_lane_rect (f->view, 9, &before));
  click (f, 40, before.y + before.height / 2);
  g_assert_cmpuint (ws_timeline_view_get_lane_flags (f->view, 9), ==, WS_LANE_FLAG_COLLAPSED);
  g_assert_true (ws_timeline_view_lane_rect (f->view, 9, &collapsed));
  g_assert_cmpfloat (collapsed.height, <, before.height / 2);
  click (f, 40, collapsed.y + collapsed.height / 2);
  g_assert_cmpuint (ws_timeline_view_get_lane_flags (f->view, 9), ==, 0);

  ws_timeline_view_set_lane_flags (f->view, 9, WS_LANE_FLAG_HIDDEN);
  g_assert_false (ws_timeline_view_lane_rect (f->view, 9, &collapsed));
  g_assert_true (ws_timeline_view_lane_rect (f->view, 10, &next));
  g_assert_cmpfloat_with_epsilon (next.y, before.y, 1.5);
  g_action_group_activate_action (gtk_widget_get_action_group (GTK_WIDGET (f->page), "timeline"),
                                  "show-all-lanes", NULL);
  ws_test_gui_flush ();
  g_assert_cmpuint (ws_timeline_view_get_lane_flags (f->view, 9), ==, 0);
  g_assert_cmpuint (lanes_changed, ==, 4);
  g_signal_handler_disconnect (f->view, handler);
}

/* A right click at (@x, @y): the menu it pops up, if any. */
static GtkMenu *
context_menu (Fixture *f, double x, double y)
{
  GdkEvent *event = new_event (f, GDK_BUTTON_PRESS);
  GList *menus;

  event->button.x = x;
  event->button.y = y;
  event->button.button = GDK_BUTTON_SECONDARY;
  event->button.time = GDK_CURRENT_TIME;
  send (f, event);
  menus = gtk_menu_get_for_attach_widget (GTK_WIDGET (f->view));
  g_assert_cmpuint (g_list_length (menus), <=, 1);
  return menus != NULL ? GTK_MENU (menus->data) : NULL;
}

/* Activates the item of @menu labelled @label, then closes @menu. */
static void
activate_item (GtkMenu *menu, const char *label)
{
  g_autoptr (GList) items = gtk_container_get_children (GTK_CONTAINER (menu));
  gboolean found = FALSE;

  for (GList *l = items; l != NULL; l = l->next)
    if (!GTK_IS_SEPARATOR_MENU_ITEM (l->data) &&
        g_strcmp0 (gtk_menu_item_get_label (l->data), label) == 0)
      {
        gtk_menu_item_activate (l->data);
        found = TRUE;
      }
  g_assert_true (found);
  gtk_menu_shell_deactivate (GTK_MENU_SHELL (menu));
  ws_test_gui_flush ();
}

static void
what_if_asked (WsTimelineView *view, const char *change, char **out)
{
  g_free (*out);
  *out = g_strdup (change);
}

/* A right click on a kernel offers "what if it took half the time" and
 * "no time": the change names that kernel alone (ws_what_if_for_name), and
 * asking it is the view's what-if signal, which the window answers on the
 * Path page (test-critical-path-page). */
static void
test_event_what_if (Fixture *f, gconstpointer data)
{
  g_autofree char *asked = NULL;
  g_autofree char *half = NULL;
  cairo_rectangle_t rect;
  GtkMenu *menu;
  gsize k = f->run->kernels.n / 2;
  WsEventRef kernel = ws_event_ref (WS_EVENT_KERNEL, k);

  ws_time_window_zoom_to (f->time, f->run->kernels.start[k] - 1000, f->run->kernels.end[k] + 1000);
  ws_test_gui_flush ();
  g_assert_true (ws_timeline_view_event_rect (f->view, kernel, &rect));
  half =
    ws_what_if_for_name ("kernel", ws_run_kernel_name (f->run, k, WS_NAME_DEMANGLED), -1, "0.5x");
  g_signal_connect (f->view, "what-if", G_CALLBACK (what_if_asked), &asked);
  menu = context_menu (f, rect.x + rect.width / 2, rect.y + rect.height / 2);
  g_assert_nonnull (menu);
  activate_item (menu, "What if it took half the time");
  g_assert_cmpstr (asked, ==, half);
  g_signal_handlers_disconnect_by_func (f->view, what_if_asked, &asked);
}

/* A right click on a lane offers to collapse (then expand) it, to hide it
 * and to show all lanes again; elsewhere it offers nothing. */
static void
test_lane_menu (Fixture *f, gconstpointer data)
{
  cairo_rectangle_t rect;
  GtkMenu *menu;

  g_assert_true (ws_timeline_view_lane_rect (f->view, 9, &rect));
  menu = context_menu (f, 40, rect.y + rect.height / 2);
  g_assert_nonnull (menu);
  activate_item (menu, "_Collapse");
  g_assert_cmpuint (ws_timeline_view_get_lane_flags (f->view, 9), ==, WS_LANE_FLAG_COLLAPSED);
  /* Closing the menu destroys it. */
  g_assert_null (gtk_menu_get_for_attach_widget (GTK_WIDGET (f->view)));

  g_assert_true (ws_timeline_view_lane_rect (f->view, 9, &rect));
  activate_item (context_menu (f, 40, rect.y + rect.height / 2), "_Hide Lane");
  g_assert_cmpuint (ws_timeline_view_get_lane_flags (f->view, 9), ==,
                    WS_LANE_FLAG_COLLAPSED | WS_LANE_FLAG_HIDDEN);

  g_assert_true (ws_timeline_view_lane_rect (f->view, 10, &rect));
  menu = context_menu (f, f->header + 300.5, rect.y + rect.height / 2);
  activate_item (menu, "_Show All Lanes");
  g_assert_cmpuint (ws_timeline_view_get_lane_flags (f->view, 9), ==, 0);

  g_assert_true (ws_timeline_view_lane_rect (f->view, 9, &rect));
  activate_item (context_menu (f, 40, rect.y + rect.height / 2), "_Collapse");
  g_assert_true (ws_timeline_view_lane_rect (f->view, 9, &rect));
  activate_item (context_menu (f, 40, rect.y + rect.height / 2), "_Expand");
  g_assert_cmpuint (ws_timeline_view_get_lane_flags (f->view, 9), ==, 0);

  /* The ruler (below the overview, as test_ruler_range has it) is no lane. */
  g_assert_null (context_menu (f, f->header + 300.5, 60));
}

/* The keys the shortcuts window lists for a focused timeline do what it
 * says, Shift or not; the others (Ctrl+plus, F3…) are left to the window. */
static void
test_key_map_matches_shortcuts (void)
{
  /* Titles and keys as data/gtk/help-overlay.ui writes them. */
  static const struct
  {
    const char *title;
    WsTimelineKey keys[2];
  } documented[] = {
    { "Zoom in, zoom out (timeline focused)",
      { WS_TIMELINE_KEY_ZOOM_IN, WS_TIMELINE_KEY_ZOOM_OUT } },
    { "Pan left, right (timeline focused)",
      { WS_TIMELINE_KEY_PAN_LEFT, WS_TIMELINE_KEY_PAN_RIGHT } },
    { "Go to the start, the end", { WS_TIMELINE_KEY_HOME, WS_TIMELINE_KEY_END } },
    { "Zoom to the selection (timeline focused)", { WS_TIMELINE_KEY_ZOOM_SELECTION } },
    { "Show the whole run (timeline focused)", { WS_TIMELINE_KEY_ZOOM_FIT } },
    { "Clear the selection and the highlight", { WS_TIMELINE_KEY_CLEAR } },
  };
  g_autoptr (GtkBuilder) builder =
    gtk_builder_new_from_resource ("/org/warpscope/Warpscope/gtk/help-overlay.ui");
  g_autoptr (GSList) objects = gtk_builder_get_objects (builder);
  guint titles = 0, keys = 0, others = 0;

  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *accelerator = NULL;
      g_autofree char *title = NULL;
      g_auto (GStrv) accels = NULL;
      gssize row = -1;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      g_object_get (l->data, "accelerator", &accelerator, "title", &title, NULL);
      for (gsize i = 0; i < G_N_ELEMENTS (documented); i++)
        if (g_str_equal (title, documented[i].title))
          row = (gssize) i;
      titles += row >= 0;
      accels = g_strsplit (accelerator, " ", -1);
      for (guint k = 0; accels[k] != NULL; k++)
        {
          guint keyval;
          GdkModifierType mods;

          gtk_accelerator_parse (accels[k], &keyval, &mods);
          if (keyval == 0)
            continue;
          if (row < 0)
            {
              g_assert_cmpint (ws_timeline_input_key (keyval, mods), ==, WS_TIMELINE_KEY_NONE);
              others++;
              continue;
            }
          g_assert_cmpuint (k, <, G_N_ELEMENTS (documented[row].keys));
          g_assert_cmpint (documented[row].keys[k], !=, WS_TIMELINE_KEY_NONE);
          g_assert_cmpint (ws_timeline_input_key (keyval, mods), ==, documented[row].keys[k]);
          g_assert_cmpint (
            ws_timeline_input_key (gdk_keyval_to_upper (keyval), mods | GDK_SHIFT_MASK), ==,
            documented[row].keys[k]);
          keys++;
        }
    }
  g_assert_cmpuint (titles, ==, G_N_ELEMENTS (documented));
  /* w s a d Home End f 0 Escape */
  g_assert_cmpuint (keys, ==, 9);
  g_assert_cmpuint (others, >, 0);
  gtk_widget_destroy (GTK_WIDGET (gtk_builder_get_object (builder, "help_overlay")));
}

/* The page's actions drive the same window. */
static void
test_actions (Fixture *f, gconstpointer data)
{
  GActionGroup *group = gtk_widget_get_action_group (GTK_WIDGET (f->page), "timeline");
  double span = ws_time_window_get_span (f->time);

  g_assert_nonnull (group);
  g_action_group_activate_action (group, "zoom-in", NULL);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (f->time), span / 1.5, 1e-3);
  g_action_group_activate_action (group, "zoom-fit", NULL);
  g_assert_true (ws_time_window_is_fit (f->time));
}

typedef struct
{
  WsFlameView *view;
  WsFlameGraph *before;
} GraphWait;

static gboolean
graph_changed (gpointer data)
{
  GraphWait *w = data;
  WsFlameGraph *graph = ws_flame_view_get_graph (w->view);

  return graph != NULL && graph != w->before;
}

/* "Flame Graph of This Range": the probe's CPU samples (nsys sampling,
 * on the session clock) taken in a stretch chosen on the timeline make
 * the Flame graph page's graph: as many samples as SQL counts in that
 * stretch, from the first sample to the 25th. */
static void
test_flame_of_range (Fixture *f, gconstpointer data)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  static const char *const sampled = "FROM COMPOSITE_EVENTS e WHERE EXISTS (SELECT 1 FROM "
                                     "SAMPLING_CALLCHAINS c WHERE c.id = e.id)";
  g_autofree char *sql_from = g_strdup_printf ("SELECT min(e.start) %s", sampled);
  g_autofree char *sql_to =
    g_strdup_printf ("SELECT e.start %s ORDER BY e.start LIMIT 1 OFFSET 24", sampled);
  g_autofree char *from_text = ws_test_sqlite_text (path, sql_from);
  g_autofree char *to_text = ws_test_sqlite_text (path, sql_to);
  gint64 from = g_ascii_strtoll (from_text, NULL, 10), to = g_ascii_strtoll (to_text, NULL, 10);
  g_autofree char *sql_count = g_strdup_printf (
    "SELECT count(*) %s AND e.start >= %" G_GINT64_FORMAT " AND e.start < %" G_GINT64_FORMAT,
    sampled, from, to);
  g_autofree char *count_text = ws_test_sqlite_text (path, sql_count);
  GtkWidget *button = ws_timeline_page_get_flame_button (f->page);
  WsFlamePage *flame = WS_FLAME_PAGE (ws_window_get_view (f->window, "flame"));
  GraphWait wait = { WS_FLAME_VIEW (ws_flame_page_get_view (flame)), NULL };
  WsFlameGraph *graph;

  g_assert_cmpint (to, >, from);
  g_assert_false (gtk_widget_get_visible (button));
  ws_timeline_view_set_range (f->view, from, to);
  ws_test_gui_flush ();
  g_assert_true (gtk_widget_get_visible (button));

  wait.before = ws_flame_view_get_graph (wait.view);
  gtk_button_clicked (GTK_BUTTON (button));
  g_assert_cmpstr (ws_window_get_page (f->window), ==, "flame");
  g_assert_true (g_str_has_prefix (ws_flame_page_get_range_text (flame), "Samples from "));
  ws_test_gui_iterate_until (graph_changed, &wait);
  graph = ws_flame_view_get_graph (wait.view);
  g_assert_cmpfloat (graph->sample_unit, >, 0);
  g_assert_cmpint (llround (graph->total / graph->sample_unit), ==,
                   g_ascii_strtoll (count_text, NULL, 10));
  g_assert_cmpint (g_ascii_strtoll (count_text, NULL, 10), ==, 24);

  /* The whole profile again: all 50 samples. */
  wait.before = graph;
  ws_flame_page_set_range (flame, 0, 0);
  g_assert_null (ws_flame_page_get_range_text (flame));
  ws_test_gui_iterate_until (graph_changed, &wait);
  graph = ws_flame_view_get_graph (wait.view);
  g_assert_cmpint (llround (graph->total / graph->sample_unit), ==, 50);
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/timeline/zoom/wheel-keeps-point-under-pointer", test_wheel_zoom_keeps_point);
  ADD ("/timeline/navigation/keys", test_keys);
  ADD ("/timeline/search/ctrl-f-focuses-search", test_ctrl_f_focuses_search);
  ADD ("/timeline/toolbar/range-label-in-the-run-without-ns", test_range_label);
  ADD ("/timeline/navigation/drag-pans", test_drag_pans);
  ADD ("/timeline/hover/tooltip-names-kernel-and-nvtx-path", test_hover_tooltip);
  ADD ("/timeline/select/click-shows-details", test_click_selects);
  ADD ("/timeline/select/nvtx-range-highlights-its-kernels", test_nvtx_selection_projects);
  ADD ("/timeline/ruler/drag-sums-up-range", test_ruler_range);
  ADD ("/timeline/search/counts-and-walks-matches", test_search);
  ADD ("/timeline/search/trims-and-reveals-a-match", test_search_trims_and_reveals);
  ADD ("/timeline/focus/opens-on-lanes-not-search", test_opens_focus_on_lanes);
  ADD ("/timeline/lanes/collapse-and-hide", test_lanes_collapse_and_hide);
  ADD ("/timeline/lanes/menu-collapses-hides-shows-all", test_lane_menu);
  ADD ("/timeline/lanes/kernel-menu-asks-what-if", test_event_what_if);
  ADD ("/timeline/actions/zoom", test_actions);
  ADD ("/timeline/ruler/flame-graph-of-range", test_flame_of_range);
#undef ADD
  g_test_add_func ("/timeline/keys/match-shortcuts-window", test_key_map_matches_shortcuts);

  return ws_test_gui_run ();
}
