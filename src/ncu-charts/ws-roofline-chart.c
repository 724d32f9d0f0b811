/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-roofline-chart"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-limits.h"
#include "ws-chart-title.h"
#include "ws-format.h"
#include "ws-ncu-match.h"
#include "ws-roofline-chart.h"
#include "ws-text.h"

static void
point_clear (gpointer data)
{
  WsRooflinePoint *p = data;

  g_free (p->label);
}

static WsRooflineModel *
model_new (void)
{
  WsRooflineModel *m = g_new0 (WsRooflineModel, 1);

  m->points = g_array_new (FALSE, TRUE, sizeof (WsRooflinePoint));
  g_array_set_clear_func (m->points, point_clear);
  for (int p = 0; p < WS_N_PRECISIONS; p++)
    m->peak[p] = NAN;
  for (int l = 0; l < WS_N_LEVELS; l++)
    m->bandwidth[l] = NAN;
  return m;
}

static void
take_ceilings (WsRooflineModel *m, const WsRoofline *r)
{
  for (int p = 0; p < WS_N_PRECISIONS; p++)
    m->peak[p] = r->peak[p].value;
  for (int l = 0; l < WS_N_LEVELS; l++)
    m->bandwidth[l] = r->bandwidth[l].value;
  m->tensor_source = r->tensor_source;
}

static gboolean
has_ceilings (const WsRoofline *r)
{
  return !isnan (r->bandwidth[WS_LEVEL_DRAM].value) && !isnan (r->peak[WS_PRECISION_FP32].value);
}

static gboolean
placeable (const WsRooflinePoint *p, int level)
{
  return p->flops > 0 && isfinite (p->flops) && p->intensity[level] > 0 &&
         isfinite (p->intensity[level]);
}

/**
 * ws_roofline_model_new_launch:
 *
 * Returns: (transfer full): the hierarchical roofline of @why's launch
 */
WsRooflineModel *
ws_roofline_model_new_launch (const WsNcuResults *results, const WsWhy *why)
{
  WsRooflineModel *m = model_new ();
  const WsRoofline *r = why->roofline;
  WsRooflinePoint point = { 0 };
  g_autofree char *name = ws_chart_launch_name (results, why->launch);

  take_ceilings (m, r);
  m->hierarchical = TRUE;
  point.label = g_strdup (name);
  point.flops = ws_roofline_flops (r);
  for (int l = 0; l < WS_N_LEVELS; l++)
    point.intensity[l] = ws_roofline_intensity (r, (WsMemoryLevel) l);
  point.kind = why->bottleneck.kind;
  point.launch = why->launch;
  m->unplaced = placeable (&point, WS_LEVEL_DRAM) ? 0 : 1;
  g_array_append_val (m->points, point);
  m->title = g_strdup (_ ("Roofline"));
  if (!isnan (point.flops))
    {
      g_autofree char *flops = ws_format_rate (point.flops, "FLOP/s");

      /* TRANSLATORS: "fma_heavy — 45.2 TFLOP/s; FLOPs per byte moved at L1, L2 and DRAM against the ceilings at the profiled clock" */
      m->subtitle = g_strdup_printf (_ ("%s — %s; FLOPs per byte moved at L1, L2 and DRAM against "
                                        "the ceilings at the profiled clock"),
                                     name, flops);
    }
  else
    m->subtitle = g_strdup (name);
  return m;
}

typedef struct
{
  guint launch;
  double longest; /* ns */
  double ncu_time;
  const char *nsys_name;
} KernelGroup;

/**
 * ws_roofline_model_new_run:
 *
 * A point per profiled kernel (its longest launch, against DRAM), sized
 * by the kernel's GPU time in the nsys run (the profiled launches' time
 * with ncu CSVs alone).
 *
 * Returns: (transfer full): the run's roofline
 */
WsRooflineModel *
ws_roofline_model_new_run (const WsRun *run)
{
  WsRooflineModel *m = model_new ();
  const WsNcuResults *ncu = run->ncu;
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GHashTable) nsys_time = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  gboolean ceilings = FALSE;

  m->title = g_strdup (_ ("Roofline of the profiled kernels"));
  m->subtitle =
    g_strdup (_ ("Each kernel's longest profiled launch against DRAM, sized by the kernel's GPU "
                 "time and coloured by its bottleneck"));
  if (ncu == NULL)
    return m;
  for (gsize k = 0; run->kernels.demangled != NULL && k < run->kernels.n; k++)
    {
      const char *name = ws_run_string (run, run->kernels.demangled[k]);
      double *t = g_hash_table_lookup (nsys_time, name);

      if (t == NULL)
        {
          t = g_new0 (double, 1);
          g_hash_table_insert (nsys_time, (gpointer) name, t);
        }
      *t += (double) (run->kernels.end[k] - run->kernels.start[k]);
    }
  for (guint i = 0; i < ws_ncu_results_n_launches (ncu); i++)
    {
      const WsNcuMatch *match = ws_ncu_results_match (ncu, i);
      const char *key = match != NULL && match->nsys_name != NULL
                          ? match->nsys_name
                          : ws_ncu_results_launch (ncu, i)->kernel;
      const WsGauge *d = &ws_ncu_results_gauges (ncu, i)->gauge[WS_GAUGE_DURATION];
      double duration = d->collected ? d->value : 0;
      KernelGroup *g = g_hash_table_lookup (groups, key);

      if (key == NULL)
        continue;
      if (g == NULL)
        {
          g = g_new0 (KernelGroup, 1);
          g->launch = i;
          g->longest = -1;
          g->nsys_name = match != NULL ? match->nsys_name : NULL;
          g_hash_table_insert (groups, (gpointer) key, g);
          g_ptr_array_add (order, g);
        }
      g->ncu_time = ws_time_add (g->ncu_time, duration);
      if (duration > g->longest)
        {
          g->longest = duration;
          g->launch = i;
        }
    }
  for (guint i = 0; i < order->len; i++)
    {
      const KernelGroup *g = g_ptr_array_index (order, i);
      g_autoptr (WsWhy) why = ws_why_compute (ncu, g->launch);
      double *t = g->nsys_name != NULL ? g_hash_table_lookup (nsys_time, g->nsys_name) : NULL;
      WsRooflinePoint point = { 0 };

      if (!ceilings && has_ceilings (why->roofline))
        {
          take_ceilings (m, why->roofline);
          ceilings = TRUE;
        }
      point.label = ws_chart_launch_name (ncu, g->launch);
      point.flops = ws_roofline_flops (why->roofline);
      for (int l = 0; l < WS_N_LEVELS; l++)
        point.intensity[l] = ws_roofline_intensity (why->roofline, (WsMemoryLevel) l);
      point.weight = t != NULL ? *t : g->ncu_time;
      point.kind = why->bottleneck.kind;
      point.launch = g->launch;
      if (!placeable (&point, WS_LEVEL_DRAM))
        m->unplaced++;
      g_array_append_val (m->points, point);
    }
  return m;
}

void
ws_roofline_model_free (WsRooflineModel *model)
{
  if (model == NULL)
    return;
  g_array_unref (model->points);
  g_free (model->title);
  g_free (model->subtitle);
  g_free (model);
}

/* ---- drawing -------------------------------------------------------- */

typedef struct
{
  double x0, y0, w, h;       /* the plot area */
  double lx0, lx1, ly0, ly1; /* log10 of the axes' ends */
} Axes;

static double
to_x (const Axes *a, double v)
{
  return a->x0 + (log10 (v) - a->lx0) / (a->lx1 - a->lx0) * a->w;
}

static double
to_y (const Axes *a, double v)
{
  return a->y0 + a->h - (log10 (v) - a->ly0) / (a->ly1 - a->ly0) * a->h;
}

static void
widen (double *lo, double *hi, double v)
{
  if (v > 0 && isfinite (v))
    {
      *lo = MIN (*lo, v);
      *hi = MAX (*hi, v);
    }
}

static double
top_peak (const WsRooflineModel *m)
{
  double top = NAN;

  for (int p = 0; p < WS_N_PRECISIONS; p++)
    if (m->peak[p] > 0 && (isnan (top) || m->peak[p] > top))
      top = m->peak[p];
  return top;
}

/* Decades that hold every ceiling, ridge and point, with room around. */
static void
axes_range (const WsRooflineModel *m, Axes *a)
{
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  double top = top_peak (m);

  for (int p = 0; p < WS_N_PRECISIONS; p++)
    {
      widen (&ylo, &yhi, m->peak[p]);
      for (int l = 0; l < WS_N_LEVELS; l++)
        widen (&xlo, &xhi, m->peak[p] / m->bandwidth[l]);
    }
  for (guint i = 0; i < m->points->len; i++)
    {
      const WsRooflinePoint *pt = &g_array_index (m->points, WsRooflinePoint, i);

      for (int l = 0; l < WS_N_LEVELS; l++)
        if (placeable (pt, l))
          {
            widen (&xlo, &xhi, pt->intensity[l]);
            widen (&ylo, &yhi, pt->flops);
          }
    }
  if (!isfinite (xlo))
    {
      xlo = 0.1;
      xhi = 100;
    }
  if (!isfinite (ylo))
    {
      ylo = 1e9;
      yhi = 1e14;
    }
  a->lx0 = floor (log10 (xlo)) - 1;
  a->lx1 = ceil (log10 (xhi)) + 1;
  a->ly1 = ceil (log10 (yhi) + 0.3);
  a->ly0 = floor (log10 (ylo)) - 1;
  /* The roof must show where it bends: at least three decades up. */
  if (!isnan (top))
    a->ly0 = MIN (a->ly0, a->ly1 - 3);
}

/* "1 TFLOP/s", "100 TFLOP/s": a power of ten with an SI prefix. */
static char *
decade_label (double exponent, const char *unit)
{
  static const char prefixes[] = " kMGTPEZ";
  int e = (int) round (exponent);
  int group = CLAMP (e / 3, 0, (int) sizeof prefixes - 2);
  double mantissa = pow (10, e - 3 * group);

  if (e < 0)
    return g_strdup_printf ("%g %s", pow (10, e), unit);
  if (group == 0)
    return g_strdup_printf ("%.0f %s", mantissa, unit);
  return g_strdup_printf ("%.0f %c%s", mantissa, prefixes[group], unit);
}

/* "0.01", "1", "1000", "10⁴": a power of ten on the intensity axis. */
static char *
intensity_label (double exponent)
{
  static const char *const superscripts[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
  int e = (int) round (exponent);

  if (e >= 0 && e <= 3)
    return g_strdup_printf ("%.0f", pow (10, e));
  if (e < 0 && e >= -3)
    return ws_format_fixed_string (pow (10, e), -e);
  if (e > 0 && e <= 9)
    return g_strdup_printf ("10%s", superscripts[e]);
  return g_strdup_printf ("1e%d", e);
}

static void
draw_grid (cairo_t *cr, const Axes *a, const WsPalette *palette, PangoLayout *small)
{
  cairo_set_line_width (cr, 1);
  for (double e = a->lx0; e <= a->lx1 + 1e-9; e++)
    {
      double x = round (to_x (a, pow (10, e))) + 0.5;
      g_autofree char *label = NULL;

      ws_color_set (cr, palette->grid);
      cairo_move_to (cr, x, a->y0);
      cairo_line_to (cr, x, a->y0 + a->h);
      cairo_stroke (cr);
      label = intensity_label (e);
      ws_color_set (cr, palette->dim);
      /* The last label ends at the axis's end rather than past the image. */
      ws_text_draw (cr, small, label, x, a->y0 + a->h + 4, 0,
                    e >= a->lx1 - 1e-9 ? WS_ALIGN_RIGHT : WS_ALIGN_CENTER);
    }
  for (double e = a->ly0; e <= a->ly1 + 1e-9; e++)
    {
      double y = round (to_y (a, pow (10, e))) + 0.5;
      g_autofree char *label = decade_label (e, "FLOP/s");

      ws_color_set (cr, palette->grid);
      cairo_move_to (cr, a->x0, y);
      cairo_line_to (cr, a->x0 + a->w, y);
      cairo_stroke (cr);
      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, label, a->x0 - 6, y - ws_text_line_height (small) / 2, 0,
                    WS_ALIGN_RIGHT);
    }
}

static void
draw_ceilings (cairo_t *cr, const WsRooflineModel *m, const Axes *a, const WsPalette *palette,
               PangoLayout *small)
{
  double top = top_peak (m);
  double xmax = pow (10, a->lx1), xmin = pow (10, a->lx0);
  double lh = ws_text_line_height (small);

  cairo_save (cr);
  cairo_rectangle (cr, a->x0, a->y0, a->w, a->h);
  cairo_clip (cr);
  /* Bandwidth diagonals: y = bandwidth × intensity, up to the top ceiling. */
  for (int l = WS_N_LEVELS - 1; l >= 0; l--)
    {
      double bw = m->bandwidth[l];
      double ridge;
      g_autofree char *rate = NULL;
      g_autofree char *label = NULL;
      double lx, ly;

      if (!(bw > 0) || isnan (top))
        continue;
      ridge = top / bw;
      ws_color_set (cr, l == WS_LEVEL_DRAM ? palette->foreground : palette->dim);
      cairo_set_line_width (cr, l == WS_LEVEL_DRAM ? 2 : 1.2);
      if (l != WS_LEVEL_DRAM)
        cairo_set_dash (cr, (double[]){ 6, 4 }, 2, 0);
      else
        cairo_set_dash (cr, NULL, 0, 0);
      cairo_move_to (cr, to_x (a, xmin), to_y (a, bw * xmin));
      cairo_line_to (cr, to_x (a, ridge), to_y (a, top));
      cairo_stroke (cr);
      rate = ws_format_rate (bw, "B/s");
      label = g_strdup_printf ("%s %s", ws_memory_level_label ((WsMemoryLevel) l), rate);
      /* Along its line, a decade and a bit under the top ceiling: the
       * lines are parallel, so the labels stand apart. */
      ly = top / pow (10, 1.3);
      lx = ly / bw;
      if (lx < xmin * 1.5)
        {
          lx = xmin * 1.5;
          ly = bw * lx;
        }
      {
        double angle = -atan2 (a->h / (a->ly1 - a->ly0), a->w / (a->lx1 - a->lx0));

        cairo_save (cr);
        cairo_translate (cr, to_x (a, lx), to_y (a, ly));
        cairo_rotate (cr, angle);
        ws_text_draw (cr, small, label, 4, -lh - 1, 0, WS_ALIGN_LEFT);
        cairo_restore (cr);
      }
    }
  cairo_set_dash (cr, NULL, 0, 0);
  /* Compute ceilings: flat from where they meet the DRAM diagonal. */
  for (int p = 0; p < WS_N_PRECISIONS; p++)
    {
      double peak = m->peak[p];
      double from = m->bandwidth[WS_LEVEL_DRAM] > 0 ? peak / m->bandwidth[WS_LEVEL_DRAM] : xmin;
      g_autofree char *rate = NULL;
      g_autofree char *label = NULL;

      if (!(peak > 0))
        continue;
      ws_color_set (cr, p == WS_PRECISION_TENSOR ? palette->compute : palette->foreground);
      cairo_set_line_width (cr, p == WS_PRECISION_TENSOR || peak == top ? 2 : 1.2);
      cairo_move_to (cr, to_x (a, MAX (from, xmin)), to_y (a, peak));
      cairo_line_to (cr, to_x (a, xmax), to_y (a, peak));
      cairo_stroke (cr);
      rate = ws_format_rate (peak, "FLOP/s");
      if (p == WS_PRECISION_TENSOR && m->tensor_source != NULL)
        {
          g_autofree char *type = g_strdup (m->tensor_source);

          if (strchr (type, '_') != NULL)
            *strchr (type, '_') = '\0';
          label = g_strdup_printf ("%s (%s) %s", ws_precision_label ((WsPrecision) p), type, rate);
        }
      else
        label = g_strdup_printf ("%s %s", ws_precision_label ((WsPrecision) p), rate);
      ws_text_draw (cr, small, label, a->x0 + a->w - 4, to_y (a, peak) - lh - 1, 0, WS_ALIGN_RIGHT);
    }
  cairo_restore (cr);
}

static void
marker (cairo_t *cr, int level, double x, double y, double r)
{
  if (level == WS_LEVEL_L2)
    cairo_rectangle (cr, x - r, y - r, 2 * r, 2 * r);
  else if (level == WS_LEVEL_L1)
    {
      cairo_move_to (cr, x, y - r * 1.2);
      cairo_line_to (cr, x + r * 1.1, y + r * 0.8);
      cairo_line_to (cr, x - r * 1.1, y + r * 0.8);
      cairo_close_path (cr);
    }
  else
    cairo_arc (cr, x, y, r, 0, 2 * G_PI);
}

static void
draw_hierarchy (cairo_t *cr, const WsRooflinePoint *pt, const Axes *a, const WsPalette *palette,
                PangoLayout *small, double r)
{
  WsColor color = ws_bottleneck_color (palette, pt->kind);
  gboolean first = TRUE;

  ws_color_set (cr, color);
  cairo_set_line_width (cr, 1.5);
  for (int l = 0; l < WS_N_LEVELS; l++)
    if (placeable (pt, l))
      {
        if (first)
          cairo_move_to (cr, to_x (a, pt->intensity[l]), to_y (a, pt->flops));
        else
          cairo_line_to (cr, to_x (a, pt->intensity[l]), to_y (a, pt->flops));
        first = FALSE;
      }
  cairo_stroke (cr);
  for (int l = 0; l < WS_N_LEVELS; l++)
    if (placeable (pt, l))
      {
        double x = to_x (a, pt->intensity[l]), y = to_y (a, pt->flops);
        g_autofree char *ai =
          ws_format_fixed_string (pt->intensity[l], pt->intensity[l] >= 100 ? 0
                                                    : pt->intensity[l] >= 1 ? 1
                                                                            : 3);
        g_autofree char *label =
          g_strdup_printf ("%s %s", ws_memory_level_label ((WsMemoryLevel) l), ai);

        ws_color_set (cr, color);
        marker (cr, l, x, y, r);
        cairo_fill_preserve (cr);
        ws_color_set (cr, palette->background);
        cairo_set_line_width (cr, 1);
        cairo_stroke (cr);
        ws_color_set (cr, palette->foreground);
        ws_text_draw (cr, small, label, x, y + r + 3, 0, WS_ALIGN_CENTER);
      }
}

static int
compare_weight (gconstpointer a, gconstpointer b)
{
  const WsRooflinePoint *x = *(WsRooflinePoint *const *) a, *y = *(WsRooflinePoint *const *) b;

  return x->weight != y->weight ? (x->weight > y->weight ? -1 : 1) : 0;
}

static void
draw_run_points (cairo_t *cr, const WsRooflineModel *m, const Axes *a, const WsPalette *palette,
                 PangoLayout *small, double unit)
{
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  double most = 0;

  for (guint i = 0; i < m->points->len; i++)
    {
      WsRooflinePoint *pt = &g_array_index (m->points, WsRooflinePoint, i);

      if (placeable (pt, WS_LEVEL_DRAM))
        {
          g_ptr_array_add (order, pt);
          most = MAX (most, pt->weight);
        }
    }
  /* Largest first, so that small points stay visible on top. */
  g_ptr_array_sort (order, compare_weight);
  for (guint i = 0; i < order->len; i++)
    {
      const WsRooflinePoint *pt = g_ptr_array_index (order, i);
      double r = unit * (0.4 + 1.6 * (most > 0 ? sqrt (pt->weight / most) : 0));
      double x = to_x (a, pt->intensity[WS_LEVEL_DRAM]), y = to_y (a, pt->flops);

      ws_color_set_alpha (cr, ws_bottleneck_color (palette, pt->kind), 0.75);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      cairo_fill_preserve (cr);
      ws_color_set (cr, palette->background);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
  /* Names of the five largest: right of the point, or left of it near the
   * edge, moved down until they overlap no other name. */
  {
    cairo_rectangle_t placed[5];
    double lh = ws_text_line_height (small);
    guint n_placed = 0;

    for (guint i = 0; i < MIN (order->len, 5u); i++)
      {
        const WsRooflinePoint *pt = g_ptr_array_index (order, i);
        double r = unit * (0.4 + 1.6 * (most > 0 ? sqrt (pt->weight / most) : 0));
        double px = to_x (a, pt->intensity[WS_LEVEL_DRAM]), py = to_y (a, pt->flops);
        double max_w = a->w * 0.35, w;
        cairo_rectangle_t box;
        gboolean clear = FALSE;

        ws_text_size (small, pt->label, &w, NULL);
        w = MIN (w, max_w);
        box.width = w;
        box.height = lh;
        box.x = px + r + 3 + w <= a->x0 + a->w ? px + r + 3 : px - r - 3 - w;
        box.y = py - lh / 2;
        for (int tries = 0; tries < 8 && !clear; tries++)
          {
            clear = TRUE;
            for (guint j = 0; j < n_placed; j++)
              if (box.x < placed[j].x + placed[j].width && placed[j].x < box.x + box.width &&
                  box.y < placed[j].y + placed[j].height && placed[j].y < box.y + box.height)
                {
                  box.y = placed[j].y + placed[j].height + 1;
                  clear = FALSE;
                }
          }
        placed[n_placed++] = box;
        /* A halo keeps the name readable over the lines. */
        ws_color_set_alpha (cr, palette->background, 0.8);
        cairo_rectangle (cr, box.x - 2, box.y, box.width + 4, box.height);
        cairo_fill (cr);
        ws_color_set (cr, palette->foreground);
        ws_text_draw (cr, small, pt->label, box.x, box.y, max_w, WS_ALIGN_LEFT);
      }
  }
}

static void
draw_legend (cairo_t *cr, const WsRooflineModel *m, double x, double y, double width,
             const WsPalette *palette, PangoLayout *small)
{
  double lh = ws_text_line_height (small);
  double start = x;

  if (m->hierarchical)
    for (int l = 0; l < WS_N_LEVELS; l++)
      {
        ws_color_set (cr, palette->foreground);
        marker (cr, l, x + lh / 2, y + lh / 2, lh / 3);
        cairo_fill (cr);
        x += lh + 2;
        x += ws_text_draw (cr, small, ws_memory_level_label ((WsMemoryLevel) l), x, y, 0,
                           WS_ALIGN_LEFT) +
             lh;
      }
  else
    for (int k = WS_BOTTLENECK_COMPUTE; k < WS_N_BOTTLENECKS; k++)
      {
        ws_color_set (cr, ws_bottleneck_color (palette, (WsBottleneckKind) k));
        cairo_arc (cr, x + lh / 2, y + lh / 2, lh / 3, 0, 2 * G_PI);
        cairo_fill (cr);
        x += lh + 2;
        ws_color_set (cr, palette->foreground);
        x += ws_text_draw (cr, small, ws_bottleneck_label ((WsBottleneckKind) k), x, y, 0,
                           WS_ALIGN_LEFT) +
             lh;
      }
  if (m->unplaced > 0)
    {
      g_autofree char *note = g_strdup_printf (
        g_dngettext (
          GETTEXT_PACKAGE, "%u kernel without floating-point work or traffic is not placed",
          "%u kernels without floating-point work or traffic are not placed", m->unplaced),
        m->unplaced);

      ws_color_set (cr, palette->dim);
      ws_text_draw (cr, small, note, start, y + lh + 4, MAX (0, width - start), WS_ALIGN_LEFT);
    }
}

/**
 * ws_roofline_chart_draw:
 *
 * Draws @model: log axes, the bandwidth diagonals (DRAM solid, L2 and L1
 * dashed) up to the top ceiling, the compute ceilings from where they
 * meet DRAM's, and the points.
 */
void
ws_roofline_chart_draw (cairo_t *cr, double width, double height, const WsRooflineModel *model,
                        const WsPalette *palette)
{
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.85, FALSE);
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);
  double pad = ws_chart_pad (cr, palette);
  double lh = ws_text_line_height (small);
  double top, label_w;
  Axes a;

  ws_color_set (cr, palette->background);
  cairo_paint (cr);
  top = ws_chart_title_draw (cr, width, palette, model->title, model->subtitle);
  axes_range (model, &a);
  {
    g_autofree char *widest = decade_label (a.ly0, "FLOP/s");

    ws_text_size (small, widest, &label_w, NULL);
    label_w = MAX (label_w, 60);
  }
  a.x0 = pad + label_w + 8;
  a.y0 = top + lh;
  a.w = MAX (100, width - a.x0 - pad);
  a.h = MAX (100, height - a.y0 - 4 * lh - 2 * pad);

  if (isnan (top_peak (model)) && model->unplaced == model->points->len)
    {
      ws_color_set (cr, palette->dim);
      ws_text_draw_wrapped (cr, text,
                            _ ("Roofline metrics not collected: profile with --set full (or "
                               "--section SpeedOfLight_RooflineChart) and export the raw page."),
                            pad, top, width - 2 * pad);
      return;
    }
  draw_grid (cr, &a, palette, small);
  ws_color_set (cr, palette->dim);
  ws_text_draw (cr, small, _ ("FLOPs per byte"), a.x0 + a.w, a.y0 + a.h + lh + 6, 0,
                WS_ALIGN_RIGHT);
  draw_ceilings (cr, model, &a, palette, small);

  cairo_save (cr);
  cairo_rectangle (cr, a.x0, a.y0 - lh, a.w, a.h + lh);
  cairo_clip (cr);
  if (model->hierarchical)
    for (guint i = 0; i < model->points->len; i++)
      draw_hierarchy (cr, &g_array_index (model->points, WsRooflinePoint, i), &a, palette, small,
                      MAX (4, lh * 0.4));
  else
    draw_run_points (cr, model, &a, palette, small, MAX (4, lh * 0.6));
  cairo_restore (cr);
  draw_legend (cr, model, pad, a.y0 + a.h + 2 * lh + 8, width - pad, palette, small);
}
