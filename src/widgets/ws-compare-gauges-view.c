/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-gauges-view"
#include "config.h"

#include <math.h>

#include "ws-compare-gauges-view.h"
#include "ws-widget-palette.h"

/* Draws one kernel's gauges before and after (ws-compare-gauges); this
 * widget handles the pointer: the row under it is highlighted and its
 * tooltip names the metrics on both sides. */
struct _WsCompareGaugesView
{
  GtkDrawingArea parent_instance;

  WsComparison *cmp;
  const WsDelta *delta; /* in cmp->kernels, or NULL */
  WsCompareGaugesState state;
};

G_DEFINE_FINAL_TYPE (WsCompareGaugesView, ws_compare_gauges_view, GTK_TYPE_DRAWING_AREA)

/* The panel is as tall as its text and rows at the width it gets. */
static GtkSizeRequestMode
ws_compare_gauges_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
ws_compare_gauges_view_get_preferred_width (GtkWidget *widget, int *minimum, int *natural)
{
  *minimum = 420;
  *natural = 860;
}

static void
ws_compare_gauges_view_get_preferred_height_for_width (GtkWidget *widget, int width, int *minimum,
                                                       int *natural)
{
  WsCompareGaugesView *self = WS_COMPARE_GAUGES_VIEW (widget);
  WsPalette palette;
  cairo_t *cr;

  if (self->delta == NULL)
    {
      *minimum = *natural = 200;
      return;
    }
  ws_widget_palette (widget, &palette);
  cr = ws_widget_measure_context (widget);
  *minimum = *natural =
    (int) ceil (ws_compare_gauges_natural_height (cr, width, self->cmp, self->delta, &palette));
  cairo_destroy (cr);
}

static void
ws_compare_gauges_view_get_preferred_height (GtkWidget *widget, int *minimum, int *natural)
{
  ws_compare_gauges_view_get_preferred_height_for_width (widget, 860, minimum, natural);
}

static gboolean
ws_compare_gauges_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsCompareGaugesView *self = WS_COMPARE_GAUGES_VIEW (widget);
  double width = gtk_widget_get_allocated_width (widget);
  double height = gtk_widget_get_allocated_height (widget);
  WsPalette palette;

  ws_widget_palette (widget, &palette);
  if (self->delta != NULL)
    ws_compare_gauges_draw (cr, width, height, self->cmp, self->delta, &self->state, &palette);
  else
    {
      ws_color_set (cr, palette.background);
      cairo_paint (cr);
    }
  return TRUE;
}

static int
hit (WsCompareGaugesView *self, double x, double y)
{
  WsPalette palette;
  cairo_t *cr;
  int kind;

  if (self->delta == NULL)
    return -1;
  ws_widget_palette (GTK_WIDGET (self), &palette);
  cr = ws_widget_measure_context (GTK_WIDGET (self));
  kind = ws_compare_gauges_hit (cr, gtk_widget_get_allocated_width (GTK_WIDGET (self)), self->cmp,
                                self->delta, &palette, x, y);
  cairo_destroy (cr);
  return kind;
}

static gboolean
ws_compare_gauges_view_motion_notify (GtkWidget *widget, GdkEventMotion *event)
{
  WsCompareGaugesView *self = WS_COMPARE_GAUGES_VIEW (widget);
  int kind = hit (self, event->x, event->y);

  if (kind != self->state.hover)
    {
      self->state.hover = kind;
      gtk_widget_trigger_tooltip_query (widget);
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_compare_gauges_view_leave_notify (GtkWidget *widget, GdkEventCrossing *event)
{
  WsCompareGaugesView *self = WS_COMPARE_GAUGES_VIEW (widget);

  if (self->state.hover != -1)
    {
      self->state.hover = -1;
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_compare_gauges_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                                      GtkTooltip *tooltip)
{
  WsCompareGaugesView *self = WS_COMPARE_GAUGES_VIEW (widget);
  int kind = hit (self, x, y);
  g_autofree char *text = NULL;

  if (kind < 0)
    return FALSE;
  text = ws_compare_gauges_tooltip (self->cmp, self->delta, (WsGaugeKind) kind);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ws_compare_gauges_view_style_updated (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ws_compare_gauges_view_parent_class)->style_updated (widget);
  gtk_widget_queue_resize (widget);
}

static void
ws_compare_gauges_view_finalize (GObject *object)
{
  WsCompareGaugesView *self = WS_COMPARE_GAUGES_VIEW (object);

  g_clear_pointer (&self->cmp, ws_comparison_unref);
  G_OBJECT_CLASS (ws_compare_gauges_view_parent_class)->finalize (object);
}

static void
ws_compare_gauges_view_class_init (WsCompareGaugesViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ws_compare_gauges_view_finalize;
  widget_class->draw = ws_compare_gauges_view_draw;
  widget_class->motion_notify_event = ws_compare_gauges_view_motion_notify;
  widget_class->leave_notify_event = ws_compare_gauges_view_leave_notify;
  widget_class->query_tooltip = ws_compare_gauges_view_query_tooltip;
  widget_class->style_updated = ws_compare_gauges_view_style_updated;
  widget_class->get_request_mode = ws_compare_gauges_view_get_request_mode;
  widget_class->get_preferred_width = ws_compare_gauges_view_get_preferred_width;
  widget_class->get_preferred_height = ws_compare_gauges_view_get_preferred_height;
  widget_class->get_preferred_height_for_width =
    ws_compare_gauges_view_get_preferred_height_for_width;
  gtk_widget_class_set_css_name (widget_class, "wscomparegaugesview");
}

static void
ws_compare_gauges_view_init (WsCompareGaugesView *self)
{
  self->state.hover = -1;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_add_events (GTK_WIDGET (self), GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK);
}

GtkWidget *
ws_compare_gauges_view_new (void)
{
  return g_object_new (WS_TYPE_COMPARE_GAUGES_VIEW, NULL);
}

/**
 * ws_compare_gauges_view_set_kernel:
 * @cmp: (nullable): the comparison
 * @key: (nullable): the kernel to draw, as matched in @cmp
 *
 * Draws the gauges of kernel @key before and after; nothing when it was
 * not profiled on both sides.
 */
void
ws_compare_gauges_view_set_kernel (WsCompareGaugesView *self, WsComparison *cmp, const char *key)
{
  const WsDelta *delta;

  g_return_if_fail (WS_IS_COMPARE_GAUGES_VIEW (self));

  delta = cmp != NULL && key != NULL ? ws_comparison_find (cmp, key) : NULL;
  if (delta != NULL && !ws_delta_profiled_both (delta))
    delta = NULL;
  if (cmp != NULL)
    ws_comparison_ref (cmp);
  g_clear_pointer (&self->cmp, ws_comparison_unref);
  self->cmp = cmp;
  self->delta = delta;
  self->state.hover = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * ws_compare_gauges_view_get_delta:
 *
 * Returns: (transfer none) (nullable): the kernel drawn
 */
const WsDelta *
ws_compare_gauges_view_get_delta (WsCompareGaugesView *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_GAUGES_VIEW (self), NULL);

  return self->delta;
}

/* Where the row of @kind is drawn, in widget coordinates. */
gboolean
ws_compare_gauges_view_get_geometry (WsCompareGaugesView *self, WsGaugeKind kind,
                                     WsCompareGaugeGeometry *geometry)
{
  WsPalette palette;
  cairo_t *cr;
  gboolean found;

  g_return_val_if_fail (WS_IS_COMPARE_GAUGES_VIEW (self), FALSE);

  if (self->delta == NULL)
    return FALSE;
  ws_widget_palette (GTK_WIDGET (self), &palette);
  cr = ws_widget_measure_context (GTK_WIDGET (self));
  found = ws_compare_gauges_geometry (cr, gtk_widget_get_allocated_width (GTK_WIDGET (self)),
                                      self->cmp, self->delta, &palette, kind, geometry);
  cairo_destroy (cr);
  return found;
}
