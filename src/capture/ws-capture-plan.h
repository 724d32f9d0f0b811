/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-capture-launch.h"
#include "ws-capture-settings.h"

G_BEGIN_DECLS

/* The six steps of the existing workflow (docs/formats.md, "The six steps"),
 * numbered as the `[STEP x/6]` lines number them. */
typedef enum
{
  WS_CAPTURE_STEP_PREPARE = 1, /* create OUT/<group>/<NAME>/{nsys,ncu} */
  WS_CAPTURE_STEP_NSYS_PROFILE,
  WS_CAPTURE_STEP_NSYS_STATS,
  WS_CAPTURE_STEP_TOP_KERNELS, /* read the kernel summary, pick the top N */
  WS_CAPTURE_STEP_NCU_PROFILE,
  WS_CAPTURE_STEP_NCU_EXPORT,
} WsCaptureStepKind;

#define WS_CAPTURE_N_STEPS 6

typedef enum
{
  WS_CAPTURE_STEP_WAITING,
  WS_CAPTURE_STEP_RUNNING,
  WS_CAPTURE_STEP_DONE,
  WS_CAPTURE_STEP_FAILED,
  WS_CAPTURE_STEP_SKIPPED,
} WsCaptureStepState;

/* One program to run. */
typedef struct
{
  char **argv;
  char *cwd;
  char **envp;       /* the whole environment of the child */
  char **env_added;  /* what the plan added to it (ENVS, …), NAME=VALUE */
  char *stdout_path; /* NULL: standard output is streamed as lines */
  char **outputs;    /* files that must exist once it succeeded */
  char *kernel;      /* steps 5 and 6: the kernel(s) it is about */
} WsCaptureCommand;

/* A target's row, its WORKDIR already resolved to an absolute folder. */
typedef struct
{
  const char *name;
  const char *cmd;
  const char *workdir;
  const char *envs;
} WsCaptureTarget;

/* A kernel picked by step 4. */
typedef struct
{
  char *name;    /* as the kernel summary names it (demangled) */
  char *display; /* its display name, unique among the summary's kernels */
  char *file;    /* the base of its report files: the display name made safe, unique */
  gint64 total;  /* ns, from the summary */
  char *mangled; /* from the nsys export (WsCaptureKernelLookup), or NULL */
  char *grid;    /* "(256, 1, 1)", the grid it was launched with most (ncu profiles the
                  * first launches, which may differ), or NULL */
  char *block;   /* "(128, 1, 1)", or NULL */
  guint skip;    /* launches of it before its first one inside a CUDA graph, which ncu skips
                  * (--launch-skip) so that it profiles a launch from a replay; 0: none */
  guint rank;    /* a job's kernel: the rank whose summary gives it the most time, where ncu
                  * profiles it (a kernel of one rank's own work runs on no other) */
} WsCaptureKernel;

/* Finds, for each of @n kernels named by their demangled names, its
 * mangled name, the grid and block it was launched with most often, and
 * how many of its launches came before its first one inside a CUDA graph
 * (@skip), in the nsys export that step 3 wrote.  Runs on a worker thread;
 * whatever it leaves NULL (or 0) stays unknown.  The launcher knows no
 * reader: the command line and the window give it one
 * (ws_nsys_kernel_identities()). */
typedef gboolean (*WsCaptureKernelLookup) (const char *export_path, guint n,
                                           const char *const *names, char **mangled, char **grid,
                                           char **block, guint *skip, GError **error);

typedef struct
{
  char *name;        /* NAME as written */
  char *folder_name; /* its safe folder name, unique in the group */
  char *dir;         /* OUT/<group>/<folder_name> */
  char *nsys_dir;
  char *ncu_dir;
  char *nsys_base; /* nsys_dir/<folder_name>: nsys adds .nsys-rep, .sqlite, … */
  char *kern_sum_csv;
  WsCaptureSettings *settings;
  char *nsys; /* the programs */
  char *ncu;
  char *workdir;
  char **target_argv; /* bash -lc CMD */
  char **envp;
  char **env_added;
  GPtrArray *steps[WS_CAPTURE_N_STEPS + 1]; /* [1..6] of WsCaptureCommand */
  GPtrArray *kernels;                       /* of WsCaptureKernel, after step 4 */
  GPtrArray *left_out;     /* of WsCaptureKernel: the communication kernels step 4 left out */
  gint64 kernels_total;    /* ns: all the kernels of the summaries, for the share left out */
  WsCaptureLaunch *launch; /* PER_RANK: the job's launcher and program, or NULL */
  char **rank_csvs;        /* PER_RANK: each rank's kernel summary, or NULL */
} WsCapturePlan;

WsCapturePlan *ws_capture_plan_new (const WsCaptureTarget *target, const char *folder_name,
                                    const char *group_dir, const WsCaptureSettings *settings,
                                    const char *nsys, const char *ncu, const char *const *base_env,
                                    GError **error);
void ws_capture_plan_free (WsCapturePlan *plan);
void ws_capture_plan_set_kernels (WsCapturePlan *plan, GPtrArray *kernels);
void ws_capture_plan_refresh_ncu (WsCapturePlan *plan);
gboolean ws_capture_plan_pick_kernels (WsCapturePlan *plan, GError **error);

GPtrArray *ws_capture_read_top_kernels (const char *csv_path, guint n, GPtrArray *left_out,
                                        gint64 *all_total, GError **error);
GPtrArray *ws_capture_read_top_kernels_merged (const char *const *csv_paths, guint n,
                                               GPtrArray *left_out, gint64 *all_total,
                                               GError **error);
char *ws_capture_kernel_regex (GPtrArray *kernels, guint first, guint n);
char *ws_capture_safe_name (const char *name);
char *ws_capture_unique_name (GHashTable *used, const char *name);
gboolean ws_capture_choose_group (const char *out_dir, const char *name, const char *const *folders,
                                  char **group, char **group_dir, GError **error);
const char *ws_capture_step_title (WsCaptureStepKind step);
const char *ws_capture_step_state_nick (WsCaptureStepState state);

void ws_capture_command_free (WsCaptureCommand *command);
void ws_capture_kernel_free (WsCaptureKernel *kernel);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCapturePlan, ws_capture_plan_free)

G_END_DECLS
