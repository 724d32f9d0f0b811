/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* One problem found in a run, with what supports it.  Immutable once
 * ws_findings_compute() returned it; shared by reference between the window,
 * the CLI and the exports. */

typedef enum
{
  WS_SEVERITY_MINOR,
  WS_SEVERITY_MEDIUM,
  WS_SEVERITY_SEVERE,
} WsSeverity;

/* How an evidence value reads: the JSON keeps the raw number, the window
 * formats it by its unit. */
typedef enum
{
  WS_UNIT_COUNT,
  WS_UNIT_NS,
  WS_UNIT_BYTES,
  WS_UNIT_PERCENT,
  WS_UNIT_PER_SECOND,
  WS_UNIT_BYTES_PER_SECOND,
  WS_UNIT_RATIO,
  WS_UNIT_TEXT,
} WsUnit;

typedef struct
{
  char *key;   /* stable, for JSON and scripts: "calls", "time_share_pct", … */
  char *label; /* translated, for people */
  WsUnit unit;
  double value; /* unless unit is WS_UNIT_TEXT */
  char *text;   /* WS_UNIT_TEXT only */
} WsEvidence;

/* An NVTX range (merged over its instances) that encloses events of the
 * finding: where in the program the problem happens.  Numbered ranges
 * ("iter 0" … "iter 24999") are one entry named by their pattern ("iter
 * N"), and a range's entry is under the entry of the range around it
 * (docs/NOTES.md, "Where findings happen"). */
typedef struct
{
  char *name;
  char *domain;      /* "" for the default domain */
  guint depth;       /* nesting level on its thread, 0 outermost */
  gint64 start;      /* ns: start of the first instance holding events */
  gint64 end;        /* ns: end of the last one */
  guint instances;   /* range instances that hold events of the finding */
  guint events;      /* events of the finding inside */
  gint64 event_time; /* ns: their summed duration */
} WsFindingNvtx;

typedef struct
{
  gint64 start; /* ns, on the run's session clock */
  gint64 end;
} WsTimeRange;

typedef struct
{
  gatomicrefcount ref_count;

  char *id; /* "alloc-in-loop", "small-transfers", … */
  WsSeverity severity;
  char *title;
  char *summary;       /* one sentence with the numbers */
  char *rule;          /* the thresholds that set the severity */
  char *fix;           /* one sentence on the usual fix */
  GPtrArray *notes;    /* char *: confounders handled (context creation, …) */
  GPtrArray *evidence; /* WsEvidence * */
  GPtrArray *nvtx;     /* WsFindingNvtx *, outermost first */
  GArray *ranges;      /* WsTimeRange: where to look, most important first */
  gint64 cost;         /* ns at stake; orders findings of equal severity */

  /* The events that show the problem, as indices into the run's tables
   * (guint32: a run never holds 2^32 events of one kind). */
  GArray *kernels;
  GArray *memops;
  GArray *api;
} WsFinding;

#define WS_TYPE_FINDING (ws_finding_get_type ())

GType ws_finding_get_type (void) G_GNUC_CONST;
WsFinding *ws_finding_new (const char *id);
WsFinding *ws_finding_ref (WsFinding *self);
void ws_finding_unref (WsFinding *self);

void ws_finding_add_evidence (WsFinding *self, const char *key, const char *label, WsUnit unit,
                              double value);
void ws_finding_add_evidence_text (WsFinding *self, const char *key, const char *label,
                                   const char *text);
void ws_finding_add_note (WsFinding *self, const char *note);
void ws_finding_add_range (WsFinding *self, gint64 start, gint64 end);
const WsEvidence *ws_finding_get_evidence (const WsFinding *self, const char *key);
const WsFindingNvtx *ws_finding_find_nvtx (const WsFinding *self, const char *name);
char *ws_finding_nvtx_counts (const WsFinding *self, guint index);

const char *ws_severity_to_string (WsSeverity severity);
const char *ws_severity_label (WsSeverity severity);
char *ws_evidence_format_value (const WsEvidence *evidence);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFinding, ws_finding_unref)

G_END_DECLS
