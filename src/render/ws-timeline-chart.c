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
#include "ws-timeline-paint.h"
#include "ws-timeline-text.h"

/* Geometry from the font: recomputed when the font changes. */
typedef struct
{
  char font[64];
  double line; /* px: a line of lane text */
  double header_w;
  double overview_h;
  double ruler_h;
  double top_h; /* overview + ruler */
  double row_h; /* an NVTX row, an API lane */
  double stream_h;
  double group_h;
  double metric_h;
  double memory_h;
  double collapsed_h;
  double indent; /* lanes under a group */
  double expander_w;
} Geometry;

typedef struct
{
  double scroll_y;
  double height;
  double width;
  guint32 flags_hash;
  char font[64];
  WsColor foreground;
  WsColor background;
} HeaderKey;

typedef struct
{
  double width;
  double height;
  char font[64];
  WsColor background;
} OverviewKey;

struct _WsTimelineChart
{
  WsLanes *lanes;
  WsRun *run;
  WsNvtxProjection *projection;
  WsTimelinePaint *paint;

  Geometry geometry;
  double *lane_y; /* content px, per lane */
  double *lane_h; /* 0 when hidden */
  double content_h;

  cairo_surface_t *header_cache;
  HeaderKey header_key;
  cairo_surface_t *overview_cache;
  OverviewKey overview_key;
};

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
  g_clear_pointer (&self->projection, ws_nvtx_projection_unref);
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

/* With a projection, selecting an NVTX range can highlight its kernels. */
void
ws_timeline_chart_set_projection (WsTimelineChart *self, WsNvtxProjection *projection)
{
  if (projection != NULL)
    ws_nvtx_projection_ref (projection);
  g_clear_pointer (&self->projection, ws_nvtx_projection_unref);
  self->projection = projection;
}

void
ws_timeline_state_init (WsTimelineState *state)
{
  *state = (WsTimelineState){ 0 };
  state->hover = WS_EVENT_NONE;
  state->selected = WS_EVENT_NONE;
  state->nvtx_focus = G_MAXSIZE;
  state->cursor_x = -1;
  state->name_form = WS_NAME_SHORT;
}

static const Geometry *
geometry (WsTimelineChart *self, const WsPalette *palette)
{
  Geometry *g = &self->geometry;
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
  return geometry (self, palette)->header_w;
}

double
ws_timeline_chart_top_height (WsTimelineChart *self, const WsPalette *palette)
{
  return geometry (self, palette)->top_h;
}

static guint8
flags_of (const WsTimelineState *state, guint32 lane)
{
  return state != NULL && state->lane_flags != NULL ? state->lane_flags[lane] : 0;
}

static double
expanded_height (const Geometry *g, const WsLane *lane)
{
  switch (lane->kind)
    {
      case WS_LANE_GROUP:
        return g->group_h;
      case WS_LANE_STREAM:
        return g->stream_h;
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
  const Geometry *g = geometry (self, palette);
  guint n = ws_lanes_get_n_lanes (self->lanes);
  double y = 0;

  for (guint l = 0; l < n; l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);
      guint8 flags = flags_of (state, l);
      double h;

      if (lane->group != WS_LANE_NONE &&
          (flags_of (state, lane->group) & (WS_LANE_FLAG_HIDDEN | WS_LANE_FLAG_COLLAPSED)))
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

static gboolean
can_cache (cairo_t *cr)
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

static gboolean
same_color (WsColor a, WsColor b)
{
  return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

static guint32
flags_hash (WsTimelineChart *self, const WsTimelineState *state)
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
  const Geometry *g = geometry (self, palette);

  *f = (WsPaintFrame){ 0 };
  f->cr = cr;
  f->palette = palette;
  f->projection = self->projection;
  f->search = state->search;
  f->search_len = state->search_len;
  f->nvtx_focus = self->projection != NULL ? state->nvtx_focus : G_MAXSIZE;
  f->name_form = state->name_form;
  f->x0 = g->header_w;
  f->width = MAX (width - g->header_w, 1);
  f->origin = ws_time_window_get_origin (window);
  f->view_start = ws_time_window_get_start (window);
  f->ns_per_px = ws_time_window_get_span (window) / f->width;
}

/* The first lane whose band reaches below content y @y. */
static guint
first_lane_below (WsTimelineChart *self, double y)
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
  for (double t = ticks->first; t <= f->view_start + f->width * f->ns_per_px; t += ticks->step)
    {
      double x = round ((t - f->view_start) / f->ns_per_px) + 0.5;

      cairo_rectangle (cr, f->x0 + x - 0.5, y, 1, h);
    }
  cairo_fill (cr);
}

static void
draw_lane_content (WsTimelineChart *self, const WsLane *lane, double y, double h,
                   gboolean collapsed, const WsPalette *palette)
{
  const Geometry *g = &self->geometry;
  double pad = collapsed ? 1 : 2;

  switch (lane->kind)
    {
      case WS_LANE_STREAM:
      case WS_LANE_API:
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
        ws_timeline_paint_series (self->paint, &lane->series, lane->series.max, y + pad,
                                  h - 2 * pad, palette->latency);
        break;
      case WS_LANE_GROUP:
      default:
        break;
    }
}

static void
draw_lanes (WsTimelineChart *self, cairo_t *cr, double width, double height, const WsPaintFrame *f,
            const WsTimeTicks *ticks, const WsTimelineState *state, const WsPalette *palette)
{
  const Geometry *g = &self->geometry;
  guint n = ws_lanes_get_n_lanes (self->lanes);
  double top = g->top_h;

  cairo_save (cr);
  cairo_rectangle (cr, f->x0, top, f->width, height - top);
  cairo_clip (cr);
  draw_grid (cr, ticks, f, top, height - top, palette);

  ws_timeline_paint_begin (self->paint, f);
  for (guint l = first_lane_below (self, state->scroll_y); l < n; l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);
      double y = top + self->lane_y[l] - state->scroll_y;
      double h = self->lane_h[l];

      if (y >= height)
        break;
      if (h <= 0)
        continue;
      if (lane->kind == WS_LANE_GROUP)
        {
          ws_color_set_alpha (cr, palette->foreground, 0.05);
          cairo_rectangle (cr, f->x0, y, f->width, h);
          cairo_fill (cr);
        }
      draw_lane_content (self, lane, y, h,
                         (flags_of (state, l) & WS_LANE_FLAG_COLLAPSED) != 0 &&
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
draw_expander (cairo_t *cr, double x, double y, double size, gboolean open,
               const WsPalette *palette)
{
  double c = size / 2, r = size * 0.28;

  ws_color_set (cr, palette->dim);
  if (open)
    {
      cairo_move_to (cr, x + c - r, y + c - r * 0.6);
      cairo_line_to (cr, x + c + r, y + c - r * 0.6);
      cairo_line_to (cr, x + c, y + c + r * 0.8);
    }
  else
    {
      cairo_move_to (cr, x + c - r * 0.6, y + c - r);
      cairo_line_to (cr, x + c - r * 0.6, y + c + r);
      cairo_line_to (cr, x + c + r * 0.8, y + c);
    }
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* The lane names, in a column of @width × @height from the top of the lanes. */
static void
draw_headers (WsTimelineChart *self, cairo_t *cr, double width, double height,
              const WsTimelineState *state, const WsPalette *palette)
{
  const Geometry *g = &self->geometry;
  guint n = ws_lanes_get_n_lanes (self->lanes);
  g_autoptr (PangoLayout) bold = ws_timeline_paint_layout (self->paint, palette, 0.9, TRUE);
  g_autoptr (PangoLayout) text = ws_timeline_paint_layout (self->paint, palette, 0.9, FALSE);
  g_autoptr (PangoLayout) small = ws_timeline_paint_layout (self->paint, palette, 0.8, FALSE);

  pango_layout_set_ellipsize (bold, PANGO_ELLIPSIZE_END);
  pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_END);
  pango_layout_set_ellipsize (small, PANGO_ELLIPSIZE_END);

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  for (guint l = first_lane_below (self, state->scroll_y); l < n; l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);
      double y = self->lane_y[l] - state->scroll_y;
      double h = self->lane_h[l];
      double x = lane->kind == WS_LANE_GROUP ? 4 : 4 + g->indent;
      gboolean collapsed = (flags_of (state, l) & WS_LANE_FLAG_COLLAPSED) != 0;
      g_autofree char *subtitle = NULL;
      g_autofree char *title = NULL;
      PangoLayout *title_layout = lane->kind == WS_LANE_GROUP ? bold : text;
      int tw, th;
      double avail;

      if (y >= height)
        break;
      if (h <= 0)
        continue;
      if (lane->kind == WS_LANE_GROUP)
        {
          ws_color_set_alpha (cr, palette->foreground, 0.05);
          cairo_rectangle (cr, 0, y, width, h);
          cairo_fill (cr);
        }
      ws_color_set (cr, palette->grid);
      cairo_rectangle (cr, 0, y + h, width, 1);
      cairo_fill (cr);

      draw_expander (cr, x, y + (MIN (h, g->row_h) - g->expander_w) / 2, g->expander_w, !collapsed,
                     palette);
      if (collapsed && lane->kind != WS_LANE_GROUP)
        continue;
      x += g->expander_w + 2;
      avail = width - x - 6;
      title = ws_timeline_lane_title (self->lanes, l, &subtitle);

      pango_layout_set_width (title_layout, (int) (avail * PANGO_SCALE));
      pango_layout_set_text (title_layout, title, -1);
      pango_layout_get_pixel_size (title_layout, &tw, &th);
      ws_color_set (cr, palette->foreground);
      /* Two lines where there is room, else the subtitle after the title. */
      if (subtitle != NULL && h >= 2 * th + 2)
        {
          cairo_move_to (cr, x, y + 1);
          pango_cairo_show_layout (cr, title_layout);
          pango_layout_set_width (small, (int) (avail * PANGO_SCALE));
          pango_layout_set_text (small, subtitle, -1);
          ws_color_set (cr, palette->dim);
          cairo_move_to (cr, x, y + 1 + th);
          pango_cairo_show_layout (cr, small);
        }
      else
        {
          double ty = y + floor ((MIN (h, g->row_h * 1.2) - th) / 2);

          cairo_move_to (cr, x, ty);
          pango_cairo_show_layout (cr, title_layout);
          if (subtitle != NULL && tw + 12 < avail)
            {
              int sw, sh;

              pango_layout_set_width (small, (int) ((avail - tw - 8) * PANGO_SCALE));
              pango_layout_set_text (small, subtitle, -1);
              pango_layout_get_pixel_size (small, &sw, &sh);
              ws_color_set (cr, palette->dim);
              cairo_move_to (cr, x + tw + 8, ty + (th - sh) / 2.0 + 1);
              pango_cairo_show_layout (cr, small);
            }
        }
    }
  /* The edge between names and events. */
  ws_color_set (cr, palette->grid);
  cairo_rectangle (cr, width - 1, 0, 1, height);
  cairo_fill (cr);
}

static void
draw_headers_cached (WsTimelineChart *self, cairo_t *cr, double width, double height,
                     const WsTimelineState *state, const WsPalette *palette)
{
  const Geometry *g = &self->geometry;
  double h = MAX (height - g->top_h, 1);
  HeaderKey key = { 0 };

  key.scroll_y = state->scroll_y;
  key.height = h;
  key.width = g->header_w;
  key.flags_hash = flags_hash (self, state);
  g_strlcpy (key.font, palette->font, sizeof key.font);
  key.foreground = palette->foreground;
  key.background = palette->background;

  cairo_save (cr);
  cairo_rectangle (cr, 0, g->top_h, g->header_w, h);
  cairo_clip (cr);
  cairo_translate (cr, 0, g->top_h);
  if (!can_cache (cr))
    {
      draw_headers (self, cr, g->header_w, h, state, palette);
      cairo_restore (cr);
      return;
    }
  if (self->header_cache == NULL || key.scroll_y != self->header_key.scroll_y ||
      key.height != self->header_key.height || key.width != self->header_key.width ||
      key.flags_hash != self->header_key.flags_hash ||
      !g_str_equal (key.font, self->header_key.font) ||
      !same_color (key.foreground, self->header_key.foreground) ||
      !same_color (key.background, self->header_key.background))
    {
      cairo_t *hcr;

      g_clear_pointer (&self->header_cache, cairo_surface_destroy);
      self->header_cache = cairo_surface_create_similar (
        cairo_get_target (cr), CAIRO_CONTENT_COLOR_ALPHA, (int) ceil (g->header_w), (int) ceil (h));
      hcr = cairo_create (self->header_cache);
      draw_headers (self, hcr, g->header_w, h, state, palette);
      cairo_destroy (hcr);
      self->header_key = key;
    }
  cairo_set_source_surface (cr, self->header_cache, 0, 0);
  cairo_paint (cr);
  cairo_restore (cr);
}

static void
draw_ruler (WsTimelineChart *self, cairo_t *cr, const WsPaintFrame *f, const WsTimeTicks *ticks,
            const WsPalette *palette)
{
  const Geometry *g = &self->geometry;
  g_autoptr (PangoLayout) small = ws_timeline_paint_layout (self->paint, palette, 0.8, FALSE);
  double y = g->overview_h, h = g->ruler_h;
  double view_end = f->view_start + f->width * f->ns_per_px;
  g_autofree char *base = ws_time_ticks_base_label (ticks);

  cairo_save (cr);
  cairo_rectangle (cr, f->x0, y, f->width, h);
  cairo_clip (cr);
  ws_color_set (cr, palette->dim);
  for (double t = ceil (f->view_start / ticks->minor) * ticks->minor; t <= view_end;
       t += ticks->minor)
    {
      double x = round ((t - f->view_start) / f->ns_per_px);

      cairo_rectangle (cr, f->x0 + x, y + h - 4, 1, 4);
    }
  cairo_fill (cr);
  for (double t = ticks->first; t <= view_end; t += ticks->step)
    {
      double x = round ((t - f->view_start) / f->ns_per_px);
      g_autofree char *label = ws_time_ticks_label (ticks, t);
      int lw, lh;

      ws_color_set (cr, palette->dim);
      cairo_rectangle (cr, f->x0 + x, y + h / 2, 1, h / 2);
      cairo_fill (cr);
      pango_layout_set_text (small, label, -1);
      pango_layout_get_pixel_size (small, &lw, &lh);
      ws_color_set (cr, palette->foreground);
      cairo_move_to (cr, f->x0 + x + 3, y + 1);
      pango_cairo_show_layout (cr, small);
    }
  cairo_restore (cr);

  ws_color_set (cr, palette->grid);
  cairo_rectangle (cr, 0, y + h - 1, f->x0 + f->width, 1);
  cairo_fill (cr);

  /* The corner: how much time is in view, and what labels count from. */
  {
    g_autofree char *span = ws_format_duration (f->width * f->ns_per_px);
    g_autofree char *text = NULL;

    if (base != NULL)
      /* TRANSLATORS: the ruler's labels count from this time ("1.234567 s +") */
      text = g_strdup_printf (_ ("%s +"), base);
    else
      /* TRANSLATORS: %s is the duration the timeline shows ("141 ms") */
      text = g_strdup_printf (_ ("%s in view"), span);
    pango_layout_set_width (small, (int) ((f->x0 - 12) * PANGO_SCALE));
    pango_layout_set_ellipsize (small, PANGO_ELLIPSIZE_START);
    pango_layout_set_alignment (small, PANGO_ALIGN_RIGHT);
    pango_layout_set_text (small, text, -1);
    ws_color_set (cr, palette->dim);
    cairo_move_to (cr, 6, y + 1);
    pango_cairo_show_layout (cr, small);
  }
}

/* The x of @offset (ns from the origin) in the overview, which always
 * shows the whole run as "fit" would. */
static void
overview_mapping (WsTimeWindow *window, double width, double *start, double *ns_per_px)
{
  double max_span = ws_time_window_get_max_span (window);
  double duration =
    (double) (ws_time_window_get_end_time (window) - ws_time_window_get_origin (window));

  *start = -(max_span - duration) / 2;
  *ns_per_px = max_span / MAX (width, 1);
}

static void
draw_overview_activity (WsTimelineChart *self, cairo_t *cr, const WsPaintFrame *base,
                        WsTimeWindow *window, const WsPalette *palette)
{
  const Geometry *g = &self->geometry;
  g_autoptr (GPtrArray) tracks = g_ptr_array_new ();
  WsPaintFrame f = *base;

  for (guint l = 0; l < ws_lanes_get_n_lanes (self->lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);

      if (lane->kind == WS_LANE_STREAM)
        g_ptr_array_add (tracks, (gpointer) &lane->tracks[0]);
    }
  f.cr = cr;
  f.x0 = 0;
  f.search = NULL;
  f.nvtx_focus = G_MAXSIZE;
  overview_mapping (window, f.width, &f.view_start, &f.ns_per_px);

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  ws_timeline_paint_begin (self->paint, &f);
  ws_timeline_paint_activity (self->paint, (const WsTrack *const *) tracks->pdata, tracks->len, 3,
                              g->overview_h - 6, ws_timeline_paint_kernel_color (palette));
  ws_timeline_paint_end (self->paint);
}

static void
draw_overview (WsTimelineChart *self, cairo_t *cr, const WsPaintFrame *f, WsTimeWindow *window,
               const WsPalette *palette)
{
  const Geometry *g = &self->geometry;
  OverviewKey key = { 0 };
  double start, npp, x0, x1;

  key.width = f->width;
  key.height = g->overview_h;
  g_strlcpy (key.font, palette->font, sizeof key.font);
  key.background = palette->background;

  cairo_save (cr);
  cairo_rectangle (cr, f->x0, 0, f->width, g->overview_h);
  cairo_clip (cr);
  cairo_translate (cr, f->x0, 0);
  if (!can_cache (cr))
    draw_overview_activity (self, cr, f, window, palette);
  else
    {
      if (self->overview_cache == NULL || key.width != self->overview_key.width ||
          key.height != self->overview_key.height ||
          !g_str_equal (key.font, self->overview_key.font) ||
          !same_color (key.background, self->overview_key.background))
        {
          cairo_t *ocr;

          g_clear_pointer (&self->overview_cache, cairo_surface_destroy);
          self->overview_cache =
            cairo_surface_create_similar (cairo_get_target (cr), CAIRO_CONTENT_COLOR_ALPHA,
                                          (int) ceil (f->width), (int) ceil (g->overview_h));
          ocr = cairo_create (self->overview_cache);
          draw_overview_activity (self, ocr, f, window, palette);
          cairo_destroy (ocr);
          self->overview_key = key;
        }
      cairo_set_source_surface (cr, self->overview_cache, 0, 0);
      cairo_paint (cr);
    }

  /* The view's box; what is outside it is shaded. */
  overview_mapping (window, f->width, &start, &npp);
  x0 = round ((ws_time_window_get_start (window) - start) / npp);
  x1 = round ((ws_time_window_get_end (window) - start) / npp);
  x1 = MAX (x1, x0 + 2);
  ws_color_set_alpha (cr, palette->background, 0.55);
  cairo_rectangle (cr, 0, 0, x0, g->overview_h);
  cairo_rectangle (cr, x1, 0, f->width - x1, g->overview_h);
  cairo_fill (cr);
  ws_color_set (cr, palette->accent);
  cairo_set_line_width (cr, 1.5);
  cairo_rectangle (cr, x0 + 0.75, 1.25, x1 - x0 - 1.5, g->overview_h - 2.5);
  cairo_stroke (cr);
  cairo_restore (cr);

  ws_color_set (cr, palette->grid);
  cairo_rectangle (cr, 0, g->overview_h - 1, f->x0 + f->width, 1);
  cairo_fill (cr);
}

static void
choose_ticks (WsTimelineChart *self, const WsPaintFrame *f, WsTimeTicks *ticks)
{
  ws_time_ticks_choose (ticks, f->view_start, f->view_start + f->width * f->ns_per_px, f->width,
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
  draw_headers_cached (self, cr, width, height, state, palette);
  draw_overview (self, cr, &f, window, palette);
  draw_ruler (self, cr, &f, &ticks, palette);
  cairo_restore (cr);
}

/* The band of row @row of lane @lane, in widget px; %FALSE if not shown. */
gboolean
ws_timeline_chart_lane_rect (WsTimelineChart *self, double width, double height,
                             const WsTimelineState *state, const WsPalette *palette, guint32 lane,
                             guint row, cairo_rectangle_t *rect)
{
  const Geometry *g = geometry (self, palette);
  const WsLane *l = ws_lanes_get_lane (self->lanes, lane);
  double y, h;

  g_return_val_if_fail (self != NULL && state != NULL && rect != NULL, FALSE);

  layout (self, state, palette);
  if (l == NULL || self->lane_h[lane] <= 0)
    return FALSE;
  y = g->top_h + self->lane_y[lane] - state->scroll_y;
  h = self->lane_h[lane];
  if ((flags_of (state, lane) & WS_LANE_FLAG_COLLAPSED) && l->kind != WS_LANE_GROUP)
    {
      y += 1;
      h -= 2;
    }
  else if (l->kind == WS_LANE_NVTX && row != G_MAXUINT)
    {
      y += MIN (row, l->n_tracks - 1) * g->row_h + 1;
      h = g->row_h - 2;
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

  g_return_val_if_fail (self != NULL && rect != NULL, FALSE);

  lane = ws_lanes_find_event (self->lanes, event, &row);
  if (lane == WS_LANE_NONE ||
      !ws_timeline_chart_lane_rect (self, width, height, state, palette, lane, row, rect))
    return FALSE;
  x0 = ws_time_window_time_to_x (window, ws_event_start (self->run, event));
  x1 = ws_time_window_time_to_x (window, ws_event_end (self->run, event));
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
  const Geometry *g = geometry (self, palette);
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
  guint l = first_lane_below (self, content_y);

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
  const Geometry *g = geometry (self, palette);
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

      overview_mapping (window, width - g->header_w, &start, &npp);
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
      gboolean collapsed = (flags_of (state, hit->lane) & WS_LANE_FLAG_COLLAPSED) != 0;
      double in_lane = content_y - self->lane_y[hit->lane];
      gint64 tolerance = (gint64) ceil (3 * ws_time_window_get_ns_per_px (window));
      const WsTrack *track = NULL;

      switch (lane->kind)
        {
          case WS_LANE_NVTX:
            hit->row = collapsed ? 0 : MIN ((guint) (in_lane / g->row_h), lane->n_tracks - 1);
            if (in_lane < 5 && lane->marks.n > 0)
              {
                hit->event = ws_track_event_at (&lane->marks, self->run, hit->time, tolerance);
                if (hit->event != WS_EVENT_NONE)
                  {
                    hit->row = G_MAXUINT;
                    return;
                  }
              }
            track = &lane->tracks[hit->row];
            break;
          case WS_LANE_STREAM:
          case WS_LANE_API:
            track = &lane->tracks[0];
            break;
          case WS_LANE_GROUP:
          case WS_LANE_METRIC:
          case WS_LANE_MEMORY:
          default:
            break;
        }
      if (track != NULL)
        hit->event = ws_track_event_at (track, self->run, hit->time, tolerance);
    }
}
