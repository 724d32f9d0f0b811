/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

G_BEGIN_DECLS

/* What a file given to Warpscope is, by its content (and for the binary
 * Nsight reports, by its name). */
typedef enum
{
  WS_INPUT_UNKNOWN,
  WS_INPUT_FOLDER,
  WS_INPUT_NSYS_SQLITE,
  WS_INPUT_NSYS_STATS_CSV,
  WS_INPUT_NCU_CSV,
  WS_INPUT_NSYS_REPORT,   /* .nsys-rep / .qdrep: needs `nsys export` */
  WS_INPUT_NCU_REPORT,    /* .ncu-rep: needs `ncu --import` */
  WS_INPUT_NVPROF_SQLITE, /* an nvprof export (.nvvp, .nvprof, any name) */
  WS_INPUT_CPU_PROFILE,   /* py-spy / speedscope JSON, collapsed stacks, cProfile text */
  WS_INPUT_DIGEST,        /* a job digest (`warpscope-cli digest`, .wsdigest) */
  WS_INPUT_NVPROF_LOG,    /* nvprof console output or `--csv` summary */
  WS_INPUT_NVPROF_TRACE,  /* `nvprof --print-gpu-trace`, text or `--csv` */
  WS_INPUT_KINETO,        /* a PyTorch profiler (Kineto) trace, .json or .json.gz */
} WsInputKind;

/* How a file of a kind becomes (part of) a run: which loader it needs. */
typedef enum
{
  WS_INPUT_LOAD_NONE,   /* read by no loader: a refusal row */
  WS_INPUT_LOAD_FOLDER, /* expanded into its files (ws_input_expand_folder) */
  WS_INPUT_LOAD_EXPORT, /* a trace of a whole run: one per run, the anchor the others join */
  WS_INPUT_LOAD_JOIN,   /* joins the export of its run (a CSV, a log, a CPU profile) */
  WS_INPUT_LOAD_DIGEST, /* a job of its own, read by the digest loader */
} WsInputLoad;

/* What a sniff is shown: the file's name and status and, for rows that
 * read content, its first bytes (read once, a UTF-8 byte order mark left
 * out; NULL until the first such row). */
typedef struct
{
  const char *path;
  GStatBuf st;
  const char *head;
  gsize len;
} WsInputHead;

/* Whether the file is of the row's kind.  A sniff that knows the file and
 * refuses it sets @error (one line naming the file) and detection stops. */
typedef gboolean (*WsInputSniff) (const WsInputHead *head, GError **error);

/* One row of the table of inputs: ws_input_detect() asks each row's sniff
 * in order and takes the first that says yes.  A row of kind
 * %WS_INPUT_UNKNOWN only refuses (a file recognised as one Warpscope does
 * not read).  A new format is its reader and one row. */
typedef struct
{
  WsInputKind kind;
  const char *name;    /* the kind's name (ws_input_kind_to_string), or the refusal's */
  WsInputLoad load;    /* the loader it needs */
  gboolean converts;   /* an Nsight report: `nsys export` or `ncu --import` first */
  gboolean reads_head; /* the sniff looks at the head: an empty file is refused before */
  WsInputSniff sniff;
} WsInputFormat;

const WsInputFormat *ws_input_formats (gsize *n_formats);
WsInputKind ws_input_detect (const char *path, GError **error);
gboolean ws_input_kind_is_export (WsInputKind kind);
const char *ws_input_kind_to_string (WsInputKind kind);
gboolean ws_input_expand_folder (const char *folder, GPtrArray *files, char **run_json,
                                 GError **error);
GPtrArray *ws_input_group_runs (const char *const *paths);
char **ws_input_split_side (const char *arg);

gboolean ws_input_check_distinct (GPtrArray *paths, GError **error);

G_END_DECLS
