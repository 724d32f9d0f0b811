/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-capture-plan.h"

G_BEGIN_DECLS

/* What a running command's output said so far about why it may fail. */
typedef struct
{
  char *problem_line;           /* the line that best names the cause */
  gboolean no_kernels_profiled; /* ncu said "No kernels were profiled" */
} WsCaptureOutputWatch;

char *ws_capture_step_line (guint step, WsCaptureStepState state, const char *name,
                            const char *detail);
char *ws_capture_command_line (const WsCaptureCommand *command);
void ws_capture_output_watch_line (WsCaptureOutputWatch *watch, const char *line);
void ws_capture_output_watch_clear (WsCaptureOutputWatch *watch);
char *ws_capture_problem_in_file (const char *path);
char *ws_capture_check_output (const char *path, gboolean no_kernels_profiled);
char *ws_capture_judge_output (const char *path, gint64 size, gboolean qdstrm_exists,
                               gboolean no_kernels_profiled);
char *ws_capture_qdstrm_of (const char *report);
char **ws_capture_command_stat_paths (const WsCaptureCommand *command);
char *ws_capture_command_problem_sized (const WsCaptureCommand *command, int exit_status,
                                        const char *problem_line, gboolean no_kernels_profiled,
                                        GArray *sizes);
char *ws_capture_command_problem (const WsCaptureCommand *command, int exit_status,
                                  const char *problem_line, gboolean no_kernels_profiled);

G_END_DECLS
