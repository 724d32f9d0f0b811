/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-chart"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-bars-chart.h"
#include "ws-compare-chart.h"
#include "ws-format.h"
#include "ws-kernel-name.h"
#include "ws-text.h"

#define DEFAULT_TOP 20

static const GArray *
rows_of (const WsComparison *cmp, const WsCompareState *state)
{
  return state != NULL && state->ranges ? cmp->ranges : cmp->kernels;
}

guint
ws_compare_chart_n_rows (const WsComparison *cmp, const WsCompareState *state)
{
  guint top = state != NULL && state->top_n > 0 ? state->top_n : DEFAULT_TOP;

  /* The rest is counted in the last line ("and N more"). */
  return MIN (rows_of (cmp, state)->len, MIN (top, WS_BARS_MAX_SHOWN));
}

/**
 * ws_compare_chart_row:
 *
 * Returns: (transfer none) (nullable): the delta drawn in row @row
 */
const WsDelta *
ws_compare_chart_row (const WsComparison *cmp, const WsCompareState *state, guint row)
{
  if (row >= ws_compare_chart_n_rows (cmp, state))
    return NULL;
  return &g_array_index (rows_of (cmp, state), WsDelta, row);
}

typedef struct
{
  double pad;
  double line;
  double top; /* y of the first row */
  double row; /* row height */
  double bar_h;
  double center; /* x of the zero line (deltas) */
  double half;   /* the widest half-bar (deltas) */
  double left;   /* x where paired bars start (ranges) */
  double full;   /* the widest paired bar */
  double scale;  /* ns of the widest bar */
} Layout;

static char *
delta_label (const WsDelta *d)
{
  g_autofree char *amount = ws_format_duration (fabs ((double) d->delta));
  const char *sign = d->delta < 0 ? "−" : d->delta > 0 ? "+" : "±";

  if (d->presence == WS_PRESENT_ONLY_BEFORE)
    return g_strdup_printf (_ ("%s%s (gone)"), sign, amount);
  if (d->presence == WS_PRESENT_ONLY_AFTER)
    return g_strdup_printf (_ ("%s%s (new)"), sign, amount);
  {
    g_autofree char *pct = ws_format_fixed_string (fabs (100.0 * (d->ratio - 1.0)), 0);
    const char *pct_sign = g_str_equal (pct, "0") ? "" : d->ratio > 1.0 ? "+" : "−";

    return g_strdup_printf ("%s%s (%s%s%%)", sign, amount, pct_sign, pct);
  }
}

static void
compute_layout (cairo_t *cr, double width, const WsComparison *cmp, const WsCompareState *state,
                const WsPalette *palette, Layout *l)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  guint n = ws_compare_chart_n_rows (cmp, state);
  double value_w = 0;

  l->line = ws_text_line_height (text);
  l->pad = round (l->line * 0.8);
  l->bar_h = round (l->line * 0.8);
  l->top = l->pad;
  if (state != NULL && state->title != NULL)
    l->top += round (l->line * 1.3) + l->pad * 0.4;
  l->top += l->line + l->pad; /* the legend */
  if (state != NULL && state->title != NULL)
    l->top += l->line; /* the headline, on exported images */
  l->scale = 0;

  if (state != NULL && state->ranges)
    {
      l->row = l->line + 4 + 2 * l->bar_h + 2 + round (l->pad * 0.7);
      for (guint i = 0; i < n; i++)
        {
          const WsDelta *d = ws_compare_chart_row (cmp, state, i);

          l->scale = MAX (l->scale, (double) MAX (d->before_total, d->after_total));
        }
      value_w = 0;
      {
        double w;

        ws_text_size (small, "8888.8 ms (−100%)", &w, NULL);
        value_w = w + 10;
      }
      l->left = l->pad;
      l->full = MAX (40, width - 2 * l->pad - value_w);
      return;
    }

  l->row = l->line + 3 + l->bar_h + round (l->pad * 0.7);
  for (guint i = 0; i < n; i++)
    {
      const WsDelta *d = ws_compare_chart_row (cmp, state, i);
      g_autofree char *label = delta_label (d);
      double w;

      l->scale = MAX (l->scale, fabs ((double) d->delta));
      ws_text_size (small, label, &w, NULL);
      value_w = MAX (value_w, w + 8);
    }
  l->half = MAX (20, (width - 2 * l->pad - 2 * value_w) / 2);
  l->center = round (width / 2);
}

double
ws_compare_chart_natural_height (cairo_t *cr, const WsComparison *cmp, const WsCompareState *state,
                                 const WsPalette *palette)
{
  Layout l;

  compute_layout (cr, 900, cmp, state, palette, &l);
  return l.top + MAX (ws_compare_chart_n_rows (cmp, state), 1) * l.row + l.line * 1.5 + l.pad;
}

static void
draw_header (cairo_t *cr, double width, const WsComparison *cmp, const WsCompareState *state,
             const WsPalette *palette, const Layout *l)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, TRUE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  g_autofree char *headline = ws_comparison_headline (cmp);
  double y = l->pad;

  if (state != NULL && state->title != NULL)
    {
      g_autoptr (PangoLayout) title = ws_text_layout (cr, palette, 1.15, TRUE);

      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, title, state->title, l->pad, y, width - 2 * l->pad, WS_ALIGN_LEFT);
      y += round (l->line * 1.3) + l->pad * 0.4;
    }
  if (state != NULL && state->title != NULL)
    {
      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, text, headline, l->pad, y, width - 2 * l->pad, WS_ALIGN_LEFT);
      y += l->line;
    }

  if (state != NULL && state->ranges)
    {
      double sw = round (l->line * 0.6), x = l->pad;

      ws_color_set (cr, palette->bar_other);
      cairo_rectangle (cr, x, y + (l->line - sw) / 2, sw, sw);
      cairo_fill (cr);
      ws_color_set (cr, palette->dim);
      x +=
        sw + 4 + ws_text_draw (cr, small, _ ("before"), x + sw + 4, y, 0, WS_ALIGN_LEFT) + l->line;
      ws_color_set (cr, palette->accent);
      cairo_rectangle (cr, x, y + (l->line - sw) / 2, sw, sw);
      cairo_fill (cr);
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, _ ("after"), x + sw + 4, y, 0, WS_ALIGN_LEFT);
      return;
    }
  ws_color_set (cr, palette->faster);
  ws_text_draw (cr, small, _ ("◀ faster after"), l->center - 8, y, 0, WS_ALIGN_RIGHT);
  ws_color_set (cr, palette->slower);
  ws_text_draw (cr, small, _ ("slower after ▶"), l->center + 8, y, 0, WS_ALIGN_LEFT);
}

/* A "new" or "gone" badge before a kernel present in one run only;
 * returns the width it takes. */
static double
draw_badge (cairo_t *cr, const Layout *l, const WsDelta *d, const WsPalette *palette,
            PangoLayout *badge, double x, double y)
{
  const char *tag = d->presence == WS_PRESENT_ONLY_AFTER ? _ ("new") : _ ("gone");
  double tw, th;

  ws_text_size (badge, tag, &tw, &th);
  ws_color_set (cr, d->presence == WS_PRESENT_ONLY_AFTER ? palette->slower : palette->faster);
  cairo_rectangle (cr, x, y + (l->line - th) / 2 - 1, tw + 8, th + 2);
  cairo_fill (cr);
  ws_color_set (cr, palette->background);
  ws_text_draw (cr, badge, tag, x + 4, y + (l->line - th) / 2, 0, WS_ALIGN_LEFT);
  return tw + 14;
}

/* An NVTX range's totals: the bar before, the bar after with the change. */
static void
draw_range_bars (cairo_t *cr, const Layout *l, const WsDelta *d, const WsPalette *palette,
                 PangoLayout *small, double y)
{
  double yb = y + l->line + 4;
  double wb = l->scale > 0 ? round ((double) d->before_total / l->scale * l->full) : 0;
  double wa = l->scale > 0 ? round ((double) d->after_total / l->scale * l->full) : 0;
  g_autofree char *before = ws_format_duration ((double) d->before_total);
  g_autofree char *after = ws_format_duration ((double) d->after_total);
  g_autofree char *change = delta_label (d);
  g_autofree char *after_label = g_strdup_printf ("%s · %s", after, change);

  ws_color_set (cr, palette->bar_other);
  cairo_rectangle (cr, l->left, yb, MAX (wb, d->before_total > 0 ? 1 : 0), l->bar_h);
  cairo_fill (cr);
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, small, before, l->left + wb + 6, yb + (l->bar_h - l->line * 0.9) / 2, 0,
                WS_ALIGN_LEFT);
  ws_color_set (cr, palette->accent);
  cairo_rectangle (cr, l->left, yb + l->bar_h + 2, MAX (wa, d->after_total > 0 ? 1 : 0), l->bar_h);
  cairo_fill (cr);
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, small, after_label, l->left + wa + 6,
                yb + l->bar_h + 2 + (l->bar_h - l->line * 0.9) / 2, 0, WS_ALIGN_LEFT);
}

/* A kernel's change: a bar from the zero line, left when faster. */
static void
draw_delta_bar (cairo_t *cr, const Layout *l, const WsDelta *d, const WsPalette *palette,
                PangoLayout *small, double y)
{
  double w = l->scale > 0 ? round (fabs ((double) d->delta) / l->scale * l->half) : 0;
  double yb = y + l->line + 3;
  g_autofree char *value = delta_label (d);

  if (d->delta != 0)
    w = MAX (w, 1);
  ws_color_set (cr, d->delta <= 0 ? palette->faster : palette->slower);
  if (d->delta < 0)
    cairo_rectangle (cr, l->center - w, yb, w, l->bar_h);
  else
    cairo_rectangle (cr, l->center + 1, yb, w, l->bar_h);
  cairo_fill (cr);
  ws_color_set (cr, palette->dim);
  if (d->delta < 0)
    ws_text_draw (cr, small, value, l->center - w - 6, yb + (l->bar_h - l->line * 0.9) / 2, 0,
                  WS_ALIGN_RIGHT);
  else
    ws_text_draw (cr, small, value, l->center + w + 7, yb + (l->bar_h - l->line * 0.9) / 2, 0,
                  WS_ALIGN_LEFT);
}

/* "and 12 more, +3.4 ms in all" under the rows shown. */
static void
draw_rest (cairo_t *cr, double width, const Layout *l, const WsComparison *cmp,
           const WsCompareState *state, const WsPalette *palette, PangoLayout *small, guint n)
{
  const GArray *rows = rows_of (cmp, state);
  guint more = rows->len - n;
  gint64 rest = 0;
  g_autofree char *amount = NULL;
  g_autofree char *line = NULL;

  for (guint i = n; i < rows->len; i++)
    rest += g_array_index (rows, WsDelta, i).delta;
  amount = ws_format_duration (fabs ((double) rest));
  line = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "and %u more, %s%s in all", "and %u more, %s%s in all", more),
    more, rest < 0 ? "−" : "+", amount);
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, small, line, l->pad, l->top + n * l->row, width - 2 * l->pad, WS_ALIGN_LEFT);
}

/* Draws either the kernels' changes as bars diverging from a zero line
 * (faster to the left, slower to the right, sorted by the size of the
 * change, new and removed kernels marked), or the NVTX ranges' totals
 * before and after as pairs of bars. */
void
ws_compare_chart_draw (cairo_t *cr, double width, double height, const WsComparison *cmp,
                       const WsCompareState *state, const WsPalette *palette)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  g_autoptr (PangoLayout) badge = ws_text_layout (cr, palette, 0.8, TRUE);
  guint n = ws_compare_chart_n_rows (cmp, state);
  gboolean ranges = state != NULL && state->ranges;
  g_autofree const char **keys = g_new0 (const char *, n + 1);
  g_auto (GStrv) labels = NULL;
  Layout l;

  for (guint i = 0; i < n; i++)
    keys[i] = ws_compare_chart_row (cmp, state, i)->key;
  labels = ws_kernel_name_labels (keys, n, 90);
  compute_layout (cr, width, cmp, state, palette, &l);
  cairo_save (cr);
  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  draw_header (cr, width, cmp, state, palette, &l);

  if (!ranges && n > 0)
    {
      ws_color_set (cr, palette->grid);
      cairo_rectangle (cr, l.center, l.top - l.pad * 0.3, 1, n * l.row);
      cairo_fill (cr);
    }

  for (guint i = 0; i < n; i++)
    {
      const WsDelta *d = ws_compare_chart_row (cmp, state, i);
      double y = l.top + i * l.row;
      /* NVTX ranges are not C++ names: shown as they are, the default
       * domain's leading ":" dropped. */
      const char *label = ranges ? (d->key[0] == ':' ? d->key + 1 : d->key) : labels[i];
      double x = l.pad;

      if (state != NULL && ((int) i == state->selected || (int) i == state->hover))
        {
          ws_color_set_alpha (cr, palette->accent, (int) i == state->selected ? 0.16 : 0.07);
          cairo_rectangle (cr, l.pad / 2, y - l.pad * 0.35, width - l.pad, l.row);
          cairo_fill (cr);
        }
      if (d->presence != WS_PRESENT_BOTH)
        x += draw_badge (cr, &l, d, palette, badge, x, y);
      ws_color_set (cr, palette->foreground);
      ws_text_draw_name (cr, text, label, x, y, width - x - l.pad, WS_ALIGN_LEFT);
      if (ranges)
        draw_range_bars (cr, &l, d, palette, small, y);
      else
        draw_delta_bar (cr, &l, d, palette, small, y);
    }

  if (rows_of (cmp, state)->len > n)
    draw_rest (cr, width, &l, cmp, state, palette, small, n);
  cairo_restore (cr);
}

int
ws_compare_chart_hit (cairo_t *cr, double width, const WsComparison *cmp,
                      const WsCompareState *state, const WsPalette *palette, double x, double y)
{
  Layout l;
  double row;

  compute_layout (cr, width, cmp, state, palette, &l);
  row = floor ((y - l.top + l.pad * 0.35) / l.row);
  if (y < l.top - l.pad * 0.35 || row < 0 || row >= ws_compare_chart_n_rows (cmp, state))
    return -1;
  return (int) row;
}

/* Where row @row's bar is drawn (the after bar of a pair when @after). */
gboolean
ws_compare_chart_bar_rect (cairo_t *cr, double width, const WsComparison *cmp,
                           const WsCompareState *state, const WsPalette *palette, guint row,
                           gboolean after, cairo_rectangle_t *rect)
{
  const WsDelta *d = ws_compare_chart_row (cmp, state, row);
  Layout l;

  if (d == NULL)
    return FALSE;
  compute_layout (cr, width, cmp, state, palette, &l);
  if (state != NULL && state->ranges)
    {
      double total = (double) (after ? d->after_total : d->before_total);

      rect->x = l.left;
      rect->y = l.top + row * l.row + l.line + 4 + (after ? l.bar_h + 2 : 0);
      rect->width = l.scale > 0 ? round (total / l.scale * l.full) : 0;
      rect->height = l.bar_h;
      return TRUE;
    }
  rect->width = l.scale > 0 ? round (fabs ((double) d->delta) / l.scale * l.half) : 0;
  rect->x = d->delta < 0 ? l.center - rect->width : l.center + 1;
  rect->y = l.top + row * l.row + l.line + 3;
  rect->height = l.bar_h;
  return TRUE;
}
