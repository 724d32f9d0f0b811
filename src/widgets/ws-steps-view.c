/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-steps-view"
#include "config.h"

#include "ws-steps-view.h"
#include "ws-widget-palette.h"

/* The steps of a run as bars (ws-steps-chart.h): hovering a bar shows what
 * its step did, a click selects it, a double click activates it. */
struct _WsStepsView
{
  GtkDrawingArea parent_instance;

  WsRun *run;
  WsSteps *steps;
  WsStepsState state;
};

G_DEFINE_FINAL_TYPE (WsStepsView, ws_steps_view, GTK_TYPE_DRAWING_AREA)

enum
{
  STEP_SELECTED,
  STEP_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
ws_steps_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsStepsView *self = WS_STEPS_VIEW (widget);
  WsPalette palette;

  if (self->steps == NULL)
    return FALSE;
  ws_widget_palette (widget, &palette);
  ws_steps_chart_draw (cr, gtk_widget_get_allocated_width (widget),
                       gtk_widget_get_allocated_height (widget), self->run, self->steps,
                       &self->state, &palette);
  return TRUE;
}

static int
hit (WsStepsView *self, double x, double y)
{
  return ws_steps_chart_hit (gtk_widget_get_allocated_width (GTK_WIDGET (self)),
                             gtk_widget_get_allocated_height (GTK_WIDGET (self)), self->steps, x,
                             y);
}

static gboolean
ws_steps_view_motion_notify (GtkWidget *widget, GdkEventMotion *event)
{
  WsStepsView *self = WS_STEPS_VIEW (widget);
  int index = hit (self, event->x, event->y);

  if (index != self->state.hover)
    {
      self->state.hover = index;
      gtk_widget_trigger_tooltip_query (widget);
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_steps_view_leave_notify (GtkWidget *widget, GdkEventCrossing *event)
{
  WsStepsView *self = WS_STEPS_VIEW (widget);

  if (self->state.hover != -1)
    {
      self->state.hover = -1;
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_steps_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  WsStepsView *self = WS_STEPS_VIEW (widget);
  int index = hit (self, event->x, event->y);

  if (event->button != GDK_BUTTON_PRIMARY || index < 0)
    return GDK_EVENT_PROPAGATE;
  if (event->type == GDK_2BUTTON_PRESS)
    g_signal_emit (self, signals[STEP_ACTIVATED], 0, index);
  else
    ws_steps_view_select (self, index);
  return GDK_EVENT_STOP;
}

static gboolean
ws_steps_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                             GtkTooltip *tooltip)
{
  WsStepsView *self = WS_STEPS_VIEW (widget);
  int index = keyboard ? self->state.selected : hit (self, x, y);
  g_autofree char *text = NULL;

  if (index < 0)
    return FALSE;
  text = ws_steps_chart_tooltip (self->run, self->steps, (guint) index);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ws_steps_view_finalize (GObject *object)
{
  WsStepsView *self = WS_STEPS_VIEW (object);

  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_pointer (&self->steps, ws_steps_unref);
  G_OBJECT_CLASS (ws_steps_view_parent_class)->finalize (object);
}

static void
ws_steps_view_class_init (WsStepsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ws_steps_view_finalize;
  widget_class->draw = ws_steps_view_draw;
  widget_class->motion_notify_event = ws_steps_view_motion_notify;
  widget_class->leave_notify_event = ws_steps_view_leave_notify;
  widget_class->button_press_event = ws_steps_view_button_press;
  widget_class->query_tooltip = ws_steps_view_query_tooltip;

  /* The step clicked, or -1. */
  signals[STEP_SELECTED] =
    g_signal_new ("step-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  /* A step double-clicked: to be shown in the timeline. */
  signals[STEP_ACTIVATED] =
    g_signal_new ("step-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_INT);
}

static void
ws_steps_view_init (WsStepsView *self)
{
  self->state.hover = -1;
  self->state.selected = -1;
  gtk_widget_add_events (GTK_WIDGET (self),
                         GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK | GDK_BUTTON_PRESS_MASK);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 480, 260);
}

GtkWidget *
ws_steps_view_new (void)
{
  return g_object_new (WS_TYPE_STEPS_VIEW, NULL);
}

/**
 * ws_steps_view_set_steps:
 * @run: (nullable): the run the steps are of
 * @steps: (nullable): its steps
 */
void
ws_steps_view_set_steps (WsStepsView *self, WsRun *run, WsSteps *steps)
{
  g_return_if_fail (WS_IS_STEPS_VIEW (self));

  if (run != NULL)
    ws_run_ref (run);
  if (steps != NULL)
    ws_steps_ref (steps);
  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_pointer (&self->steps, ws_steps_unref);
  self->run = run;
  self->steps = steps;
  self->state.hover = -1;
  self->state.selected = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
ws_steps_view_get_selected (WsStepsView *self)
{
  g_return_val_if_fail (WS_IS_STEPS_VIEW (self), -1);
  return self->state.selected;
}

void
ws_steps_view_select (WsStepsView *self, int step)
{
  g_return_if_fail (WS_IS_STEPS_VIEW (self));

  if (self->steps == NULL || step >= (int) self->steps->steps->len)
    step = -1;
  if (step == self->state.selected)
    return;
  self->state.selected = step;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[STEP_SELECTED], 0, step);
}
