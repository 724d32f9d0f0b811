/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-bars-chart.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* Adds sections (gauges, findings) that come from other parts of the code
 * base; called after the top-kernels table. */
typedef void (*WsMarkdownSectionsFunc) (const WsRun *run, GString *out, gpointer data);

typedef struct
{
  guint top_n;                /* kernels in the chart and tables; 0 for 15 */
  WsVerdictFunc verdict_func; /* bar colours when the run has ncu data */
  gpointer verdict_data;
  WsMarkdownSectionsFunc extra_sections;
  gpointer extra_data;
} WsMarkdownOptions;

gboolean ws_markdown_report_write (const WsRun *run, const char *path,
                                   const WsMarkdownOptions *options, GError **error);

G_END_DECLS
