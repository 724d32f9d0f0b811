/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-render"
#include "config.h"

#include <math.h>

#include "ws-timeline-chart-private.h"
#include "ws-timeline-path.h"

/* The event a point of the graph is the moment of, or WS_EVENT_NONE. */
WsEventRef
ws_timeline_path_event (const WsCpGraph *graph, guint32 point)
{
  guint32 i = graph->index[point];

  switch (graph->kind[point])
    {
      case WS_CP_API_START:
      case WS_CP_API_END:
        return ws_event_ref (WS_EVENT_API, i);
      case WS_CP_OSRT_START:
      case WS_CP_OSRT_END:
        return ws_event_ref (WS_EVENT_OSRT, i);
      case WS_CP_NVTX_START:
      case WS_CP_NVTX_END:
        return ws_event_ref (WS_EVENT_NVTX, i);
      case WS_CP_OP_START:
      case WS_CP_OP_END:
        switch (graph->op_table[i])
          {
            case WS_CP_OP_KERNEL:
              return ws_event_ref (WS_EVENT_KERNEL, graph->op_index[i]);
            case WS_CP_OP_MEMOP:
              return ws_event_ref (WS_EVENT_MEMOP, graph->op_index[i]);
            default:
              return ws_event_ref (WS_EVENT_REPLAY, graph->op_index[i]);
          }
      default:
        return WS_EVENT_NONE;
    }
}

/**
 * ws_timeline_path_new:
 * @cp: the paths
 * @step: an index into @cp's steps
 *
 * Returns: (transfer full): that step's path, from its start, on the run's
 * clock
 */
WsTimelinePath *
ws_timeline_path_new (const WsCriticalPath *cp, guint step)
{
  const WsCpGraph *g = cp->graph;
  const WsCpStep *st;
  WsTimelinePath *self = g_new0 (WsTimelinePath, 1);

  g_return_val_if_fail (step < cp->steps->len, self);

  st = &g_array_index (cp->steps, WsCpStep, step);
  self->n = st->n;
  self->event = g_new (WsEventRef, MAX (st->n, 1));
  self->start = g_new (gint64, MAX (st->n, 1));
  self->end = g_new (gint64, MAX (st->n, 1));
  self->kind = g_new (guint8, MAX (st->n, 1));
  /* The path runs from the step's end back: turned round. */
  for (guint k = 0; k < st->n; k++)
    {
      const WsCpSegment *s = &g_array_index (cp->segments, WsCpSegment, st->first + st->n - 1 - k);
      gint64 shift = g->shift[g->rank[s->dst]];

      self->event[k] = ws_timeline_path_event (g, s->dst);
      self->start[k] = s->start - shift;
      self->end[k] = s->end - shift;
      self->kind[k] = s->kind;
    }
  return self;
}

void
ws_timeline_path_free (WsTimelinePath *self)
{
  if (self == NULL)
    return;
  g_free (self->event);
  g_free (self->start);
  g_free (self->end);
  g_free (self->kind);
  g_free (self);
}

/* Draws @state's path over the lanes: a bar on each part's lane over its
 * stretch, a line where the path changes lanes. */
void
ws_timeline_path_draw (WsTimelineChart *chart, cairo_t *cr, double width, double height,
                       WsTimeWindow *window, const WsTimelineState *state, const WsPalette *palette)
{
  const WsTimelinePath *path = state->path;
  const WsTimelineGeometry *geo = ws_timeline_chart_geometry (chart, palette);
  double x0 = geo->header_w;
  gboolean have_last = FALSE;
  double last_x = 0, last_y = 0;

  if (path == NULL)
    return;
  cairo_save (cr);
  cairo_set_line_width (cr, 2);
  ws_color_set (cr, palette->accent);
  for (guint k = 0; k < path->n; k++)
    {
      cairo_rectangle_t r;
      double a, b, y;

      if (path->event[k] == WS_EVENT_NONE ||
          !ws_timeline_chart_event_rect (chart, width, height, window, state, palette,
                                         path->event[k], &r))
        continue;
      a = x0 + ws_time_window_time_to_x (window, path->start[k]);
      b = x0 + ws_time_window_time_to_x (window, path->end[k]);
      y = r.y + r.height - 2;
      if (have_last && fabs (y - last_y) > 0.5)
        {
          /* An edge across lanes (threads, streams, ranks). */
          cairo_move_to (cr, last_x, last_y);
          cairo_line_to (cr, a, y);
          cairo_stroke (cr);
        }
      cairo_rectangle (cr, a, y - 1.5, MAX (b - a, 1), 3);
      cairo_fill (cr);
      have_last = TRUE;
      last_x = b;
      last_y = y;
    }
  cairo_restore (cr);
}
