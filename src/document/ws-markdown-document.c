/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-markdown"
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ws-atomic-file.h"
#include "ws-bars-chart.h"
#include "ws-findings-output.h"
#include "ws-findings.h"
#include "ws-format.h"
#include "ws-gauges-overview.h"
#include "ws-gauges-table.h"
#include "ws-kernel-name.h"
#include "ws-markdown-document.h"
#include "ws-markdown-why.h"
#include "ws-ncu-match.h"
#include "ws-summary-table.h"
#include "ws-surface.h"

typedef struct
{
  WsGaugesOverview *overview;
  WsPalette palette;
} GaugesFigure;

static void
draw_gauges (cairo_t *cr, double width, double height, gpointer data)
{
  GaugesFigure *figure = data;

  ws_gauges_overview_draw (cr, width, height, figure->overview, NULL, &figure->palette);
}

static WsVerdict
ncu_verdict (const char *kernel_name, gpointer data)
{
  return ws_ncu_match_verdict_for (data, kernel_name);
}

/* The gauges overview of every profiled launch as figs/BASE_gauges.png,
 * then the table of gauges and the verdicts with their reasons. */
static gboolean
append_gauges (GString *out, const WsRun *run, const char *figs, const char *base, GError **error)
{
  g_autofree char *name = g_strdup_printf ("%s_gauges.png", base);
  g_autofree char *path = g_build_filename (figs, name, NULL);
  GaugesFigure figure = { 0 };
  cairo_t *cr = ws_measure_context ();
  double height;
  gboolean ok;

  figure.overview = ws_gauges_overview_new (run->ncu, WS_GAUGE_DURATION);
  ws_palette_init_light (&figure.palette);
  height = ceil (ws_gauges_overview_natural_height (cr, 1200, figure.overview, &figure.palette));
  cairo_destroy (cr);
  ok = ws_render_to_file (path, 1200, height, draw_gauges, &figure, error);
  ws_gauges_overview_free (figure.overview);
  if (!ok)
    return FALSE;

  g_string_append_printf (out, "\n## %s\n\n![%s](figs/%s)\n\n",
                          _ ("Gauges and bottleneck verdicts"),
                          _ ("Gauges of each profiled launch"), name);
  ws_gauges_table_write (run, WS_FORMAT_MARKDOWN, 0, out);
  return TRUE;
}

static void
append_findings (GString *out, const WsRun *run)
{
  g_autoptr (GPtrArray) findings = NULL;

  if (run->kernels.n == 0 && run->api.n == 0 && run->memops.n == 0)
    return; /* a run without events (CSVs only): no check can run */
  findings = ws_findings_compute (run);
  g_string_append_printf (out, "\n## %s\n\n", _ ("Findings"));
  ws_findings_write_markdown (findings, out);
}

static gboolean
make_folder (const char *folder, GError **error)
{
  int saved;

  if (g_mkdir_with_parents (folder, 0755) == 0)
    return TRUE;
  saved = errno;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", folder,
               g_strerror (saved));
  return FALSE;
}

static void
append_provenance (GString *out, const WsRun *run)
{
  const WsProvenance *prov = &run->prov;

  g_string_append_printf (out, "- %s ", _ ("Files:"));
  for (guint i = 0; i < prov->files->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (prov->files, i));

      g_string_append_printf (out, "%s`%s`", i > 0 ? ", " : "", base);
    }
  g_string_append_c (out, '\n');
  if (prov->nsys_version != NULL)
    g_string_append_printf (out, "- %s %s (%s %s)\n", _ ("Nsight Systems"), prov->nsys_version,
                            _ ("schema"),
                            prov->schema_version != NULL ? prov->schema_version : "?");
  for (guint i = 0; i < prov->gpus->len; i++)
    {
      const WsGpu *gpu = &g_array_index (prov->gpus, WsGpu, i);

      g_string_append_printf (out, "- GPU %d: %s (sm_%d%d, %d SMs)\n", gpu->id,
                              gpu->name != NULL ? gpu->name : "?", gpu->cc_major, gpu->cc_minor,
                              gpu->sm_count);
    }
  if (prov->host != NULL)
    g_string_append_printf (out, "- %s %s\n", _ ("Host:"), prov->host);
  if (prov->capture_command != NULL)
    g_string_append_printf (out, "- %s `%s`\n", _ ("Command:"), prov->capture_command);
}

static void
append_totals (GString *out, const WsRun *run)
{
  static const struct
  {
    WsSummaryKind kind;
    const char *label;
  } parts[] = {
    { WS_SUMMARY_KERN_SUM, N_ ("GPU time in kernels") },
    { WS_SUMMARY_MEM_TIME_SUM, N_ ("GPU time in memory operations") },
    { WS_SUMMARY_API_SUM, N_ ("CPU time in CUDA API calls") },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_autoptr (WsSummary) summary = ws_stats_summary (run, parts[i].kind, WS_NAME_DEMANGLED);
      g_autofree char *total = NULL;
      gint64 count = 0;

      if (summary == NULL)
        continue;
      for (guint r = 0; r < summary->rows->len; r++)
        count += g_array_index (summary->rows, WsSummaryRow, r).count;
      total = ws_format_duration ((double) summary->grand_total);
      g_string_append_printf (out, "- %s: **%s** (%" G_GINT64_FORMAT " %s, %u %s)\n",
                              _ (parts[i].label), total, count, _ ("calls or launches"),
                              summary->rows->len, _ ("names"));
    }
}

static void
append_top_kernels (GString *out, const WsRun *run, const WsBarsModel *model)
{
  g_string_append_printf (out, "| # | %s | %s | %s | %s | %s | %s | %s | %s |\n", _ ("Kernel"),
                          _ ("Total"), _ ("Share"), _ ("Instances"), _ ("Avg"), _ ("Med"),
                          _ ("Min"), _ ("Max"));
  g_string_append (out, "|---:|:---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (guint i = 0; i < model->bars->len; i++)
    {
      const WsBar *bar = ws_bars_model_get (model, i);
      g_autofree char *total = ws_format_duration ((double) bar->total);
      g_autofree char *avg = ws_format_duration (bar->avg);
      g_autofree char *med = ws_format_duration (bar->med);
      g_autofree char *min = ws_format_duration ((double) bar->min);
      g_autofree char *max = ws_format_duration ((double) bar->max);
      g_autofree char *share = ws_format_fixed_string (bar->share, 1);

      if (bar->is_other)
        continue;
      g_string_append_printf (out, "| %u | ", i + 1);
      ws_markdown_append_cell (out, bar->label);
      g_string_append_printf (out, " | %s | %s%% | %" G_GINT64_FORMAT " | %s | %s | %s | %s |\n",
                              total, share, bar->count, avg, med, min, max);
    }
}

static void
append_summary_table (GString *out, const WsRun *run, WsSummaryKind kind, const char *title,
                      guint top)
{
  g_autoptr (WsSummary) summary = ws_stats_summary (run, kind, WS_NAME_DEMANGLED);
  g_autoptr (WsSummary) shown = NULL;

  if (summary == NULL)
    return;
  shown = ws_summary_new (kind);
  for (guint i = 0; i < summary->rows->len && i < top; i++)
    {
      WsSummaryRow row = g_array_index (summary->rows, WsSummaryRow, i);

      row.name = g_strdup (row.name);
      row.style = g_strdup (row.style);
      g_array_append_val (shown->rows, row);
    }
  g_string_append_printf (out, "\n## %s\n\n", title);
  ws_summary_table_write (shown, WS_FORMAT_MARKDOWN, out);
  if (summary->rows->len > top)
    g_string_append_printf (out, "\n%s\n", _ ("(The CSV export has every row.)"));
}

/**
 * ws_markdown_document_write:
 *
 * Writes a Markdown document of @run to @path, with the kernel bars as a PNG
 * in `figs/` beside it: what the command-line workflow's `summary_*.md` and
 * figs/ PNGs gave — the top kernels, NVTX ranges, CUDA API calls and
 * memory operations, the gauges and verdicts when the run has ncu data
 * with why each kernel is slow (ws-markdown-why.c), and the findings when
 * there are any.
 */
gboolean
ws_markdown_document_write (const WsRun *run, const char *path, const WsMarkdownOptions *options,
                            GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *figs = g_build_filename (dir, "figs", NULL);
  g_autofree char *base = ws_summary_table_base_name (run);
  g_autofree char *figure_name = g_strdup_printf ("%s_kernels.png", base);
  g_autofree char *figure_path = g_build_filename (figs, figure_name, NULL);
  g_autofree char *title =
    g_strdup_printf (_ ("GPU time by kernel — %s"), ws_run_display_name (run));
  g_autoptr (WsSummary) kernels = ws_stats_summary (run, WS_SUMMARY_KERN_SUM, WS_NAME_DEMANGLED);
  guint top = options != NULL && options->top_n > 0 ? options->top_n : 15;

  g_string_append_printf (out, "# %s — %s\n\n", _ ("Warpscope report"), ws_run_display_name (run));
  append_provenance (out, run);
  append_totals (out, run);

  if (kernels != NULL)
    {
      g_autoptr (WsBarsModel) model = ws_bars_model_new (
        kernels, top, WS_BARS_SORT_TOTAL, NULL, run->ncu != NULL ? ncu_verdict : NULL, run->ncu);
      WsPalette palette;

      ws_palette_init_light (&palette);
      if (!make_folder (figs, error) ||
          !ws_bars_chart_render_to_file (figure_path, 1200, 0, model, title, &palette, error))
        return FALSE;

      g_string_append_printf (out, "\n## %s\n\n![%s](figs/%s)\n\n", _ ("GPU time by kernel"), title,
                              figure_name);
      append_top_kernels (out, run, model);
    }
  else
    g_string_append_printf (out, "\n%s\n", _ ("This run has no CUDA kernel data."));

  if (run->ncu != NULL &&
      (!make_folder (figs, error) || !append_gauges (out, run, figs, base, error) ||
       !ws_markdown_why_append (out, run, figs, base, top, error)))
    return FALSE;
  append_findings (out, run);

  append_summary_table (out, run, WS_SUMMARY_NVTX_SUM, _ ("NVTX ranges"), top);
  append_summary_table (out, run, WS_SUMMARY_API_SUM, _ ("CUDA API calls"), top);
  append_summary_table (out, run, WS_SUMMARY_MEM_TIME_SUM, _ ("Memory operations by time"), top);
  append_summary_table (out, run, WS_SUMMARY_MEM_SIZE_SUM, _ ("Memory operations by size"), top);

  g_string_append_printf (out, "\n---\n%s %s\n", _ ("Made with Warpscope"), PACKAGE_VERSION);
  return ws_atomic_file_save (path, out->str, out->len, WS_ATOMIC_FILE_DEFAULT, error);
}
