/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-bars-chart.h"
#include "ws-run.h"

G_BEGIN_DECLS

typedef struct
{
  guint top_n; /* kernels in the chart and tables; 0 for 15 */
} WsMarkdownOptions;

gboolean ws_markdown_document_write (const WsRun *run, const char *path,
                                     const WsMarkdownOptions *options, GError **error);

G_END_DECLS
