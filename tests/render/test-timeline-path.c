/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "ws-critical-path.h"
#include "ws-run-loader.h"
#include "ws-test-load.h"
#include "ws-test-pixels.h"
#include "ws-test-util.h"
#include "ws-timeline-path.h"

/* Issue 43: a step's critical path drawn on the Timeline.  Each part is
 * on the lane of the event it ends at, over its stretch of the run's
 * clock: what `critical-path --step` prints, turned into lanes. */

const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\nleak:libpango-1.0.so\nleak:libpangoft2-1.0.so\n"
         "leak:libpangocairo-1.0.so\nleak:libharfbuzz.so\n";
}

static void
test_gemm_path (void)
{
  g_autofree char *tmp = ws_test_tmpdir ();
  g_autofree char *db = ws_test_unxz ("critical/gemm_full.sqlite.xz", tmp);
  const char *paths[] = { db, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (WsCriticalPath) cp = ws_critical_path_new (run, NULL);
  g_autoptr (WsTimelinePath) path = NULL;
  g_autoptr (WsLanes) lanes = ws_lanes_new (run);
  g_autoptr (WsTimelineChart) chart = ws_timeline_chart_new (lanes);
  g_autoptr (WsTimeWindow) window = ws_time_window_new ();
  const WsCpStep *st;
  WsTimelineState state;
  WsPalette palette;
  cairo_surface_t *surface;
  cairo_t *cr;
  gint64 covered = 0;
  guint longest = G_MAXUINT;
  cairo_rectangle_t r;
  double header, x, y;

  g_assert_cmpint (cp->median, >=, 0);
  st = &g_array_index (cp->steps, WsCpStep, cp->median);
  path = ws_timeline_path_new (cp, (guint) cp->median);
  g_assert_cmpuint (path->n, ==, st->n);
  /* From the step's start to its end, without a gap, on the run's clock
   * (one process: the job's clock is the run's). */
  g_assert_cmpint (path->start[0], ==, st->start);
  g_assert_cmpint (path->end[path->n - 1], ==, st->end);
  for (guint k = 0; k < path->n; k++)
    {
      if (k > 0)
        g_assert_cmpint (path->start[k], ==, path->end[k - 1]);
      covered += path->end[k] - path->start[k];
      /* A part ending at a kernel ends at its start (the launch, the
       * stream) or at its end (the kernel running, from its start). */
      if (ws_event_ref_kind (path->event[k]) == WS_EVENT_KERNEL)
        {
          gsize i = ws_event_ref_index (path->event[k]);

          g_assert_true (
            path->end[k] == run->kernels.start[i] ||
            (path->end[k] == run->kernels.end[i] && path->start[k] == run->kernels.start[i]));
          if (path->end[k] == run->kernels.end[i] &&
              (longest == G_MAXUINT ||
               path->end[k] - path->start[k] > path->end[longest] - path->start[longest]))
            longest = k;
        }
    }
  g_assert_cmpint (covered, ==, st->end - st->start);
  /* GPU-bound: the GEMM is the longest part, and it is drawn. */
  g_assert_cmpuint (longest, !=, G_MAXUINT);
  g_assert_cmpfloat (path->end[longest] - path->start[longest], >, 0.5 * (st->end - st->start));

  ws_timeline_state_init (&state);
  ws_palette_init_light (&palette);
  header = ws_timeline_chart_header_width (chart, &palette);
  ws_time_window_set_width (window, 1000);
  ws_time_window_set_bounds (window, run->origin, run->end_time);
  ws_time_window_zoom_to (window, st->start, st->end);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) header + 1000, 700);
  g_assert_true (ws_timeline_chart_event_rect (chart, header + 1000, 700, window, &state, &palette,
                                               path->event[longest], &r));
  x = header + ws_time_window_time_to_x (window, (path->start[longest] + path->end[longest]) / 2);
  y = r.y + r.height - 2;

  cr = cairo_create (surface);
  ws_timeline_chart_draw (chart, cr, header + 1000, 700, window, &state, &palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_assert_false (ws_test_pixel_is_color (surface, (int) x, (int) y, palette.accent));

  state.path = path;
  cr = cairo_create (surface);
  ws_timeline_chart_draw (chart, cr, header + 1000, 700, window, &state, &palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_assert_true (ws_test_pixel_is_color (surface, (int) x, (int) y, palette.accent));
  cairo_surface_destroy (surface);
  g_remove (db);
  ws_test_rmtree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timeline-path/gemm/parts-on-their-lanes", test_gemm_path);
  return g_test_run ();
}
