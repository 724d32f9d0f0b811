/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "ws-application.h"
#include "ws-findings-page.h"
#include "ws-findings.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

static WsApplication *app;

static gboolean
page_ready (gpointer page)
{
  return !ws_findings_page_is_busy (page);
}

static gboolean
timeline_ready (gpointer data)
{
  return ws_timeline_page_is_ready (data);
}

static WsFindingsPage *
show_findings (WsWindow *window)
{
  WsFindingsPage *page = WS_FINDINGS_PAGE (ws_window_get_view (window, "findings"));

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string ("findings"));
  g_assert_cmpstr (ws_window_get_page (window), ==, "findings");
  ws_test_gui_iterate_until (page_ready, page);
  return page;
}

static int
severity_rank (const char *row_text)
{
  if (g_str_has_prefix (row_text, "Severe\n"))
    return 2;
  if (g_str_has_prefix (row_text, "Medium\n"))
    return 1;
  if (g_str_has_prefix (row_text, "Minor\n"))
    return 0;
  g_error ("row without a severity badge: %s", row_text);
  return -1;
}

static void
on_activated (WsFindingsPage *page, WsFinding *finding, gpointer data)
{
  WsFinding **out = data;

  *out = ws_finding_ref (finding);
}

/* The probe's seven findings (the field's six and memory-access), most
 * severe first; selecting one shows its
 * evidence; activating it hands its ranges on. */
static void
test_lists_probe_findings (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  WsWindow *window = ws_test_gui_open_and_load (path);
  WsFindingsPage *page = show_findings (window);
  GPtrArray *findings = ws_findings_page_get_findings (page);
  g_autoptr (WsFinding) activated = NULL;
  g_autofree char *details = NULL;
  int previous = G_MAXINT;
  guint alloc_row = G_MAXUINT;

  g_assert_nonnull (findings);
  g_assert_cmpuint (findings->len, ==, 7);
  for (guint i = 0; i < findings->len; i++)
    {
      const WsFinding *finding = g_ptr_array_index (findings, i);
      g_autofree char *text = ws_findings_page_get_row_text (page, i);
      int rank = severity_rank (text);

      g_test_message ("%s", text);
      g_assert_cmpint (rank, <=, previous);
      previous = rank;
      g_assert_nonnull (strstr (text, finding->title));
      g_assert_nonnull (strstr (text, finding->summary));
      if (g_str_equal (finding->id, WS_FINDING_ALLOC_IN_LOOP))
        alloc_row = i;
    }
  g_assert_null (ws_findings_page_get_row_text (page, findings->len));
  /* Severe first, the minor GPU idle time last. */
  g_assert_cmpint (previous, ==, 0);
  {
    g_autofree char *first = ws_findings_page_get_row_text (page, 0);
    g_autofree char *last = ws_findings_page_get_row_text (page, findings->len - 1);

    g_assert_true (g_str_has_prefix (first, "Severe\n"));
    g_assert_true (g_str_has_prefix (last, "Minor\nThe GPU sits idle"));
  }

  g_assert_cmpuint (alloc_row, <, findings->len);
  ws_findings_page_select (page, alloc_row);
  g_assert_cmpstr (ws_findings_page_get_selected (page)->id, ==, WS_FINDING_ALLOC_IN_LOOP);
  details = ws_findings_page_get_details_text (page);
  g_test_message ("%s", details);
  g_assert_nonnull (strstr (details, "Memory allocation inside a loop"));
  g_assert_nonnull (strstr (details, "cudaMalloc\n20"));
  g_assert_nonnull (strstr (details, "频繁内存分配示例\n40"));
  g_assert_nonnull (strstr (details, "creation of the CUDA context"));
  g_assert_nonnull (strstr (details, "Usual fix:"));
  /* The loop's range, from the run's origin (6,752,922 ns: the first CPU
   * sample, before the first CUDA call at 321,375,556): the first
   * cudaMalloc at 437,613,602 ns, the last cudaFree's end at 439,755,212. */
  g_assert_nonnull (strstr (details, "430.861 ms → 433.002 ms"));

  g_signal_connect (page, "finding-activated", G_CALLBACK (on_activated), &activated);
  ws_findings_page_activate_selected (page);
  g_assert_nonnull (activated);
  g_assert_cmpstr (activated->id, ==, WS_FINDING_ALLOC_IN_LOOP);
  g_assert_cmpuint (activated->ranges->len, ==, 1);
  g_assert_cmpint (g_array_index (activated->ranges, WsTimeRange, 0).start, ==, 437613602);

  /* The window shows it on the timeline: the loop's stretch marked on the
   * ruler and in view, its 40 allocation calls highlighted. */
  g_assert_cmpstr (ws_window_get_page (window), ==, "timeline");
  {
    WsTimelinePage *timeline = WS_TIMELINE_PAGE (ws_window_get_view (window, "timeline"));
    WsTimelineView *view = ws_timeline_page_get_view (timeline);
    gint64 start = 0, end = 0;
    GHashTable *highlight;

    ws_test_gui_iterate_until (timeline_ready, timeline);
    highlight = ws_timeline_view_get_highlight (view);
    g_assert_nonnull (highlight);
    g_assert_cmpuint (g_hash_table_size (highlight), ==, 40);
    for (guint i = 0; i < activated->api->len; i++)
      g_assert_true (g_hash_table_contains (
        highlight, GUINT_TO_POINTER (
                     ws_event_ref (WS_EVENT_API, g_array_index (activated->api, guint32, i)) + 1)));
    g_assert_true (ws_timeline_view_get_range (view, &start, &end));
    g_assert_cmpint (start, ==, 437613602);
    g_assert_cmpint (end, ==, 439755212);
    ws_time_window_get_range (ws_timeline_view_get_window (view), &start, &end);
    g_assert_cmpint (start, <=, 437613602);
    g_assert_cmpint (end, >=, 439755212);
    g_assert_cmpint (end - start, <, 4000000);
  }

  gtk_widget_destroy (GTK_WIDGET (window));
}

/* A run without findings shows none, and says so. */
static void
test_clean_run_shows_none (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2022.4_rodinia_gaussian.sqlite", NULL);
  WsWindow *window = ws_test_gui_open_and_load (path);
  WsFindingsPage *page = show_findings (window);

  g_assert_nonnull (ws_findings_page_get_findings (page));
  g_assert_cmpuint (ws_findings_page_get_findings (page)->len, ==, 0);
  g_assert_null (ws_findings_page_get_row_text (page, 0));
  g_assert_null (ws_findings_page_get_selected (page));
  gtk_widget_destroy (GTK_WIDGET (window));
}

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* Export ▸ Chrome trace writes the run on show on a worker thread. */
static void
test_export_chrome_trace (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "probe.json", NULL);
  WsWindow *window = ws_test_gui_open_and_load (path);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (window), "export-chrome-trace");

  g_assert_nonnull (action);
  g_assert_true (g_action_get_enabled (action));
  ws_window_export (window, WS_WINDOW_EXPORT_CHROME_TRACE, out);
  ws_test_gui_iterate_until (file_exists, out);
  g_assert_cmpuint (ws_test_trace_count (out, "kernel"), ==,
                    ws_test_sqlite_count (path, "CUPTI_ACTIVITY_KIND_KERNEL"));
  g_assert_null (ws_window_get_error (window));
  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_rmtree (dir);
}

/* Before a run is open there is nothing to export. */
static void
test_export_disabled_without_run (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (window), "export-chrome-trace");

  g_assert_nonnull (action);
  g_assert_false (g_action_get_enabled (action));
  gtk_widget_destroy (GTK_WIDGET (window));
}

int
main (int argc, char **argv)
{
  app = ws_test_gui_init (&argc, &argv);

  g_test_add_func ("/findings-page/probe/most-severe-first", test_lists_probe_findings);
  g_test_add_func ("/findings-page/clean-run-shows-none", test_clean_run_shows_none);
  g_test_add_func ("/findings-page/export/chrome-trace", test_export_chrome_trace);
  g_test_add_func ("/findings-page/export/disabled-without-run", test_export_disabled_without_run);

  return ws_test_gui_run ();
}
