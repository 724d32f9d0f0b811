/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauges-view"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-bars-chart.h"
#include "ws-gauges-view.h"
#include "ws-widget-palette.h"

/* Draws the gauges of ncu results: the overview of all launches (a row
 * each; a click selects one) or the panel of one launch.  Drawing is
 * ws-gauges-chart's; this widget handles input. */
struct _WsGaugesView
{
  GtkDrawingArea parent_instance;

  gboolean panel;
  WsNcuResults *results;
  WsGaugesOverview *overview;
  WsGaugesOverviewState state;
  int sort;
  int launch;      /* the selected (overview) or drawn (panel) launch, or -1 */
  int hover_gauge; /* panel: WsGaugeKind under the pointer, or -1 */
  int min_height;  /* panel: at least this tall (px), or 0 */
};

G_DEFINE_FINAL_TYPE (WsGaugesView, ws_gauges_view, GTK_TYPE_DRAWING_AREA)

enum
{
  PROP_0,
  PROP_PANEL,
  N_PROPS
};

enum
{
  LAUNCH_SELECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
update_size (WsGaugesView *self)
{
  if (self->panel)
    gtk_widget_set_size_request (GTK_WIDGET (self), 360, MAX (420, self->min_height));
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* The overview is as tall as its rows at the width it gets: narrow, each
 * row takes two lines. */
static GtkSizeRequestMode
ws_gauges_view_get_request_mode (GtkWidget *widget)
{
  return WS_GAUGES_VIEW (widget)->panel ? GTK_SIZE_REQUEST_CONSTANT_SIZE
                                        : GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
ws_gauges_view_get_preferred_width (GtkWidget *widget, int *minimum, int *natural)
{
  *minimum = WS_GAUGES_VIEW (widget)->panel ? 360 : 420;
  *natural = WS_GAUGES_VIEW (widget)->panel ? 560 : 960;
}

static void
ws_gauges_view_get_preferred_height_for_width (GtkWidget *widget, int width, int *minimum,
                                               int *natural)
{
  WsGaugesView *self = WS_GAUGES_VIEW (widget);
  cairo_t *cr;
  WsPalette palette;

  if (self->panel)
    {
      /* Narrow (a side panel): taller at best, so that the arcs take two
       * rows of three; at least what one row needs. */
      *minimum = 420;
      *natural = width < 560 ? 680 : 420;
      return;
    }
  cr = ws_widget_measure_context (widget);
  ws_widget_palette (widget, &palette);
  *minimum = *natural =
    (int) ceil (ws_gauges_overview_natural_height (cr, width, self->overview, &palette));
  cairo_destroy (cr);
}

static void
ws_gauges_view_get_preferred_height (GtkWidget *widget, int *minimum, int *natural)
{
  ws_gauges_view_get_preferred_height_for_width (widget, 420, minimum, natural);
}

static void
rebuild (WsGaugesView *self)
{
  g_clear_pointer (&self->overview, ws_gauges_overview_free);
  self->overview = ws_gauges_overview_new (self->results, self->sort);
  self->state.hover = -1;
  self->state.selected =
    self->launch >= 0 ? ws_gauges_overview_row_of (self->overview, (guint) self->launch) : -1;
  update_size (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
ws_gauges_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsGaugesView *self = WS_GAUGES_VIEW (widget);
  double width = gtk_widget_get_allocated_width (widget);
  double height = gtk_widget_get_allocated_height (widget);
  WsPalette palette;

  ws_widget_palette (widget, &palette);
  if (!self->panel)
    ws_gauges_overview_draw (cr, width, height, self->overview, &self->state, &palette);
  else if (self->results != NULL && self->launch >= 0)
    {
      WsGaugesPanelState state = { self->hover_gauge };

      ws_gauges_panel_draw (cr, width, height, self->results, (guint) self->launch, &state,
                            &palette);
    }
  else
    ws_gauges_panel_draw_empty (cr, width, height, _ ("Select a profiled kernel."), &palette);
  return TRUE;
}

/* The overview row, or the panel's gauge, under (@x, @y); -1 for none. */
static int
hit (WsGaugesView *self, double x, double y)
{
  GtkWidget *widget = GTK_WIDGET (self);
  WsPalette palette;
  cairo_t *cr;
  int index = -1;

  ws_widget_palette (widget, &palette);
  cr = ws_widget_measure_context (widget);
  if (!self->panel)
    index = ws_gauges_overview_hit (cr, gtk_widget_get_allocated_width (widget), self->overview,
                                    &palette, x, y);
  else if (self->results != NULL && self->launch >= 0)
    index = ws_gauges_panel_hit (cr, gtk_widget_get_allocated_width (widget),
                                 gtk_widget_get_allocated_height (widget), self->results,
                                 (guint) self->launch, &palette, x, y);
  cairo_destroy (cr);
  return index;
}

static gboolean
ws_gauges_view_motion_notify (GtkWidget *widget, GdkEventMotion *event)
{
  WsGaugesView *self = WS_GAUGES_VIEW (widget);
  int index = hit (self, event->x, event->y);
  int *hover = self->panel ? &self->hover_gauge : &self->state.hover;

  if (index != *hover)
    {
      *hover = index;
      gtk_widget_trigger_tooltip_query (widget);
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_gauges_view_leave_notify (GtkWidget *widget, GdkEventCrossing *event)
{
  WsGaugesView *self = WS_GAUGES_VIEW (widget);

  if (self->state.hover != -1 || self->hover_gauge != -1)
    {
      self->state.hover = -1;
      self->hover_gauge = -1;
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_gauges_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  WsGaugesView *self = WS_GAUGES_VIEW (widget);
  int row;

  if (self->panel || event->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  gtk_widget_grab_focus (widget);
  row = hit (self, event->x, event->y);
  if (row >= 0)
    ws_gauges_view_select_launch (self, (int) ws_gauges_overview_launch (self->overview, row));
  return GDK_EVENT_STOP;
}

static gboolean
ws_gauges_view_key_press (GtkWidget *widget, GdkEventKey *event)
{
  WsGaugesView *self = WS_GAUGES_VIEW (widget);
  int n = (int) ws_gauges_overview_n_rows (self->overview);
  int row = self->state.selected;

  if (self->panel || n == 0)
    return GDK_EVENT_PROPAGATE;
  switch (event->keyval)
    {
      case GDK_KEY_Down:
        row = MIN (row + 1, n - 1);
        break;
      case GDK_KEY_Up:
        row = MAX (row - 1, 0);
        break;
      default:
        return GDK_EVENT_PROPAGATE;
    }
  ws_gauges_view_select_launch (self, (int) ws_gauges_overview_launch (self->overview, row));
  return GDK_EVENT_STOP;
}

static gboolean
ws_gauges_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                              GtkTooltip *tooltip)
{
  WsGaugesView *self = WS_GAUGES_VIEW (widget);
  int index = hit (self, x, y);
  g_autofree char *text = NULL;

  if (index < 0)
    return FALSE;
  if (self->panel)
    text = ws_gauges_panel_tooltip (self->results, (guint) self->launch, (WsGaugeKind) index);
  else
    {
      guint launch = ws_gauges_overview_launch (self->overview, (guint) index);
      const WsGauges *gauges = ws_ncu_results_gauges (self->results, launch);

      text = g_strdup_printf ("%s\n%s: %s", ws_ncu_results_launch (self->results, launch)->kernel,
                              ws_verdict_label (gauges->verdict), gauges->verdict_reason);
    }
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ws_gauges_view_style_updated (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ws_gauges_view_parent_class)->style_updated (widget);
  update_size (WS_GAUGES_VIEW (widget));
}

static void
ws_gauges_view_finalize (GObject *object)
{
  WsGaugesView *self = WS_GAUGES_VIEW (object);

  g_clear_pointer (&self->overview, ws_gauges_overview_free);
  g_clear_pointer (&self->results, ws_ncu_results_unref);

  G_OBJECT_CLASS (ws_gauges_view_parent_class)->finalize (object);
}

static void
ws_gauges_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsGaugesView *self = WS_GAUGES_VIEW (object);

  switch (prop_id)
    {
      case PROP_PANEL:
        g_value_set_boolean (value, self->panel);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_gauges_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  WsGaugesView *self = WS_GAUGES_VIEW (object);

  switch (prop_id)
    {
      case PROP_PANEL:
        self->panel = g_value_get_boolean (value);
        update_size (self);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_gauges_view_class_init (WsGaugesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ws_gauges_view_finalize;
  object_class->get_property = ws_gauges_view_get_property;
  object_class->set_property = ws_gauges_view_set_property;

  widget_class->draw = ws_gauges_view_draw;
  widget_class->motion_notify_event = ws_gauges_view_motion_notify;
  widget_class->leave_notify_event = ws_gauges_view_leave_notify;
  widget_class->button_press_event = ws_gauges_view_button_press;
  widget_class->key_press_event = ws_gauges_view_key_press;
  widget_class->query_tooltip = ws_gauges_view_query_tooltip;
  widget_class->style_updated = ws_gauges_view_style_updated;
  widget_class->get_request_mode = ws_gauges_view_get_request_mode;
  widget_class->get_preferred_width = ws_gauges_view_get_preferred_width;
  widget_class->get_preferred_height = ws_gauges_view_get_preferred_height;
  widget_class->get_preferred_height_for_width = ws_gauges_view_get_preferred_height_for_width;

  /**
   * WsGaugesView:panel:
   *
   * Whether the view draws the panel of one launch rather than the overview.
   */
  properties[PROP_PANEL] =
    g_param_spec_boolean ("panel", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsGaugesView::launch-selected:
   * @launch: the launch's index in the results, or -1
   *
   * The overview's selection changed (a click, the arrow keys, or
   * ws_gauges_view_select_launch()).
   */
  signals[LAUNCH_SELECTED] =
    g_signal_new ("launch-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_INT);

  gtk_widget_class_set_css_name (widget_class, "wsgaugesview");
}

static void
ws_gauges_view_init (WsGaugesView *self)
{
  self->sort = WS_GAUGE_DURATION;
  self->launch = -1;
  self->hover_gauge = -1;
  self->state.hover = -1;
  self->state.selected = -1;
  self->overview = ws_gauges_overview_new (NULL, self->sort);
  gtk_widget_set_can_focus (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_add_events (GTK_WIDGET (self), GDK_POINTER_MOTION_MASK | GDK_BUTTON_PRESS_MASK |
                                              GDK_LEAVE_NOTIFY_MASK | GDK_KEY_PRESS_MASK);
}

/**
 * ws_gauges_view_new:
 * @panel: draw the panel of one launch; otherwise the overview
 */
GtkWidget *
ws_gauges_view_new (gboolean panel)
{
  return g_object_new (WS_TYPE_GAUGES_VIEW, "panel", panel, NULL);
}

/**
 * ws_gauges_view_set_results:
 * @results: (nullable): the ncu results to show
 */
void
ws_gauges_view_set_results (WsGaugesView *self, WsNcuResults *results)
{
  g_return_if_fail (WS_IS_GAUGES_VIEW (self));

  if (results != NULL)
    ws_ncu_results_ref (results);
  g_clear_pointer (&self->results, ws_ncu_results_unref);
  self->results = results;
  self->launch = -1;
  self->hover_gauge = -1;
  rebuild (self);
}

/* @sort: WS_GAUGES_SORT_ID or a WsGaugeKind: the overview's order. */
void
ws_gauges_view_set_sort (WsGaugesView *self, int sort)
{
  g_return_if_fail (WS_IS_GAUGES_VIEW (self));
  g_return_if_fail (sort >= WS_GAUGES_SORT_ID && sort < WS_N_GAUGES);

  if (self->sort == sort)
    return;
  self->sort = sort;
  rebuild (self);
}

int
ws_gauges_view_get_sort (WsGaugesView *self)
{
  g_return_val_if_fail (WS_IS_GAUGES_VIEW (self), WS_GAUGES_SORT_ID);

  return self->sort;
}

guint
ws_gauges_view_get_n_rows (WsGaugesView *self)
{
  g_return_val_if_fail (WS_IS_GAUGES_VIEW (self), 0);

  return ws_gauges_overview_n_rows (self->overview);
}

/**
 * ws_gauges_view_get_overview:
 *
 * Returns: (transfer none): the rows as drawn
 */
const WsGaugesOverview *
ws_gauges_view_get_overview (WsGaugesView *self)
{
  g_return_val_if_fail (WS_IS_GAUGES_VIEW (self), NULL);

  return self->overview;
}

/**
 * ws_gauges_view_select_launch:
 * @launch: a launch index of the results, or -1
 *
 * Selects the launch's row (overview; emits ::launch-selected) or draws
 * its panel.
 */
void
ws_gauges_view_select_launch (WsGaugesView *self, int launch)
{
  g_return_if_fail (WS_IS_GAUGES_VIEW (self));

  if (self->results == NULL || launch < -1 ||
      launch >= (int) ws_ncu_results_n_launches (self->results))
    launch = -1;
  if (launch == self->launch)
    return;
  self->launch = launch;
  self->hover_gauge = -1;
  self->state.selected =
    launch >= 0 ? ws_gauges_overview_row_of (self->overview, (guint) launch) : -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (!self->panel)
    g_signal_emit (self, signals[LAUNCH_SELECTED], 0, launch);
}

int
ws_gauges_view_get_launch (WsGaugesView *self)
{
  g_return_val_if_fail (WS_IS_GAUGES_VIEW (self), -1);

  return self->launch;
}

/* Where overview row @row is, in widget coordinates: for tests that click. */
gboolean
ws_gauges_view_get_row_rect (WsGaugesView *self, guint row, GdkRectangle *rect)
{
  cairo_t *cr;
  WsPalette palette;
  cairo_rectangle_t r;
  gboolean found;

  g_return_val_if_fail (WS_IS_GAUGES_VIEW (self), FALSE);

  ws_widget_palette (GTK_WIDGET (self), &palette);
  cr = ws_widget_measure_context (GTK_WIDGET (self));
  found = ws_gauges_overview_row_rect (cr, gtk_widget_get_allocated_width (GTK_WIDGET (self)),
                                       self->overview, &palette, row, &r);
  cairo_destroy (cr);
  if (found)
    *rect = (GdkRectangle){ (int) r.x, (int) r.y, (int) r.width, (int) r.height };
  return found;
}

/**
 * ws_gauges_view_set_min_height:
 *
 * A panel in a scrolled side panel can afford to be tall: two rows of
 * three arcs need about 680 px when the panel is narrow.
 */
void
ws_gauges_view_set_min_height (WsGaugesView *self, int height)
{
  g_return_if_fail (WS_IS_GAUGES_VIEW (self));

  self->min_height = height;
  update_size (self);
}
