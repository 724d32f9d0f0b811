/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauges-overview"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-bars-chart.h"
#include "ws-format.h"
#include "ws-gauges-overview.h"
#include "ws-surface.h"
#include "ws-kernel-display.h"
#include "ws-kernel-name.h"
#include "ws-text.h"

const WsGaugeKind ws_gauges_mini_kinds[WS_GAUGES_N_MINI] = {
  WS_GAUGE_SM,   WS_GAUGE_MEMORY, WS_GAUGE_DRAM,   WS_GAUGE_TENSOR,
  WS_GAUGE_FP32, WS_GAUGE_L1_HIT, WS_GAUGE_L2_HIT, WS_GAUGE_OCCUPANCY,
};

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsGaugesOverview *self = data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  if (self->sort != WS_GAUGES_SORT_ID)
    {
      const WsGauge *gx = &ws_ncu_results_gauges (self->results, x)->gauge[self->sort];
      const WsGauge *gy = &ws_ncu_results_gauges (self->results, y)->gauge[self->sort];

      /* Largest first; what was not collected last. */
      if (gx->collected != gy->collected)
        return gx->collected ? -1 : 1;
      if (gx->collected && gx->value != gy->value)
        return gx->value > gy->value ? -1 : 1;
    }
  return (x > y) - (x < y);
}

/**
 * ws_gauges_overview_new:
 * @sort: %WS_GAUGES_SORT_ID, or the gauge to sort by (largest first)
 *
 * Returns: (transfer full): the rows of @results in display order
 */
WsGaugesOverview *
ws_gauges_overview_new (WsNcuResults *results, int sort)
{
  WsGaugesOverview *self = g_new0 (WsGaugesOverview, 1);
  guint n = results != NULL ? ws_ncu_results_n_launches (results) : 0;

  g_return_val_if_fail (sort >= WS_GAUGES_SORT_ID && sort < WS_N_GAUGES, self);

  self->results = results != NULL ? ws_ncu_results_ref (results) : NULL;
  self->sort = sort;
  self->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  for (guint i = 0; i < n; i++)
    g_array_append_val (self->order, i);
  g_array_sort_with_data (self->order, compare_rows, self);
  return self;
}

void
ws_gauges_overview_free (WsGaugesOverview *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->results, ws_ncu_results_unref);
  g_clear_pointer (&self->order, g_array_unref);
  g_free (self);
}

guint
ws_gauges_overview_n_rows (const WsGaugesOverview *self)
{
  return self != NULL ? self->order->len : 0;
}

guint
ws_gauges_overview_launch (const WsGaugesOverview *self, guint row)
{
  g_return_val_if_fail (row < self->order->len, 0);

  return g_array_index (self->order, guint, row);
}

/* The row that shows @launch, or -1. */
int
ws_gauges_overview_row_of (const WsGaugesOverview *self, guint launch)
{
  for (guint i = 0; self != NULL && i < self->order->len; i++)
    if (g_array_index (self->order, guint, i) == launch)
      return (int) i;
  return -1;
}

/* The names of sort keys: "id", "duration", "sm", "l1", … */
gboolean
ws_gauges_sort_from_string (const char *str, int *sort)
{
  static const struct
  {
    const char *name;
    int sort;
  } keys[] = {
    { "id", WS_GAUGES_SORT_ID },
    { "duration", WS_GAUGE_DURATION },
    { "sm", WS_GAUGE_SM },
    { "memory", WS_GAUGE_MEMORY },
    { "dram", WS_GAUGE_DRAM },
    { "tensor", WS_GAUGE_TENSOR },
    { "fp32", WS_GAUGE_FP32 },
    { "l1", WS_GAUGE_L1_HIT },
    { "l2", WS_GAUGE_L2_HIT },
    { "occupancy", WS_GAUGE_OCCUPANCY },
    { "barrier", WS_GAUGE_STALL_BARRIER },
    { "short-scoreboard", WS_GAUGE_STALL_SHORT_SCOREBOARD },
    { "long-scoreboard", WS_GAUGE_STALL_LONG_SCOREBOARD },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_strcmp0 (str, keys[i].name) == 0)
      {
        *sort = keys[i].sort;
        return TRUE;
      }
  return FALSE;
}

typedef struct
{
  double pad;
  double line;
  double small_line;
  double header_h;
  gboolean two_lines; /* narrow: the mini gauges go under the kernel's name */
  double top;         /* the first row */
  double row_h;
  double id_x, id_w;
  double kernel_x, kernel_w;
  double duration_x, duration_w;
  double verdict_x, verdict_w;
  double gauges_x, gauge_w;
  guint name_chars; /* the characters of a kernel name that fit */
  guint shown;      /* rows drawn: as many as WS_CHART_MAX_HEIGHT holds */
  double more_h;    /* the line that counts the rows left out, or 0 */
} Layout;

/* Below this width the gauges get their own line in each row. */
#define TWO_LINES_BELOW 900

static void
compute_layout (cairo_t *cr, double width, const WsGaugesOverview *self, const WsPalette *palette,
                Layout *l)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  double w, fixed, rest;
  guint n = ws_gauges_overview_n_rows (self);

  memset (l, 0, sizeof *l);
  l->line = ws_text_line_height (text);
  l->small_line = ws_text_line_height (small);
  l->pad = round (l->line * 0.6);
  l->two_lines = width < TWO_LINES_BELOW;
  l->header_h = (l->two_lines ? 2 : 1) * (l->small_line + 3) + 3;
  l->top = l->pad + l->header_h;
  l->row_h = round (l->line * (l->two_lines ? 3.0 : 1.8));
  l->shown = n;
  if (l->top + n * l->row_h + l->pad > WS_CHART_MAX_HEIGHT)
    {
      l->more_h = round (l->line * 1.8);
      l->shown =
        (guint) MAX (1, floor ((WS_CHART_MAX_HEIGHT - l->top - l->pad - l->more_h) / l->row_h));
    }

  ws_text_size (text, n > 10 ? (n > 100 ? "9999" : "999") : "99", &l->id_w, NULL);
  l->id_w += 8;
  ws_text_size (text, "999 ms", &l->duration_w, NULL);
  l->duration_w += 12;
  l->verdict_w = 0;
  for (int v = WS_VERDICT_COMPUTE; v < WS_N_VERDICTS; v++)
    {
      ws_text_size (small, ws_verdict_label ((WsVerdict) v), &w, NULL);
      l->verdict_w = MAX (l->verdict_w, w);
    }
  l->verdict_w += round (l->line) + 12;

  fixed = 2 * l->pad + l->id_w + l->duration_w + l->verdict_w;
  rest = MAX (0, width - fixed);
  if (l->two_lines)
    {
      l->kernel_w = MAX (80, rest);
      l->gauge_w = floor (MAX (30, (width - 2 * l->pad - l->id_w) / WS_GAUGES_N_MINI));
    }
  else
    {
      /* The gauges share what the kernel name leaves them, within bounds. */
      l->gauge_w = floor (CLAMP ((rest - 280) / WS_GAUGES_N_MINI, 36, l->line * 4));
      l->kernel_w = MAX (80, rest - l->gauge_w * WS_GAUGES_N_MINI);
    }

  /* Names are shortened to fit by folding template arguments first. */
  ws_text_size (text, "abcdefghijklmnopqrstuvwxyz_::<>", &w, NULL);
  l->name_chars = (guint) MAX (12, (l->kernel_w - 8) / (w / 31 * 1.15));

  l->id_x = l->pad;
  l->kernel_x = l->id_x + l->id_w;
  l->duration_x = l->kernel_x + l->kernel_w;
  l->verdict_x = l->duration_x + l->duration_w;
  l->gauges_x = l->two_lines ? l->kernel_x : l->verdict_x + l->verdict_w;
}

/**
 * ws_gauges_overview_row_names:
 * @max_chars: the characters a row's name may take
 *
 * The name each launch's row shows: its label (the display name of its
 * kernel), fitted to @max_chars with the others (ws_kernel_display_fit()),
 * so that rows of different kernels never read alike.
 *
 * Returns: (transfer full) (array zero-terminated=1): one name per launch
 */
char **
ws_gauges_overview_row_names (const WsGaugesOverview *self, guint max_chars)
{
  guint n = ws_ncu_results_n_launches (self->results);
  g_autofree const char **labels = g_new0 (const char *, n + 1);

  for (guint i = 0; i < n; i++)
    labels[i] = ws_ncu_results_label (self->results, i);
  return ws_kernel_display_fit (labels, n, MAX (max_chars, 8));
}

/* The height that shows every row at @width, or as many as a chart may
 * hold (WS_CHART_MAX_HEIGHT) and a line that counts the others. */
double
ws_gauges_overview_natural_height (cairo_t *cr, double width, const WsGaugesOverview *self,
                                   const WsPalette *palette)
{
  Layout l;

  compute_layout (cr, width, self, palette, &l);
  return l.top + MAX (l.shown, 1) * l.row_h + l.more_h + l.pad;
}

/**
 * ws_gauges_overview_n_shown:
 *
 * Returns: the rows drawn at @width: all of them, unless there are more
 * than a chart may hold
 */
guint
ws_gauges_overview_n_shown (cairo_t *cr, double width, const WsGaugesOverview *self,
                            const WsPalette *palette)
{
  Layout l;

  compute_layout (cr, width, self, palette, &l);
  return l.shown;
}

static void
mini_geometry (const Layout *l, const WsGauge *gauge, WsGaugeKind kind, guint row, int column,
               const WsPalette *palette, WsGaugeGeometry *g)
{
  double x = l->gauges_x + column * l->gauge_w;
  double y = l->top + row * l->row_h;
  double h = round (l->line * 0.45);
  double w = l->gauge_w - 8;
  double fraction = ws_gauge_fraction (gauge);

  memset (g, 0, sizeof *g);
  g->rect = (cairo_rectangle_t){ x + 2, y + l->row_h - h - round (l->row_h * 0.12), w, h };
  g->thickness = h;
  g->collected = gauge->collected;
  g->fill_end = g->rect.x + (isnan (fraction) ? 0 : round (fraction * w));
  g->fill = ws_gauge_band_color (palette, gauge->collected ? ws_gauge_band (kind, gauge->value)
                                                           : WS_GAUGE_BAND_LOW);
}

static void
draw_header (cairo_t *cr, const Layout *l, const WsGaugesOverview *self, const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  g_autoptr (PangoLayout) bold = ws_text_layout (cr, palette, 0.9, TRUE);
  double y = l->pad;

  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, self->sort == WS_GAUGES_SORT_ID ? bold : small, "#", l->id_x, y, l->id_w,
                WS_ALIGN_LEFT);
  ws_text_draw (cr, small, _ ("Kernel"), l->kernel_x, y, l->kernel_w - 8, WS_ALIGN_LEFT);
  if (self->sort == WS_GAUGE_DURATION)
    {
      g_autofree char *label = g_strdup_printf ("%s ▾", _ ("Duration"));

      ws_text_draw (cr, bold, label, l->duration_x + l->duration_w - 12, y, 0, WS_ALIGN_RIGHT);
    }
  else
    ws_text_draw (cr, small, _ ("Duration"), l->duration_x + l->duration_w - 12, y, 0,
                  WS_ALIGN_RIGHT);
  ws_text_draw (cr, small, _ ("Verdict"), l->verdict_x, y, l->verdict_w, WS_ALIGN_LEFT);
  for (int c = 0; c < WS_GAUGES_N_MINI; c++)
    {
      WsGaugeKind kind = ws_gauges_mini_kinds[c];
      g_autofree char *label = self->sort == (int) kind
                                 ? g_strdup_printf ("%s ▾", ws_gauge_label (kind))
                                 : g_strdup (ws_gauge_label (kind));

      ws_text_draw (cr, self->sort == (int) kind ? bold : small, label,
                    l->gauges_x + c * l->gauge_w + 2, l->two_lines ? y + l->small_line + 3 : y,
                    l->gauge_w - 4, WS_ALIGN_LEFT);
    }
  ws_color_set (cr, palette->grid);
  cairo_rectangle (cr, l->pad, l->top - 2, l->gauges_x + WS_GAUGES_N_MINI * l->gauge_w - l->pad, 1);
  cairo_fill (cr);
}

/**
 * ws_gauges_overview_draw:
 *
 * Draws one row per profiled launch in (0, 0, @width, @height).
 */
void
ws_gauges_overview_draw (cairo_t *cr, double width, double height, const WsGaugesOverview *self,
                         const WsGaugesOverviewState *state, const WsPalette *palette)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  Layout l;
  guint n = ws_gauges_overview_n_rows (self);
  g_auto (GStrv) names = NULL;

  compute_layout (cr, width, self, palette, &l);
  cairo_save (cr);
  ws_color_set (cr, palette->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  if (n == 0)
    {
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, text, _ ("No profiled kernels."), l.pad, l.pad, width - 2 * l.pad,
                    WS_ALIGN_LEFT);
      cairo_restore (cr);
      return;
    }
  draw_header (cr, &l, self, palette);
  if (l.shown < n)
    {
      guint more = n - l.shown;
      g_autofree char *text_more = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "%u more launch: sort by a gauge to bring others up",
                     "%u more launches: sort by a gauge to bring others up", more),
        more);

      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, text, text_more, l.kernel_x, l.top + l.shown * l.row_h + l.line * 0.4,
                    width - l.kernel_x - l.pad, WS_ALIGN_LEFT);
    }

  names = ws_gauges_overview_row_names (self, l.name_chars);
  for (guint row = 0; row < l.shown; row++)
    {
      guint launch = ws_gauges_overview_launch (self, row);
      const WsGauges *gauges = ws_ncu_results_gauges (self->results, launch);
      const WsGauge *duration = &gauges->gauge[WS_GAUGE_DURATION];
      double y = l.top + row * l.row_h;
      double text_y = y + round (l.row_h * 0.08);
      g_autofree char *id = g_strdup_printf ("%u", launch);
      const char *name = names[launch];
      g_autofree char *dur = duration->collected ? ws_format_duration (duration->value) : NULL;
      double dot = round (l.line * 0.6);

      if (y > height)
        break;
      if (state != NULL && ((int) row == state->selected || (int) row == state->hover))
        {
          ws_color_set_alpha (cr, palette->accent, (int) row == state->selected ? 0.16 : 0.07);
          cairo_rectangle (cr, l.pad / 2, y, width - l.pad, l.row_h);
          cairo_fill (cr);
        }

      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, text, id, l.id_x, text_y, l.id_w, WS_ALIGN_LEFT);
      ws_color_set (cr, palette->foreground);
      ws_text_draw_name (cr, text, name, l.kernel_x, text_y, l.kernel_w - 8, WS_ALIGN_LEFT);
      ws_text_draw (cr, text, dur != NULL ? dur : "–", l.duration_x + l.duration_w - 12, text_y, 0,
                    WS_ALIGN_RIGHT);

      ws_color_set (cr, ws_verdict_color (palette, gauges->verdict));
      cairo_new_path (cr);
      cairo_arc (cr, l.verdict_x + dot / 2, text_y + l.line / 2, dot / 2, 0, 2 * G_PI);
      cairo_fill (cr);
      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, small, ws_verdict_label (gauges->verdict), l.verdict_x + dot + 4,
                    text_y + (l.line - l.small_line) / 2, l.verdict_w - dot - 8, WS_ALIGN_LEFT);

      for (int c = 0; c < WS_GAUGES_N_MINI; c++)
        {
          WsGaugeKind kind = ws_gauges_mini_kinds[c];
          const WsGauge *gauge = &gauges->gauge[kind];
          g_autofree char *value = NULL;
          WsGaugeGeometry g;

          mini_geometry (&l, gauge, kind, row, c, palette, &g);
          ws_gauge_draw_bar (cr, gauge, kind, g.rect.x, g.rect.y, g.rect.width, g.rect.height,
                             palette, NULL);
          value = gauge->collected ? ws_format_fixed_string (gauge->value, 1) : g_strdup ("–");
          ws_color_set (cr, gauge->collected ? palette->foreground : palette->dim);
          ws_text_draw (cr, small, value, g.rect.x, g.rect.y - l.small_line - 1, g.rect.width,
                        WS_ALIGN_LEFT);
        }
    }
  cairo_restore (cr);
}

/* The row under (@x, @y), or -1. */
int
ws_gauges_overview_hit (cairo_t *cr, double width, const WsGaugesOverview *self,
                        const WsPalette *palette, double x, double y)
{
  Layout l;
  double row;

  compute_layout (cr, width, self, palette, &l);
  if (y < l.top || x < 0 || x > width)
    return -1;
  row = floor ((y - l.top) / l.row_h);
  if (row >= l.shown)
    return -1;
  return (int) row;
}

/* Where the mini gauge @kind of @row is drawn: for tests. */
gboolean
ws_gauges_overview_geometry (cairo_t *cr, double width, const WsGaugesOverview *self,
                             const WsPalette *palette, guint row, WsGaugeKind kind,
                             WsGaugeGeometry *geometry)
{
  Layout l;

  compute_layout (cr, width, self, palette, &l);
  if (row >= l.shown)
    return FALSE;
  for (int c = 0; c < WS_GAUGES_N_MINI; c++)
    if (ws_gauges_mini_kinds[c] == kind)
      {
        guint launch = ws_gauges_overview_launch (self, row);

        mini_geometry (&l, &ws_ncu_results_gauges (self->results, launch)->gauge[kind], kind, row,
                       c, palette, geometry);
        return TRUE;
      }
  return FALSE;
}

gboolean
ws_gauges_overview_row_rect (cairo_t *cr, double width, const WsGaugesOverview *self,
                             const WsPalette *palette, guint row, cairo_rectangle_t *rect)
{
  Layout l;

  compute_layout (cr, width, self, palette, &l);
  if (row >= l.shown)
    return FALSE;
  *rect = (cairo_rectangle_t){ 0, l.top + row * l.row_h, width, l.row_h };
  return TRUE;
}
