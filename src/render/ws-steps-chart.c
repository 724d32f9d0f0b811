/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-steps-chart"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-format.h"
#include "ws-steps-chart.h"
#include "ws-surface.h"
#include "ws-text.h"

/* Fixed margins, so that the widget can hit-test without a cairo
 * context: the title and legend above, the step numbers below. */
#define PAD 16.0
#define TOP 64.0
#define BOTTOM 44.0
#define LEFT 76.0

typedef struct
{
  double plot_x, plot_y, plot_w, plot_h;
  double slot;  /* px a step */
  double bar_w; /* px of its bar */
  double scale; /* ns at the top of the plot */
} Layout;

static gint64
steady_max_wall (const WsSteps *steps)
{
  gint64 max = 0, all = 0;

  for (guint i = 0; i < steps->steps->len; i++)
    {
      const WsStep *s = &g_array_index (steps->steps, WsStep, i);

      all = MAX (all, s->wall);
      if (!s->warmup)
        max = MAX (max, s->wall);
    }
  return max > 0 ? max : all;
}

static void
compute_layout (double width, double height, const WsSteps *steps, Layout *l)
{
  guint n = MAX (steps->steps->len, 1);

  l->plot_x = LEFT;
  l->plot_y = TOP;
  l->plot_w = MAX (width - LEFT - PAD, 10);
  l->plot_h = MAX (height - TOP - BOTTOM, 10);
  l->slot = l->plot_w / n;
  l->bar_w = MAX (1, floor (l->slot * 0.7));
  /* The steady steps fill the height; a warm-up step far longer is cut. */
  l->scale = MAX ((double) steady_max_wall (steps) * 1.15, 1);
}

static double
bar_x (const Layout *l, guint i)
{
  return round (l->plot_x + i * l->slot + (l->slot - l->bar_w) / 2);
}

/* A step of 1, 2 or 5 × 10^k ns that gives about five ticks. */
static double
tick_step (double scale)
{
  double raw = scale / 5, power = pow (10, floor (log10 (raw)));

  if (raw / power >= 5)
    return 5 * power;
  if (raw / power >= 2)
    return 2 * power;
  return power;
}

/**
 * ws_steps_chart_summary:
 *
 * "训练步 N: 6 steps, 1 warm-up; steady median 24.2 ms a step, the GPU
 * busy 20.7 ms of it (86%), 433 kernels": what the chart shows, in one
 * line.
 *
 * Returns: (transfer full): the line
 */
/* In a job, the rank whose steady median wall is the longest (its median
 * is the chart's line: a median over every rank's steps is no step's);
 * NULL outside a job. */
static const WsStepsRank *
slowest_rank (const WsSteps *steps)
{
  const WsStepsRank *slowest = NULL;

  if (steps->ranks == NULL || steps->ranks->len < 2)
    return NULL;
  for (guint i = 0; i < steps->ranks->len; i++)
    {
      const WsStepsRank *r = &g_array_index (steps->ranks, WsStepsRank, i);

      if (r->n_steady > 0 && (slowest == NULL || r->median.wall > slowest->median.wall))
        slowest = r;
    }
  return slowest;
}

/* "step N: 56 steps on 4 ranks, 8 warm-up; steady median 72.8–73.0 ms a
 * step by rank, the GPU busy 5.23–7.48 ms of it": a job's line gives the
 * range of the ranks' own medians. */
static char *
job_summary (const WsSteps *steps, const char *count, const char *warm)
{
  double wall_lo = G_MAXDOUBLE, wall_hi = 0, busy_lo = G_MAXDOUBLE, busy_hi = 0;
  g_autofree char *wall_a = NULL, *wall_b = NULL, *busy_a = NULL, *busy_b = NULL;

  for (guint i = 0; i < steps->ranks->len; i++)
    {
      const WsStepsRank *r = &g_array_index (steps->ranks, WsStepsRank, i);

      if (r->n_steady == 0)
        continue;
      wall_lo = MIN (wall_lo, r->median.wall);
      wall_hi = MAX (wall_hi, r->median.wall);
      busy_lo = MIN (busy_lo, r->median.gpu_busy);
      busy_hi = MAX (busy_hi, r->median.gpu_busy);
    }
  wall_a = ws_format_duration (wall_lo);
  wall_b = ws_format_duration (wall_hi);
  busy_a = ws_format_duration (busy_lo);
  busy_b = ws_format_duration (busy_hi);
  /* TRANSLATORS: "step N: 56 steps on 4 ranks, 8 warm-up; steady median 72.8–73.0 ms a step
   * by rank, the GPU busy 5.23–7.48 ms of it" */
  return g_strdup_printf (_ ("%s: %s on %u ranks, %s; steady median %s–%s a step by rank, the "
                             "GPU busy %s–%s of it"),
                          steps->pattern, count, steps->ranks->len, warm, wall_a, wall_b, busy_a,
                          busy_b);
}

char *
ws_steps_chart_summary (const WsSteps *steps)
{
  const WsStepMedians *m = &steps->median;
  g_autofree char *wall = ws_format_duration (m->wall);
  g_autofree char *busy = ws_format_duration (m->gpu_busy);
  g_autofree char *count = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%u step", "%u steps", steps->steps->len), steps->steps->len);
  g_autofree char *warm = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%u warm-up", "%u warm-up", steps->n_warmup), steps->n_warmup);

  if (steps->n_steady == 0)
    /* TRANSLATORS: "step N: 1 step, 0 warm-up" */
    return g_strdup_printf (_ ("%s: %s, %s"), steps->pattern, count, warm);
  if (slowest_rank (steps) != NULL)
    return job_summary (steps, count, warm);
  /* TRANSLATORS: "训练步 N: 6 steps, 1 warm-up; steady median 24.2 ms a step, the GPU busy
   * 20.7 ms of it (86%), 433 launches" (kernels, and CUDA graph replays counted once) */
  return g_strdup_printf (_ ("%s: %s, %s; steady median %s a step, the GPU busy %s of it "
                             "(%.0f%%), %.0f launches"),
                          steps->pattern, count, warm, wall, busy,
                          m->wall > 0 ? 100 * m->gpu_busy / m->wall : 0, m->launches);
}

static void
draw_hatch (cairo_t *cr, double x, double y, double w, double h, WsColor color)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  ws_color_set_alpha (cr, color, 0.55);
  cairo_set_line_width (cr, 1);
  for (double d = -h; d < w; d += 6)
    {
      cairo_move_to (cr, x + d, y + h);
      cairo_line_to (cr, x + d + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* The legend: a swatch and a word per part of a bar. */
static void
draw_legend (cairo_t *cr, PangoLayout *small, const WsPalette *palette, double x, double y)
{
  const struct
  {
    const char *label;
    WsColor color;
    gboolean hatched;
  } items[] = {
    { _ ("kernel running"), palette->bar, FALSE },
    { _ ("memory operation only"), palette->latency, FALSE },
    { _ ("GPU idle"), palette->grid, FALSE },
    { _ ("warm-up"), palette->bar, TRUE },
  };
  double sw = 10;

  for (gsize i = 0; i < G_N_ELEMENTS (items); i++)
    {
      ws_color_set_alpha (cr, items[i].color, items[i].hatched ? 0.45 : 1);
      cairo_rectangle (cr, x, y + 2, sw, sw);
      cairo_fill (cr);
      if (items[i].hatched)
        draw_hatch (cr, x, y + 2, sw, sw, palette->foreground);
      ws_color_set (cr, palette->dim);
      x += sw + 4 + ws_text_draw (cr, small, items[i].label, x + sw + 4, y, 0, WS_ALIGN_LEFT) + 14;
    }
}

static void
draw_axis (cairo_t *cr, PangoLayout *small, const Layout *l, const WsPalette *palette)
{
  double step = tick_step (l->scale);

  cairo_set_line_width (cr, 1);
  for (double t = 0; t <= l->scale; t += step)
    {
      double y = round (l->plot_y + l->plot_h - t / l->scale * l->plot_h) + 0.5;
      g_autofree char *label = ws_format_duration (t);

      ws_color_set (cr, palette->grid);
      cairo_move_to (cr, l->plot_x, y);
      cairo_line_to (cr, l->plot_x + l->plot_w, y);
      cairo_stroke (cr);
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, label, l->plot_x - 6, y - 7, 0, WS_ALIGN_RIGHT);
    }
}

/* One step's bar: kernel time at the bottom, then memory-only time, then
 * idle time; a bar taller than the plot is cut and says its length. */
static void
draw_bar (cairo_t *cr, PangoLayout *small, const Layout *l, const WsStep *s, guint i,
          const WsStepsState *state, const WsPalette *palette)
{
  double x = bar_x (l, i), base = l->plot_y + l->plot_h;
  double parts[3] = { (double) s->kernel, (double) s->memory, (double) MAX (s->idle, 0) };
  WsColor colors[3] = { palette->bar, palette->latency, palette->grid };
  double alpha = s->warmup ? 0.45 : 1;
  gboolean cut = (double) s->wall > l->scale;
  double y = base;

  cairo_save (cr);
  cairo_rectangle (cr, x, l->plot_y, l->bar_w, l->plot_h);
  cairo_clip (cr);
  for (int p = 0; p < 3; p++)
    {
      double h = parts[p] / l->scale * l->plot_h;

      ws_color_set_alpha (cr, colors[p], alpha);
      cairo_rectangle (cr, x, y - h, l->bar_w, h);
      cairo_fill (cr);
      y -= h;
    }
  cairo_restore (cr);
  if (s->warmup)
    draw_hatch (cr, x, MAX (y, l->plot_y), l->bar_w, base - MAX (y, l->plot_y),
                palette->foreground);
  if (cut)
    {
      double by = l->plot_y + 14;

      /* A break across the bar; draw_cut_lengths() says its real length. */
      ws_color_set (cr, palette->background);
      cairo_set_line_width (cr, 3);
      cairo_move_to (cr, x - 2, by + 4);
      cairo_line_to (cr, x + l->bar_w + 2, by - 4);
      cairo_stroke (cr);
    }
  if (state != NULL && ((int) i == state->selected || (int) i == state->hover))
    {
      double top = MAX (base - (double) s->wall / l->scale * l->plot_h, l->plot_y);

      ws_color_set_alpha (cr, palette->accent, (int) i == state->selected ? 1 : 0.6);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, x - 1, top - 1, l->bar_w + 2, base - top + 2);
      cairo_stroke (cr);
    }
}

/**
 * ws_steps_chart_space_labels:
 * @centers: the x of each label's centre, in ascending order
 * @widths: each label's width
 * @n: how many labels
 * @gap: the least room between two labels
 * @keep: (out caller-allocates) (array length=n): whether each is drawn
 *
 * Keeps a label only if it clears the last one kept by @gap: side by side,
 * the lengths of cut warm-up bars printed over each other
 * ("2.322.312.312.31 s"), and 25,000 steps an unreadable cluster of them.
 *
 * Returns: how many are kept
 */
guint
ws_steps_chart_space_labels (const double *centers, const double *widths, guint n, double gap,
                             gboolean *keep)
{
  double right = -G_MAXDOUBLE;
  guint kept = 0;

  for (guint i = 0; i < n; i++)
    {
      keep[i] = centers[i] - widths[i] / 2 >= right + gap;
      if (keep[i])
        {
          right = centers[i] + widths[i] / 2;
          kept++;
        }
    }
  return kept;
}

/* The real lengths of the cut bars above them, as many as fit. */
static void
draw_cut_lengths (cairo_t *cr, PangoLayout *small, const Layout *l, const WsSteps *steps,
                  const WsPalette *palette)
{
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) centers = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) widths = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree gboolean *keep = NULL;

  for (guint i = 0; i < steps->steps->len; i++)
    {
      const WsStep *s = &g_array_index (steps->steps, WsStep, i);
      double center = bar_x (l, i) + l->bar_w / 2, w = 0;
      char *wall;

      if ((double) s->wall <= l->scale)
        continue;
      wall = ws_format_duration ((double) s->wall);
      ws_text_size (small, wall, &w, NULL);
      g_ptr_array_add (texts, wall);
      g_array_append_val (centers, center);
      g_array_append_val (widths, w);
    }
  keep = g_new (gboolean, MAX (texts->len, 1));
  ws_steps_chart_space_labels ((const double *) (gpointer) centers->data,
                               (const double *) (gpointer) widths->data, texts->len, 6, keep);
  ws_color_set (cr, palette->foreground);
  for (guint i = 0; i < texts->len; i++)
    if (keep[i])
      ws_text_draw (cr, small, g_ptr_array_index (texts, i), g_array_index (centers, double, i),
                    l->plot_y - 16, 0, WS_ALIGN_CENTER);
}

/* Step numbers under the bars, as many as fit; "warm-up" under those
 * where there is room. */
static void
draw_labels (cairo_t *cr, PangoLayout *small, const Layout *l, const WsSteps *steps,
             const WsPalette *palette)
{
  double label_w = 0;
  guint every;

  {
    g_autofree char *widest =
      g_strdup_printf ("%u", g_array_index (steps->steps, WsStep, steps->steps->len - 1).number);

    ws_text_size (small, widest, &label_w, NULL);
  }
  every = (guint) MAX (1, ceil ((label_w + 8) / l->slot));
  for (guint i = 0; i < steps->steps->len; i += every)
    {
      const WsStep *s = &g_array_index (steps->steps, WsStep, i);
      g_autofree char *number = g_strdup_printf ("%u", s->number);
      double cx = bar_x (l, i) + l->bar_w / 2, y = l->plot_y + l->plot_h + 4;

      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, number, cx, y, 0, WS_ALIGN_CENTER);
      if (s->warmup && l->slot >= 56)
        ws_text_draw (cr, small, _ ("warm-up"), cx, y + 16, l->slot - 4, WS_ALIGN_CENTER);
    }
}

/**
 * ws_steps_chart_draw:
 * @state: (nullable): the step hovered and selected
 *
 * Draws @steps of @run into a @width × @height area.
 */
void
ws_steps_chart_draw (cairo_t *cr, double width, double height, const WsRun *run,
                     const WsSteps *steps, const WsStepsState *state, const WsPalette *palette)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, TRUE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  Layout l;

  g_return_if_fail (steps != NULL && palette != NULL);

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  if (steps->steps->len == 0)
    {
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, text,
                    _ ("No steps: no top-level NVTX ranges repeat with a counter (“step 0”, "
                       "“step 1”, …)."),
                    PAD, PAD, width - 2 * PAD, WS_ALIGN_LEFT);
      return;
    }

  compute_layout (width, height, steps, &l);
  {
    g_autofree char *summary = ws_steps_chart_summary (steps);

    ws_color_set (cr, palette->foreground);
    ws_text_draw (cr, text, summary, PAD, 8, width - 2 * PAD, WS_ALIGN_LEFT);
  }
  draw_legend (cr, small, palette, PAD, 30);
  draw_axis (cr, small, &l, palette);
  for (guint i = 0; i < steps->steps->len; i++)
    draw_bar (cr, small, &l, &g_array_index (steps->steps, WsStep, i), i, state, palette);
  draw_cut_lengths (cr, small, &l, steps, palette);
  if (steps->n_steady > 0)
    {
      const WsStepsRank *slowest = slowest_rank (steps);
      double median = slowest != NULL ? slowest->median.wall : steps->median.wall;
      double y = round (l.plot_y + l.plot_h - median / l.scale * l.plot_h) + 0.5;
      g_autofree char *wall = ws_format_duration (median);
      /* TRANSLATORS: the line of the steady steps' median wall time; in a job, of the
       * rank with the longest one */
      g_autofree char *label =
        slowest != NULL
          ? g_strdup_printf (_ ("median %s (rank %d, the slowest)"), wall, slowest->rank)
          : g_strdup_printf (_ ("median %s"), wall);
      static const double dash[] = { 5, 4 };

      ws_color_set_alpha (cr, palette->foreground, 0.7);
      cairo_set_line_width (cr, 1);
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
      cairo_move_to (cr, l.plot_x, y);
      cairo_line_to (cr, l.plot_x + l.plot_w, y);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      ws_text_draw (cr, small, label, l.plot_x + l.plot_w - 2, y - 16, 0, WS_ALIGN_RIGHT);
    }
  draw_labels (cr, small, &l, steps, palette);
}

/**
 * ws_steps_chart_hit:
 *
 * Returns: the step under (@x, @y), or -1
 */
int
ws_steps_chart_hit (double width, double height, const WsSteps *steps, double x, double y)
{
  Layout l;
  int i;

  if (steps == NULL || steps->steps->len == 0)
    return -1;
  compute_layout (width, height, steps, &l);
  if (x < l.plot_x || x >= l.plot_x + l.plot_w || y < l.plot_y - 20 ||
      y > l.plot_y + l.plot_h + BOTTOM)
    return -1;
  i = (int) floor ((x - l.plot_x) / l.slot);
  return i >= 0 && (guint) i < steps->steps->len ? i : -1;
}

/**
 * ws_steps_chart_tooltip:
 *
 * Returns: (transfer full): what step @step did, in a few lines
 */
char *
ws_steps_chart_tooltip (const WsRun *run, const WsSteps *steps, guint step)
{
  const WsStep *s;
  g_autofree char *wall = NULL, *busy = NULL, *kernel = NULL, *memory = NULL, *idle = NULL;
  g_autofree char *launched = NULL;
  GString *out;

  g_return_val_if_fail (steps != NULL && step < steps->steps->len, NULL);

  s = &g_array_index (steps->steps, WsStep, step);
  wall = ws_format_duration ((double) s->wall);
  busy = ws_format_duration ((double) s->gpu_busy);
  kernel = ws_format_duration ((double) s->kernel);
  memory = ws_format_duration ((double) s->memory);
  idle = ws_format_duration ((double) s->idle);
  launched = ws_format_duration ((double) s->gpu_launched);
  out = g_string_new (ws_run_string (run, s->name));
  g_string_append_printf (out, _ ("\nWall time %s"), wall);
  g_string_append_printf (out, _ ("\nGPU busy %s (%.0f%%): kernels %s, memory operations alone %s"),
                          busy, s->wall > 0 ? 100.0 * (double) s->gpu_busy / (double) s->wall : 0,
                          kernel, memory);
  g_string_append_printf (out, _ ("\nGPU idle %s"), idle);
  g_string_append_printf (
    out,
    g_dngettext (GETTEXT_PACKAGE, "\n%u launch (kernels, graph replays), %s of GPU work launched",
                 "\n%u launches (kernels, graph replays), %s of GPU work launched",
                 (gulong) s->launches),
    (guint) s->launches, launched);
  if (s->warmup)
    g_string_append (out, s->slow ? _ ("\nWarm-up: over twice the median of the other steps")
                                  : _ ("\nWarm-up: the first step"));
  return g_string_free (out, FALSE);
}

typedef struct
{
  const WsRun *run;
  const WsSteps *steps;
  const WsPalette *palette;
} Figure;

static void
draw_figure (cairo_t *cr, double width, double height, gpointer data)
{
  Figure *figure = data;

  ws_steps_chart_draw (cr, width, height, figure->run, figure->steps, NULL, figure->palette);
}

/**
 * ws_steps_chart_render_to_file:
 * @height: the image's height; 0 for a third of its width (at least 320)
 *
 * Draws the steps into @path (PNG, SVG or PDF by its extension).
 */
gboolean
ws_steps_chart_render_to_file (const char *path, double width, double height, const WsRun *run,
                               const WsSteps *steps, const WsPalette *palette, GError **error)
{
  Figure figure = { run, steps, palette };

  g_return_val_if_fail (path != NULL && steps != NULL && palette != NULL, FALSE);

  if (height <= 0)
    height = MAX (320, round (width / 3));
  return ws_render_to_file (path, width, height, draw_figure, &figure, error);
}
