/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Steps page and the header's choice of whole run or steady state, on
 * the GPT-2 capture (six "训练步 N" steps, step 0 2.6 s of set-up). */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "ws-findings-page.h"
#include "ws-findings.h"
#include "ws-palette.h"
#include "ws-steps-chart.h"
#include "ws-steps-page.h"
#include "ws-test-gui.h"
#include "ws-test-pixels.h"
#include "ws-test-util.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

static WsApplication *app;
static char *gpt2_tmp;
static char *gpt2_dir;

static gboolean
steps_known (gpointer window)
{
  return ws_window_has_steps (window) &&
         !ws_findings_page_is_busy (ws_window_get_findings_page (window));
}

static char *
cell (GtkTreeModel *model, int row, int column)
{
  GtkTreeIter iter;
  char *text = NULL;

  g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, row));
  gtk_tree_model_get (model, &iter, column, &text, -1);
  return text;
}

/* One row per step, warm-up marked; the chart's first bar (step 0, cut at
 * the top of the plot) is hatched, the second in the kernel colour. */
static void
test_steps_page (void)
{
  WsWindow *window = ws_test_gui_open_and_load (gpt2_dir);
  WsStepsPage *page;
  GtkTreeModel *model;
  g_autofree char *first = NULL, *second = NULL, *warm0 = NULL, *warm1 = NULL;

  ws_test_gui_iterate_until (steps_known, window);
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string ("steps"));
  g_assert_cmpstr (ws_window_get_page (window), ==, "steps");
  page = ws_window_get_steps_page (window);
  g_assert_false (ws_steps_page_is_empty (page));
  model = ws_steps_page_get_model (page);
  /* Six steps, then the steady medians (one row outside a job). */
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 7);
  first = cell (model, 0, 1);
  second = cell (model, 1, 1);
  warm0 = cell (model, 0, 9);
  warm1 = cell (model, 1, 9);
  g_assert_cmpstr (first, ==, "训练步 0");
  g_assert_cmpstr (second, ==, "训练步 1");
  g_assert_cmpstr (warm0, ==, "first");
  g_assert_cmpstr (warm1, ==, "");
  ws_test_gui_assert_drawing (GTK_WIDGET (window), "steps page");

  /* The chart as the widget draws it, at 1000 × 400: the bars' slots are
   * 154 px wide from x = 76; low in the plot, bar 1 is the kernel colour. */
  {
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 400);
    cairo_t *cr = cairo_create (surface);
    WsPalette palette;
    WsRun *run = ws_window_get_run (window);
    g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
    double slot = (1000.0 - 76 - 16) / 6;

    ws_palette_init_light (&palette);
    ws_steps_chart_draw (cr, 1000, 400, run, steps, NULL, &palette);
    cairo_surface_flush (surface);
    g_assert_true (
      ws_test_pixel_is_color (surface, (int) (76 + slot * 1.5), 400 - 44 - 10, palette.bar));
    g_assert_false (
      ws_test_pixel_is_color (surface, (int) (76 + slot * 0.5), 400 - 44 - 10, palette.bar));
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* The header's choice: the pages show the steady state (the events
 * launched in steps 1-5), the findings check it whatever the choice and
 * say what the set-up was. */
static void
test_steady_state_choice (void)
{
  WsWindow *window = ws_test_gui_open_and_load (gpt2_dir);
  WsFindingsPage *findings;
  WsRun *whole, *steady;
  const char *scope;

  ws_test_gui_iterate_until (steps_known, window);
  whole = ws_window_get_run (window);
  g_assert_true (ws_window_get_shown_run (window) == whole);

  findings = ws_window_get_findings_page (window);
  scope = ws_findings_page_get_scope (findings);
  g_assert_nonnull (scope);
  g_assert_true (g_str_has_prefix (scope, "Steady state: steps 1–5 of “训练步 N”"));
  /* Over steps 1-5 the GPU idles 17%: minor, where the set-up made it severe. */
  {
    WsFinding *idle = ws_findings_find (ws_findings_page_get_findings (findings), "gpu-idle");

    g_assert_nonnull (idle);
    g_assert_cmpint (idle->severity, ==, WS_SEVERITY_MINOR);
  }

  ws_window_set_steady (window, TRUE);
  steady = ws_window_get_shown_run (window);
  g_assert_true (steady != whole);
  g_assert_cmpuint (steady->kernels.n, <, whole->kernels.n);
  /* Five steps of 433 kernels launched (tests/analysis/test-steps.c checks them
   * against SQL), and those launched between them. */
  g_assert_cmpuint (steady->kernels.n, >=, 5 * 433);
  g_assert_true (ws_findings_page_get_run (findings) == steady);

  ws_window_set_steady (window, FALSE);
  g_assert_true (ws_window_get_shown_run (window) == whole);
  gtk_widget_destroy (GTK_WIDGET (window));
}

static gboolean
timeline_ready (gpointer page)
{
  return ws_timeline_page_is_ready (page) && ws_timeline_page_has_projection (page);
}

/* The row of @name in the range table, its cells by column. */
static gboolean
range_row (GtkTreeModel *model, const char *name, char **launched, char **busy, char **ranges)
{
  GtkTreeIter iter;

  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok;
       ok = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *text = NULL;

      gtk_tree_model_get (model, &iter, 0, &text, -1);
      if (g_strcmp0 (text, name) == 0)
        {
          gtk_tree_model_get (model, &iter, 1, launched, 2, busy, 3, ranges, -1);
          return TRUE;
        }
    }
  return FALSE;
}

/* The timeline's table of NVTX ranges: both figures per range.  Step 1
 * launched 26.4 ms of GPU work from its thread (nsys's Total Proj Time in
 * tests/data/captures/gpt2-truth) while its process's GPU was busy 18.3 ms
 * of it (18,250,694 ns: tests/analysis/test-steps.c, against SQL); grouped by
 * operator, "aten::addmm" holds its 192 op ranges (SQL: text LIKE
 * 'aten::addmm, %'). */
static void
test_range_table (void)
{
  WsWindow *window = ws_test_gui_open_and_load (gpt2_dir);
  WsTimelinePage *timeline = ws_window_get_timeline_page (window);
  GtkTreeModel *model;
  g_autofree char *launched = NULL, *busy = NULL, *ranges = NULL;
  g_autofree char *op_launched = NULL, *op_busy = NULL, *op_ranges = NULL;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string ("timeline"));
  ws_test_gui_iterate_until (timeline_ready, timeline);
  model = ws_timeline_page_get_side_model (timeline);
  g_assert_true (range_row (model, "训练步 1", &launched, &busy, &ranges));
  g_assert_cmpstr (launched, ==, "26.4 ms");
  g_assert_cmpstr (busy, ==, "18.3 ms");
  g_assert_cmpstr (ranges, ==, "1");
  g_assert_false (range_row (model, "aten::addmm", &op_launched, &op_busy, &op_ranges));

  ws_timeline_page_set_group_ops (timeline, TRUE);
  g_assert_true (range_row (model, "aten::addmm", &op_launched, &op_busy, &op_ranges));
  g_assert_cmpstr (op_ranges, ==, "192");
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* Alt+N as a user presses it: a key event sent to the window, with the
 * key's hardware code from the keymap (GTK finds accelerators by it). */
static void
press_alt (WsWindow *window, guint keyval)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (window));
  GdkEvent *event = gdk_event_new (GDK_KEY_PRESS);
  GdkSeat *seat = gdk_display_get_default_seat (display);
  g_autofree GdkKeymapKey *keys = NULL;
  int n_keys = 0;

  g_assert_true (gdk_keymap_get_entries_for_keyval (gdk_keymap_get_for_display (display), keyval,
                                                    &keys, &n_keys));
  g_assert_cmpint (n_keys, >, 0);
  event->key.hardware_keycode = (guint16) keys[0].keycode;
  event->key.group = (guint8) keys[0].group;

  event->any.window = g_object_ref (gtk_widget_get_window (GTK_WIDGET (window)));
  event->any.send_event = TRUE;
  gdk_event_set_device (event, gdk_seat_get_keyboard (seat));
  event->key.keyval = keyval;
  event->key.state = GDK_MOD1_MASK;
  event->key.time = GDK_CURRENT_TIME;
  gtk_widget_event (GTK_WIDGET (window), event);
  gdk_event_free (event);
  ws_test_gui_flush ();
}

/* Alt+1…9 show the pages in the order of the window's tabs, Alt+7 the
 * Steps page (Alt+8, Ranks, only for a job: its tab is hidden for one
 * process); the Keyboard Shortcuts window names them in that order. */
static void
test_alt_shortcuts (void)
{
  WsWindow *window = ws_test_gui_open_and_load (gpt2_dir);
  GtkWidget *stack = gtk_widget_get_parent (ws_window_get_view (window, "kernels"));
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (stack));
  g_autoptr (GBytes) overlay = g_resources_lookup_data (
    "/org/warpscope/Warpscope/gtk/help-overlay.ui", G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_autoptr (GString) titles = g_string_new (NULL);
  guint n = 0;

  ws_test_gui_iterate_until (steps_known, window);
  g_assert_true (GTK_IS_STACK (stack));
  /* Alt+9 first, so that each press below changes the page. */
  press_alt (window, GDK_KEY_9);
  g_assert_cmpstr (ws_window_get_page (window), ==, "capture");
  for (GList *l = children; l != NULL; l = l->next)
    {
      g_autofree char *name = NULL, *title = NULL;

      gtk_container_child_get (GTK_CONTAINER (stack), l->data, "name", &name, "title", &title,
                               NULL);
      /* Alt+1 … Alt+9, then Alt+0. */
      press_alt (window, n < 9 ? GDK_KEY_1 + n : GDK_KEY_0);
      g_test_message ("Alt+%u: %s", (n + 1) % 10, ws_window_get_page (window));
      if (gtk_widget_get_visible (l->data))
        g_assert_cmpstr (ws_window_get_page (window), ==, name);
      else
        g_assert_cmpstr (ws_window_get_page (window), !=, name);
      if (n < 9)
        g_string_append_printf (titles, "%s%s", n > 0 ? ", " : "", title);
      else
        g_assert_cmpstr (title, ==, "Path");
      n++;
    }
  g_assert_cmpuint (n, ==, 10);

  press_alt (window, GDK_KEY_7);
  g_assert_cmpstr (ws_window_get_page (window), ==, "steps");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (ws_window_get_steps_page (window))));
  ws_test_gui_assert_drawing (GTK_WIDGET (window), "steps page after Alt+7");

  g_assert_cmpstr (
    titles->str, ==,
    "Kernels, Timeline, Summaries, Gauges, Findings, Flame Graph, Steps, Ranks, Capture");
  g_assert_nonnull (strstr (g_bytes_get_data (overlay, NULL), titles->str));
  g_assert_nonnull (strstr (g_bytes_get_data (overlay, NULL), "&lt;Alt&gt;1...9"));
  g_assert_nonnull (strstr (g_bytes_get_data (overlay, NULL), "&lt;Alt&gt;0"));

  /* The eight tabs leave the window narrow enough for a 1366 px laptop
   * screen (with the theme's 100 px tabs it needed 1534 px). */
  {
    int min_width = 0;

    gtk_widget_get_preferred_width (GTK_WIDGET (window), &min_width, NULL);
    g_test_message ("minimum width %d px", min_width);
    g_assert_cmpint (min_width, <=, 1366);
  }
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* Issue 40, item 9: the lengths of cut bars are labelled only where they
 * do not overlap: four warm-up steps side by side printed
 * "2.322.312.312.31 s", and 25,000 steps a cluster of outliers' labels. */
static void
test_cut_lengths_spaced (void)
{
  double centers[] = { 10, 14, 18, 22, 100 };
  double widths[] = { 30, 30, 30, 30, 30 };
  gboolean keep[G_N_ELEMENTS (centers)];
  guint n = 25000;
  g_autofree double *many = g_new (double, n);
  g_autofree double *many_w = g_new (double, n);
  g_autofree gboolean *many_keep = g_new (gboolean, n);
  guint kept;
  double right = -1e9;

  g_assert_cmpuint (ws_steps_chart_space_labels (centers, widths, 5, 6, keep), ==, 2);
  g_assert_true (keep[0]);
  g_assert_false (keep[1] || keep[2] || keep[3]);
  g_assert_true (keep[4]);

  /* 25,000 steps over 1,000 px, every one cut: at most 1000 / 36 labels,
   * none over another. */
  for (guint i = 0; i < n; i++)
    {
      many[i] = 1000.0 * i / n;
      many_w[i] = 30;
    }
  kept = ws_steps_chart_space_labels (many, many_w, n, 6, many_keep);
  g_test_message ("%u of %u labels kept", kept, n);
  g_assert_cmpuint (kept, >, 20);
  g_assert_cmpuint (kept, <=, 1000 / 36 + 1);
  for (guint i = 0; i < n; i++)
    if (many_keep[i])
      {
        g_assert_cmpfloat (many[i] - 15, >=, right + 6);
        right = many[i] + 15;
      }
}

int
main (int argc, char **argv)
{
  int status;

  app = ws_test_gui_init (&argc, &argv);
  gpt2_dir = ws_test_unpack_gpt2 (&gpt2_tmp);
  g_test_add_func ("/steps-page/gpt2/rows-and-bars", test_steps_page);
  g_test_add_func ("/steps-page/chart/cut-lengths-do-not-overlap", test_cut_lengths_spaced);
  g_test_add_func ("/steps-page/gpt2/steady-state-choice", test_steady_state_choice);
  g_test_add_func ("/steps-page/gpt2/timeline-range-table", test_range_table);
  g_test_add_func ("/steps-page/gpt2/alt-shortcuts", test_alt_shortcuts);
  status = ws_test_gui_run ();
  ws_test_rmtree (gpt2_tmp);
  return status;
}
