/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ranks-view"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-ranks-view.h"
#include "ws-widget-palette.h"

struct _WsRanksView
{
  GtkDrawingArea parent_instance;

  WsRanksChartModel *model;
  WsRanksChartState state;
};

G_DEFINE_FINAL_TYPE (WsRanksView, ws_ranks_view, GTK_TYPE_DRAWING_AREA)

enum
{
  CELL_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
ws_ranks_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsRanksView *self = WS_RANKS_VIEW (widget);
  WsPalette palette;

  ws_widget_palette (widget, &palette);
  if (self->model == NULL)
    {
      ws_color_set (cr, palette.background);
      cairo_paint (cr);
      return TRUE;
    }
  ws_ranks_chart_draw (cr, gtk_widget_get_allocated_width (widget),
                       gtk_widget_get_allocated_height (widget), self->model, &self->state,
                       &palette);
  return TRUE;
}

static void
hit (WsRanksView *self, double x, double y, WsRanksHit *out)
{
  WsPalette palette;

  out->row = out->col = -1;
  if (self->model == NULL)
    return;
  ws_widget_palette (GTK_WIDGET (self), &palette);
  ws_ranks_chart_hit (gtk_widget_get_allocated_width (GTK_WIDGET (self)),
                      gtk_widget_get_allocated_height (GTK_WIDGET (self)), self->model,
                      &self->state, &palette, x, y, out);
}

static gboolean
ws_ranks_view_motion_notify (GtkWidget *widget, GdkEventMotion *event)
{
  WsRanksView *self = WS_RANKS_VIEW (widget);
  WsRanksHit h;

  hit (self, event->x, event->y, &h);
  if (h.row != self->state.hover_row || h.col != self->state.hover_col)
    {
      self->state.hover_row = h.row;
      self->state.hover_col = h.col;
      gtk_widget_trigger_tooltip_query (widget);
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_ranks_view_leave_notify (GtkWidget *widget, GdkEventCrossing *event)
{
  WsRanksView *self = WS_RANKS_VIEW (widget);

  self->state.hover_row = self->state.hover_col = -1;
  gtk_widget_queue_draw (widget);
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_ranks_view_button_release (GtkWidget *widget, GdkEventButton *event)
{
  WsRanksView *self = WS_RANKS_VIEW (widget);
  WsRanksHit h;

  if (event->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  hit (self, event->x, event->y, &h);
  if (h.row < 0 || !self->model->measured[h.row])
    return GDK_EVENT_PROPAGATE;
  self->state.selected_row = h.row;
  self->state.selected_col = h.col;
  gtk_widget_queue_draw (widget);
  g_signal_emit (self, signals[CELL_ACTIVATED], 0, (guint) h.row, (guint) h.col);
  return GDK_EVENT_STOP;
}

/**
 * ws_ranks_view_cell_text:
 *
 * Returns: (transfer full): what the tooltip says of a cell: the rank, the
 * step, every metric, and whether it came last
 */
char *
ws_ranks_view_cell_text (WsRanksView *self, guint row, guint col)
{
  const WsRanksChartModel *m = self->model;
  GString *text;

  g_return_val_if_fail (m != NULL && row < m->n_rows && col < m->n_cols, NULL);

  text = g_string_new (NULL);
  /* TRANSLATORS: a rank and a step of a distributed job */
  g_string_append_printf (text, _ ("Rank %u, step %u"), m->ranks[row], m->steps[col]);
  if (m->warmup[col])
    g_string_append_printf (text, " (%s)", _ ("warm-up"));
  for (guint metric = 0; metric < WS_RANKS_N_METRICS; metric++)
    {
      g_autofree char *value =
        ws_ranks_chart_format_value (metric, ws_ranks_chart_model_value (m, metric, row, col));

      g_string_append_printf (text, "\n%s: %s", ws_ranks_chart_metric_label (metric), value);
    }
  if (m->last[col] == (gint) row)
    g_string_append_printf (text, "\n%s", _ ("Reached the synchronisation last in this step"));
  g_string_append_printf (text, "\n%s", _ ("Click to open its timeline at this step"));
  return g_string_free (text, FALSE);
}

static gboolean
ws_ranks_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                             GtkTooltip *tooltip)
{
  WsRanksView *self = WS_RANKS_VIEW (widget);
  g_autofree char *text = NULL;
  WsRanksHit h;

  hit (self, x, y, &h);
  if (h.row < 0 || !self->model->measured[h.row])
    return FALSE;
  text = ws_ranks_view_cell_text (self, (guint) h.row, (guint) h.col);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ws_ranks_view_finalize (GObject *object)
{
  WsRanksView *self = WS_RANKS_VIEW (object);

  g_clear_pointer (&self->model, ws_ranks_chart_model_free);
  G_OBJECT_CLASS (ws_ranks_view_parent_class)->finalize (object);
}

static void
ws_ranks_view_class_init (WsRanksViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ws_ranks_view_finalize;
  widget_class->draw = ws_ranks_view_draw;
  widget_class->motion_notify_event = ws_ranks_view_motion_notify;
  widget_class->leave_notify_event = ws_ranks_view_leave_notify;
  widget_class->button_release_event = ws_ranks_view_button_release;
  widget_class->query_tooltip = ws_ranks_view_query_tooltip;
  gtk_widget_class_set_css_name (widget_class, "wsranksview");

  /**
   * WsRanksView::cell-activated:
   * @row: the rank's row
   * @col: the step's column
   */
  signals[CELL_ACTIVATED] =
    g_signal_new ("cell-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
}

static void
ws_ranks_view_init (WsRanksView *self)
{
  ws_ranks_chart_state_init (&self->state);
  /* The page above says what the chart's title would. */
  self->state.untitled = TRUE;
  gtk_widget_add_events (GTK_WIDGET (self), GDK_POINTER_MOTION_MASK | GDK_BUTTON_PRESS_MASK |
                                              GDK_BUTTON_RELEASE_MASK | GDK_LEAVE_NOTIFY_MASK);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 300, 160);
}

GtkWidget *
ws_ranks_view_new (void)
{
  return g_object_new (WS_TYPE_RANKS_VIEW, NULL);
}

static void
update_height (WsRanksView *self)
{
  WsPalette palette;
  int width = gtk_widget_get_allocated_width (GTK_WIDGET (self));

  if (self->model == NULL)
    return;
  ws_widget_palette (GTK_WIDGET (self), &palette);
  gtk_widget_set_size_request (
    GTK_WIDGET (self), 300,
    (int) ceil (ws_ranks_chart_natural_height (self->model, MAX (width, 600), TRUE, &palette)));
}

/**
 * ws_ranks_view_set_model:
 * @model: (transfer full) (nullable): what to draw
 *
 * The hovered and selected cells stay where they were when the model keeps
 * its shape (ranks read one after another).
 */
void
ws_ranks_view_set_model (WsRanksView *self, WsRanksChartModel *model)
{
  g_return_if_fail (WS_IS_RANKS_VIEW (self));

  if (model == NULL || self->model == NULL || model->n_rows != self->model->n_rows ||
      model->n_cols != self->model->n_cols)
    {
      self->state.hover_row = self->state.hover_col = -1;
      self->state.selected_row = self->state.selected_col = -1;
    }
  g_clear_pointer (&self->model, ws_ranks_chart_model_free);
  self->model = model;
  update_height (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * ws_ranks_view_get_model:
 *
 * Returns: (transfer none) (nullable): what is drawn
 */
const WsRanksChartModel *
ws_ranks_view_get_model (WsRanksView *self)
{
  return self->model;
}

void
ws_ranks_view_set_metric (WsRanksView *self, WsRanksMetric metric)
{
  g_return_if_fail (WS_IS_RANKS_VIEW (self));

  self->state.metric = metric;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

WsRanksMetric
ws_ranks_view_get_metric (WsRanksView *self)
{
  return self->state.metric;
}

/* Where the middle of a cell is, in widget px: for tests that click. */
gboolean
ws_ranks_view_cell_center (WsRanksView *self, guint row, guint col, double *x, double *y)
{
  WsPalette palette;
  cairo_rectangle_t rect;

  if (self->model == NULL)
    return FALSE;
  ws_widget_palette (GTK_WIDGET (self), &palette);
  if (!ws_ranks_chart_cell_rect (gtk_widget_get_allocated_width (GTK_WIDGET (self)),
                                 gtk_widget_get_allocated_height (GTK_WIDGET (self)), self->model,
                                 &self->state, &palette, row, col, &rect))
    return FALSE;
  *x = rect.x + rect.width / 2;
  *y = rect.y + rect.height / 2;
  return TRUE;
}
