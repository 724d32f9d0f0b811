/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-stalls-chart"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-chart-title.h"
#include "ws-format.h"
#include "ws-gauge-style.h"
#include "ws-stalls-chart.h"
#include "ws-text.h"

typedef struct
{
  double pad;
  double top;     /* where the rows start */
  double label_w; /* reason names */
  double value_w; /* "6.31  57.1%" */
  double row_h;   /* a collected reason: its bar and its meaning */
  double line, small_line;
} StallsLayout;

static char *
subtitle (const WsNcuResults *results, const WsWhy *why)
{
  const WsStalls *s = why->stalls;
  g_autofree char *name = ws_chart_launch_name (results, why->launch);
  double sum = 0;

  for (guint i = 0; i < s->n_collected; i++)
    sum += g_array_index (s->stalls, WsStall, i).value;
  if (s->n_collected == 0)
    /* TRANSLATORS: "fma_heavy — no stall reason collected (--section WarpStateStats)" */
    return g_strdup_printf (_ ("%s — no stall reason collected (%s)"), name, s->collect);
  if (s->form == WS_STALL_FORM_PER_ISSUE || s->form == WS_STALL_FORM_CYCLES)
    {
      g_autofree char *total = ws_format_fixed_string (sum, 2);

      /* TRANSLATORS: "fma_heavy — warps stalled per issued instruction; together 11.06 warp cycles between two issues" */
      return g_strdup_printf (_ ("%s — warps stalled per issued instruction, by reason; together "
                                 "%s warp cycles between two issues"),
                              name, total);
    }
  if (s->form == WS_STALL_FORM_NVPROF)
    /* TRANSLATORS: "sgemm — nvprof's stall reasons, each a percentage of all stalls" */
    return g_strdup_printf (_ ("%s — nvprof's stall reasons, each a percentage of all stalls"),
                            name);
  return g_strdup_printf (_ ("%s — stall reasons in %s"), name, s->unit);
}

static void
layout (cairo_t *cr, double width, const WsNcuResults *results, const WsWhy *why,
        const WsPalette *palette, StallsLayout *l)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autofree char *sub = subtitle (results, why);
  double w;

  l->pad = ws_chart_pad (cr, palette);
  l->line = ws_text_line_height (text);
  l->small_line = ws_text_line_height (small);
  l->top = ws_chart_title_height (cr, width, palette, sub);
  l->label_w = 0;
  for (guint i = 0; i < why->stalls->stalls->len; i++)
    {
      ws_text_size (text, g_array_index (why->stalls->stalls, WsStall, i).reason, &w, NULL);
      l->label_w = MAX (l->label_w, w);
    }
  l->label_w = MIN (l->label_w + l->pad, width * 0.35);
  ws_text_size (text, "000.00  100.0%", &l->value_w, NULL);
  l->row_h = round (l->line + l->small_line + l->pad * 0.6);
}

/* "Not collected (--section WarpStateStats): gmma, barrier, …", or NULL. */
static char *
missing_note (const WsStalls *s)
{
  GString *list = g_string_new (NULL);
  char *note;

  for (guint i = s->n_collected; i < s->stalls->len; i++)
    {
      if (list->len > 0)
        g_string_append (list, ", ");
      g_string_append (list, g_array_index (s->stalls, WsStall, i).reason);
    }
  /* TRANSLATORS: "Not collected (--section WarpStateStats): gmma, barrier, …" */
  note =
    list->len > 0 ? g_strdup_printf (_ ("Not collected (%s): %s"), s->collect, list->str) : NULL;
  g_string_free (list, TRUE);
  return note;
}

double
ws_stalls_chart_natural_height (cairo_t *cr, double width, const WsNcuResults *results,
                                const WsWhy *why, const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autofree char *note = missing_note (why->stalls);
  StallsLayout l;

  layout (cr, width, results, why, palette, &l);
  return ceil (
    l.top + why->stalls->n_collected * l.row_h +
    (note != NULL ? l.pad / 2 + ws_text_wrapped_height (small, note, width - 2 * l.pad) : 0) +
    l.pad);
}

/**
 * ws_stalls_chart_draw:
 *
 * Draws @why's stalls: a bar per collected reason, longest first, scaled
 * to the largest, with its value, its share of all and its meaning; the
 * top stall in the memory colour, "selected" and "not_selected" (not
 * stalls) pale; then the reasons not collected.
 */
void
ws_stalls_chart_draw (cairo_t *cr, double width, double height, const WsNcuResults *results,
                      const WsWhy *why, const WsPalette *palette)
{
  const WsStalls *s = why->stalls;
  const WsStall *top = ws_stalls_top (s);
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) bold = ws_text_layout (cr, palette, 1.0, TRUE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autofree char *sub = subtitle (results, why);
  StallsLayout l;
  g_autofree char *note = missing_note (s);
  double bar_x, bar_w, max = 0, y;

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  layout (cr, width, results, why, palette, &l);
  ws_chart_title_draw (cr, width, palette, _ ("Warp stalls"), sub);

  bar_x = l.pad + l.label_w;
  bar_w = MAX (40, width - bar_x - l.value_w - 2 * l.pad);
  for (guint i = 0; i < s->n_collected; i++)
    max = MAX (max, g_array_index (s->stalls, WsStall, i).value);

  y = l.top;
  for (guint i = 0; i < s->n_collected; i++)
    {
      const WsStall *st = &g_array_index (s->stalls, WsStall, i);
      gboolean not_a_stall =
        g_str_equal (st->reason, "selected") || g_str_equal (st->reason, "not_selected");
      double bh = round (l.line * 0.7);
      double len = max > 0 ? bar_w * st->value / max : 0;
      g_autofree char *value = NULL;
      g_autofree char *share = NULL;

      ws_color_set (cr, st == top ? palette->foreground : palette->dim);
      ws_text_draw (cr, st == top ? bold : text, st->reason, l.pad, y, l.label_w - l.pad / 2,
                    WS_ALIGN_LEFT);
      ws_color_set (cr, ws_gauge_band_tint (palette, WS_GAUGE_BAND_LOW));
      cairo_rectangle (cr, bar_x, y + (l.line - bh) / 2, bar_w, bh);
      cairo_fill (cr);
      ws_color_set (cr, st == top     ? palette->memory
                        : not_a_stall ? palette->bar_other
                                      : ws_gauge_band_color (palette, WS_GAUGE_BAND_MEDIUM));
      cairo_rectangle (cr, bar_x, y + (l.line - bh) / 2, MAX (len, st->value > 0 ? 1 : 0), bh);
      cairo_fill (cr);
      value = ws_format_fixed_string (st->value, 2);
      share = ws_format_fixed_string (100 * st->share, 1);
      {
        g_autofree char *both = g_strdup_printf ("%s  %s%%", value, share);

        ws_color_set (cr, palette->foreground);
        ws_text_draw (cr, text, both, bar_x + bar_w + l.pad, y, l.value_w, WS_ALIGN_LEFT);
      }
      if (st->meaning != NULL)
        {
          ws_color_set (cr, palette->dim);
          ws_text_draw (cr, small, st->meaning, bar_x, y + l.line, width - bar_x - l.pad,
                        WS_ALIGN_LEFT);
        }
      y += l.row_h;
    }
  if (note != NULL)
    {
      y += l.pad / 2;
      ws_color_set (cr, palette->dim);
      ws_text_draw_wrapped (cr, small, note, l.pad, y, width - 2 * l.pad);
    }
}
