/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-finding.h"
#include "ws-rank-figures.h"
#include "ws-ranks.h"
#include "ws-summary.h"

G_BEGIN_DECLS

/* A job digest: what the ranks view, the straggler, the merged summaries
 * and the findings need of each rank of a job, small enough to copy from a
 * cluster and open at once (`warpscope-cli digest`, a `.wsdigest` file;
 * the schema is docs/digest.md).  Plain data: analysis computes a rank's
 * part from its export (ws-digest-rank.h), formats reads and writes the
 * file, the loader turns a digest into a run (ws-digest-loader.h). */

#define WS_DIGEST_SCHEMA_VERSION 1

/* A rank's GPU-busy and communication time series: WS_DIGEST_BINS bins of
 * equal width over the rank's span, each the share of its bin (0–65535
 * for 0–1). */
#define WS_DIGEST_BINS 4096

/* Summary rows kept per rank and summary, the largest first; the rest
 * are counted (left_out). */
#define WS_DIGEST_MAX_ROWS 1000

/* Time ranges kept per finding, the most important first: a finding of a
 * long run (GPU idle gaps, say) can list tens of thousands. */
#define WS_DIGEST_MAX_RANGES 100

typedef struct
{
  /* The export, as found when the digest was made. */
  char *file;     /* path relative to the digest's folder (absolute when on another tree) */
  char *path;     /* its absolute path then */
  gint64 size;    /* bytes */
  gint64 mtime;   /* ns since the epoch */
  char *checksum; /* SHA-256 of its first MiB, in hex */
  char *error;    /* why it could not be digested (the other fields then say nothing), or NULL */

  /* The rank: numbered and placed on the job's clock when the digest is
   * written, from what every export records (ws_ranks_new_for_files()). */
  WsRank rank;
  char *command;          /* the command nsys launched, or NULL */
  char **env;             /* the variables of its environment that number ranks and name jobs */
  char *thread_rank_name; /* "MPI Rank 3", or NULL */

  WsRankFigures *figures;                    /* on the rank's own clock; offset = rank.offset */
  WsSummary *summaries[WS_N_SUMMARY_KINDS];  /* with sketches, or NULL where no such data */
  gint64 rows_left_out[WS_N_SUMMARY_KINDS];  /* rows beyond WS_DIGEST_MAX_ROWS */
  gint64 total_left_out[WS_N_SUMMARY_KINDS]; /* their summed total */

  gint64 series_start; /* ns on the rank's clock: the start of the first bin */
  gint64 series_bin;   /* ns per bin; 0 without a series */
  guint16 *gpu_busy;   /* WS_DIGEST_BINS: kernels or memory operations running */
  guint16 *comm;       /* WS_DIGEST_BINS: NCCL kernels, or the step thread waiting */

  GPtrArray *findings; /* WsFinding *, as `diagnose` gives them for this export alone */
  char *scope;     /* what the findings cover ("Steady state: …"), or NULL for the whole run */
  gint64 origin;   /* ns: the export's earliest event, on its own clock */
  gint64 end_time; /* ns: its latest end */
  gint64 events;   /* events read from the export */
  double seconds;  /* what digesting it took */
  /* What reading the export left out or set right (its run's warnings):
   * said when the digest is made, not kept in it. */
  GPtrArray *warnings; /* char * */
} WsDigestRank;

struct _WsDigest
{
  gatomicrefcount ref_count;
  guint schema_version;
  char *created;    /* ISO 8601 with offset */
  char *tool;       /* "warpscope-cli 0.1.0" */
  char *host;       /* where it was computed */
  char *method;     /* "threads 2", "mpi 4 processes" */
  double seconds;   /* the whole digest */
  char *folder;     /* the folder the digest was written to (absolute) */
  char *path;       /* the file it was read from, or NULL before it is written */
  GPtrArray *ranks; /* WsDigestRank *: digested ones by rank number, then failed ones */
  GPtrArray *notes; /* char *: the job's (mixed jobs, processes that failed, …) */
  WsRankSource source;
  gboolean aligned;
  gint64 spread;  /* ns between the earliest and latest session start */
  char *job_name; /* what the window's title calls the job */

  /* Every good rank's summaries merged (ws_digest_merge_summary()), which
   * the file keeps so that opening it reads no rank's rows: NULL where no
   * rank has such data.  Digests written before have none: then
   * @job_summaries_known is FALSE and the ranks' rows are read and merged. */
  WsSummary *job_summaries[WS_N_SUMMARY_KINDS];
  gint64 job_rows_left_out[WS_N_SUMMARY_KINDS];  /* the ranks' rows_left_out, summed */
  gint64 job_total_left_out[WS_N_SUMMARY_KINDS]; /* the ranks' total_left_out, summed */
  gboolean job_summaries_known;
  /* The ranks' NCCL kernels are in the file (table `calls`); digests
   * written before have none, and their ranks are compared by the host
   * method. */
  gboolean calls_known;
  gboolean rank_summaries_read; /* each WsDigestRank's @summaries were read (or computed) */
};

WsDigestRank *ws_digest_rank_new (void);
void ws_digest_rank_free (WsDigestRank *self);

WsDigest *ws_digest_new (void);
WsDigest *ws_digest_ref (WsDigest *self);
void ws_digest_unref (WsDigest *self);
guint ws_digest_n_good (const WsDigest *self);
const WsDigestRank *ws_digest_find_rank (const WsDigest *self, guint rank);
WsRanks *ws_digest_to_ranks (const WsDigest *self, const guint *select, guint n_select);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsDigestRank, ws_digest_rank_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsDigest, ws_digest_unref)

G_END_DECLS
