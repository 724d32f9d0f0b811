/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ranks-chart"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-ranks-chart.h"
#include "ws-surface.h"
#include "ws-text.h"

#define MARGIN 12.0
#define ROW_PREFERRED 22.0
#define ROW_MIN 3.0

/* A ramp that reads the same on light and dark backgrounds and in grey
 * (viridis): low values dark violet, high values yellow. */
static const guint32 ramp[] = { 0x440154, 0x3b528b, 0x21918c, 0x5ec962, 0xfde725 };

static WsColor
ramp_color (double t)
{
  double x = CLAMP (t, 0.0, 1.0) * (G_N_ELEMENTS (ramp) - 1);
  guint i = MIN ((guint) x, G_N_ELEMENTS (ramp) - 2);

  return ws_color_mix (ws_color_from_argb (0xff000000 | ramp[i]),
                       ws_color_from_argb (0xff000000 | ramp[i + 1]), x - i);
}

/* The step-time scale's ends (ColorBrewer's RdBu, safe for the colour
 * blind): faster than the median blue, slower red, the median neutral. */
#define DIVERGING_FASTER 0xff2166ac
#define DIVERGING_SLOWER 0xffb2182b

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double *
cell (const WsRanksChartModel *self, WsRanksMetric metric, guint row, guint col)
{
  return &self->values[((gsize) metric * self->n_rows + row) * self->n_cols + col];
}

/* Step time diverges from the median of the steady cells: the rank that
 * stands out takes the strong colours, not whichever is fastest. */
static void
step_time_scale (WsRanksChartModel *self)
{
  g_autoptr (GArray) walls = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint r = 0; r < self->n_rows; r++)
    for (guint c = 0; c < self->n_cols; c++)
      {
        double v = *cell (self, WS_RANKS_METRIC_STEP_TIME, r, c);

        if (!isnan (v) && !self->warmup[c])
          g_array_append_val (walls, v);
      }
  g_array_sort (walls, compare_double);
  if (walls->len > 0)
    {
      guint n = walls->len;
      double *w = (double *) walls->data;

      self->median = n % 2 == 1 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
      self->half = MAX (WS_RANKS_CHART_MIN_HALF * self->median,
                        MAX (self->median - w[0], w[n - 1] - self->median));
    }
}

/* Each column's last rank's row: each column's step of the set, and
 * each rank's row, by a table (a digest of 200,000 steps made a loop
 * over both quadratic, issue 46). */
static void
find_last_rows (WsRanksChartModel *self, const WsRankSet *set)
{
  g_autoptr (GHashTable) by_number = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) row_of = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < set->steps->len; i++)
    {
      const WsRankSetStep *step = &g_array_index (set->steps, WsRankSetStep, i);

      if (step->last >= 0)
        g_hash_table_insert (by_number, GSIZE_TO_POINTER ((gsize) step->number + 1),
                             GUINT_TO_POINTER (i + 1));
    }
  for (guint r = 0; r < self->n_rows; r++)
    g_hash_table_insert (row_of, GSIZE_TO_POINTER ((gsize) self->ranks[r] + 1),
                         GUINT_TO_POINTER (r + 1));
  for (guint c = 0; c < self->n_cols; c++)
    {
      guint i = GPOINTER_TO_UINT (
        g_hash_table_lookup (by_number, GSIZE_TO_POINTER ((gsize) self->steps[c] + 1)));
      const WsRankFigures *last;

      self->last[c] = -1;
      if (i == 0)
        continue;
      last =
        g_ptr_array_index (set->figures, g_array_index (set->steps, WsRankSetStep, i - 1).last);
      self->last[c] = (gint) GPOINTER_TO_UINT (
                        g_hash_table_lookup (row_of, GSIZE_TO_POINTER ((gsize) last->rank + 1))) -
                      1;
    }
}

/**
 * ws_ranks_chart_model_new:
 * @figures: (element-type WsRankFigures): per rank of @ranks (same order),
 *   its figures or %NULL while it is being read
 *
 * Returns: (transfer full): what the heatmap draws
 */
WsRanksChartModel *
ws_ranks_chart_model_new (const WsRanks *ranks, GPtrArray *figures)
{
  WsRanksChartModel *self = g_new0 (WsRanksChartModel, 1);
  g_autoptr (WsRankSet) set = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  gsize n_values;

  g_return_val_if_fail (ranks != NULL && figures != NULL, self);

  self->n_rows = ws_ranks_get_n (ranks);
  self->ranks = g_new0 (guint, MAX (self->n_rows, 1));
  self->measured = g_new0 (gboolean, MAX (self->n_rows, 1));
  for (guint r = 0; r < self->n_rows; r++)
    {
      const WsRankFigures *f = r < figures->len ? g_ptr_array_index (figures, r) : NULL;

      self->ranks[r] = ws_ranks_get (ranks, r)->rank;
      self->measured[r] = f != NULL;
      for (guint s = 0; f != NULL && s < f->steps->len; s++)
        {
          guint number = g_array_index (f->steps, WsRankStep, s).number;

          if (g_hash_table_add (seen, GUINT_TO_POINTER (number + 1)))
            g_array_append_val (numbers, number);
        }
    }
  g_array_sort (numbers, compare_u32);
  self->n_cols = numbers->len;
  self->steps = g_new0 (guint, MAX (self->n_cols, 1));
  self->warmup = g_new0 (gboolean, MAX (self->n_cols, 1));
  self->last = g_new (gint, MAX (self->n_cols, 1));
  if (self->n_cols > 0)
    memcpy (self->steps, numbers->data, sizeof (guint) * self->n_cols);
  n_values = (gsize) WS_RANKS_N_METRICS * self->n_rows * self->n_cols;
  self->values = g_new (double, MAX (n_values, 1));
  for (gsize i = 0; i < n_values; i++)
    self->values[i] = NAN;

  for (guint r = 0; r < self->n_rows; r++)
    {
      const WsRankFigures *f = r < figures->len ? g_ptr_array_index (figures, r) : NULL;

      for (guint c = 0; f != NULL && c < self->n_cols; c++)
        {
          const WsRankStep *step = ws_rank_figures_find_step (f, self->steps[c]);
          double wall;

          if (step == NULL)
            continue;
          wall = (double) (step->end - step->start);
          *cell (self, WS_RANKS_METRIC_STEP_TIME, r, c) = wall;
          *cell (self, WS_RANKS_METRIC_GPU_BUSY, r, c) =
            wall > 0 ? 100.0 * (double) step->gpu_busy / wall : 0;
          *cell (self, WS_RANKS_METRIC_WAITING, r, c) = (double) step->wait;
          *cell (self, WS_RANKS_METRIC_WORK, r, c) = (double) step->work;
          /* No NCCL kernel in the step: nothing to hide, no value. */
          *cell (self, WS_RANKS_METRIC_HIDDEN, r, c) =
            step->comm > 0 ? 100.0 * (double) step->overlap / (double) step->comm : NAN;
          self->warmup[c] = self->warmup[c] || step->warmup;
        }
    }

  /* The colour scale spans the steady steps: a warm-up step of seconds
   * would wash out the differences that matter. */
  for (guint m = 0; m < WS_RANKS_N_METRICS; m++)
    {
      self->lo[m] = INFINITY;
      self->hi[m] = -INFINITY;
      for (guint r = 0; r < self->n_rows; r++)
        for (guint c = 0; c < self->n_cols; c++)
          {
            double v = *cell (self, m, r, c);

            if (isnan (v) || self->warmup[c])
              continue;
            self->lo[m] = MIN (self->lo[m], v);
            self->hi[m] = MAX (self->hi[m], v);
          }
      if (self->lo[m] > self->hi[m])
        self->lo[m] = self->hi[m] = 0;
    }
  step_time_scale (self);

  set = ws_rank_set_new (figures);
  self->straggler = -1;
  find_last_rows (self, set);
  if (set->straggler.index >= 0)
    {
      for (guint r = 0; r < self->n_rows; r++)
        if (self->ranks[r] == set->straggler.rank)
          self->straggler = (gint) r;
    }
  self->straggler_text = ws_rank_set_straggler_text (set);
  self->title = ws_ranks_title (ranks);
  return self;
}

void
ws_ranks_chart_model_free (WsRanksChartModel *self)
{
  if (self == NULL)
    return;
  g_free (self->ranks);
  g_free (self->measured);
  g_free (self->steps);
  g_free (self->warmup);
  g_free (self->values);
  g_free (self->last);
  g_free (self->title);
  g_free (self->straggler_text);
  g_free (self);
}

/* The value of a cell: ns, or % for GPU busy and communication hidden;
 * NAN where the rank has no such step (or no NCCL kernel in it). */
double
ws_ranks_chart_model_value (const WsRanksChartModel *self, WsRanksMetric metric, guint row,
                            guint col)
{
  g_return_val_if_fail (metric < WS_RANKS_N_METRICS && row < self->n_rows && col < self->n_cols,
                        NAN);

  return *cell (self, metric, row, col);
}

void
ws_ranks_chart_state_init (WsRanksChartState *state)
{
  state->metric = WS_RANKS_METRIC_STEP_TIME;
  state->hover_row = state->hover_col = -1;
  state->selected_row = state->selected_col = -1;
}

const char *
ws_ranks_chart_metric_label (WsRanksMetric metric)
{
  switch (metric)
    {
      case WS_RANKS_METRIC_GPU_BUSY:
        return _ ("GPU busy");
      case WS_RANKS_METRIC_WAITING:
        return _ ("Waiting time");
      case WS_RANKS_METRIC_WORK:
        return _ ("Own work");
      case WS_RANKS_METRIC_HIDDEN:
        return _ ("Communication hidden");
      case WS_RANKS_METRIC_STEP_TIME:
      case WS_RANKS_N_METRICS:
      default:
        return _ ("Step time");
    }
}

const char *
ws_ranks_chart_metric_to_string (WsRanksMetric metric)
{
  static const char *const names[] = { "step-time", "gpu-busy", "waiting", "work", "comm-hidden" };

  return metric < WS_RANKS_N_METRICS ? names[metric] : names[0];
}

gboolean
ws_ranks_chart_metric_from_string (const char *text, WsRanksMetric *metric)
{
  for (guint m = 0; m < WS_RANKS_N_METRICS; m++)
    if (g_strcmp0 (text, ws_ranks_chart_metric_to_string (m)) == 0)
      {
        *metric = m;
        return TRUE;
      }
  return FALSE;
}

/* "91.9 ms", "43.1%" */
char *
ws_ranks_chart_format_value (WsRanksMetric metric, double value)
{
  if (isnan (value))
    return g_strdup ("–");
  if (metric == WS_RANKS_METRIC_GPU_BUSY || metric == WS_RANKS_METRIC_HIDDEN)
    return g_strdup_printf ("%.1f%%", value);
  return ws_format_duration (value);
}

/* The colour of a step-time cell at the median: a grey a little off the
 * background. */
WsColor
ws_ranks_chart_neutral (const WsPalette *palette)
{
  return ws_color_mix (palette->background, palette->foreground, 0.1);
}

/**
 * ws_ranks_chart_cell_color:
 *
 * The colour of a cell of @value: for step time, on the scale that
 * diverges from the model's median (neutral there, at full strength
 * @half away); for the other metrics, on the sequential ramp from the
 * steady cells' least to their greatest.
 */
WsColor
ws_ranks_chart_cell_color (const WsRanksChartModel *model, WsRanksMetric metric, double value,
                           const WsPalette *palette)
{
  double span;

  if (metric == WS_RANKS_METRIC_STEP_TIME)
    {
      double t = model->half > 0 ? CLAMP ((value - model->median) / model->half, -1, 1) : 0;

      return ws_color_mix (ws_ranks_chart_neutral (palette),
                           ws_color_from_argb (t < 0 ? DIVERGING_FASTER : DIVERGING_SLOWER),
                           fabs (t));
    }
  metric = metric < WS_RANKS_N_METRICS ? metric : 0;
  span = model->hi[metric] - model->lo[metric];
  return ramp_color (span > 0 ? (value - model->lo[metric]) / span : 0.5);
}

/* "median 91.9 ms, ±10%": the step-time scale, in its legend. */
char *
ws_ranks_chart_scale_text (const WsRanksChartModel *model)
{
  g_autofree char *median = ws_format_duration (model->median);

  /* TRANSLATORS: the step-time colours: %s is the median step time ("91.9 ms"), %.0f the
   * half width of the scale in % of it ("±10%") */
  return g_strdup_printf (_ ("median %s, ±%.0f%%"), median,
                          model->median > 0 ? 100.0 * model->half / model->median : 0.0);
}

typedef struct
{
  double line; /* a line of small text */
  double title_h;
  double label_w; /* the rank labels left of the cells */
  double header_h;
  double legend_h;
  double x, y, w, h; /* the cells */
  double row_h, col_w;
} Layout;

static void
layout (Layout *l, cairo_t *cr, double width, double height, const WsRanksChartModel *model,
        gboolean untitled, const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autoptr (PangoLayout) bold = ws_text_layout (cr, palette, 1.1, TRUE);
  g_autofree char *widest =
    g_strdup_printf (_ ("rank %u"), model->n_rows > 0 ? model->ranks[model->n_rows - 1] : 0);
  double text_w, text_h;

  l->line = ws_text_line_height (small);
  l->title_h = untitled ? 0 : ws_text_line_height (bold) + l->line + 10;
  ws_text_size (small, widest, &text_w, &text_h);
  l->label_w = text_w + l->line + 12;
  l->header_h = l->line + 6;
  l->legend_h = 2 * l->line + 22;
  l->x = MARGIN + l->label_w;
  l->y = MARGIN + l->title_h + l->header_h;
  l->w = MAX (width - l->x - MARGIN, 1);
  l->h = MAX (height - l->y - l->legend_h - MARGIN, 1);
  l->row_h = model->n_rows > 0 ? l->h / model->n_rows : l->h;
  l->col_w = model->n_cols > 0 ? l->w / model->n_cols : l->w;
}

/**
 * ws_ranks_chart_natural_height:
 *
 * Returns: the height at which every rank's row reads well, bounded by
 * WS_CHART_MAX_HEIGHT (rows then get thinner)
 */
double
ws_ranks_chart_natural_height (const WsRanksChartModel *model, double width, gboolean untitled,
                               const WsPalette *palette)
{
  cairo_t *cr = ws_measure_context ();
  Layout l;
  double overhead, rows;

  layout (&l, cr, width, 1000, model, untitled, palette);
  cairo_destroy (cr);
  overhead = l.y + l.legend_h + MARGIN;
  rows = model->n_rows * ROW_PREFERRED;
  if (overhead + rows > WS_CHART_MAX_HEIGHT)
    rows = MAX (model->n_rows * ROW_MIN, WS_CHART_MAX_HEIGHT - overhead);
  return MIN (overhead + MAX (rows, ROW_PREFERRED), WS_CHART_MAX_HEIGHT);
}

static void
hatch (cairo_t *cr, double x, double y, double w, double h, WsColor color)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  ws_color_set_alpha (cr, color, 0.45);
  cairo_set_line_width (cr, 1);
  for (double d = -h; d < w; d += 6)
    {
      cairo_move_to (cr, x + d, y + h);
      cairo_line_to (cr, x + d + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_legend (cairo_t *cr, const Layout *l, double height, const WsRanksChartModel *model,
             WsRanksMetric metric, const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autofree char *lo = ws_ranks_chart_format_value (metric, model->lo[metric]);
  g_autofree char *hi = ws_ranks_chart_format_value (metric, model->hi[metric]);
  double y = height - MARGIN - l->legend_h + 12;
  double bar_w = MIN (240, l->w * 0.4), x = l->x;
  double key_x;
  cairo_pattern_t *gradient;

  ws_color_set (cr, palette->foreground);
  x += ws_text_draw (cr, small, ws_ranks_chart_metric_label (metric), x, y, 0, WS_ALIGN_LEFT) + 8;
  gradient = cairo_pattern_create_linear (x, 0, x + bar_w, 0);
  if (metric == WS_RANKS_METRIC_STEP_TIME)
    {
      /* Faster, the median, slower: the scale's two ends and its middle. */
      for (guint i = 0; i <= 4; i++)
        {
          double value = model->median + model->half * ((double) i / 2 - 1);
          WsColor c = ws_ranks_chart_cell_color (model, metric, value, palette);

          cairo_pattern_add_color_stop_rgb (gradient, i / 4.0, c.r, c.g, c.b);
        }
      g_free (lo);
      g_free (hi);
      lo = ws_ranks_chart_format_value (metric, model->median - model->half);
      hi = ws_ranks_chart_format_value (metric, model->median + model->half);
    }
  else
    for (guint i = 0; i < G_N_ELEMENTS (ramp); i++)
      {
        WsColor c = ramp_color ((double) i / (G_N_ELEMENTS (ramp) - 1));

        cairo_pattern_add_color_stop_rgb (gradient, (double) i / (G_N_ELEMENTS (ramp) - 1), c.r,
                                          c.g, c.b);
      }
  cairo_set_source (cr, gradient);
  cairo_rectangle (cr, x, y + 1, bar_w, l->line - 2);
  cairo_fill (cr);
  cairo_pattern_destroy (gradient);
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, small, lo, x, y + l->line + 2, 0, WS_ALIGN_LEFT);
  ws_text_draw (cr, small, hi, x + bar_w, y + l->line + 2, 0, WS_ALIGN_RIGHT);
  if (metric == WS_RANKS_METRIC_STEP_TIME)
    {
      g_autofree char *scale = ws_ranks_chart_scale_text (model);

      /* Under the marks' key, beside the scale's ends. */
      ws_color_set (cr, palette->foreground);
      ws_text_draw (cr, small, scale, x + bar_w + 24, y + l->line + 2, 0, WS_ALIGN_LEFT);
    }

  /* The marks' key. */
  key_x = x + bar_w + 24;
  ws_color_set (cr, palette->foreground);
  cairo_arc (cr, key_x + 4, y + l->line / 2, 3.5, 0, 2 * G_PI);
  cairo_fill (cr);
  key_x += 12 + ws_text_draw (cr, small, _ ("reached the synchronisation last"), key_x + 12, y, 0,
                              WS_ALIGN_LEFT);
  hatch (cr, key_x + 12, y + 1, 14, l->line - 2, palette->foreground);
  key_x += 30 + ws_text_draw (cr, small, _ ("warm-up step"), key_x + 30, y, 0, WS_ALIGN_LEFT);
  ws_color_set (cr, palette->accent);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, key_x + 12, y + 1, 14, l->line - 2);
  cairo_stroke (cr);
  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, small, _ ("straggler"), key_x + 30, y, 0, WS_ALIGN_LEFT);
}

/* Luminance of a cell's colour: its dot is dark on light cells. */
static gboolean
is_light (WsColor c)
{
  return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b > 0.5;
}

static void
draw_titles (cairo_t *cr, double width, const Layout *l, const WsRanksChartModel *model,
             WsRanksMetric metric, const WsPalette *palette, PangoLayout *small, PangoLayout *bold)
{
  g_autofree char *title =
    g_strdup_printf ("%s — %s", model->title, ws_ranks_chart_metric_label (metric));

  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, bold, title, MARGIN, MARGIN, width - 2 * MARGIN, WS_ALIGN_LEFT);
  ws_color_set (cr, model->straggler >= 0 ? palette->slower : palette->dim);
  ws_text_draw (cr, small,
                model->straggler_text != NULL
                  ? model->straggler_text
                  : _ ("No straggler: no rank comes last in two thirds of the steady steps"),
                MARGIN, MARGIN + l->title_h - l->line - 6, width - 2 * MARGIN, WS_ALIGN_LEFT);
}

/* The step numbers above the columns, where they fit: every k-th. */
static void
draw_step_labels (cairo_t *cr, const Layout *l, const WsRanksChartModel *model,
                  const WsPalette *palette, PangoLayout *small)
{
  double w, h;
  g_autofree char *widest =
    g_strdup_printf ("%u", model->n_cols > 0 ? model->steps[model->n_cols - 1] : 0);
  guint col_every;

  ws_text_size (small, widest, &w, &h);
  col_every = (guint) MAX (1, ceil ((w + 6) / MAX (l->col_w, 1)));
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, small, _ ("step"), l->x - 6, l->y - l->header_h, 0, WS_ALIGN_RIGHT);
  for (guint c = 0; c < model->n_cols; c += col_every)
    {
      g_autofree char *text = g_strdup_printf ("%u", model->steps[c]);

      ws_text_draw (cr, small, text, l->x + (c + 0.5) * l->col_w, l->y - l->header_h, 0,
                    WS_ALIGN_CENTER);
    }
}

/* How the cells of a frame are drawn. */
typedef struct
{
  WsRanksMetric metric;
  guint row_every;      /* a rank label every k-th row */
  gboolean show_values; /* each cell's number fits in it */
  PangoLayout *small;
  PangoLayout *small_bold;
} Cells;

/* One cell of row @r, from @y0 to @y1. */
static void
draw_cell (cairo_t *cr, const Layout *l, const WsRanksChartModel *model, const Cells *cells,
           const WsPalette *palette, guint r, guint c, double y0, double y1, double gap)
{
  double x0 = round (l->x + c * l->col_w), x1 = round (l->x + (c + 1) * l->col_w);
  double v = *cell (model, cells->metric, r, c);
  double cw = MAX (x1 - x0 - (l->col_w >= 6 ? 1 : 0), 1), ch = MAX (y1 - y0 - gap, 1);
  WsColor color, ink;

  if (isnan (v))
    {
      ws_color_set_alpha (cr, palette->grid, 0.5);
      cairo_rectangle (cr, x0, y0, cw, ch);
      cairo_fill (cr);
      return;
    }
  color = ws_ranks_chart_cell_color (model, cells->metric, v, palette);
  ws_color_set (cr, color);
  cairo_rectangle (cr, x0, y0, cw, ch);
  cairo_fill (cr);
  ink = is_light (color) ? ws_color_from_argb (0xff000000) : ws_color_from_argb (0xffffffff);
  if (model->warmup[c])
    hatch (cr, x0, y0, cw, ch, ink);
  if (cells->show_values)
    {
      g_autofree char *text = ws_ranks_chart_format_value (cells->metric, v);

      ws_color_set (cr, ink);
      ws_text_draw (cr, cells->small, text, x0 + cw - 5, y0 + (ch - l->line) / 2, cw - 10,
                    WS_ALIGN_RIGHT);
    }
  if (model->last[c] == (gint) r && MIN (cw, ch) >= 5)
    {
      double radius = MIN (MIN (cw, ch) * 0.18, 4.5);

      ws_color_set (cr, ink);
      cairo_arc (cr, cells->show_values ? x0 + 5 + radius : x0 + cw / 2, y0 + ch / 2, radius, 0,
                 2 * G_PI);
      cairo_fill (cr);
    }
}

/* Row @r: its rank's label where it fits, and its cells, or a grey band
 * while the rank is being read. */
static void
draw_row (cairo_t *cr, const Layout *l, const WsRanksChartModel *model, const Cells *cells,
          const WsPalette *palette, guint r)
{
  double y0 = round (l->y + r * l->row_h), y1 = round (l->y + (r + 1) * l->row_h);
  double gap = l->row_h >= 6 ? 1 : 0;

  if (r % cells->row_every == 0 || (gint) r == model->straggler)
    {
      g_autofree char *label = g_strdup_printf (_ ("rank %u"), model->ranks[r]);
      gboolean straggler = (gint) r == model->straggler;

      ws_color_set (cr, straggler ? palette->slower : palette->foreground);
      ws_text_draw (cr, straggler ? cells->small_bold : cells->small, label, l->x - 8,
                    (y0 + y1) / 2 - l->line / 2, l->label_w, WS_ALIGN_RIGHT);
    }
  if (!model->measured[r])
    {
      ws_color_set (cr, palette->grid);
      cairo_rectangle (cr, l->x, y0, l->w, MAX (y1 - y0 - gap, 1));
      cairo_fill (cr);
      if (y1 - y0 >= l->line)
        {
          ws_color_set (cr, palette->dim);
          ws_text_draw (cr, cells->small, _ ("reading…"), l->x + 6, (y0 + y1) / 2 - l->line / 2, 0,
                        WS_ALIGN_LEFT);
        }
      return;
    }
  for (guint c = 0; c < model->n_cols; c++)
    draw_cell (cr, l, model, cells, palette, r, c, y0, y1, gap);
}

/* The straggler's frame, the hovered cell and the selected one. */
static void
draw_marks (cairo_t *cr, const Layout *l, const WsRanksChartModel *model,
            const WsRanksChartState *state, const WsPalette *palette)
{
  if (model->straggler >= 0)
    {
      double y0 = round (l->y + model->straggler * l->row_h);

      ws_color_set (cr, palette->accent);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, l->x - 1, y0 - 1, l->w + 2, MAX (l->row_h, 2) + 1);
      cairo_stroke (cr);
    }
  if (state->hover_row >= 0 && state->hover_col >= 0 && (guint) state->hover_row < model->n_rows &&
      (guint) state->hover_col < model->n_cols)
    {
      ws_color_set (cr, palette->foreground);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, round (l->x + state->hover_col * l->col_w) + 0.5,
                       round (l->y + state->hover_row * l->row_h) + 0.5, MAX (l->col_w - 1, 1),
                       MAX (l->row_h - 1, 1));
      cairo_stroke (cr);
    }
  if (state->selected_row >= 0 && state->selected_col >= 0 &&
      (guint) state->selected_row < model->n_rows && (guint) state->selected_col < model->n_cols)
    {
      ws_color_set (cr, palette->accent);
      cairo_set_line_width (cr, 3);
      cairo_rectangle (cr, round (l->x + state->selected_col * l->col_w),
                       round (l->y + state->selected_row * l->row_h), MAX (l->col_w, 2),
                       MAX (l->row_h, 2));
      cairo_stroke (cr);
    }
}

void
ws_ranks_chart_draw (cairo_t *cr, double width, double height, const WsRanksChartModel *model,
                     const WsRanksChartState *state, const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = NULL;
  g_autoptr (PangoLayout) small_bold = NULL;
  g_autoptr (PangoLayout) bold = NULL;
  WsRanksMetric metric = state->metric < WS_RANKS_N_METRICS ? state->metric : 0;
  guint first_row, end_row;
  Cells cells;
  Layout l;

  cairo_save (cr);
  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  small = ws_text_layout (cr, palette, 0.85, FALSE);
  small_bold = ws_text_layout (cr, palette, 0.85, TRUE);
  bold = ws_text_layout (cr, palette, 1.1, TRUE);
  layout (&l, cr, width, height, model, state->untitled, palette);

  ws_color_set (cr, palette->foreground);
  if (!state->untitled)
    draw_titles (cr, width, &l, model, metric, palette, small, bold);
  if (model->n_rows == 0)
    {
      cairo_restore (cr);
      return;
    }

  cells.metric = metric;
  cells.small = small;
  cells.small_bold = small_bold;
  /* Labels where they fit: every k-th row. */
  cells.row_every = (guint) MAX (1, ceil ((l.line + 1) / l.row_h));
  /* Each cell's number where it fits: "135 ms" needs about six digits. */
  {
    double w, h;

    ws_text_size (small, "888.8 ms", &w, &h);
    cells.show_values = l.col_w >= w + 22 && l.row_h >= l.line + 2;
  }
  draw_step_labels (cr, &l, model, palette, small);

  /* A frame draws the rows in view: the clip tells which (a tall heatmap
   * in a scrolled window shows a few dozen of its hundreds of rows). */
  {
    double cx0, cy0, cx1, cy1;

    cairo_clip_extents (cr, &cx0, &cy0, &cx1, &cy1);
    first_row = cy0 > l.y ? (guint) MIN ((cy0 - l.y) / l.row_h, model->n_rows) : 0;
    end_row = cy1 > l.y ? (guint) MIN (ceil ((cy1 - l.y) / l.row_h) + 1, model->n_rows) : 0;
  }
  for (guint r = first_row; r < end_row; r++)
    draw_row (cr, &l, model, &cells, palette, r);
  draw_marks (cr, &l, model, state, palette);
  draw_legend (cr, &l, height, model, metric, palette);
  cairo_restore (cr);
}

/* Which cell is at (@x, @y). */
void
ws_ranks_chart_hit (double width, double height, const WsRanksChartModel *model,
                    const WsRanksChartState *state, const WsPalette *palette, double x, double y,
                    WsRanksHit *hit)
{
  cairo_t *cr = ws_measure_context ();
  Layout l;

  layout (&l, cr, width, height, model, state->untitled, palette);
  cairo_destroy (cr);
  hit->row = hit->col = -1;
  if (x < l.x || y < l.y || x >= l.x + l.w || y >= l.y + l.h || model->n_rows == 0 ||
      model->n_cols == 0)
    return;
  hit->row = MIN ((gint) ((y - l.y) / l.row_h), (gint) model->n_rows - 1);
  hit->col = MIN ((gint) ((x - l.x) / l.col_w), (gint) model->n_cols - 1);
}

/* The pixels of a cell; %FALSE outside the model. */
gboolean
ws_ranks_chart_cell_rect (double width, double height, const WsRanksChartModel *model,
                          const WsRanksChartState *state, const WsPalette *palette, guint row,
                          guint col, cairo_rectangle_t *rect)
{
  cairo_t *cr;
  Layout l;

  if (row >= model->n_rows || col >= model->n_cols)
    return FALSE;
  cr = ws_measure_context ();
  layout (&l, cr, width, height, model, state->untitled, palette);
  cairo_destroy (cr);
  rect->x = l.x + col * l.col_w;
  rect->y = l.y + row * l.row_h;
  rect->width = l.col_w;
  rect->height = l.row_h;
  return TRUE;
}

typedef struct
{
  const WsRanksChartModel *model;
  WsRanksChartState state;
  const WsPalette *palette;
} RenderData;

static void
render (cairo_t *cr, double width, double height, gpointer data)
{
  RenderData *r = data;

  ws_ranks_chart_draw (cr, width, height, r->model, &r->state, r->palette);
}

/**
 * ws_ranks_chart_render_to_file:
 * @height: the height, or 0 for the natural height
 *
 * Draws the heatmap into a PNG, SVG or PDF file (by @path's extension).
 */
gboolean
ws_ranks_chart_render_to_file (const char *path, double width, double height,
                               const WsRanksChartModel *model, WsRanksMetric metric,
                               const WsPalette *palette, GError **error)
{
  RenderData data = { model, { 0 }, palette };

  ws_ranks_chart_state_init (&data.state);
  data.state.metric = metric;
  if (height <= 0)
    height = ws_ranks_chart_natural_height (model, width, FALSE, palette);
  return ws_render_to_file (path, width, height, render, &data, error);
}
