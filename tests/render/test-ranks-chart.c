/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ws-format.h"
#include "ws-ranks-chart.h"
#include "ws-ranks-loader.h"
#include "ws-ranks.h"
#include "ws-steps-chart.h"
#include "ws-steps.h"
#include "ws-test-rank-sql.h"
#include "ws-test-pixels.h"
#include "ws-test-util.h"

/* The ranks heatmap's model (render), from the four DDP ranks of
 * tests/data/multirank. */

static char *tmp;

static WsRun *
load_ddp (void)
{
  g_autofree char *dir = g_build_filename (tmp, "job", NULL);
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  WsRun *run;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
      for (guint r = 0; r < 4; r++)
        {
          g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

          g_free (ws_test_unxz (xz, dir));
        }
    }
  run = ws_ranks_loader_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (run->ranks);
  return run;
}

/* The heatmap's communication-hidden metric: gloo's DDP ranks run no NCCL
 * kernel, so no cell has a value; a step given 4 ms of NCCL kernels, 1 ms
 * of them under compute kernels, reads 25% (by hand). */
static void
test_heatmap_comm_hidden (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  WsRanksChartModel *model = ws_ranks_chart_model_new (run->ranks, run->ranks->figures);
  WsRankFigures *one = g_ptr_array_index (run->ranks->figures, 1);
  WsRankStep *step = &g_array_index (one->steps, WsRankStep, 2);
  gint col = -1;

  g_assert_cmpuint (model->n_rows, ==, 4);
  for (guint r = 0; r < model->n_rows; r++)
    for (guint c = 0; c < model->n_cols; c++)
      g_assert_true (isnan (ws_ranks_chart_model_value (model, WS_RANKS_METRIC_HIDDEN, r, c)));
  ws_ranks_chart_model_free (model);

  step->comm = 4000000;
  step->overlap = 1000000;
  model = ws_ranks_chart_model_new (run->ranks, run->ranks->figures);
  for (guint c = 0; c < model->n_cols; c++)
    if (model->steps[c] == step->number)
      col = (gint) c;
  g_assert_cmpint (col, >=, 0);
  g_assert_cmpfloat_with_epsilon (
    ws_ranks_chart_model_value (model, WS_RANKS_METRIC_HIDDEN, 1, (guint) col), 25.0, 1e-9);
  ws_ranks_chart_model_free (model);
}

static double
saturation (const WsRanksChartModel *model, double value)
{
  return fabs (value - model->median) / model->half;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Issue 40, item 8: step time on a scale that diverges from the median
 * step time of the steady cells, symmetric and at least ±10% of it: the
 * median is the neutral colour, the cells farthest from it the strongest,
 * and the legend says the span.  The median is worked out here from the
 * ranks' figures; each steady cell is drawn in the colour of its value. */
static void
test_heatmap_step_time_scale (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  g_autoptr (WsRanksChartModel) model = ws_ranks_chart_model_new (run->ranks, run->ranks->figures);
  g_autoptr (GArray) walls = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *text = NULL;
  g_autofree char *median_text = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  WsRanksChartState state;
  WsPalette palette;
  double median, deviation = 0, most = -1;
  guint n_pale = 0;
  WsColor c, neutral;

  ws_palette_init_light (&palette);
  for (guint r = 0; r < run->ranks->figures->len; r++)
    {
      const WsRankFigures *f = g_ptr_array_index (run->ranks->figures, r);

      for (guint s = 0; s < f->steps->len; s++)
        {
          const WsRankStep *step = &g_array_index (f->steps, WsRankStep, s);
          double wall = (double) (step->end - step->start);

          if (!step->warmup)
            g_array_append_val (walls, wall);
        }
    }
  g_array_sort (walls, compare_double);
  g_assert_cmpuint (walls->len, >, 4);
  median = walls->len % 2 == 1 ? g_array_index (walls, double, walls->len / 2)
                               : (g_array_index (walls, double, walls->len / 2 - 1) +
                                  g_array_index (walls, double, walls->len / 2)) /
                                   2;
  for (guint i = 0; i < walls->len; i++)
    deviation = MAX (deviation, fabs (g_array_index (walls, double, i) - median));
  g_assert_cmpfloat_with_epsilon (model->median, median, 1e-6);
  g_assert_cmpfloat_with_epsilon (model->half, MAX (0.10 * median, deviation), 1e-6);
  g_test_message ("median %.0f ns, largest deviation %.0f ns, half %.0f ns", median, deviation,
                  model->half);

  /* The median is neutral; the ends are the scale's full colours. */
  c = ws_ranks_chart_cell_color (model, WS_RANKS_METRIC_STEP_TIME, median, &palette);
  neutral = ws_ranks_chart_neutral (&palette);
  g_assert_true (memcmp (&c, &neutral, sizeof c) == 0);
  c = ws_ranks_chart_cell_color (model, WS_RANKS_METRIC_STEP_TIME, median + model->half, &palette);
  g_assert_true (ws_test_argb_is_color ((const guint8[]){ 0x2b, 0x18, 0xb2, 0xff }, c));
  c = ws_ranks_chart_cell_color (model, WS_RANKS_METRIC_STEP_TIME, median - model->half, &palette);
  g_assert_true (ws_test_argb_is_color ((const guint8[]){ 0xac, 0x66, 0x21, 0xff }, c));

  /* The strongest cells are the steps farthest from the median, at full
   * strength when they set the span; a cell within 2% of the median (the
   * whole spread the old ramp stretched over every colour) stays pale.
   * The straggler does not stand out by step time here: DDP's ranks wait
   * for each other, so a step takes each rank the same wall time within
   * a few ms (rank 3's row is printed beside the others). */
  for (guint r = 0; r < model->n_rows; r++)
    {
      double sum = 0;
      guint n = 0;

      for (guint col = 0; col < model->n_cols; col++)
        {
          double v = ws_ranks_chart_model_value (model, WS_RANKS_METRIC_STEP_TIME, r, col);

          if (isnan (v) || model->warmup[col])
            continue;
          sum += saturation (model, v);
          n++;
          most = MAX (most, saturation (model, v));
          if (fabs (v - median) <= 0.02 * median)
            {
              g_assert_cmpfloat (saturation (model, v), <=, 0.2 + 1e-9);
              n_pale++;
            }
        }
      g_assert_cmpuint (n, >, 0);
      g_test_message ("rank %u%s: mean saturation %.3f", model->ranks[r],
                      (gint) r == model->straggler ? " (the straggler)" : "", sum / n);
    }
  g_assert_cmpfloat_with_epsilon (most, deviation > 0.10 * median ? 1.0 : deviation / model->half,
                                  1e-9);
  g_assert_cmpuint (n_pale, >, 0);

  /* The legend's span. */
  median_text = ws_format_duration (median);
  text = ws_ranks_chart_scale_text (model);
  g_test_message ("legend: %s", text);
  g_assert_true (g_str_has_prefix (text, "median "));
  g_assert_nonnull (strstr (text, median_text));
  {
    g_autofree char *pct = g_strdup_printf ("±%.0f%%", 100.0 * model->half / median);

    g_assert_true (g_str_has_suffix (text, pct));
  }

  /* Each steady cell is drawn in its value's colour (a corner, away from
   * its number and its dot). */
  ws_ranks_chart_state_init (&state);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 400);
  cr = cairo_create (surface);
  ws_ranks_chart_draw (cr, 1200, 400, model, &state, &palette);
  cairo_surface_flush (surface);
  for (guint r = 0; r < model->n_rows; r++)
    for (guint col = 0; col < model->n_cols; col++)
      {
        double v = ws_ranks_chart_model_value (model, WS_RANKS_METRIC_STEP_TIME, r, col);
        cairo_rectangle_t rect;

        /* The straggler's row is framed. */
        if (isnan (v) || model->warmup[col] || (gint) r == model->straggler)
          continue;
        g_assert_true (
          ws_ranks_chart_cell_rect (1200, 400, model, &state, &palette, r, col, &rect));
        g_assert_true (ws_test_pixel_is_color (
          surface, (int) ceil (rect.x) + 2, (int) ceil (rect.y) + 2,
          ws_ranks_chart_cell_color (model, WS_RANKS_METRIC_STEP_TIME, v, &palette)));
      }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* The Steps chart of a job (the page and `render --view steps`): its line
 * gives the range of the ranks' own steady medians, as SQL finds them (the
 * documented rule per rank, then a step warm-up on one rank is warm-up on
 * all), never a median over every rank's steps (issue 40, item 6). */
static void
test_steps_chart_per_rank (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
  g_autofree char *summary = ws_steps_chart_summary (steps);
  g_autofree char *dir = g_build_filename (tmp, "job", NULL);
  WsTestRankSql sql[4];
  g_autofree char *lo_s = NULL, *hi_s = NULL, *expect = NULL;
  double lo = G_MAXDOUBLE, hi = 0;
  guint n = G_MAXUINT;

  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *db = g_strdup_printf ("%s/rank%u.sqlite", dir, r);

      ws_test_rank_sql (db, &sql[r]);
      n = MIN (n, sql[r].n_steps);
    }
  for (guint r = 0; r < 4; r++)
    {
      g_autofree gint64 *walls = g_new (gint64, sql[r].n_steps);
      guint k = 0;
      double m;

      for (guint s = 0; s < sql[r].n_steps; s++)
        {
          gboolean warm = FALSE;

          for (guint o = 0; o < 4 && s < n; o++)
            warm = warm || !sql[o].steady[s];
          if (!warm && sql[r].steady[s])
            walls[k++] = sql[r].wall[s];
        }
      m = ws_test_median_exact (walls, k);
      lo = MIN (lo, m);
      hi = MAX (hi, m);
    }
  lo_s = ws_format_duration (lo);
  hi_s = ws_format_duration (hi);
  expect = g_strdup_printf ("steady median %s–%s a step by rank", lo_s, hi_s);
  g_test_message ("%s", summary);
  g_assert_nonnull (strstr (summary, expect));
  g_assert_nonnull (strstr (summary, " on 4 ranks, "));
  for (guint r = 0; r < 4; r++)
    ws_test_rank_sql_clear (&sql[r]);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  g_test_add_func ("/ranks-chart/ddp/comm-hidden", test_heatmap_comm_hidden);
  g_test_add_func ("/ranks-chart/ddp/step-time-scale", test_heatmap_step_time_scale);
  g_test_add_func ("/ranks-chart/ddp/steps-chart-per-rank", test_steps_chart_per_rank);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
