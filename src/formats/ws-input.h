/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

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
} WsInputKind;

WsInputKind ws_input_detect (const char *path, GError **error);
gboolean ws_input_kind_is_export (WsInputKind kind);
const char *ws_input_kind_to_string (WsInputKind kind);
gboolean ws_input_expand_folder (const char *folder, GPtrArray *files, char **run_json,
                                 GError **error);
GPtrArray *ws_input_group_runs (const char *const *paths);
char **ws_input_split_side (const char *arg);

gboolean ws_input_check_distinct (GPtrArray *paths, GError **error);

G_END_DECLS
