/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-capture-plan.h"

G_BEGIN_DECLS

char *ws_capture_step_line (guint step, WsCaptureStepState state, const char *name,
                            const char *detail);
char *ws_capture_command_line (const WsCaptureCommand *command);
gboolean ws_capture_line_is_problem (const char *line);
char *ws_capture_problem_in_file (const char *path);
char *ws_capture_check_output (const char *path, gboolean no_kernels_profiled);

G_END_DECLS
