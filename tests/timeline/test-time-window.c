/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "ws-time-ticks.h"
#include "ws-time-window.h"

/* A run from 10^15 ns (a session clock some days in) lasting 135 ms, seen
 * through 1000 px: the numbers below are computed by hand from these. */
#define ORIGIN G_GINT64_CONSTANT (1000000000000000)
#define DURATION G_GINT64_CONSTANT (135000000)

static WsTimeWindow *
window_new (void)
{
  WsTimeWindow *window = ws_time_window_new ();

  ws_time_window_set_width (window, 1000);
  ws_time_window_set_bounds (window, ORIGIN, ORIGIN + DURATION);
  return window;
}

static void
count_changes (WsTimeWindow *window, guint *changes)
{
  (*changes)++;
}

static void
test_fit_shows_whole_run (void)
{
  g_autoptr (WsTimeWindow) window = window_new ();

  /* 135 ms × 1.05 = 141.75 ms, centred: 3.375 ms of margin each side. */
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (window), 141750000.0, 1e-3);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (window), -3375000.0, 1e-3);
  g_assert_true (ws_time_window_is_fit (window));
  /* The run's first instant sits at 3.375 / 141.75 × 1000 px. */
  g_assert_cmpfloat_with_epsilon (ws_time_window_time_to_x (window, ORIGIN), 23.8095238, 1e-6);
  g_assert_cmpfloat_with_epsilon (ws_time_window_time_to_x (window, ORIGIN + DURATION), 976.1904762,
                                  1e-6);

  ws_time_window_zoom_at (window, 4, 500);
  g_assert_false (ws_time_window_is_fit (window));
  ws_time_window_fit (window);
  g_assert_true (ws_time_window_is_fit (window));
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (window), -3375000.0, 1e-3);
}

static void
test_zoom_keeps_point_under_cursor (void)
{
  g_autoptr (WsTimeWindow) window = window_new ();
  const double xs[] = { 0, 137.5, 500, 999 };
  const double factors[] = { 2, 1.25, 10, 0.5, 1000 };

  for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
    for (guint f = 0; f < G_N_ELEMENTS (factors); f++)
      {
        double before, after;

        ws_time_window_fit (window);
        ws_time_window_zoom_at (window, 8, 500);
        before = ws_time_window_x_to_offset (window, xs[i]);
        ws_time_window_zoom_at (window, factors[f], xs[i]);
        after = ws_time_window_x_to_offset (window, xs[i]);
        /* Within a thousandth of a pixel. */
        g_assert_cmpfloat_with_epsilon (before, after,
                                        ws_time_window_get_ns_per_px (window) * 1e-3);
      }

  /* Zoom in by 2 at x = 250 from the fit: the new span is 70.875 ms and the
   * time at 250 px (-3.375 + 141.75 / 4 = 32.0625 ms) stays there. */
  ws_time_window_fit (window);
  ws_time_window_zoom_at (window, 2, 250);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (window), 70875000.0, 1e-3);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (window), 32062500.0 - 70875000.0 / 4,
                                  1e-3);
}

static void
test_zoom_limits (void)
{
  g_autoptr (WsTimeWindow) window = window_new ();

  /* In: at most 1000 px per ns, so 1 ns across 1000 px. */
  for (int i = 0; i < 100; i++)
    ws_time_window_zoom_at (window, 10, 500);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (window), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_min_span (window), 1.0, 1e-12);

  /* Out: at most the run and 5 %. */
  for (int i = 0; i < 100; i++)
    ws_time_window_zoom_at (window, 0.1, 500);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (window), 141750000.0, 1e-3);
  g_assert_true (ws_time_window_is_fit (window));

  /* A range narrower than the least span is widened around its middle. */
  ws_time_window_zoom_to (window, ORIGIN + 1000, ORIGIN + 1000);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (window), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (window), 999.5, 1e-9);

  /* A wider window allows proportionally more: 1 ns per 1000 px. */
  ws_time_window_set_width (window, 2000);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_min_span (window), 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (window), 2.0, 1e-9);
}

static void
test_pan_clamps (void)
{
  g_autoptr (WsTimeWindow) window = window_new ();
  gint64 start, end;

  /* 10 ms wide, then 100 px to the right: 100 × 10 µs = 1 ms later. */
  ws_time_window_zoom_to (window, ORIGIN + 20000000, ORIGIN + 30000000);
  ws_time_window_pan (window, 100);
  ws_time_window_get_range (window, &start, &end);
  g_assert_cmpint (start, ==, ORIGIN + 21000000);
  g_assert_cmpint (end, ==, ORIGIN + 31000000);

  /* Far left: stops at the margin before the run, keeping the span. */
  ws_time_window_pan (window, -1e9);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (window), -3375000.0, 1e-3);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_span (window), 10000000.0, 1e-3);

  /* Far right: the view ends at the margin after the run. */
  ws_time_window_pan (window, 1e9);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_end (window), 138375000.0, 1e-3);

  ws_time_window_go_home (window);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_start (window), -3375000.0, 1e-3);
  ws_time_window_go_end (window);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_end (window), 138375000.0, 1e-3);
}

static void
test_conversions_round_trip (void)
{
  g_autoptr (WsTimeWindow) window = window_new ();

  /* Deep zoom far from the origin: 1 µs across 1000 px at 100 ms. */
  ws_time_window_zoom_to (window, ORIGIN + 100000000, ORIGIN + 100001000);
  g_assert_cmpfloat_with_epsilon (ws_time_window_get_ns_per_px (window), 1.0, 1e-9);
  g_assert_cmpint (ws_time_window_x_to_time (window, 0), ==, ORIGIN + 100000000);
  g_assert_cmpint (ws_time_window_x_to_time (window, 250.5), ==, ORIGIN + 100000250);
  g_assert_cmpfloat_with_epsilon (ws_time_window_time_to_x (window, ORIGIN + 100000750), 750.0,
                                  1e-9);
}

static void
test_changed_only_on_change (void)
{
  g_autoptr (WsTimeWindow) window = window_new ();
  guint changes = 0;

  g_signal_connect (window, "changed", G_CALLBACK (count_changes), &changes);
  ws_time_window_fit (window);
  g_assert_cmpuint (changes, ==, 0);
  ws_time_window_pan (window, 100); /* fit: nowhere to go */
  g_assert_cmpuint (changes, ==, 0);
  ws_time_window_zoom_at (window, 2, 10);
  g_assert_cmpuint (changes, ==, 1);
  ws_time_window_set_width (window, 800);
  g_assert_cmpuint (changes, ==, 2);
}

/* Ticks: the least 1-2-5 step that leaves the spacing asked for, labels in
 * one unit with the decimals the step needs. */
static void
test_ticks_adapt (void)
{
  WsTimeTicks ticks;
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *base = NULL;

  /* The fit of the 135 ms run: 141.75 ms over 1000 px, 100 px apart at
   * least: 14.175 ms, so 20 ms steps, labelled in ms. */
  ws_time_ticks_choose (&ticks, -3375000, 138375000, 1000, 100);
  g_assert_cmpfloat (ticks.step, ==, 20e6);
  g_assert_cmpfloat (ticks.minor, ==, 20e6 / 4);
  g_assert_cmpfloat (ticks.first, ==, 0);
  a = ws_time_ticks_label (&ticks, 40e6);
  g_assert_cmpstr (a, ==, "40 ms");
  g_assert_null (ws_time_ticks_base_label (&ticks));

  /* 5 ms over 1000 px: 0.5 ms steps, one decimal. */
  ws_time_ticks_choose (&ticks, 0, 5e6, 1000, 100);
  g_assert_cmpfloat (ticks.step, ==, 5e5);
  b = ws_time_ticks_label (&ticks, 1.5e6);
  g_assert_cmpstr (b, ==, "1.5 ms");

  /* 1 µs at 1.2 s over 1000 px: 100 ns steps would need 8 digits in
   * seconds, so labels count from 1.20000 s, a multiple of 10 µs (the
   * least power of ten above twice the span). */
  ws_time_ticks_choose (&ticks, 1.2e9, 1.2e9 + 1000, 1000, 100);
  g_assert_cmpfloat (ticks.step, ==, 100);
  g_assert_true (ticks.relative);
  g_assert_cmpfloat (ticks.base, ==, 1.2e9);
  c = ws_time_ticks_label (&ticks, 1.2e9 + 500);
  g_assert_cmpstr (c, ==, "+0.5 µs");
  base = ws_time_ticks_base_label (&ticks);
  g_assert_cmpstr (base, ==, "1.20000 s");

  /* Never below a nanosecond. */
  ws_time_ticks_choose (&ticks, 0, 2, 1000, 100);
  g_assert_cmpfloat (ticks.step, ==, 1);
  d = ws_time_ticks_label (&ticks, 1);
  g_assert_cmpstr (d, ==, "1 ns");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/time-window/fit/shows-whole-run", test_fit_shows_whole_run);
  g_test_add_func ("/time-window/zoom/keeps-point-under-cursor",
                   test_zoom_keeps_point_under_cursor);
  g_test_add_func ("/time-window/zoom/limits", test_zoom_limits);
  g_test_add_func ("/time-window/pan/clamps", test_pan_clamps);
  g_test_add_func ("/time-window/conversions/round-trip", test_conversions_round_trip);
  g_test_add_func ("/time-window/changed/only-on-change", test_changed_only_on_change);
  g_test_add_func ("/time-window/ticks/adapt-to-zoom", test_ticks_adapt);
  return g_test_run ();
}
