/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every list of the window stays within X11's 32,767 px however many
 * items it has: rows that scroll by themselves, or a cap with "N more".
 * The inputs are real files grown in a temporary folder: an ncu export
 * whose launches are copied 3,000 times under 3,000 kernel names, a
 * targets file of 1,500 rows, the probe's export with a process per
 * CUDA API call (1,700 lanes) and a launch configuration per kernel, and
 * collapsed stacks 3,000 frames deep (the flame graph's rows). */
#include "config.h"

#include <gtk/gtk.h>
#include <sqlite3.h>
#include <string.h>

#include "ws-application.h"
#include "ws-bars-view.h"
#include "ws-capture-page.h"
#include "ws-compare-gauges-page.h"
#include "ws-compare-gauges.h"
#include "ws-flame-page.h"
#include "ws-flame-view.h"
#include "ws-ncu-results.h"
#include "ws-surface.h"
#include "ws-test-load.h"
#include "ws-gauges-overview.h"
#include "ws-gauges-page.h"
#include "ws-kernels-page.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

#define N_LAUNCHES 3000
#define N_TARGETS 1500
#define N_FRAMES 3000

static WsApplication *app;
static char *dir;

/* The bf16 ncu export's launches again and again, each under a kernel name
 * of its own ("k17 void at::…"), with IDs from 0. */
static char *
many_launches (void)
{
  g_autofree char *src = ws_test_data ("ncu", "h100_train_bf16_sections_raw.csv", NULL);
  g_autofree char *contents = ws_test_read (src);
  g_auto (GStrv) lines = g_strsplit (contents, "\n", -1);
  g_autoptr (GString) out = g_string_new (NULL);
  char *path = g_build_filename (dir, "many_ncu_raw.csv", NULL);
  guint n_data = 0, id = 0;

  g_string_append_printf (out, "%s\n%s\n", lines[0], lines[1]);
  for (guint i = 2; lines[i] != NULL; i++)
    n_data += lines[i][0] == '"';
  g_assert_cmpuint (n_data, >, 0);
  while (id < N_LAUNCHES)
    for (guint i = 2; lines[i] != NULL && id < N_LAUNCHES; i++)
      {
        const char *rest = lines[i], *name;

        if (rest[0] != '"')
          continue;
        /* "ID","Process ID","Process Name","Host Name","Kernel Name",… */
        rest = strstr (rest, "\",\"");
        name = rest;
        for (int field = 0; field < 3; field++)
          name = strstr (name + 3, "\",\"");
        g_string_append_printf (out, "\"%u", id);
        g_string_append_len (out, rest, name + 3 - rest);
        g_string_append_printf (out, "k%u %s\n", id, name + 3);
        id++;
      }
  g_assert_true (g_file_set_contents (path, out->str, (gssize) out->len, NULL));
  return path;
}

static void
sql (sqlite3 *db, const char *statement)
{
  char *message = NULL;

  if (sqlite3_exec (db, statement, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", statement, message);
}

/* The probe with each CUDA API call in a process of its own (a lane for
 * the process, one for its thread) and each kernel launched with a grid
 * of its own. */
static char *
many_threads (void)
{
  g_autofree char *src = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *contents = NULL;
  char *path = g_build_filename (dir, "many_threads.sqlite", NULL);
  gsize len;
  sqlite3 *db;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  sql (db,
       "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET globalTid = (globalTid & 16777215) | (rowid << 24)");
  sql (db, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET gridX = gridX + rowid");
  sqlite3_close (db);
  return path;
}

static char *
many_targets (void)
{
  g_autoptr (GString) out = g_string_new ("NAME\tCMD\tWORKDIR\tENVS\n");
  char *path = g_build_filename (dir, "targets.tsv", NULL);

  for (guint i = 0; i < N_TARGETS; i++)
    g_string_append_printf (out, "target_%04u\ttrue\t-\t-\n", i);
  g_assert_true (g_file_set_contents (path, out->str, (gssize) out->len, NULL));
  return path;
}

static gboolean
timeline_ready (gpointer page)
{
  return ws_timeline_page_is_ready (page) &&
         gtk_widget_get_mapped (GTK_WIDGET (ws_timeline_page_get_view (page)));
}

static void
show_page (WsWindow *window, const char *page)
{
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string (page));
  g_assert_cmpstr (ws_window_get_page (window), ==, page);
}

static guint
count_lines (const char *text, const char *part)
{
  guint n = 0;

  for (const char *p = strstr (text, part); p != NULL; p = strstr (p + 1, part))
    n++;
  return n;
}

static void
walk_threads (const char *export)
{
  WsWindow *window = ws_test_gui_open_and_load (export);
  GtkWidget *top = GTK_WIDGET (window);
  WsKernelsPage *kernels = WS_KERNELS_PAGE (ws_window_get_kernels_page (window));
  WsBarsView *bars = ws_kernels_page_get_bars_view (kernels);
  WsTimelinePage *timeline = WS_TIMELINE_PAGE (ws_window_get_view (window, "timeline"));
  const WsBarsModel *model = ws_bars_view_get_model (bars);
  GtkPopover *lanes;

  gtk_window_resize (GTK_WINDOW (window), 1600, 1000);
  ws_test_gui_assert_drawing (top, "threads: kernels");
  /* tiny(float *): 320 launches, now each with a grid of its own. */
  for (guint i = 0; i < model->bars->len; i++)
    if (g_str_has_prefix (ws_bars_model_get (model, i)->name, "tiny("))
      ws_bars_view_select (bars, (int) i);
  {
    g_autofree char *details = ws_kernels_page_get_details_text (kernels);

    g_assert_nonnull (strstr (details, "tiny(float *)"));
    /* 12 configurations listed, and the other 308 (one launch each) summed. */
    g_assert_cmpuint (count_lines (details, "×, "), ==, 13);
    g_assert_nonnull (strstr (details, "and 308 more configurations — 308×"));
  }
  ws_test_gui_assert_drawing (top, "threads: tiny's 320 launch configurations");

  show_page (window, "timeline");
  ws_test_gui_iterate_until (timeline_ready, timeline);
  g_assert_cmpuint (
    ws_lanes_get_n_lanes (ws_timeline_view_get_lanes (ws_timeline_page_get_view (timeline))), >,
    1500);
  lanes = GTK_POPOVER (
    gtk_widget_get_template_child (GTK_WIDGET (timeline), WS_TYPE_TIMELINE_PAGE, "lanes_popover"));
  gtk_popover_popup (lanes);
  ws_test_gui_iterate_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, lanes);
  ws_test_gui_assert_drawing (top, "threads: the lanes shown");
  gtk_popover_popdown (lanes);
  gtk_widget_destroy (top);
  ws_test_gui_flush ();
}

static void
walk_launches (const char *ncu)
{
  WsWindow *window = ws_test_gui_open_and_load (ncu);
  GtkWidget *top = GTK_WIDGET (window);
  WsGaugesPage *gauges = WS_GAUGES_PAGE (ws_window_get_view (window, "gauges"));
  WsGaugesView *overview = ws_gauges_page_get_overview (gauges);

  gtk_window_resize (GTK_WINDOW (window), 1600, 1000);
  show_page (window, "gauges");
  ws_test_gui_assert_drawing (top, "launches: gauges");
  g_assert_cmpuint (ws_gauges_overview_n_rows (ws_gauges_view_get_overview (overview)), ==,
                    N_LAUNCHES);
  g_assert_cmpint (gtk_widget_get_allocated_height (GTK_WIDGET (overview)), <=,
                   WS_TEST_X11_MAX_EXTENT / 2);
  gtk_widget_destroy (top);
  ws_test_gui_flush ();
}

/* A comparison of the launches with themselves, each its own kernel: the
 * comparison of two runs whose 3,000 kernels all were profiled. */
static WsComparison *
profiled_comparison (const char *ncu)
{
  const char *paths[] = { ncu, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  WsComparison *cmp = ws_comparison_new (run, run, WS_MATCH_DEMANGLED);

  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, N_LAUNCHES);
  for (guint i = 0; i < N_LAUNCHES; i++)
    {
      WsDelta d = { 0 };

      d.key = g_strdup (ws_ncu_results_launch (run->ncu, i)->kernel);
      d.name = g_strdup (d.key);
      d.before_total = d.after_total = 1000;
      d.before_count = d.after_count = 1;
      d.ratio = 1;
      d.before_launch = d.after_launch = (int) i;
      g_array_append_val (cmp->kernels, d);
    }
  cmp->n_profiled = N_LAUNCHES;
  return cmp;
}

static void
walk_comparison (const char *ncu)
{
  g_autoptr (WsComparison) cmp = profiled_comparison (ncu);
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  WsCompareGaugesPage *page = g_object_new (WS_TYPE_COMPARE_GAUGES_PAGE, NULL);
  GtkListBox *list = GTK_LIST_BOX (
    gtk_widget_get_template_child (GTK_WIDGET (page), WS_TYPE_COMPARE_GAUGES_PAGE, "list"));
  GtkWidget *last;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1, 1);
  cairo_t *cr = cairo_create (surface);
  WsPalette palette;

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  gtk_container_add (GTK_CONTAINER (window), GTK_WIDGET (page));
  gtk_widget_show_all (window);
  ws_compare_gauges_page_set_comparison (page, cmp);
  ws_test_gui_assert_drawing (window, "launches: comparison, gauges");
  /* 200 rows and the one that counts the other 2,800. */
  g_assert_cmpuint (ws_compare_gauges_page_get_n_kernels (page), ==, 200);
  last = GTK_WIDGET (gtk_list_box_get_row_at_index (list, 200));
  g_assert_nonnull (last);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_bin_get_child (GTK_BIN (last)))), ==,
                   "and 2800 more kernels profiled on both sides");
  /* The stacked drawing (export, warpscope-cli render) holds what a chart
   * may hold. */
  ws_palette_init_light (&palette);
  g_assert_cmpfloat (ws_compare_gauges_all_natural_height (cr, 1200, cmp, NULL, &palette), <=,
                     WS_CHART_MAX_HEIGHT);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  gtk_widget_destroy (window);
  ws_test_gui_flush ();
}

static void
walk_targets (const char *targets)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));
  g_autoptr (GError) error = NULL;
  WsCapturePage *page;

  gtk_window_present (GTK_WINDOW (window));
  gtk_window_resize (GTK_WINDOW (window), 1600, 1000);
  show_page (window, "capture");
  page = WS_CAPTURE_PAGE (ws_window_get_view (window, "capture"));
  g_assert_true (ws_capture_page_open (page, targets, &error));
  g_assert_no_error (error);
  ws_test_gui_assert_drawing (GTK_WIDGET (window), "targets: capture");
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_gui_flush ();
}

/* Collapsed stacks (py-spy's and FlameGraph's text): a short stack, then
 * one N_FRAMES deep, within the reader's 4,096 frames.  At 18 px a row the
 * deep one alone would make a flame graph 54,000 px tall. */
static char *
deep_stacks (void)
{
  g_autoptr (GString) text = g_string_new ("main;short 3\nmain");
  char *path = g_build_filename (dir, "deep.folded", NULL);

  for (guint i = 0; i < N_FRAMES; i++)
    g_string_append_printf (text, ";f%u", i);
  g_string_append (text, " 5\n");
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  return path;
}

static gboolean
has_graph (gpointer view)
{
  return ws_flame_view_get_graph (view) != NULL;
}

/* The deepest frame, found by following the first child down. */
static guint32
deepest_node (const WsFlameGraph *graph)
{
  guint32 node = 0;

  while (ws_flame_graph_node (graph, node)->first_child != WS_FLAME_NO_NODE)
    {
      guint32 deeper = node;

      for (guint32 c = ws_flame_graph_node (graph, node)->first_child; c != WS_FLAME_NO_NODE;
           c = ws_flame_graph_node (graph, c)->next_sibling)
        if (ws_flame_graph_node (graph, c)->first_child != WS_FLAME_NO_NODE || deeper == node)
          deeper = c;
      node = deeper;
    }
  return node;
}

static void
walk_deep_stacks (const char *folded)
{
  WsWindow *window = ws_test_gui_open_and_load (folded);
  GtkWidget *top = GTK_WIDGET (window);
  WsFlamePage *page = WS_FLAME_PAGE (ws_window_get_view (window, "flame"));
  WsFlameView *view = WS_FLAME_VIEW (ws_flame_page_get_view (page));
  WsFlameGraph *graph;

  gtk_window_resize (GTK_WINDOW (window), 1600, 1000);
  show_page (window, "flame");
  ws_test_gui_iterate_until (has_graph, view);
  graph = ws_flame_view_get_graph (view);
  g_assert_cmpuint (graph->max_depth, ==, N_FRAMES + 1);
  ws_test_gui_assert_drawing (top, "deep stacks: flame graph");
  g_assert_cmpint (gtk_widget_get_allocated_height (GTK_WIDGET (view)), <=, WS_CHART_MAX_HEIGHT);
  /* Zoomed into the deepest frame, it is drawn: the rows follow the zoom. */
  ws_flame_view_zoom (view, deepest_node (graph));
  ws_test_gui_assert_drawing (top, "deep stacks: the deepest frame");
  {
    int height = gtk_widget_get_allocated_height (GTK_WIDGET (view));
    guint32 found = WS_FLAME_NO_NODE;

    for (int y = 0; y < height && found != deepest_node (graph); y += 6)
      found =
        ws_flame_chart_node_at (graph, &(WsFlameState){ .zoom = ws_flame_view_get_zoom (view) },
                                gtk_widget_get_allocated_width (GTK_WIDGET (view)), height, 10, y);
    g_assert_cmpuint (found, ==, deepest_node (graph));
  }
  gtk_widget_destroy (top);
  ws_test_gui_flush ();
}

static void
walk (void)
{
  g_autofree char *ncu = NULL, *export = NULL, *targets = NULL, *folded = NULL;

  dir = ws_test_tmpdir ();
  ncu = many_launches ();
  export = many_threads ();
  targets = many_targets ();
  walk_threads (export);
  walk_launches (ncu);
  walk_comparison (ncu);
  walk_targets (targets);
  folded = deep_stacks ();
  walk_deep_stacks (folded);
  ws_test_rmtree (dir);
  g_clear_pointer (&dir, g_free);
}

/* In a child: an X error ends the process that made it. */
static void
test_lists_bounded (void)
{
  if (g_test_subprocess ())
    {
      walk ();
      return;
    }
  ws_test_trap_child (300);
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);
  g_test_add_func ("/bounded-lists/thousands-of-items/alive-and-drawing", test_lists_bounded);
  return ws_test_gui_run ();
}
