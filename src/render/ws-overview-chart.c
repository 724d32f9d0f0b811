/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-overview-chart"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-overview-chart.h"
#include "ws-text.h"
#include "ws-time-ticks.h"

/* The first frame of a big export (docs/first-frame.md): over the run's
 * span, one density strip per GPU lane (how busy it is, bin by bin), and
 * under them the kernels that take the most time.  Estimated figures are
 * marked "≈" and the line under the title says from how many rows. */

#define LABEL_WIDTH 150
#define LANE_MAX 28
#define BAR_ROWS 12

static char *
lane_title (const WsOverviewLane *lane, gboolean many_processes)
{
  /* TRANSLATORS: a timeline lane: "GPU 0 · Stream 7" */
  g_autofree char *where =
    g_strdup_printf (_ ("GPU %d · Stream %d"), lane->device_id, lane->stream_id);

  if (!many_processes)
    return g_steal_pointer (&where);
  /* TRANSLATORS: a process id, then the GPU lane: "pid 4242 · GPU 0 · Stream 7" */
  return g_strdup_printf (_ ("pid %u · %s"), lane->pid, where);
}

static gboolean
has_many_processes (const WsOverview *overview)
{
  for (guint i = 1; i < overview->lanes->len; i++)
    if (g_array_index (overview->lanes, WsOverviewLane, i).pid !=
        g_array_index (overview->lanes, WsOverviewLane, 0).pid)
      return TRUE;
  return FALSE;
}

/* The ruler over the strips: times from the run's start. */
static void
draw_ruler (cairo_t *cr, PangoLayout *small, const WsOverview *overview, double x, double y,
            double width, double height, const WsPalette *palette)
{
  WsTimeTicks ticks;
  double span = (double) MAX (overview->end - overview->start, 1);

  ws_time_ticks_choose (&ticks, 0, span, width, 90);
  for (double t = ticks.first; t <= span; t += ticks.step)
    {
      double tx = x + width * t / span;
      g_autofree char *label = ws_time_ticks_label (&ticks, t);

      ws_color_set (cr, palette->grid);
      cairo_rectangle (cr, round (tx), y, 1, height);
      cairo_fill (cr);
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, label, tx + 3, y, 0, WS_ALIGN_LEFT);
    }
}

static void
draw_lane (cairo_t *cr, const WsOverviewLane *lane, double x, double y, double width, double height,
           const WsPalette *palette)
{
  ws_color_set_alpha (cr, palette->grid, 0.35);
  cairo_rectangle (cr, x, y, width, height - 2);
  cairo_fill (cr);
  ws_color_set (cr, palette->bar);
  for (guint b = 0; b < WS_OVERVIEW_BINS; b++)
    {
      double x0 = x + width * b / WS_OVERVIEW_BINS, x1 = x + width * (b + 1) / WS_OVERVIEW_BINS;
      double h = (height - 2) * lane->busy[b];

      if (lane->busy[b] <= 0)
        continue;
      cairo_rectangle (cr, x0, y + height - 2 - MAX (h, 1), MAX (x1 - x0, 0.5), MAX (h, 1));
    }
  cairo_fill (cr);
}

static double
draw_lanes (cairo_t *cr, const WsOverview *overview, double top, double width, double height,
            const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  double line = ws_text_line_height (small);
  double plot_x = LABEL_WIDTH, plot_w = MAX (width - LABEL_WIDTH - 12, 10);
  double lane_h;
  gboolean many = has_many_processes (overview);

  if (overview->lanes->len == 0)
    return top;
  lane_h = CLAMP ((height - line - 4) / overview->lanes->len, 3, LANE_MAX);
  draw_ruler (cr, small, overview, plot_x, top, plot_w, line + 4 + lane_h * overview->lanes->len,
              palette);
  top += line + 4;
  for (guint i = 0; i < overview->lanes->len; i++)
    {
      const WsOverviewLane *lane = &g_array_index (overview->lanes, WsOverviewLane, i);
      g_autofree char *title = lane_title (lane, many);

      draw_lane (cr, lane, plot_x, top + lane_h * i, plot_w, lane_h, palette);
      if (lane_h >= line)
        {
          ws_color_set (cr, palette->foreground);
          ws_text_draw (cr, small, title, 8, top + lane_h * i + (lane_h - line) / 2,
                        LABEL_WIDTH - 14, WS_ALIGN_LEFT);
        }
    }
  return top + lane_h * overview->lanes->len;
}

static char *
kernel_figures (const WsOverviewKernel *kernel, gboolean exact)
{
  g_autofree char *total = ws_format_duration (kernel->total_ns);
  g_autoptr (GString) launches = g_string_new (NULL);

  ws_format_int (launches, (gint64) llround (kernel->launches), TRUE);
  if (exact)
    /* TRANSLATORS: a kernel's total time, then its number of launches */
    return g_strdup_printf (_ ("%s · %s launches"), total, launches->str);
  if (kernel->sampled < WS_OVERVIEW_FEW)
    /* TRANSLATORS: a rough estimate from a few launches in the sample: a kernel's total
     * time, its launches, then how many of them the sample holds */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "≈ %s · ≈ %s launches (%u in the sample)",
                                         "≈ %s · ≈ %s launches (%u in the sample)",
                                         (gulong) kernel->sampled),
                            total, launches->str, (guint) kernel->sampled);
  /* TRANSLATORS: estimated figures: a kernel's total time, then its launches */
  return g_strdup_printf (_ ("≈ %s · ≈ %s launches"), total, launches->str);
}

static void
draw_kernels (cairo_t *cr, const WsOverview *overview, double top, double width, double height,
              const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  double line = ws_text_line_height (small);
  double row = MAX (line + 6, 18), name_w = MIN (width * 0.4, 360), bar_x = 8 + name_w + 8;
  double bar_w = MAX (width - bar_x - 220, 40);
  guint n = MIN (overview->kernels->len, (guint) MAX (height / row, 0));
  double most;

  if (n == 0)
    return;
  n = MIN (n, BAR_ROWS);
  most = MAX (g_array_index (overview->kernels, WsOverviewKernel, 0).total_ns, 1);
  for (guint i = 0; i < n; i++)
    {
      const WsOverviewKernel *kernel = &g_array_index (overview->kernels, WsOverviewKernel, i);
      g_autofree char *figures = kernel_figures (kernel, ws_overview_is_exact (overview));
      double y = top + row * i, w = MAX (bar_w * kernel->total_ns / most, 1);

      ws_color_set (cr, palette->foreground);
      ws_text_draw_name (cr, small, kernel->name, 8, y + 3, name_w, WS_ALIGN_LEFT);
      ws_color_set (cr, palette->bar);
      cairo_rectangle (cr, bar_x, y + 3, w, row - 6);
      cairo_fill (cr);
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, figures, bar_x + w + 6, y + 3, 0, WS_ALIGN_LEFT);
    }
}

/* The same, for an export that holds CUDA graph replays recorded whole:
 * they are GPU work the kernel count leaves out. */
static char *
describe_with_replays (const WsOverview *overview, const char *rows, const char *read,
                       const char *span)
{
  g_autoptr (GString) replays = g_string_new (NULL);
  g_autoptr (GString) replays_read = g_string_new (NULL);

  ws_format_int (replays, overview->replays, TRUE);
  ws_format_int (replays_read, overview->replays_read, TRUE);
  if (ws_overview_is_exact (overview))
    /* TRANSLATORS: "336 kernels and 40 CUDA graph replays over 19.2 ms" */
    return g_strdup_printf (_ ("%s kernels and %s CUDA graph replays over %s"), rows, replays->str,
                            span);
  /* TRANSLATORS: "10,000,000 kernels and 40 CUDA graph replays over 12.3 s; estimated from
   * 156,160 kernels and 40 replays" */
  return g_strdup_printf (_ ("%s kernels and %s CUDA graph replays over %s; estimated from %s "
                             "kernels and %s replays"),
                          rows, replays->str, span, read, replays_read->str);
}

/**
 * ws_overview_describe:
 *
 * Returns: (transfer full): the line under the overview's title: how many
 * kernels (and graph replays), over what span, and whether its figures
 * are estimates
 */
char *
ws_overview_describe (const WsOverview *overview)
{
  g_autofree char *span = ws_format_duration ((double) (overview->end - overview->start));
  g_autoptr (GString) rows = g_string_new (NULL);
  g_autoptr (GString) read = g_string_new (NULL);

  ws_format_int (rows, overview->rows, TRUE);
  ws_format_int (read, overview->rows_read, TRUE);
  if (overview->replays > 0)
    return describe_with_replays (overview, rows->str, read->str, span);
  if (ws_overview_is_exact (overview))
    /* TRANSLATORS: "336 kernels over 19.2 ms" */
    return g_strdup_printf (_ ("%s kernels over %s"), rows->str, span);
  /* TRANSLATORS: "10,000,000 kernels over 12.3 s; estimated from 156,160 of them (1.6%)" */
  return g_strdup_printf (_ ("%s kernels over %s; estimated from %s of them (%.1f%%)"), rows->str,
                          span, read->str, 100.0 * overview->rows_read / MAX (overview->rows, 1));
}

/**
 * ws_overview_chart_draw:
 * @overview: (nullable): what to draw; %NULL draws the background alone
 *
 * Draws the first frame of a big export: the description line, the GPU
 * lanes' density strips over the run's span, and the biggest kernels.
 */
void
ws_overview_chart_draw (cairo_t *cr, double width, double height, const WsOverview *overview,
                        const WsPalette *palette)
{
  g_autoptr (PangoLayout) title = ws_text_layout (cr, palette, 1.0, TRUE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  g_autofree char *described = NULL;
  double y = 8, lanes_h;

  cairo_save (cr);
  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  if (overview == NULL || width < 200 || height < 120)
    {
      cairo_restore (cr);
      return;
    }
  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, title, _ ("GPU lanes"), 8, y, width - 16, WS_ALIGN_LEFT);
  y += ws_text_line_height (title);
  described = ws_overview_describe (overview);
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, small, described, 8, y, width - 16, WS_ALIGN_LEFT);
  y += ws_text_line_height (small) + 6;

  lanes_h = (height - y) * (overview->kernels->len > 0 ? 0.55 : 1.0);
  y = draw_lanes (cr, overview, y, width, lanes_h, palette) + 14;
  if (overview->kernels->len > 0)
    {
      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, title, _ ("Kernels by total time"), 8, y, width - 16, WS_ALIGN_LEFT);
      y += ws_text_line_height (title) + 4;
      draw_kernels (cr, overview, y, width, height - y - 4, palette);
    }
  cairo_restore (cr);
}
