/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "ws-ranks-chart.h"
#include "ws-ranks-loader.h"
#include "ws-ranks.h"
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

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  g_test_add_func ("/ranks-chart/ddp/comm-hidden", test_heatmap_comm_hidden);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
