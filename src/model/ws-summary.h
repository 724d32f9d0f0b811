/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-kernel-name.h"
#include "ws-sketch.h"

G_BEGIN_DECLS

/* The summaries that Warpscope reproduces, with the same definitions as the
 * `nsys stats` reports of these names (docs/formats.md, "nsys stats reports"). */
typedef enum
{
  WS_SUMMARY_KERN_SUM,
  WS_SUMMARY_NVTX_SUM,
  WS_SUMMARY_API_SUM,
  WS_SUMMARY_MEM_TIME_SUM,
  WS_SUMMARY_MEM_SIZE_SUM,
  WS_SUMMARY_OSRT_SUM,
  WS_N_SUMMARY_KINDS,
} WsSummaryKind;

typedef struct
{
  char *name;      /* Name, Range ("domain:name") or Operation */
  char *style;     /* "PushPop" or "StartEnd" for NVTX ranges, else NULL */
  guint32 name_id; /* kernels: the name's string id in the run; else WS_STRING_NONE */
  gint64 count;
  gint64 total; /* ns; bytes in the size summary */
  gint64 min;
  gint64 max;
  double avg;
  double med;
  double stddev;  /* sample standard deviation (n - 1); 0 for one instance */
  double percent; /* share of the sum of all totals */
} WsSummaryRow;

/* One summary: computed from a run's events (ws-stats.c) or read from an
 * `nsys stats` CSV (ws-nsys-stats-reader.c); immutable once shared. */
typedef struct _WsSummary WsSummary;

struct _WsSummary
{
  gatomicrefcount ref_count;
  WsSummaryKind kind;
  WsNameForm name_form;
  GArray *rows; /* WsSummaryRow, sorted by total, largest first */
  gint64 grand_total;
  GPtrArray *sketches; /* WsSketch *, one per row in the order of @rows: what merges
                        * medians (a job digest's), or NULL */
};

const char *ws_summary_kind_to_string (WsSummaryKind kind);
gboolean ws_summary_kind_from_string (const char *str, WsSummaryKind *kind);
const char *ws_summary_kind_missing_data (WsSummaryKind kind);

WsSummary *ws_summary_new (WsSummaryKind kind);
WsSummary *ws_summary_new_sketched (WsSummaryKind kind);
WsSummary *ws_summary_ref (WsSummary *self);
void ws_summary_unref (WsSummary *self);
const WsSummaryRow *ws_summary_find (const WsSummary *self, const char *name);
gint64 ws_summary_count (const WsSummary *self);
void ws_summary_sort (WsSummary *self);
void ws_summary_finish (WsSummary *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSummary, ws_summary_unref)

G_END_DECLS
