/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-rank-figures.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* The ranks of a distributed job seen as one run: one process per rank,
 * from one export per rank (`nsys profile -o rank%q{RANK}`) or several
 * processes in one export.  Rank numbers come from the file names, else
 * from what the exports record of their process (its environment, its
 * command line), else from the order the files were given; each export's
 * clock is placed on the run's by its session start (UTC). */

typedef enum
{
  WS_RANK_BY_NAME,        /* rank3, _r3, .3. in the file name */
  WS_RANK_BY_ENVIRONMENT, /* RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID, … */
  WS_RANK_BY_COMMAND,     /* --rank 3 on the recorded command line */
  WS_RANK_BY_ORDER,       /* the order the files were given */
  WS_RANK_BY_PROCESS,     /* the processes of one export, by pid */
} WsRankSource;

typedef struct
{
  guint rank;
  guint32 pid;      /* its process in the run */
  guint32 file_pid; /* its process as its export has it */
  char *file;       /* the file it was read from */
  char *process;    /* the process's name, or NULL */
  char *host;       /* or NULL */
  char *job;        /* the job it belongs to ("TORCHELASTIC_RUN_ID=3cee…"), or NULL */
  char *gpus; /* the GPUs it used ("NVIDIA H100 on vm at 0000:00:06.0"), joined by ";", or NULL */
  char *how;  /* what gave its number: "rank3", "RANK=3", "--rank 3", … */
  gint64 session_start; /* ns since the epoch (UTC): its export's session start; 0 unknown */
  gint64 offset;        /* ns added to its export's clock to place it on the run's */
  gint world_size;      /* WORLD_SIZE (or an MPI launcher's) in its environment, or 0 */
} WsRank;

struct _WsRanks
{
  gatomicrefcount ref_count;
  GArray *ranks; /* WsRank, by rank number */
  WsRankSource source;
  gboolean aligned;       /* every export had a session start to align on */
  gint64 spread;          /* ns between the earliest and the latest session start */
  GPtrArray *jobs;        /* char *: the distinct jobs named by the exports */
  char *job_name;         /* what the window's title calls the job */
  GPtrArray *notes;       /* char *: what to say about the set (mixed jobs, shared GPUs, …) */
  GPtrArray *shared_gpus; /* char *: a note per GPU that several ranks used (also in @notes) */
  GPtrArray *figures;     /* WsRankFigures *, one per rank in the order of @ranks, or NULL
                       * where not measured yet */
};

WsRanks *ws_ranks_new (void);
WsRanks *ws_ranks_ref (WsRanks *self);
void ws_ranks_unref (WsRanks *self);

guint ws_ranks_get_n (const WsRanks *self);
const WsRank *ws_ranks_get (const WsRanks *self, guint index);
gint ws_ranks_index_of (const WsRanks *self, guint rank);
gint ws_ranks_index_of_pid (const WsRanks *self, guint32 pid);
const char *ws_ranks_source_to_string (WsRankSource source);
char *ws_ranks_describe (const WsRanks *self);
char *ws_ranks_describe_clock (const WsRanks *self, const char *clock);
char *ws_ranks_title (const WsRanks *self);
char *ws_ranks_format_numbers (const guint *numbers, guint n);

gboolean ws_rank_number_from_name (const char *path, guint *rank, char **how);
gboolean ws_rank_number_from_env (char *const *env, guint *rank, char **how);
gboolean ws_rank_number_from_thread_name (const char *name, guint *rank, char **how);
gboolean ws_rank_number_from_command (const char *command, guint *rank, char **how);
char *ws_rank_number_job (char *const *env);
gint ws_rank_number_world_size (char *const *env);
char *ws_rank_number_file_stem (const char *path);
gboolean ws_rank_number_env_keeps (const char *entry);

WsRanks *ws_ranks_new_for_files (const char *const *files, WsRun *const *probes, guint n);
WsRanks *ws_ranks_new_for_pids (const WsRun *run, const guint32 *pids, guint n);
WsRanks *ws_ranks_new_for_processes (const WsRun *run);
void ws_ranks_add_gpu_notes (WsRanks *self);
WsRanks *ws_ranks_select (const WsRanks *self, const guint32 *pids, guint n_pids);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRanks, ws_ranks_unref)

G_END_DECLS
