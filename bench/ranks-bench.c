/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ranks-bench FOLDER: opens a job's rank exports in the real window (the
 * application, as `warpscope FOLDER` does) and prints, one per line:
 *
 *   first_frame_ms  from the start of the program to the first frame of
 *                   the Ranks page that shows every rank (rows named, cells
 *                   filling in as ranks are read)
 *   full_load_ms    to the end of the load (every rank read and merged,
 *                   the summaries computed)
 *   redraw_median_ms / redraw_p95_ms
 *                   one redraw of what the page shows of the heatmap (its
 *                   scrolled window's height, scrolled to the top, middle
 *                   and bottom in turn), with the window's own drawing
 *                   function on an image surface, over 50 redraws cycling
 *                   through the four metrics
 *   peak_rss_kib    the process's peak resident memory (getrusage)
 *   ranks, straggler
 *
 * Run by bench/ranks.sh under Xvfb. */
#include "config.h"

#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "ws-application.h"
#include "ws-ranks-page.h"
#include "ws-widget-palette.h"
#include "ws-window.h"

#define REDRAWS 50

static gint64 start_us;
static gint64 first_frame_us;
static gint64 loaded_us;
static guint expected_ranks;

static gboolean
drawn_cb (GtkWidget *widget, cairo_t *cr, gpointer data)
{
  const WsRanksChartModel *model = ws_ranks_view_get_model (WS_RANKS_VIEW (widget));
  if (first_frame_us == 0 && model != NULL && model->n_rows == expected_ranks &&
      gtk_widget_is_drawable (widget))
    first_frame_us = g_get_monotonic_time ();
  return FALSE;
}

static void
loaded_cb (WsWindow *window, gboolean success, gpointer data)
{
  if (!success)
    {
      g_printerr ("ranks-bench: the load failed: %s\n", ws_window_get_error (window));
      exit (1);
    }
  loaded_us = g_get_monotonic_time ();
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) folder = NULL;
  WsApplication *app;
  WsWindow *window = NULL;
  WsRanksPage *page;
  WsRanksView *view;
  const WsRanksChartModel *model;
  double times[REDRAWS];
  struct rusage usage;
  GDir *dir;
  const char *name;

  start_us = g_get_monotonic_time ();
  if (argc != 2)
    {
      g_printerr ("usage: ranks-bench FOLDER\n");
      return 2;
    }
  dir = g_dir_open (argv[1], 0, &error);
  if (dir == NULL)
    {
      g_printerr ("ranks-bench: %s\n", error->message);
      return 2;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    expected_ranks += g_str_has_suffix (name, ".sqlite");
  g_dir_close (dir);

  gtk_init (&argc, &argv);
  app = ws_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_application_hold (G_APPLICATION (app));
  folder = g_file_new_for_path (argv[1]);
  g_application_open (G_APPLICATION (app), &folder, 1, "");
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (WS_IS_WINDOW (l->data))
      window = l->data;
  g_assert (window != NULL);
  page = WS_RANKS_PAGE (ws_window_get_view (window, "ranks"));
  view = ws_ranks_page_get_view (page);
  /* The view stops the signal: a handler after it would never run. */
  g_signal_connect (view, "draw", G_CALLBACK (drawn_cb), NULL);
  g_signal_connect (window, "load-finished", G_CALLBACK (loaded_cb), NULL);
  while (loaded_us == 0 || first_frame_us == 0)
    g_main_context_iteration (NULL, TRUE);

  /* Redraws at the page's size, with every rank's figures. */
  while (gtk_events_pending ())
    gtk_main_iteration ();
  model = ws_ranks_view_get_model (view);
  {
    GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
    int width = MAX (gtk_widget_get_allocated_width (GTK_WIDGET (view)), 1200);
    int height = MAX (gtk_widget_get_allocated_height (GTK_WIDGET (view)), 300);
    /* A frame shows what the scrolled window shows of the heatmap. */
    int visible =
      scrolled != NULL ? MIN (gtk_widget_get_allocated_height (scrolled), height) : height;
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, visible);
    WsRanksChartState state;
    WsPalette palette;

    ws_widget_palette (GTK_WIDGET (view), &palette);
    ws_ranks_chart_state_init (&state);
    state.untitled = TRUE;
    for (guint i = 0; i < REDRAWS; i++)
      {
        cairo_t *cr = cairo_create (surface);
        gint64 t0 = g_get_monotonic_time ();

        /* Scrolled to the top, the middle and the bottom in turn. */
        cairo_translate (cr, 0, -(double) ((i % 3) * (height - visible) / 2));
        state.metric = i % WS_RANKS_N_METRICS;
        state.hover_row = (gint) (i % MAX (model->n_rows, 1));
        state.hover_col = (gint) (i % MAX (model->n_cols, 1));
        ws_ranks_chart_draw (cr, width, height, model, &state, &palette);
        cairo_surface_flush (surface);
        times[i] = (double) (g_get_monotonic_time () - t0) / 1000.0;
        cairo_destroy (cr);
      }
    cairo_surface_destroy (surface);
    printf ("heatmap_size %dx%d, %d in view\n", width, height, visible);
  }
  qsort (times, REDRAWS, sizeof (double), compare_doubles);
  getrusage (RUSAGE_SELF, &usage);
  printf ("ranks %u\n", model->n_rows);
  printf ("steps %u\n", model->n_cols);
  printf ("first_frame_ms %.0f\n", (double) (first_frame_us - start_us) / 1000.0);
  printf ("full_load_ms %.0f\n", (double) (loaded_us - start_us) / 1000.0);
  printf ("redraw_median_ms %.2f\n", (times[REDRAWS / 2 - 1] + times[REDRAWS / 2]) / 2);
  printf ("redraw_p95_ms %.2f\n", times[(int) (REDRAWS * 0.95)]);
  printf ("peak_rss_kib %ld\n", usage.ru_maxrss);
  printf ("straggler %s\n", model->straggler >= 0 ? model->straggler_text : "none");
  fflush (stdout);
  /* The process ends here: tearing down hundreds of runs is no part of it. */
  _exit (0);
}
