/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-finding.h"
#include "ws-rank-figures.h"
#include "ws-ranks.h"

G_BEGIN_DECLS

/* A job's ranks compared: a separate step over their figures (which may
 * come from the exports or from digests).  Steps are matched by number.
 *
 * In a step, a rank's own work (ws-rank-figures.h) is what it does before
 * it can meet the others; the rank with the most reaches the
 * synchronisation last, and each other rank waits there for the
 * difference.  Waiting itself is measured too, but comparing work needs no
 * common clock, and the clocks of several exports agree only to a
 * millisecond or so. */

/* How the ranks were compared (docs/NOTES.md, "Who the others wait
 * for"): by matched NCCL collectives, the ranks' clocks aligned on their
 * ends; or, without NCCL kernels on every rank, by the host-side method:
 * each rank's own work before the synchronisation. */
typedef enum
{
  WS_RANK_METHOD_HOST,
  WS_RANK_METHOD_NCCL,
} WsRankMethod;

typedef struct
{
  guint number;    /* the steps' counter */
  gboolean steady; /* no rank has it as warm-up, and at least two ran it */
  gint last;       /* the index of the rank that reached the synchronisation last, or -1 */
  gint64 late;     /* ns: host method, its own work beyond the median of the others';
                    * NCCL method, its largest lead over the others' median arrival */
  gint64 *lost;    /* per rank index: ns it lost in the step (docs/NOTES.md, "What a straggler
                    * costs"); -1 where it has no such step or its waiting is not measured */
  gint64 *caused;  /* NCCL method: per rank index, ns the others waited at the collectives it
                    * arrived at last; NULL with the host method */
  gint64 *lead;    /* NCCL method: per rank index, its largest lead over the others' median
                    * arrival at a collective it arrived at last; NULL with the host method */
} WsRankSetStep;

typedef struct
{
  gint index;         /* the straggler's index in the set, or -1 when none is consistent */
  guint rank;         /* its number */
  guint n_last;       /* steady steps in which it came last */
  guint n_steps;      /* steady steps compared */
  gint64 late;        /* ns: median over the steady steps of the step's late (above) */
  char *range;        /* the NVTX range where its extra work is, or NULL */
  gint64 range_extra; /* ns per step in @range beyond the others' median */
  gint64 lost;        /* ns per step the others lose to it (docs/NOTES.md, "What a straggler
                       * costs"): the median over the steady steps; -1 when not measured */
  double lost_share;  /* @lost over the others' step time (0–1) */
} WsStraggler;

typedef struct
{
  gatomicrefcount ref_count;
  GPtrArray *figures; /* WsRankFigures *: the ranks measured, in rank order */
  GArray *steps;      /* WsRankSetStep, by number */
  WsStraggler straggler;
  double step_median; /* ns: the median of the ranks' steady step medians */
  WsRankMethod method;
  guint n_matched; /* collectives matched on every rank (NCCL method) */
  guint *matched;  /* NCCL method: for matched collective k and rank index r, the index of its
                    * call in that rank's figures' calls: matched[k * ranks + r]; or NULL */
  gint64 *align;   /* per rank index: ns added to its clock to align its collectives' ends on the
                    * first rank's (NCCL method; 0 otherwise) */
  gint64 *wait;    /* per rank index: ns it lost waiting for the others, its steps' lost (or the
                    * run's) summed, or -1 where not measured */
} WsRankSet;

WsRankSet *ws_rank_set_new (GPtrArray *figures);
WsRankSet *ws_rank_set_new_for_run (const WsRun *run);
WsRankSet *ws_rank_set_ref (WsRankSet *self);
void ws_rank_set_unref (WsRankSet *self);
gint ws_rank_set_index_of (const WsRankSet *self, guint rank);
char *ws_rank_set_straggler_line (const WsRankSet *self);
char *ws_rank_set_straggler_text (const WsRankSet *self);
char *ws_rank_set_describe (const WsRankSet *self, const WsRanks *ranks);
const char *ws_rank_method_string (WsRankMethod method);
const char *ws_rank_method_label (WsRankMethod method);
void ws_rank_set_add_findings (const WsRun *run, GPtrArray *findings);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRankSet, ws_rank_set_unref)

G_END_DECLS
