/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-timeline-chart-private.h"
#include "ws-timeline-text.h"

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
  const WsTimelineGeometry *g = &self->geometry;
  guint n = ws_lanes_get_n_lanes (self->lanes);
  g_autoptr (PangoLayout) bold = ws_timeline_paint_layout (self->paint, palette, 0.9, TRUE);
  g_autoptr (PangoLayout) text = ws_timeline_paint_layout (self->paint, palette, 0.9, FALSE);
  g_autoptr (PangoLayout) small = ws_timeline_paint_layout (self->paint, palette, 0.8, FALSE);

  pango_layout_set_ellipsize (bold, PANGO_ELLIPSIZE_END);
  pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_END);
  pango_layout_set_ellipsize (small, PANGO_ELLIPSIZE_END);

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  for (guint l = ws_timeline_chart_first_lane_below (self, state->scroll_y); l < n; l++)
    {
      const WsLane *lane = ws_lanes_get_lane (self->lanes, l);
      double y = self->lane_y[l] - state->scroll_y;
      double h = self->lane_h[l];
      double x = lane->kind == WS_LANE_GROUP ? 4 : 4 + g->indent;
      gboolean collapsed = (ws_timeline_chart_lane_flags (state, l) & WS_LANE_FLAG_COLLAPSED) != 0;
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

void
ws_timeline_chart_draw_headers_cached (WsTimelineChart *self, cairo_t *cr, double width,
                                       double height, const WsTimelineState *state,
                                       const WsPalette *palette)
{
  const WsTimelineGeometry *g = &self->geometry;
  double h = MAX (height - g->top_h, 1);
  WsTimelineHeaderKey key = { 0 };

  key.scroll_y = state->scroll_y;
  key.height = h;
  key.width = g->header_w;
  key.flags_hash = ws_timeline_chart_flags_hash (self, state);
  g_strlcpy (key.font, palette->font, sizeof key.font);
  key.foreground = palette->foreground;
  key.background = palette->background;

  cairo_save (cr);
  cairo_rectangle (cr, 0, g->top_h, g->header_w, h);
  cairo_clip (cr);
  cairo_translate (cr, 0, g->top_h);
  if (!ws_timeline_chart_can_cache (cr))
    {
      draw_headers (self, cr, g->header_w, h, state, palette);
      cairo_restore (cr);
      return;
    }
  if (self->header_cache == NULL || key.scroll_y != self->header_key.scroll_y ||
      key.height != self->header_key.height || key.width != self->header_key.width ||
      key.flags_hash != self->header_key.flags_hash ||
      !g_str_equal (key.font, self->header_key.font) ||
      !ws_timeline_chart_same_color (key.foreground, self->header_key.foreground) ||
      !ws_timeline_chart_same_color (key.background, self->header_key.background))
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

void
ws_timeline_chart_draw_ruler (WsTimelineChart *self, cairo_t *cr, const WsPaintFrame *f,
                              const WsTimeTicks *ticks, const WsPalette *palette)
{
  const WsTimelineGeometry *g = &self->geometry;
  g_autoptr (PangoLayout) small = ws_timeline_paint_layout (self->paint, palette, 0.8, FALSE);
  double y = g->overview_h, h = g->ruler_h;
  /* The ruler reads its own clock: the run's, when the bounds are shifted. */
  double clock_start = f->view_start + f->clock_shift;
  double view_end = clock_start + f->width * f->ns_per_px;
  g_autofree char *base = ws_time_ticks_base_label (ticks);

  cairo_save (cr);
  cairo_rectangle (cr, f->x0, y, f->width, h);
  cairo_clip (cr);
  ws_color_set (cr, palette->dim);
  for (double t = ceil (clock_start / ticks->minor) * ticks->minor; t <= view_end;
       t += ticks->minor)
    {
      double x = round ((t - clock_start) / f->ns_per_px);

      cairo_rectangle (cr, f->x0 + x, y + h - 4, 1, 4);
    }
  cairo_fill (cr);
  for (double t = ticks->first; t <= view_end; t += ticks->step)
    {
      double x = round ((t - clock_start) / f->ns_per_px);
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
void
ws_timeline_chart_overview_mapping (WsTimeWindow *window, double width, double *start,
                                    double *ns_per_px)
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
  const WsTimelineGeometry *g = &self->geometry;
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
  f.highlight = NULL;
  ws_timeline_chart_overview_mapping (window, f.width, &f.view_start, &f.ns_per_px);

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  ws_timeline_paint_begin (self->paint, &f);
  ws_timeline_paint_activity (self->paint, (const WsTrack *const *) tracks->pdata, tracks->len, 3,
                              g->overview_h - 6, ws_timeline_paint_kernel_color (palette));
  ws_timeline_paint_end (self->paint);
}

void
ws_timeline_chart_draw_overview (WsTimelineChart *self, cairo_t *cr, const WsPaintFrame *f,
                                 WsTimeWindow *window, const WsPalette *palette)
{
  const WsTimelineGeometry *g = &self->geometry;
  WsTimelineOverviewKey key = { 0 };
  double start, npp, x0, x1;

  key.width = f->width;
  key.height = g->overview_h;
  g_strlcpy (key.font, palette->font, sizeof key.font);
  key.background = palette->background;

  cairo_save (cr);
  cairo_rectangle (cr, f->x0, 0, f->width, g->overview_h);
  cairo_clip (cr);
  cairo_translate (cr, f->x0, 0);
  if (!ws_timeline_chart_can_cache (cr))
    draw_overview_activity (self, cr, f, window, palette);
  else
    {
      if (self->overview_cache == NULL || key.width != self->overview_key.width ||
          key.height != self->overview_key.height ||
          !g_str_equal (key.font, self->overview_key.font) ||
          !ws_timeline_chart_same_color (key.background, self->overview_key.background))
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
  ws_timeline_chart_overview_mapping (window, f->width, &start, &npp);
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
