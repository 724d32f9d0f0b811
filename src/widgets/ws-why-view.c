/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-why-view"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-text.h"
#include "ws-why-view.h"
#include "ws-widget-palette.h"

struct _WsWhyView
{
  GtkDrawingArea parent_instance;

  WsWhyChart chart;
  WsNcuResults *results;     /* the launch's, while @why is shown */
  const WsWhy *why;          /* owned by the page that computed it */
  WsRooflineModel *roofline; /* the launch's, or the run's */
};

G_DEFINE_FINAL_TYPE (WsWhyView, ws_why_view, GTK_TYPE_DRAWING_AREA)

enum
{
  PROP_0,
  PROP_CHART,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
draw_empty (cairo_t *cr, double width, const char *text, const WsPalette *palette)
{
  g_autoptr (PangoLayout) layout = ws_text_layout (cr, palette, 1.0, FALSE);

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  ws_color_set (cr, palette->dim);
  ws_text_draw_wrapped (cr, layout, text, 16, 16, width - 32);
}

static gboolean
ws_why_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsWhyView *self = WS_WHY_VIEW (widget);
  double width = gtk_widget_get_allocated_width (widget);
  double height = gtk_widget_get_allocated_height (widget);
  WsPalette palette;

  ws_widget_palette (widget, &palette);
  if (self->chart == WS_WHY_CHART_ROOFLINE || self->chart == WS_WHY_CHART_ROOFLINE_RUN)
    {
      if (self->roofline != NULL)
        ws_roofline_chart_draw (cr, width, height, self->roofline, &palette);
      else
        draw_empty (cr, width, _ ("Working out the roofline…"), &palette);
    }
  else if (self->why == NULL)
    draw_empty (cr, width, _ ("Select a profiled kernel to see why it is slow."), &palette);
  else
    ws_why_chart_draw (cr, width, height, self->chart, self->results, self->why, NULL, &palette);
  return TRUE;
}

/* Stalls and memory are as tall as their content at the width given. */
static void
ws_why_view_get_preferred_height_for_width (GtkWidget *widget, int width, int *minimum,
                                            int *natural)
{
  WsWhyView *self = WS_WHY_VIEW (widget);
  cairo_t *cr;
  WsPalette palette;
  double h = 240;

  if (self->why != NULL &&
      (self->chart == WS_WHY_CHART_STALLS || self->chart == WS_WHY_CHART_MEMORY))
    {
      ws_widget_palette (widget, &palette);
      cr = ws_widget_measure_context (widget);
      h = ws_why_chart_natural_height (cr, width, self->chart, self->results, self->why, &palette);
      cairo_destroy (cr);
    }
  *minimum = *natural = (int) h;
}

static GtkSizeRequestMode
ws_why_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
ws_why_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsWhyView *self = WS_WHY_VIEW (object);

  switch (prop_id)
    {
      case PROP_CHART:
        g_value_set_int (value, self->chart);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_why_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  WsWhyView *self = WS_WHY_VIEW (object);

  switch (prop_id)
    {
      case PROP_CHART:
        ws_why_view_set_chart (self, (WsWhyChart) g_value_get_int (value));
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_why_view_finalize (GObject *object)
{
  WsWhyView *self = WS_WHY_VIEW (object);

  g_clear_pointer (&self->roofline, ws_roofline_model_free);
  g_clear_pointer (&self->results, ws_ncu_results_unref);
  G_OBJECT_CLASS (ws_why_view_parent_class)->finalize (object);
}

static void
ws_why_view_class_init (WsWhyViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ws_why_view_finalize;
  object_class->get_property = ws_why_view_get_property;
  object_class->set_property = ws_why_view_set_property;
  widget_class->draw = ws_why_view_draw;
  widget_class->get_request_mode = ws_why_view_get_request_mode;
  widget_class->get_preferred_height_for_width = ws_why_view_get_preferred_height_for_width;

  /* An int rather than an enum type: the .ui templates set it by number. */
  properties[PROP_CHART] = g_param_spec_int (
    "chart", NULL, NULL, WS_WHY_CHART_STALLS, WS_WHY_CHART_ROOFLINE_RUN, WS_WHY_CHART_STALLS,
    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "wswhyview");
}

static void
ws_why_view_init (WsWhyView *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 240);
}

GtkWidget *
ws_why_view_new (WsWhyChart chart)
{
  return g_object_new (WS_TYPE_WHY_VIEW, "chart", chart, NULL);
}

void
ws_why_view_set_chart (WsWhyView *self, WsWhyChart chart)
{
  g_return_if_fail (WS_IS_WHY_VIEW (self));

  if (self->chart == chart)
    return;
  self->chart = chart;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHART]);
}

WsWhyChart
ws_why_view_get_chart (WsWhyView *self)
{
  return self->chart;
}

/**
 * ws_why_view_set_why:
 * @results: (nullable): the results @why was computed from
 * @why: (nullable) (transfer none): what to draw; the caller keeps it
 *   alive until it sets another
 *
 * For the launch charts (stalls, roofline, memory).
 */
void
ws_why_view_set_why (WsWhyView *self, WsNcuResults *results, const WsWhy *why)
{
  g_return_if_fail (WS_IS_WHY_VIEW (self));

  if (results != NULL)
    ws_ncu_results_ref (results);
  g_clear_pointer (&self->results, ws_ncu_results_unref);
  self->results = results;
  self->why = why;
  if (self->chart == WS_WHY_CHART_ROOFLINE)
    {
      g_clear_pointer (&self->roofline, ws_roofline_model_free);
      if (why != NULL && results != NULL)
        self->roofline = ws_roofline_model_new_launch (results, why);
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * ws_why_view_set_run_roofline:
 * @model: (transfer full) (nullable): the run's roofline
 */
void
ws_why_view_set_run_roofline (WsWhyView *self, WsRooflineModel *model)
{
  g_return_if_fail (WS_IS_WHY_VIEW (self));

  g_clear_pointer (&self->roofline, ws_roofline_model_free);
  self->roofline = model;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * ws_why_view_get_roofline:
 *
 * Returns: (transfer none) (nullable): the roofline drawn
 */
const WsRooflineModel *
ws_why_view_get_roofline (WsWhyView *self)
{
  return self->roofline;
}

/**
 * ws_why_view_get_why:
 *
 * Returns: (transfer none) (nullable): the launch drawn
 */
const WsWhy *
ws_why_view_get_why (WsWhyView *self)
{
  return self->why;
}
