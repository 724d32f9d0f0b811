/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-rollup-renderer"
#include "config.h"

#include "ws-rollup-bar.h"
#include "ws-rollup-renderer.h"
#include "ws-widget-palette.h"

struct _WsRollupRenderer
{
  GtkCellRenderer parent_instance;

  double shares[WS_N_ROLLUP];
};

G_DEFINE_FINAL_TYPE (WsRollupRenderer, ws_rollup_renderer, GTK_TYPE_CELL_RENDERER)

/* The properties are the classes, in WsRollupClass order. */
static GParamSpec *properties[WS_N_ROLLUP + 1];

static void
ws_rollup_renderer_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsRollupRenderer *self = WS_ROLLUP_RENDERER (object);

  if (prop_id >= 1 && prop_id <= WS_N_ROLLUP)
    g_value_set_double (value, self->shares[prop_id - 1]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ws_rollup_renderer_set_property (GObject *object, guint prop_id, const GValue *value,
                                 GParamSpec *pspec)
{
  WsRollupRenderer *self = WS_ROLLUP_RENDERER (object);

  if (prop_id >= 1 && prop_id <= WS_N_ROLLUP)
    self->shares[prop_id - 1] = g_value_get_double (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ws_rollup_renderer_get_preferred_width (GtkCellRenderer *cell, GtkWidget *widget, int *minimum,
                                        int *natural)
{
  *minimum = 60;
  *natural = 110;
}

static void
ws_rollup_renderer_render (GtkCellRenderer *cell, cairo_t *cr, GtkWidget *widget,
                           const GdkRectangle *background, const GdkRectangle *area,
                           GtkCellRendererState flags)
{
  WsRollupRenderer *self = WS_ROLLUP_RENDERER (cell);
  double sum = 0;
  double h = MAX (4, area->height * 0.5);
  WsPalette palette;

  for (int c = 0; c < WS_N_ROLLUP; c++)
    sum += self->shares[c];
  if (sum <= 0)
    return;
  ws_widget_palette (widget, &palette);
  ws_rollup_bar_draw (cr, area->x + 2, area->y + (area->height - h) / 2, area->width - 4, h,
                      self->shares, &palette);
}

static void
ws_rollup_renderer_class_init (WsRollupRendererClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkCellRendererClass *cell_class = GTK_CELL_RENDERER_CLASS (klass);

  object_class->get_property = ws_rollup_renderer_get_property;
  object_class->set_property = ws_rollup_renderer_set_property;
  cell_class->render = ws_rollup_renderer_render;
  cell_class->get_preferred_width = ws_rollup_renderer_get_preferred_width;

  for (int c = 0; c < WS_N_ROLLUP; c++)
    properties[c + 1] = g_param_spec_double (ws_rollup_class_id ((WsRollupClass) c), NULL, NULL, 0,
                                             1, 0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, WS_N_ROLLUP + 1, properties);
}

static void
ws_rollup_renderer_init (WsRollupRenderer *self)
{
}

GtkCellRenderer *
ws_rollup_renderer_new (void)
{
  return g_object_new (WS_TYPE_ROLLUP_RENDERER, NULL);
}
