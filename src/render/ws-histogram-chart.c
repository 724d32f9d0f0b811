/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-histogram"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-histogram-chart.h"
#include "ws-text.h"

/* The distribution of a kernel's durations: one bar per bin, the count on
 * the y axis, the bins' edges (in time units) under the x axis. */
void
ws_histogram_chart_draw (cairo_t *cr, double width, double height, const WsHistogram *histogram,
                         const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  double line = ws_text_line_height (small);
  double left = 8, right = 8, top = line + 6, bottom = line + 8;
  double plot_w = width - left - right, plot_h = height - top - bottom;
  g_autofree char *lo = NULL, *hi = NULL, *peak = NULL, *scale = NULL;

  cairo_save (cr);
  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  if (histogram == NULL || histogram->max_count == 0 || plot_w < 20 || plot_h < 10)
    {
      cairo_restore (cr);
      return;
    }

  ws_color_set (cr, palette->grid);
  cairo_rectangle (cr, left, top + plot_h, plot_w, 1);
  cairo_fill (cr);

  for (guint b = 0; b < histogram->n_bins; b++)
    {
      double x0 = left + plot_w * b / histogram->n_bins;
      double x1 = left + plot_w * (b + 1) / histogram->n_bins;
      double h = plot_h * histogram->counts[b] / histogram->max_count;

      if (histogram->counts[b] == 0)
        continue;
      ws_color_set (cr, palette->bar);
      cairo_rectangle (cr, round (x0) + 1, round (top + plot_h - MAX (h, 1)),
                       MAX (round (x1) - round (x0) - 1, 1), round (MAX (h, 1)));
      cairo_fill (cr);
    }

  ws_color_set (cr, palette->dim);
  lo = ws_format_duration (histogram->lo);
  hi = ws_format_duration (histogram->hi);
  /* Close edges read the same at three digits: show whole nanoseconds. */
  if (g_strcmp0 (lo, hi) == 0)
    {
      g_autoptr (GString) a = g_string_new (NULL);
      g_autoptr (GString) b = g_string_new (NULL);

      ws_format_int (a, (gint64) llround (histogram->lo), TRUE);
      ws_format_int (b, (gint64) llround (histogram->hi), TRUE);
      g_free (lo);
      g_free (hi);
      lo = g_strdup_printf ("%s ns", a->str);
      hi = g_strdup_printf ("%s ns", b->str);
    }
  ws_text_draw (cr, small, lo, left, top + plot_h + 4, 0, WS_ALIGN_LEFT);
  ws_text_draw (cr, small, hi, left + plot_w, top + plot_h + 4, 0, WS_ALIGN_RIGHT);
  scale = histogram->log_scale ? g_strdup (_ ("log scale")) : g_strdup ("");
  ws_text_draw (cr, small, scale, left + plot_w / 2, top + plot_h + 4, 0, WS_ALIGN_CENTER);
  peak = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u launch in the tallest bin",
                                       "%u launches in the tallest bin", histogram->max_count),
                          histogram->max_count);
  ws_text_draw (cr, small, peak, left, 2, plot_w, WS_ALIGN_LEFT);
  cairo_restore (cr);
}
