/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-view"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-compare-view.h"
#include "ws-format.h"
#include "ws-widget-palette.h"

struct _WsCompareView
{
  GtkDrawingArea parent_instance;

  WsComparison *cmp;
  WsCompareState state;
};

G_DEFINE_FINAL_TYPE (WsCompareView, ws_compare_view, GTK_TYPE_DRAWING_AREA)

static void
update_size (WsCompareView *self)
{
  cairo_t *cr;
  WsPalette palette;

  if (self->cmp == NULL)
    return;
  cr = ws_widget_measure_context (GTK_WIDGET (self));
  ws_widget_palette (GTK_WIDGET (self), &palette);
  gtk_widget_set_size_request (
    GTK_WIDGET (self), 400,
    (int) ceil (ws_compare_chart_natural_height (cr, self->cmp, &self->state, &palette)));
  cairo_destroy (cr);
}

static gboolean
ws_compare_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsCompareView *self = WS_COMPARE_VIEW (widget);
  WsPalette palette;

  if (self->cmp == NULL)
    return FALSE;
  ws_widget_palette (widget, &palette);
  ws_compare_chart_draw (cr, gtk_widget_get_allocated_width (widget),
                         gtk_widget_get_allocated_height (widget), self->cmp, &self->state,
                         &palette);
  return TRUE;
}

static int
hit (WsCompareView *self, double x, double y)
{
  cairo_t *cr = ws_widget_measure_context (GTK_WIDGET (self));
  WsPalette palette;
  int row;

  ws_widget_palette (GTK_WIDGET (self), &palette);
  row = ws_compare_chart_hit (cr, gtk_widget_get_allocated_width (GTK_WIDGET (self)), self->cmp,
                              &self->state, &palette, x, y);
  cairo_destroy (cr);
  return row;
}

static gboolean
ws_compare_view_motion_notify (GtkWidget *widget, GdkEventMotion *event)
{
  WsCompareView *self = WS_COMPARE_VIEW (widget);
  int row = self->cmp != NULL ? hit (self, event->x, event->y) : -1;

  if (row != self->state.hover)
    {
      self->state.hover = row;
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_compare_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  WsCompareView *self = WS_COMPARE_VIEW (widget);

  if (self->cmp == NULL || event->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  self->state.selected = hit (self, event->x, event->y);
  gtk_widget_queue_draw (widget);
  return GDK_EVENT_STOP;
}

static gboolean
ws_compare_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                               GtkTooltip *tooltip)
{
  WsCompareView *self = WS_COMPARE_VIEW (widget);
  const WsDelta *d = self->cmp != NULL ? ws_compare_chart_row (self->cmp, &self->state,
                                                               (guint) MAX (hit (self, x, y), 0))
                                       : NULL;
  g_autofree char *before = NULL, *after = NULL, *escaped = NULL, *markup = NULL;
  g_autofree char *bc = NULL, *ac = NULL;

  if (d == NULL || hit (self, x, y) < 0)
    return FALSE;
  before = ws_format_duration ((double) d->before_total);
  after = ws_format_duration ((double) d->after_total);
  bc = ws_format_count (d->before_count);
  ac = ws_format_count (d->after_count);
  escaped = g_markup_escape_text (d->name, -1);
  markup = g_strdup_printf ("<b>%s</b>\n%s: %s (%s×)\n%s: %s (%s×)", escaped, _ ("Before"), before,
                            bc, _ ("After"), after, ac);
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
ws_compare_view_finalize (GObject *object)
{
  WsCompareView *self = WS_COMPARE_VIEW (object);

  g_clear_pointer (&self->cmp, ws_comparison_unref);
  G_OBJECT_CLASS (ws_compare_view_parent_class)->finalize (object);
}

static void
ws_compare_view_class_init (WsCompareViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ws_compare_view_finalize;
  widget_class->draw = ws_compare_view_draw;
  widget_class->motion_notify_event = ws_compare_view_motion_notify;
  widget_class->button_press_event = ws_compare_view_button_press;
  widget_class->query_tooltip = ws_compare_view_query_tooltip;
  gtk_widget_class_set_css_name (widget_class, "wscompareview");
}

static void
ws_compare_view_init (WsCompareView *self)
{
  self->state.hover = -1;
  self->state.selected = -1;
  self->state.top_n = 30;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_add_events (GTK_WIDGET (self), GDK_POINTER_MOTION_MASK | GDK_BUTTON_PRESS_MASK);
}

GtkWidget *
ws_compare_view_new (void)
{
  return g_object_new (WS_TYPE_COMPARE_VIEW, NULL);
}

void
ws_compare_view_set_comparison (WsCompareView *self, WsComparison *cmp)
{
  g_return_if_fail (WS_IS_COMPARE_VIEW (self));

  if (cmp != NULL)
    ws_comparison_ref (cmp);
  g_clear_pointer (&self->cmp, ws_comparison_unref);
  self->cmp = cmp;
  self->state.hover = self->state.selected = -1;
  update_size (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_compare_view_set_ranges (WsCompareView *self, gboolean ranges)
{
  self->state.ranges = ranges;
  update_size (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const WsCompareState *
ws_compare_view_get_state (WsCompareView *self)
{
  return &self->state;
}

/**
 * ws_compare_view_get_comparison:
 *
 * Returns: (transfer none) (nullable): the comparison drawn
 */
WsComparison *
ws_compare_view_get_comparison (WsCompareView *self)
{
  return self->cmp;
}
