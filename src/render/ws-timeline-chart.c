/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-format.h"
#include "ws-stats.h"
#include "ws-time-ticks.h"
#include "ws-timeline-chart.h"
#include "ws-timeline-chart-private.h"
#include "ws-timeline-path.h"
#include "ws-timeline-text.h"

/**
 * ws_timeline_chart_new:
 *
 * Returns: (transfer full): a chart of @lanes, holding the caches that
 * make redraws cheap (text, lane headers, the overview).
 */
WsTimelineChart *
ws_timeline_chart_new (WsLanes *lanes)
{
  WsTimelineChart *self = g_new0 (WsTimelineChart, 1);
  guint n = ws_lanes_get_n_lanes (lanes);

  self->lanes = ws_lanes_ref (lanes);
  self->run = ws_lanes_get_run (lanes);
  self->paint = ws_timeline_paint_new (self->run);
  self->lane_y = g_new0 (double, n + 1);
  self->lane_h = g_new0 (double, n + 1);
  return self;
}

void
ws_timeline_chart_free (WsTimelineChart *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->header_cache, cairo_surface_destroy);
  g_clear_pointer (&self->overview_cache, cairo_surface_destroy);
  g_clear_pointer (&self->nvtx_kernels, ws_nvtx_kernels_unref);
  ws_timeline_paint_free (self->paint);
  ws_lanes_unref (self->lanes);
  g_free (self->lane_y);
  g_free (self->lane_h);
  g_free (self);
}

/**
 * ws_timeline_chart_get_lanes:
 *
 * Returns: (transfer none): the lanes drawn
 */
WsLanes *
ws_timeline_chart_get_lanes (WsTimelineChart *self)
{
  return self->lanes;
}

/* With the NVTX kernels, selecting an NVTX range can highlight its kernels. */
void
ws_timeline_chart_set_nvtx_kernels (WsTimelineChart *self, WsNvtxKernels *nvtx_kernels)
{
  if (nvtx_kernels != NULL)
    ws_nvtx_kernels_ref (nvtx_kernels);
  g_clear_pointer (&self->nvtx_kernels, ws_nvtx_kernels_unref);
  self->nvtx_kernels = nvtx_kernels;
}

/**
 * ws_timeline_chart_set_memory_top:
 * @top: bytes drawn at a memory lane's full height, or 0 for each lane's
 *   own peak
 *
 * Two timelines side by side share one scale, so that 3.82 GB and 804 MB
 * in use do not look alike.
 */
void
ws_timeline_chart_set_memory_top (WsTimelineChart *self, double top)
{
  self->memory_top = MAX (top, 0);
}

double
ws_timeline_chart_get_memory_top (WsTimelineChart *self)
{
  return self->memory_top;
}

/* The peak of the memory lanes: the scale ws_timeline_chart_set_memory_top()
 * may share. */
double
ws_timeline_chart_memory_peak (WsTimelineChart *self)
{
  double peak = 0;

  for (guint l = 0; l < ws_lanes_get_n_lanes (self->lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);

      if (lane->kind == WS_LANE_MEMORY)
        peak = MAX (peak, lane->series.max);
    }
  return peak;
}

void
ws_timeline_state_init (WsTimelineState *state)
{
  *state = (WsTimelineState){ 0 };
  state->hover = WS_EVENT_NONE;
  state->selected = WS_EVENT_NONE;
  state->nvtx_focus = G_MAXSIZE;
  state->replay_focus = G_MAXSIZE;
  state->cursor_x = -1;
  state->name_form = WS_NAME_SHORT;
}

const WsTimelineGeometry *
ws_timeline_chart_geometry (WsTimelineChart *self, const WsPalette *palette)
{
  WsTimelineGeometry *g = &self->geometry;
  double line;

  if (g->line > 0 && g_str_equal (g->font, palette->font))
    return g;
  g_strlcpy (g->font, palette->font, sizeof g->font);
  line = ws_timeline_paint_line_height (self->paint, palette);
  g->line = line;
  g->header_w = round (line * 13);
  g->overview_h = round (line * 2.2);
  g->ruler_h = round (line * 1.5);
  g->top_h = g->overview_h + g->ruler_h;
  g->row_h = round (line * 1.25);
  g->stream_h = round (line * 1.5);
  g->replay_h = MAX (5, round (line * 0.5));
  g->group_h = round (line * 1.5);
  g->metric_h = round (line * 1.9);
  g->memory_h = round (line * 2.2);
  g->collapsed_h = MAX (6, round (line * 0.45));
  g->indent = round (line * 0.9);
  g->expander_w = round (line * 0.9);
  return g;
}

double
ws_timeline_chart_header_width (WsTimelineChart *self, const WsPalette *palette)
{
  return ws_timeline_chart_geometry (self, palette)->header_w;
}

double
ws_timeline_chart_top_height (WsTimelineChart *self, const WsPalette *palette)
{
  return ws_timeline_chart_geometry (self, palette)->top_h;
}

guint8
ws_timeline_chart_lane_flags (const WsTimelineState *state, guint32 lane)
{
  return state != NULL && state->lane_flags != NULL ? state->lane_flags[lane] : 0;
}

static double
expanded_height (const WsTimelineGeometry *g, const WsLane *lane)
{
  switch (lane->kind)
    {
      case WS_LANE_GROUP:
        return g->group_h;
      case WS_LANE_STREAM:
        return g->stream_h + (lane->replays.n > 0 ? g->replay_h : 0);
      case WS_LANE_NVTX:
        return g->row_h * MAX (lane->n_tracks, 1);
      case WS_LANE_METRIC:
        return g->metric_h;
      case WS_LANE_MEMORY:
        return g->memory_h;
      case WS_LANE_API:
      default:
        return g->row_h;
    }
}

/* Lays the lanes out from the top: hidden lanes, and lanes of a collapsed
 * or hidden group, take no room; a collapsed lane is a thin strip. */
static void
layout (WsTimelineChart *self, const WsTimelineState *state, const WsPalette *palette)
{
  const WsTimelineGeometry *g = ws_timeline_chart_geometry (self, palette);
  guint n = ws_lanes_get_n_lanes (self->lanes);
  double y = 0;

  for (guint l = 0; l < n; l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);
      guint8 flags = ws_timeline_chart_lane_flags (state, l);
      double h;

      if (lane->group != WS_LANE_NONE && (ws_timeline_chart_lane_flags (state, lane->group) &
                                          (WS_LANE_FLAG_HIDDEN | WS_LANE_FLAG_COLLAPSED)))
        flags |= WS_LANE_FLAG_HIDDEN;
      if (flags & WS_LANE_FLAG_HIDDEN)
        h = 0;
      else if ((flags & WS_LANE_FLAG_COLLAPSED) && lane->kind != WS_LANE_GROUP)
        h = g->collapsed_h;
      else
        h = expanded_height (g, lane);
      self->lane_y[l] = y;
      self->lane_h[l] = h;
      y += h > 0 ? h + 1 : 0; /* a line between lanes */
    }
  self->content_h = y;
}

double
ws_timeline_chart_content_height (WsTimelineChart *self, const WsTimelineState *state,
                                  const WsPalette *palette)
{
  layout (self, state, palette);
  return self->content_h;
}

/* ---- drawing ---------------------------------------------------------- */

gboolean
ws_timeline_chart_can_cache (cairo_t *cr)
{
  switch (cairo_surface_get_type (cairo_get_target (cr)))
    {
      case CAIRO_SURFACE_TYPE_PDF:
      case CAIRO_SURFACE_TYPE_PS:
      case CAIRO_SURFACE_TYPE_SVG:
      case CAIRO_SURFACE_TYPE_RECORDING:
      case CAIRO_SURFACE_TYPE_SCRIPT:
        return FALSE;
      default:
        return TRUE;
    }
}

gboolean
ws_timeline_chart_same_color (WsColor a, WsColor b)
{
  return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

guint32
ws_timeline_chart_flags_hash (WsTimelineChart *self, const WsTimelineState *state)
{
  guint32 h = 2166136261u;
  guint n = ws_lanes_get_n_lanes (self->lanes);

  for (guint l = 0; state->lane_flags != NULL && l < n; l++)
    h = (h ^ state->lane_flags[l]) * 16777619u;
  return h;
}

static void
frame_for (WsTimelineChart *self, WsPaintFrame *f, cairo_t *cr, double width, WsTimeWindow *window,
           const WsTimelineState *state, const WsPalette *palette)
{
  const WsTimelineGeometry *g = ws_timeline_chart_geometry (self, palette);

  *f = (WsPaintFrame){ 0 };
  f->cr = cr;
  f->palette = palette;
  f->nvtx_kernels = self->nvtx_kernels;
  f->search = state->search;
  f->search_len = state->search_len;
  f->search_replays = state->search_replays;
  f->nvtx_focus = self->nvtx_kernels != NULL ? state->nvtx_focus : G_MAXSIZE;
  f->replay_focus = state->replay_focus;
  f->highlight = state->highlight;
  f->name_form = state->name_form;
  f->x0 = g->header_w;
  f->width = MAX (width - g->header_w, 1);
  f->origin = ws_time_window_get_origin (window);
  f->view_start = ws_time_window_get_start (window);
  f->clock_shift = ws_time_window_get_clock_shift (window);
  f->ns_per_px = ws_time_window_get_span (window) / f->width;
}

/* The first lane whose band reaches below content y @y. */
guint
ws_timeline_chart_first_lane_below (WsTimelineChart *self, double y)
{
  guint lo = 0, hi = ws_lanes_get_n_lanes (self->lanes);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->lane_y[mid] + self->lane_h[mid] <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
draw_grid (cairo_t *cr, const WsTimeTicks *ticks, const WsPaintFrame *f, double y, double h,
           const WsPalette *palette)
{
  ws_color_set_alpha (cr, palette->grid, 0.7);
  /* Ticks are on the ruler's clock. */
  for (double t = ticks->first; t <= f->view_start + f->clock_shift + f->width * f->ns_per_px;
       t += ticks->step)
    {
      double x = round ((t - f->clock_shift - f->view_start) / f->ns_per_px) + 0.5;

      cairo_rectangle (cr, f->x0 + x - 0.5, y, 1, h);
    }
  cairo_fill (cr);
}

static void
draw_lane_content (WsTimelineChart *self, const WsLane *lane, double y, double h,
                   gboolean collapsed, const WsPalette *palette)
{
  const WsTimelineGeometry *g = &self->geometry;
  double pad = collapsed ? 1 : 2;

  switch (lane->kind)
    {
      case WS_LANE_STREAM:
        /* The replays whose kernels are drawn: a band over them, so that
         * each kernel shows which replay it ran in. */
        if (lane->replays.n > 0 && !collapsed)
          {
            ws_timeline_paint_track (self->paint, &lane->replays, y + 1, g->replay_h - 2, FALSE);
            y += g->replay_h;
            h -= g->replay_h;
          }
        ws_timeline_paint_track (self->paint, &lane->tracks[0], y + pad, h - 2 * pad, !collapsed);
        break;
      case WS_LANE_API:
      case WS_LANE_OSRT:
      case WS_LANE_SAMPLES:
        ws_timeline_paint_track (self->paint, &lane->tracks[0], y + pad, h - 2 * pad, !collapsed);
        break;
      case WS_LANE_NVTX:
        if (collapsed)
          ws_timeline_paint_track (self->paint, &lane->tracks[0], y + pad, h - 2 * pad, FALSE);
        else
          for (guint r = 0; r < lane->n_tracks; r++)
            ws_timeline_paint_track (self->paint, &lane->tracks[r], y + r * g->row_h + 1,
                                     g->row_h - 2, TRUE);
        ws_timeline_paint_marks (self->paint, &lane->marks, y, h);
        break;
      case WS_LANE_METRIC:
        ws_timeline_paint_series (self->paint, &lane->series,
                                  lane->percent ? 100 : lane->series.max, y + pad, h - 2 * pad,
                                  palette->mixed);
        break;
      case WS_LANE_MEMORY:
        ws_timeline_paint_series (self->paint, &lane->series,
                                  self->memory_top > 0 ? self->memory_top : lane->series.max,
                                  y + pad, h - 2 * pad, palette->latency);
        break;
      case WS_LANE_GROUP:
      default:
        break;
    }
}

/* A collapsed rank still shows when its GPUs were busy: the activity of
 * its streams, in its header's row. */
static void
draw_rank_activity (WsTimelineChart *self, guint32 group, double y, double h,
                    const WsPalette *palette)
{
  g_autoptr (GPtrArray) tracks = g_ptr_array_new ();

  for (guint l = group + 1; l < ws_lanes_get_n_lanes (self->lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);

      if (lane->group != group)
        break;
      if (lane->kind == WS_LANE_STREAM)
        g_ptr_array_add (tracks, (gpointer) &lane->tracks[0]);
    }
  if (tracks->len > 0)
    ws_timeline_paint_activity (self->paint, (const WsTrack *const *) tracks->pdata, tracks->len,
                                y + 3, h - 6, ws_timeline_paint_kernel_color (palette));
}

static void
draw_lanes (WsTimelineChart *self, cairo_t *cr, double width, double height, const WsPaintFrame *f,
            const WsTimeTicks *ticks, const WsTimelineState *state, const WsPalette *palette)
{
  const WsTimelineGeometry *g = &self->geometry;
  guint n = ws_lanes_get_n_lanes (self->lanes);
  double top = g->top_h;

  cairo_save (cr);
  cairo_rectangle (cr, f->x0, top, f->width, height - top);
  cairo_clip (cr);
  draw_grid (cr, ticks, f, top, height - top, palette);

  ws_timeline_paint_begin (self->paint, f);
  for (guint l = ws_timeline_chart_first_lane_below (self, state->scroll_y); l < n; l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);
      double y = top + self->lane_y[l] - state->scroll_y;
      double h = self->lane_h[l];

      if (y >= height)
        break;
      if (h <= 0)
        continue;
      if (state->lane_shift != NULL)
        ws_timeline_paint_set_shift (self->paint, state->lane_shift[l]);
      if (lane->kind == WS_LANE_GROUP)
        {
          ws_color_set_alpha (cr, palette->foreground, 0.05);
          cairo_rectangle (cr, f->x0, y, f->width, h);
          cairo_fill (cr);
          if (lane->rank >= 0 && (ws_timeline_chart_lane_flags (state, l) & WS_LANE_FLAG_COLLAPSED))
            draw_rank_activity (self, l, y, h, palette);
        }
      draw_lane_content (self, lane, y, h,
                         (ws_timeline_chart_lane_flags (state, l) & WS_LANE_FLAG_COLLAPSED) != 0 &&
                           lane->kind != WS_LANE_GROUP,
                         palette);
      ws_color_set (cr, palette->grid);
      cairo_rectangle (cr, f->x0, y + h, f->width, 1);
      cairo_fill (cr);
    }
  ws_timeline_paint_end (self->paint);
  cairo_restore (cr);
}

static void
choose_ticks (WsTimelineChart *self, const WsPaintFrame *f, WsTimeTicks *ticks)
{
  ws_time_ticks_choose (ticks, f->view_start + f->clock_shift,
                        f->view_start + f->clock_shift + f->width * f->ns_per_px, f->width,
                        self->geometry.line * 7);
}

/**
 * ws_timeline_chart_draw_base:
 * @window: the visible range; its width should be @width less the header width
 *
 * Draws what does not follow the pointer: the overview, the ruler, the
 * lane names and the lanes' events.
 */
void
ws_timeline_chart_draw_base (WsTimelineChart *self, cairo_t *cr, double width, double height,
                             WsTimeWindow *window, const WsTimelineState *state,
                             const WsPalette *palette)
{
  WsPaintFrame f;
  WsTimeTicks ticks;

  g_return_if_fail (self != NULL && cr != NULL && state != NULL && palette != NULL);

  layout (self, state, palette);
  frame_for (self, &f, cr, width, window, state, palette);
  choose_ticks (self, &f, &ticks);

  cairo_save (cr);
  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  draw_lanes (self, cr, width, height, &f, &ticks, state, palette);
  ws_timeline_chart_draw_headers_cached (self, cr, width, height, state, palette);
  ws_timeline_chart_draw_overview (self, cr, &f, window, palette);
  ws_timeline_chart_draw_ruler (self, cr, &f, &ticks, palette);
  cairo_restore (cr);
}

/* The band of row @row of lane @lane, in widget px; %FALSE if not shown. */
gboolean
ws_timeline_chart_lane_rect (WsTimelineChart *self, double width, double height,
                             const WsTimelineState *state, const WsPalette *palette, guint32 lane,
                             guint row, cairo_rectangle_t *rect)
{
  const WsTimelineGeometry *g = ws_timeline_chart_geometry (self, palette);
  const WsLane *l = ws_lanes_get_lane (self->lanes, lane);
  double y, h;

  g_return_val_if_fail (self != NULL && state != NULL && rect != NULL, FALSE);

  layout (self, state, palette);
  if (l == NULL || self->lane_h[lane] <= 0)
    return FALSE;
  y = g->top_h + self->lane_y[lane] - state->scroll_y;
  h = self->lane_h[lane];
  if ((ws_timeline_chart_lane_flags (state, lane) & WS_LANE_FLAG_COLLAPSED) &&
      l->kind != WS_LANE_GROUP)
    {
      y += 1;
      h -= 2;
    }
  else if (l->kind == WS_LANE_NVTX && row != G_MAXUINT)
    {
      y += MIN (row, l->n_tracks - 1) * g->row_h + 1;
      h = g->row_h - 2;
    }
  else if (l->kind == WS_LANE_STREAM && l->replays.n > 0)
    {
      /* The band of replays, or the kernels under it. */
      y += row == WS_LANE_ROW_REPLAYS ? 1 : g->replay_h + 2;
      h = row == WS_LANE_ROW_REPLAYS ? g->replay_h - 2 : g->stream_h - 4;
    }
  else if (l->kind != WS_LANE_NVTX)
    {
      y += 2;
      h -= 4;
    }
  rect->x = g->header_w;
  rect->width = MAX (width - g->header_w, 0);
  rect->y = y;
  rect->height = h;
  return TRUE;
}

/* Where @event is drawn (at least a pixel wide); %FALSE if its lane is hidden. */
gboolean
ws_timeline_chart_event_rect (WsTimelineChart *self, double width, double height,
                              WsTimeWindow *window, const WsTimelineState *state,
                              const WsPalette *palette, WsEventRef event, cairo_rectangle_t *rect)
{
  guint row = 0;
  guint32 lane;
  double x0, x1;
  gint64 shift;

  g_return_val_if_fail (self != NULL && rect != NULL, FALSE);

  lane = ws_lanes_find_event (self->lanes, event, &row);
  if (lane == WS_LANE_NONE ||
      !ws_timeline_chart_lane_rect (self, width, height, state, palette, lane, row, rect))
    return FALSE;
  shift = state->lane_shift != NULL ? state->lane_shift[lane] : 0;
  x0 = ws_time_window_time_to_x (window, ws_event_start (self->run, event) + shift);
  x1 = ws_time_window_time_to_x (window, ws_event_end (self->run, event) + shift);
  if (ws_event_ref_kind (event) == WS_EVENT_MARK)
    {
      x0 -= 2;
      x1 += 3;
      rect->height = 4;
    }
  rect->x += x0;
  rect->width = MAX (x1 - x0, 1);
  return TRUE;
}

static void
outline (cairo_t *cr, const cairo_rectangle_t *r, double line, WsColor color, double clip_x,
         double clip_w)
{
  double x0 = MAX (r->x, clip_x - line), x1 = MIN (r->x + r->width, clip_x + clip_w + line);

  if (x1 < x0)
    return;
  x1 = MAX (x1, x0 + 1);
  ws_color_set (cr, color);
  cairo_set_line_width (cr, line);
  cairo_rectangle (cr, floor (x0) - line / 2, floor (r->y) - line / 2,
                   ceil (x1) - floor (x0) + line, round (r->height) + line);
  cairo_stroke (cr);
}

/**
 * ws_timeline_chart_draw_overlay:
 *
 * Draws what follows the pointer over the base: the selected time range,
 * the hovered and the selected event, the cursor line.
 */
void
ws_timeline_chart_draw_overlay (WsTimelineChart *self, cairo_t *cr, double width, double height,
                                WsTimeWindow *window, const WsTimelineState *state,
                                const WsPalette *palette)
{
  const WsTimelineGeometry *g = ws_timeline_chart_geometry (self, palette);
  double x0 = g->header_w, w = MAX (width - g->header_w, 1);
  cairo_rectangle_t r;

  g_return_if_fail (self != NULL && cr != NULL && state != NULL && palette != NULL);

  layout (self, state, palette);
  cairo_save (cr);
  cairo_rectangle (cr, x0, g->overview_h, w, height - g->overview_h);
  cairo_clip (cr);

  if (state->range_end > state->range_start)
    {
      double a = x0 + ws_time_window_time_to_x (window, state->range_start);
      double b = x0 + ws_time_window_time_to_x (window, state->range_end);
      g_autoptr (PangoLayout) small = ws_timeline_paint_layout (self->paint, palette, 0.8, TRUE);
      g_autofree char *span = ws_format_duration ((double) (state->range_end - state->range_start));
      int lw, lh;

      b = MAX (b, a + 1);
      ws_color_set_alpha (cr, palette->accent, 0.12);
      cairo_rectangle (cr, a, g->overview_h, b - a, height - g->overview_h);
      cairo_fill (cr);
      ws_color_set_alpha (cr, palette->accent, 0.8);
      cairo_rectangle (cr, floor (a), g->overview_h, 1, height - g->overview_h);
      cairo_rectangle (cr, floor (b), g->overview_h, 1, height - g->overview_h);
      cairo_fill (cr);
      pango_layout_set_text (small, span, -1);
      pango_layout_get_pixel_size (small, &lw, &lh);
      ws_color_set (cr, palette->accent);
      cairo_rectangle (cr, (a + b - lw) / 2 - 4, g->overview_h + g->ruler_h - lh - 2, lw + 8, lh);
      cairo_fill (cr);
      ws_color_set (cr, palette->background);
      cairo_move_to (cr, (a + b - lw) / 2, g->overview_h + g->ruler_h - lh - 2);
      pango_cairo_show_layout (cr, small);
    }

  cairo_reset_clip (cr);
  cairo_rectangle (cr, x0, g->top_h, w, height - g->top_h);
  cairo_clip (cr);
  ws_timeline_path_draw (self, cr, width, height, window, state, palette);
  if (state->hover != WS_EVENT_NONE && state->hover != state->selected &&
      ws_timeline_chart_event_rect (self, width, height, window, state, palette, state->hover, &r))
    outline (cr, &r, 1, palette->foreground, x0, w);
  if (state->selected != WS_EVENT_NONE &&
      ws_timeline_chart_event_rect (self, width, height, window, state, palette, state->selected,
                                    &r))
    outline (cr, &r, 2, palette->accent, x0, w);
  if (state->cursor_x >= x0 && state->cursor_x < width)
    {
      ws_color_set_alpha (cr, palette->foreground, 0.35);
      cairo_rectangle (cr, floor (state->cursor_x), g->top_h, 1, height - g->top_h);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

/**
 * ws_timeline_chart_draw:
 *
 * Draws the whole timeline in (0, 0, @width, @height): the base, then the
 * overlay.  The window and the CLI call this; the window caches the base.
 */
void
ws_timeline_chart_draw (WsTimelineChart *self, cairo_t *cr, double width, double height,
                        WsTimeWindow *window, const WsTimelineState *state,
                        const WsPalette *palette)
{
  ws_timeline_chart_draw_base (self, cr, width, height, window, state, palette);
  ws_timeline_chart_draw_overlay (self, cr, width, height, window, state, palette);
}

static guint32
lane_at (WsTimelineChart *self, double content_y)
{
  guint l = ws_timeline_chart_first_lane_below (self, content_y);

  if (l < ws_lanes_get_n_lanes (self->lanes) && self->lane_h[l] > 0 &&
      self->lane_y[l] <= content_y && content_y < self->lane_y[l] + self->lane_h[l])
    return l;
  return WS_LANE_NONE;
}

/**
 * ws_timeline_chart_hit:
 * @hit: (out): what is at (@x, @y)
 *
 * The hit test behind tooltips, clicks and tests: the area, the lane and
 * row, the event (the one containing the time at @x, else the nearest
 * within 3 px) and the time under the pointer.
 */
void
ws_timeline_chart_hit (WsTimelineChart *self, double width, double height, WsTimeWindow *window,
                       const WsTimelineState *state, const WsPalette *palette, double x, double y,
                       WsTimelineHit *hit)
{
  const WsTimelineGeometry *g = ws_timeline_chart_geometry (self, palette);
  double content_y;

  g_return_if_fail (self != NULL && state != NULL && hit != NULL);

  *hit = (WsTimelineHit){ WS_TIMELINE_AREA_NONE, WS_LANE_NONE, 0, WS_EVENT_NONE, 0, FALSE };
  layout (self, state, palette);
  if (x < 0 || y < 0 || x >= width || y >= height)
    return;
  content_y = y - g->top_h + state->scroll_y;

  if (x < g->header_w)
    {
      if (y < g->top_h)
        {
          hit->area = WS_TIMELINE_AREA_CORNER;
          return;
        }
      hit->area = WS_TIMELINE_AREA_HEADER;
      hit->lane = lane_at (self, content_y);
      if (hit->lane != WS_LANE_NONE)
        {
          const WsLane *lane = ws_lanes_get_lane (self->lanes, hit->lane);
          double ex = lane->kind == WS_LANE_GROUP ? 4 : 4 + g->indent;

          hit->expander = x >= ex - 2 && x < ex + g->expander_w + 2;
        }
      return;
    }

  if (y < g->overview_h)
    {
      double start, npp;

      ws_timeline_chart_overview_mapping (window, width - g->header_w, &start, &npp);
      hit->area = WS_TIMELINE_AREA_OVERVIEW;
      hit->time =
        ws_time_window_get_origin (window) + (gint64) floor (start + (x - g->header_w) * npp);
      return;
    }
  hit->time = ws_time_window_x_to_time (window, x - g->header_w);
  if (y < g->top_h)
    {
      hit->area = WS_TIMELINE_AREA_RULER;
      return;
    }

  hit->area = WS_TIMELINE_AREA_LANE;
  hit->lane = lane_at (self, content_y);
  if (hit->lane != WS_LANE_NONE)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, hit->lane);
      gboolean collapsed =
        (ws_timeline_chart_lane_flags (state, hit->lane) & WS_LANE_FLAG_COLLAPSED) != 0;
      double in_lane = content_y - self->lane_y[hit->lane];
      gint64 tolerance = (gint64) ceil (3 * ws_time_window_get_ns_per_px (window));
      const WsTrack *track = NULL;

      switch (lane->kind)
        {
          case WS_LANE_NVTX:
            hit->row = collapsed ? 0 : MIN ((guint) (in_lane / g->row_h), lane->n_tracks - 1);
            if (in_lane < 5 && lane->marks.n > 0)
              {
                hit->event = ws_track_event_at (
                  &lane->marks, self->run,
                  hit->time - (state->lane_shift != NULL ? state->lane_shift[hit->lane] : 0),
                  tolerance);
                if (hit->event != WS_EVENT_NONE)
                  {
                    hit->row = G_MAXUINT;
                    return;
                  }
              }
            track = &lane->tracks[hit->row];
            break;
          case WS_LANE_STREAM:
            track = &lane->tracks[0];
            if (lane->replays.n > 0 && !collapsed && in_lane < g->replay_h)
              {
                track = &lane->replays;
                hit->row = WS_LANE_ROW_REPLAYS;
              }
            break;
          case WS_LANE_API:
          case WS_LANE_OSRT:
          case WS_LANE_SAMPLES:
            track = &lane->tracks[0];
            break;
          case WS_LANE_GROUP:
          case WS_LANE_METRIC:
          case WS_LANE_MEMORY:
          default:
            break;
        }
      if (track != NULL)
        hit->event = ws_track_event_at (
          track, self->run,
          hit->time - (state->lane_shift != NULL ? state->lane_shift[hit->lane] : 0), tolerance);
    }
}
