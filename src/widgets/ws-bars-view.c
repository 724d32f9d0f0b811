/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-bars-view"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-bars-view.h"
#include "ws-format.h"
#include "ws-widget-palette.h"

struct _WsBarsView
{
  GtkDrawingArea parent_instance;

  WsSummary *summary;
  WsBarsModel *model;
  WsBarsState state;
  WsBarsSort sort;
  guint top_n;
  char *filter;

  WsVerdictFunc verdict_func;
  gpointer verdict_data;
  GDestroyNotify verdict_notify;
};

G_DEFINE_FINAL_TYPE (WsBarsView, ws_bars_view, GTK_TYPE_DRAWING_AREA)

enum
{
  PROP_0,
  PROP_TOP_N,
  PROP_FILTER,
  N_PROPS
};

enum
{
  KERNEL_SELECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
update_size (WsBarsView *self)
{
  cairo_t *cr = ws_widget_measure_context (GTK_WIDGET (self));
  WsPalette palette;
  double height;

  ws_widget_palette (GTK_WIDGET (self), &palette);
  height = ws_bars_chart_natural_height (cr, self->model, &self->state, &palette);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, (int) ceil (height));
  cairo_destroy (cr);
}

static void
rebuild (WsBarsView *self)
{
  g_autofree char *selected_name = NULL;
  const WsBar *selected = ws_bars_model_get (self->model, (guint) MAX (self->state.selected, 0));

  if (selected != NULL && self->state.selected >= 0)
    selected_name = g_strdup (selected->name);

  g_clear_pointer (&self->model, ws_bars_model_free);
  self->model = ws_bars_model_new (self->summary, self->top_n, self->sort, self->filter,
                                   self->verdict_func, self->verdict_data);
  self->state.hover = -1;
  self->state.selected = -1;
  if (selected_name != NULL)
    for (guint i = 0; i < self->model->bars->len; i++)
      if (g_strcmp0 (ws_bars_model_get (self->model, i)->name, selected_name) == 0)
        self->state.selected = (int) i;

  update_size (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
ws_bars_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsBarsView *self = WS_BARS_VIEW (widget);
  WsPalette palette;

  ws_widget_palette (widget, &palette);
  ws_bars_chart_draw (cr, gtk_widget_get_allocated_width (widget),
                      gtk_widget_get_allocated_height (widget), self->model, &self->state,
                      &palette);
  return TRUE;
}

static int
hit (WsBarsView *self, double x, double y)
{
  WsPalette palette;
  cairo_t *cr;
  int index;

  ws_widget_palette (GTK_WIDGET (self), &palette);
  cr = ws_widget_measure_context (GTK_WIDGET (self));
  index = ws_bars_chart_hit (cr, gtk_widget_get_allocated_width (GTK_WIDGET (self)), self->model,
                             &self->state, &palette, x, y);
  cairo_destroy (cr);
  return index;
}

static gboolean
ws_bars_view_motion_notify (GtkWidget *widget, GdkEventMotion *event)
{
  WsBarsView *self = WS_BARS_VIEW (widget);
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
ws_bars_view_leave_notify (GtkWidget *widget, GdkEventCrossing *event)
{
  WsBarsView *self = WS_BARS_VIEW (widget);

  if (self->state.hover != -1)
    {
      self->state.hover = -1;
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
ws_bars_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  WsBarsView *self = WS_BARS_VIEW (widget);

  if (event->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  gtk_widget_grab_focus (widget);
  ws_bars_view_select (self, hit (self, event->x, event->y));
  return GDK_EVENT_STOP;
}

static gboolean
ws_bars_view_key_press (GtkWidget *widget, GdkEventKey *event)
{
  WsBarsView *self = WS_BARS_VIEW (widget);
  int n = self->model != NULL ? (int) self->model->bars->len : 0;

  if (n == 0)
    return GDK_EVENT_PROPAGATE;
  switch (event->keyval)
    {
      case GDK_KEY_Down:
        ws_bars_view_select (self, MIN (self->state.selected + 1, n - 1));
        return GDK_EVENT_STOP;
      case GDK_KEY_Up:
        ws_bars_view_select (self, MAX (self->state.selected - 1, 0));
        return GDK_EVENT_STOP;
      default:
        return GDK_EVENT_PROPAGATE;
    }
}

static gboolean
ws_bars_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  WsBarsView *self = WS_BARS_VIEW (widget);
  const WsBar *bar;
  g_autofree char *total = NULL, *avg = NULL, *med = NULL, *min = NULL, *max = NULL, *sd = NULL;
  g_autofree char *share = NULL, *escaped = NULL, *markup = NULL;

  bar = ws_bars_model_get (self->model, (guint) MAX (hit (self, x, y), 0));
  if (bar == NULL || hit (self, x, y) < 0)
    return FALSE;

  total = ws_format_duration ((double) bar->total);
  avg = ws_format_duration (bar->avg);
  med = ws_format_duration (bar->med);
  min = ws_format_duration ((double) bar->min);
  max = ws_format_duration ((double) bar->max);
  sd = ws_format_duration (bar->stddev);
  share = ws_format_fixed_string (bar->share, 1);
  escaped = g_markup_escape_text (bar->name, -1);
  markup =
    g_strdup_printf ("<b>%s</b>\n%s %s (%s%%)   %s %" G_GINT64_FORMAT "\n"
                     "%s %s   %s %s\n%s %s   %s %s   %s %s",
                     escaped, _ ("Total"), total, share, _ ("Instances"), bar->count, _ ("Avg"),
                     avg, _ ("Med"), med, _ ("Min"), min, _ ("Max"), max, _ ("StdDev"), sd);
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
ws_bars_view_style_updated (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ws_bars_view_parent_class)->style_updated (widget);
  update_size (WS_BARS_VIEW (widget));
}

static void
ws_bars_view_finalize (GObject *object)
{
  WsBarsView *self = WS_BARS_VIEW (object);

  if (self->verdict_notify != NULL)
    self->verdict_notify (self->verdict_data);
  g_clear_pointer (&self->model, ws_bars_model_free);
  g_clear_pointer (&self->summary, ws_summary_unref);
  g_clear_pointer (&self->filter, g_free);

  G_OBJECT_CLASS (ws_bars_view_parent_class)->finalize (object);
}

static void
ws_bars_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsBarsView *self = WS_BARS_VIEW (object);

  switch (prop_id)
    {
      case PROP_TOP_N:
        g_value_set_uint (value, self->top_n);
        break;
      case PROP_FILTER:
        g_value_set_string (value, self->filter);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_bars_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  WsBarsView *self = WS_BARS_VIEW (object);

  switch (prop_id)
    {
      case PROP_TOP_N:
        ws_bars_view_set_top_n (self, g_value_get_uint (value));
        break;
      case PROP_FILTER:
        ws_bars_view_set_filter (self, g_value_get_string (value));
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_bars_view_class_init (WsBarsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ws_bars_view_finalize;
  object_class->get_property = ws_bars_view_get_property;
  object_class->set_property = ws_bars_view_set_property;

  widget_class->draw = ws_bars_view_draw;
  widget_class->motion_notify_event = ws_bars_view_motion_notify;
  widget_class->leave_notify_event = ws_bars_view_leave_notify;
  widget_class->button_press_event = ws_bars_view_button_press;
  widget_class->key_press_event = ws_bars_view_key_press;
  widget_class->query_tooltip = ws_bars_view_query_tooltip;
  widget_class->style_updated = ws_bars_view_style_updated;

  properties[PROP_TOP_N] =
    g_param_spec_uint ("top-n", NULL, NULL, 0, 10000, 15,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILTER] =
    g_param_spec_string ("filter", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsBarsView::kernel-selected:
   * @name: (nullable): the full kernel name, or %NULL when nothing is selected
   */
  signals[KERNEL_SELECTED] =
    g_signal_new ("kernel-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_css_name (widget_class, "wsbarsview");
}

static void
ws_bars_view_init (WsBarsView *self)
{
  self->top_n = 15;
  self->state.hover = -1;
  self->state.selected = -1;
  self->model = ws_bars_model_new (NULL, self->top_n, self->sort, NULL, NULL, NULL);
  gtk_widget_set_can_focus (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_add_events (GTK_WIDGET (self), GDK_POINTER_MOTION_MASK | GDK_BUTTON_PRESS_MASK |
                                              GDK_LEAVE_NOTIFY_MASK | GDK_KEY_PRESS_MASK);
}

GtkWidget *
ws_bars_view_new (void)
{
  return g_object_new (WS_TYPE_BARS_VIEW, NULL);
}

/**
 * ws_bars_view_set_summary:
 * @summary: (nullable): a kernel summary
 */
void
ws_bars_view_set_summary (WsBarsView *self, WsSummary *summary)
{
  g_return_if_fail (WS_IS_BARS_VIEW (self));

  if (summary != NULL)
    ws_summary_ref (summary);
  g_clear_pointer (&self->summary, ws_summary_unref);
  self->summary = summary;
  rebuild (self);
}

void
ws_bars_view_set_top_n (WsBarsView *self, guint top_n)
{
  g_return_if_fail (WS_IS_BARS_VIEW (self));

  if (self->top_n == top_n)
    return;
  self->top_n = top_n;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOP_N]);
}

guint
ws_bars_view_get_top_n (WsBarsView *self)
{
  return self->top_n;
}

void
ws_bars_view_set_sort (WsBarsView *self, WsBarsSort sort)
{
  g_return_if_fail (WS_IS_BARS_VIEW (self));

  if (self->sort == sort)
    return;
  self->sort = sort;
  rebuild (self);
}

void
ws_bars_view_set_filter (WsBarsView *self, const char *filter)
{
  g_return_if_fail (WS_IS_BARS_VIEW (self));

  if (g_strcmp0 (self->filter, filter) == 0)
    return;
  g_free (self->filter);
  self->filter = g_strdup (filter);
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER]);
}

/**
 * ws_bars_view_set_verdict_func:
 * @func: (nullable): colours bars by the kernel's bottleneck verdict
 */
void
ws_bars_view_set_verdict_func (WsBarsView *self, WsVerdictFunc func, gpointer data,
                               GDestroyNotify notify)
{
  g_return_if_fail (WS_IS_BARS_VIEW (self));

  if (self->verdict_notify != NULL)
    self->verdict_notify (self->verdict_data);
  self->verdict_func = func;
  self->verdict_data = data;
  self->verdict_notify = notify;
  rebuild (self);
}

/**
 * ws_bars_view_get_model:
 *
 * Returns: (transfer none): the bars as drawn
 */
const WsBarsModel *
ws_bars_view_get_model (WsBarsView *self)
{
  g_return_val_if_fail (WS_IS_BARS_VIEW (self), NULL);

  return self->model;
}

int
ws_bars_view_get_selected (WsBarsView *self)
{
  g_return_val_if_fail (WS_IS_BARS_VIEW (self), -1);

  return self->state.selected;
}

void
ws_bars_view_select (WsBarsView *self, int index)
{
  const WsBar *bar;

  g_return_if_fail (WS_IS_BARS_VIEW (self));

  if (index < -1 || index >= (int) self->model->bars->len)
    index = -1;
  if (index == self->state.selected)
    return;
  self->state.selected = index;
  gtk_widget_queue_draw (GTK_WIDGET (self));

  bar = index >= 0 ? ws_bars_model_get (self->model, (guint) index) : NULL;
  g_signal_emit (self, signals[KERNEL_SELECTED], 0,
                 bar != NULL && !bar->is_other ? bar->name : NULL);
}

gboolean
ws_bars_view_select_name (WsBarsView *self, const char *name)
{
  for (guint i = 0; i < self->model->bars->len; i++)
    if (g_strcmp0 (ws_bars_model_get (self->model, i)->name, name) == 0)
      {
        ws_bars_view_select (self, (int) i);
        return TRUE;
      }
  return FALSE;
}
