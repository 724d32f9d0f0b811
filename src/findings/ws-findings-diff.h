/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-finding.h"

G_BEGIN_DECLS

/* What became of a check between two runs, most important first: a
 * regression before an improvement, an improvement before no change. */
typedef enum
{
  WS_FINDING_APPEARED,  /* raised after, not before */
  WS_FINDING_WORSE,     /* raised on both sides, more severe after */
  WS_FINDING_FIXED,     /* raised before, not after */
  WS_FINDING_BETTER,    /* raised on both sides, less severe after */
  WS_FINDING_UNCHANGED, /* raised on both sides with one severity */
} WsFindingChangeKind;

/* One check (finding id) before and after. */
typedef struct
{
  char *id;          /* "alloc-in-loop", … */
  WsFinding *before; /* (nullable): the finding before, or NULL when not raised */
  WsFinding *after;  /* (nullable) */
  WsFindingChangeKind change;
} WsFindingChange;

GArray *ws_findings_diff (GPtrArray *before, GPtrArray *after);
const char *ws_finding_change_to_string (WsFindingChangeKind change);
const char *ws_finding_change_label (WsFindingChangeKind change);
const WsFindingChange *ws_findings_diff_find (GArray *diff, const char *id);

G_END_DECLS
