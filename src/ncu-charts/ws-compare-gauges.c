/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-gauges"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-bars-chart.h"
#include "ws-compare-gauges.h"
#include "ws-surface.h"
#include "ws-format.h"
#include "ws-gauge-style.h"
#include "ws-kernel-name.h"
#include "ws-ncu-results.h"
#include "ws-text.h"

/* A row per gauge, top to bottom in the order of WsGaugeKind (row i
 * shows kind i).  These open a group under a heading: percentages, then
 * stalls. */
#define FIRST_PERCENT_ROW WS_GAUGE_SM
#define FIRST_STALL_ROW WS_GAUGE_STALL_BARRIER

/* The tick of the value before reaches this far beyond the track. */
#define TICK_OVERHANG 4

typedef struct
{
  double pad;
  double line;
  double small_line;
  double width;

  double title_y;
  double subtitle_y; /* two small lines: the launch before, the launch after */
  double verdict_y;
  double chip_h;
  double reasons_y;
  double reason_h[2];
  double sol_y;
  double legend_y;

  double row_h;
  double row_y[WS_N_GAUGES]; /* by row index */
  double heading_y[2];       /* percentages, stalls */
  double label_w;
  double value_w;
  double track_x;
  double track_w;
  double bar_h;
  double height;
} Layout;

static const WsGauges *
side (const WsComparison *cmp, const WsDelta *delta, gboolean after)
{
  return ws_comparison_gauges (cmp, delta, after);
}

static gboolean
is_stall (WsGaugeKind kind)
{
  return kind == WS_GAUGE_STALL_BARRIER || kind == WS_GAUGE_STALL_SHORT_SCOREBOARD ||
         kind == WS_GAUGE_STALL_LONG_SCOREBOARD;
}

/* "launch 3 · 134 µs · grid (8192, 1, 1) block (32, 4, 1) · NVTX step/fwd" */
static char *
launch_text (const WsComparison *cmp, const WsDelta *delta, gboolean after)
{
  const WsRun *run = after ? cmp->after : cmp->before;
  int index = after ? delta->after_launch : delta->before_launch;
  const WsNcuLaunch *launch = ws_ncu_results_launch (run->ncu, (guint) index);
  const WsGauge *duration =
    &ws_ncu_results_gauges (run->ncu, (guint) index)->gauge[WS_GAUGE_DURATION];
  g_autofree char *nvtx = ws_ncu_launch_nvtx_path (launch);
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, after ? _ ("After: launch %d") : _ ("Before: launch %d"), index);
  if (duration->collected)
    {
      g_autofree char *d = ws_format_duration (duration->value);

      g_string_append_printf (out, " · %s", d);
    }
  if (launch->grid != NULL && launch->block != NULL)
    g_string_append_printf (out, _ (" · grid %s block %s"), launch->grid, launch->block);
  if (nvtx != NULL)
    g_string_append_printf (out, " · NVTX %s", nvtx);
  /* The launch's label: its kernel's display name, as every table shows it. */
  if (launch->kernel != NULL)
    g_string_append_printf (out, " · %s", ws_ncu_results_label (run->ncu, (guint) index));
  return g_string_free (out, FALSE);
}

static char *
reason_text (const WsGauges *gauges, gboolean after)
{
  /* TRANSLATORS: "Before: Memory — DRAM 72.55% ≥ 60% and SM 31.50% < 40%" */
  return g_strdup_printf (after ? _ ("After: %s — %s") : _ ("Before: %s — %s"),
                          ws_verdict_label (gauges->verdict), gauges->verdict_reason);
}

static char *
sol_text (const WsGauges *before, const WsGauges *after)
{
  /* TRANSLATORS: "Speed of light: Memory-dominated → Compute-dominated" */
  return g_strdup_printf (_ ("Speed of light: %s → %s"), ws_sol_verdict_label (before->sol),
                          ws_sol_verdict_label (after->sol));
}

static const char *
heading_text (int group)
{
  return group == 0 ? _ ("Utilisation, hit rates and occupancy (percent)")
                    : _ ("Warp stalls, warps per issued instruction");
}

static void
compute_layout (cairo_t *cr, double width, const WsComparison *cmp, const WsDelta *delta,
                const WsPalette *palette, Layout *l)
{
  const WsGauges *b = side (cmp, delta, FALSE), *a = side (cmp, delta, TRUE);
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  double y;

  memset (l, 0, sizeof *l);
  l->width = width;
  l->line = ws_text_line_height (text);
  l->small_line = ws_text_line_height (small);
  l->pad = round (l->line * 0.8);

  y = l->pad;
  l->title_y = y;
  y += round (l->line * 1.3);
  l->subtitle_y = y;
  y += 2 * l->small_line + round (l->pad * 0.6);

  l->verdict_y = y;
  l->chip_h = round (l->line * 1.35);
  y += l->chip_h + round (l->pad * 0.4);
  l->reasons_y = y;
  for (int s = 0; s < 2; s++)
    {
      g_autofree char *reason = reason_text (s == 0 ? b : a, s == 1);

      l->reason_h[s] = ws_text_wrapped_height (text, reason, width - 2 * l->pad);
      y += l->reason_h[s];
    }
  y += round (l->pad * 0.3);
  l->sol_y = y;
  y += l->small_line + l->pad;

  l->legend_y = y;
  y += l->small_line + round (l->pad * 0.5);

  for (int i = 0; i < WS_N_GAUGES; i++)
    {
      double w;

      ws_text_size (text, ws_gauge_label ((WsGaugeKind) i), &w, NULL);
      l->label_w = MAX (l->label_w, w);
    }
  l->label_w += round (l->pad);
  for (int i = 0; i < WS_N_GAUGES; i++)
    {
      WsGaugeKind kind = (WsGaugeKind) i;
      g_autofree char *change = ws_gauge_format_change (&b->gauge[kind], &a->gauge[kind]);
      double w = 0;

      if (change != NULL)
        ws_text_size (small, change, &w, NULL);
      l->value_w = MAX (l->value_w, w);
    }
  l->value_w = MIN (l->value_w + round (l->pad * 1.2), round (width * 0.45));
  l->track_x = l->pad + l->label_w;
  l->track_w = MAX (40, width - 2 * l->pad - l->label_w - l->value_w);
  l->bar_h = round (l->line * 0.8);
  l->row_h = round (l->line * 1.6);

  for (int i = 0; i < WS_N_GAUGES; i++)
    {
      if (i == FIRST_PERCENT_ROW || i == FIRST_STALL_ROW)
        {
          y += round (l->pad * 0.5);
          l->heading_y[i == FIRST_STALL_ROW] = y;
          y += l->small_line + 2;
        }
      l->row_y[i] = y;
      y += l->row_h;
    }
  l->height = y + l->pad;
}

/* The value at the track's right end: 100% for percentages; for the
 * duration the longer side; for stalls the warp cycles per issued
 * instruction they share (or the largest stall), over both sides, so
 * that both are drawn on one scale. */
static double
row_scale (const WsGauges *b, const WsGauges *a, WsGaugeKind kind)
{
  const WsGauges *sides[2] = { b, a };
  double scale = 0;

  if (kind == WS_GAUGE_DURATION)
    {
      for (int s = 0; s < 2; s++)
        if (sides[s]->gauge[kind].collected)
          scale = MAX (scale, sides[s]->gauge[kind].value);
      return scale;
    }
  if (!is_stall (kind))
    return 100;
  for (int s = 0; s < 2; s++)
    {
      if (!isnan (sides[s]->issue_cycles))
        scale = MAX (scale, sides[s]->issue_cycles);
      for (WsGaugeKind k = WS_GAUGE_STALL_BARRIER; k <= WS_GAUGE_STALL_LONG_SCOREBOARD; k++)
        if (sides[s]->gauge[k].collected)
          scale = MAX (scale, sides[s]->gauge[k].value);
    }
  return scale;
}

static WsColor
fill_color (const WsGauges *b, const WsGauges *a, WsGaugeKind kind, const WsPalette *palette)
{
  const WsGauge *before = &b->gauge[kind], *after = &a->gauge[kind];

  if (kind == WS_GAUGE_DURATION)
    {
      if (!before->collected || !after->collected || before->value == after->value)
        return palette->bar;
      return after->value < before->value ? palette->faster : palette->slower;
    }
  if (is_stall (kind))
    return palette->latency;
  return ws_gauge_band_color (palette, after->collected ? ws_gauge_band (kind, after->value)
                                                        : WS_GAUGE_BAND_LOW);
}

static void
row_geometry (const Layout *l, const WsGauges *b, const WsGauges *a, int row,
              const WsPalette *palette, WsCompareGaugeGeometry *g)
{
  WsGaugeKind kind = (WsGaugeKind) row;
  const WsGauge *before = &b->gauge[kind], *after = &a->gauge[kind];
  double scale = row_scale (b, a, kind);

  memset (g, 0, sizeof *g);
  g->row = (cairo_rectangle_t){ l->pad, l->row_y[row], l->width - 2 * l->pad, l->row_h };
  g->track = (cairo_rectangle_t){ l->track_x, l->row_y[row] + round ((l->row_h - l->bar_h) / 2),
                                  l->track_w, l->bar_h };
  g->scale = scale;
  g->before_collected = before->collected;
  g->after_collected = after->collected;
  g->fill = fill_color (b, a, kind, palette);
  g->marker = palette->foreground;
  g->fill_end = g->track.x;
  if (after->collected && scale > 0)
    g->fill_end += round (CLAMP (after->value / scale, 0, 1) * l->track_w);
  g->marker_x = -1;
  if (before->collected && scale > 0)
    g->marker_x = CLAMP (g->track.x + round (CLAMP (before->value / scale, 0, 1) * l->track_w),
                         g->track.x + 1, g->track.x + l->track_w - 1);
}

static void
track_tints (cairo_t *cr, const WsCompareGaugeGeometry *g, WsGaugeKind kind,
             const WsPalette *palette)
{
  const cairo_rectangle_t *t = &g->track;

  if (kind == WS_GAUGE_DURATION || is_stall (kind))
    {
      ws_color_set (cr, ws_color_mix (palette->background,
                                      is_stall (kind) ? palette->latency : palette->foreground,
                                      is_stall (kind) ? 0.15 : 0.08));
      cairo_rectangle (cr, t->x, t->y, t->width, t->height);
      cairo_fill (cr);
      return;
    }
  ws_gauge_draw_band_tints (cr, kind, t->x, t->y, t->width, t->height, palette);
}

/* The value before: a tick across the track, two pixels wide, reaching
 * beyond it so that it reads over the fill and over an empty track. */
static void
draw_tick (cairo_t *cr, const WsCompareGaugeGeometry *g, const WsPalette *palette)
{
  double x = g->marker_x, top = g->track.y - TICK_OVERHANG;
  double bottom = g->track.y + g->track.height + TICK_OVERHANG;

  /* A halo in the background colour keeps the tick apart from the fill. */
  ws_color_set (cr, palette->background);
  cairo_rectangle (cr, x - 2, top, 4, bottom - top);
  cairo_fill (cr);
  ws_color_set (cr, g->marker);
  cairo_rectangle (cr, x - 1, top, 2, bottom - top);
  cairo_fill (cr);
}

static void
draw_row (cairo_t *cr, const Layout *l, const WsGauges *b, const WsGauges *a, int row,
          gboolean hover, const WsPalette *palette)
{
  WsGaugeKind kind = (WsGaugeKind) row;
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  g_autofree char *change = ws_gauge_format_change (&b->gauge[kind], &a->gauge[kind]);
  WsCompareGaugeGeometry g;
  double value_x;

  row_geometry (l, b, a, row, palette, &g);
  if (hover)
    {
      ws_color_set_alpha (cr, palette->accent, 0.08);
      cairo_rectangle (cr, g.row.x - 4, g.row.y, g.row.width + 8, g.row.height);
      cairo_fill (cr);
    }
  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, text, ws_gauge_label (kind), l->pad, g.row.y + (l->row_h - l->line) / 2,
                l->label_w - 6, WS_ALIGN_LEFT);

  cairo_save (cr);
  if (!g.after_collected)
    {
      ws_gauge_hatch (cr, palette);
      cairo_rectangle (cr, g.track.x, g.track.y, g.track.width, g.track.height);
      cairo_fill (cr);
    }
  else
    {
      track_tints (cr, &g, kind, palette);
      ws_color_set (cr, g.fill);
      cairo_rectangle (cr, g.track.x, g.track.y, g.fill_end - g.track.x, g.track.height);
      cairo_fill (cr);
    }
  cairo_restore (cr);
  if (g.before_collected && g.marker_x >= 0)
    draw_tick (cr, &g, palette);

  value_x = g.track.x + g.track.width + round (l->pad * 0.8);
  if (change != NULL)
    {
      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, small, change, value_x, g.row.y + (l->row_h - l->small_line) / 2,
                    l->width - l->pad - value_x, WS_ALIGN_LEFT);
    }
  else
    {
      g_autofree char *missing = ws_gauge_not_collected_text (&a->gauge[kind]);

      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, missing, value_x, g.row.y + (l->row_h - l->small_line) / 2,
                    l->width - l->pad - value_x, WS_ALIGN_LEFT);
    }
}

/* A rounded chip in the verdict's colour; returns its width. */
static double
draw_chip (cairo_t *cr, PangoLayout *bold, WsVerdict verdict, double x, double y, double h,
           double line, const WsPalette *palette)
{
  const char *label = ws_verdict_label (verdict);
  double w, r = h / 2;

  ws_text_size (bold, label, &w, NULL);
  w += round (line);
  ws_color_set (cr, ws_verdict_color (palette, verdict));
  cairo_new_path (cr);
  cairo_arc (cr, x + r, y + r, r, G_PI / 2, G_PI * 3 / 2);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, G_PI / 2);
  cairo_close_path (cr);
  cairo_fill (cr);
  ws_color_set (cr, palette->background);
  ws_text_draw (cr, bold, label, x + w / 2, y + (h - line) / 2, 0, WS_ALIGN_CENTER);
  return w;
}

static void
draw_legend (cairo_t *cr, const Layout *l, const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  double y = l->legend_y, h = round (l->small_line * 0.6);
  double x = l->track_x, w;

  ws_color_set (cr, palette->bar);
  cairo_rectangle (cr, x, y + round ((l->small_line - h) / 2), round (h * 1.8), h);
  cairo_fill (cr);
  x += round (h * 1.8) + 5;
  ws_color_set (cr, palette->dim);
  w = ws_text_draw (cr, small, _ ("after"), x, y, 0, WS_ALIGN_LEFT);
  x += w + round (l->pad * 1.2);
  ws_color_set (cr, palette->foreground);
  cairo_rectangle (cr, x, y + 1, 2, l->small_line - 2);
  cairo_fill (cr);
  x += 7;
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, small, _ ("before"), x, y, 0, WS_ALIGN_LEFT);
  ws_text_draw (cr, small, _ ("before → after (Δ)"), l->track_x + l->track_w + round (l->pad * 0.8),
                y, l->width - l->pad - (l->track_x + l->track_w + round (l->pad * 0.8)),
                WS_ALIGN_LEFT);
}

/**
 * ws_compare_gauges_natural_height:
 *
 * The height the panel of @delta needs at @width.
 */
double
ws_compare_gauges_natural_height (cairo_t *cr, double width, const WsComparison *cmp,
                                  const WsDelta *delta, const WsPalette *palette)
{
  Layout l;

  g_return_val_if_fail (cmp != NULL && delta != NULL, 0);

  if (!ws_delta_profiled_both (delta))
    return 120;
  compute_layout (cr, width, cmp, delta, palette, &l);
  return ceil (l.height);
}

static void
draw_empty (cairo_t *cr, double width, double height, const char *text, const WsPalette *palette)
{
  g_autoptr (PangoLayout) layout = ws_text_layout (cr, palette, 1.0, FALSE);
  double h;

  ws_color_set (cr, palette->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  ws_color_set (cr, palette->dim);
  h = ws_text_wrapped_height (layout, text, width - 40);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  cairo_move_to (cr, 20, MAX (10, (height - h) / 2));
  pango_cairo_show_layout (cr, layout);
}

/**
 * ws_compare_gauges_draw:
 *
 * Draws the gauges of @delta before and after in (0, 0, @width, @height),
 * from the top; the panel is ws_compare_gauges_natural_height() tall.
 */
void
ws_compare_gauges_draw (cairo_t *cr, double width, double height, const WsComparison *cmp,
                        const WsDelta *delta, const WsCompareGaugesState *state,
                        const WsPalette *palette)
{
  const WsGauges *b, *a;
  int hover = state != NULL ? state->hover : -1;
  Layout l;

  g_return_if_fail (cmp != NULL && delta != NULL);

  if (!ws_delta_profiled_both (delta))
    {
      draw_empty (cr, width, height, _ ("This kernel was not profiled on both sides."), palette);
      return;
    }
  b = side (cmp, delta, FALSE);
  a = side (cmp, delta, TRUE);
  compute_layout (cr, width, cmp, delta, palette, &l);

  cairo_save (cr);
  ws_color_set (cr, palette->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  {
    g_autoptr (PangoLayout) title = ws_text_layout (cr, palette, 1.15, TRUE);
    g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
    g_autofree char *name = ws_kernel_name_shorten (delta->key, 0);
    g_autofree char *before = launch_text (cmp, delta, FALSE);
    g_autofree char *after = launch_text (cmp, delta, TRUE);

    ws_color_set (cr, palette->foreground);
    ws_text_draw (cr, title, name, l.pad, l.title_y, width - 2 * l.pad, WS_ALIGN_LEFT);
    ws_color_set (cr, palette->dim);
    ws_text_draw (cr, small, before, l.pad, l.subtitle_y, width - 2 * l.pad, WS_ALIGN_LEFT);
    ws_text_draw (cr, small, after, l.pad, l.subtitle_y + l.small_line, width - 2 * l.pad,
                  WS_ALIGN_LEFT);
  }

  /* The verdict before → after, both reasons under it. */
  {
    g_autoptr (PangoLayout) bold = ws_text_layout (cr, palette, 1.0, TRUE);
    g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
    g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
    g_autofree char *sol = sol_text (b, a);
    double x = l.pad, y = l.reasons_y;

    x += draw_chip (cr, bold, b->verdict, x, l.verdict_y, l.chip_h, l.line, palette);
    ws_color_set (cr, palette->foreground);
    x += 8;
    x += ws_text_draw (cr, bold, "→", x, l.verdict_y + (l.chip_h - l.line) / 2, 0, WS_ALIGN_LEFT);
    x += 8;
    x += draw_chip (cr, bold, a->verdict, x, l.verdict_y, l.chip_h, l.line, palette);
    if (a->verdict == b->verdict)
      {
        ws_color_set (cr, palette->dim);
        ws_text_draw (cr, text, _ ("unchanged"), x + 10, l.verdict_y + (l.chip_h - l.line) / 2, 0,
                      WS_ALIGN_LEFT);
      }
    for (int s = 0; s < 2; s++)
      {
        g_autofree char *reason = reason_text (s == 0 ? b : a, s == 1);

        ws_color_set (cr, palette->foreground);
        ws_text_draw_wrapped (cr, text, reason, l.pad, y, width - 2 * l.pad);
        y += l.reason_h[s];
      }
    ws_color_set (cr, palette->dim);
    ws_text_draw (cr, small, sol, l.pad, l.sol_y, width - 2 * l.pad, WS_ALIGN_LEFT);
  }

  draw_legend (cr, &l, palette);
  {
    g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);

    ws_color_set (cr, palette->dim);
    for (int group = 0; group < 2; group++)
      ws_text_draw (cr, small, heading_text (group), l.pad, l.heading_y[group], width - 2 * l.pad,
                    WS_ALIGN_LEFT);
  }
  for (int i = 0; i < WS_N_GAUGES; i++)
    draw_row (cr, &l, b, a, i, hover == i, palette);
  cairo_restore (cr);
}

/**
 * ws_compare_gauges_geometry:
 *
 * Where the row of gauge @kind is drawn at @width.
 *
 * Returns: %FALSE when @delta was not profiled on both sides
 */
gboolean
ws_compare_gauges_geometry (cairo_t *cr, double width, const WsComparison *cmp,
                            const WsDelta *delta, const WsPalette *palette, WsGaugeKind kind,
                            WsCompareGaugeGeometry *geometry)
{
  Layout l;

  g_return_val_if_fail (cmp != NULL && delta != NULL && kind < WS_N_GAUGES, FALSE);

  if (!ws_delta_profiled_both (delta))
    return FALSE;
  compute_layout (cr, width, cmp, delta, palette, &l);
  row_geometry (&l, side (cmp, delta, FALSE), side (cmp, delta, TRUE), kind, palette, geometry);
  return TRUE;
}

/* The gauge whose row is under (@x, @y), or -1. */
int
ws_compare_gauges_hit (cairo_t *cr, double width, const WsComparison *cmp, const WsDelta *delta,
                       const WsPalette *palette, double x, double y)
{
  Layout l;

  if (cmp == NULL || delta == NULL || !ws_delta_profiled_both (delta))
    return -1;
  compute_layout (cr, width, cmp, delta, palette, &l);
  if (x < l.pad || x >= width - l.pad)
    return -1;
  for (int i = 0; i < WS_N_GAUGES; i++)
    if (y >= l.row_y[i] && y < l.row_y[i] + l.row_h)
      return i;
  return -1;
}

static char *
source_line (const WsGauge *gauge, const char *side_label)
{
  g_autofree char *value = ws_gauge_format_value (gauge);

  if (!gauge->collected)
    {
      g_autofree char *missing = ws_gauge_not_collected_text (gauge);

      return g_strdup_printf ("%s: %s", side_label, missing);
    }
  /* TRANSLATORS: "Before: 31.5% from sm__throughput.avg.pct_of_peak_sustained_elapsed" */
  return g_strdup_printf (_ ("%s: %s from %s"), side_label, value, gauge->metric);
}

/**
 * ws_compare_gauges_tooltip:
 *
 * Returns: (transfer full) (nullable): what fed gauge @kind on each side
 */
char *
ws_compare_gauges_tooltip (const WsComparison *cmp, const WsDelta *delta, WsGaugeKind kind)
{
  const WsGauges *b, *a;
  g_autofree char *before = NULL, *after = NULL;

  if (cmp == NULL || delta == NULL || !ws_delta_profiled_both (delta) || kind >= WS_N_GAUGES)
    return NULL;
  b = side (cmp, delta, FALSE);
  a = side (cmp, delta, TRUE);
  before = source_line (&b->gauge[kind], _ ("Before"));
  after = source_line (&a->gauge[kind], _ ("After"));
  return g_strdup_printf ("%s\n%s\n%s", ws_gauge_label (kind), before, after);
}

/* Stacked: a heading, then every kernel profiled on both sides, in the
 * comparison's order (largest change of time first). */

static double
all_heading_height (cairo_t *cr, const char *title, const WsPalette *palette)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  double line = ws_text_line_height (text), pad = round (line * 0.8);

  return pad + (title != NULL ? round (line * 1.4) : 0) + line + pad * 0.5;
}

/* How many of the kernels profiled on both sides the stacked drawing
 * holds within WS_CHART_MAX_HEIGHT (a line counts the others), and its
 * height. */
static guint
all_shown (cairo_t *cr, double width, const WsComparison *cmp, const char *title,
           const WsPalette *palette, double *height)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  double more_h = round (ws_text_line_height (text) * 2);
  double y = all_heading_height (cr, title, palette);
  guint shown = 0;

  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);
      double h;

      if (!ws_delta_profiled_both (d))
        continue;
      h = ws_compare_gauges_natural_height (cr, width, cmp, d, palette) + 1;
      if (shown > 0 && y + h + more_h > WS_CHART_MAX_HEIGHT)
        {
          y += more_h;
          break;
        }
      y += h;
      shown++;
    }
  *height = ceil (y);
  return shown;
}

double
ws_compare_gauges_all_natural_height (cairo_t *cr, double width, const WsComparison *cmp,
                                      const char *title, const WsPalette *palette)
{
  double height;

  g_return_val_if_fail (cmp != NULL, 0);

  if (cmp->n_profiled == 0)
    return all_heading_height (cr, title, palette) + 120;
  all_shown (cr, width, cmp, title, palette, &height);
  return height;
}

void
ws_compare_gauges_draw_all (cairo_t *cr, double width, double height, const WsComparison *cmp,
                            const char *title, const WsPalette *palette)
{
  g_autoptr (PangoLayout) big = ws_text_layout (cr, palette, 1.25, TRUE);
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  double line = ws_text_line_height (text), pad = round (line * 0.8);
  double y = pad, all_height;
  g_autofree char *summary = NULL;
  guint shown;

  g_return_if_fail (cmp != NULL);

  ws_color_set (cr, palette->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  if (title != NULL)
    {
      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, big, title, pad, y, width - 2 * pad, WS_ALIGN_LEFT);
      y += round (line * 1.4);
    }
  summary = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%u kernel profiled on both sides, matched by %s name",
                 "%u kernels profiled on both sides, matched by %s name", cmp->n_profiled),
    cmp->n_profiled, ws_match_by_to_string (cmp->by));
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, text, summary, pad, y, width - 2 * pad, WS_ALIGN_LEFT);
  y = all_heading_height (cr, title, palette);

  if (cmp->n_profiled == 0)
    {
      g_autofree char *empty = ws_compare_gauges_empty_text (cmp);

      cairo_save (cr);
      cairo_translate (cr, 0, y);
      draw_empty (cr, width, MAX (120, height - y), empty, palette);
      cairo_restore (cr);
      return;
    }
  shown = all_shown (cr, width, cmp, title, palette, &all_height);
  for (guint i = 0, drawn = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);
      double h;

      if (!ws_delta_profiled_both (d))
        continue;
      if (drawn++ == shown)
        {
          guint more = cmp->n_profiled - shown;
          g_autofree char *text_more = g_strdup_printf (
            g_dngettext (GETTEXT_PACKAGE, "and %u more kernel profiled on both sides",
                         "and %u more kernels profiled on both sides", more),
            more);

          ws_color_set (cr, palette->dim);
          ws_text_draw (cr, text, text_more, pad, y + pad * 0.5, width - 2 * pad, WS_ALIGN_LEFT);
          break;
        }
      h = ws_compare_gauges_natural_height (cr, width, cmp, d, palette);
      ws_color_set (cr, palette->grid);
      cairo_rectangle (cr, 0, y, width, 1);
      cairo_fill (cr);
      cairo_save (cr);
      cairo_translate (cr, 0, y + 1);
      cairo_rectangle (cr, 0, 0, width, h);
      cairo_clip (cr);
      ws_compare_gauges_draw (cr, width, h, cmp, d, NULL, palette);
      cairo_restore (cr);
      y += h + 1;
    }
}
