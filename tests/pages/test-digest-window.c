/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>
#include <glib/gstdio.h>

#include "ws-application.h"
#include "ws-findings-page.h"
#include "ws-ranks-page.h"
#include "ws-ranks-view.h"
#include "ws-summaries-page.h"
#include "ws-test-gui.h"
#include "ws-test-util.h"
#include "ws-timeline-page.h"
#include "ws-window.h"

/* A job digest of the four DDP ranks in the window: the Ranks page, the
 * merged summaries and the findings from the digest alone; a click on a
 * rank opens its export at that step, found where it was or in the folder
 * the user points to, and says when it changed. */

static WsApplication *app;
static char *tmp;
static char *job_dir;
static char *digest;

static void
make_digest (void)
{
  const char *argv[] = { ws_test_cli (), "digest", "-o", NULL, NULL, NULL };
  WsTestRun run;

  job_dir = g_build_filename (tmp, "job", NULL);
  g_assert_cmpint (g_mkdir (job_dir, 0700), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);
      g_autofree char *path = ws_test_unxz (xz, job_dir);
    }
  digest = g_build_filename (tmp, "ddp.wsdigest", NULL);
  argv[3] = digest;
  argv[4] = job_dir;
  ws_test_run_bounded (argv, 120, &run);
  g_assert_cmpint (run.status, ==, 0);
  ws_test_run_clear (&run);
}

static gboolean
findings_done (gpointer data)
{
  return !ws_findings_page_is_busy (data);
}

static gboolean
timeline_ready (gpointer data)
{
  return ws_timeline_page_is_ready (data);
}

static guint
n_windows (void)
{
  return g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
}

/* The window that is not @known: the one a click opened. */
static WsWindow *
newest_window (WsWindow *known)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (WS_IS_WINDOW (l->data) && l->data != known)
      return l->data;
  return NULL;
}

static gboolean
windows_more_than (gpointer data)
{
  return n_windows () > GPOINTER_TO_UINT (data);
}

static gboolean
bar_shows (gpointer data)
{
  return ws_window_get_digest_message (data) != NULL;
}

static void
click (GtkWidget *widget, double x, double y)
{
  GdkSeat *seat = gdk_display_get_default_seat (gtk_widget_get_display (widget));

  for (int i = 0; i < 2; i++)
    {
      GdkEvent *event = gdk_event_new (i == 0 ? GDK_BUTTON_PRESS : GDK_BUTTON_RELEASE);

      event->any.window = g_object_ref (gtk_widget_get_window (widget));
      event->any.send_event = TRUE;
      gdk_event_set_device (event, gdk_seat_get_pointer (seat));
      event->button.x = x;
      event->button.y = y;
      event->button.button = GDK_BUTTON_PRIMARY;
      event->button.time = GDK_CURRENT_TIME;
      gtk_widget_event (widget, event);
      gdk_event_free (event);
    }
  ws_test_gui_flush ();
}

/* Clicks rank @rank's cell of step @step on the Ranks page. */
static void
click_cell (WsRanksPage *page, guint rank, guint step)
{
  WsRanksView *view = ws_ranks_page_get_view (page);
  const WsRanksChartModel *model = ws_ranks_view_get_model (view);
  gint row = -1, col = -1;
  double x, y;

  for (guint r = 0; r < model->n_rows; r++)
    if (model->ranks[r] == rank)
      row = (gint) r;
  for (guint c = 0; c < model->n_cols; c++)
    if (model->steps[c] == step)
      col = (gint) c;
  g_assert_cmpint (row, >=, 0);
  g_assert_cmpint (col, >=, 0);
  g_assert_true (ws_ranks_view_cell_center (view, (guint) row, (guint) col, &x, &y));
  click (GTK_WIDGET (view), x, y);
}

/* Waits for the export window a click opened; checks it holds @path at
 * rank's @step; closes it. */
static void
expect_export_window (WsWindow *digest_window, guint before, const char *path, WsRankFigures *f,
                      guint step)
{
  WsWindow *opened;
  WsTimelinePage *timeline;
  WsRun *run;
  const WsRankStep *at = ws_rank_figures_find_step (f, step);
  gint64 start, end;

  ws_test_gui_iterate_until (windows_more_than, GUINT_TO_POINTER (before));
  opened = newest_window (digest_window);
  g_assert_nonnull (opened);
  ws_test_gui_wait_for_load (opened);
  g_assert_null (ws_window_get_error (opened));
  run = ws_window_get_run (opened);
  g_assert_cmpstr (g_ptr_array_index (run->prov.files, 0), ==, path);
  g_assert_cmpstr (ws_window_get_page (opened), ==, "timeline");
  timeline = WS_TIMELINE_PAGE (ws_window_get_view (opened, "timeline"));
  ws_test_gui_iterate_until (timeline_ready, timeline);
  /* The step is on the export's own clock there. */
  g_assert_true (ws_timeline_view_get_range (ws_timeline_page_get_view (timeline), &start, &end));
  g_assert_cmpint (start, ==, at->start);
  g_assert_cmpint (end, ==, at->end);
  ws_test_gui_assert_drawing (GTK_WIDGET (opened), "a rank's export opened from the digest");
  gtk_widget_destroy (GTK_WIDGET (opened));
  ws_test_gui_flush ();
}

static void
test_digest_window (void)
{
  WsWindow *window = ws_test_gui_open_and_load (digest);
  WsRun *run = ws_window_get_run (window);
  WsRanksPage *page = WS_RANKS_PAGE (ws_window_get_view (window, "ranks"));
  WsSummariesPage *summaries = WS_SUMMARIES_PAGE (ws_window_get_view (window, "summaries"));
  WsFindingsPage *findings = WS_FINDINGS_PAGE (ws_window_get_view (window, "findings"));
  g_autofree char *csv = NULL;
  g_autofree char *first = NULL;
  g_autofree char *rank3 = g_build_filename (job_dir, "rank3.sqlite", NULL);
  g_autofree char *moved_dir = g_build_filename (tmp, "moved", NULL);
  g_autofree char *moved3 = g_build_filename (moved_dir, "rank3.sqlite", NULL);
  g_autofree char *moved2 = g_build_filename (moved_dir, "rank2.sqlite", NULL);
  g_autofree char *total = NULL;
  guint before;

  g_assert_null (ws_window_get_error (window));
  g_assert_nonnull (run->digest);
  /* The job's ranks, from the digest alone; no timeline without events. */
  g_assert_cmpstr (ws_window_get_page (window), ==, "ranks");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "ddp_probe.py — 4 ranks");
  g_assert_false (gtk_widget_get_visible (ws_window_get_view (window, "timeline")));
  g_assert_cmpint (gtk_tree_model_iter_n_children (ws_ranks_page_get_table (page), NULL), ==, 4);
  g_assert_nonnull (strstr (ws_ranks_page_get_summary (page), "Straggler: rank 3"));
  g_assert_null (ws_window_get_digest_message (window));
  ws_test_gui_assert_drawing (GTK_WIDGET (window), "digest's ranks page");

  /* The merged kernel summary: cutlass's GEMM over the four files, by SQL. */
  ws_summaries_page_show (summaries, WS_SUMMARY_KERN_SUM);
  ws_test_gui_flush ();
  csv = ws_summaries_page_copy_csv (summaries);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank%u.sqlite", r);
      g_autofree char *path = g_build_filename (job_dir, name, NULL);
      g_autofree char *sum = ws_test_sqlite_text (
        path, "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
              "s.id = k.demangledName WHERE s.value = "
              "'void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nt_align1>(T1::Params)'");
      gint64 all =
        (total != NULL ? g_ascii_strtoll (total, NULL, 10) : 0) + g_ascii_strtoll (sum, NULL, 10);

      g_free (total);
      total = g_strdup_printf ("%" G_GINT64_FORMAT, all);
    }
  g_assert_nonnull (strstr (csv, total));

  /* The findings: the worst rank's per check, and the straggler. */
  gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (findings))),
                                    "findings");
  ws_test_gui_iterate_until (findings_done, findings);
  first = ws_findings_page_get_row_text (findings, 0);
  g_assert_nonnull (first);
  g_assert_nonnull (strstr (first, "Rank "));
  {
    gboolean imbalance = FALSE;

    for (guint i = 0; i < 10; i++)
      {
        g_autofree char *row = ws_findings_page_get_row_text (findings, i);

        imbalance = imbalance || (row != NULL && strstr (row, "Rank imbalance") != NULL);
      }
    g_assert_true (imbalance);
  }
  gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (page))), "ranks");
  ws_test_gui_flush ();

  /* A click on rank 3's step 5: its export, at that step. */
  before = n_windows ();
  click_cell (page, 3, 5);
  expect_export_window (window, before, rank3, ws_ranks_page_get_figures (page, 3), 5);

  /* The exports moved: the bar says where rank 3's was, and a folder
   * given finds it there. */
  g_assert_cmpint (g_rename (job_dir, moved_dir), ==, 0);
  before = n_windows ();
  click_cell (page, 3, 5);
  ws_test_gui_iterate_until (bar_shows, window);
  g_assert_cmpuint (n_windows (), ==, before);
  g_assert_nonnull (strstr (ws_window_get_digest_message (window), "Rank 3's export is not here"));
  g_assert_nonnull (strstr (ws_window_get_digest_message (window), rank3));
  ws_window_set_digest_folder (window, moved_dir);
  expect_export_window (window, before, moved3, ws_ranks_page_get_figures (page, 3), 5);

  /* Rank 2's export rewritten since: it opens, and the bar says so. */
  {
    g_autofree char *data = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (moved2, &data, &len, NULL));
    data[len - 1] ^= 1;
    g_assert_true (g_file_set_contents (moved2, data, (gssize) len, NULL));
  }
  before = n_windows ();
  click_cell (page, 2, 4);
  expect_export_window (window, before, moved2, ws_ranks_page_get_figures (page, 2), 4);
  g_assert_nonnull (ws_window_get_digest_message (window));
  g_assert_nonnull (strstr (ws_window_get_digest_message (window), "(rank 2) changed since"));
  g_assert_nonnull (strstr (ws_window_get_digest_message (window), "it was modified"));
  g_assert_cmpint (g_rename (moved_dir, job_dir), ==, 0);

  gtk_widget_destroy (GTK_WIDGET (window));
  ws_test_gui_flush ();
}

int
main (int argc, char **argv)
{
  int status;

  app = ws_test_gui_init (&argc, &argv);
  tmp = ws_test_tmpdir ();
  make_digest ();
  g_test_add_func ("/digest-window/ddp/ranks-summaries-findings-and-click-into-exports",
                   test_digest_window);
  status = ws_test_gui_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  g_free (job_dir);
  g_free (digest);
  return status;
}
