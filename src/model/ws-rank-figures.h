/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What one rank of a job did, computed from that rank alone: its GPU,
 * kernel and communication time, its steps and how long it waited in each
 * for the others.  A plain structure of numbers and strings, so that a
 * digest can keep it and the ranks view can be rebuilt from it without the
 * exports; comparing ranks is a separate step over these (ws-rank-set.h), and
 * computing them is ws-rank-measure.h's.
 * Times are ns on the rank's own clock; @offset places them on the run's. */

/* Where a rank's waiting is measured. */
typedef enum
{
  WS_WAIT_NONE, /* nothing to measure it by */
  WS_WAIT_NCCL, /* NCCL kernels' time with none of the rank's own work (other kernels, copies,
                 * sets) running: docs/NOTES.md, "What a straggler costs" */
  WS_WAIT_CPU,  /* the step thread blocked in OS runtime waits or MPI calls */
} WsWaitSource;

typedef struct
{
  guint number;    /* the step's counter ("step 3" → 3) */
  gint64 start;    /* ns */
  gint64 end;      /* ns */
  gint64 gpu_busy; /* ns with a kernel or memory operation of the rank running */
  gint64 comm;     /* ns with an NCCL kernel of the rank running */
  gint64 overlap;  /* ns with an NCCL kernel and a compute kernel running together */
  gint64 wait;     /* ns waiting for the other ranks */
  gint64 work;     /* ns of its own work: what makes the others wait when it is longer */
  gboolean warmup; /* a warm-up step (ws-steps.h) */
} WsRankStep;

typedef struct
{
  char *name;      /* an NVTX range inside the steps, on the step thread */
  guint depth;     /* its nesting under the step range (1: a child of the step) */
  double per_step; /* ns: median over the steady steps of its time in a step */
} WsRankRange;

typedef struct
{
  char *kind;     /* "AllReduce", "SendRecv", … */
  guint64 count;  /* kernels */
  gint64 total;   /* ns: their summed duration */
  gint64 overlap; /* ns of them hidden under compute kernels */
} WsRankCollective;

/* One NCCL kernel of the rank: its part in one collective call.  The
 * n-th call of a communicator is the same call on every rank, which is how
 * ranks are matched (ws-rank-set.h). */
typedef struct
{
  guint comm;       /* the communicator: its stream's place among the rank's NCCL streams */
  const char *kind; /* interned: "AllReduce", "SendRecv", … */
  gint64 start;     /* ns: the rank's arrival at the collective */
  gint64 end;       /* ns */
  gint step;        /* the number of the step that launched it, or -1 */
} WsRankCall;

typedef struct
{
  gatomicrefcount ref_count;
  guint rank;
  char *file;
  char *process;
  gint64 offset;       /* ns added to this rank's times to place them on the run's clock */
  gint64 gpu_time;     /* ns with a kernel or memory operation of the rank running */
  gint64 kernel_time;  /* ns: summed kernel durations, as `nsys stats` adds them */
  gint64 comm_time;    /* ns: summed NCCL kernel durations (MPI calls without NCCL) */
  gint64 overlap_time; /* ns of NCCL kernels hidden under compute kernels */
  gint64 wait_time;    /* ns waiting for the other ranks, over the steps (or the run) */
  gint64 idle_time;    /* ns of its GPU span with nothing of it running */
  WsWaitSource wait_source;
  char *step_pattern;  /* "step N", or NULL without steps */
  GArray *steps;       /* WsRankStep, by start */
  guint n_steady;      /* steps that are not warm-up */
  double step_median;  /* ns: median wall time of the steady steps */
  double wait_median;  /* ns: median waiting per steady step */
  double work_median;  /* ns: median own work per steady step */
  GArray *ranges;      /* WsRankRange, most time first */
  GArray *collectives; /* WsRankCollective, most time first */
  GArray *calls;       /* WsRankCall: every NCCL kernel, by communicator then start */
  /* Private: the steps' indexes ordered by number, made on the first
   * look-up (ws_rank_figures_find_step()), once the steps are complete. */
  gsize by_number_made;
  guint32 *by_number;
} WsRankFigures;

WsRankFigures *ws_rank_figures_new (void);
WsRankFigures *ws_rank_figures_copy (const WsRankFigures *self);
WsRankFigures *ws_rank_figures_ref (WsRankFigures *self);
void ws_rank_figures_unref (WsRankFigures *self);
const WsRankStep *ws_rank_figures_find_step (const WsRankFigures *self, guint number);
const char *ws_rank_figures_wait_source_string (WsWaitSource source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRankFigures, ws_rank_figures_unref)

G_END_DECLS
