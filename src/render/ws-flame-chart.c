/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-flame-chart"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-flame-chart.h"
#include "ws-format.h"
#include "ws-surface.h"
#include "ws-text.h"

/* A flame graph drawn from a WsFlameGraph: each node a box as wide as its
 * share of the zoomed node's weight, one row per depth.  Boxes narrower
 * than half a pixel are left out (their weight still widens the parent).
 * The drawing is at most WS_CHART_MAX_HEIGHT tall (about 880 rows): where
 * the stacks are deeper, the rows shown follow the zoom (a few of the
 * zoomed node's ancestors, then its subtree) and the header says which
 * depths are shown. */

/* Ancestors of the zoomed node kept above it when not every row fits. */
#define KEPT_ANCESTORS 4

void
ws_flame_state_init (WsFlameState *view)
{
  view->layout = WS_FLAME_LAYOUT_ICICLE;
  view->zoom = 0;
  view->hover = WS_FLAME_NO_NODE;
  view->matches = NULL;
  view->match_share = 0;
  view->title = NULL;
}

double
ws_flame_chart_natural_height (const WsFlameGraph *graph)
{
  return MIN (WS_FLAME_HEADER_HEIGHT + (graph->max_depth + 1) * WS_FLAME_ROW_HEIGHT + 4,
              WS_CHART_MAX_HEIGHT);
}

/* Warm colours, one per function name, stable across runs (the
 * FlameGraph tools' convention). */
WsColor
ws_flame_color (const WsFlameGraph *graph, guint32 node, const WsPalette *palette)
{
  const WsFlameNode *n = ws_flame_graph_node (graph, node);
  guint hash;
  double t, u;
  WsColor c;

  if (n->frame == WS_FLAME_ROOT_FRAME)
    return palette->bar_other;
  hash = g_str_hash (ws_cpu_profile_string (
    graph->profile, g_array_index (graph->profile->frames, WsCpuFrame, n->frame).name));
  t = (hash & 0xff) / 255.0;
  u = ((hash >> 8) & 0xff) / 255.0;
  c.r = 0.86 + 0.12 * t;
  c.g = 0.35 + 0.45 * u;
  c.b = 0.12 + 0.18 * t * u;
  c.a = 1;
  if (palette->dark)
    c = ws_color_mix (c, palette->background, 0.25);
  return c;
}

typedef gboolean (*VisitFunc) (guint32 node, double x, double y, double w, gpointer data);

typedef struct
{
  const WsFlameGraph *graph;
  const WsFlameState *view;
  double width;
  double height;
  double scale;      /* px per unit of weight */
  guint first_depth; /* the depth of the first row drawn */
  guint n_rows;      /* rows drawn from there */
} Geometry;

static double
row_y (const Geometry *g, guint depth)
{
  if (g->view->layout == WS_FLAME_LAYOUT_FLAME)
    return g->height - 4 - (depth - g->first_depth + 1) * WS_FLAME_ROW_HEIGHT;
  return WS_FLAME_HEADER_HEIGHT + (depth - g->first_depth) * WS_FLAME_ROW_HEIGHT;
}

static gboolean
row_shown (const Geometry *g, guint depth)
{
  return depth >= g->first_depth && depth - g->first_depth < g->n_rows;
}

/* Visits the zoomed node's ancestors (full width) and its subtree. */
static gboolean
visit_subtree (const Geometry *g, guint32 node, double x, VisitFunc func, gpointer data)
{
  const WsFlameNode *n = ws_flame_graph_node (g->graph, node);
  double w = n->total * g->scale;
  double cx = x;

  if (w < 0.5 || !row_shown (g, n->depth))
    return FALSE;
  if (func (node, x, row_y (g, n->depth), w, data))
    return TRUE;
  for (guint32 c = n->first_child; c != WS_FLAME_NO_NODE;
       c = ws_flame_graph_node (g->graph, c)->next_sibling)
    {
      if (visit_subtree (g, c, cx, func, data))
        return TRUE;
      cx += ws_flame_graph_node (g->graph, c)->total * g->scale;
    }
  return FALSE;
}

static gboolean
visit (const Geometry *g, VisitFunc func, gpointer data)
{
  guint32 zoom = g->view->zoom < g->graph->nodes->len ? g->view->zoom : 0;
  const WsFlameNode *z = ws_flame_graph_node (g->graph, zoom);

  for (guint32 a = z->parent; a != WS_FLAME_NO_NODE; a = ws_flame_graph_node (g->graph, a)->parent)
    if (row_shown (g, ws_flame_graph_node (g->graph, a)->depth) &&
        func (a, 0, row_y (g, ws_flame_graph_node (g->graph, a)->depth), g->width, data))
      return TRUE;
  return visit_subtree (g, zoom, 0, func, data);
}

static void
geometry_init (Geometry *g, const WsFlameGraph *graph, const WsFlameState *view, double width,
               double height)
{
  guint32 zoom = view->zoom < graph->nodes->len ? view->zoom : 0;
  const WsFlameNode *z = ws_flame_graph_node (graph, zoom);
  double total = z->total;
  guint depths = graph->max_depth + 1;

  g->graph = graph;
  g->view = view;
  g->width = width;
  g->height = height;
  g->scale = total > 0 ? width / total : 0;
  g->n_rows = (guint) MAX (1, floor ((height - WS_FLAME_HEADER_HEIGHT - 4) / WS_FLAME_ROW_HEIGHT));
  g->first_depth = 0;
  if (depths > g->n_rows)
    g->first_depth =
      MIN (z->depth > KEPT_ANCESTORS ? z->depth - KEPT_ANCESTORS : 0, depths - g->n_rows);
}

/* In a box: the name and the file's base name; hover shows the rest. */
static char *
short_label (const WsFlameGraph *graph, guint32 node)
{
  const WsFlameNode *n = ws_flame_graph_node (graph, node);
  const WsCpuFrame *f;
  const char *file, *slash;

  if (n->frame == WS_FLAME_ROOT_FRAME)
    return ws_flame_graph_node_label (graph, node);
  f = &g_array_index (graph->profile->frames, WsCpuFrame, n->frame);
  if (f->file == WS_STRING_NONE)
    return g_strdup (ws_cpu_profile_string (graph->profile, f->name));
  file = ws_cpu_profile_string (graph->profile, f->file);
  slash = strrchr (file, '/');
  if (slash != NULL && slash[1] != '\0')
    file = slash + 1;
  if (f->line < 0)
    return g_strdup_printf ("%s (%s)", ws_cpu_profile_string (graph->profile, f->name), file);
  return g_strdup_printf ("%s (%s:%d)", ws_cpu_profile_string (graph->profile, f->name), file,
                          f->line);
}

typedef struct
{
  cairo_t *cr;
  PangoLayout *layout;
  const WsPalette *palette;
  const Geometry *g;
} DrawData;

static gboolean
draw_node (guint32 node, double x, double y, double w, gpointer data)
{
  DrawData *d = data;
  const WsFlameState *view = d->g->view;
  const WsFlameNode *n = ws_flame_graph_node (d->g->graph, node);
  gboolean ancestor = n->depth < ws_flame_graph_node (d->g->graph, view->zoom)->depth;
  gboolean searching = view->matches != NULL;
  WsColor fill = ws_flame_color (d->g->graph, node, d->palette);

  if (searching && view->matches[node])
    fill = (WsColor){ 0.85, 0.2, 0.85, 1 };
  else if (searching || ancestor)
    fill = ws_color_mix (fill, d->palette->background, 0.55);
  ws_color_set (d->cr, fill);
  cairo_rectangle (d->cr, x + 0.5, y + 0.5, MAX (w - 1, 0.5), WS_FLAME_ROW_HEIGHT - 1);
  cairo_fill (d->cr);
  if (node == view->hover)
    {
      ws_color_set (d->cr, d->palette->foreground);
      cairo_set_line_width (d->cr, 1.5);
      cairo_rectangle (d->cr, x + 1, y + 1, MAX (w - 2, 1), WS_FLAME_ROW_HEIGHT - 2);
      cairo_stroke (d->cr);
    }
  if (w > 28)
    {
      g_autofree char *label = short_label (d->g->graph, node);
      WsColor ink = { 0.1, 0.08, 0.05, 1 };

      ws_color_set (d->cr, ink);
      ws_text_draw (d->cr, d->layout, label, x + 4, y + 2, w - 8, WS_ALIGN_LEFT);
    }
  return FALSE;
}

/**
 * ws_flame_chart_draw:
 *
 * Draws @graph in @width × @height: a header (title, total, the search's
 * share), then the boxes.
 */
void
ws_flame_chart_draw (cairo_t *cr, double width, double height, const WsFlameGraph *graph,
                     const WsFlameState *view, const WsPalette *palette)
{
  g_autoptr (PangoLayout) layout = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autoptr (PangoLayout) header = ws_text_layout (cr, palette, 1.0, TRUE);
  g_autofree char *total = ws_flame_format_weight (graph, graph->total);
  g_autofree char *line = NULL;
  Geometry g;
  DrawData d;
  double note_w = 0;

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  geometry_init (&g, graph, view, width, height);
  if (graph->total > 0 && graph->max_depth + 1 > g.n_rows)
    {
      g_autofree char *depths = g_strdup_printf (
        _ ("depths %u–%u of %u: click a frame to go deeper"), g.first_depth,
        MIN (g.first_depth + g.n_rows, graph->max_depth + 1) - 1, graph->max_depth);

      ws_color_set (cr, palette->dim);
      note_w = ws_text_draw (cr, layout, depths, width - 8, 7, width * 0.45, WS_ALIGN_RIGHT) + 16;
    }
  if (view->matches != NULL)
    line = g_strdup_printf (_ ("%s — %s — matched %.1f%%"),
                            view->title != NULL ? view->title : _ ("Flame graph"), total,
                            100.0 * view->match_share);
  else
    line =
      g_strdup_printf (_ ("%s — %s"), view->title != NULL ? view->title : _ ("Flame graph"), total);
  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, header, line, 8, 5, width - 16 - note_w, WS_ALIGN_LEFT);
  if (graph->total <= 0)
    {
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, layout, _ ("No samples in this selection"), 8, WS_FLAME_HEADER_HEIGHT + 8,
                    width - 16, WS_ALIGN_LEFT);
      return;
    }
  d.cr = cr;
  d.layout = layout;
  d.palette = palette;
  d.g = &g;
  visit (&g, draw_node, &d);
}

typedef struct
{
  double x, y;
  guint32 found;
} HitData;

static gboolean
hit_node (guint32 node, double x, double y, double w, gpointer data)
{
  HitData *h = data;

  if (h->x >= x && h->x < x + w && h->y >= y && h->y < y + WS_FLAME_ROW_HEIGHT)
    {
      h->found = node;
      return TRUE;
    }
  return FALSE;
}

/**
 * ws_flame_chart_node_at:
 *
 * Returns: the node drawn at (@x, @y), or WS_FLAME_NO_NODE.
 */
guint32
ws_flame_chart_node_at (const WsFlameGraph *graph, const WsFlameState *view, double width,
                        double height, double x, double y)
{
  HitData h = { x, y, WS_FLAME_NO_NODE };
  Geometry g;

  if (graph->total <= 0)
    return WS_FLAME_NO_NODE;
  geometry_init (&g, graph, view, width, height);
  visit (&g, hit_node, &h);
  return h.found;
}

/* ---- the functions as bars (cProfile's flat profile) ------------------- */

#define BAR_ROW 22.0

double
ws_flame_functions_natural_height (const WsFlameGraph *graph, guint top)
{
  return WS_FLAME_HEADER_HEIGHT + MIN (graph->functions->len, top) * BAR_ROW + 8;
}

/**
 * ws_flame_functions_draw:
 *
 * The @top functions by self time as horizontal bars, with their self and
 * total time and call counts where known.
 */
void
ws_flame_functions_draw (cairo_t *cr, double width, double height, const WsFlameGraph *graph,
                         guint top, const char *title, const WsPalette *palette)
{
  g_autoptr (PangoLayout) layout = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autoptr (PangoLayout) header = ws_text_layout (cr, palette, 1.0, TRUE);
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  double label_w = MIN (420, width * 0.42);
  double value_w = 230;
  double bar_x = label_w + 12;
  double bar_w = MAX (width - bar_x - value_w - 12, 20);
  double max_self = 0;

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, header, title != NULL ? title : _ ("Functions by self time"), 8, 5, width - 16,
                WS_ALIGN_LEFT);

  for (guint i = 0; i < graph->functions->len; i++)
    g_array_append_val (order, i);
  /* By self time, heaviest first (the table's own order is by total). */
  for (guint i = 1; i < order->len; i++)
    for (guint j = i; j > 0; j--)
      {
        const WsFlameFunction *a =
          &g_array_index (graph->functions, WsFlameFunction, g_array_index (order, guint, j - 1));
        const WsFlameFunction *b =
          &g_array_index (graph->functions, WsFlameFunction, g_array_index (order, guint, j));
        guint t;

        if (a->self >= b->self)
          break;
        t = g_array_index (order, guint, j - 1);
        g_array_index (order, guint, j - 1) = g_array_index (order, guint, j);
        g_array_index (order, guint, j) = t;
      }
  for (guint i = 0; i < order->len && i < top; i++)
    max_self =
      MAX (max_self,
           g_array_index (graph->functions, WsFlameFunction, g_array_index (order, guint, i)).self);
  for (guint i = 0; i < order->len && i < top; i++)
    {
      const WsFlameFunction *f =
        &g_array_index (graph->functions, WsFlameFunction, g_array_index (order, guint, i));
      g_autofree char *label = ws_flame_graph_function_label (graph, f);
      g_autofree char *self = ws_flame_format_weight (graph, f->self);
      g_autofree char *value = NULL;
      double y = WS_FLAME_HEADER_HEIGHT + i * BAR_ROW;
      double w = max_self > 0 ? bar_w * f->self / max_self : 0;

      if (y + BAR_ROW > height)
        break;
      if (f->calls >= 0)
        {
          g_autofree char *calls = ws_format_count (f->calls);

          value = g_strdup_printf (_ ("%s, %s calls"), self, calls);
        }
      else
        value = g_strdup (self);
      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, layout, label, 8, y + 3, label_w - 8, WS_ALIGN_LEFT);
      ws_color_set (cr, palette->bar);
      cairo_rectangle (cr, bar_x, y + 4, MAX (w, 1), BAR_ROW - 8);
      cairo_fill (cr);
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, layout, value, bar_x + bar_w + 8, y + 3, value_w, WS_ALIGN_LEFT);
    }
}
