/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-bars"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-limits.h"
#include "ws-bars-chart.h"
#include "ws-format.h"
#include "ws-kernel-name.h"
#include "ws-surface.h"
#include "ws-text.h"

#define LABEL_CHARS 90

static void
bar_clear (gpointer data)
{
  WsBar *bar = data;

  g_free (bar->label);
  g_free (bar->name);
}

double
ws_bar_value (const WsBar *bar, WsBarsSort sort)
{
  switch (sort)
    {
      case WS_BARS_SORT_AVG:
        return bar->avg;
      case WS_BARS_SORT_INSTANCES:
        return (double) bar->count;
      case WS_BARS_SORT_TOTAL:
      case WS_BARS_SORT_NAME:
      default:
        return (double) bar->total;
    }
}

static int
compare_bars (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsBar *x = a, *y = b;
  WsBarsSort sort_key = GPOINTER_TO_INT (data);
  double vx, vy;

  if (sort_key == WS_BARS_SORT_NAME)
    return g_utf8_collate (x->label, y->label);
  vx = ws_bar_value (x, sort_key);
  vy = ws_bar_value (y, sort_key);
  if (vx != vy)
    return vx > vy ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

static gboolean
matches (const char *name, const char *filter_folded)
{
  g_autofree char *folded = NULL;

  if (filter_folded == NULL || filter_folded[0] == '\0')
    return TRUE;
  folded = g_utf8_casefold (name, -1);
  return strstr (folded, filter_folded) != NULL;
}

/**
 * ws_bars_model_new:
 * @top_n: bars to show before folding the rest into "others"; 0 for all
 *   (at most %WS_BARS_MAX_SHOWN either way)
 * @filter: (nullable): keep kernels whose name contains it (case-insensitive)
 * @verdict_func: (nullable): the bottleneck verdict of a kernel, for colours
 *
 * Returns: (transfer full): the bars of @summary (a kernel summary).
 */
WsBarsModel *
ws_bars_model_new (const WsSummary *summary, guint top_n, WsBarsSort sort, const char *filter,
                   WsVerdictFunc verdict_func, gpointer verdict_data)
{
  WsBarsModel *self = g_new0 (WsBarsModel, 1);
  g_autofree char *filter_folded = filter != NULL ? g_utf8_casefold (filter, -1) : NULL;
  g_autoptr (GArray) all = g_array_new (FALSE, TRUE, sizeof (WsBar));

  if (top_n == 0 || top_n > WS_BARS_MAX_SHOWN)
    top_n = WS_BARS_MAX_SHOWN;
  self->sort = sort;
  self->bars = g_array_new (FALSE, TRUE, sizeof (WsBar));
  g_array_set_clear_func (self->bars, bar_clear);
  g_array_set_clear_func (all, bar_clear);

  for (guint i = 0; summary != NULL && i < summary->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);
      WsBar bar = { 0 };

      if (!matches (row->name, filter_folded))
        continue;
      bar.name = g_strdup (row->name);
      bar.label = ws_kernel_name_shorten (row->name, LABEL_CHARS);
      bar.name_id = row->name_id;
      bar.count = row->count;
      bar.total = row->total;
      bar.min = row->min;
      bar.max = row->max;
      bar.avg = row->avg;
      bar.med = row->med;
      bar.stddev = row->stddev;
      bar.share = row->percent;
      bar.verdict = verdict_func != NULL ? verdict_func (row->name, verdict_data) : WS_VERDICT_NONE;
      if (bar.verdict != WS_VERDICT_NONE)
        self->has_verdicts = TRUE;
      g_array_append_val (all, bar);
    }
  self->n_kernels = all->len;

  g_array_sort_with_data (all, compare_bars, GINT_TO_POINTER (sort));

  for (guint i = 0; i < all->len; i++)
    {
      WsBar *bar = &g_array_index (all, WsBar, i);

      if (top_n == 0 || i < top_n || all->len == top_n + 1)
        {
          g_array_append_val (self->bars, *bar);
          memset (bar, 0, sizeof *bar);
          continue;
        }
      /* Fold the rest into one "others" bar. */
      if (i == top_n)
        {
          WsBar other = { 0 };

          other.is_other = TRUE;
          other.name_id = WS_STRING_NONE;
          other.verdict = WS_VERDICT_NONE;
          other.min = G_MAXINT64;
          g_array_append_val (self->bars, other);
        }
      {
        WsBar *other = &g_array_index (self->bars, WsBar, self->bars->len - 1);

        other->n_folded++;
        other->count += bar->count;
        other->total = ws_time_add (other->total, bar->total);
        other->share += bar->share;
        other->min = MIN (other->min, bar->min);
        other->max = MAX (other->max, bar->max);
      }
    }
  if (self->bars->len > 0)
    {
      WsBar *last = &g_array_index (self->bars, WsBar, self->bars->len - 1);

      if (last->is_other)
        {
          last->avg = last->count > 0 ? (double) last->total / (double) last->count : 0;
          last->med = last->avg;
          last->name = g_strdup_printf (
            g_dngettext (GETTEXT_PACKAGE, "%u other kernel", "%u other kernels", last->n_folded),
            last->n_folded);
          last->label = g_strdup (last->name);
        }
    }

  /* Display names, unique among the bars: instantiations of one template
   * keep what tells them apart. */
  {
    g_autofree const char **names = g_new0 (const char *, self->bars->len + 1);
    g_auto (GStrv) labels = NULL;

    for (guint i = 0; i < self->bars->len; i++)
      names[i] = g_array_index (self->bars, WsBar, i).name;
    labels = ws_kernel_name_labels (names, self->bars->len, LABEL_CHARS);
    for (guint i = 0; i < self->bars->len; i++)
      {
        WsBar *bar = &g_array_index (self->bars, WsBar, i);

        /* Swapped, not stolen: a NULL in the middle would end the vector
         * early for g_strfreev () and leak the labels after it. */
        if (bar->is_other)
          continue;
        g_free (bar->label);
        bar->label = labels[i];
        labels[i] = g_strdup ("");
      }
  }

  for (guint i = 0; i < self->bars->len; i++)
    self->max_value =
      MAX (self->max_value, ws_bar_value (&g_array_index (self->bars, WsBar, i), sort));
  return self;
}

/**
 * ws_bars_model_copy:
 *
 * A deep copy of @self, for a worker thread to draw while the view goes on
 * replacing its own model (a filter typed, another sort).
 *
 * Returns: (transfer full): the copy
 */
WsBarsModel *
ws_bars_model_copy (const WsBarsModel *self)
{
  WsBarsModel *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  copy->bars = g_array_sized_new (FALSE, TRUE, sizeof (WsBar), self->bars->len);
  g_array_set_clear_func (copy->bars, bar_clear);
  for (guint i = 0; i < self->bars->len; i++)
    {
      WsBar bar = g_array_index (self->bars, WsBar, i);

      bar.label = g_strdup (bar.label);
      bar.name = g_strdup (bar.name);
      g_array_append_val (copy->bars, bar);
    }
  return copy;
}

void
ws_bars_model_free (WsBarsModel *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->bars, g_array_unref);
  g_free (self);
}

/**
 * ws_bars_model_get:
 *
 * Returns: (transfer none) (nullable): bar @index
 */
const WsBar *
ws_bars_model_get (const WsBarsModel *self, guint index)
{
  if (self == NULL || index >= self->bars->len)
    return NULL;
  return &g_array_index (self->bars, WsBar, index);
}

/**
 * ws_kernel_verdict_text:
 *
 * What a kernel's verdict over its profiled launches rests on (docs/NOTES.md,
 * "A kernel's verdict"): "Verdict Latency: 83.2% of the profiled time, 16
 * of 18 profiled launches", or, with no majority, "Verdict Mixed: no
 * verdict holds more than half of the profiled time (Latency 45.0%,
 * Compute 40.0%, Memory 15.0%)".
 *
 * Returns: (transfer full): the line
 */
char *
ws_kernel_verdict_text (const WsKernelVerdict *verdict)
{
  g_autoptr (GString) split = g_string_new (NULL);
  g_autofree char *share = NULL;
  int order[WS_N_VERDICTS];
  int n = 0;

  if (verdict->verdict == WS_VERDICT_NONE || verdict->total <= 0)
    return g_strdup (ws_verdict_label (WS_VERDICT_NONE));
  for (int v = 0; v < WS_N_VERDICTS; v++)
    if (verdict->time[v] > 0)
      order[n++] = v;
  /* Largest share first. */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && verdict->time[order[j]] > verdict->time[order[j - 1]]; j--)
      {
        int t = order[j];

        order[j] = order[j - 1];
        order[j - 1] = t;
      }
  for (int i = 0; i < n; i++)
    {
      g_autofree char *pct =
        ws_format_fixed_string (100.0 * verdict->time[order[i]] / verdict->total, 1);

      g_string_append_printf (split, "%s%s %s%%", i > 0 ? ", " : "",
                              ws_verdict_label ((WsVerdict) order[i]), pct);
    }
  if (!verdict->majority)
    return verdict->by_count
             /* TRANSLATORS: "Verdict Mixed: no verdict holds more than half of the profiled launches (Latency 50.0%, Compute 50.0%)" */
             ? g_strdup_printf (_ ("Verdict %s: no verdict holds more than half of the profiled "
                                   "launches (%s)"),
                                ws_verdict_label (WS_VERDICT_MIXED), split->str)
             /* TRANSLATORS: "Verdict Mixed: no verdict holds more than half of the profiled time (Latency 45.0%, Compute 40.0%)" */
             : g_strdup_printf (_ ("Verdict %s: no verdict holds more than half of the profiled "
                                   "time (%s)"),
                                ws_verdict_label (WS_VERDICT_MIXED), split->str);
  share = ws_format_fixed_string (100.0 * verdict->time[verdict->leading] / verdict->total, 1);
  if (verdict->by_count)
    /* TRANSLATORS: "Verdict Latency: 2 of 3 profiled launches (they have no durations)" */
    return g_strdup_printf (_ ("Verdict %s: %u of %u profiled launches (they have no durations)"),
                            ws_verdict_label (verdict->verdict),
                            verdict->launches[verdict->leading], verdict->n_launches);
  /* TRANSLATORS: "Verdict Latency: 83.2% of the profiled time, 16 of 18 profiled launches" */
  return g_strdup_printf (_ ("Verdict %s: %s%% of the profiled time, %u of %u profiled launches"),
                          ws_verdict_label (verdict->verdict), share,
                          verdict->launches[verdict->leading], verdict->n_launches);
}

WsColor
ws_verdict_color (const WsPalette *palette, WsVerdict verdict)
{
  switch (verdict)
    {
      case WS_VERDICT_COMPUTE:
        return palette->compute;
      case WS_VERDICT_MEMORY:
        return palette->memory;
      case WS_VERDICT_LATENCY:
        return palette->latency;
      case WS_VERDICT_MIXED:
        return palette->mixed;
      case WS_VERDICT_UNKNOWN:
        return palette->unknown;
      case WS_VERDICT_NONE:
      case WS_N_VERDICTS:
      default:
        return palette->bar;
    }
}

/* Geometry shared by drawing and hit testing. */
typedef struct
{
  double pad;
  double line; /* text line height */
  double top;  /* y of the first row */
  double row;  /* row height */
  double bar_h;
  double bar_x;
  double bar_w;   /* the width of the largest bar */
  double value_w; /* room for the value label */
} Layout;

/**
 * ws_bar_value_label:
 *
 * Returns: (transfer full): the figures drawn beside @bar, those of @sort
 * first: "1.23 s · 45.6% · 100,000×"
 */
char *
ws_bar_value_label (const WsBar *bar, WsBarsSort sort)
{
  g_autofree char *total = ws_format_duration ((double) bar->total);
  g_autofree char *avg = ws_format_duration (bar->avg);
  g_autofree char *share = ws_format_fixed_string (bar->share, 1);
  g_autofree char *count = ws_format_count (bar->count);

  switch (sort)
    {
      case WS_BARS_SORT_AVG:
        /* TRANSLATORS: average duration · share of GPU time · instances */
        return g_strdup_printf (_ ("avg %s · %s%% · %s×"), avg, share, count);
      case WS_BARS_SORT_INSTANCES:
        /* TRANSLATORS: instances · total duration · share of GPU time */
        return g_strdup_printf (_ ("%s× · %s · %s%%"), count, total, share);
      case WS_BARS_SORT_TOTAL:
      case WS_BARS_SORT_NAME:
      default:
        /* TRANSLATORS: total duration · share of GPU time · instances */
        return g_strdup_printf (_ ("%s · %s%% · %s×"), total, share, count);
    }
}

static void
compute_layout (cairo_t *cr, double width, const WsBarsModel *model, const WsBarsState *state,
                const WsPalette *palette, Layout *l)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);

  l->line = ws_text_line_height (text);
  l->pad = round (l->line * 0.8);
  l->bar_h = round (l->line * 0.85);
  l->row = l->line + 3 + l->bar_h + round (l->pad * 0.7);
  l->top = l->pad;
  if (state != NULL && state->title != NULL)
    l->top += round (l->line * 1.3) + l->pad * 0.5;
  if (model->has_verdicts)
    l->top += l->line + l->pad * 0.5;

  l->value_w = 0;
  for (guint i = 0; i < model->bars->len; i++)
    {
      g_autofree char *label =
        ws_bar_value_label (&g_array_index (model->bars, WsBar, i), model->sort);
      double w;

      ws_text_size (small, label, &w, NULL);
      l->value_w = MAX (l->value_w, w + 10);
    }
  l->bar_x = l->pad;
  l->bar_w = MAX (40, width - 2 * l->pad - l->value_w);
}

double
ws_bars_chart_natural_height (cairo_t *cr, const WsBarsModel *model, const WsBarsState *state,
                              const WsPalette *palette)
{
  Layout l;

  compute_layout (cr, 600, model, state, palette, &l);
  return MIN (l.top + MAX (model->bars->len, 1) * l.row + l.pad, WS_CHART_MAX_HEIGHT);
}

/* Kernels that ran but were not profiled, among coloured ones: a neutral
 * grey of the palette, so that they read as "no verdict" and not as
 * another verdict (a faded bar blue read as Memory in the dark theme). */
WsColor
ws_bars_not_profiled_color (const WsPalette *palette)
{
  return palette->not_profiled;
}

/* The folded "others" bar: stripes of the secondary text colour, so that it
 * reads as many kernels together and never as a verdict (the grey of
 * Unknown). */
static void
fill_others (cairo_t *cr, const WsPalette *palette, double x, double y, double w, double h)
{
  double step = 6;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  ws_color_set (cr, ws_color_mix (palette->dim, palette->background, 0.75));
  cairo_paint (cr);
  ws_color_set (cr, palette->dim);
  cairo_set_line_width (cr, 2);
  for (double sx = x - h; sx < x + w; sx += step)
    {
      cairo_move_to (cr, sx, y + h);
      cairo_line_to (cr, sx + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
bar_color_set (cairo_t *cr, const WsPalette *palette, const WsBarsModel *model, const WsBar *bar)
{
  if (model->has_verdicts && bar->verdict == WS_VERDICT_NONE)
    ws_color_set (cr, ws_bars_not_profiled_color (palette));
  else
    ws_color_set (cr, ws_verdict_color (palette, bar->verdict));
}

static void
draw_legend (cairo_t *cr, PangoLayout *small, const WsPalette *palette, const WsBarsModel *model,
             double x, double y, double line)
{
  gboolean unprofiled = FALSE;

  for (guint i = 0; i < model->bars->len; i++)
    {
      const WsBar *bar = &g_array_index (model->bars, WsBar, i);

      unprofiled |= !bar->is_other && bar->verdict == WS_VERDICT_NONE;
    }
  for (int v = WS_VERDICT_COMPUTE; v <= WS_N_VERDICTS; v++)
    {
      WsVerdict verdict = v < WS_N_VERDICTS ? (WsVerdict) v : WS_VERDICT_NONE;
      double sw = round (line * 0.7);

      if (verdict == WS_VERDICT_NONE && !unprofiled)
        break;
      if (verdict == WS_VERDICT_NONE)
        ws_color_set (cr, ws_bars_not_profiled_color (palette));
      else
        ws_color_set (cr, ws_verdict_color (palette, verdict));
      cairo_rectangle (cr, x, y + (line - sw) / 2, sw, sw);
      cairo_fill (cr);
      ws_color_set (cr, palette->dim);
      x += sw + 4 +
           ws_text_draw (cr, small, ws_verdict_label (verdict), x + sw + 4, y, 0, WS_ALIGN_LEFT);
      x += line;
    }
  ws_color_set (cr, palette->bar);
}

/* Draws the chart in (0, 0, @width, @height): a title, a legend of verdict
 * colours when the run has ncu data, then one row per bar: the kernel's
 * name, and below it a bar as long as its value, labelled with total time,
 * share and instances. */
void
ws_bars_chart_draw (cairo_t *cr, double width, double height, const WsBarsModel *model,
                    const WsBarsState *state, const WsPalette *palette)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  Layout l;

  compute_layout (cr, width, model, state, palette, &l);

  cairo_save (cr);
  ws_color_set (cr, palette->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  {
    double y = l.pad;

    if (state != NULL && state->title != NULL)
      {
        g_autoptr (PangoLayout) title = ws_text_layout (cr, palette, 1.15, TRUE);

        ws_color_set (cr, palette->foreground);
        ws_text_draw (cr, title, state->title, l.pad, y, width - 2 * l.pad, WS_ALIGN_LEFT);
        y += round (l.line * 1.3) + l.pad * 0.5;
      }
    if (model->has_verdicts)
      draw_legend (cr, small, palette, model, l.pad, y, l.line);
  }

  if (model->bars->len == 0)
    {
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, text, _ ("No kernels match."), l.pad, l.top, width - 2 * l.pad,
                    WS_ALIGN_LEFT);
      cairo_restore (cr);
      return;
    }

  for (guint i = 0; i < model->bars->len; i++)
    {
      const WsBar *bar = &g_array_index (model->bars, WsBar, i);
      double y = l.top + i * l.row;
      double value = ws_bar_value (bar, model->sort);
      double w = model->max_value > 0 ? value / model->max_value * l.bar_w : 0;
      g_autofree char *label = ws_bar_value_label (bar, model->sort);

      if (state != NULL && ((int) i == state->selected || (int) i == state->hover))
        {
          ws_color_set_alpha (cr, palette->accent, (int) i == state->selected ? 0.16 : 0.07);
          cairo_rectangle (cr, l.pad / 2, y - l.pad * 0.35, width - l.pad, l.row);
          cairo_fill (cr);
        }

      ws_color_set (cr, bar->is_other ? palette->dim : palette->foreground);
      ws_text_draw_name (cr, text, bar->label, l.bar_x, y, width - 2 * l.pad, WS_ALIGN_LEFT);

      /* Bars end on whole pixels so that their length reads exactly. */
      if (bar->is_other)
        fill_others (cr, palette, l.bar_x, y + l.line + 3, MAX (round (w), value > 0 ? 1 : 0),
                     l.bar_h);
      else
        {
          bar_color_set (cr, palette, model, bar);
          cairo_rectangle (cr, l.bar_x, y + l.line + 3, MAX (round (w), value > 0 ? 1 : 0),
                           l.bar_h);
          cairo_fill (cr);
        }

      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, label, l.bar_x + round (w) + 6,
                    y + l.line + 3 + (l.bar_h - l.line * 0.9) / 2, 0, WS_ALIGN_LEFT);
    }
  cairo_restore (cr);
}

/* The bar under (@x, @y), or -1. */
int
ws_bars_chart_hit (cairo_t *cr, double width, const WsBarsModel *model, const WsBarsState *state,
                   const WsPalette *palette, double x, double y)
{
  Layout l;
  double row;

  compute_layout (cr, width, model, state, palette, &l);
  if (y < l.top - l.pad * 0.35 || x < 0 || x > width)
    return -1;
  row = floor ((y - l.top + l.pad * 0.35) / l.row);
  if (row < 0 || row >= model->bars->len)
    return -1;
  return (int) row;
}

/* Where bar @index is drawn: for tests and tooltips. */
gboolean
ws_bars_chart_bar_rect (cairo_t *cr, double width, const WsBarsModel *model,
                        const WsBarsState *state, const WsPalette *palette, guint index,
                        cairo_rectangle_t *rect)
{
  const WsBar *bar = ws_bars_model_get (model, index);
  Layout l;
  double value;

  if (bar == NULL)
    return FALSE;
  compute_layout (cr, width, model, state, palette, &l);
  value = ws_bar_value (bar, model->sort);
  rect->x = l.bar_x;
  rect->y = l.top + index * l.row + l.line + 3;
  rect->width = model->max_value > 0 ? round (value / model->max_value * l.bar_w) : 0;
  rect->height = l.bar_h;
  return TRUE;
}

typedef struct
{
  const WsBarsModel *model;
  WsBarsState state;
  const WsPalette *palette;
} Figure;

static void
draw_figure (cairo_t *cr, double width, double height, gpointer data)
{
  Figure *figure = data;

  ws_bars_chart_draw (cr, width, height, figure->model, &figure->state, figure->palette);
}

/**
 * ws_bars_chart_render_to_file:
 * @height: the image's height, or 0 for the chart's natural height
 * @title: (nullable): drawn above the bars
 *
 * Draws @model, nothing hovered or selected, into @path (PNG, SVG or PDF
 * by its extension): the chart of exports, reports and `render`.
 */
gboolean
ws_bars_chart_render_to_file (const char *path, double width, double height,
                              const WsBarsModel *model, const char *title, const WsPalette *palette,
                              GError **error)
{
  Figure figure = { model, { -1, -1, title }, palette };

  g_return_val_if_fail (path != NULL && model != NULL && palette != NULL, FALSE);

  if (height <= 0)
    {
      cairo_t *cr = ws_measure_context ();

      height = ceil (ws_bars_chart_natural_height (cr, model, &figure.state, palette));
      cairo_destroy (cr);
    }
  return ws_render_to_file (path, width, height, draw_figure, &figure, error);
}
