/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-capture-settings.h"
#include "ws-capture-target-run.h"

G_BEGIN_DECLS

/* What a run fixes before its first target. */
typedef struct
{
  char *nsys; /* the programs, resolved */
  char *ncu;
  char *out_dir; /* OUT_DIR, absolute */
  char *group;
  char *group_dir; /* OUT/<group>, created */
  char *log_path;  /* GLOBAL_LOG, absolute, or capture.log in the group folder */
} WsCaptureRunSetup;

gboolean ws_capture_check_log (const WsCaptureSettings *settings, const char *targets_file,
                               const char *base_dir, const char *nsys, const char *ncu,
                               GError **error);
gboolean ws_capture_prepare_run (WsCaptureRunSetup *setup, const WsCaptureSettings *settings,
                                 GPtrArray *targets, const char *targets_file, const char *base_dir,
                                 GError **error);
void ws_capture_run_setup_clear (WsCaptureRunSetup *setup);
gboolean ws_capture_prepare_targets (GPtrArray *targets, const char *targets_file, GError **error);
gboolean ws_capture_prepare_target (WsCaptureTargetRun *target, const char *group_dir,
                                    const WsCaptureSettings *settings, const char *nsys,
                                    const char *ncu, const char *const *base_env, GError **error);

G_END_DECLS
