/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-memory-chart"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-chart-title.h"
#include "ws-format.h"
#include "ws-gauge-style.h"
#include "ws-memory-chart.h"
#include "ws-text.h"

enum
{
  BOX_SM,
  BOX_L1,
  BOX_L2,
  BOX_DRAM,
  N_BOXES,
};

/* Lines under each box's name: the throughput bar, then up to four. */
#define BOX_LINES 5

static char *
subtitle (const WsNcuResults *results, const WsWhy *why)
{
  g_autofree char *name = ws_chart_launch_name (results, why->launch);

  /* TRANSLATORS: "fma_heavy — throughput in % of each unit's peak, hit rates, and the bytes between the levels" */
  return g_strdup_printf (_ ("%s — throughput in %% of each unit's peak, hit rates, and the bytes "
                             "between the levels"),
                          name);
}

static double
box_height (double line, double small_line)
{
  return round (line * 1.4 + (BOX_LINES + 1) * (small_line + 3) + line * 0.6);
}

static char *
pct (WsNcuValue v)
{
  g_autofree char *num = NULL;

  if (!ws_ncu_value_collected (v))
    return g_strdup (_ ("not collected"));
  num = ws_format_fixed_string (v.value, 2);
  return g_strdup_printf ("%s%%", num);
}

static void
add_line (GPtrArray *lines, char *line)
{
  g_ptr_array_add (lines, line);
}

/* The text lines of each box, under its throughput bar. */
static GPtrArray *
box_lines (const WsWhy *why, int box)
{
  const WsMemoryWorkload *m = &why->memory;
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  switch (box)
    {
      case BOX_SM:
        {
          double ld = ws_memory_load_sectors_per_request (m);
          double st = ws_memory_store_sectors_per_request (m);

          if (ws_ncu_value_collected (m->load_requests))
            {
              g_autofree char *n = ws_format_rate (m->load_requests.value, "");

              add_line (lines, g_strdup_printf (_ ("global load requests %s"), g_strstrip (n)));
            }
          if (!isnan (ld))
            {
              g_autofree char *v = ws_format_fixed_string (ld, 1);

              add_line (lines, g_strdup_printf (_ ("loads: %s sectors/request"), v));
            }
          if (!isnan (st))
            {
              g_autofree char *v = ws_format_fixed_string (st, 1);

              add_line (lines, g_strdup_printf (_ ("stores: %s sectors/request"), v));
            }
          if (!isnan (ws_memory_excessive_pct (m)))
            {
              g_autofree char *v = ws_format_percent_short (ws_memory_excessive_pct (m));

              add_line (lines, g_strdup_printf (_ ("%s of sectors not needed"), v));
            }
        }
        break;
      case BOX_L1:
        {
          g_autofree char *hit = pct (m->l1_hit);
          g_autofree char *shared = pct (m->shared_throughput);

          add_line (lines, g_strdup_printf (_ ("hit rate %s"), hit));
          add_line (lines, g_strdup_printf (_ ("shared memory %s of peak"), shared));
          if (!isnan (ws_memory_bank_conflict_pct (m)))
            {
              g_autofree char *v = ws_format_percent_short (ws_memory_bank_conflict_pct (m));

              add_line (lines, g_strdup_printf (_ ("bank conflicts %s of wavefronts"), v));
            }
        }
        break;
      case BOX_L2:
        {
          g_autofree char *hit = pct (m->l2_hit);

          add_line (lines, g_strdup_printf (_ ("hit rate %s"), hit));
        }
        break;
      case BOX_DRAM:
      default:
        if (ws_ncu_value_collected (m->dram_rate))
          add_line (lines, ws_format_rate (m->dram_rate.value, "B/s"));
        break;
    }
  return lines;
}

static WsNcuValue
box_throughput (const WsWhy *why, int box)
{
  switch (box)
    {
      case BOX_SM:
        return why->bottleneck.units[WS_LIMIT_ISSUE];
      case BOX_L1:
        return why->memory.l1_throughput;
      case BOX_L2:
        return why->memory.l2_throughput;
      case BOX_DRAM:
      default:
        return why->memory.dram_throughput;
    }
}

static void
draw_box (cairo_t *cr, const WsWhy *why, int box, double x, double y, double w, double h,
          const WsPalette *palette, PangoLayout *bold, PangoLayout *small)
{
  static const char *const names[N_BOXES] = { N_ ("SM (issue)"), N_ ("L1/TEX · shared"), N_ ("L2"),
                                              N_ ("DRAM") };
  WsNcuValue t = box_throughput (why, box);
  g_autoptr (GPtrArray) lines = box_lines (why, box);
  gboolean limiter =
    (box == BOX_L1 && why->bottleneck.unit == WS_LIMIT_L1) ||
    (box == BOX_L2 && why->bottleneck.unit == WS_LIMIT_L2) ||
    (box == BOX_DRAM && why->bottleneck.unit == WS_LIMIT_DRAM) ||
    (box == BOX_SM && why->bottleneck.unit >= 0 && why->bottleneck.unit < WS_LIMIT_FIRST_MEMORY);
  double lh = ws_text_line_height (small), inner = w - 16, ty, bar_h = round (lh * 0.8);
  g_autofree char *value = pct (t);

  cairo_rectangle (cr, x + 0.5, y + 0.5, w - 1, h - 1);
  ws_color_set (cr, limiter ? ws_color_mix (palette->background, palette->compute, 0.12)
                            : ws_gauge_band_tint (palette, WS_GAUGE_BAND_LOW));
  cairo_fill_preserve (cr);
  ws_color_set (cr, limiter ? palette->compute : palette->grid);
  cairo_set_line_width (cr, limiter ? 2 : 1);
  cairo_stroke (cr);

  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, bold, _ (names[box]), x + 8, y + 6, inner, WS_ALIGN_LEFT);
  ty = y + 6 + ws_text_line_height (bold) + 4;

  /* Throughput as a bar with its value. */
  ws_color_set (cr, palette->background);
  cairo_rectangle (cr, x + 8, ty, inner, bar_h);
  cairo_fill (cr);
  if (ws_ncu_value_collected (t))
    {
      WsGaugeBand band = t.value < WS_VERDICT_IDLE   ? WS_GAUGE_BAND_LOW
                         : t.value < WS_VERDICT_BUSY ? WS_GAUGE_BAND_MEDIUM
                                                     : WS_GAUGE_BAND_HIGH;

      ws_color_set (cr, ws_gauge_band_color (palette, band));
      cairo_rectangle (cr, x + 8, ty, inner * CLAMP (t.value / 100, 0, 1), bar_h);
      cairo_fill (cr);
    }
  else
    {
      ws_gauge_hatch (cr, palette);
      cairo_rectangle (cr, x + 8, ty, inner, bar_h);
      cairo_fill (cr);
    }
  ty += bar_h + 2;
  ws_color_set (cr, palette->foreground);
  {
    g_autofree char *through = g_strdup_printf (_ ("throughput %s"), value);

    ws_text_draw (cr, small, through, x + 8, ty, inner, WS_ALIGN_LEFT);
  }
  ty += lh + 3;
  ws_color_set (cr, palette->dim);
  for (guint i = 0; i < lines->len && i < BOX_LINES - 1; i++)
    {
      ws_text_draw (cr, small, g_ptr_array_index (lines, i), x + 8, ty, inner, WS_ALIGN_LEFT);
      ty += lh + 3;
    }
}

static char *
bytes_label (WsNcuValue v)
{
  return ws_ncu_value_collected (v) ? ws_format_bytes (v.value) : NULL;
}

typedef struct
{
  gboolean vertical; /* too narrow for four boxes abreast: one above the other */
  double pad, lh, top;
  double box_w, box_h;
  double x[N_BOXES], y[N_BOXES], h[N_BOXES];
  double bottom; /* under the last box */
} MemoryLayout;

static void
memory_layout (cairo_t *cr, double width, const WsWhy *why, const char *sub,
               const WsPalette *palette, MemoryLayout *l)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  double label_w, gap;

  l->pad = ws_chart_pad (cr, palette);
  l->lh = ws_text_line_height (small);
  l->top = ws_chart_title_height (cr, width, palette, sub) + 2 * l->lh;
  l->box_h = box_height (ws_text_line_height (text), l->lh);
  /* Room between the boxes for "4.88 GB written" over the arrows. */
  ws_text_size (small, _ ("999 MB written"), &label_w, NULL);
  gap = MAX (label_w + 16, round (width * 0.07));
  l->box_w = floor ((width - 2 * l->pad - 3 * gap) / N_BOXES);
  l->vertical = l->box_w < 15 * l->lh;
  if (l->vertical)
    l->box_w = width - 2 * l->pad;
  for (int b = 0; b < N_BOXES; b++)
    {
      g_autoptr (GPtrArray) lines = box_lines (why, b);

      /* Abreast, the boxes share a height; stacked, each is as tall as
       * its lines. */
      l->h[b] = l->vertical
                  ? l->box_h - (BOX_LINES - MIN (lines->len, BOX_LINES - 1) - 1) * (l->lh + 3)
                  : l->box_h;
      l->x[b] = l->vertical ? l->pad : l->pad + b * (l->box_w + gap);
      l->y[b] = l->vertical && b > 0 ? l->y[b - 1] + l->h[b - 1] + 3 * l->lh : l->top;
    }
  l->bottom = l->y[N_BOXES - 1] + l->h[N_BOXES - 1];
}

/**
 * ws_memory_chart_natural_height:
 *
 * Returns: the height the diagram of @why takes at @width
 */
double
ws_memory_chart_natural_height (cairo_t *cr, double width, const WsNcuResults *results,
                                const WsWhy *why, const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autofree char *sub = subtitle (results, why);
  MemoryLayout l;
  double reason = 0;

  memory_layout (cr, width, why, sub, palette, &l);
  if (why->bottleneck.reason != NULL)
    reason = ws_text_wrapped_height (small, why->bottleneck.reason, width - 2 * l.pad) + 2 * l.lh;
  return ceil (l.bottom + l.lh + reason + l.pad);
}

/* An arrow from (@x0, @y0) to (@x1, @y1), with a label above it, or
 * beside it when it is vertical. */
static void
arrow_between (cairo_t *cr, double x0, double y0, double x1, double y1, const char *label,
               const WsPalette *palette, PangoLayout *small)
{
  double len = hypot (x1 - x0, y1 - y0), ux = (x1 - x0) / len, uy = (y1 - y0) / len;

  ws_color_set (cr, palette->dim);
  cairo_set_line_width (cr, 1.5);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1, y1);
  cairo_stroke (cr);
  cairo_move_to (cr, x1, y1);
  cairo_line_to (cr, x1 - 6 * ux - 4 * uy, y1 - 6 * uy + 4 * ux);
  cairo_line_to (cr, x1 - 6 * ux + 4 * uy, y1 - 6 * uy - 4 * ux);
  cairo_close_path (cr);
  cairo_fill (cr);
  if (label == NULL)
    return;
  ws_color_set (cr, palette->foreground);
  if (fabs (uy) > 0.5)
    ws_text_draw (cr, small, label, x0 + 8, (y0 + y1) / 2 - ws_text_line_height (small) / 2, 0,
                  WS_ALIGN_LEFT);
  else
    ws_text_draw (cr, small, label, (x0 + x1) / 2, y0 - ws_text_line_height (small) - 2, 0,
                  WS_ALIGN_CENTER);
}

/**
 * ws_memory_chart_draw:
 *
 * Draws four boxes (SM, L1/TEX and shared memory, L2, DRAM) left to
 * right, or top to bottom where the width is short, the limiting one
 * outlined, with arrows for the bytes read towards the SM and written
 * away from it.
 */
void
ws_memory_chart_draw (cairo_t *cr, double width, double height, const WsNcuResults *results,
                      const WsWhy *why, const WsPalette *palette)
{
  g_autoptr (PangoLayout) bold = ws_text_layout (cr, palette, 1.0, TRUE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autofree char *sub = subtitle (results, why);
  const WsMemoryWorkload *m = &why->memory;
  MemoryLayout l;
  char *labels[2][N_BOXES] = { { NULL } }; /* writes, reads: between box b and b + 1 */

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  ws_chart_title_draw (cr, width, palette, _ ("Memory"), sub);
  memory_layout (cr, width, why, sub, palette, &l);
  for (int b = 0; b < N_BOXES; b++)
    draw_box (cr, why, b, l.x[b], l.y[b], l.box_w, l.h[b], palette, bold, small);

  {
    g_autofree char *l2_to_l1 = bytes_label (m->l2_to_l1);
    g_autofree char *l1_to_l2 = bytes_label (m->l1_to_l2);
    g_autofree char *dram_read = bytes_label (m->dram_read);
    g_autofree char *dram_write = bytes_label (m->dram_write);

    labels[0][BOX_L1] = l1_to_l2 != NULL ? g_strdup_printf (_ ("%s written"), l1_to_l2) : NULL;
    labels[1][BOX_L1] = l2_to_l1 != NULL ? g_strdup_printf (_ ("%s read"), l2_to_l1) : NULL;
    labels[0][BOX_L2] = dram_write != NULL ? g_strdup_printf (_ ("%s written"), dram_write) : NULL;
    labels[1][BOX_L2] = dram_read != NULL ? g_strdup_printf (_ ("%s read"), dram_read) : NULL;
  }
  /* Writes flow away from the SM, reads towards it. */
  for (int b = 0; b + 1 < N_BOXES; b++)
    {
      if (l.vertical)
        {
          double y0 = l.y[b] + l.h[b] + 3, y1 = l.y[b + 1] - 3;

          arrow_between (cr, l.pad + l.box_w * 0.25, y0, l.pad + l.box_w * 0.25, y1, labels[0][b],
                         palette, small);
          arrow_between (cr, l.pad + l.box_w * 0.6, y1, l.pad + l.box_w * 0.6, y0, labels[1][b],
                         palette, small);
        }
      else
        {
          double x0 = l.x[b] + l.box_w + 4, x1 = l.x[b + 1] - 4, mid = l.top + l.box_h / 2;

          arrow_between (cr, x0, mid - l.lh, x1, mid - l.lh, labels[0][b], palette, small);
          arrow_between (cr, x1, mid + l.lh + 4, x0, mid + l.lh + 4, labels[1][b], palette, small);
        }
      g_free (labels[0][b]);
      g_free (labels[1][b]);
    }

  /* What limits it, under the diagram. */
  if (why->bottleneck.reason != NULL)
    {
      g_autofree char *line = g_strdup_printf (
        "%s — %s", ws_bottleneck_label (why->bottleneck.kind), why->bottleneck.reason);

      ws_color_set (cr, palette->foreground);
      ws_text_draw_wrapped (cr, small, line, l.pad, l.bottom + l.lh, width - 2 * l.pad);
    }
}
