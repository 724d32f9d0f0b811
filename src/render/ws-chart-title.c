/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-chart-title"
#include "config.h"

#include <math.h>

#include "ws-chart-title.h"
#include "ws-kernel-name.h"
#include "ws-text.h"

/* The margin of the kernel charts: 0.8 of a text line. */
double
ws_chart_pad (cairo_t *cr, const WsPalette *palette)
{
  g_autoptr (PangoLayout) text = ws_text_layout (cr, palette, 1.0, FALSE);

  return round (ws_text_line_height (text) * 0.8);
}

/* The height of a title line and a wrapped subtitle, margins included. */
double
ws_chart_title_height (cairo_t *cr, double width, const WsPalette *palette, const char *subtitle)
{
  g_autoptr (PangoLayout) bold = ws_text_layout (cr, palette, 1.1, TRUE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  double pad = ws_chart_pad (cr, palette);
  double h = pad + ws_text_line_height (bold) + 4;

  if (subtitle != NULL)
    h += ws_text_wrapped_height (small, subtitle, width - 2 * pad);
  return h + pad;
}

/* Draws the title and subtitle at the top; returns where the chart starts. */
double
ws_chart_title_draw (cairo_t *cr, double width, const WsPalette *palette, const char *title,
                     const char *subtitle)
{
  g_autoptr (PangoLayout) bold = ws_text_layout (cr, palette, 1.1, TRUE);
  g_autoptr (PangoLayout) small = ws_text_layout (cr, palette, 0.9, FALSE);
  double pad = ws_chart_pad (cr, palette);
  double y = pad;

  ws_color_set (cr, palette->foreground);
  ws_text_draw (cr, bold, title, pad, y, width - 2 * pad, WS_ALIGN_LEFT);
  y += ws_text_line_height (bold) + 4;
  if (subtitle != NULL)
    {
      ws_color_set (cr, palette->dim);
      y += ws_text_draw_wrapped (cr, small, subtitle, pad, y, width - 2 * pad);
    }
  return y + pad;
}

/* "Kernel2<cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_align1>":
 * a launch's kernel as a title shows it, without return type and
 * parameters.  (transfer full) */
char *
ws_chart_launch_name (const WsNcuResults *results, guint launch)
{
  const char *kernel = ws_ncu_results_launch (results, launch)->kernel;
  WsKernelNameParts parts;
  char *name;

  ws_kernel_name_split (kernel != NULL ? kernel : "", &parts);
  name = g_strdup (parts.function != NULL && parts.function[0] != '\0' ? parts.function
                                                                       : (kernel ? kernel : ""));
  ws_kernel_name_parts_clear (&parts);
  return name;
}

/* The verdict colours, by the sharper verdict. */
WsColor
ws_bottleneck_color (const WsPalette *palette, WsBottleneckKind kind)
{
  switch (kind)
    {
      case WS_BOTTLENECK_COMPUTE:
        return palette->compute;
      case WS_BOTTLENECK_MEMORY:
        return palette->memory;
      case WS_BOTTLENECK_LATENCY:
        return palette->latency;
      case WS_BOTTLENECK_WORK:
        return ws_color_mix (palette->latency, palette->background, 0.4);
      case WS_BOTTLENECK_MIXED:
        return palette->mixed;
      case WS_BOTTLENECK_UNKNOWN:
      case WS_N_BOTTLENECKS:
      default:
        return palette->unknown;
    }
}
