/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-finding.h"

G_BEGIN_DECLS

/* The severity bands of the checks, as data: each check judges its
 * measure with its row and prints the same row's bounds in its rule
 * text, so that the two cannot disagree (tests/findings/test-findings-bands.c). */

/* How a band's bound reads a check's measure. */
typedef enum
{
  WS_BAND_NONE,  /* no measure falls in the band */
  WS_BAND_FROM,  /* measure ≥ bound */
  WS_BAND_ABOVE, /* measure > bound */
  WS_BAND_BELOW, /* measure < bound */
  WS_BAND_ANY,   /* every measure the bands above left */
} WsBandEdge;

typedef struct
{
  WsBandEdge edge;
  double bound;
} WsBand;

/* One row per graded measure of a check. */
typedef enum
{
  WS_FINDINGS_BANDS_ALLOC_RATE,
  WS_FINDINGS_BANDS_ALLOC_SHARE,
  WS_FINDINGS_BANDS_TRANSFERS,
  WS_FINDINGS_BANDS_SYNC,
  WS_FINDINGS_BANDS_LAUNCH,
  WS_FINDINGS_BANDS_IMBALANCE,
  WS_FINDINGS_BANDS_IDLE,
  WS_FINDINGS_BANDS_MEMORY_ACCESS,
  WS_FINDINGS_BANDS_SUMMARY_TRANSFERS,
  WS_FINDINGS_BANDS_SUMMARY_LAUNCH,
  WS_FINDINGS_BANDS_RECAPTURE,
  WS_FINDINGS_BANDS_REPLAY_GAPS,
  WS_FINDINGS_N_BANDS,
} WsFindingsBandsId;

/* A measure is tried against severe, then medium, then minor: the first
 * band it falls in is its severity; in none, the check raises nothing. */
typedef struct
{
  const char *finding; /* WS_FINDING_* the row grades */
  const char *measure; /* what the bounds are in: "% of the loop's time", … */
  WsBand severe;
  WsBand medium;
  WsBand minor;
} WsFindingsBands;

extern const WsFindingsBands ws_findings_bands[WS_FINDINGS_N_BANDS];

gboolean ws_findings_bands_judge (WsFindingsBandsId id, double measure, WsSeverity *severity);

G_END_DECLS
