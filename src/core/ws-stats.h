/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* The reports of `nsys stats` that Warpscope reproduces, with the same
 * definitions (FORMATS.md). */
typedef enum
{
  WS_REPORT_KERN_SUM,
  WS_REPORT_NVTX_SUM,
  WS_REPORT_API_SUM,
  WS_REPORT_MEM_TIME_SUM,
  WS_REPORT_MEM_SIZE_SUM,
  WS_N_REPORTS,
} WsReportKind;

typedef struct
{
  char *name;      /* Name, Range ("domain:name") or Operation */
  char *style;     /* "PushPop" or "StartEnd" for NVTX ranges, else NULL */
  guint32 name_id; /* kernels: the name's string id in the run; else WS_STRING_NONE */
  gint64 count;
  gint64 total; /* ns; bytes in the size report */
  gint64 min;
  gint64 max;
  double avg;
  double med;
  double stddev;  /* sample standard deviation (n - 1); 0 for one instance */
  double percent; /* share of the sum of all totals */
} WsSummaryRow;

struct _WsSummary
{
  gatomicrefcount ref_count;
  WsReportKind kind;
  WsNameForm name_form;
  GArray *rows; /* WsSummaryRow, sorted by total, largest first */
  gint64 grand_total;
};

/* Per-group statistics over a partitioned value buffer. */
typedef struct
{
  gint64 count;
  gint64 total;
  gint64 min;
  gint64 max;
  double avg;
  double med;
  double stddev;
} WsGroupStats;

void ws_run_compute_summaries (WsRun *run);
WsSummary *ws_run_get_summary (const WsRun *run, WsReportKind kind);
WsSummary *ws_run_summary (const WsRun *run, WsReportKind kind, WsNameForm form);

const char *ws_report_kind_to_string (WsReportKind kind);
gboolean ws_report_kind_from_string (const char *str, WsReportKind *kind);
gboolean ws_report_has_events (const WsRun *run, WsReportKind kind);
gboolean ws_report_has_data (const WsRun *run, WsReportKind kind);
const char *ws_report_missing_data (WsReportKind kind);

WsSummary *ws_summary_new (WsReportKind kind);
WsSummary *ws_summary_ref (WsSummary *self);
void ws_summary_unref (WsSummary *self);
WsSummary *ws_summary_compute (const WsRun *run, WsReportKind kind, WsNameForm form);
WsSummary *ws_summary_compute_nvtx_ops (const WsRun *run);
char *ws_nvtx_op_name (const char *name);
WsSummary *ws_summary_compute_kernels_in (const WsRun *run, WsNameForm form, gint64 from,
                                          gint64 to);
const WsSummaryRow *ws_summary_find (const WsSummary *self, const char *name);
void ws_summary_sort (WsSummary *self);
void ws_summary_finish (WsSummary *self);

void ws_group_stats (gint64 *values, gsize n, WsGroupStats *out);
char *ws_api_base_name (const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSummary, ws_summary_unref)

G_END_DECLS
