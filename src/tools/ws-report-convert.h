/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-progress.h"

G_BEGIN_DECLS

/* The Nsight tool that wrote a report, and that converts it. */
typedef enum
{
  WS_REPORT_TOOL_NSYS, /* .nsys-rep, .qdrep: `nsys export --type sqlite` */
  WS_REPORT_TOOL_NCU,  /* .ncu-rep: `ncu --import … --csv --page raw` */
} WsReportTool;

void ws_report_convert_set_tools (const char *nsys, const char *ncu);
char *ws_report_convert_cache_dir (void);
char *ws_report_convert_cache_path (const char *report, WsReportTool kind, GError **error);
char *ws_report_convert (const char *report, WsReportTool kind, GCancellable *cancellable,
                         WsProgressFunc progress, gpointer progress_data, GError **error);

G_END_DECLS
