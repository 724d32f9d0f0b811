/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-flame-view"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-flame-view.h"
#include "ws-widget-palette.h"

/* The flame graph widget: draws with ws_flame_chart_draw(), zooms into a
 * frame on click (a click on an ancestor or on "all" zooms back out), and
 * says a frame's self and total weight in its tooltip. */

struct _WsFlameView
{
  GtkDrawingArea parent_instance;

  WsFlameGraph *graph;
  WsFlameState state;
  gboolean *matches;
  char *query;
};

G_DEFINE_FINAL_TYPE (WsFlameView, ws_flame_view, GTK_TYPE_DRAWING_AREA)

static void
update_size (WsFlameView *self)
{
  int height = 60;

  if (self->graph != NULL)
    height = (int) (ws_cpu_profile_has_stacks (self->graph->profile)
                      ? ws_flame_chart_natural_height (self->graph)
                      : ws_flame_functions_natural_height (self->graph, 40));

  gtk_widget_set_size_request (GTK_WIDGET (self), 200, height);
}

static gboolean
ws_flame_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsFlameView *self = WS_FLAME_VIEW (widget);
  WsPalette palette;
  double width = gtk_widget_get_allocated_width (widget);
  double height = gtk_widget_get_allocated_height (widget);

  ws_widget_palette (widget, &palette);
  if (self->graph == NULL)
    {
      ws_color_set (cr, palette.background);
      cairo_paint (cr);
      return TRUE;
    }
  /* A flat profile (cProfile) has no stacks: its functions as bars. */
  if (!ws_cpu_profile_has_stacks (self->graph->profile))
    ws_flame_functions_draw (cr, width, height, self->graph, 40, NULL, &palette);
  else
    ws_flame_chart_draw (cr, width, height, self->graph, &self->state, &palette);
  return TRUE;
}

static guint32
node_at (WsFlameView *self, double x, double y)
{
  if (self->graph == NULL || !ws_cpu_profile_has_stacks (self->graph->profile))
    return WS_FLAME_NO_NODE;
  return ws_flame_chart_node_at (self->graph, &self->state,
                                 gtk_widget_get_allocated_width (GTK_WIDGET (self)),
                                 gtk_widget_get_allocated_height (GTK_WIDGET (self)), x, y);
}

static gboolean
ws_flame_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  WsFlameView *self = WS_FLAME_VIEW (widget);
  guint32 node;

  if (event->button != GDK_BUTTON_PRIMARY || event->type != GDK_BUTTON_PRESS)
    return FALSE;
  node = node_at (self, event->x, event->y);
  if (node != WS_FLAME_NO_NODE)
    ws_flame_view_zoom (self, node);
  return TRUE;
}

static gboolean
ws_flame_view_motion (GtkWidget *widget, GdkEventMotion *event)
{
  WsFlameView *self = WS_FLAME_VIEW (widget);
  guint32 node = node_at (self, event->x, event->y);

  if (node != self->state.hover)
    {
      self->state.hover = node;
      gtk_widget_trigger_tooltip_query (widget);
      gtk_widget_queue_draw (widget);
    }
  return FALSE;
}

static gboolean
ws_flame_view_leave (GtkWidget *widget, GdkEventCrossing *event)
{
  WsFlameView *self = WS_FLAME_VIEW (widget);

  self->state.hover = WS_FLAME_NO_NODE;
  gtk_widget_queue_draw (widget);
  return FALSE;
}

/**
 * ws_flame_view_describe:
 *
 * Returns: (transfer full): the frame, its self and total weight and
 * their shares, as the tooltip shows them.
 */
char *
ws_flame_view_describe (WsFlameView *self, guint32 node)
{
  const WsFlameNode *n;
  g_autofree char *label = NULL;
  g_autofree char *total = NULL;
  g_autofree char *own = NULL;
  double share_total, share_self;

  g_return_val_if_fail (self->graph != NULL && node < self->graph->nodes->len, NULL);

  n = ws_flame_graph_node (self->graph, node);
  label = ws_flame_graph_node_label (self->graph, node);
  total = ws_flame_format_weight (self->graph, n->total);
  own = ws_flame_format_weight (self->graph, n->self);
  share_total = self->graph->total > 0 ? 100.0 * n->total / self->graph->total : 0;
  share_self = self->graph->total > 0 ? 100.0 * n->self / self->graph->total : 0;
  /* TRANSLATORS: a frame of a flame graph, then its total and self weight. */
  return g_strdup_printf (_ ("%s\nTotal: %s (%.1f%%)\nSelf: %s (%.1f%%)"), label, total,
                          share_total, own, share_self);
}

static gboolean
ws_flame_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                             GtkTooltip *tooltip)
{
  WsFlameView *self = WS_FLAME_VIEW (widget);
  guint32 node = node_at (self, x, y);
  g_autofree char *text = NULL;

  if (node == WS_FLAME_NO_NODE)
    return FALSE;
  text = ws_flame_view_describe (self, node);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ws_flame_view_finalize (GObject *object)
{
  WsFlameView *self = WS_FLAME_VIEW (object);

  g_clear_pointer (&self->graph, ws_flame_graph_unref);
  g_clear_pointer (&self->matches, g_free);
  g_clear_pointer (&self->query, g_free);
  G_OBJECT_CLASS (ws_flame_view_parent_class)->finalize (object);
}

static void
ws_flame_view_class_init (WsFlameViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ws_flame_view_finalize;
  widget_class->draw = ws_flame_view_draw;
  widget_class->button_press_event = ws_flame_view_button_press;
  widget_class->motion_notify_event = ws_flame_view_motion;
  widget_class->leave_notify_event = ws_flame_view_leave;
  widget_class->query_tooltip = ws_flame_view_query_tooltip;
}

static void
ws_flame_view_init (WsFlameView *self)
{
  ws_flame_state_init (&self->state);
  gtk_widget_add_events (GTK_WIDGET (self),
                         GDK_BUTTON_PRESS_MASK | GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  update_size (self);
}

GtkWidget *
ws_flame_view_new (void)
{
  return g_object_new (WS_TYPE_FLAME_VIEW, NULL);
}

/**
 * ws_flame_view_set_graph:
 * @graph: (nullable) (transfer none): the graph to draw
 */
void
ws_flame_view_set_graph (WsFlameView *self, WsFlameGraph *graph)
{
  g_return_if_fail (WS_IS_FLAME_VIEW (self));

  g_clear_pointer (&self->graph, ws_flame_graph_unref);
  self->graph = graph != NULL ? ws_flame_graph_ref (graph) : NULL;
  self->state.zoom = 0;
  self->state.hover = WS_FLAME_NO_NODE;
  ws_flame_view_set_search (self, self->query);
  update_size (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * ws_flame_view_get_graph:
 *
 * Returns: (transfer none) (nullable): the graph drawn
 */
WsFlameGraph *
ws_flame_view_get_graph (WsFlameView *self)
{
  return self->graph;
}

void
ws_flame_view_set_layout (WsFlameView *self, WsFlameLayout layout)
{
  self->state.layout = layout;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * ws_flame_view_set_search:
 * @query: (nullable): text the highlighted frames hold; %NULL or "" for none
 *
 * Returns: the share of the samples with a matching frame, in [0, 1].
 */
double
ws_flame_view_set_search (WsFlameView *self, const char *query)
{
  char *copy = g_strdup (query);

  g_free (self->query);
  self->query = copy;
  g_clear_pointer (&self->matches, g_free);
  self->state.matches = NULL;
  self->state.match_share = 0;
  /* @query may be self->query itself (a new graph, searched again): the
   * copy is what stays. */
  if (self->graph != NULL && copy != NULL && copy[0] != '\0')
    {
      self->matches = g_new0 (gboolean, self->graph->nodes->len);
      self->state.match_share = ws_flame_graph_match_share (self->graph, copy, self->matches);
      self->state.matches = self->matches;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return self->state.match_share;
}

void
ws_flame_view_zoom (WsFlameView *self, guint32 node)
{
  if (self->graph == NULL || node >= self->graph->nodes->len)
    return;
  self->state.zoom = node;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint32
ws_flame_view_get_zoom (WsFlameView *self)
{
  return self->state.zoom;
}
