/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-gpu-busy.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* Iterations of a training or inference loop: NVTX ranges that repeat with
 * a counter ("step 3", "iteration 3", "训练步 3", "batch 3"), or the
 * instances of a range the user names.  Each step gets its wall time and
 * what the GPUs of its process did meanwhile; the first step and the
 * steps much slower than the others are warm-up, the rest is the steady
 * state.  The warm-up rule is ws_steps_warmup_rule(), the one place that
 * decides it for every page and command (docs/NOTES.md, "The warm-up
 * rule"). */

/* Why a step is warm-up. */
typedef enum
{
  WS_WARMUP_NONE,  /* a steady step */
  WS_WARMUP_FIRST, /* the first step of its rank */
  WS_WARMUP_SLOW,  /* over WS_STEPS_SLOW_FACTOR × the median of its rank's other steps */
  WS_WARMUP_RANK,  /* another rank's step of the same number is warm-up */
} WsWarmup;

/* A step is slow when its wall time is over this many times the median of
 * its rank's other steps (cudnn.benchmark trials, a recompilation). */
#define WS_STEPS_SLOW_FACTOR 2.0

/* One step as the warm-up rule sees it. */
typedef struct
{
  guint rank;   /* whose step: a rank, or a process; steps of one rank in start order */
  guint number; /* its counter: steps of one number are one step of the job */
  gint64 wall;  /* ns */
} WsStepWall;

/* A span of the session clock. */
typedef struct
{
  gint64 start; /* ns */
  gint64 end;   /* ns */
} WsSpan;

typedef struct
{
  guint number;        /* the step's counter ("step 3" → 3), or its place among the steps */
  guint32 name;        /* string id of the range's name */
  gsize range;         /* index into run->nvtx */
  guint32 pid;         /* the process that opened the range */
  gint64 start;        /* ns */
  gint64 end;          /* ns */
  gint64 wall;         /* ns: end − start */
  gint64 gpu_busy;     /* ns of the step with a kernel or memory operation of the process running */
  gint64 kernel;       /* ns with a kernel running */
  gint64 memory;       /* ns with a memory operation running and no kernel */
  gint64 idle;         /* ns with neither: wall − gpu_busy */
  guint64 launches;    /* kernels and graph replays whose launch call started in the step, any
                     * thread of the process: a replay is one launch, its kernels none */
  gint64 gpu_launched; /* ns: the GPU time of the kernels, memory operations and replays
                        * launched in the step, wherever they ran: its GPU work when the GPU
                        * runs behind (a replay counts its span, its kernels nothing more) */
  gboolean warmup;     /* marked by the warm-up rule */
  gboolean slow;       /* warm-up because it took over twice the median wall time */
  WsWarmup why;        /* why it is warm-up (WS_WARMUP_NONE for a steady step) */
  gint rank;           /* the job's rank of its process, or -1 outside a job */
} WsStep;

/* Medians over the steady steps. */
typedef struct
{
  double wall;
  double gpu_busy;
  double kernel;
  double memory;
  double idle;
  double launches;
  double gpu_launched;
} WsStepMedians;

/* One rank's steps (or the run's, outside a job) and their steady medians. */
typedef struct
{
  gint rank; /* or -1 outside a job */
  guint n_steps;
  guint n_steady;
  WsStepMedians median;
} WsStepsRank;

typedef struct
{
  gatomicrefcount ref_count;
  char *pattern;  /* "step N", "训练步 N": the name with its counter as N; or the range picked */
  guint32 pid;    /* the process asked for, or WS_PID_ANY */
  GArray *steps;  /* WsStep: by start; in a job by number, then rank, then start */
  guint n_warmup; /* steps marked warm-up */
  guint n_steady; /* the others */
  WsStepMedians median; /* over every steady step (the chart's line) */
  GArray *ranks;        /* WsStepsRank by rank: per-rank medians; one entry outside a job */
} WsSteps;

typedef struct
{
  const char *range; /* a range name to take as the step (with or without its counter), or NULL */
  guint32 pid;       /* only this process's ranges, or WS_PID_ANY */
} WsStepsOptions;

void ws_steps_warmup_join (const guint *numbers, WsWarmup *why, guint n);
void ws_steps_warmup_rule (const WsStepWall *steps, guint n, gboolean first_warm, WsWarmup *out);
WsSteps *ws_steps_compute (const WsRun *run, const WsStepsOptions *options);
WsSteps *ws_steps_ref (WsSteps *self);
void ws_steps_unref (WsSteps *self);

gboolean ws_steps_has_steady_state (const WsSteps *self);
GArray *ws_steps_spans (const WsSteps *self, gboolean warmup);
gboolean ws_steps_first_view (const WsSteps *self, guint max_steps, WsSpan *out);
gint64 ws_steps_warmup_time (const WsSteps *self);
char *ws_steps_counter_prefix (const char *name, guint *counter);
WsRun *ws_steps_steady_run (const WsRun *run, const WsSteps *steps);
WsRun *ws_steps_setup_run (const WsRun *run, const WsSteps *steps);
char *ws_steps_describe_steady (const WsSteps *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSteps, ws_steps_unref)

G_END_DECLS
