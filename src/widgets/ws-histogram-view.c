/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-histogram-view"
#include "config.h"

#include "ws-histogram-chart.h"
#include "ws-histogram-view.h"
#include "ws-widget-palette.h"

struct _WsHistogramView
{
  GtkDrawingArea parent_instance;

  WsHistogram *histogram;
};

G_DEFINE_FINAL_TYPE (WsHistogramView, ws_histogram_view, GTK_TYPE_DRAWING_AREA)

static gboolean
ws_histogram_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsHistogramView *self = WS_HISTOGRAM_VIEW (widget);
  WsPalette palette;

  ws_widget_palette (widget, &palette);
  ws_histogram_chart_draw (cr, gtk_widget_get_allocated_width (widget),
                           gtk_widget_get_allocated_height (widget), self->histogram, &palette);
  return TRUE;
}

static void
ws_histogram_view_finalize (GObject *object)
{
  WsHistogramView *self = WS_HISTOGRAM_VIEW (object);

  g_clear_pointer (&self->histogram, ws_histogram_free);
  G_OBJECT_CLASS (ws_histogram_view_parent_class)->finalize (object);
}

static void
ws_histogram_view_class_init (WsHistogramViewClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_histogram_view_finalize;
  GTK_WIDGET_CLASS (klass)->draw = ws_histogram_view_draw;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "wshistogramview");
}

static void
ws_histogram_view_init (WsHistogramView *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 200, 120);
}

GtkWidget *
ws_histogram_view_new (void)
{
  return g_object_new (WS_TYPE_HISTOGRAM_VIEW, NULL);
}

/**
 * ws_histogram_view_set_histogram:
 * @histogram: (transfer full) (nullable): what to draw
 */
void
ws_histogram_view_set_histogram (WsHistogramView *self, WsHistogram *histogram)
{
  g_return_if_fail (WS_IS_HISTOGRAM_VIEW (self));

  g_clear_pointer (&self->histogram, ws_histogram_free);
  self->histogram = histogram;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * ws_histogram_view_get_histogram:
 *
 * Returns: (transfer none) (nullable): the histogram drawn
 */
const WsHistogram *
ws_histogram_view_get_histogram (WsHistogramView *self)
{
  return self->histogram;
}
