/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-capture-settings.h"
#include "ws-capture-target-run.h"

G_BEGIN_DECLS

/* What the manifest says about the run as a whole. */
typedef struct
{
  const char *targets_file;
  const char *group;
  const char *nsys;
  const char *nsys_version;
  const char *ncu;
  const char *ncu_version;
  GPtrArray *gpus; /* of "NAME, DRIVER" */
  const WsCaptureSettings *settings;
} WsCaptureRunInfo;

gboolean ws_capture_manifest_write (const WsCaptureTargetRun *target, const char *status,
                                    const WsCaptureRunInfo *info, GError **error);
char *ws_capture_manifest_time (gint64 usec);

G_END_DECLS
