/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-markdown"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-bars-chart.h"
#include "ws-format.h"
#include "ws-markdown-why.h"
#include "ws-ncu-match.h"
#include "ws-range-bottleneck-project.h"
#include "ws-range-bottleneck-table.h"
#include "ws-surface.h"
#include "ws-table-writer.h"
#include "ws-why-chart.h"

/* The report's "Why the kernels are slow": the run's roofline, then for
 * each profiled kernel (its longest launch) the sharper verdict,
 * occupancy, hints and its stall, roofline and memory charts; then the
 * bottleneck of each NVTX range. */

#define FIGURE_WIDTH 1200

typedef struct
{
  const WsNcuResults *results;
  const WsWhy *why;
  const WsRooflineModel *roofline;
  WsWhyChart chart;
  WsPalette palette;
} Figure;

static void
draw (cairo_t *cr, double width, double height, gpointer data)
{
  Figure *f = data;

  ws_why_chart_draw (cr, width, height, f->chart, f->results, f->why, f->roofline, &f->palette);
}

/* Renders one figure to figs/@name and links it. */
static gboolean
figure (GString *out, Figure *f, const char *figs, const char *name, const char *alt,
        GError **error)
{
  g_autofree char *path = g_build_filename (figs, name, NULL);
  cairo_t *cr = ws_measure_context ();
  double height =
    ws_why_chart_natural_height (cr, FIGURE_WIDTH, f->chart, f->results, f->why, &f->palette);

  cairo_destroy (cr);
  if (!ws_render_to_file (path, FIGURE_WIDTH, ceil (height), draw, f, error))
    return FALSE;
  g_string_append_printf (out, "![%s](figs/%s)\n\n", alt, name);
  return TRUE;
}

static void
append_text (GString *out, const WsNcuResults *results, const WsWhy *why)
{
  const WsBottleneck *b = &why->bottleneck;
  g_autofree char *headline = ws_bottleneck_headline (b);
  double flops = ws_roofline_flops (why->roofline);

  g_string_append_printf (out, "- **%s** — %s\n", headline, b->reason);
  if (!isnan (flops))
    {
      g_autofree char *rate = ws_format_rate (flops, "FLOP/s");

      g_string_append_printf (out, "- %s %s", _ ("Roofline:"), rate);
      for (int l = 0; l < WS_N_LEVELS; l++)
        {
          double ai = ws_roofline_intensity (why->roofline, (WsMemoryLevel) l);
          g_autofree char *v = NULL;

          if (!isfinite (ai))
            continue;
          v = ws_format_fixed_string (ai, ai >= 100 ? 0 : 2);
          g_string_append_printf (out, ", %s %s", ws_memory_level_label ((WsMemoryLevel) l), v);
        }
      g_string_append_printf (out, " %s\n", _ ("FLOPs per byte"));
    }
  if (why->occupancy.text != NULL)
    g_string_append_printf (out, "- %s %s\n", _ ("Occupancy:"), why->occupancy.text);
  for (guint i = 0; i < why->hints->len; i++)
    {
      const WsHint *h = g_ptr_array_index (why->hints, i);

      g_string_append_printf (out, "- %s **%s**: %s. %s\n", _ ("Hint:"), h->title, h->evidence,
                              h->fix);
    }
  g_string_append_c (out, '\n');
}

/* The longest launch of each profiled kernel, longest first, at most @top. */
static GArray *
kernels_to_show (const WsNcuResults *ncu, guint top)
{
  g_autoptr (GHashTable) best = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *launches = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < ws_ncu_results_n_launches (ncu); i++)
    {
      const WsNcuMatch *m = ws_ncu_results_match (ncu, i);
      const char *name =
        m != NULL && m->nsys_name != NULL ? m->nsys_name : ws_ncu_results_launch (ncu, i)->kernel;
      gpointer found;
      const WsGauge *d = &ws_ncu_results_gauges (ncu, i)->gauge[WS_GAUGE_DURATION];

      if (name == NULL)
        continue;
      if (g_hash_table_lookup_extended (best, name, NULL, &found))
        {
          const WsGauge *old =
            &ws_ncu_results_gauges (ncu, GPOINTER_TO_UINT (found))->gauge[WS_GAUGE_DURATION];

          if (!d->collected || (old->collected && old->value >= d->value))
            continue;
        }
      g_hash_table_insert (best, (gpointer) name, GUINT_TO_POINTER (i));
    }
  g_hash_table_iter_init (&iter, best);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint i = GPOINTER_TO_UINT (value);

      g_array_append_val (launches, i);
    }
  /* Longest first, as the Gauges page lists them. */
  for (guint a = 1; a < launches->len; a++)
    for (guint b = a; b > 0; b--)
      {
        guint x = g_array_index (launches, guint, b - 1), y = g_array_index (launches, guint, b);
        const WsGauge *dx = &ws_ncu_results_gauges (ncu, x)->gauge[WS_GAUGE_DURATION];
        const WsGauge *dy = &ws_ncu_results_gauges (ncu, y)->gauge[WS_GAUGE_DURATION];

        if ((dx->collected ? dx->value : 0) >= (dy->collected ? dy->value : 0))
          break;
        g_array_index (launches, guint, b - 1) = y;
        g_array_index (launches, guint, b) = x;
      }
  if (top > 0 && launches->len > top)
    g_array_set_size (launches, top);
  return launches;
}

static void
append_rollup (GString *out, const WsRun *run, guint top)
{
  g_autoptr (WsNvtxKernels) nvtx_kernels = NULL;
  g_autoptr (GArray) rows = NULL;

  if (run->nvtx.n == 0 || run->kernels.n == 0)
    return;
  nvtx_kernels = ws_nvtx_kernels_new (run);
  rows = ws_range_bottleneck_project (run, nvtx_kernels);
  g_string_append_printf (out, "\n### %s\n\n%s\n\n", _ ("Bottleneck by NVTX range"),
                          _ ("Each range's GPU time split by the bottleneck of its kernels (a "
                             "profiled launch stands for every launch of its kernel with the same "
                             "grid and block)."));
  ws_range_bottleneck_table_write (rows, WS_FORMAT_MARKDOWN, top, 0, out);
}

/**
 * ws_markdown_why_append:
 * @top: kernels and ranges shown at most
 *
 * Appends the report's section on why the kernels are slow, with its
 * figures in @figs named after @base.
 */
gboolean
ws_markdown_why_append (GString *out, const WsRun *run, const char *figs, const char *base,
                        guint top, GError **error)
{
  const WsNcuResults *ncu = run->ncu;
  g_autoptr (GArray) launches = NULL;
  Figure f = { 0 };

  if (ncu == NULL || ws_ncu_results_n_launches (ncu) == 0)
    return TRUE;
  ws_palette_init_light (&f.palette);
  f.results = ncu;
  g_string_append_printf (out, "\n## %s\n\n", _ ("Why the kernels are slow"));
  {
    g_autoptr (WsRooflineModel) model = ws_roofline_model_new_run (run);
    g_autofree char *name = g_strdup_printf ("%s_roofline.png", base);

    f.roofline = model;
    f.chart = WS_WHY_CHART_ROOFLINE_RUN;
    if (!figure (out, &f, figs, name, _ ("Roofline of the profiled kernels"), error))
      return FALSE;
    f.roofline = NULL;
  }

  launches = kernels_to_show (ncu, top);
  for (guint k = 0; k < launches->len; k++)
    {
      guint launch = g_array_index (launches, guint, k);
      g_autoptr (WsWhy) why = ws_why_compute (ncu, launch);
      g_autoptr (WsRooflineModel) roofline = ws_roofline_model_new_launch (ncu, why);
      const char *kernel = ws_ncu_results_launch (ncu, launch)->kernel;
      static const struct
      {
        WsWhyChart chart;
        const char *name;
      } charts[] = { { WS_WHY_CHART_STALLS, "stalls" },
                     { WS_WHY_CHART_ROOFLINE, "roofline" },
                     { WS_WHY_CHART_MEMORY, "memory" } };

      g_string_append_printf (out, "### %u. ", k + 1);
      ws_markdown_append_cell (out, kernel != NULL ? kernel : "");
      g_string_append_printf (out, " (%s %u)\n\n", _ ("launch"), launch);
      append_text (out, ncu, why);
      f.why = why;
      for (gsize c = 0; c < G_N_ELEMENTS (charts); c++)
        {
          g_autofree char *name =
            g_strdup_printf ("%s_launch%u_%s.png", base, launch, charts[c].name);

          f.chart = charts[c].chart;
          f.roofline = charts[c].chart == WS_WHY_CHART_ROOFLINE ? roofline : NULL;
          if (!figure (out, &f, figs, name, charts[c].name, error))
            return FALSE;
        }
    }
  append_rollup (out, run, top);
  return TRUE;
}
