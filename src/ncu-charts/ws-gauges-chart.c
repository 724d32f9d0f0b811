/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauges-chart"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-bars-chart.h"
#include "ws-format.h"
#include "ws-gauges-chart.h"
#include "ws-kernel-name.h"
#include "ws-text.h"

const WsGaugeKind ws_gauges_arc_kinds[WS_GAUGES_N_ARCS] = {
  WS_GAUGE_SM, WS_GAUGE_TENSOR, WS_GAUGE_FP32, WS_GAUGE_L1_HIT, WS_GAUGE_L2_HIT, WS_GAUGE_DRAM,
};

static const WsGaugeKind bar_kinds[] = { WS_GAUGE_MEMORY, WS_GAUGE_OCCUPANCY };
static const WsGaugeKind stall_kinds[] = { WS_GAUGE_STALL_BARRIER, WS_GAUGE_STALL_SHORT_SCOREBOARD,
                                           WS_GAUGE_STALL_LONG_SCOREBOARD };

/* An arc of 240°, open at the bottom, filled clockwise from the left. */
#define ARC_START (G_PI * 5 / 6)
#define ARC_SWEEP (G_PI * 4 / 3)

/* Layout */

typedef struct
{
  double pad;
  double line;       /* text line height */
  double small_line; /* small print */
  double width;

  double title_y;
  double subtitle_y;
  double verdict_y;
  double chip_w, chip_h;
  double reason_x, reason_w, reason_h;
  double sol_y, sol_h;

  double arcs_y;
  int cols, rows;
  double cell_w, cell_h;
  double radius, thickness;

  double bars_y;   /* Memory and Occupancy */
  double stalls_x; /* the stall bars: beside the bars when wide, else below */
  double stalls_y;
  double column_w; /* the width of each of those columns */
  double row_h;    /* a bar row */
  double label_w;  /* bar labels */
} PanelLayout;

static char *
sol_text (const WsGauges *gauges)
{
  /* TRANSLATORS: "Speed of light: High throughput — SM 97.83% ≥ 80%" */
  return g_strdup_printf (_ ("Speed of light: %s — %s"), ws_sol_verdict_label (gauges->sol),
                          gauges->sol_reason);
}

static void
compute_layout (cairo_t *cr, double width, double height, const WsNcuResults *results, guint launch,
                const WsPalette *palette, PanelLayout *l)
{
  const WsGauges *gauges = ws_ncu_results_gauges (results, launch);
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  g_autoptr (PangoLayout) bold = ws_text_layout (cr, palette, 1.0, TRUE);
  g_autofree char *sol = sol_text (gauges);
  double label_w = 0;
  double y, avail, bars_h;
  double best = -1;

  memset (l, 0, sizeof *l);
  l->width = width;
  l->line = ws_text_line_height (text);
  l->small_line = ws_text_line_height (small);
  l->pad = round (l->line * 0.8);

  y = l->pad;
  l->title_y = y;
  y += round (l->line * 1.25);
  l->subtitle_y = y;
  y += l->small_line + round (l->pad * 0.7);

  l->verdict_y = y;
  ws_text_size (bold, ws_verdict_label (gauges->verdict), &l->chip_w, NULL);
  l->chip_w += round (l->line);
  l->chip_h = round (l->line * 1.35);
  l->reason_x = l->pad + l->chip_w + round (l->pad * 0.6);
  l->reason_w = MAX (60, width - l->reason_x - l->pad);
  l->reason_h = ws_text_wrapped_height (text, gauges->verdict_reason, l->reason_w);
  y += MAX (l->chip_h, l->reason_h) + round (l->pad * 0.4);
  l->sol_y = y;
  l->sol_h = ws_text_wrapped_height (small, sol, MAX (60, width - 2 * l->pad));
  y += l->sol_h + l->pad;

  /* Bars: Memory and Occupancy beside the three stalls when there is room. */
  for (gsize i = 0; i < G_N_ELEMENTS (stall_kinds); i++)
    {
      double w;

      ws_text_size (text, ws_gauge_label (stall_kinds[i]), &w, NULL);
      label_w = MAX (label_w, w);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (bar_kinds); i++)
    {
      double w;

      ws_text_size (text, ws_gauge_label (bar_kinds[i]), &w, NULL);
      label_w = MAX (label_w, w);
    }
  l->label_w = label_w + round (l->pad * 0.6);
  l->row_h = round (l->line * 1.6);
  if (width >= 720)
    {
      l->column_w = floor ((width - 3 * l->pad) / 2);
      bars_h = l->small_line + 4 + 3 * l->row_h;
    }
  else
    {
      l->column_w = width - 2 * l->pad;
      bars_h = 2 * (l->small_line + 4) + 5 * l->row_h + l->pad * 0.5;
    }

  /* The arcs take what is left, in the grid that makes them largest. */
  l->arcs_y = y;
  avail = MAX (height - y - bars_h - 2 * l->pad, 6 * l->line);
  for (int cols = 6; cols >= 2; cols--)
    {
      int rows;
      double cell_w, cell_h, r;

      if (WS_GAUGES_N_ARCS % cols != 0)
        continue;
      rows = WS_GAUGES_N_ARCS / cols;
      cell_w = (width - 2 * l->pad) / cols;
      cell_h = avail / rows;
      /* Label above, 1.5 r of arc, the band, two small lines below. */
      r = MIN (cell_w * 0.38, (cell_h - l->line - 2 * l->small_line - 10) / 1.72);
      if (r > best)
        {
          best = r;
          l->cols = cols;
          l->rows = rows;
          l->cell_w = cell_w;
        }
    }
  l->radius = MAX (12, floor (best));
  l->thickness = MAX (4, round (l->radius * 0.22));
  l->cell_h = ceil (l->line + 4 + 1.5 * l->radius + l->thickness + 2 * l->small_line + 10);

  l->bars_y = l->arcs_y + l->rows * l->cell_h + l->pad * 0.5;
  if (width >= 720)
    {
      l->stalls_x = l->pad * 2 + l->column_w;
      l->stalls_y = l->bars_y;
    }
  else
    {
      l->stalls_x = l->pad;
      l->stalls_y = l->bars_y + l->small_line + 4 + 2 * l->row_h + l->pad * 0.5;
    }
}

static void
arc_cell (const PanelLayout *l, int index, double *x, double *y)
{
  *x = l->pad + (index % l->cols) * l->cell_w;
  *y = l->arcs_y + (index / l->cols) * l->cell_h;
}

static void
arc_geometry (const PanelLayout *l, const WsGauge *gauge, WsGaugeKind kind, int index,
              const WsPalette *palette, WsGaugeGeometry *g)
{
  double x, y;
  double fraction = ws_gauge_fraction (gauge);

  arc_cell (l, index, &x, &y);
  memset (g, 0, sizeof *g);
  g->arc = TRUE;
  g->rect = (cairo_rectangle_t){ x, y, l->cell_w, l->cell_h };
  g->cx = round (x + l->cell_w / 2);
  g->cy = round (y + l->line + 4 + l->thickness / 2 + l->radius);
  g->radius = l->radius;
  g->thickness = l->thickness;
  g->start = ARC_START;
  g->sweep = ARC_SWEEP;
  g->collected = gauge->collected;
  g->fill_end = ARC_START + (isnan (fraction) ? 0 : fraction) * ARC_SWEEP;
  g->fill = ws_gauge_band_color (palette, gauge->collected ? ws_gauge_band (kind, gauge->value)
                                                           : WS_GAUGE_BAND_LOW);
}

/* "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active" reads
 * as "sm__pipe_tensor_cycles_active" under a gauge. */
static char *
metric_caption (const WsGauge *gauge)
{
  const char *dot;

  if (gauge->column != NULL)
    return g_strdup (gauge->column);
  dot = strchr (gauge->metric, '.');
  return dot != NULL ? g_strndup (gauge->metric, dot - gauge->metric) : g_strdup (gauge->metric);
}

static void
draw_arc_gauge (cairo_t *cr, const PanelLayout *l, const WsGauge *gauge, WsGaugeKind kind,
                int index, gboolean hover, const WsPalette *palette)
{
  g_autoptr (PangoLayout) label = ws_text_layout (cr, palette, 1.0, TRUE);
  g_autoptr (PangoLayout) value = ws_text_layout (cr, palette, MAX (1.0, l->radius / 40), TRUE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  WsGaugeGeometry g;
  double caption_y;

  arc_geometry (l, gauge, kind, index, palette, &g);
  if (hover)
    {
      ws_color_set_alpha (cr, palette->accent, 0.08);
      cairo_rectangle (cr, g.rect.x + 2, g.rect.y, g.rect.width - 4, g.rect.height);
      cairo_fill (cr);
    }

  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, label, ws_gauge_label (kind), g.cx, g.rect.y, l->cell_w - 4, WS_ALIGN_CENTER);

  cairo_save (cr);
  /* Text leaves a current point; an arc from it would draw a line. */
  cairo_new_path (cr);
  cairo_set_line_width (cr, g.thickness);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  if (!gauge->collected)
    {
      ws_gauge_hatch (cr, palette);
      cairo_arc (cr, g.cx, g.cy, g.radius, g.start, g.start + g.sweep);
      cairo_stroke (cr);
    }
  else
    {
      double edges[4];

      ws_gauge_band_bounds (kind, edges);
      for (int b = 0; b < 3; b++)
        {
          ws_color_set (cr, ws_gauge_band_tint (palette, (WsGaugeBand) b));
          cairo_arc (cr, g.cx, g.cy, g.radius, g.start + edges[b] / 100 * g.sweep,
                     g.start + edges[b + 1] / 100 * g.sweep);
          cairo_stroke (cr);
        }
      if (g.fill_end > g.start)
        {
          ws_color_set (cr, g.fill);
          cairo_arc (cr, g.cx, g.cy, g.radius, g.start, g.fill_end);
          cairo_stroke (cr);
        }
      /* Threshold ticks outside the band, so that they never cover the fill. */
      ws_color_set (cr, palette->dim);
      cairo_set_line_width (cr, 1);
      for (int b = 1; b <= 2; b++)
        {
          double a = g.start + edges[b] / 100 * g.sweep;
          double r0 = g.radius + g.thickness / 2 + 1;
          double r1 = r0 + MAX (3, g.thickness * 0.4);

          cairo_move_to (cr, g.cx + r0 * cos (a), g.cy + r0 * sin (a));
          cairo_line_to (cr, g.cx + r1 * cos (a), g.cy + r1 * sin (a));
        }
      cairo_stroke (cr);
    }
  cairo_restore (cr);

  caption_y = g.cy + g.radius * 0.5 + g.thickness / 2 + 4;
  if (gauge->collected)
    {
      g_autofree char *text = ws_gauge_format_value (gauge);
      g_autofree char *caption = metric_caption (gauge);
      double inner = 2 * g.radius - g.thickness;
      double vw, vh;

      /* A small arc shrinks its value to fit rather than cut it. */
      ws_text_size (value, text, &vw, NULL);
      if (vw > inner && vw > 0)
        {
          g_clear_object (&value);
          value =
            ws_text_layout (cr, palette, MAX (0.5, MAX (1.0, l->radius / 40) * inner / vw), TRUE);
        }
      vh = ws_text_line_height (value);

      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, value, text, g.cx, g.cy - vh / 2, inner, WS_ALIGN_CENTER);
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, caption, g.cx, caption_y, l->cell_w - 6, WS_ALIGN_CENTER);
    }
  else
    {
      g_autoptr (PangoLayout) note = ws_text_layout (cr, palette, 0.85, TRUE);
      const char *centre = gauge->absent != NULL ? _ ("none") : _ ("not collected");
      const char *caption = gauge->absent != NULL ? gauge->absent : gauge->collect;
      double w = l->cell_w - 6;

      double inner = 2 * g.radius - g.thickness - 4;
      int nw, nh;

      /* In the arc's hollow, on two lines when one is too narrow. */
      ws_color_set (cr, palette->dim);
      pango_layout_set_text (note, centre, -1);
      pango_layout_set_width (note, (int) (MAX (inner, 10) * PANGO_SCALE));
      pango_layout_set_wrap (note, PANGO_WRAP_WORD);
      pango_layout_set_alignment (note, PANGO_ALIGN_CENTER);
      pango_layout_get_pixel_size (note, &nw, &nh);
      cairo_move_to (cr, g.cx - MAX (inner, 10) / 2, g.cy - nh / 2.0);
      pango_cairo_show_layout (cr, note);
      /* The section that would collect it, on up to two lines. */
      pango_layout_set_alignment (small, PANGO_ALIGN_CENTER);
      pango_layout_set_height (small, -2);
      pango_layout_set_ellipsize (small, PANGO_ELLIPSIZE_END);
      pango_layout_set_text (small, caption, -1);
      pango_layout_set_width (small, (int) (w * PANGO_SCALE));
      pango_layout_set_wrap (small, PANGO_WRAP_WORD_CHAR);
      cairo_move_to (cr, g.cx - w / 2, caption_y);
      pango_cairo_show_layout (cr, small);
    }
}

/* "not collected (--section …)" over a hatched track, on a plate of the
 * background so that it reads. */
static void
draw_missing_note (cairo_t *cr, PangoLayout *layout, const WsGauge *gauge, double x, double y,
                   double width, const WsPalette *palette)
{
  g_autofree char *text = ws_gauge_not_collected_text (gauge);
  double w, h;

  ws_text_size (layout, text, &w, &h);
  w = MIN (w, width - 8);
  ws_color_set_alpha (cr, palette->background, 0.9);
  cairo_rectangle (cr, x + 2, y - 1, w + 8, h + 2);
  cairo_fill (cr);
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, layout, text, x + 6, y, width - 8, WS_ALIGN_LEFT);
}

static void
draw_bar_row (cairo_t *cr, const PanelLayout *l, const WsGauge *gauge, WsGaugeKind kind, double x,
              double y, gboolean hover, const WsPalette *palette)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  double value_w = round (l->line * 4.5);
  double bar_x = x + l->label_w;
  double bar_w = MAX (20, l->column_w - l->label_w - value_w);
  double bar_h = round (l->line * 0.8);
  double bar_y = y + round ((l->row_h - bar_h) / 2);
  g_autofree char *value = ws_gauge_format_value (gauge);

  if (hover)
    {
      ws_color_set_alpha (cr, palette->accent, 0.08);
      cairo_rectangle (cr, x - 4, y, l->column_w + 8, l->row_h);
      cairo_fill (cr);
    }
  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, text, ws_gauge_label (kind), x, y + (l->row_h - l->line) / 2, l->label_w - 4,
                WS_ALIGN_LEFT);
  ws_gauge_draw_bar (cr, gauge, kind, bar_x, bar_y, bar_w, bar_h, palette, NULL);
  if (value != NULL)
    {
      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, small, value, bar_x + bar_w + 8, y + (l->row_h - l->small_line) / 2,
                    value_w - 8, WS_ALIGN_LEFT);
    }
  else
    draw_missing_note (cr, small, gauge, bar_x, y + (l->row_h - l->small_line) / 2, bar_w + value_w,
                       palette);
}

/* The scale of the stall bars: the warp cycles per issued instruction
 * that all stall reasons share, or else the largest of the three. */
static double
stall_scale (const WsGauges *gauges)
{
  double scale = isnan (gauges->issue_cycles) ? 0 : gauges->issue_cycles;

  for (gsize i = 0; i < G_N_ELEMENTS (stall_kinds); i++)
    if (gauges->gauge[stall_kinds[i]].collected)
      scale = MAX (scale, gauges->gauge[stall_kinds[i]].value);
  return scale;
}

static void
stall_bar_geometry (const PanelLayout *l, const WsGauges *gauges, int i, const WsPalette *palette,
                    WsGaugeGeometry *g)
{
  const WsGauge *gauge = &gauges->gauge[stall_kinds[i]];
  double value_w = round (l->line * 9);
  double x = l->stalls_x + l->label_w;
  double y = l->stalls_y + l->small_line + 4 + i * l->row_h;
  double w = MAX (20, l->column_w - l->label_w - value_w);
  double h = round (l->line * 0.8);
  double scale = stall_scale (gauges);

  memset (g, 0, sizeof *g);
  g->rect = (cairo_rectangle_t){ x, y + round ((l->row_h - h) / 2), w, h };
  g->thickness = h;
  g->collected = gauge->collected;
  g->fill = palette->latency;
  g->fill_end = x + (gauge->collected && scale > 0 ? round (gauge->value / scale * w) : 0);
}

static void
draw_stalls (cairo_t *cr, const PanelLayout *l, const WsGauges *gauges, int hover,
             const WsPalette *palette)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  g_autofree char *heading = NULL;

  if (!isnan (gauges->issue_cycles))
    {
      g_autofree char *cycles = ws_format_fixed_string (gauges->issue_cycles, 2);

      /* TRANSLATORS: a heading; %s is a number of cycles */
      heading =
        g_strdup_printf (_ ("Warp stalls, warps per issued instruction (of %s cycles)"), cycles);
    }
  else if (gauges->gauge[WS_GAUGE_STALL_BARRIER].note != NULL ||
           gauges->gauge[WS_GAUGE_STALL_LONG_SCOREBOARD].note != NULL)
    /* nvprof's stall reasons are shares of all stalls. */
    heading = g_strdup (_ ("Warp stalls, share of nvprof's stall reasons"));
  else
    heading = g_strdup (_ ("Warp stalls, warps per issued instruction"));
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, small, heading, l->stalls_x, l->stalls_y, l->column_w, WS_ALIGN_LEFT);

  for (int i = 0; i < (int) G_N_ELEMENTS (stall_kinds); i++)
    {
      const WsGauge *gauge = &gauges->gauge[stall_kinds[i]];
      double y = l->stalls_y + l->small_line + 4 + i * l->row_h;
      g_autofree char *value = ws_gauge_format_value (gauge);
      WsGaugeGeometry g;

      stall_bar_geometry (l, gauges, i, palette, &g);
      if (hover == (int) stall_kinds[i])
        {
          ws_color_set_alpha (cr, palette->accent, 0.08);
          cairo_rectangle (cr, l->stalls_x - 4, y, l->column_w + 8, l->row_h);
          cairo_fill (cr);
        }
      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, text, ws_gauge_label (stall_kinds[i]), l->stalls_x,
                    y + (l->row_h - l->line) / 2, l->label_w - 4, WS_ALIGN_LEFT);
      cairo_save (cr);
      if (!gauge->collected)
        ws_gauge_hatch (cr, palette);
      else
        ws_color_set (cr, ws_color_mix (palette->background, palette->latency, 0.15));
      cairo_rectangle (cr, g.rect.x, g.rect.y, g.rect.width, g.rect.height);
      cairo_fill (cr);
      ws_color_set (cr, g.fill);
      cairo_rectangle (cr, g.rect.x, g.rect.y, g.fill_end - g.rect.x, g.rect.height);
      cairo_fill (cr);
      cairo_restore (cr);

      if (value == NULL)
        draw_missing_note (cr, small, gauge, g.rect.x, y + (l->row_h - l->small_line) / 2,
                           l->stalls_x + l->column_w - g.rect.x, palette);
      else
        {
          ws_color_set (cr, palette->foreground);
          ws_text_draw (cr, small, value, g.rect.x + g.rect.width + 8,
                        y + (l->row_h - l->small_line) / 2, 0, WS_ALIGN_LEFT);
        }
    }
}

static char *
subtitle (const WsNcuResults *results, guint launch)
{
  const WsNcuLaunch *l = ws_ncu_results_launch (results, launch);
  const WsGauge *duration = &ws_ncu_results_gauges (results, launch)->gauge[WS_GAUGE_DURATION];
  const WsNcuMatch *match = ws_ncu_results_match (results, launch);
  g_autofree char *nvtx = ws_ncu_launch_nvtx_path (l);
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, _ ("Launch %u"), launch);
  if (duration->collected)
    {
      g_autofree char *d = ws_format_duration (duration->value);

      g_string_append_printf (out, " · %s", d);
    }
  if (l->grid != NULL && l->block != NULL)
    g_string_append_printf (out, _ (" · grid %s block %s"), l->grid, l->block);
  if (l->cc != NULL)
    g_string_append_printf (out, " · CC %s", l->cc);
  if (l->invocations > 0)
    {
      guint n = (guint) MIN (l->invocations, G_MAXUINT);

      /* TRANSLATORS: nvprof's metrics are over all a kernel's invocations */
      g_string_append_printf (
        out, g_dngettext (GETTEXT_PACKAGE, " · %u invocation", " · %u invocations", n), n);
    }
  if (l->device_name != NULL)
    g_string_append_printf (out, " · %s", l->device_name);
  if (l->process != NULL)
    g_string_append_printf (out, " · %s (%u)", l->process, l->pid);
  if (nvtx != NULL)
    g_string_append_printf (out, " · NVTX %s", nvtx);
  if (match != NULL && match->kind == WS_NCU_MATCH_UNMATCHED)
    g_string_append_printf (out, " · %s", _ ("no matching nsys kernel"));
  return g_string_free (out, FALSE);
}

/**
 * ws_gauges_panel_draw:
 *
 * Draws the gauges of @launch in (0, 0, @width, @height).
 */
void
ws_gauges_panel_draw (cairo_t *cr, double width, double height, const WsNcuResults *results,
                      guint launch, const WsGaugesPanelState *state, const WsPalette *palette)
{
  const WsGauges *gauges;
  PanelLayout l;
  int hover = state != NULL ? state->hover : -1;

  g_return_if_fail (results != NULL && launch < ws_ncu_results_n_launches (results));

  gauges = ws_ncu_results_gauges (results, launch);
  compute_layout (cr, width, height, results, launch, palette, &l);

  cairo_save (cr);
  ws_color_set (cr, palette->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  {
    g_autoptr (PangoLayout) title = ws_text_layout (cr, palette, 1.15, TRUE);
    g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
    g_autofree char *name = g_strdup (ws_ncu_results_label (results, launch));
    g_autofree char *sub = subtitle (results, launch);

    ws_color_set (cr, palette->foreground);
    ws_text_draw_name (cr, title, name, l.pad, l.title_y, width - 2 * l.pad, WS_ALIGN_LEFT);
    ws_color_set (cr, palette->dim);
    ws_text_draw (cr, small, sub, l.pad, l.subtitle_y, width - 2 * l.pad, WS_ALIGN_LEFT);
  }

  /* The verdict: a chip in its colour, the reason beside it. */
  {
    g_autoptr (PangoLayout) bold = ws_text_layout (cr, palette, 1.0, TRUE);
    g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
    g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
    g_autofree char *sol = sol_text (gauges);
    double r = l.chip_h / 2;

    ws_color_set (cr, ws_verdict_color (palette, gauges->verdict));
    cairo_new_path (cr);
    cairo_arc (cr, l.pad + r, l.verdict_y + r, r, G_PI / 2, G_PI * 3 / 2);
    cairo_arc (cr, l.pad + l.chip_w - r, l.verdict_y + r, r, -G_PI / 2, G_PI / 2);
    cairo_close_path (cr);
    cairo_fill (cr);
    ws_color_set (cr, palette->background);
    ws_text_draw (cr, bold, ws_verdict_label (gauges->verdict), l.pad + l.chip_w / 2,
                  l.verdict_y + (l.chip_h - l.line) / 2, 0, WS_ALIGN_CENTER);

    ws_color_set (cr, palette->foreground);
    ws_text_draw_wrapped (cr, text, gauges->verdict_reason, l.reason_x,
                          l.verdict_y + MAX (0, (l.chip_h - l.reason_h) / 2), l.reason_w);
    ws_color_set (cr, palette->dim);
    ws_text_draw_wrapped (cr, small, sol, l.pad, l.sol_y, width - 2 * l.pad);
  }

  for (int i = 0; i < WS_GAUGES_N_ARCS; i++)
    draw_arc_gauge (cr, &l, &gauges->gauge[ws_gauges_arc_kinds[i]], ws_gauges_arc_kinds[i], i,
                    hover == (int) ws_gauges_arc_kinds[i], palette);

  {
    g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
    /* Through printf: a bare “% o” in a c-format message reads as a conversion. */
    g_autofree char *heading =
      gauges->gauge[WS_GAUGE_MEMORY].note != NULL
        /* nvprof: Memory is the busiest utilisation level, not a % of peak. */
        ? g_strdup (_ ("Memory (0–10 level ×10) and occupancy"))
        : g_strdup_printf (_ ("Memory and occupancy, %% of peak"));

    ws_color_set (cr, palette->dim);
    ws_text_draw (cr, small, heading, l.pad, l.bars_y, l.column_w, WS_ALIGN_LEFT);
    for (gsize i = 0; i < G_N_ELEMENTS (bar_kinds); i++)
      draw_bar_row (cr, &l, &gauges->gauge[bar_kinds[i]], bar_kinds[i], l.pad,
                    l.bars_y + l.small_line + 4 + i * l.row_h, hover == (int) bar_kinds[i],
                    palette);
  }
  draw_stalls (cr, &l, gauges, hover, palette);
  cairo_restore (cr);
}

static void
bar_geometry (const PanelLayout *l, const WsGauge *gauge, WsGaugeKind kind, int i,
              const WsPalette *palette, WsGaugeGeometry *g)
{
  double value_w = round (l->line * 4.5);
  double y = l->bars_y + l->small_line + 4 + i * l->row_h;
  double h = round (l->line * 0.8);
  double w = MAX (20, l->column_w - l->label_w - value_w);
  double fraction = ws_gauge_fraction (gauge);

  memset (g, 0, sizeof *g);
  g->rect = (cairo_rectangle_t){ l->pad + l->label_w, y + round ((l->row_h - h) / 2), w, h };
  g->thickness = h;
  g->collected = gauge->collected;
  g->fill_end = g->rect.x + (isnan (fraction) ? 0 : round (fraction * w));
  g->fill = ws_gauge_band_color (palette, gauge->collected ? ws_gauge_band (kind, gauge->value)
                                                           : WS_GAUGE_BAND_LOW);
}

/**
 * ws_gauges_panel_geometry:
 *
 * Where gauge @kind of the panel is drawn: for tooltips, and for tests
 * that measure the drawn fill against the value.  Duration has none.
 */
gboolean
ws_gauges_panel_geometry (cairo_t *cr, double width, double height, const WsNcuResults *results,
                          guint launch, const WsPalette *palette, WsGaugeKind kind,
                          WsGaugeGeometry *geometry)
{
  const WsGauges *gauges = ws_ncu_results_gauges (results, launch);
  PanelLayout l;

  compute_layout (cr, width, height, results, launch, palette, &l);
  for (int i = 0; i < WS_GAUGES_N_ARCS; i++)
    if (ws_gauges_arc_kinds[i] == kind)
      {
        arc_geometry (&l, &gauges->gauge[kind], kind, i, palette, geometry);
        return TRUE;
      }
  for (int i = 0; i < (int) G_N_ELEMENTS (bar_kinds); i++)
    if (bar_kinds[i] == kind)
      {
        bar_geometry (&l, &gauges->gauge[kind], kind, i, palette, geometry);
        return TRUE;
      }
  for (int i = 0; i < (int) G_N_ELEMENTS (stall_kinds); i++)
    if (stall_kinds[i] == kind)
      {
        stall_bar_geometry (&l, gauges, i, palette, geometry);
        return TRUE;
      }
  return FALSE;
}

/* The gauge under (@x, @y), or -1. */
int
ws_gauges_panel_hit (cairo_t *cr, double width, double height, const WsNcuResults *results,
                     guint launch, const WsPalette *palette, double x, double y)
{
  PanelLayout l;

  compute_layout (cr, width, height, results, launch, palette, &l);
  for (int kind = 0; kind < WS_N_GAUGES; kind++)
    {
      WsGaugeGeometry g;
      cairo_rectangle_t r;

      if (!ws_gauges_panel_geometry (cr, width, height, results, launch, palette,
                                     (WsGaugeKind) kind, &g))
        continue;
      r = g.rect;
      if (!g.arc)
        {
          /* The whole row, label to value. */
          r.x -= l.label_w;
          r.width = l.column_w;
          r.y -= (l.row_h - g.thickness) / 2;
          r.height = l.row_h;
        }
      if (x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height)
        return kind;
    }
  return -1;
}

/**
 * ws_gauges_panel_tooltip:
 *
 * Returns: (transfer full): what fed the gauge, or what would collect it
 */
char *
ws_gauges_panel_tooltip (const WsNcuResults *results, guint launch, WsGaugeKind kind)
{
  const WsGauge *gauge = &ws_ncu_results_gauges (results, launch)->gauge[kind];
  g_autofree char *value = ws_gauge_format_value (gauge);

  if (!gauge->collected)
    {
      g_autofree char *missing = ws_gauge_not_collected_text (gauge);

      return g_strdup_printf ("%s: %s", ws_gauge_label (kind), missing);
    }
  if (gauge->note != NULL)
    /* TRANSLATORS: "DRAM: 10.0% from dram_utilization — nvprof's 0–10 utilisation level ×10, not a measured %" */
    return g_strdup_printf (_ ("%s: %s from %s — %s"), ws_gauge_label (kind), value, gauge->metric,
                            gauge->note);
  if (gauge->column != NULL)
    /* TRANSLATORS: "SM: 97.8% from sm__throughput… (“Compute (SM) Throughput”)" */
    return g_strdup_printf (_ ("%s: %s from %s (“%s”)"), ws_gauge_label (kind), value,
                            gauge->metric, gauge->column);
  return g_strdup_printf (_ ("%s: %s from %s"), ws_gauge_label (kind), value, gauge->metric);
}

/* A message in the middle, for a panel without a launch. */
void
ws_gauges_panel_draw_empty (cairo_t *cr, double width, double height, const char *text,
                            const WsPalette *palette)
{
  g_autoptr (PangoLayout) layout = ws_text_layout (cr, palette, 1.0, FALSE);

  ws_color_set (cr, palette->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, layout, text, width / 2, height / 2 - ws_text_line_height (layout) / 2,
                width - 20, WS_ALIGN_CENTER);
}
